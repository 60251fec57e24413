package server

// Tool calling in the three generation protocols. Each front end decodes
// its own tool definitions, tool choice, call and result items into the
// internal request (llm.Options.Tools, llm.Message.ToolCalls and "tool"
// messages) and renders genResult.toolCalls back in its own shape:
//
//	Chat Completions  tools[].function, message.tool_calls, role "tool"
//	Responses         tools[] (type function), function_call and
//	                  function_call_output items
//	Messages          tools[] (input_schema), tool_use and tool_result blocks
//
// The model sees the tools through its chat template; a model whose
// template renders none refuses them (400 unsupported_parameter, from the
// backend). tool_choice "none" leaves the tools out of the prompt; "auto"
// is the model's own choice; "required" (Messages "any") or a named tool
// forces one call, written by constrained decoding. Streamed, the calls
// arrive piece by piece as the model writes them (tools_stream.go).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/llm"
)

// toolName is the function name pattern the protocols accept.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// checkTool validates one tool definition; param locates it.
func checkTool(t llm.Tool, param string) (llm.Tool, error) {
	if !toolName.MatchString(t.Name) {
		return t, sotto.Invalid("bad_request", param+".name", "%s.name %q must be 1 to 64 letters, digits, _ or -", param, t.Name)
	}
	p := bytes.TrimSpace(t.Parameters)
	if len(p) == 0 || string(p) == "null" {
		t.Parameters = nil
		return t, nil
	}
	if p[0] != '{' {
		return t, sotto.Invalid("bad_request", param+".parameters", "%s: the parameters schema must be a JSON object", param)
	}
	return t, nil
}

// checkToolNames refuses duplicate tool names.
func checkToolNames(tools []llm.Tool, param string) error {
	seen := map[string]bool{}
	for i, t := range tools {
		if seen[t.Name] {
			return sotto.Invalid("bad_request", fmt.Sprintf("%s[%d].name", param, i), "tool name %q is defined twice", t.Name)
		}
		seen[t.Name] = true
	}
	return nil
}

// argumentsObject decodes the arguments of a call given as a JSON string
// (Chat Completions, Responses) into the object it holds.
func argumentsObject(s, param string) (json.RawMessage, error) {
	b := bytes.TrimSpace([]byte(s))
	if len(b) == 0 {
		return json.RawMessage("{}"), nil
	}
	if b[0] != '{' || !json.Valid(b) {
		return nil, sotto.Invalid("bad_request", param, "%s must be a JSON object encoded as a string", param)
	}
	return json.RawMessage(b), nil
}

// callNames maps call IDs to function names, so that a tool result can
// name the function it answers (some templates print it).
func callNames(msgs []llm.Message) map[string]string {
	names := map[string]string{}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			names[c.ID] = c.Name
		}
	}
	return names
}

// toolChoiceMode applies a tool choice to opts: "none" removes the tools,
// "auto" keeps them, "required" or a tool's name forces a call (written
// by constrained decoding in the model's tool-call syntax).
func toolChoiceMode(opts *llm.Options, mode, param string) error {
	switch mode {
	case "", "auto":
		return nil
	case "none":
		opts.Tools = nil
		return nil
	}
	if len(opts.Tools) == 0 {
		return sotto.Invalid("bad_request", param, "tool_choice %q needs tools", mode)
	}
	if mode != "required" && !slices.ContainsFunc(opts.Tools, func(t llm.Tool) bool { return t.Name == mode }) {
		return sotto.Invalid("bad_request", param, "tool_choice names %q, which is not among the tools", mode)
	}
	opts.ToolChoice = mode
	return nil
}

// jsonSchema validates a structured-output schema (absent: any JSON value).
func jsonSchema(raw json.RawMessage, param string) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	if err := llm.CheckJSONSchema(raw, param); err != nil {
		return nil, err
	}
	return raw, nil
}

// --- Chat Completions and Responses: one validator ---

// The two OpenAI protocols define function tools and tool_choice in the
// same shape but nest them differently: Chat Completions puts the
// function's fields under "function" ({"type": "function", "function":
// {"name", "description", "parameters", "strict"}}), Responses puts them
// beside "type". openAITool and openAIChoice decode either nesting, and
// openAITools validates both, the differences (nesting, and the wording
// of a few messages) held in an openAIDialect.

// functionDef is the part of a function tool that names and describes it.
type functionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      *bool           `json:"strict"`
}

// openAITool is a tool of either protocol: Responses fills the embedded
// fields, Chat Completions fills Function.
type openAITool struct {
	Type string `json:"type"`
	functionDef
	Function *functionDef `json:"function"`
}

// openAIChoice is the object form of tool_choice of either protocol:
// {"type": "function", "name": …} (Responses) or {"type": "function",
// "function": {"name": …}} (Chat Completions).
type openAIChoice struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Function *struct {
		Name string `json:"name"`
	} `json:"function"`
}

// openAIDialect holds what differs between the two protocols' tools.
type openAIDialect struct {
	nested   bool   // the function's fields sit under "function" (Chat Completions)
	toolsMsg string // the error for tools that are not an array of tools
	modes    string // the tool_choice strings and forms, for the error of an unknown one
}

var (
	chatDialect      = openAIDialect{nested: true, toolsMsg: "tools must be an array of function tools", modes: "none, auto, required or a tool object"}
	responsesDialect = openAIDialect{toolsMsg: "tools must be an array of tools", modes: "none, auto or required"}
)

// openAITools decodes and validates a Chat Completions or Responses
// tools array and tool_choice into opts.
func openAITools(opts *llm.Options, rawTools, rawChoice json.RawMessage, d openAIDialect) error {
	if !isEmptyJSON(rawTools) {
		var tools []openAITool
		if err := json.Unmarshal(rawTools, &tools); err != nil {
			return sotto.Invalid("bad_request", "tools", "%s", d.toolsMsg)
		}
		for i, t := range tools {
			p := fmt.Sprintf("tools[%d]", i)
			if t.Type == "" {
				return sotto.Invalid("bad_request", p+".type", "%s.type is required: \"function\"", p)
			}
			if t.Type != "function" {
				return unsupported(p+".type", fmt.Sprintf("tools of type %q (function tools only)", t.Type))
			}
			fn, fp := t.functionDef, p
			if d.nested {
				if t.Function == nil {
					return sotto.Invalid("bad_request", p+".function", "%s.function is required", p)
				}
				fn, fp = *t.Function, p+".function"
			}
			lt, err := checkTool(llm.Tool{Name: fn.Name, Description: fn.Description, Parameters: fn.Parameters}, fp)
			if err != nil {
				return err
			}
			opts.Tools = append(opts.Tools, lt)
		}
		if err := checkToolNames(opts.Tools, "tools"); err != nil {
			return err
		}
	}
	if isEmptyJSON(rawChoice) {
		return nil
	}
	var mode string
	if json.Unmarshal(rawChoice, &mode) == nil {
		if mode != "none" && mode != "auto" && mode != "required" {
			return sotto.Invalid("bad_request", "tool_choice", "tool_choice %q is not %s", mode, d.modes)
		}
		return toolChoiceMode(opts, mode, "tool_choice")
	}
	var obj openAIChoice
	if json.Unmarshal(rawChoice, &obj) != nil || obj.Type == "" {
		return sotto.Invalid("bad_request", "tool_choice", "tool_choice must be \"none\", \"auto\", \"required\" or a tool object")
	}
	if !d.nested {
		if obj.Type != "function" {
			return unsupported("tool_choice", fmt.Sprintf("tool_choice of type %q (function only)", obj.Type))
		}
		if obj.Name == "" {
			return sotto.Invalid("bad_request", "tool_choice.name", "tool_choice.name is required")
		}
		return toolChoiceMode(opts, obj.Name, "tool_choice.name")
	}
	switch {
	case obj.Type == "function" && obj.Function != nil && obj.Function.Name != "":
		return toolChoiceMode(opts, obj.Function.Name, "tool_choice.function.name")
	case obj.Type == "function":
		return sotto.Invalid("bad_request", "tool_choice.function", "tool_choice.function.name is required")
	case obj.Type == "allowed_tools" || obj.Type == "custom":
		return unsupported("tool_choice", fmt.Sprintf("tool_choice of type %q", obj.Type))
	}
	return sotto.Invalid("bad_request", "tool_choice.type", "tool_choice.type %q is not function", obj.Type)
}

// --- Chat Completions ---

// chatToolCall is a call in a message's tool_calls, or a piece of one in
// a streamed delta (index set; id, type and name only in a call's first
// piece).
type chatToolCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// chatTools decodes tools and tool_choice into opts.
func chatTools(opts *llm.Options, rawTools, rawChoice json.RawMessage) error {
	return openAITools(opts, rawTools, rawChoice, chatDialect)
}

// chatCallsIn decodes an assistant message's tool_calls.
func chatCallsIn(raw json.RawMessage, param string) ([]llm.ToolCall, error) {
	var calls []chatToolCall
	if err := json.Unmarshal(raw, &calls); err != nil {
		return nil, sotto.Invalid("bad_request", param, "%s must be an array of tool calls", param)
	}
	var out []llm.ToolCall
	for i, c := range calls {
		p := fmt.Sprintf("%s[%d]", param, i)
		if c.Type != "" && c.Type != "function" {
			return nil, unsupported(p+".type", fmt.Sprintf("tool calls of type %q (function calls only)", c.Type))
		}
		if c.ID == "" || c.Function.Name == "" {
			return nil, sotto.Invalid("bad_request", p, "%s needs an id and function.name", p)
		}
		args, err := argumentsObject(c.Function.Arguments, p+".function.arguments")
		if err != nil {
			return nil, err
		}
		out = append(out, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args})
	}
	return out, nil
}

// chatCallsOut renders calls as Chat Completions tool_calls, with index
// fields when streamed.
func chatCallsOut(calls []llm.ToolCall, stream bool) []chatToolCall {
	out := make([]chatToolCall, len(calls))
	for i, c := range calls {
		out[i] = chatToolCall{ID: c.ID, Type: "function"}
		if stream {
			out[i].Index = &i
		}
		out[i].Function.Name = c.Name
		out[i].Function.Arguments = string(c.Arguments)
	}
	return out
}

// withCallIDs gives every call an ID (models rarely write one).
func withCallIDs(calls []llm.ToolCall, prefix string) []llm.ToolCall {
	out := append([]llm.ToolCall(nil), calls...)
	for i := range out {
		if out[i].ID == "" {
			out[i].ID = newID(prefix)
		}
		if len(out[i].Arguments) == 0 {
			out[i].Arguments = json.RawMessage("{}")
		}
	}
	return out
}

// --- Messages ---

type messagesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// messagesTools decodes tools and tool_choice into opts.
func messagesTools(opts *llm.Options, rawTools, rawChoice json.RawMessage) error {
	if !isEmptyJSON(rawTools) {
		var tools []messagesTool
		if err := json.Unmarshal(rawTools, &tools); err != nil {
			return sotto.Invalid("bad_request", "tools", "tools must be an array of tools")
		}
		for i, t := range tools {
			p := fmt.Sprintf("tools[%d]", i)
			if t.Type != "" && t.Type != "custom" {
				return unsupported(p+".type", fmt.Sprintf("server tools (%q); client tools only", t.Type))
			}
			if isEmptyJSON(t.InputSchema) && string(bytes.TrimSpace(t.InputSchema)) != "{}" {
				return sotto.Invalid("bad_request", p+".input_schema", "%s.input_schema is required", p)
			}
			lt, err := checkTool(llm.Tool{Name: t.Name, Description: t.Description, Parameters: t.InputSchema}, p)
			if err != nil {
				return err
			}
			opts.Tools = append(opts.Tools, lt)
		}
		if err := checkToolNames(opts.Tools, "tools"); err != nil {
			return err
		}
	}
	if isEmptyJSON(rawChoice) {
		return nil
	}
	var tc struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	if json.Unmarshal(rawChoice, &tc) != nil {
		return sotto.Invalid("bad_request", "tool_choice", "tool_choice must be an object with a type")
	}
	switch tc.Type {
	case "auto", "none":
		return toolChoiceMode(opts, tc.Type, "tool_choice")
	case "any":
		return toolChoiceMode(opts, "required", "tool_choice")
	case "tool":
		if tc.Name == "" {
			return sotto.Invalid("bad_request", "tool_choice.name", "tool_choice.name is required")
		}
		return toolChoiceMode(opts, tc.Name, "tool_choice.name")
	}
	return sotto.Invalid("bad_request", "tool_choice.type", "tool_choice.type %q is not auto, any, tool or none", tc.Type)
}

// messagesBlock is one content block of a request message.
type messagesBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// messagesTurn translates one request message into internal messages: a
// user turn's tool_result blocks become "tool" messages (before the turn's
// text, if any); an assistant turn's tool_use blocks become its calls.
// prev is the conversation so far (for the names of answered calls).
func messagesTurn(mm messagesMessage, p string, prev []llm.Message) ([]llm.Message, error) {
	if len(mm.Content) == 0 || string(mm.Content) == "null" {
		return nil, sotto.Invalid("bad_request", p+".content", "%s.content is required", p)
	}
	var s string
	if json.Unmarshal(mm.Content, &s) == nil {
		return []llm.Message{{Role: mm.Role, Content: s}}, nil
	}
	var blocks []messagesBlock
	if err := json.Unmarshal(mm.Content, &blocks); err != nil {
		return nil, sotto.Invalid("bad_request", p+".content", "%s.content must be a string or an array of content blocks", p)
	}
	var out []llm.Message
	turn := llm.Message{Role: mm.Role}
	names := callNames(prev)
	for i, b := range blocks {
		bp := fmt.Sprintf("%s.content[%d]", p, i)
		switch {
		case b.Type == "text":
			turn.Content += b.Text
		case b.Type == "tool_use" && mm.Role == "assistant":
			in := bytes.TrimSpace(b.Input)
			if len(in) == 0 || in[0] != '{' || !json.Valid(in) {
				return nil, sotto.Invalid("bad_request", bp+".input", "%s.input must be an object", bp)
			}
			if b.ID == "" || b.Name == "" {
				return nil, sotto.Invalid("bad_request", bp, "%s needs an id and a name", bp)
			}
			turn.ToolCalls = append(turn.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: json.RawMessage(in)})
			names[b.ID] = b.Name
		case b.Type == "tool_result" && mm.Role == "user":
			if b.ToolUseID == "" {
				return nil, sotto.Invalid("bad_request", bp+".tool_use_id", "%s.tool_use_id is required", bp)
			}
			text := ""
			if !isEmptyJSON(b.Content) {
				var err error
				if text, err = textContent(b.Content, bp+".content", "text"); err != nil {
					return nil, err
				}
			}
			if b.IsError {
				text = "Error: " + text
			}
			out = append(out, llm.Message{Role: "tool", Content: text, ToolCallID: b.ToolUseID, Name: names[b.ToolUseID]})
		case b.Type == "":
			return nil, sotto.Invalid("bad_request", bp+".type", "%s.type is required", bp)
		default:
			return nil, sotto.Invalid("bad_request", bp+".type",
				"content block type %q is not supported by this model in a %s message (text, tool_use in assistant turns, tool_result in user turns)", b.Type, mm.Role)
		}
	}
	if turn.Content != "" || len(turn.ToolCalls) > 0 || len(out) == 0 {
		out = append(out, turn)
	}
	return out, nil
}

// --- Responses ---

// responsesTools decodes tools and tool_choice into opts.
func responsesTools(opts *llm.Options, rawTools, rawChoice json.RawMessage) error {
	return openAITools(opts, rawTools, rawChoice, responsesDialect)
}

// responsesCallItem adds a function_call or function_call_output input
// item to the conversation: a call joins the assistant turn before it (or
// starts one), an output is a "tool" message.
func responsesCallItem(msgs []llm.Message, it responseInputItem, p string) ([]llm.Message, error) {
	if it.CallID == "" {
		return nil, sotto.Invalid("bad_request", p+".call_id", "%s.call_id is required", p)
	}
	if it.Type == "function_call_output" {
		text := ""
		if !isEmptyJSON(it.Output) {
			var err error
			if text, err = textContent(it.Output, p+".output", "input_text", "output_text"); err != nil {
				return nil, err
			}
		}
		return append(msgs, llm.Message{Role: "tool", Content: text, ToolCallID: it.CallID, Name: callNames(msgs)[it.CallID]}), nil
	}
	if it.Name == "" {
		return nil, sotto.Invalid("bad_request", p+".name", "%s.name is required", p)
	}
	args, err := argumentsObject(it.Arguments, p+".arguments")
	if err != nil {
		return nil, err
	}
	c := llm.ToolCall{ID: it.CallID, Name: it.Name, Arguments: args}
	if n := len(msgs); n > 0 && msgs[n-1].Role == "assistant" {
		msgs[n-1].ToolCalls = append(msgs[n-1].ToolCalls, c)
		return msgs, nil
	}
	return append(msgs, llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{c}}), nil
}

// responseCall is a function_call output item.
type responseCall struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Status    string `json:"status"`
}

// responseCalls renders calls as function_call output items; a call cut
// short inside its arguments is "incomplete".
func responseCalls(calls []llm.ToolCall) []responseCall {
	out := make([]responseCall, len(calls))
	for i, c := range calls {
		status := "completed"
		if !json.Valid(c.Arguments) {
			status = "incomplete"
		}
		out[i] = responseCall{Type: "function_call", ID: newID("fc_"), CallID: c.ID, Name: c.Name,
			Arguments: string(c.Arguments), Status: status}
	}
	return out
}

// --- Remote upstreams (upstream.go): the internal request in the
// upstream's protocol, and the calls its stream returns. ---

// chatUpstreamTurns writes the conversation as Chat Completions messages.
func chatUpstreamTurns(msgs []llm.Message) []map[string]any {
	out := make([]map[string]any, 0, len(msgs))
	for _, m := range msgs {
		msg := map[string]any{"role": m.Role, "content": m.Content}
		if len(m.ToolCalls) > 0 {
			msg["tool_calls"] = chatCallsOut(m.ToolCalls, false)
			if m.Content == "" {
				msg["content"] = nil
			}
		}
		if m.Role == "tool" {
			msg["tool_call_id"] = m.ToolCallID
		}
		out = append(out, msg)
	}
	return out
}

// chatUpstreamTools adds the tools, tool choice and JSON schema of o to a
// Chat Completions body.
func chatUpstreamTools(body map[string]any, o llm.Options) {
	if len(o.Tools) > 0 {
		tools := make([]map[string]any, len(o.Tools))
		for i, t := range o.Tools {
			fn := map[string]any{"name": t.Name}
			if t.Description != "" {
				fn["description"] = t.Description
			}
			if len(t.Parameters) > 0 {
				fn["parameters"] = t.Parameters
			}
			tools[i] = map[string]any{"type": "function", "function": fn}
		}
		body["tools"] = tools
		switch o.ToolChoice {
		case "", "auto":
		case "required":
			body["tool_choice"] = "required"
		default:
			body["tool_choice"] = map[string]any{"type": "function", "function": map[string]string{"name": o.ToolChoice}}
		}
	}
	if len(o.JSONSchema) > 0 {
		body["response_format"] = map[string]any{"type": "json_schema",
			"json_schema": map[string]any{"name": "response", "schema": o.JSONSchema, "strict": true}}
	}
}

// messagesUpstreamTurns writes the conversation as Messages turns: system
// text apart, a tool result as a tool_result block of a user turn
// (consecutive results in one turn), calls as tool_use blocks.
func messagesUpstreamTurns(msgs []llm.Message) (system []string, out []map[string]any) {
	for _, m := range msgs {
		switch {
		case m.Role == "system":
			system = append(system, m.Content)
		case m.Role == "tool":
			block := map[string]any{"type": "tool_result", "tool_use_id": m.ToolCallID, "content": m.Content}
			if n := len(out); n > 0 && out[n-1]["role"] == "user" {
				if blocks, ok := out[n-1]["content"].([]map[string]any); ok && len(blocks) > 0 && blocks[0]["type"] == "tool_result" {
					out[n-1]["content"] = append(blocks, block)
					continue
				}
			}
			out = append(out, map[string]any{"role": "user", "content": []map[string]any{block}})
		case len(m.ToolCalls) > 0:
			var blocks []map[string]any
			if m.Content != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": m.Content})
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": c.Arguments})
			}
			out = append(out, map[string]any{"role": m.Role, "content": blocks})
		default:
			out = append(out, map[string]any{"role": m.Role, "content": m.Content})
		}
	}
	return system, out
}

// messagesUpstreamTools adds the tools, tool choice and JSON schema
// (output_config.format) of o to a Messages body.
func messagesUpstreamTools(body map[string]any, o llm.Options) {
	if len(o.JSONSchema) > 0 {
		body["output_config"] = map[string]any{"format": map[string]any{"type": "json_schema", "schema": o.JSONSchema}}
	}
	if len(o.Tools) == 0 {
		return
	}
	tools := make([]map[string]any, len(o.Tools))
	for i, t := range o.Tools {
		schema := t.Parameters
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		tools[i] = map[string]any{"name": t.Name, "input_schema": schema}
		if t.Description != "" {
			tools[i]["description"] = t.Description
		}
	}
	body["tools"] = tools
	switch o.ToolChoice {
	case "", "auto":
	case "required":
		body["tool_choice"] = map[string]string{"type": "any"}
	default:
		body["tool_choice"] = map[string]string{"type": "tool", "name": o.ToolChoice}
	}
}

// upstreamCalls collects the tool calls of an upstream stream by the
// index the protocol gives them, passing them on to onCall (when set) as
// they arrive: a call is announced once its name is known, its arguments
// follow as they come.
type upstreamCalls struct {
	order  []int
	calls  map[int]*upstreamCall
	onCall func(llm.ToolCallDelta) error
}

type upstreamCall struct {
	id, name  string
	args      strings.Builder
	index     int  // the call's position in order
	announced bool // onCall has had its first delta
	sent      int  // the bytes of args passed on
}

func (u *upstreamCalls) start(i int, id, name string) error {
	if u.calls == nil {
		u.calls = map[int]*upstreamCall{}
	}
	c, ok := u.calls[i]
	if !ok {
		c = &upstreamCall{index: len(u.order)}
		u.calls[i] = c
		u.order = append(u.order, i)
	}
	if id != "" {
		c.id = id
	}
	if name != "" {
		c.name = name
	}
	return u.flush(c)
}

func (u *upstreamCalls) add(i int, args string) error {
	c, ok := u.calls[i]
	if !ok {
		return nil
	}
	c.args.WriteString(args)
	return u.flush(c)
}

// flush passes on what onCall has not had of c: its announcement (once
// its name is known, and only in order) and its new arguments.
func (u *upstreamCalls) flush(c *upstreamCall) error {
	if u.onCall == nil || c.name == "" {
		return nil
	}
	if !c.announced {
		if c.index > 0 && !u.calls[u.order[c.index-1]].announced {
			return nil // announced after the call before it
		}
		c.announced = true
		c.sent = c.args.Len()
		if err := u.onCall(llm.ToolCallDelta{Index: c.index, ID: c.id, Name: c.name, Arguments: c.args.String()}); err != nil {
			return err
		}
		if c.index+1 < len(u.order) {
			return u.flush(u.calls[u.order[c.index+1]])
		}
		return nil
	}
	if c.args.Len() > c.sent {
		piece := c.args.String()[c.sent:]
		c.sent = c.args.Len()
		return u.onCall(llm.ToolCallDelta{Index: c.index, Arguments: piece})
	}
	return nil
}

// result returns the calls in order; arguments that are not a JSON object
// are an upstream error.
func (u *upstreamCalls) result() ([]llm.ToolCall, error) {
	var out []llm.ToolCall
	for _, i := range u.order {
		c := u.calls[i]
		args, err := argumentsObject(c.args.String(), "arguments")
		if err != nil || c.name == "" {
			return nil, sotto.Unavailable("upstream_error", time.Second, "the upstream's tool call %q has malformed arguments", c.name)
		}
		out = append(out, llm.ToolCall{ID: c.id, Name: c.name, Arguments: args})
	}
	return out, nil
}
