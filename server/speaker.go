package server

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/speaker"
)

type similarityRequest struct {
	EmbeddingA json.RawMessage `json:"embedding_a"`
	EmbeddingB json.RawMessage `json:"embedding_b"`
	Model      string          `json:"model"`
}

const pathSimilarity = "/v1/speaker/similarity"

func (s *Server) handleSimilarity(w http.ResponseWriter, r *http.Request) {
	var req similarityRequest
	if err := decodeJSON(r, &req, true, ""); err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := parseEmbedding(req.EmbeddingA, "embedding_a")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, err := parseEmbedding(req.EmbeddingB, "embedding_b")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	m, err := s.resolveModel(req.Model, pathSimilarity)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sim, err := speaker.Similarity(a, b)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "speaker_similarity", "model": m.ID, "similarity": sim})
}

func parseEmbedding(raw json.RawMessage, param string) ([]float64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, sotto.Invalid("bad_request", param, "field %q is required: %d numbers from /v1/speaker/embeddings", param, speaker.Dim)
	}
	// Pointers tell a null element apart from 0 (encoding/json leaves a
	// float64 untouched for null).
	var p []*float64
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, sotto.Invalid("bad_request", param, "field %q must be an array of %d numbers", param, speaker.Dim)
	}
	if len(p) != speaker.Dim {
		return nil, sotto.Invalid("bad_request", param, "field %q has %d numbers; an embedding has exactly %d", param, len(p), speaker.Dim)
	}
	v := make([]float64, len(p))
	for i, x := range p {
		if x == nil {
			return nil, sotto.Invalid("bad_request", param, "%s[%d] is null; an embedding is %d numbers", param, i, speaker.Dim)
		}
		v[i] = *x
	}
	return v, nil
}

const (
	pathEmbeddings = "/v1/speaker/embeddings"
	pathTimelines  = "/v1/speaker/timelines"
)

// The form fields (besides "file") of the embeddings and timelines
// endpoints.
var (
	embeddingFields = []string{"model", "start", "end", "audio_track", "audio_channel"}
	timelineFields  = append(slices.Clip(embeddingFields), "speakers", "max_speakers", "response_format")
)

// speakerAudioRequest is the audio part of a speaker request: the file, an
// optional window, the track and channel.
type speakerAudioRequest struct {
	file       *spooled
	model      ModelInfo
	start, end float64
	window     bool
	audio      audio.Options
}

// parseSpeakerAudio validates the fields shared by the embeddings and
// timelines endpoints.
// A field not listed is a 400 naming it, so a misspelt option is never
// silently ignored.
func (s *Server) parseSpeakerAudio(f *form, path string, fields []string) (*speakerAudioRequest, error) {
	req := &speakerAudioRequest{file: f.files["file"]}
	if req.file == nil {
		return nil, sotto.Invalid("bad_request", "file", "field \"file\" (the audio) is required")
	}
	for name := range f.files {
		if name != "file" {
			return nil, sotto.Invalid("bad_request", name, "unknown file field %q; send the audio in \"file\"", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(f.values)) {
		if !slices.Contains(fields, name) {
			return nil, sotto.Invalid("bad_request", name, "unknown field %q; the fields are file, %s", name, strings.Join(fields, ", "))
		}
	}
	start, hasStart, err := parseNumber(f, "start")
	if err != nil {
		return nil, err
	}
	end, hasEnd, err := parseNumber(f, "end")
	if err != nil {
		return nil, err
	}
	switch {
	case hasStart && !hasEnd:
		return nil, sotto.Invalid("bad_request", "end", "start needs end: send both to use a window of the audio")
	case hasEnd && !hasStart:
		return nil, sotto.Invalid("bad_request", "start", "end needs start: send both to use a window of the audio")
	case hasStart && start < 0:
		return nil, sotto.Invalid("bad_request", "start", "start %g is negative; a window needs 0 <= start < end", start)
	case hasStart && end <= start:
		return nil, sotto.Invalid("bad_request", "end", "end %g is not after start %g; a window needs 0 <= start < end", end, start)
	}
	req.start, req.end, req.window = start, end, hasStart
	track, _, err := f.value("audio_track")
	if err != nil {
		return nil, err
	}
	if req.audio.Track, err = audio.ParseTrack(track); err != nil {
		return nil, err
	}
	ch, _, err := f.value("audio_channel")
	if err != nil {
		return nil, err
	}
	if _, err := audio.ParseChannel(ch); err != nil {
		return nil, err
	}
	req.audio.Channel = ch
	model, _, err := f.value("model")
	if err != nil {
		return nil, err
	}
	if req.model, err = s.resolveModel(model, path); err != nil {
		return nil, err
	}
	return req, nil
}

// decode decodes the audio and cuts the window; offset is the window's
// start in seconds.
func (req *speakerAudioRequest) decode(s *Server, w http.ResponseWriter, r *http.Request) (a sotto.Audio, offset float64, err error) {
	a, err = s.decodeUpload(w, r, req.file.path, req.audio)
	if err != nil {
		return a, 0, err
	}
	if !req.window {
		return a, 0, nil
	}
	if dur := a.Seconds(); req.end > dur+1e-6 {
		return a, 0, sotto.Invalid("bad_request", "end", "the window %g..%g s ends after the audio (%.3f s)", req.start, req.end, dur)
	}
	i := min(len(a.Samples), int(math.Round(req.start*float64(a.Rate()))))
	j := min(len(a.Samples), int(math.Round(req.end*float64(a.Rate()))))
	a.Samples = a.Samples[i:j]
	return a, req.start, nil
}

// speakerBackend acquires the model and returns its speaker backend.
func (s *Server) speakerBackend(r *http.Request, m ModelInfo) (speaker.Backend, func(), error) {
	return acquire[speaker.Backend](r.Context(), s, m.ID, "embed speakers")
}

// embeddingResult is the body of a POST /v1/speaker/embeddings answer.
type embeddingResult struct {
	Object        string    `json:"object"` // "speaker_embedding"
	Model         string    `json:"model"`
	Method        string    `json:"method,omitempty"`
	Embedding     []float32 `json:"embedding"`
	Dimensions    int       `json:"dimensions"`
	SpeechSeconds float64   `json:"speech_seconds"`
	Usage         struct {
		Seconds float64 `json:"seconds"`
	} `json:"usage"`
}

// handleEmbeddings answers POST /v1/speaker/embeddings: multipart "file"
// (with optional "start"/"end" window, "audio_track", "audio_channel",
// "model") → the speaker embedding of the speech in it.
func (s *Server) handleEmbeddings(w http.ResponseWriter, r *http.Request) {
	f, err := parseMultipart(r, s.cfg.SpoolDir)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer f.Close()
	req, err := s.parseSpeakerAudio(f, pathEmbeddings, embeddingFields)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, _, err := req.decode(s, w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, release, err := s.speakerBackend(r, req.model)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	e, err := speaker.EmbedDetail(r.Context(), b, a)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res := embeddingResult{Object: "speaker_embedding", Model: req.model.ID, Method: e.Method, Embedding: e.Vector,
		Dimensions: len(e.Vector), SpeechSeconds: round3(e.SpeechSeconds)}
	res.Usage.Seconds = round3(a.Seconds())
	writeJSON(w, http.StatusOK, res)
}

// timelineResult is the JSON body of a POST /v1/speaker/timelines answer.
type timelineResult struct {
	Object        string            `json:"object"` // "speaker_timeline"
	Model         string            `json:"model"`
	Duration      float64           `json:"duration"`
	Speakers      []string          `json:"speakers"`
	Segments      []timelineSegment `json:"segments"`
	SpeechSeconds float64           `json:"speech_seconds"`
	Usage         struct {
		Seconds float64 `json:"seconds"`
	} `json:"usage"`
}

type timelineSegment struct {
	ID      int     `json:"id"`
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	Speaker string  `json:"speaker"`
}

// handleTimelines answers POST /v1/speaker/timelines: who spoke when.
// Multipart: "file" with the audio fields of the embeddings endpoint, plus
// "speakers" (the number of speakers, when known; 0 or absent estimates
// it), "max_speakers" (bound of the estimate) and "response_format"
// ("json", default, or "rttm").
func (s *Server) handleTimelines(w http.ResponseWriter, r *http.Request) {
	f, err := parseMultipart(r, s.cfg.SpoolDir)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer f.Close()
	req, err := s.parseSpeakerAudio(f, pathTimelines, timelineFields)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var opts speaker.TimelineOptions
	for _, fld := range []struct {
		name string
		dst  *int
	}{{"speakers", &opts.Speakers}, {"max_speakers", &opts.MaxSpeakers}} {
		v, ok, err := f.value(fld.name)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			s.writeError(w, r, sotto.Invalid("bad_request", fld.name, "%s must be a whole number, not %q", fld.name, v))
			return
		}
		*fld.dst = n
	}
	if err := opts.Validate(); err != nil {
		s.writeError(w, r, err)
		return
	}
	format, _, err := f.value("response_format")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	switch format {
	case "", "json", "rttm":
	default:
		s.writeError(w, r, sotto.Invalid("bad_request", "response_format", "response_format must be json or rttm, not %q", format))
		return
	}
	a, offset, err := req.decode(s, w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, release, err := s.speakerBackend(r, req.model)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	tl, err := speaker.MakeTimeline(r.Context(), b, a, opts)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for i := range tl.Turns {
		tl.Turns[i].Start, tl.Turns[i].End = round3(tl.Turns[i].Start+offset), round3(tl.Turns[i].End+offset)
	}
	if format == "rttm" {
		name := strings.Map(func(r rune) rune {
			if r <= ' ' || r == 0x7f {
				return '_'
			}
			return r
		}, strings.TrimSuffix(filepath.Base(req.file.filename), filepath.Ext(req.file.filename)))
		if name == "" || name == "." || name == "_" {
			name = "audio"
		}
		var buf bytes.Buffer
		if err := speaker.WriteRTTM(&buf, name, tl); err != nil {
			s.writeError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		w.Write(buf.Bytes())
		return
	}
	res := timelineResult{Object: "speaker_timeline", Model: req.model.ID, Duration: round3(tl.Duration),
		Speakers: tl.Speakers, Segments: make([]timelineSegment, len(tl.Turns)), SpeechSeconds: round3(tl.SpeechSeconds)}
	for i, t := range tl.Turns {
		res.Segments[i] = timelineSegment{ID: i, Start: t.Start, End: t.End, Speaker: t.Speaker}
	}
	res.Usage.Seconds = round3(a.Seconds())
	writeJSON(w, http.StatusOK, res)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
