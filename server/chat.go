package server

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/llm"
)

// chatRequest is a Chat Completions request. Fields the local engine cannot
// honour are decoded so that a non-neutral value is refused by name
// (unsupported_parameter) rather than ignored; unknown fields are a 400.
type chatRequest struct {
	Model               string            `json:"model"`
	Messages            []json.RawMessage `json:"messages"`
	MaxTokens           *int              `json:"max_tokens"`
	MaxCompletionTokens *int              `json:"max_completion_tokens"`
	Stop                json.RawMessage   `json:"stop"`
	Stream              bool              `json:"stream"`
	StreamOptions       *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	N                 *int            `json:"n"`
	FrequencyPenalty  *float64        `json:"frequency_penalty"`
	PresencePenalty   *float64        `json:"presence_penalty"`
	Logprobs          *bool           `json:"logprobs"`
	TopLogprobs       *int            `json:"top_logprobs"`
	LogitBias         json.RawMessage `json:"logit_bias"`
	ResponseFormat    json.RawMessage `json:"response_format"`
	Tools             json.RawMessage `json:"tools"`
	ToolChoice        json.RawMessage `json:"tool_choice"`
	ParallelToolCalls *bool           `json:"parallel_tool_calls"`
	User              string          `json:"user"`
	Store             *bool           `json:"store"`
	Metadata          json.RawMessage `json:"metadata"`
	ServiceTier       string          `json:"service_tier"`
	// Identifiers for the hosted API's caching and abuse checks: accepted,
	// they do not change the output. verbosity is accepted as Responses'
	// text.verbosity is.
	PromptCacheKey   string  `json:"prompt_cache_key"`
	SafetyIdentifier string  `json:"safety_identifier"`
	Verbosity        *string `json:"verbosity"`
	// Refused by name unless neutral (absent, null, empty; modalities
	// ["text"]).
	ReasoningEffort  string          `json:"reasoning_effort"`
	Modalities       []string        `json:"modalities"`
	Audio            json.RawMessage `json:"audio"`
	Prediction       json.RawMessage `json:"prediction"`
	WebSearchOptions json.RawMessage `json:"web_search_options"`
	Functions        json.RawMessage `json:"functions"`
	FunctionCall     json.RawMessage `json:"function_call"`
	sampling
}

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       string          `json:"name"`
	Refusal    json.RawMessage `json:"refusal"`
	ToolCalls  json.RawMessage `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
}

// parseChat validates a Chat Completions body into the internal request.
func parseChat(body []byte, m ModelInfo) (*genRequest, *chatRequest, error) {
	var cr chatRequest
	if err := unmarshalStrict(body, &cr, true, ""); err != nil {
		return nil, nil, err
	}
	if cr.Messages == nil {
		return nil, nil, sotto.Invalid("bad_request", "messages", "field \"messages\" is required: an array of messages")
	}
	if len(cr.Messages) == 0 {
		return nil, nil, sotto.Invalid("bad_request", "messages", "messages must not be empty")
	}
	req := &genRequest{model: m, stream: cr.Stream}
	for i, raw := range cr.Messages {
		p := fmt.Sprintf("messages[%d]", i)
		var cm chatMessage
		if err := unmarshalItem(raw, &cm, p); err != nil {
			return nil, nil, err
		}
		role := cm.Role
		switch role {
		case "system", "developer":
			role = "system"
		case "user", "assistant", "tool":
		case "function":
			return nil, nil, unsupported(p+".role", "the deprecated function role; use tool messages")
		case "":
			return nil, nil, sotto.Invalid("bad_request", p+".role", "%s.role is required", p)
		default:
			return nil, nil, sotto.Invalid("bad_request", p+".role", "%s.role %q is not system, developer, user or assistant", p, cm.Role)
		}
		msg := llm.Message{Role: role}
		if !isEmptyJSON(cm.ToolCalls) {
			if role != "assistant" {
				return nil, nil, sotto.Invalid("bad_request", p+".tool_calls", "only assistant messages have tool_calls")
			}
			var err error
			if msg.ToolCalls, err = chatCallsIn(cm.ToolCalls, p+".tool_calls"); err != nil {
				return nil, nil, err
			}
		}
		if role == "tool" {
			if cm.ToolCallID == "" {
				return nil, nil, sotto.Invalid("bad_request", p+".tool_call_id", "%s.tool_call_id is required", p)
			}
			msg.ToolCallID, msg.Name = cm.ToolCallID, callNames(req.msgs)[cm.ToolCallID]
		}
		if role != "assistant" || !isEmptyJSON(cm.Content) {
			var err error
			if msg.Content, err = textContent(cm.Content, p+".content", "text"); err != nil {
				return nil, nil, err
			}
		}
		req.msgs = append(req.msgs, msg)
	}
	opts, err := cr.sampling.options(2)
	if err != nil {
		return nil, nil, err
	}
	if opts.MaxTokens, err = maxTokens(cr.MaxCompletionTokens, "max_completion_tokens"); err != nil {
		return nil, nil, err
	}
	if opts.MaxTokens == 0 {
		if opts.MaxTokens, err = maxTokens(cr.MaxTokens, "max_tokens"); err != nil {
			return nil, nil, err
		}
	}
	if opts.Stop, err = stopList(cr.Stop, "stop", 4); err != nil {
		return nil, nil, err
	}
	switch {
	case cr.N != nil && *cr.N != 1:
		return nil, nil, unsupported("n", "one choice per request")
	case cr.FrequencyPenalty != nil && *cr.FrequencyPenalty != 0:
		return nil, nil, unsupported("frequency_penalty", "use repetition_penalty")
	case cr.PresencePenalty != nil && *cr.PresencePenalty != 0:
		return nil, nil, unsupported("presence_penalty", "use repetition_penalty")
	case cr.Logprobs != nil && *cr.Logprobs, cr.TopLogprobs != nil && *cr.TopLogprobs != 0:
		return nil, nil, unsupported("logprobs", "log probabilities are not reported")
	case !isEmptyJSON(cr.LogitBias):
		return nil, nil, unsupported("logit_bias", "no logit bias")
	case cr.ReasoningEffort != "" && cr.ReasoningEffort != "none":
		return nil, nil, unsupported("reasoning_effort", "this model does not reason")
	case slices.ContainsFunc(cr.Modalities, func(m string) bool { return m != "text" }):
		return nil, nil, unsupported("modalities", "text output only")
	case !isEmptyJSON(cr.Audio):
		return nil, nil, unsupported("audio", "text output only")
	case !isEmptyJSON(cr.Prediction):
		return nil, nil, unsupported("prediction", "no predicted outputs")
	case !isEmptyJSON(cr.WebSearchOptions):
		return nil, nil, unsupported("web_search_options", "no web search")
	case !isEmptyJSON(cr.Functions):
		return nil, nil, unsupported("functions", "the deprecated functions; use tools")
	case !isEmptyJSON(cr.FunctionCall):
		return nil, nil, unsupported("function_call", "the deprecated function_call; use tool_choice")
	}
	if err := chatTools(&opts, cr.Tools, cr.ToolChoice); err != nil {
		return nil, nil, err
	}
	if !isEmptyJSON(cr.ResponseFormat) {
		var rf struct {
			Type       string `json:"type"`
			JSONSchema *struct {
				Name   string          `json:"name"`
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		}
		if json.Unmarshal(cr.ResponseFormat, &rf) != nil {
			return nil, nil, sotto.Invalid("bad_request", "response_format", "response_format must be an object with a type")
		}
		switch rf.Type {
		case "text":
		case "json_object":
			opts.JSONSchema = json.RawMessage(`{"type":"object"}`)
		case "json_schema":
			if rf.JSONSchema == nil {
				return nil, nil, sotto.Invalid("bad_request", "response_format.json_schema", "response_format.json_schema is required")
			}
			if opts.JSONSchema, err = jsonSchema(rf.JSONSchema.Schema, "response_format.json_schema.schema"); err != nil {
				return nil, nil, err
			}
		default:
			return nil, nil, sotto.Invalid("bad_request", "response_format.type", "response_format.type %q is not text, json_object or json_schema", rf.Type)
		}
	}
	req.opts = opts
	return req, &cr, nil
}

// The Chat Completions wire shapes.
type chatCompletion struct {
	ID                string       `json:"id"`
	Object            string       `json:"object"`
	Created           int64        `json:"created"`
	Model             string       `json:"model"`
	Choices           []chatChoice `json:"choices"`
	Usage             *chatUsage   `json:"usage,omitempty"`
	SystemFingerprint *string      `json:"system_fingerprint"`
}

type chatChoice struct {
	Index        int         `json:"index"`
	Message      *chatReply  `json:"message,omitempty"`
	Delta        *chatOutMsg `json:"delta,omitempty"`
	Logprobs     *struct{}   `json:"logprobs"`
	FinishReason *string     `json:"finish_reason"`
}

// chatReply is the message of a (non-streamed) completion: content is
// null when the model only called tools.
type chatReply struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []chatToolCall `json:"tool_calls,omitempty"`
}

// chatOutMsg is the delta of a streamed chunk.
type chatOutMsg struct {
	Role      string         `json:"role,omitempty"`
	Content   *string        `json:"content,omitempty"`
	Refusal   *string        `json:"refusal,omitempty"`
	ToolCalls []chatToolCall `json:"tool_calls,omitempty"`
}

type chatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// chatFinish maps a stop reason to finish_reason.
func chatFinish(s llm.StopReason) string {
	switch s {
	case llm.StopLength:
		return "length"
	case llm.StopToolCalls:
		return "tool_calls"
	}
	return "stop"
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	body, m, handled := s.generationRoute(w, r, pathChat, protoChat, "/chat/completions")
	if handled {
		return
	}
	req, cr, err := parseChat(body, m)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id, created := newID("chatcmpl-"), time.Now().Unix()
	if !req.stream {
		res, err := s.generate(r.Context(), req, r, func(string) error { return r.Context().Err() })
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		text, fr := res.text, chatFinish(res.stop)
		msg := &chatReply{Role: "assistant", Content: &text}
		if len(res.toolCalls) > 0 {
			msg.ToolCalls = chatCallsOut(withCallIDs(res.toolCalls, "call_"), false)
			if text == "" {
				msg.Content = nil // null, as the protocol writes it for a call-only reply
			}
		}
		writeJSON(w, http.StatusOK, chatCompletion{ID: id, Object: "chat.completion", Created: created, Model: m.ID,
			Choices: []chatChoice{{Message: msg, FinishReason: &fr}},
			Usage:   &chatUsage{res.inputTokens, res.outputTokens, res.inputTokens + res.outputTokens}})
		return
	}
	sw := newSSE(w)
	chunk := func(delta *chatOutMsg, finish *string) chatCompletion {
		return chatCompletion{ID: id, Object: "chat.completion.chunk", Created: created, Model: m.ID,
			Choices: []chatChoice{{Delta: delta, FinishReason: finish}}}
	}
	empty := ""
	started := false
	start := func() error {
		if started {
			return nil
		}
		started = true
		return sw.data(chunk(&chatOutMsg{Role: "assistant", Content: &empty}, nil))
	}
	sc := streamedCalls{prefix: "call_"}
	req.onCall = genCall(r.Context(), func(d llm.ToolCallDelta) error {
		if err := start(); err != nil {
			return err
		}
		tc := chatToolCall{Index: &d.Index}
		if d.Name != "" {
			tc.ID, tc.Type, tc.Function.Name = sc.start(d), "function", d.Name
		}
		tc.Function.Arguments = d.Arguments
		return sw.data(chunk(&chatOutMsg{ToolCalls: []chatToolCall{tc}}, nil))
	})
	res, err := s.generate(r.Context(), req, r, genDelta(r.Context(), func(t string) error {
		if err := start(); err != nil {
			return err
		}
		return sw.data(chunk(&chatOutMsg{Content: &t}, nil))
	}))
	if err != nil {
		if !sw.started {
			s.writeError(w, r, err)
			return
		}
		s.streamError(sw, r, err, false)
		return
	}
	if err := start(); err != nil {
		return
	}
	// Calls not streamed (an upstream's, or a backend's that reads them at
	// the end) follow whole.
	if calls := chatCallsOut(sc.result(res.toolCalls), true); len(calls) > sc.n() {
		if sw.data(chunk(&chatOutMsg{ToolCalls: calls[sc.n():]}, nil)) != nil {
			return
		}
	}
	fr := chatFinish(res.stop)
	if sw.data(chunk(&chatOutMsg{}, &fr)) != nil {
		return
	}
	if cr.StreamOptions != nil && cr.StreamOptions.IncludeUsage {
		u := chatCompletion{ID: id, Object: "chat.completion.chunk", Created: created, Model: m.ID,
			Choices: []chatChoice{}, Usage: &chatUsage{res.inputTokens, res.outputTokens, res.inputTokens + res.outputTokens}}
		if sw.data(u) != nil {
			return
		}
	}
	_ = sw.raw([]byte("[DONE]"))
}

// data writes one data-only event (the Chat Completions framing: no event
// names) whose data is v as JSON.
func (sw *sseWriter) data(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return sw.raw(b)
}

// raw writes one data-only event with the given data line.
func (sw *sseWriter) raw(b []byte) error {
	if !sw.started {
		h := sw.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		sw.w.WriteHeader(http.StatusOK)
		sw.started = true
	}
	buf := make([]byte, 0, len(b)+8)
	buf = append(buf, "data: "...)
	buf = append(buf, b...)
	buf = append(buf, "\n\n"...)
	if _, err := sw.w.Write(buf); err != nil {
		return err
	}
	return sw.rc.Flush()
}

// streamError ends a started stream with the error envelope: an "error"
// event (named, for Responses and Messages) or a data-only event (Chat
// Completions). A cancelled request writes nothing.
func (s *Server) streamError(sw *sseWriter, r *http.Request, err error, named bool) {
	resp := errorFor(err)
	level := slog.LevelError
	if resp.status < 500 {
		level = slog.LevelDebug
	}
	s.log.Log(r.Context(), level, "stream failed", "id", requestID(r.Context()), "path", r.URL.Path,
		"status", resp.status, "code", resp.body.Error.Code, "err", err)
	if resp.status == StatusClientClosedRequest {
		return
	}
	switch {
	case r.URL.Path == pathMessages:
		_ = sw.event("error", messagesEnvelope(resp.body.Error))
	case named:
		_ = sw.event("error", map[string]any{"type": "error", "code": resp.body.Error.Code,
			"message": resp.body.Error.Message, "param": nullable(resp.body.Error.Param), "sequence_number": 0})
	default:
		_ = sw.data(resp.body)
	}
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
