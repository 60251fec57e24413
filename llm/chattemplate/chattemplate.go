package chattemplate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ardanlabs/jinja"
)

// Message is one turn of a conversation as chat templates see it
// (Hugging Face's message dictionaries).
type Message struct {
	// Role is "system", "user", "assistant" or "tool".
	Role string
	// Content is the text of the turn (empty for an assistant turn that
	// only calls tools).
	Content string
	// ToolCalls are the calls an assistant turn made.
	ToolCalls []ToolCall
	// ToolCallID and Name identify the call a "tool" turn answers.
	ToolCallID string
	Name       string
}

// ToolCall is one function call made by the model.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is a JSON object (the function's arguments).
	Arguments json.RawMessage
}

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments (nil: none).
	Parameters json.RawMessage
}

// Input is what a template renders.
type Input struct {
	Messages []Message
	// Tools are offered to the model (nil: none; templates then render
	// no tool section).
	Tools []Tool
	// AddGenerationPrompt ends the prompt with the header of an
	// assistant turn, so that the model writes the reply.
	AddGenerationPrompt bool
	// BOS and EOS are the model's beginning- and end-of-sequence token
	// texts (bos_token, eos_token).
	BOS, EOS string
	// Now is the time strftime_now reports (zero: time.Now()).
	Now time.Time
}

// Template is a parsed chat template. It is safe for concurrent use by
// multiple goroutines.
type Template struct {
	src    string
	t      *jinja.Template
	tools  bool
	format Format
}

// ErrRejected is matched (errors.Is) by the error of a template that
// refused its input with raise_exception, e.g. "Conversation roles must
// alternate user/assistant/user/assistant/...".
var ErrRejected = errors.New("chat template rejected the conversation")

// Parse compiles a chat template (the Jinja source of a GGUF file's
// tokenizer.chat_template, or of tokenizer_config.json's chat_template).
func Parse(src string) (*Template, error) {
	t, err := jinja.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("chattemplate: %w", err)
	}
	tp := &Template{src: src, t: t}
	tp.tools, tp.format = tp.probeTools()
	return tp, nil
}

// Source returns the template's Jinja source.
func (t *Template) Source() string { return t.src }

// probeName is the function name a template must print to count as one
// that renders tools.
const probeName = "sotto_probe_function"

// probeTools renders a one-message conversation with one tool: a template
// that handles tools prints the tool's name. The family of its tool-call
// syntax is then read from the markers it tells the model to use.
func (t *Template) probeTools() (bool, Format) {
	out, err := t.Render(Input{
		Messages:            []Message{{Role: "user", Content: "hi"}},
		Tools:               []Tool{{Name: probeName, Description: "probe", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}},
		AddGenerationPrompt: true,
	})
	if err != nil || !strings.Contains(out, probeName) {
		return false, FormatNone
	}
	f := detectFormat(t.src)
	return f != FormatNone, f
}

// SupportsTools reports whether the template renders tool definitions in
// a tool-call syntax that [ParseToolCalls] reads.
func (t *Template) SupportsTools() bool { return t.tools }

// ToolFormat returns the tool-call syntax the template teaches the model
// (FormatNone when it renders no tools).
func (t *Template) ToolFormat() Format { return t.format }

// Render renders in as prompt text. A template's raise_exception becomes
// an error matching [ErrRejected].
func (t *Template) Render(in Input) (string, error) {
	now := in.Now
	if now.IsZero() {
		now = time.Now()
	}
	msgs := make([]jinja.Value, len(in.Messages))
	for i, m := range in.Messages {
		msgs[i] = messageValue(m)
	}
	data := map[string]jinja.Value{
		"messages":              jinja.NewList(msgs),
		"add_generation_prompt": jinja.NewBool(in.AddGenerationPrompt),
		"bos_token":             jinja.NewString(in.BOS),
		"eos_token":             jinja.NewString(in.EOS),
		"raise_exception": jinja.NewCallable("raise_exception", func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
			msg := "raise_exception"
			if len(args) > 0 {
				msg = args[0].String()
			}
			return jinja.Undefined(), &rejectError{msg}
		}),
		"strftime_now": jinja.NewCallable("strftime_now", func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
			if len(args) != 1 || !args[0].IsString() {
				return jinja.Undefined(), errors.New("strftime_now: want one format string")
			}
			return jinja.NewString(strftime(args[0].AsString(), now)), nil
		}),
	}
	if len(in.Tools) > 0 {
		tools := make([]jinja.Value, len(in.Tools))
		for i, tl := range in.Tools {
			tools[i] = toolValue(tl)
		}
		data["tools"] = jinja.NewList(tools)
	}
	out, err := t.t.RenderValues(data)
	if err != nil {
		if re, ok := errors.AsType[*rejectError](err); ok {
			return "", fmt.Errorf("%w: %s", ErrRejected, re.msg)
		}
		return "", fmt.Errorf("chattemplate: %w", err)
	}
	return out, nil
}

type rejectError struct{ msg string }

func (e *rejectError) Error() string { return "raise_exception: " + e.msg }

// messageValue builds the message dictionary of Hugging Face's chat
// format. Keys are present only when set: templates test
// "'tool_calls' in message" or "message.tool_calls is defined".
func messageValue(m Message) jinja.Value {
	d := jinja.NewDict()
	dd := d.AsDict()
	dd.Set("role", jinja.NewString(m.Role))
	dd.Set("content", jinja.NewString(m.Content))
	if len(m.ToolCalls) > 0 {
		calls := make([]jinja.Value, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			fn := jinja.NewDict()
			fn.AsDict().Set("name", jinja.NewString(c.Name))
			fn.AsDict().Set("arguments", argumentsValue(c.Arguments))
			call := jinja.NewDict()
			if c.ID != "" {
				call.AsDict().Set("id", jinja.NewString(c.ID))
			}
			call.AsDict().Set("type", jinja.NewString("function"))
			call.AsDict().Set("function", fn)
			calls[i] = call
		}
		dd.Set("tool_calls", jinja.NewList(calls))
	}
	if m.ToolCallID != "" {
		dd.Set("tool_call_id", jinja.NewString(m.ToolCallID))
	}
	if m.Name != "" {
		dd.Set("name", jinja.NewString(m.Name))
	}
	return d
}

// argumentsValue is a call's arguments as a dictionary (the form chat
// templates expect: they print it with tojson), or the raw text when it
// is not a JSON object.
func argumentsValue(raw json.RawMessage) jinja.Value {
	if len(bytes.TrimSpace(raw)) == 0 {
		return jinja.NewDict()
	}
	v, err := FromJSON(raw)
	if err != nil || !v.IsDict() {
		return jinja.NewString(string(raw))
	}
	return v
}

// toolValue is the OpenAI-style tool dictionary templates iterate over:
// {"type": "function", "function": {"name", "description", "parameters"}}.
func toolValue(t Tool) jinja.Value {
	fn := jinja.NewDict()
	fn.AsDict().Set("name", jinja.NewString(t.Name))
	if t.Description != "" {
		fn.AsDict().Set("description", jinja.NewString(t.Description))
	}
	if len(bytes.TrimSpace(t.Parameters)) > 0 {
		if v, err := FromJSON(t.Parameters); err == nil {
			fn.AsDict().Set("parameters", v)
		}
	}
	d := jinja.NewDict()
	d.AsDict().Set("type", jinja.NewString("function"))
	d.AsDict().Set("function", fn)
	return d
}

// FromJSON decodes JSON into a template value, keeping the order of
// object keys (templates print objects with tojson, and the model should
// see them as the client wrote them).
func FromJSON(data []byte) (jinja.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return jinja.Undefined(), err
	}
	if len(bytes.Trim(data[dec.InputOffset():], " \t\r\n")) > 0 { // JSON white space only
		return jinja.Undefined(), errors.New("chattemplate: trailing data after JSON value")
	}
	return v, nil
}

const maxDepth = 200

func decodeValue(dec *json.Decoder, depth int) (jinja.Value, error) {
	if depth > maxDepth {
		return jinja.Undefined(), errors.New("chattemplate: JSON nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return jinja.Undefined(), err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			d := jinja.NewDict()
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return jinja.Undefined(), err
				}
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return jinja.Undefined(), err
				}
				d.AsDict().Set(k.(string), v)
			}
			_, err := dec.Token()
			return d, err
		case '[':
			items := []jinja.Value{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return jinja.Undefined(), err
				}
				items = append(items, v)
			}
			_, err := dec.Token()
			return jinja.NewList(items), err
		}
	case string:
		return jinja.NewString(t), nil
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return jinja.NewInt(i), nil
		}
		f, err := t.Float64()
		if err != nil {
			return jinja.Undefined(), err
		}
		return jinja.NewFloat(f), nil
	case bool:
		return jinja.NewBool(t), nil
	case nil:
		return jinja.None(), nil
	}
	return jinja.Undefined(), fmt.Errorf("chattemplate: unexpected JSON token %v", tok)
}

// strftime formats t with the C strftime directives chat templates use
// (Llama 3's strftime_now("%d %b %Y")).
func strftime(f string, t time.Time) string {
	var sb strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			sb.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'd':
			fmt.Fprintf(&sb, "%02d", t.Day())
		case 'e':
			fmt.Fprintf(&sb, "%2d", t.Day())
		case 'm':
			fmt.Fprintf(&sb, "%02d", int(t.Month()))
		case 'Y':
			fmt.Fprintf(&sb, "%d", t.Year())
		case 'y':
			fmt.Fprintf(&sb, "%02d", t.Year()%100)
		case 'b':
			sb.WriteString(t.Month().String()[:3])
		case 'B':
			sb.WriteString(t.Month().String())
		case 'a':
			sb.WriteString(t.Weekday().String()[:3])
		case 'A':
			sb.WriteString(t.Weekday().String())
		case 'H':
			fmt.Fprintf(&sb, "%02d", t.Hour())
		case 'M':
			fmt.Fprintf(&sb, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&sb, "%02d", t.Second())
		case 'j':
			fmt.Fprintf(&sb, "%03d", t.YearDay())
		case '%':
			sb.WriteByte('%')
		default:
			sb.WriteByte('%')
			sb.WriteByte(f[i])
		}
	}
	return sb.String()
}
