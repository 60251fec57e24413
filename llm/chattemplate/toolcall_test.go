package chattemplate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	b, _ := json.Marshal(js)
	return string(b)
}

func TestParseToolCalls(t *testing.T) {
	for _, tc := range parseCases {
		text, calls := ParseToolCalls(tc.f, tc.out)
		if text != tc.text || callsJSON(calls) != tc.calls {
			t.Errorf("%s: ParseToolCalls(%v, %q) = %q, %s; want %q, %s", tc.name, tc.f, tc.out, text, callsJSON(calls), tc.text, tc.calls)
		}
	}
}

// TestSplitter streams every case one byte at a time and in one piece:
// the shown text plus Finish must give ParseToolCalls' answer, and no
// byte of a call may be shown before Finish.
func TestSplitter(t *testing.T) {
	for _, tc := range parseCases {
		for _, step := range []int{1, 3, len(tc.out)} {
			s := NewSplitter(tc.f)
			var shown strings.Builder
			for i := 0; i < len(tc.out); i += step {
				shown.WriteString(s.Write(tc.out[i:min(i+step, len(tc.out))]))
			}
			rest, calls := s.Finish()
			shown.WriteString(rest)
			want := tc.out
			if tc.calls != "null" {
				want = tc.text
			}
			got := shown.String()
			if tc.calls != "null" {
				// Shown text before a call has no trailing white space.
				want = tc.text
			}
			if got != want || callsJSON(calls) != tc.calls {
				t.Errorf("%s (step %d): shown %q, calls %s; want %q, %s", tc.name, step, got, callsJSON(calls), want, tc.calls)
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
	for _, f := range []Format{FormatHermes, FormatLlama3, FormatMistral} {
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

func FuzzParseToolCalls(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(int(tc.f), tc.out)
	}
	f.Fuzz(func(t *testing.T, fi int, out string) {
		fm := Format(uint(fi) % 4)
		text, calls := ParseToolCalls(fm, out)
		if calls == nil && text != out {
			t.Fatalf("no calls but text %q != output %q", text, out)
		}
		for _, c := range calls {
			if c.Name == "" || !json.Valid(c.Arguments) || !strings.HasPrefix(string(c.Arguments), "{") {
				t.Fatalf("bad call %+v from %q", c, out)
			}
		}
		// Streaming gives the same calls.
		s := NewSplitter(fm)
		for i := 0; i < len(out); i += 2 {
			s.Write(out[i:min(i+2, len(out))])
		}
		if _, sc := s.Finish(); callsJSON(sc) != callsJSON(calls) {
			t.Fatalf("Splitter calls %s; ParseToolCalls %s (%q)", callsJSON(sc), callsJSON(calls), out)
		}
	})
}

// TestCallSyntax: a call written in a template's syntax parses back.
func TestCallSyntax(t *testing.T) {
	for _, name := range []string{"llama3.2-1b-instruct", "qwen2.5-instruct", "qwen3-8b", "ministral3-14b-instruct-2512", "smollm2-instruct", "mistral-medium-3.5"} {
		src, err := os.ReadFile("testdata/templates/" + name + ".jinja")
		if err != nil {
			t.Fatal(err)
		}
		tp, err := Parse(string(src))
		if err != nil {
			t.Fatal(err)
		}
		before, between, after, ok := tp.CallSyntax()
		if ok != tp.SupportsTools() {
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
