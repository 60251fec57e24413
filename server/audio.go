package server

import (
	"net/http"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
)

const (
	pathTranscriptions = "/v1/audio/transcriptions"
	pathAlignments     = "/v1/audio/alignments"
	pathSpeech         = "/v1/audio/speech"
)

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
