package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/llm"
)

// responsesRequest is a Responses request (the text subset a local model
// serves). Known fields the engine cannot honour are refused by name when
// set; unknown fields are a 400.
type responsesRequest struct {
	Model              string          `json:"model"`
	Input              json.RawMessage `json:"input"`
	Instructions       *string         `json:"instructions"`
	MaxOutputTokens    *int            `json:"max_output_tokens"`
	PreviousResponseID *string         `json:"previous_response_id"`
	Store              *bool           `json:"store"`
	Stream             bool            `json:"stream"`
	Metadata           map[string]any  `json:"metadata"`
	User               string          `json:"user"`
	Text               json.RawMessage `json:"text"`
	Tools              json.RawMessage `json:"tools"`
	ToolChoice         json.RawMessage `json:"tool_choice"`
	ParallelToolCalls  *bool           `json:"parallel_tool_calls"`
	Truncation         *string         `json:"truncation"`
	Reasoning          json.RawMessage `json:"reasoning"`
	Include            []string        `json:"include"`
	TopLogprobs        *int            `json:"top_logprobs"`
	ServiceTier        string          `json:"service_tier"`
	Stop               json.RawMessage `json:"stop"`
	// Accepted without effect: identifiers for the hosted API's caching
	// and abuse checks; stream_options (include_obfuscation pads events
	// against a network observer; the stream is local); max_tool_calls
	// (it counts built-in tools' calls, and there are none).
	PromptCacheKey   string          `json:"prompt_cache_key"`
	SafetyIdentifier string          `json:"safety_identifier"`
	StreamOptions    json.RawMessage `json:"stream_options"`
	MaxToolCalls     *int            `json:"max_tool_calls"`
	// Refused by name unless neutral.
	Background   *bool           `json:"background"`
	Conversation json.RawMessage `json:"conversation"`
	Prompt       json.RawMessage `json:"prompt"`
	sampling
}

// responseInputItem is one item of a structured input: a message, a
// function_call (an earlier call of the model) or a function_call_output
// (its result).
type responseInputItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ID        string          `json:"id"`
	Status    string          `json:"status"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
}

func parseResponses(body []byte, m ModelInfo, store *responseStore) (*genRequest, *responsesRequest, []llm.Message, error) {
	var rr responsesRequest
	if err := unmarshalStrict(body, &rr, true, ""); err != nil {
		return nil, nil, nil, err
	}
	if len(rr.Input) == 0 || string(rr.Input) == "null" {
		return nil, nil, nil, sotto.Invalid("bad_request", "input", "field \"input\" is required: a string or an array of input items")
	}
	var input []llm.Message
	var s string
	if json.Unmarshal(rr.Input, &s) == nil {
		input = []llm.Message{{Role: "user", Content: s}}
	} else {
		var items []json.RawMessage
		if err := json.Unmarshal(rr.Input, &items); err != nil {
			return nil, nil, nil, sotto.Invalid("bad_request", "input", "input must be a string or an array of input items")
		}
		if len(items) == 0 {
			return nil, nil, nil, sotto.Invalid("bad_request", "input", "input must not be empty")
		}
		for i, raw := range items {
			p := fmt.Sprintf("input[%d]", i)
			var it responseInputItem
			if err := unmarshalItem(raw, &it, p); err != nil {
				return nil, nil, nil, err
			}
			if it.Type == "function_call" || it.Type == "function_call_output" {
				var err error
				if input, err = responsesCallItem(input, it, p); err != nil {
					return nil, nil, nil, err
				}
				continue
			}
			if it.Type != "" && it.Type != "message" {
				return nil, nil, nil, unsupported(p+".type", fmt.Sprintf("input items of type %q (message, function_call and function_call_output items only)", it.Type))
			}
			role := it.Role
			switch role {
			case "system", "developer":
				role = "system"
			case "user", "assistant":
			case "":
				return nil, nil, nil, sotto.Invalid("bad_request", p+".role", "%s.role is required", p)
			default:
				return nil, nil, nil, sotto.Invalid("bad_request", p+".role", "%s.role %q is not user, assistant, system or developer", p, it.Role)
			}
			text, err := textContent(it.Content, p+".content", "input_text", "output_text")
			if err != nil {
				return nil, nil, nil, err
			}
			input = append(input, llm.Message{Role: role, Content: text})
		}
	}
	req := &genRequest{model: m, stream: rr.Stream}
	if rr.Instructions != nil && *rr.Instructions != "" {
		req.msgs = append(req.msgs, llm.Message{Role: "system", Content: *rr.Instructions})
	}
	var history []llm.Message
	if rr.PreviousResponseID != nil && *rr.PreviousResponseID != "" {
		prev, err := store.get(*rr.PreviousResponseID)
		if err != nil {
			return nil, nil, nil, err
		}
		history = prev.Messages
	}
	// A function_call_output names the function it answers, which may be
	// in the stored history.
	names := callNames(append(append([]llm.Message(nil), history...), input...))
	for i := range input {
		if input[i].Role == "tool" && input[i].Name == "" {
			input[i].Name = names[input[i].ToolCallID]
		}
	}
	req.msgs = append(req.msgs, history...)
	req.msgs = append(req.msgs, input...)
	opts, err := rr.sampling.options(2)
	if err != nil {
		return nil, nil, nil, err
	}
	if opts.MaxTokens, err = maxTokens(rr.MaxOutputTokens, "max_output_tokens"); err != nil {
		return nil, nil, nil, err
	}
	if opts.Stop, err = stopList(rr.Stop, "stop", 4); err != nil {
		return nil, nil, nil, err
	}
	if err := responsesTools(&opts, rr.Tools, rr.ToolChoice); err != nil {
		return nil, nil, nil, err
	}
	switch {
	case !noReasoning(rr.Reasoning):
		return nil, nil, nil, unsupported("reasoning", "this model does not reason")
	case rr.TopLogprobs != nil && *rr.TopLogprobs != 0:
		return nil, nil, nil, unsupported("top_logprobs", "log probabilities are not reported")
	case rr.Truncation != nil && *rr.Truncation != "disabled" && *rr.Truncation != "auto":
		return nil, nil, nil, sotto.Invalid("bad_request", "truncation", "truncation %q is not auto or disabled", *rr.Truncation)
	case len(rr.Include) > 0:
		return nil, nil, nil, unsupported("include", "no extra output data")
	case rr.Background != nil && *rr.Background:
		return nil, nil, nil, unsupported("background", "a response is generated within its request")
	case !isEmptyJSON(rr.Conversation):
		return nil, nil, nil, unsupported("conversation", "use previous_response_id")
	case !isEmptyJSON(rr.Prompt):
		return nil, nil, nil, unsupported("prompt", "no stored prompt templates")
	}
	if !isEmptyJSON(rr.Text) {
		var tf struct {
			Format *struct {
				Type   string          `json:"type"`
				Name   string          `json:"name"`
				Schema json.RawMessage `json:"schema"`
			} `json:"format"`
			Verbosity *string `json:"verbosity"`
		}
		if err := json.Unmarshal(rr.Text, &tf); err != nil {
			return nil, nil, nil, sotto.Invalid("bad_request", "text", "text must be an object")
		}
		if f := tf.Format; f != nil {
			switch f.Type {
			case "text":
			case "json_object":
				opts.JSONSchema = json.RawMessage(`{"type":"object"}`)
			case "json_schema":
				if opts.JSONSchema, err = jsonSchema(f.Schema, "text.format.schema"); err != nil {
					return nil, nil, nil, err
				}
			default:
				return nil, nil, nil, sotto.Invalid("bad_request", "text.format.type", "text.format.type %q is not text, json_object or json_schema", f.Type)
			}
		}
	}
	req.opts = opts
	// The conversation a stored response keeps: the history, this input.
	conv := append(append([]llm.Message(nil), history...), input...)
	return req, &rr, conv, nil
}

// The Responses wire shapes.
type responseObject struct {
	ID                 string          `json:"id"`
	Object             string          `json:"object"`
	CreatedAt          int64           `json:"created_at"`
	Status             string          `json:"status"`
	Error              any             `json:"error"`
	IncompleteDetails  any             `json:"incomplete_details"`
	Instructions       *string         `json:"instructions"`
	MaxOutputTokens    *int            `json:"max_output_tokens"`
	Model              string          `json:"model"`
	Output             []any           `json:"output"`
	ParallelToolCalls  bool            `json:"parallel_tool_calls"`
	PreviousResponseID *string         `json:"previous_response_id"`
	Temperature        float64         `json:"temperature"`
	TopP               float64         `json:"top_p"`
	ToolChoice         any             `json:"tool_choice"`
	Tools              json.RawMessage `json:"tools"`
	Text               any             `json:"text"`
	Truncation         string          `json:"truncation"`
	Store              bool            `json:"store"`
	Usage              *responseUsage  `json:"usage"`
	Metadata           map[string]any  `json:"metadata"`
	User               *string         `json:"user,omitempty"`
}

type responseOutput struct {
	Type    string            `json:"type"`
	ID      string            `json:"id"`
	Status  string            `json:"status"`
	Role    string            `json:"role"`
	Content []responseContent `json:"content"`
}

type responseContent struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Annotations []any  `json:"annotations"`
	Logprobs    []any  `json:"logprobs"`
}

type responseUsage struct {
	InputTokens         int            `json:"input_tokens"`
	InputTokensDetails  map[string]int `json:"input_tokens_details"`
	OutputTokens        int            `json:"output_tokens"`
	OutputTokensDetails map[string]int `json:"output_tokens_details"`
	TotalTokens         int            `json:"total_tokens"`
}

func (s *Server) handleResponses(w http.ResponseWriter, r *http.Request) {
	body, m, handled := s.generationRoute(w, r, pathResponses, "", "")
	if handled {
		return
	}
	req, rr, conv, err := parseResponses(body, m, s.responses)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ro := &responseObject{ID: newID("resp_"), Object: "response", CreatedAt: time.Now().Unix(), Status: "in_progress",
		Instructions: rr.Instructions, MaxOutputTokens: rr.MaxOutputTokens, Model: m.ID, Output: []any{},
		ParallelToolCalls: true, PreviousResponseID: rr.PreviousResponseID, Temperature: req.opts.Temperature,
		TopP: 1, ToolChoice: "auto", Tools: json.RawMessage("[]"), Text: json.RawMessage(`{"format":{"type":"text"}}`),
		Truncation: "disabled", Store: rr.Store == nil || *rr.Store, Metadata: rr.Metadata}
	if rr.Truncation != nil && *rr.Truncation == "auto" {
		ro.Truncation = "auto"
	}
	if req.opts.TopP > 0 {
		ro.TopP = req.opts.TopP
	}
	if ro.Metadata == nil {
		ro.Metadata = map[string]any{}
	}
	if rr.User != "" {
		ro.User = &rr.User
	}
	if !isEmptyJSON(rr.Tools) {
		ro.Tools = rr.Tools
	}
	if !isEmptyJSON(rr.ToolChoice) {
		ro.ToolChoice = rr.ToolChoice
	}
	if !isEmptyJSON(rr.Text) {
		ro.Text = rr.Text
	}
	msgID := newID("msg_")
	// finish completes ro from the result: its output is a message item
	// (when there is text, or no call) and a function_call item per call,
	// or, for a stream, the items as the stream wrote them (items).
	finish := func(res genResult, items []any) error {
		item := responseOutput{Type: "message", ID: msgID, Status: "completed", Role: "assistant",
			Content: []responseContent{{Type: "output_text", Text: res.text, Annotations: []any{}, Logprobs: []any{}}}}
		ro.Status = "completed"
		if res.stop == llm.StopLength {
			ro.Status, item.Status = "incomplete", "incomplete"
			ro.IncompleteDetails = map[string]string{"reason": "max_output_tokens"}
		}
		res.toolCalls = withCallIDs(res.toolCalls, "call_")
		ro.Output = items
		if items == nil {
			ro.Output = []any{}
			if res.text != "" || len(res.toolCalls) == 0 {
				ro.Output = append(ro.Output, item)
			}
			for _, c := range responseCalls(res.toolCalls) {
				ro.Output = append(ro.Output, c)
			}
		}
		ro.Usage = &responseUsage{InputTokens: res.inputTokens, OutputTokens: res.outputTokens,
			TotalTokens:        res.inputTokens + res.outputTokens,
			InputTokensDetails: map[string]int{"cached_tokens": 0}, OutputTokensDetails: map[string]int{"reasoning_tokens": 0}}
		if ro.Store {
			obj, err := json.Marshal(ro)
			if err != nil {
				return err
			}
			return s.responses.put(storedResponse{ID: ro.ID, Model: m.ID, Response: obj,
				Messages: append(conv, llm.Message{Role: "assistant", Content: res.text, ToolCalls: res.toolCalls})})
		}
		return nil
	}
	if !req.stream {
		res, err := s.generateTruncating(r.Context(), req, r, func(string) error { return r.Context().Err() },
			ro.Truncation == "auto", func() bool { return false })
		err = inputParam(err)
		if err == nil {
			err = finish(res, nil)
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, ro)
		return
	}
	sw := newSSE(w)
	seq := 0
	ev := func(typ string, fields map[string]any) error {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		return sw.event(typ, fields)
	}
	snapshot := func() responseObject { return *ro }
	initial := snapshot() // the response as created, for the opening events
	// The stream opens with the first output (or the end), so that an
	// error before any output (model not loaded, prompt too long) is an
	// ordinary HTTP error.
	open := func() error {
		if sw.started {
			return nil
		}
		if err := ev("response.created", map[string]any{"response": initial}); err != nil {
			return err
		}
		return ev("response.in_progress", map[string]any{"response": initial})
	}
	// Output items open in the order the model writes them: a message item
	// with the first text, a function_call item with each call (its
	// arguments as they are written). One item is open at a time; items
	// records them for the final response.
	var (
		items []any
		text  strings.Builder // of the open message item
		args  strings.Builder // of the open function_call item
		msg   *responseOutput // the open message item
		call  *responseCall   // the open function_call item
		sc    = streamedCalls{prefix: "call_"}
	)
	closeItem := func(status string) error {
		k := len(items) - 1
		switch {
		case msg != nil:
			part := responseContent{Type: "output_text", Text: text.String(), Annotations: []any{}, Logprobs: []any{}}
			msg.Status, msg.Content = status, []responseContent{part}
			done := *msg
			items[k], msg = done, nil
			text.Reset()
			if err := ev("response.output_text.done", map[string]any{"item_id": done.ID, "output_index": k, "content_index": 0,
				"text": part.Text, "logprobs": []any{}}); err != nil {
				return err
			}
			if err := ev("response.content_part.done", map[string]any{"item_id": done.ID, "output_index": k, "content_index": 0, "part": part}); err != nil {
				return err
			}
			return ev("response.output_item.done", map[string]any{"output_index": k, "item": done})
		case call != nil:
			done := *call
			done.Arguments = args.String()
			args.Reset()
			if !json.Valid([]byte(done.Arguments)) {
				status = "incomplete" // cut short inside the arguments
			}
			done.Status = status
			items[k], call = done, nil
			if err := ev("response.function_call_arguments.done", map[string]any{"item_id": done.ID, "output_index": k,
				"name": done.Name, "arguments": done.Arguments}); err != nil {
				return err
			}
			return ev("response.output_item.done", map[string]any{"output_index": k, "item": done})
		}
		return nil
	}
	start := func() error {
		if err := open(); err != nil || msg != nil {
			return err
		}
		if err := closeItem("completed"); err != nil {
			return err
		}
		id := msgID
		if len(items) > 0 {
			id = newID("msg_") // text after a call: a second message item
		}
		msg = &responseOutput{Type: "message", ID: id, Status: "in_progress", Role: "assistant", Content: []responseContent{}}
		items = append(items, *msg)
		k := len(items) - 1
		if err := ev("response.output_item.added", map[string]any{"output_index": k, "item": *msg}); err != nil {
			return err
		}
		part := responseContent{Type: "output_text", Text: "", Annotations: []any{}, Logprobs: []any{}}
		return ev("response.content_part.added", map[string]any{"item_id": id, "output_index": k, "content_index": 0, "part": part})
	}
	startCall := func(callID, name string) error {
		if err := open(); err != nil {
			return err
		}
		if err := closeItem("completed"); err != nil {
			return err
		}
		call = &responseCall{Type: "function_call", ID: newID("fc_"), CallID: callID, Name: name, Status: "in_progress"}
		items = append(items, *call)
		return ev("response.output_item.added", map[string]any{"output_index": len(items) - 1, "item": *call})
	}
	arguments := func(delta string) error {
		if delta == "" {
			return nil
		}
		args.WriteString(delta)
		return ev("response.function_call_arguments.delta", map[string]any{"item_id": call.ID, "output_index": len(items) - 1, "delta": delta})
	}
	req.onCall = genCall(r.Context(), func(d llm.ToolCallDelta) error {
		if d.Name != "" {
			if err := startCall(sc.start(d), d.Name); err != nil {
				return err
			}
		}
		return arguments(d.Arguments)
	})
	res, err := s.generateTruncating(r.Context(), req, r, genDelta(r.Context(), func(t string) error {
		if err := start(); err != nil {
			return err
		}
		text.WriteString(t)
		return ev("response.output_text.delta", map[string]any{"item_id": msg.ID, "output_index": len(items) - 1, "content_index": 0,
			"delta": t, "logprobs": []any{}})
	}), ro.Truncation == "auto", func() bool { return sw.started })
	err = inputParam(err)
	if err == nil {
		if open() != nil {
			return
		}
		// Calls not streamed (an upstream's, or a backend's that reads them
		// at the end) follow whole, their arguments in one delta.
		res.toolCalls = sc.result(res.toolCalls)
		for _, c := range res.toolCalls[sc.n():] {
			if startCall(c.ID, c.Name) != nil || arguments(string(c.Arguments)) != nil {
				return
			}
		}
		if len(items) == 0 && start() != nil {
			return
		}
		status := "completed"
		if res.stop == llm.StopLength {
			status = "incomplete"
		}
		if closeItem(status) != nil {
			return
		}
		err = finish(res, items)
	}
	if err != nil {
		if r.Context().Err() != nil {
			return
		}
		if !sw.started {
			s.writeError(w, r, err)
			return
		}
		e := errorFor(err).body.Error
		ro.Status = "failed"
		ro.Error = map[string]string{"code": e.Code, "message": e.Message}
		s.streamError(sw, r, err, true)
		_ = ev("response.failed", map[string]any{"response": snapshot()})
		return
	}
	terminal := "response.completed"
	if ro.Status == "incomplete" {
		terminal = "response.incomplete"
	}
	_ = ev(terminal, map[string]any{"response": snapshot()})
}

// handleGetResponse returns a stored response object (GET
// /v1/responses/{id}), as the Responses protocol does: the response as it
// was returned when it was created with store true.
func (s *Server) handleGetResponse(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	// The protocol's query options of a retrieve that change the answer
	// are refused, not ignored: a client that asked for events or extra
	// output data would otherwise read one plain JSON object.
	q := r.URL.Query()
	if queryList(q, "include") != nil {
		s.writeError(w, r, unsupported("include", "no extra output data is kept"))
		return
	}
	stream := q.Get("stream")
	if r.Body != nil && r.ContentLength != 0 {
		// The Go client library sends its stream flag as a JSON body of
		// the GET ({"stream": true}), the Python one in the query.
		var b struct {
			Stream *bool `json:"stream"`
		}
		if data, err := io.ReadAll(io.LimitReader(r.Body, 64<<10)); err == nil && json.Unmarshal(data, &b) == nil && b.Stream != nil && *b.Stream {
			stream = "true"
		}
	}
	if stream != "" && stream != "false" {
		s.writeError(w, r, sotto.Invalid("unsupported_parameter", "stream",
			"stream is not supported when retrieving a response: it is returned as one JSON object, not replayed as events"))
		return
	}
	sr, err := s.responses.find(id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(sr.Response) == 0 {
		s.writeError(w, r, sotto.NotFound("response_not_found", "response_id",
			"response %q was stored by an earlier version without its response object; it can still be continued with previous_response_id", id))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(sr.Response)
}

// handleDeleteResponse deletes a stored response (DELETE
// /v1/responses/{id}); it can no longer be retrieved or continued.
func (s *Server) handleDeleteResponse(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.responses.remove(id); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "response.deleted", "deleted": true})
}

// inputParam renames the param "messages" of a generation error (the
// engine's name for the conversation, as in context_length_exceeded) to
// "input", the Responses field that holds it.
func inputParam(err error) error {
	var se *sotto.Error
	if errors.As(err, &se) && se.Param == "messages" {
		c := *se
		c.Param = "input"
		return &c
	}
	return err
}

// noReasoning reports whether a Responses reasoning object asks for no
// reasoning: absent, null, empty, or with every field null (as SDKs send
// their defaults) and effort, if given, "none".
func noReasoning(raw json.RawMessage) bool {
	if isEmptyJSON(raw) {
		return true
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return false
	}
	for k, v := range fields {
		if k == "effort" && string(bytes.TrimSpace(v)) == `"none"` {
			continue
		}
		if !isEmptyJSON(v) {
			return false
		}
	}
	return true
}

// generateTruncating runs req. With truncation "auto" (auto true), a
// prompt longer than the model's context drops input items from the middle
// of the conversation, as the Responses protocol describes it: the oldest
// turn after the leading system turns (with the tool results that follow
// it), again until the prompt fits or one turn is left; then the error
// stands. Nothing is dropped once output has been sent (started).
func (s *Server) generateTruncating(ctx context.Context, req *genRequest, r *http.Request, delta func(string) error,
	auto bool, started func() bool) (genResult, error) {
	for {
		res, err := s.generate(ctx, req, r, delta)
		var se *sotto.Error
		if !auto || started() || !errors.As(err, &se) || se.Code != "context_length_exceeded" {
			return res, err
		}
		msgs, ok := dropOldestTurn(req.msgs)
		if !ok {
			return res, err
		}
		req.msgs = msgs
	}
}

// dropOldestTurn removes the first turn after the leading system turns,
// with any tool results right after it; ok is false when that would leave
// no turn besides the system turns.
func dropOldestTurn(msgs []llm.Message) ([]llm.Message, bool) {
	i := 0
	for i < len(msgs) && msgs[i].Role == "system" {
		i++
	}
	j := i + 1
	for j < len(msgs) && msgs[j].Role == "tool" {
		j++
	}
	if j >= len(msgs) {
		return msgs, false
	}
	return append(append([]llm.Message(nil), msgs[:i]...), msgs[j:]...), true
}
