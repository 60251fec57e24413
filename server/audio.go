package server

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
)

const (
	pathTranscriptions = "/v1/audio/transcriptions"
	pathAlignments     = "/v1/audio/alignments"
	pathSpeech         = "/v1/audio/speech"
)

// granularityFields are the form field names accepted for transcription
// timestamp granularities.
var granularityFields = []string{"timestamp_granularities[]", "timestamp_granularities"}

// handleTranscription validates a transcription request completely (spec
// part 4) and routes it to its model. No transcription backend is in this
// build yet, so a valid request answers 501 capability_unavailable.
func (s *Server) handleTranscription(w http.ResponseWriter, r *http.Request) {
	f, err := parseMultipart(r, s.cfg.SpoolDir)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer f.Close()
	if err := s.validateTranscription(f); err != nil {
		s.writeError(w, r, err)
		return
	}
	model, _, _ := f.value("model")
	lang, _, _ := f.value("language")
	m, err := s.resolveModel(model, pathTranscriptions)
	if errors.Is(err, sotto.ErrNotImplemented) && lang != "" && lang != "auto" {
		// No model transcribes at all: every language is outside the set.
		err = sotto.Invalid("asr_language_unsupported", "language",
			"language %q cannot be transcribed: no transcription model is in this build", lang)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if lang != "" && lang != "auto" && !languageIn(lang, m.Languages) {
		s.writeError(w, r, sotto.Invalid("asr_language_unsupported", "language",
			"language %q is outside what %s transcribes (%s)", lang, m.ID, strings.Join(m.Languages, ", ")))
		return
	}
	s.writeError(w, r, sotto.NotImplemented("capability_unavailable",
		"transcription with %q is not in this build yet", m.ID))
}

func (s *Server) validateTranscription(f *form) error {
	if f.files["file"] == nil {
		return sotto.Invalid("bad_request", "file", "field \"file\" (the audio or video) is required")
	}
	format, _, err := f.value("response_format")
	if err != nil {
		return err
	}
	if format == "" {
		format = "json"
	}
	if !slices.Contains([]string{"json", "verbose_json", "text", "diarized_json"}, format) {
		return sotto.Invalid("bad_request", "response_format",
			"response_format %q is not one of json, verbose_json, text, diarized_json", format)
	}
	var gran []string
	for _, name := range granularityFields {
		gran = append(gran, f.values[name]...)
	}
	for _, g := range gran {
		if g != "word" && g != "segment" {
			return sotto.Invalid("bad_request", "timestamp_granularities[]", "granularity %q is not word or segment", g)
		}
	}
	if len(gran) > 0 && format != "verbose_json" && format != "diarized_json" {
		return sotto.Invalid("bad_request", "timestamp_granularities[]",
			"timestamp granularities need response_format verbose_json or diarized_json, not %s", format)
	}
	stream, _, err := f.value("stream")
	if err != nil {
		return err
	}
	switch stream {
	case "", "false":
	case "true":
		if !s.cfg.Desktop {
			return sotto.Invalid("bad_request", "stream",
				"streaming transcription is available on the desktop gateway only; send stream=false here")
		}
		if format != "json" {
			return sotto.Invalid("bad_request", "stream", "stream=true needs response_format json, not %s", format)
		}
		if len(gran) > 0 {
			return sotto.Invalid("bad_request", "stream", "stream=true cannot be combined with timestamp granularities")
		}
	default:
		return sotto.Invalid("bad_request", "stream", "stream must be true or false, not %q", stream)
	}
	if lang, _, err := f.value("language"); err != nil {
		return err
	} else if lang != "" && lang != "auto" {
		if _, err := language.Parse(lang); err != nil {
			return sotto.Invalid("asr_language_unsupported", "language", "language %q is not a language tag", lang)
		}
	}
	return nil
}

// languageIn reports whether tag's base language is one of langs.
func languageIn(tag string, langs []string) bool {
	t, err := language.Parse(tag)
	if err != nil {
		return false
	}
	base, _ := t.Base()
	for _, l := range langs {
		lt, err := language.Parse(l)
		if err != nil {
			continue
		}
		if lb, _ := lt.Base(); lb == base {
			return true
		}
	}
	return false
}

// handleSpeech validates a speech request's shape and routes it to its
// model. No speech backend is in this build yet.
func (s *Server) handleSpeech(w http.ResponseWriter, r *http.Request) {
	var req map[string]any
	if err := decodeJSON(r, &req, false, ""); err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, ok := req["style_instruction"]; ok {
		s.writeError(w, r, sotto.Invalid("bad_request", "style_instruction",
			"style_instruction was removed; send the speaking style in instructions"))
		return
	}
	model, _ := req["model"].(string)
	if model == "" {
		s.writeError(w, r, sotto.Invalid("bad_request", "model", "field \"model\" is required: a speech model ID"))
		return
	}
	m, err := s.resolveModel(model, pathSpeech)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if v, _ := req["voice"].(string); v == "" {
		s.writeError(w, r, sotto.Invalid("bad_request", "voice", "field \"voice\" is required (see GET /v1/audio/voices)"))
		return
	}
	s.writeError(w, r, sotto.NotImplemented("capability_unavailable", "speech synthesis with %q is not in this build yet", m.ID))
}

// handleVoices lists the voices of the speech models in the catalog; this
// build has no speech backend, so the list is empty.
func (s *Server) handleVoices(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{}})
}
