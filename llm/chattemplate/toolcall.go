package chattemplate

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
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
	// FormatXML: <function=NAME> blocks of <parameter=P>value</parameter>
	// inside <tool_call></tool_call> tags (Qwen3-Coder, Qwen3.5, Qwen3.6),
	// the values typed by the tool's parameters schema.
	FormatXML
)

var formatNames = [...]string{"none", "hermes", "llama3", "mistral", "xml"}

// String returns the format's name: none, hermes, llama3, mistral or xml.
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
// parameter syntax (<function=NAME>) is looked for first: its templates
// mention <tool_call> too.
func detectFormat(src string) Format {
	switch {
	case strings.Contains(src, xmlFunction):
		return FormatXML
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
	case FormatHermes, FormatXML:
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
// syntax does not parse, or that goes on after its calls, is returned
// whole as text, with no calls. tools are the tools offered to the model:
// the XML format reads its parameters' types from their schemas (the
// other formats write JSON and do not need them).
func ParseToolCalls(f Format, out string, tools ...Tool) (text string, calls []ToolCall) {
	i := callStart(f, out)
	if i < 0 {
		return out, nil
	}
	r := scanCalls(f, out[i:], true, typesOf(tools), nil)
	if r.state != scanDone || len(r.calls) == 0 || strings.TrimSpace(out[i+r.end:]) != "" {
		return out, nil
	}
	for _, c := range r.calls {
		if !c.done {
			return out, nil
		}
		calls = append(calls, ToolCall{ID: c.id, Name: c.name, Arguments: json.RawMessage(c.args)})
	}
	return strings.TrimSpace(out[:i]), calls
}

// callStart returns the offset where the calls of a reply in format f
// begin (its first call marker; 0 for a Llama 3 reply that starts with a
// JSON object or <|python_tag|>), or -1 when the reply makes no call.
func callStart(f Format, out string) int {
	switch f {
	case FormatHermes, FormatXML:
		return strings.Index(out, hermesOpen)
	case FormatMistral:
		return strings.Index(out, mistralOpen)
	case FormatLlama3:
		s := strings.TrimLeft(out, " \t\r\n")
		if strings.HasPrefix(s, "{") || strings.HasPrefix(s, llamaPyTag) {
			return 0
		}
	}
	return -1
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

// CallDelta is a piece of a tool call that a [Splitter] read from streamed
// output. A call's first delta carries its Name (and its ID, when the
// model wrote one before the arguments); the Arguments of a call's
// deltas, joined in order, are its arguments' JSON text.
type CallDelta struct {
	// Index is the call's position among the reply's calls, from 0.
	Index int
	// ID and Name are set in the call's first delta only.
	ID, Name string
	// Arguments is the next piece of the arguments' JSON text (compact).
	Arguments string
}

// Splitter separates streamed model output into text that can be shown
// at once and tool calls, which it reads as they are written: a call is
// announced as soon as its name is known and its arguments follow piece
// by piece (see [Splitter.Deltas]). Text that may be the start of a call
// marker, and trailing white space, is held back until it is known not to
// precede a call.
// The zero value is not usable; use [NewSplitter]. A Splitter is not safe
// for concurrent use.
type Splitter struct {
	f       Format
	types   toolTypes
	pending strings.Builder // held text
	inCall  bool
	all     strings.Builder // the whole output
	started bool            // (Llama 3) some non-space text was seen
	start   int             // the offset in all where the calls begin
	sent    []partialCall   // the calls announced, with the arguments sent
	deltas  []CallDelta     // not yet taken by Deltas
	memo    scanMemo        // the arguments value being read (see scanCalls)
}

// NewSplitter returns a splitter for output in format f. tools are the
// tools offered to the model (the XML format types its parameters by
// their schemas).
func NewSplitter(f Format, tools ...Tool) *Splitter {
	return &Splitter{f: f, types: typesOf(tools)}
}

// Write adds a piece of output and returns the text that can be shown.
// The call pieces it reads are queued for [Splitter.Deltas].
func (s *Splitter) Write(piece string) string {
	s.all.WriteString(piece)
	if s.inCall {
		s.scan(false)
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
				s.inCall, s.start = true, 0
				s.scan(false)
				return ""
			}
		}
		s.pending.Reset()
		return p
	case FormatHermes, FormatMistral, FormatXML:
		open := hermesOpen
		if s.f == FormatMistral {
			open = mistralOpen
		}
		if i := strings.Index(p, open); i >= 0 {
			// The white space between the text and the call is dropped,
			// as ParseToolCalls trims it.
			s.inCall = true
			s.start = s.all.Len() - len(p) + i
			s.pending.Reset()
			s.scan(false)
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

// scan reads the calls written so far and queues what is new: the first
// delta of a call that can be announced, the arguments' text added to
// one already announced.
func (s *Splitter) scan(final bool) scanResult {
	r := scanCalls(s.f, s.all.String()[s.start:], final, s.types, &s.memo)
	for i, c := range r.calls {
		if !final {
			// A piece ends on a whole character: a token may end inside one.
			c.args = wholeRunes(c.args)
		}
		if i < len(s.sent) {
			sent := &s.sent[i]
			if len(c.args) > len(sent.args) && strings.HasPrefix(c.args, sent.args) {
				s.deltas = append(s.deltas, CallDelta{Index: i, Arguments: c.args[len(sent.args):]})
				sent.args = c.args
			}
			if c.id != "" {
				sent.id = c.id
			}
			sent.done = c.done && c.args == sent.args
			continue
		}
		if !c.ready {
			break
		}
		s.sent = append(s.sent, c)
		s.deltas = append(s.deltas, CallDelta{Index: i, ID: c.id, Name: c.name, Arguments: c.args})
	}
	return r
}

// wholeRunes returns s without an incomplete UTF-8 sequence at its end.
func wholeRunes(s string) string {
	for k := 1; k <= min(utf8.UTFMax-1, len(s)); k++ {
		if utf8.RuneStart(s[len(s)-k]) {
			if !utf8.FullRuneInString(s[len(s)-k:]) {
				return s[:len(s)-k]
			}
			break
		}
	}
	return s
}

// Deltas returns the call pieces read since the last call of Deltas, in
// order. Call it after each Write and after Finish.
func (s *Splitter) Deltas() []CallDelta {
	d := s.deltas
	s.deltas = nil
	return d
}

// Finish ends the output. It returns the held text to show now and the
// calls, one for each call announced by [Splitter.Deltas], with the
// arguments as streamed (and the ID the model wrote, also one written
// after the arguments). A call the output broke off inside (cut short,
// or its syntax broken) has arguments that are not a complete JSON
// object. When no call could be announced the held call text is
// returned as text and calls is nil; text the model wrote after its
// complete calls is returned as text too.
func (s *Splitter) Finish() (text string, calls []ToolCall) {
	held := s.pending.String()
	s.pending.Reset()
	if !s.inCall {
		return held, nil
	}
	r := s.scan(true)
	region := s.all.String()[s.start:]
	if len(s.sent) == 0 {
		return region, nil
	}
	complete := true
	for _, c := range s.sent {
		calls = append(calls, ToolCall{ID: c.id, Name: c.name, Arguments: json.RawMessage(c.args)})
		complete = complete && c.done
	}
	if complete {
		text = strings.TrimSpace(region[r.end:])
	}
	return text, calls
}

// CallSyntax returns the text of one call in the template's tool-call
// syntax around the function's name and its JSON arguments: before NAME
// between ARGS after. An engine uses it to force a call (tool_choice
// "required"); ok is false when the template renders no tools, or
// renders them in the XML format, whose arguments are not JSON.
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
