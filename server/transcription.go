package server

import (
	"bytes"
	"errors"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/transcript"
	"github.com/sottolabs/sotto/speaker"
)

// POST /v1/audio/transcriptions (spec part 4): multipart/form-data with
//
//	file                       audio or video (through package audio), required
//	model                      default: Config.DefaultTranscriptionModel, else the catalog's default_for
//	language                   BCP 47; omitted or "auto" detects; outside the model's set: 400 asr_language_unsupported
//	prompt                     text the backend may bias its language model toward
//	response_format            json (default), verbose_json, text, srt, vtt, diarized_json (with the
//	                           speaker timeline model; 422 diarization_unsupported when the catalog has none)
//	timestamp_granularities[]  word and/or segment; verbose_json or diarized_json only
//	stream                     true: SSE text deltas, desktop listener only, json output and no granularities
//	temperature                0 to 1; only a sampling backend (Whisper) takes other than 0
//	audio_track, audio_channel as for alignments
//	chunking_strategy          OpenAI's; "auto" (the default there, and what the recognizer does) only
//	include[], known_speaker_names[], known_speaker_references[]
//	                           OpenAI's; 400 unsupported_parameter
//
// Any other field is a 400 naming it, so a misspelt option is never
// silently ignored.

// granularityFields are the form field names accepted for timestamp
// granularities: OpenAI's client sends the first.
var granularityFields = []string{"timestamp_granularities[]", "timestamp_granularities"}

// transcriptionFields are the text fields a transcription request may carry.
var transcriptionFields = []string{"model", "language", "prompt", "response_format", "stream", "temperature",
	"audio_track", "audio_channel", "timestamp_granularities[]", "timestamp_granularities"}

// Event names of a streamed transcription (spec part 6.5), as OpenAI's
// transcription stream names them.
const (
	eventTextDelta = "transcript.text.delta"
	eventTextDone  = "transcript.text.done"
)

// textDelta is the data of a transcript.text.delta event: the text to
// append to what came before (a leading space separates words).
type textDelta struct {
	Type  string `json:"type"`
	Delta string `json:"delta"`
}

// textDone is the data of the final transcript.text.done event.
type textDone struct {
	Type     string           `json:"type"`
	Text     string           `json:"text"`
	Duration float64          `json:"duration"`
	Usage    transcript.Usage `json:"usage"`
}

// transcriptionRequest is a validated transcription request.
type transcriptionRequest struct {
	file     *spooled
	model    ModelInfo
	language string // "" detects, else a canonical tag
	prompt   string
	format   transcript.Format
	gran     transcript.Granularities
	stream   bool
	// temperature is the first decoding's (0 to 1); a backend that does
	// not sample refuses any other value.
	temperature float64
	audio       audio.Options
	diarizer    ModelInfo // the speaker timeline model of diarized_json
}

// openAITranscriptionField handles the fields OpenAI's transcription API
// documents and its clients may send that Sotto has no use for (the spec
// is silent on them): the neutral value is accepted, any other is a 400
// unsupported_parameter naming the field, as on the generation endpoints,
// rather than an "unknown field". It reports whether name is such a field.
// The OpenAI clients send an object value as name[key] fields.
func openAITranscriptionField(f *form, name string) (bool, error) {
	unsupported := func(param, why string) (bool, error) {
		return true, sotto.Invalid("unsupported_parameter", param, "%s is not supported: %s", param, why)
	}
	switch base, _, _ := strings.Cut(name, "["); base {
	case "chunking_strategy":
		if v, _, err := f.value(name); err != nil || name == base && v == "auto" {
			return true, err
		}
		return unsupported(base, `only "auto": the recognizer cuts the audio at pauses itself`)
	case "include":
		return unsupported("include[]", "logprobs are not produced; verbose_json with "+
			"timestamp_granularities[]=word gives each word's confidence")
	case "known_speaker_names", "known_speaker_references":
		return unsupported(base+"[]", "diarized_json labels the speakers S1, S2 …; it does not match them to known voices")
	}
	return false, nil
}

// parseTranscriptionRequest validates every field of a transcription
// request. The order puts the checks that need no model first, so a
// malformed request is a 400 even when no model is ready.
func (s *Server) parseTranscriptionRequest(f *form) (*transcriptionRequest, error) {
	req := &transcriptionRequest{file: f.files["file"]}
	if req.file == nil {
		return nil, sotto.Invalid("bad_request", "file", "field \"file\" (the audio or video) is required")
	}
	for name := range f.files {
		if name != "file" {
			return nil, sotto.Invalid("bad_request", name, "unknown file field %q; send the media in \"file\"", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(f.values)) {
		if ok, err := openAITranscriptionField(f, name); ok || err != nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		if !slices.Contains(transcriptionFields, name) {
			return nil, sotto.Invalid("bad_request", name, "unknown field %q; the fields are file, %s",
				name, strings.Join(transcriptionFields, ", "))
		}
	}
	get := f.value
	format, _, err := get("response_format")
	if err != nil {
		return nil, err
	}
	if req.format, err = transcript.ParseFormat(format); err != nil {
		return nil, err
	}
	if err := parseGranularities(f, req); err != nil {
		return nil, err
	}
	stream, _, err := get("stream")
	if err != nil {
		return nil, err
	}
	if stream != "" {
		if req.stream, err = strconv.ParseBool(stream); err != nil {
			return nil, sotto.Invalid("bad_request", "stream", "stream must be true or false, not %q", stream)
		}
	}
	if req.stream {
		switch {
		case !s.cfg.Desktop:
			return nil, sotto.Invalid("bad_request", "stream",
				"streaming transcription is available on the desktop gateway only; send stream=false here")
		case req.format != transcript.JSON:
			return nil, sotto.Invalid("bad_request", "stream", "stream=true needs response_format json, not %s", req.format)
		case req.gran != (transcript.Granularities{}):
			return nil, sotto.Invalid("bad_request", "stream", "stream=true cannot be combined with timestamp granularities")
		}
	}
	if t, ok, err := get("temperature"); err != nil {
		return nil, err
	} else if ok {
		x, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil || math.IsNaN(x) || x < 0 || x > 1 {
			return nil, sotto.Invalid("bad_request", "temperature", "temperature must be a number from 0 to 1, not %q", t)
		}
		req.temperature = x // the model's backend says whether it samples
	}
	if req.prompt, _, err = get("prompt"); err != nil {
		return nil, err
	}
	if !utf8.ValidString(req.prompt) {
		return nil, sotto.Invalid("bad_request", "prompt", "prompt is not valid UTF-8")
	}
	track, _, err := get("audio_track")
	if err != nil {
		return nil, err
	}
	if req.audio.Track, err = audio.ParseTrack(track); err != nil {
		return nil, err
	}
	ch, _, err := get("audio_channel")
	if err != nil {
		return nil, err
	}
	if _, err := audio.ParseChannel(ch); err != nil {
		return nil, err
	}
	req.audio.Channel = ch

	lang, _, err := get("language")
	if err != nil {
		return nil, err
	}
	if lang == "auto" {
		lang = ""
	}
	if lang != "" {
		tag, err := language.Parse(lang)
		if err != nil {
			return nil, sotto.Invalid("asr_language_unsupported", "language", "language %q is not a language tag", lang)
		}
		req.language = tag.String()
	}
	model, _, err := get("model")
	if err != nil {
		return nil, err
	}
	if model == "" {
		model = s.cfg.DefaultTranscriptionModel
	}
	req.model, err = s.resolveModel(model, pathTranscriptions)
	if errors.Is(err, sotto.ErrNotImplemented) && req.language != "" {
		// No model transcribes at all: every language is outside the set.
		err = sotto.Invalid("asr_language_unsupported", "language",
			"language %q cannot be transcribed: no transcription model is in this build's catalog", lang)
	}
	if err != nil {
		return nil, err
	}
	langs := req.model.Languages
	if req.language != "" && len(langs) > 0 && !containsAny(langs) && !languageIn(req.language, langs) {
		return nil, sotto.Invalid("asr_language_unsupported", "language",
			"language %q is outside what %s transcribes (%s)", lang, req.model.ID, strings.Join(langs, ", "))
	}
	if req.format == transcript.DiarizedJSON {
		// Diarization runs on the catalog's speaker timeline model.
		if req.diarizer, err = s.resolveModel("", pathTimelines); err != nil {
			return nil, transcript.ErrDiarization
		}
	}
	return req, nil
}

// parseGranularities reads the timestamp granularities, which only the
// structured formats accept.
func parseGranularities(f *form, req *transcriptionRequest) error {
	for _, name := range granularityFields {
		for _, g := range f.values[name] {
			switch strings.TrimSpace(g) {
			case "word":
				req.gran.Words = true
			case "segment":
				req.gran.Segments = true
			default:
				return sotto.Invalid("bad_request", "timestamp_granularities[]", "granularity %q is not word or segment", g)
			}
		}
	}
	if req.gran != (transcript.Granularities{}) && !req.format.Structured() {
		return sotto.Invalid("bad_request", "timestamp_granularities[]",
			"timestamp granularities need response_format verbose_json or diarized_json, not %s", req.format)
	}
	return nil
}

// resultLanguage is the language a result reports: the requested one, the
// one the backend detected (a segment's Language), or the model's only
// language.
func (req *transcriptionRequest) resultLanguage(segs []asr.Segment) string {
	if req.language != "" {
		return req.language
	}
	for _, s := range segs {
		if s.Language != "" {
			return s.Language
		}
	}
	if l := req.model.Languages; len(l) == 1 && l[0] != "*" {
		return l[0]
	}
	return ""
}

// options converts a validated request into asr.Options.
func (req *transcriptionRequest) options() asr.Options {
	// Subtitles cut cues from word times; diarized_json splits a segment
	// where its words change speaker, so both need words whatever the
	// granularities say.
	return asr.Options{Language: req.language, Prompt: req.prompt, Streaming: req.stream, Temperature: req.temperature,
		Words: req.gran.Words || req.format == transcript.SRT || req.format == transcript.VTT ||
			req.format == transcript.DiarizedJSON}
}

// handleTranscription validates the request, decodes the media, holds the
// model for the request (loading it if needed; lifecycle errors as for
// alignments) and transcribes; for diarized_json it then holds the speaker
// timeline model and assigns speakers. With stream=true (desktop only) it answers
// SSE: transcript.text.delta events as segments are decided, then one
// transcript.text.done, or an error event with the error envelope.
func (s *Server) handleTranscription(w http.ResponseWriter, r *http.Request) {
	f, err := parseMultipart(r, s.cfg.SpoolDir)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer f.Close()
	req, err := s.parseTranscriptionRequest(f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.decodeUpload(w, r, req.file.path, req.audio)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, release, err := acquire[asr.Backend](r.Context(), s, req.model.ID, "transcribe")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release() // idempotent; released early below once the recognizer is done
	if req.stream {
		s.streamTranscription(w, r, b, a, req)
		return
	}
	var segs []asr.Segment
	err = b.Transcribe(r.Context(), a, req.options(), func(seg asr.Segment) error {
		segs = append(segs, seg)
		return nil
	})
	release()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res := &transcript.Result{Segments: segs, Language: req.resultLanguage(segs), Duration: a.Seconds()}
	if req.format == transcript.DiarizedJSON {
		if res.Turns, err = s.speakerTurns(r, req.diarizer, a); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	var body bytes.Buffer
	if err := transcript.Write(r.Context(), &body, req.format, res, req.gran); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", req.format.ContentType())
	w.WriteHeader(http.StatusOK)
	w.Write(body.Bytes())
}

// speakerTurns makes the speaker timeline of a with model m (holding it
// only meanwhile), for diarized_json.
func (s *Server) speakerTurns(r *http.Request, m ModelInfo, a sotto.Audio) ([]transcript.Turn, error) {
	b, release, err := s.speakerBackend(r, m)
	if err != nil {
		return nil, err
	}
	defer release()
	tl, err := speaker.MakeTimeline(r.Context(), b, a, speaker.TimelineOptions{})
	if err != nil {
		return nil, err
	}
	turns := make([]transcript.Turn, len(tl.Turns))
	for i, t := range tl.Turns {
		turns[i] = transcript.Turn{Start: t.Start, End: t.End, Speaker: t.Speaker}
	}
	return turns, nil
}

// streamTranscription runs a streamed transcription. Nothing is written
// until the first delta, so a failure before any text is an ordinary error
// response; after it, a failure is an "error" event.
func (s *Server) streamTranscription(w http.ResponseWriter, r *http.Request, b asr.Backend, a sotto.Audio, req *transcriptionRequest) {
	sse := newSSE(w)
	var text strings.Builder
	err := b.Transcribe(r.Context(), a, req.options(), func(seg asr.Segment) error {
		d := transcript.AppendText(&text, seg.Text)
		if d == "" {
			return nil
		}
		return sse.event(eventTextDelta, textDelta{Type: eventTextDelta, Delta: d})
	})
	if err == nil {
		dur := math.Round(a.Seconds()*1000) / 1000
		err = sse.event(eventTextDone, textDone{Type: eventTextDone, Text: text.String(), Duration: dur,
			Usage: transcript.Usage{Type: "duration", Seconds: dur}})
		if err == nil {
			return
		}
	}
	if !sse.started {
		s.writeError(w, r, err)
		return
	}
	if r.Context().Err() != nil {
		s.log.Debug("transcription stream ended by the client", "id", requestID(r.Context()), "err", err)
		return
	}
	resp := errorFor(err)
	level := slog.LevelDebug
	if resp.status >= 500 {
		level = slog.LevelError
	}
	s.log.Log(r.Context(), level, "transcription stream failed", "id", requestID(r.Context()), "status", resp.status,
		"code", resp.body.Error.Code, "err", err)
	sse.event("error", sseError{Type: "error", Error: resp.body.Error})
}
