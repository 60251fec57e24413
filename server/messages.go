package server

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/llm"
)

// messagesRequest is a Messages request (the text subset a local model
// serves). Known fields the engine cannot honour are refused by name when
// set; unknown fields are a 400.
type messagesRequest struct {
	Model         string            `json:"model"`
	Messages      []json.RawMessage `json:"messages"`
	System        json.RawMessage   `json:"system"`
	MaxTokens     *int              `json:"max_tokens"`
	StopSequences []string          `json:"stop_sequences"`
	Stream        bool              `json:"stream"`
	Metadata      json.RawMessage   `json:"metadata"`
	Tools         json.RawMessage   `json:"tools"`
	ToolChoice    json.RawMessage   `json:"tool_choice"`
	Thinking      json.RawMessage   `json:"thinking"`
	OutputConfig  json.RawMessage   `json:"output_config"`
	ServiceTier   string            `json:"service_tier"`
	sampling
}

type messagesMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

func parseMessages(body []byte, m ModelInfo) (*genRequest, error) {
	return parseMessagesFor(body, m, false)
}

// parseMessagesFor parses a Messages request; for a token count
// (POST /v1/messages/count_tokens) max_tokens is not required.
func parseMessagesFor(body []byte, m ModelInfo, count bool) (*genRequest, error) {
	var mr messagesRequest
	if err := unmarshalStrict(body, &mr, true, ""); err != nil {
		return nil, err
	}
	if mr.Messages == nil {
		return nil, sotto.Invalid("bad_request", "messages", "field \"messages\" is required: an array of messages")
	}
	if count && mr.MaxTokens == nil {
		one := 1 // a count generates nothing; the limit only has to be valid
		mr.MaxTokens = &one
	}
	if mr.MaxTokens == nil {
		return nil, sotto.Invalid("bad_request", "max_tokens", "field \"max_tokens\" is required")
	}
	if len(mr.Messages) == 0 {
		return nil, sotto.Invalid("bad_request", "messages", "messages must not be empty")
	}
	req := &genRequest{model: m, stream: mr.Stream}
	if !isEmptyJSON(mr.System) {
		sys, err := textContent(mr.System, "system", "text")
		if err != nil {
			return nil, err
		}
		req.msgs = append(req.msgs, llm.Message{Role: "system", Content: sys})
	}
	for i, raw := range mr.Messages {
		p := fmt.Sprintf("messages[%d]", i)
		var mm messagesMessage
		if err := unmarshalItem(raw, &mm, p); err != nil {
			return nil, err
		}
		switch mm.Role {
		case "user", "assistant":
		case "":
			return nil, sotto.Invalid("bad_request", p+".role", "%s.role is required", p)
		default:
			return nil, sotto.Invalid("bad_request", p+".role", "%s.role %q is not user or assistant", p, mm.Role)
		}
		msgs, err := messagesTurn(mm, p, req.msgs)
		if err != nil {
			return nil, err
		}
		req.msgs = append(req.msgs, msgs...)
	}
	opts, err := mr.sampling.options(1)
	if err != nil {
		return nil, err
	}
	if opts.MaxTokens, err = maxTokens(mr.MaxTokens, "max_tokens"); err != nil {
		return nil, err
	}
	opts.Stop = mr.StopSequences
	if err := messagesTools(&opts, mr.Tools, mr.ToolChoice); err != nil {
		return nil, err
	}
	if !isEmptyJSON(mr.OutputConfig) {
		var oc struct {
			Effort *string `json:"effort"`
			Format *struct {
				Type   string          `json:"type"`
				Schema json.RawMessage `json:"schema"`
			} `json:"format"`
		}
		if err := json.Unmarshal(mr.OutputConfig, &oc); err != nil {
			return nil, sotto.Invalid("bad_request", "output_config", "output_config must be an object")
		}
		if oc.Effort != nil {
			return nil, unsupported("output_config.effort", "this model does not think aloud")
		}
		if f := oc.Format; f != nil {
			if f.Type != "json_schema" {
				return nil, sotto.Invalid("bad_request", "output_config.format.type", "output_config.format.type %q is not json_schema", f.Type)
			}
			if opts.JSONSchema, err = jsonSchema(f.Schema, "output_config.format.schema"); err != nil {
				return nil, err
			}
		}
	}
	if !isEmptyJSON(mr.Thinking) {
		var th struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(mr.Thinking, &th) != nil || th.Type != "disabled" {
			return nil, unsupported("thinking", "this model does not think aloud")
		}
	}
	req.opts = opts
	return req, nil
}

// The Messages wire shapes.
type messageObject struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Role         string         `json:"role"`
	Model        string         `json:"model"`
	Content      []messageBlock `json:"content"`
	StopReason   *string        `json:"stop_reason"`
	StopSequence *string        `json:"stop_sequence"`
	Usage        messagesUsage  `json:"usage"`
}

// messageBlock is a content block of a reply: text (Text set) or
// tool_use (ID, Name, Input).
type messageBlock struct {
	Type  string          `json:"type"`
	Text  *string         `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

func textBlock(s string) messageBlock { return messageBlock{Type: "text", Text: &s} }

type messagesUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// messagesStop maps a stop reason to the Messages stop_reason.
func messagesStop(res genResult) (*string, *string) {
	var r string
	switch res.stop {
	case llm.StopLength:
		r = "max_tokens"
	case llm.StopSequence:
		seq := res.stopSequence
		r = "stop_sequence"
		return &r, &seq
	case llm.StopToolCalls:
		r = "tool_use"
	default:
		r = "end_turn"
	}
	return &r, nil
}

func (s *Server) handleMessages(w http.ResponseWriter, r *http.Request) {
	body, m, handled := s.generationRoute(w, r, pathMessages, protoMessages, "/messages")
	if handled {
		return
	}
	req, err := parseMessages(body, m)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id := newID("msg_")
	if !req.stream {
		res, err := s.generate(r.Context(), req, r, func(string) error { return r.Context().Err() })
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		reason, seq := messagesStop(res)
		var uses []messageBlock
		for _, c := range withCallIDs(res.toolCalls, "toolu_") {
			if !json.Valid(c.Arguments) {
				continue // cut short inside its input (stop_reason max_tokens): no object to give
			}
			uses = append(uses, messageBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: c.Arguments})
		}
		content := []messageBlock{}
		if res.text != "" || len(uses) == 0 {
			content = append(content, textBlock(res.text))
		}
		content = append(content, uses...)
		writeJSON(w, http.StatusOK, messageObject{ID: id, Type: "message", Role: "assistant", Model: m.ID,
			Content: content, StopReason: reason, StopSequence: seq,
			Usage: messagesUsage{res.inputTokens, res.outputTokens}})
		return
	}
	sw := newSSE(w)
	ev := func(typ string, v map[string]any) error {
		v["type"] = typ
		return sw.event(typ, v)
	}
	// message_start carries the prompt's token count (Anthropic clients
	// read usage.input_tokens there) when the backend tells it before
	// generating (llm.PromptCounter; a Messages upstream's stream is passed
	// through with its own); message_delta carries the final counts (usage
	// there is cumulative).
	inputTokens := 0
	req.onPrompt = func(n int) { inputTokens = n }
	// The stream opens with the first text (or the end), so that an error
	// before any output (model not loaded, prompt too long) is an ordinary
	// HTTP error.
	open := func() error {
		if sw.started {
			return nil
		}
		msg := messageObject{ID: id, Type: "message", Role: "assistant", Model: m.ID, Content: []messageBlock{},
			Usage: messagesUsage{InputTokens: inputTokens}}
		return ev("message_start", map[string]any{"message": msg})
	}
	// Content blocks open in the order the model writes them: the text
	// block with the first text (a reply that only calls tools has none,
	// as its non-streamed form), a tool_use block with each call, its
	// input as input_json_delta pieces. One block is open at a time.
	next, textOpen, callOpen := 0, -1, -1 // the index of the next block; of the open text, tool_use block
	closeOpen := func() error {
		k := max(textOpen, callOpen)
		if k < 0 {
			return nil
		}
		textOpen, callOpen = -1, -1
		return ev("content_block_stop", map[string]any{"index": k})
	}
	start := func() error {
		if err := open(); err != nil || textOpen >= 0 {
			return err
		}
		if err := closeOpen(); err != nil {
			return err
		}
		textOpen, next = next, next+1
		return ev("content_block_start", map[string]any{"index": textOpen, "content_block": textBlock("")})
	}
	sc := streamedCalls{prefix: "toolu_"}
	startCall := func(id, name string) error {
		if err := open(); err != nil {
			return err
		}
		if err := closeOpen(); err != nil {
			return err
		}
		callOpen, next = next, next+1
		return ev("content_block_start", map[string]any{"index": callOpen,
			"content_block": messageBlock{Type: "tool_use", ID: id, Name: name, Input: json.RawMessage("{}")}})
	}
	input := func(partial string) error {
		if partial == "" {
			return nil
		}
		return ev("content_block_delta", map[string]any{"index": callOpen, "delta": map[string]string{"type": "input_json_delta", "partial_json": partial}})
	}
	req.onCall = genCall(r.Context(), func(d llm.ToolCallDelta) error {
		if d.Name != "" {
			if err := startCall(sc.start(d), d.Name); err != nil {
				return err
			}
		}
		return input(d.Arguments)
	})
	res, err := s.generate(r.Context(), req, r, genDelta(r.Context(), func(t string) error {
		if err := start(); err != nil {
			return err
		}
		return ev("content_block_delta", map[string]any{"index": textOpen, "delta": map[string]string{"type": "text_delta", "text": t}})
	}))
	if err != nil {
		if !sw.started {
			s.writeError(w, r, err)
			return
		}
		s.streamError(sw, r, err, true)
		return
	}
	if open() != nil {
		return
	}
	if len(res.toolCalls) == 0 && next == 0 && start() != nil {
		return
	}
	reason, seq := messagesStop(res)
	// Calls not streamed (an upstream's, or a backend's that reads them at
	// the end) follow whole: a tool_use block each, its input in one piece.
	calls := sc.result(res.toolCalls)
	for _, c := range calls[sc.n():] {
		if startCall(c.ID, c.Name) != nil || input(string(c.Arguments)) != nil {
			return
		}
	}
	if closeOpen() != nil {
		return
	}
	if ev("message_delta", map[string]any{"delta": map[string]any{"stop_reason": reason, "stop_sequence": seq},
		"usage": messagesUsage{res.inputTokens, res.outputTokens}}) != nil {
		return
	}
	_ = ev("message_stop", map[string]any{})
}

// countTokensResult is the answer of POST /v1/messages/count_tokens.
type countTokensResult struct {
	InputTokens int `json:"input_tokens"`
}

// handleCountTokens answers POST /v1/messages/count_tokens, the Messages
// protocol's token count: the body of a Messages request (max_tokens
// optional) and {"input_tokens": N}, the usage.input_tokens a Messages
// request with that body would report. The model must serve /v1/messages.
// A local model's backend counts the rendered prompt (llm.PromptCounter);
// a Messages upstream gets the request passed through.
func (s *Server) handleCountTokens(w http.ResponseWriter, r *http.Request) {
	body, m, handled := s.generationRoute(w, r, pathMessages, protoMessages, "/messages/count_tokens")
	if handled {
		return
	}
	if isRemote(m) {
		s.writeError(w, r, sotto.NotImplemented("capability_unavailable",
			"model %q is forwarded to a Chat Completions upstream, which has no token count", m.ID))
		return
	}
	req, err := parseMessagesFor(body, m, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, release, err := s.acquireLLM(r.Context(), m)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	pc, ok := b.(llm.PromptCounter)
	if !ok {
		s.writeError(w, r, sotto.NotImplemented("capability_unavailable", "the backend of model %q cannot count a prompt's tokens", m.ID))
		return
	}
	n, err := pc.CountPrompt(r.Context(), req.msgs, req.opts)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, countTokensResult{InputTokens: n})
}
