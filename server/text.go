package server

import (
	"encoding/json"
	"net/http"

	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/segment"
)

const (
	pathNormalizations = "/v1/text/normalizations"
	pathSegmentations  = "/v1/text/segmentations"
)

// handleNormalization serves POST /v1/text/normalizations with the
// built-in normalize package (model Sotto/Skylark, no load needed).
func (s *Server) handleNormalization(w http.ResponseWriter, r *http.Request) {
	const code = "normalization_invalid_request"
	body, err := readBody(r, code)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var peek struct {
		Model any `json:"model"`
	}
	if json.Unmarshal(body, &peek) == nil {
		if id, ok := peek.Model.(string); ok && id != "" {
			if _, err := s.resolveModel(id, pathNormalizations); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
	}
	// The request's own type, so a wrongly typed field is named in JSON terms
	// ("must be a string, not a JSON number"), not in Go's.
	if err := unmarshalStrict(body, new(normalize.Request), true, code); err != nil {
		s.writeError(w, r, err)
		return
	}
	req, err := normalize.DecodeRequest(body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := normalize.Normalize(r.Context(), *req.Text, req.Options())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// handleSegmentation serves POST /v1/text/segmentations with the segment
// package; file input is read on the desktop gateway only.
func (s *Server) handleSegmentation(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r, "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := unmarshalStrict(body, new(json.RawMessage), false, ""); err != nil {
		s.writeError(w, r, err)
		return
	}
	req, err := segment.DecodeRequest(bytesReader(body))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := segment.Segment(r.Context(), req, s.cfg.Desktop)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
