package server

import (
	"encoding/json"
	"net/http"

	"github.com/sottolabs/sotto"
)

// generation serves a generation path (Messages, Responses, Chat
// Completions, tokenize). It validates the request and routes it to the
// model named in it: an unknown model is a 404, a model whose
// supported_endpoints lack the path a 400. No language model backend is in
// this build yet, so a valid request for a known model answers 501
// capability_unavailable rather than invented text.
func (s *Server) generation(path string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req map[string]json.RawMessage
		if err := decodeJSON(r, &req, false, ""); err != nil {
			s.writeError(w, r, err)
			return
		}
		var model string
		if raw, ok := req["model"]; ok {
			if err := json.Unmarshal(raw, &model); err != nil {
				s.writeError(w, r, sotto.Invalid("bad_request", "model", "field \"model\" must be a string"))
				return
			}
		}
		if model == "" {
			s.writeError(w, r, sotto.Invalid("bad_request", "model",
				"field \"model\" is required: a catalog model whose supported_endpoints contain %s", path))
			return
		}
		if _, err := s.resolveModel(model, path); err != nil {
			s.writeError(w, r, err)
			return
		}
		for _, f := range requiredGenerationFields[path] {
			if _, ok := req[f]; !ok {
				s.writeError(w, r, sotto.Invalid("bad_request", f, "field %q is required", f))
				return
			}
		}
		s.writeError(w, r, sotto.NotImplemented("capability_unavailable",
			"model %q is in the catalog but this build has no language-model backend to run it", model))
	}
}

var requiredGenerationFields = map[string][]string{
	"/v1/messages":         {"messages", "max_tokens"},
	"/v1/responses":        {"input"},
	"/v1/chat/completions": {"messages"},
}
