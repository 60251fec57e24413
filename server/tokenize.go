package server

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/llm"
)

// tokenizeRequest is the body of POST /v1/tokenize: a model and either text
// or messages (whose contents are tokenized one after the other).
type tokenizeRequest struct {
	Model    string            `json:"model"`
	Text     *string           `json:"text"`
	Messages []json.RawMessage `json:"messages"`
}

// tokenizeResult is the answer: the token IDs and their count.
type tokenizeResult struct {
	Object string `json:"object"` // "tokens"
	Model  string `json:"model"`
	Tokens []int  `json:"tokens"`
	Count  int    `json:"count"`
}

func (s *Server) handleTokenize(w http.ResponseWriter, r *http.Request) {
	body, err := readGenBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	m, err := s.routeGeneration(body, pathTokenize)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if isRemote(m) {
		u, err := s.upstreamFor(m)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.passThrough(w, r, u, m, "/tokenize", body)
		return
	}
	var tr tokenizeRequest
	if err := unmarshalStrict(body, &tr, true, ""); err != nil {
		s.writeError(w, r, err)
		return
	}
	var texts []string
	switch {
	case tr.Text != nil && tr.Messages != nil:
		s.writeError(w, r, sotto.Invalid("bad_request", "messages", "send either text or messages, not both"))
		return
	case tr.Text != nil:
		texts = []string{*tr.Text}
	case tr.Messages != nil:
		for i, raw := range tr.Messages {
			p := fmt.Sprintf("messages[%d]", i)
			var mm struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			}
			if err := json.Unmarshal(raw, &mm); err != nil {
				s.writeError(w, r, sotto.Invalid("bad_request", p, "%s must be an object with role and content", p))
				return
			}
			t, err := textContent(mm.Content, p+".content", "text", "input_text", "output_text")
			if err != nil {
				s.writeError(w, r, err)
				return
			}
			texts = append(texts, t)
		}
	default:
		s.writeError(w, r, sotto.Invalid("bad_request", "text", "field \"text\" (a string) or \"messages\" is required"))
		return
	}
	b, release, err := s.acquireLLM(r.Context(), m)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	tk, ok := b.(llm.Tokenizer)
	if !ok {
		s.writeError(w, r, sotto.NotImplemented("capability_unavailable", "the backend of model %q does not expose its tokenizer", m.ID))
		return
	}
	out := tokenizeResult{Object: "tokens", Model: m.ID, Tokens: []int{}}
	for _, t := range texts {
		ids, err := tk.Tokenize(r.Context(), t)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out.Tokens = append(out.Tokens, ids...)
	}
	out.Count = len(out.Tokens)
	writeJSON(w, http.StatusOK, out)
}
