package chattemplate

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Format is a family's syntax for the tool calls a model writes.
type Format int

// The tool-call formats, each as its family documents it.
const (
	// FormatNone: the template renders no tools.
	FormatNone Format = iota
	// FormatHermes: JSON objects {"name": …, "arguments": {…}} inside
	// <tool_call></tool_call> tags (Hermes, Qwen2.5, Qwen3).
	FormatHermes
	// FormatLlama3: the reply is a JSON object {"name": …, "parameters":
	// {…}}, optionally after <|python_tag|> (Llama 3.1–3.3 custom tools).
	FormatLlama3
	// FormatMistral: [TOOL_CALLS] followed by a JSON array of
	// {"name": …, "arguments": {…}} (Mistral v0.3, Nemo, Small), or by
	// name[ARGS]{…} (Mistral tokenizer v11 and later).
	FormatMistral
)

var formatNames = [...]string{"none", "hermes", "llama3", "mistral"}

// String returns the format's name: none, hermes, llama3 or mistral.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "unknown"
}

// The markers that open a tool call.
const (
	hermesOpen   = "<tool_call>"
	hermesClose  = "</tool_call>"
	mistralOpen  = "[TOOL_CALLS]"
	mistralArgs  = "[ARGS]"
	llamaPyTag   = "<|python_tag|>"
	llamaFormMsg = `"parameters": dictionary of argument name`
)

// detectFormat reads the tool-call syntax a template teaches. The XML
// parameter syntax inside <tool_call> of Qwen3.5 and Qwen3-Coder
// (<function=NAME><parameter=P>value</parameter>) is not read yet: such a
// template counts as rendering no tools rather than have its calls
// misread.
func detectFormat(src string) Format {
	switch {
	case strings.Contains(src, "<function="):
		return FormatNone
	case strings.Contains(src, hermesOpen):
		return FormatHermes
	case strings.Contains(src, mistralOpen):
		return FormatMistral
	case strings.Contains(src, llamaPyTag), strings.Contains(src, llamaFormMsg):
		return FormatLlama3
	}
	return FormatNone
}

// Markers returns the texts that open a tool call in format f, for an
// engine that must make sure they appear in the output even when they are
// control tokens (Mistral's [TOOL_CALLS], Llama's <|python_tag|>).
func (f Format) Markers() []string {
	switch f {
	case FormatHermes:
		return []string{hermesOpen, hermesClose}
	case FormatMistral:
		return []string{mistralOpen, mistralArgs}
	case FormatLlama3:
		return []string{llamaPyTag}
	}
	return nil
}

// ParseToolCalls splits a model's reply in format f into its text and the
// tool calls it makes. The text is what precedes the first call (trimmed
// of surrounding white space when calls follow). A reply whose call
// syntax does not parse is returned whole as text, with no calls.
func ParseToolCalls(f Format, out string) (text string, calls []ToolCall) {
	switch f {
	case FormatHermes:
		i := strings.Index(out, hermesOpen)
		if i < 0 {
			return out, nil
		}
		rest := out[i:]
		for {
			rest = strings.TrimSpace(rest)
			if rest == "" {
				break
			}
			if !strings.HasPrefix(rest, hermesOpen) {
				return out, nil
			}
			rest = rest[len(hermesOpen):]
			body := rest
			j := strings.Index(rest, hermesClose)
			if j >= 0 {
				body, rest = rest[:j], rest[j+len(hermesClose):]
			} else {
				rest = ""
			}
			c, ok := callFromJSON([]byte(strings.TrimSpace(body)), "arguments")
			if !ok {
				return out, nil
			}
			calls = append(calls, c)
		}
		return strings.TrimSpace(out[:i]), calls
	case FormatMistral:
		i := strings.Index(out, mistralOpen)
		if i < 0 {
			return out, nil
		}
		rest := strings.TrimSpace(out[i+len(mistralOpen):])
		if strings.HasPrefix(rest, "[") {
			var items []json.RawMessage
			if json.Unmarshal([]byte(rest), &items) != nil || len(items) == 0 {
				return out, nil
			}
			for _, it := range items {
				c, ok := callFromJSON(it, "arguments")
				if !ok {
					return out, nil
				}
				calls = append(calls, c)
			}
			return strings.TrimSpace(out[:i]), calls
		}
		// name[ARGS]{...}, possibly repeated after further [TOOL_CALLS].
		for _, part := range strings.Split(rest, mistralOpen) {
			name, args, ok := strings.Cut(strings.TrimSpace(part), mistralArgs)
			name = strings.TrimSpace(name)
			if !ok || name == "" || !isObject([]byte(args)) {
				return out, nil
			}
			calls = append(calls, ToolCall{Name: name, Arguments: compact([]byte(args))})
		}
		return strings.TrimSpace(out[:i]), calls
	case FormatLlama3:
		s := strings.TrimSpace(out)
		s = strings.TrimSpace(strings.TrimPrefix(s, llamaPyTag))
		if !strings.HasPrefix(s, "{") {
			return out, nil
		}
		// One call, or several separated by ';' (as Meta's examples show).
		dec := json.NewDecoder(strings.NewReader(s))
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return out, nil
			}
			c, ok := callFromJSON(raw, "parameters")
			if !ok {
				if c, ok = callFromJSON(raw, "arguments"); !ok {
					return out, nil
				}
			}
			calls = append(calls, c)
			rest := strings.TrimSpace(s[dec.InputOffset():])
			rest = strings.TrimSpace(strings.TrimPrefix(rest, ";"))
			if rest == "" {
				return "", calls
			}
			s = rest
			dec = json.NewDecoder(strings.NewReader(s))
		}
	}
	return out, nil
}

// callFromJSON reads {"name": string, argsKey: object} (arguments given
// as a JSON string holding an object are accepted too).
func callFromJSON(raw []byte, argsKey string) (ToolCall, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return ToolCall{}, false
	}
	var name string
	if json.Unmarshal(obj["name"], &name) != nil || name == "" {
		return ToolCall{}, false
	}
	args := obj[argsKey]
	var s string
	if json.Unmarshal(args, &s) == nil {
		args = []byte(s)
	}
	if len(args) == 0 {
		args = []byte("{}")
	}
	if !isObject(args) {
		return ToolCall{}, false
	}
	var id string
	_ = json.Unmarshal(obj["id"], &id)
	return ToolCall{ID: id, Name: name, Arguments: compact(args)}, true
}

func isObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

func compact(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, bytes.TrimSpace(b)) != nil {
		return json.RawMessage(b)
	}
	return buf.Bytes()
}

// Splitter separates streamed model output into text that can be shown
// at once and a tool-call tail that is held until the end. Text that may
// be the start of a call marker, and trailing white space, is held back
// until it is known not to precede a call.
// The zero value is not usable; use [NewSplitter].
type Splitter struct {
	f       Format
	pending strings.Builder // held text
	inCall  bool
	all     strings.Builder // the whole output
	started bool            // (Llama 3) some non-space text was seen
}

// NewSplitter returns a splitter for output in format f.
func NewSplitter(f Format) *Splitter { return &Splitter{f: f} }

// Write adds a piece of output and returns the text that can be shown.
func (s *Splitter) Write(piece string) string {
	s.all.WriteString(piece)
	if s.inCall {
		return ""
	}
	s.pending.WriteString(piece)
	p := s.pending.String()
	switch s.f {
	case FormatLlama3:
		if !s.started {
			t := strings.TrimLeft(p, " \t\r\n")
			if t == "" {
				return ""
			}
			s.started = true
			if strings.HasPrefix(t, "{") || strings.HasPrefix(llamaPyTag, t) || strings.HasPrefix(t, llamaPyTag) {
				s.inCall = true
				return ""
			}
		}
		s.pending.Reset()
		return p
	case FormatHermes, FormatMistral:
		open := hermesOpen
		if s.f == FormatMistral {
			open = mistralOpen
		}
		if i := strings.Index(p, open); i >= 0 {
			// The white space between the text and the call is dropped,
			// as ParseToolCalls trims it.
			s.inCall = true
			s.pending.Reset()
			return strings.TrimRight(p[:i], " \t\r\n")
		}
		hold := 0
		for k := min(len(open)-1, len(p)); k > 0; k-- {
			if strings.HasSuffix(p, open[:k]) {
				hold = k
				break
			}
		}
		// Trailing white space is held too: it is dropped if a call follows.
		n := len(strings.TrimRight(p[:len(p)-hold], " \t\r\n"))
		s.pending.Reset()
		s.pending.WriteString(p[n:])
		return p[:n]
	}
	s.pending.Reset()
	return p
}

// Finish ends the output. It returns the held text that turned out not to
// be a call (to show now) and the calls. When the call syntax does not
// parse, the held text is returned as text and calls is nil.
func (s *Splitter) Finish() (text string, calls []ToolCall) {
	held := s.pending.String()
	s.pending.Reset()
	if !s.inCall {
		return held, nil
	}
	whole := s.all.String()
	_, calls = ParseToolCalls(s.f, whole)
	if calls == nil {
		// Show what was held back: everything after the shown text.
		shown := len(whole) - len(s.tail(whole))
		return whole[shown:], nil
	}
	return "", calls
}

// tail returns the part of whole held since the call marker appeared.
func (s *Splitter) tail(whole string) string {
	switch s.f {
	case FormatHermes:
		if i := strings.Index(whole, hermesOpen); i >= 0 {
			return whole[i:]
		}
	case FormatMistral:
		if i := strings.Index(whole, mistralOpen); i >= 0 {
			return whole[i:]
		}
	case FormatLlama3:
		return whole
	}
	return ""
}

// CallSyntax returns the text of one call in the template's tool-call
// syntax around the function's name and its JSON arguments: before NAME
// between ARGS after. An engine uses it to force a call (tool_choice
// "required"); ok is false when the template renders no tools.
func (t *Template) CallSyntax() (before, between, after string, ok bool) {
	switch t.format {
	case FormatHermes:
		return hermesOpen + "\n{\"name\": \"", "\", \"arguments\": ", "}\n" + hermesClose, true
	case FormatLlama3:
		return "{\"name\": \"", "\", \"parameters\": ", "}", true
	case FormatMistral:
		if strings.Contains(t.src, mistralArgs) {
			return mistralOpen, mistralArgs, "", true
		}
		return mistralOpen + " [{\"name\": \"", "\", \"arguments\": ", "}]", true
	}
	return "", "", "", false
}
