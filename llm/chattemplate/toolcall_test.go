package chattemplate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Model replies in each family's documented tool-call syntax. The
// testdata/outputs files hold replies as the models write them.
var parseCases = []struct {
	name  string
	f     Format
	out   string
	text  string
	calls string // the calls as JSON [{"name", "arguments"}]
}{
	{"hermes one", FormatHermes, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", "",
		`[{"id":"","name":"get_weather","arguments":{"city":"Paris"}}]`},
	{"hermes text then two", FormatHermes, "Let me check.\n<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\": \"b\", \"arguments\": {\"x\": [1, 2]}}\n</tool_call>", "Let me check.",
		`[{"id":"","name":"a","arguments":{}},{"id":"","name":"b","arguments":{"x":[1,2]}}]`},
	{"hermes unclosed at end", FormatHermes, "<tool_call>\n{\"name\": \"a\", \"arguments\": {\"q\": \"x\"}}", "",
		`[{"id":"","name":"a","arguments":{"q":"x"}}]`},
	{"hermes arguments as string", FormatHermes, "<tool_call>{\"name\": \"a\", \"arguments\": \"{\\\"q\\\": 1}\"}</tool_call>", "",
		`[{"id":"","name":"a","arguments":{"q":1}}]`},
	{"hermes broken json", FormatHermes, "<tool_call>\n{\"name\": \"a\", \"arguments\": {\n</tool_call>", "<tool_call>\n{\"name\": \"a\", \"arguments\": {\n</tool_call>", `null`},
	{"hermes plain text", FormatHermes, "It is sunny.", "It is sunny.", `null`},
	{"llama3 json", FormatLlama3, "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}", "",
		`[{"id":"","name":"get_weather","arguments":{"city":"Paris"}}]`},
	{"llama3 python tag", FormatLlama3, "<|python_tag|>{\"name\": \"f\", \"parameters\": {}}", "",
		`[{"id":"","name":"f","arguments":{}}]`},
	{"llama3 two", FormatLlama3, "{\"name\": \"f\", \"parameters\": {\"a\": 1}}; {\"name\": \"g\", \"parameters\": {}}", "",
		`[{"id":"","name":"f","arguments":{"a":1}},{"id":"","name":"g","arguments":{}}]`},
	{"llama3 prose with braces", FormatLlama3, "Use {x} here.", "Use {x} here.", `null`},
	{"llama3 json without name", FormatLlama3, "{\"answer\": 42}", "{\"answer\": 42}", `null`},
	{"mistral v3 list", FormatMistral, "[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}, \"id\": \"abcDEF123\"}]", "",
		`[{"id":"abcDEF123","name":"get_weather","arguments":{"city":"Paris"}}]`},
	{"mistral v11 args", FormatMistral, "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}", "",
		`[{"id":"","name":"get_weather","arguments":{"city":"Paris"}}]`},
	{"mistral v11 two", FormatMistral, "[TOOL_CALLS]a[ARGS]{}[TOOL_CALLS]b[ARGS]{\"k\": true}", "",
		`[{"id":"","name":"a","arguments":{}},{"id":"","name":"b","arguments":{"k":true}}]`},
	{"mistral broken", FormatMistral, "[TOOL_CALLS] [{\"name\": ", "[TOOL_CALLS] [{\"name\": ", `null`},
	{"none", FormatNone, "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>", "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>", `null`},
	{"hermes non-ASCII", FormatHermes, "<tool_call>{\"name\": \"w\", \"arguments\": {\"city\": \"Zürich 東京\"}}</tool_call>", "",
		`[{"id":"","name":"w","arguments":{"city":"Zürich 東京"}}]`},
	{"hermes two alike", FormatHermes, "<tool_call>{\"name\": \"a\", \"arguments\": {\"k\": \"vvvv1\"}}</tool_call>\n<tool_call>{\"name\": \"a\", \"arguments\": {\"k\": \"vvvv2\"}}</tool_call>", "",
		`[{"id":"","name":"a","arguments":{"k":"vvvv1"}},{"id":"","name":"a","arguments":{"k":"vvvv2"}}]`},
	{"hermes text after the call", FormatHermes, "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call> Done.", "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call> Done.", `null`},
	{"hermes arguments first", FormatHermes, "<tool_call>{\"arguments\": {\"q\": 1}, \"name\": \"a\"}</tool_call>", "",
		`[{"id":"","name":"a","arguments":{"q":1}}]`},
	{"hermes no arguments", FormatHermes, "<tool_call>{\"name\": \"a\"}</tool_call>", "", `[{"id":"","name":"a","arguments":{}}]`},
	{"llama3 arguments key", FormatLlama3, "{\"name\": \"f\", \"arguments\": {\"a\": 1}};", "", `[{"id":"","name":"f","arguments":{"a":1}}]`},
	{"xml one", FormatXML, "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>", "",
		`[{"id":"","name":"get_weather","arguments":{"city":"Paris"}}]`},
	{"xml text then two, typed", FormatXML, "I will look.\n\n<tool_call>\n<function=get_weather>\n<parameter=city>\nZürich\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=metric>\nTrue\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=search>\n<parameter=query>\nsay \"hi\" <b>\ntwice\n\n</parameter>\n<parameter=filters>\n{\"site\": \"x\", \"n\": [1, 2]}\n</parameter>\n</function>\n</tool_call>", "I will look.",
		`[{"id":"","name":"get_weather","arguments":{"city":"Zürich","days":3,"metric":true}},{"id":"","name":"search","arguments":{"query":"say \"hi\" <b>\ntwice\n","filters":{"site":"x","n":[1,2]}}}]`},
	{"xml value not of its type", FormatXML, "<tool_call><function=get_weather><parameter=days>three</parameter><parameter=zip>01234</parameter></function></tool_call>", "",
		`[{"id":"","name":"get_weather","arguments":{"days":"three","zip":"01234"}}]`},
	{"xml tag-like text in a value", FormatXML, "<tool_call>\n<function=search>\n<parameter=query>\nx </param y\n\n</parameter\n</parameter>\n<parameter=filters>\n{}\n</parameter>\n</function>\n</tool_call>", "",
		`[{"id":"","name":"search","arguments":{"query":"x </param y\n\n</parameter","filters":{}}}]`},
	{"xml no parameters, unclosed at end", FormatXML, "<tool_call>\n<function=now>\n</function>", "", `[{"id":"","name":"now","arguments":{}}]`},
	{"xml unclosed parameter", FormatXML, "<tool_call>\n<function=a>\n<parameter=q>\nx", "<tool_call>\n<function=a>\n<parameter=q>\nx", `null`},
	{"xml json inside", FormatXML, "<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>", "<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>", `null`},
}

// xmlTools are the tools of the XML cases: their schemas type the values.
var xmlTools = []Tool{
	{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},"metric":{"type":["boolean","null"]},"zip":{"type":"string"}}}`)},
	{Name: "search", Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"filters":{"type":"object"}}}`)},
}

type jsonCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func callsJSON(calls []ToolCall) string {
	if calls == nil {
		return "null"
	}
	var js []jsonCall
	for _, c := range calls {
		js = append(js, jsonCall{c.ID, c.Name, c.Arguments})
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(js) != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestParseToolCalls(t *testing.T) {
	for _, tc := range parseCases {
		text, calls := ParseToolCalls(tc.f, tc.out, xmlTools...)
		if text != tc.text || callsJSON(calls) != tc.calls {
			t.Errorf("%s: ParseToolCalls(%v, %q) = %q, %s; want %q, %s", tc.name, tc.f, tc.out, text, callsJSON(calls), tc.text, tc.calls)
		}
	}
}

// streamed is what a client sees of a reply streamed through a Splitter
// step bytes at a time: the shown text, the calls reassembled from the
// deltas, and Finish's answer.
type streamed struct {
	shown     string
	assembled []ToolCall // from Deltas
	calls     []ToolCall // from Finish
}

func stream(t testing.TB, f Format, out string, step int, tools []Tool) streamed {
	s := NewSplitter(f, tools...)
	var r streamed
	var shown strings.Builder
	take := func() {
		for _, d := range s.Deltas() {
			if utf8.ValidString(out) && !utf8.ValidString(d.Arguments) {
				t.Fatalf("delta %+v splits a character (%q)", d, out)
			}
			switch {
			case d.Index == len(r.assembled) && d.Name != "":
				r.assembled = append(r.assembled, ToolCall{ID: d.ID, Name: d.Name, Arguments: json.RawMessage(d.Arguments)})
			case d.Index < len(r.assembled) && d.Name == "" && d.ID == "":
				r.assembled[d.Index].Arguments = append(r.assembled[d.Index].Arguments, d.Arguments...)
			default:
				t.Fatalf("delta %+v out of order after %d calls (%q)", d, len(r.assembled), out)
			}
		}
	}
	for i := 0; i < len(out); i += step {
		shown.WriteString(s.Write(out[i:min(i+step, len(out))]))
		take()
	}
	rest, calls := s.Finish()
	take()
	shown.WriteString(rest)
	r.shown, r.calls = shown.String(), calls
	return r
}

func withoutIDs(calls []ToolCall) []ToolCall {
	out := append([]ToolCall(nil), calls...)
	for i := range out {
		out[i].ID = ""
	}
	return out
}

// TestSplitter streams every case one byte at a time, three at a time
// and in one piece: the shown text plus Finish must give ParseToolCalls'
// answer, the deltas must reassemble to the calls, and no byte of a call
// may be shown. A reply whose calls do not parse is shown whole unless a
// call had been announced, which then ends unfinished.
func TestSplitter(t *testing.T) {
	for _, tc := range parseCases {
		for _, step := range []int{1, 3, len(tc.out)} {
			r := stream(t, tc.f, tc.out, step, xmlTools)
			// The stream has the ID a model writes before the arguments;
			// Finish has one written after them too.
			if got, want := callsJSON(withoutIDs(r.assembled)), callsJSON(withoutIDs(r.calls)); got != want {
				t.Errorf("%s (step %d): reassembled %s; Finish %s", tc.name, step, got, want)
			}
			if len(r.assembled) != len(r.calls) {
				t.Errorf("%s (step %d): %d calls reassembled; Finish %d", tc.name, step, len(r.assembled), len(r.calls))
			}
			if tc.calls != "null" {
				if r.shown != tc.text || callsJSON(r.calls) != tc.calls {
					t.Errorf("%s (step %d): shown %q, calls %s; want %q, %s", tc.name, step, r.shown, callsJSON(r.calls), tc.text, tc.calls)
				}
				continue
			}
			if r.calls == nil && r.shown != tc.out {
				t.Errorf("%s (step %d): shown %q; want the whole reply %q", tc.name, step, r.shown, tc.out)
			}
		}
	}
}

// TestSplitterAnnouncesEarly: a call is announced as soon as its name is
// known, and a string value streams before its closing tag.
func TestSplitterAnnouncesEarly(t *testing.T) {
	for _, tc := range []struct {
		f     Format
		parts []string
		want  []string // the deltas after each part, as "name|args"
	}{
		{FormatHermes, []string{"Sure.\n<tool_call>\n{\"name\": \"get", "_weather\", \"arguments\": {\"city\": \"Par", "is\"}}\n</tool_call>"},
			[]string{"", "get_weather|{\"city\":\"Par", "|is\"}"}},
		{FormatXML, []string{"<tool_call>\n<function=get_weather>\n<parameter=city>\nPar", "is\n</param", "eter>\n<parameter=days>\n3\n", "</parameter>\n</function>"},
			[]string{"get_weather|{\"city\":\"Par", "|is", "|\",\"days\":", "|3}"}},
		{FormatMistral, []string{"[TOOL_CALLS]get_weather", "[ARGS]{\"city\": ", "\"Paris\"}"},
			[]string{"", "get_weather|{\"city\":", "|\"Paris\"}"}},
	} {
		s := NewSplitter(tc.f, xmlTools...)
		for i, p := range tc.parts {
			s.Write(p)
			var got []string
			for _, d := range s.Deltas() {
				got = append(got, d.Name+"|"+d.Arguments)
			}
			if g := strings.Join(got, " "); g != tc.want[i] {
				t.Errorf("%v: after %q: deltas %q; want %q", tc.f, p, g, tc.want[i])
			}
		}
	}
}

func TestSplitterShowsTextAtOnce(t *testing.T) {
	s := NewSplitter(FormatHermes)
	if got := s.Write("Hello <tool"); got != "Hello" {
		t.Errorf("Write = %q; want %q (the possible marker and the space before it held)", got, "Hello")
	}
	if got := s.Write("box> world"); got != " <toolbox> world" {
		t.Errorf("Write = %q; want the held text released", got)
	}
}

// TestModelOutputs parses replies recorded from the real model families
// (testdata/outputs/<format>-*.txt, each a reply and, after a line "---",
// the expected calls as JSON).
func TestModelOutputs(t *testing.T) {
	for _, f := range []Format{FormatHermes, FormatLlama3, FormatMistral, FormatXML} {
		files, _ := filepath.Glob("testdata/outputs/" + f.String() + "-*.txt")
		if len(files) == 0 {
			t.Errorf("no testdata/outputs for %v", f)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			out, want, ok := strings.Cut(string(b), "\n---\n")
			if !ok {
				t.Fatalf("%s: no --- line", name)
			}
			_, calls := ParseToolCalls(f, out)
			if got := callsJSON(calls); got != strings.TrimSpace(want) {
				t.Errorf("%s: calls %s; want %s", name, got, want)
			}
		}
	}
}

// FuzzParseToolCalls checks, on any reply in any format: calls have a
// name and a JSON object as arguments; a reply without calls is returned
// as it is; streaming two bytes at a time reassembles, from the deltas,
// the calls Finish returns, and finds the same calls and text as
// ParseToolCalls when that finds any.
func FuzzParseToolCalls(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(int(tc.f), tc.out)
	}
	f.Fuzz(func(t *testing.T, fi int, out string) {
		fm := Format(uint(fi) % uint(len(formatNames)))
		text, calls := ParseToolCalls(fm, out, xmlTools...)
		if calls == nil && text != out {
			t.Fatalf("no calls but text %q != output %q", text, out)
		}
		for _, c := range calls {
			if c.Name == "" || !isObject(c.Arguments) {
				t.Fatalf("bad call %+v from %q", c, out)
			}
		}
		r := stream(t, fm, out, 2, xmlTools)
		if len(r.assembled) != len(r.calls) {
			t.Fatalf("%d calls reassembled; Finish %d (%q)", len(r.assembled), len(r.calls), out)
		}
		for i, c := range r.calls {
			a := r.assembled[i]
			if a.Name != c.Name || string(a.Arguments) != string(c.Arguments) {
				t.Fatalf("reassembled %s %s; Finish %s %s (%q)", a.Name, a.Arguments, c.Name, c.Arguments, out)
			}
		}
		if calls != nil {
			if callsJSON(r.calls) != callsJSON(calls) {
				t.Fatalf("Splitter calls %s; ParseToolCalls %s (%q)", callsJSON(r.calls), callsJSON(calls), out)
			}
			if strings.TrimSpace(r.shown) != text {
				t.Fatalf("Splitter shows %q; ParseToolCalls text %q (%q)", r.shown, text, out)
			}
		}
	})
}

// TestCallSyntax: a call written in a template's syntax parses back.
func TestCallSyntax(t *testing.T) {
	for _, name := range []string{"llama3.2-1b-instruct", "qwen2.5-instruct", "qwen3-8b", "ministral3-14b-instruct-2512", "smollm2-instruct", "mistral-medium-3.5", "qwen3.6-35b-a3b"} {
		src, err := os.ReadFile("testdata/templates/" + name + ".jinja")
		if err != nil {
			t.Fatal(err)
		}
		tp, err := Parse(string(src))
		if err != nil {
			t.Fatal(err)
		}
		before, between, after, ok := tp.CallSyntax()
		if ok != (tp.SupportsTools() && tp.ToolFormat() != FormatXML) {
			t.Errorf("%s: CallSyntax ok = %v; SupportsTools %v", name, ok, tp.SupportsTools())
		}
		if !ok {
			continue
		}
		out := before + "get_weather" + between + `{"city": "Paris"}` + after
		text, calls := ParseToolCalls(tp.ToolFormat(), out)
		if text != "" || len(calls) != 1 || calls[0].Name != "get_weather" || string(calls[0].Arguments) != `{"city":"Paris"}` {
			t.Errorf("%s: ParseToolCalls(%q) = %q, %+v", name, out, text, calls)
		}
	}
}

// BenchmarkSplitterLongArguments streams a call whose one string argument
// is 20 KB (a file's content, say), 4 bytes per token, in each format:
// the Splitter re-scans the call on each piece, so its cost grows with
// the square of the call's length.
func BenchmarkSplitterLongArguments(b *testing.B) {
	content := strings.Repeat("func f() { return \"x\" }\n", 20000/25)
	esc, _ := json.Marshal(content)
	replies := map[Format]string{
		FormatHermes: "<tool_call>\n{\"name\": \"write\", \"arguments\": {\"content\": " + string(esc) + "}}\n</tool_call>",
		FormatXML:    "<tool_call>\n<function=write>\n<parameter=content>\n" + content + "\n</parameter>\n</function>\n</tool_call>",
	}
	for _, f := range []Format{FormatHermes, FormatXML} {
		out := replies[f]
		b.Run(f.String(), func(b *testing.B) {
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				s := NewSplitter(f)
				for i := 0; i < len(out); i += 4 {
					s.Write(out[i:min(i+4, len(out))])
					s.Deltas()
				}
				if _, calls := s.Finish(); len(calls) != 1 {
					b.Fatal("no call")
				}
			}
		})
	}
}
