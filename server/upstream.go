package server

// Remote models. A catalog entry whose execution_location is not "local"
// forwards its requests to base_url, the root of an upstream API ending in
// /v1 (a vLLM or llama.cpp server, a hosted provider, another Sotto). The
// entry's options say how:
//
//	"protocol":       "chat_completions" (default: an OpenAI-compatible
//	                  upstream, POST {base_url}/chat/completions) or
//	                  "messages" (a Messages-compatible upstream, POST
//	                  {base_url}/messages)
//	"upstream_model": the model name the upstream knows (default: the
//	                  entry's id)
//	"api_key_env":    the environment variable holding the upstream's key
//	"api_key":        the key itself (prefer api_key_env)
//
// A request in the upstream's own protocol is passed through: the body with
// "model" replaced, the upstream's status, headers that matter and body
// (streamed as it arrives). Any other protocol is translated through the
// internal request shape: the upstream is asked to stream, and its text
// deltas, tool calls, usage and stop reason are rendered in the client's
// protocol (tools, tool choice, calls and results are translated both
// ways, see tools.go; a JSON schema goes to a Chat Completions upstream as
// response_format, to a Messages one as output_config.format).
// anthropic-version and anthropic-beta are forwarded unchanged to a
// Messages upstream (anthropic-version defaults to 2023-06-01 there, since
// that protocol requires it). /v1/tokenize is passed through to
// {base_url}/tokenize. Previously stored Responses stay on this server.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/sse"
	"github.com/sottolabs/sotto/llm"
)

// Upstream protocols (catalog option "protocol").
const (
	protoChat     = "chat_completions"
	protoMessages = "messages"
)

// Catalog options of a remote model.
const (
	optProtocol      = "protocol"
	optUpstreamModel = "upstream_model"
	optAPIKeyEnv     = "api_key_env"
	optAPIKey        = "api_key"
)

// defaultMessagesVersion is sent as anthropic-version to a Messages
// upstream when the client sent none.
const defaultMessagesVersion = "2023-06-01"

// upstream is the resolved configuration of one remote model.
type upstream struct {
	base     string
	protocol string
	model    string
	key      string
	client   *http.Client
}

// upstreamFor resolves the upstream of remote model m.
func (s *Server) upstreamFor(m ModelInfo) (*upstream, error) {
	if m.BaseURL == "" {
		return nil, sotto.Unavailable("upstream_not_configured", 0, "remote model %q has no base_url in the catalog", m.ID)
	}
	u := &upstream{base: strings.TrimRight(m.BaseURL, "/"), protocol: m.Options[optProtocol],
		model: m.Options[optUpstreamModel], key: m.Options[optAPIKey], client: s.upstreamClient}
	switch u.protocol {
	case "":
		u.protocol = protoChat
	case protoChat, protoMessages:
	default:
		return nil, sotto.Unavailable("upstream_not_configured", 0,
			"remote model %q: protocol %q is neither %q nor %q", m.ID, u.protocol, protoChat, protoMessages)
	}
	if u.model == "" {
		u.model = m.ID
	}
	if env := m.Options[optAPIKeyEnv]; env != "" && s.cfg.Getenv != nil {
		if k := s.cfg.Getenv(env); k != "" {
			u.key = k
		}
	}
	return u, nil
}

// newRequest builds a POST to the upstream path with the protocol's
// authentication and the client's Messages protocol headers.
func (u *upstream) newRequest(ctx context.Context, path string, body []byte, client http.Header) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, sotto.Unavailable("upstream_not_configured", 0, "remote model: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if a := client.Get("Accept"); a != "" {
		req.Header.Set("Accept", a)
	}
	for _, h := range []string{"anthropic-version", "anthropic-beta"} {
		if v := client.Values(h); len(v) > 0 {
			req.Header[http.CanonicalHeaderKey(h)] = v
		}
	}
	if u.protocol == protoMessages {
		if req.Header.Get("anthropic-version") == "" {
			req.Header.Set("anthropic-version", defaultMessagesVersion)
		}
		if u.key != "" {
			req.Header.Set("x-api-key", u.key)
		}
	} else if u.key != "" {
		req.Header.Set("Authorization", "Bearer "+u.key)
	}
	return req, nil
}

// do sends req, turning a transport failure into a 503.
func (u *upstream) do(req *http.Request) (*http.Response, error) {
	resp, err := u.client.Do(req)
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, sotto.Unavailable("upstream_unreachable", 5*time.Second, "the remote model's upstream %s did not answer: %v", u.base, err)
	}
	return resp, nil
}

// passThrough forwards a request in the upstream's own protocol and copies
// the answer back as it arrives.
func (s *Server) passThrough(w http.ResponseWriter, r *http.Request, u *upstream, m ModelInfo, path string, body []byte) {
	var fields map[string]json.RawMessage
	if err := unmarshalStrict(body, &fields, false, ""); err != nil {
		s.writeError(w, r, err)
		return
	}
	fields["model"], _ = json.Marshal(u.model)
	out, err := json.Marshal(fields)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	req, err := u.newRequest(r.Context(), path, out, r.Header)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	resp, err := u.do(req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer resp.Body.Close()
	for _, h := range []string{"Content-Type", "Retry-After", "Cache-Control"} {
		if v := resp.Header.Get(h); v != "" {
			w.Header().Set(h, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	rc := http.NewResponseController(w)
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			_ = rc.Flush()
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && r.Context().Err() == nil {
				s.log.Warn("upstream stream broke", "id", requestID(r.Context()), "model", m.ID, "err", err)
			}
			return
		}
	}
}

// upstreamError turns an upstream's error answer into a *sotto.Error of
// the matching kind, keeping its message and code.
func upstreamError(resp *http.Response) error {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var env struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
			Param   any    `json:"param"`
		} `json:"error"`
	}
	msg, code, param := strings.TrimSpace(string(data)), "", ""
	if json.Unmarshal(data, &env) == nil && env.Error.Message != "" {
		msg = env.Error.Message
		if c, ok := env.Error.Code.(string); ok {
			code = c
		}
		if p, ok := env.Error.Param.(string); ok {
			param = p
		}
	}
	if len(msg) > 500 {
		msg = msg[:500]
	}
	msg = fmt.Sprintf("upstream answered %d: %s", resp.StatusCode, msg)
	retry := time.Duration(0)
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		retry = time.Duration(s) * time.Second
	}
	e := &sotto.Error{Code: code, Param: param, Message: msg}
	switch st := resp.StatusCode; {
	case st == http.StatusNotFound:
		e.Kind = sotto.ErrNotFound
	case st == http.StatusRequestEntityTooLarge:
		e.Kind = sotto.ErrTooLarge
	case st == http.StatusUnauthorized || st == http.StatusForbidden:
		e.Kind, e.Code, e.RetryAfter = sotto.ErrUnavailable, "upstream_unauthorized", retry
	case st == http.StatusTooManyRequests || st >= 500:
		e.Kind, e.RetryAfter = sotto.ErrUnavailable, max(retry, time.Second)
		if e.Code == "" {
			e.Code = "upstream_unavailable"
		}
	case st == http.StatusUnprocessableEntity:
		e.Kind = sotto.ErrUnsatisfiable
	default:
		e.Kind = sotto.ErrInvalidRequest
	}
	return e
}

// generate runs req on the upstream in its protocol, streaming.
func (u *upstream) generate(ctx context.Context, req *genRequest, client http.Header, delta func(string) error) (genResult, error) {
	var body map[string]any
	var path string
	o := req.opts
	if u.protocol == protoMessages {
		path = "/messages"
		system, msgs := messagesUpstreamTurns(req.msgs)
		maxTok := o.MaxTokens
		if maxTok == 0 {
			maxTok = 4096 // the protocol requires max_tokens
		}
		body = map[string]any{"model": u.model, "messages": msgs, "max_tokens": maxTok, "stream": true,
			"temperature": o.Temperature}
		if len(system) > 0 {
			body["system"] = strings.Join(system, "\n\n")
		}
		if len(o.Stop) > 0 {
			body["stop_sequences"] = o.Stop
		}
		messagesUpstreamTools(body, o)
	} else {
		path = "/chat/completions"
		msgs := chatUpstreamTurns(req.msgs)
		body = map[string]any{"model": u.model, "messages": msgs, "stream": true,
			"stream_options": map[string]bool{"include_usage": true}, "temperature": o.Temperature}
		if o.MaxTokens > 0 {
			body["max_tokens"] = o.MaxTokens
		}
		if len(o.Stop) > 0 {
			body["stop"] = o.Stop
		}
		if o.Seed != nil {
			body["seed"] = *o.Seed
		}
		if o.MinP > 0 {
			body["min_p"] = o.MinP
		}
		if o.RepeatPenalty > 0 {
			body["repetition_penalty"] = o.RepeatPenalty
		}
		chatUpstreamTools(body, o)
	}
	if o.TopP > 0 {
		body["top_p"] = o.TopP
	}
	if o.TopK > 0 {
		body["top_k"] = o.TopK
	}
	data, err := json.Marshal(body)
	if err != nil {
		return genResult{}, err
	}
	client = client.Clone()
	client.Set("Accept", "text/event-stream")
	hreq, err := u.newRequest(ctx, path, data, client)
	if err != nil {
		return genResult{}, err
	}
	resp, err := u.do(hreq)
	if err != nil {
		return genResult{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		return genResult{}, upstreamError(resp)
	}
	var res genResult
	var text strings.Builder
	res.stop = llm.StopEnd
	emit := func(s string) error {
		if s == "" {
			return nil
		}
		text.WriteString(s)
		return delta(s)
	}
	calls := upstreamCalls{onCall: req.onCall}
	var handle func(name, data string) error
	done := false // the protocol's terminal event arrived
	if u.protocol == protoMessages {
		handle = func(name, data string) error {
			var ev struct {
				Type    string `json:"type"`
				Message struct {
					Usage struct {
						InputTokens  int `json:"input_tokens"`
						OutputTokens int `json:"output_tokens"`
					} `json:"usage"`
				} `json:"message"`
				Index int `json:"index"`
				Delta struct {
					Type         string  `json:"type"`
					Text         string  `json:"text"`
					PartialJSON  string  `json:"partial_json"`
					StopReason   string  `json:"stop_reason"`
					StopSequence *string `json:"stop_sequence"`
				} `json:"delta"`
				ContentBlock struct {
					Type string `json:"type"`
					ID   string `json:"id"`
					Name string `json:"name"`
				} `json:"content_block"`
				Usage *struct {
					InputTokens  *int `json:"input_tokens"`
					OutputTokens int  `json:"output_tokens"`
				} `json:"usage"`
				Error struct {
					Type    string `json:"type"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				return fmt.Errorf("upstream: malformed %s event: %w", name, err)
			}
			switch ev.Type {
			case "message_start":
				res.inputTokens = ev.Message.Usage.InputTokens
				res.outputTokens = ev.Message.Usage.OutputTokens
			case "content_block_start":
				if ev.ContentBlock.Type == "tool_use" {
					return calls.start(ev.Index, ev.ContentBlock.ID, ev.ContentBlock.Name)
				}
			case "content_block_delta":
				switch ev.Delta.Type {
				case "text_delta":
					return emit(ev.Delta.Text)
				case "input_json_delta":
					return calls.add(ev.Index, ev.Delta.PartialJSON)
				}
			case "message_delta":
				switch ev.Delta.StopReason {
				case "tool_use":
					res.stop = llm.StopToolCalls
				case "max_tokens":
					res.stop = llm.StopLength
				case "stop_sequence":
					res.stop = llm.StopSequence
					if ev.Delta.StopSequence != nil {
						res.stopSequence = *ev.Delta.StopSequence
					}
				}
				if ev.Usage != nil {
					res.outputTokens = ev.Usage.OutputTokens
					if ev.Usage.InputTokens != nil && *ev.Usage.InputTokens > 0 {
						res.inputTokens = *ev.Usage.InputTokens
					}
				}
			case "message_stop":
				done = true
				return sse.ErrDone
			case "error":
				return sotto.Unavailable("upstream_error", time.Second, "upstream stream failed: %s: %s", ev.Error.Type, ev.Error.Message)
			}
			return nil
		}
	} else {
		handle = func(name, data string) error {
			if data == "[DONE]" {
				done = true
				return sse.ErrDone
			}
			var ch struct {
				Choices []struct {
					Delta struct {
						Content   *string `json:"content"`
						ToolCalls []struct {
							Index    int    `json:"index"`
							ID       string `json:"id"`
							Function struct {
								Name      string `json:"name"`
								Arguments string `json:"arguments"`
							} `json:"function"`
						} `json:"tool_calls"`
					} `json:"delta"`
					FinishReason *string `json:"finish_reason"`
				} `json:"choices"`
				Usage *struct {
					PromptTokens     int `json:"prompt_tokens"`
					CompletionTokens int `json:"completion_tokens"`
				} `json:"usage"`
				Error *struct {
					Message string `json:"message"`
					Code    any    `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(data), &ch); err != nil {
				return fmt.Errorf("upstream: malformed chunk: %w", err)
			}
			if ch.Error != nil {
				return sotto.Unavailable("upstream_error", time.Second, "upstream stream failed: %s", ch.Error.Message)
			}
			if ch.Usage != nil {
				res.inputTokens, res.outputTokens = ch.Usage.PromptTokens, ch.Usage.CompletionTokens
			}
			for _, c := range ch.Choices {
				if c.FinishReason != nil && *c.FinishReason == "length" {
					res.stop = llm.StopLength
				}
				if c.FinishReason != nil && *c.FinishReason == "tool_calls" {
					res.stop = llm.StopToolCalls
				}
				for _, tc := range c.Delta.ToolCalls {
					if tc.ID != "" || tc.Function.Name != "" {
						if err := calls.start(tc.Index, tc.ID, tc.Function.Name); err != nil {
							return err
						}
					}
					if err := calls.add(tc.Index, tc.Function.Arguments); err != nil {
						return err
					}
				}
				if c.Delta.Content != nil {
					if err := emit(*c.Delta.Content); err != nil {
						return err
					}
				}
			}
			return nil
		}
	}
	err = sse.Read(resp.Body, handle)
	if err != nil {
		if ctx.Err() != nil {
			return genResult{}, ctx.Err()
		}
		return genResult{}, err
	}
	if !done {
		return genResult{}, sotto.Unavailable("upstream_error", time.Second, "the upstream stream ended without its terminal event")
	}
	res.text = text.String()
	if res.toolCalls, err = calls.result(); err != nil {
		return genResult{}, err
	}
	if len(res.toolCalls) > 0 {
		res.stop = llm.StopToolCalls
	}
	return res, nil
}
