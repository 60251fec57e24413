package server

import (
	"encoding/json"
	"net/http"

	"github.com/sottolabs/sotto"
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
	var v []float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, sotto.Invalid("bad_request", param, "field %q must be an array of %d numbers", param, speaker.Dim)
	}
	if len(v) != speaker.Dim {
		return nil, sotto.Invalid("bad_request", param, "field %q has %d numbers; an embedding has exactly %d", param, len(v), speaker.Dim)
	}
	return v, nil
}

func (s *Server) handleEmbeddings(w http.ResponseWriter, r *http.Request) {
	f, err := parseMultipart(r, s.cfg.SpoolDir)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer f.Close()
	if f.files["file"] == nil {
		s.writeError(w, r, sotto.Invalid("bad_request", "file", "field \"file\" (the audio) is required"))
		return
	}
	model, _, err := f.value("model")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	m, err := s.resolveModel(model, "/v1/speaker/embeddings")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeError(w, r, sotto.NotImplemented("capability_unavailable",
		"speaker embeddings with %q are not in this build yet", m.ID))
}
