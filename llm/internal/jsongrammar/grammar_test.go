package jsongrammar

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

var matchCases = []struct {
	schema string
	ok     []string
	bad    []string
}{
	{`{}`, []string{`1`, `"x"`, `{"a":[1,2,{"b":null}]}`, `true`, `[]`, `{}`, `-0.5e+3`, `"\u00e9\n"`},
		[]string{``, `01`, `{`, `[1,]`, `{"a" :1}`, `"\x"`, `tru`, `1.`, `"a` + "\x01" + `"`}},
	{`{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"]}`,
		[]string{`{"name":"Lily"}`, `{"name":"Lily","age":3}`, `{"name": "Lily", "age": 3}`},
		[]string{`{}`, `{"age":3}`, `{"age":3,"name":"x"}`, `{"name":"x","age":3.5}`, `{"name":"x","other":1}`, `{"name":"x"} `, `{ "name":"x"}`}},
	{`{"type":"object","properties":{"a":{"type":"boolean"},"b":{"type":"null"},"c":{"enum":["x","y",1]}}}`,
		[]string{`{}`, `{"a":true}`, `{"b":null,"c":1}`, `{"a":false,"b":null,"c":"y"}`, `{"c":"x"}`},
		[]string{`{"c":"z"}`, `{,"a":true}`, `{"a":true,}`, `{"b":null,"a":true}`}},
	{`{"type":"array","items":{"type":"number"},"minItems":1,"maxItems":3}`,
		[]string{`[1]`, `[1,2.5,-3]`, `[1, 2]`},
		[]string{`[]`, `[1,2,3,4]`, `["a"]`}},
	{`{"type":["string","null"],"maxLength":3,"minLength":1}`,
		[]string{`"abc"`, `null`, `"é"`, `"\n"`},
		[]string{`"abcd"`, `""`, `1`}},
	{`{"anyOf":[{"type":"integer"},{"const":{"k":"v"}}]}`,
		[]string{`7`, `{"k":"v"}`}, []string{`{"k":"w"}`, `7.5`}},
	{`{"$defs":{"node":{"type":"object","properties":{"next":{"anyOf":[{"$ref":"#/$defs/node"},{"type":"null"}]}},"required":["next"]}},"$ref":"#/$defs/node"}`,
		[]string{`{"next":null}`, `{"next":{"next":{"next":null}}}`}, []string{`{"next":1}`, `{}`}},
	{`{"type":"object","additionalProperties":{"type":"integer"}}`,
		[]string{`{}`, `{"a":1,"b":2}`}, []string{`{"a":"x"}`}},
	{`{"type":"string","enum":["<a&b>"]}`, []string{`"<a&b>"`}, []string{`"\u003ca\u0026b\u003e"`}},
}

func TestMatch(t *testing.T) {
	for _, c := range matchCases {
		g, err := Compile([]byte(c.schema))
		if err != nil {
			t.Fatalf("Compile(%s): %v", c.schema, err)
		}
		for _, s := range c.ok {
			if !g.Match([]byte(s)) {
				t.Errorf("schema %s: Match(%q) = false; want true", c.schema, s)
			}
		}
		for _, s := range c.bad {
			if g.Match([]byte(s)) {
				t.Errorf("schema %s: Match(%q) = true; want false", c.schema, s)
			}
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, s := range []string{`{"type":"string","pattern":"^a"}`, `{"type":"integer","minimum":0}`, `{"$ref":"http://x/y"}`,
		`{"allOf":[{},{}]}`} {
		if _, err := Compile([]byte(s)); !errors.Is(err, ErrUnsupported) {
			t.Errorf("Compile(%s) = %v; want ErrUnsupported", s, err)
		}
	}
	for _, s := range []string{`false`, `[1]`, `{"type":"thing"}`, `{"enum":[]}`, `{"$ref":"#/$defs/missing"}`} {
		if _, err := Compile([]byte(s)); err == nil {
			t.Errorf("Compile(%s) = nil error", s)
		}
	}
}

// toyVocab has single characters and some multi-character JSON pieces,
// plus an end token (id 0) and a control token without text (id 1).
func toyVocab() (*Vocab, []string) {
	words := []string{"", "", "{", "}", "[", "]", "\"", ":", ",", " ", "a", "b", "n", "e", "1", "2", "0", ".", "-",
		"true", "false", "null", "\"name\"", "\":", "\",\"", "ab", "xyz", "{\"", "é", "\\", "\\n", "5", "e+", "Lily", "age",
		"<", ">", "&", "E", "+", "u", "9"}
	for c := 'c'; c <= 'z'; c++ {
		words = append(words, string(c))
	}
	pieces := make([][]byte, len(words))
	eog := make([]bool, len(words))
	for i, w := range words {
		if w != "" {
			pieces[i] = []byte(w)
		}
	}
	eog[0] = true
	return NewVocab(pieces, eog), words
}

// TestConstrainedRandom samples with random logits under the mask: every
// finished output must match the schema and parse as JSON.
func TestConstrainedRandom(t *testing.T) {
	v, words := toyVocab()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range matchCases {
		g, _ := Compile([]byte(c.schema))
		finished := 0
		for run := 0; run < 40; run++ {
			con := NewConstraint(g, v)
			var out strings.Builder
			ended := false
			for step := 0; step < 60 && !ended; step++ {
				logits := make([]float32, len(words))
				for i := range logits {
					logits[i] = float32(rng.NormFloat64())
				}
				con.Mask(logits)
				best, bestV := -1, float32(math.Inf(-1))
				for i, l := range logits {
					if l > bestV {
						best, bestV = i, l
					}
				}
				if best < 0 {
					t.Fatalf("schema %s: every token masked after %q", c.schema, out.String())
				}
				if best == 0 {
					if !con.Accepting() {
						t.Fatalf("schema %s: dead end after %q", c.schema, out.String())
					}
					ended = true
					break
				}
				if best == 1 {
					t.Fatalf("control token allowed")
				}
				out.WriteString(words[best])
				con.Accept(best)
			}
			if !ended {
				continue
			}
			finished++
			if !g.Match([]byte(out.String())) || !json.Valid([]byte(out.String())) {
				t.Errorf("schema %s: constrained output %q does not match", c.schema, out.String())
			}
		}
		if finished == 0 {
			t.Errorf("schema %s: no run finished in 60 tokens", c.schema)
		}
	}
}

func FuzzCompile(f *testing.F) {
	for _, c := range matchCases {
		f.Add(c.schema, c.ok[0])
	}
	f.Fuzz(func(t *testing.T, schema, text string) {
		g, err := Compile([]byte(schema))
		if err != nil {
			return
		}
		if g.Match([]byte(text)) && !json.Valid([]byte(text)) {
			t.Fatalf("schema %s matched invalid JSON %q", schema, text)
		}
	})
}

func TestLeftRecursionEnds(t *testing.T) {
	for _, s := range []string{`{"$ref":"#"}`, `{"anyOf":[{"$ref":"#"},{"$ref":"#"},{"type":"null"}]}`} {
		g, err := Compile([]byte(s))
		if err != nil {
			continue
		}
		g.Match([]byte("null")) // must return
	}
}

func TestToolCall(t *testing.T) {
	g, err := ToolCall("<tool_call>\n{\"name\": \"", "\", \"arguments\": ", "}\n</tool_call>", []Tool{
		{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)},
		{Name: "now"}})
	if err != nil {
		t.Fatal(err)
	}
	for s, want := range map[string]bool{
		"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>": true,
		"<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>":                            true,
		"<tool_call>\n{\"name\": \"now\", \"arguments\": {\"x\":[1]}}\n</tool_call>":                   false, // no parameters: {} only
		"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {}}\n</tool_call>":                    false,
		"<tool_call>\n{\"name\": \"other\", \"arguments\": {}}\n</tool_call>":                          false,
		"Sure!": false,
	} {
		if got := g.Match([]byte(s)); got != want {
			t.Errorf("Match(%q) = %v; want %v", s, got, want)
		}
	}
	if _, err := ToolCall("", "", "", nil); err == nil {
		t.Error("ToolCall(no tools) = nil error")
	}
	if _, err := ToolCall("", "", "", []Tool{{Name: "f", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`)}}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("ToolCall(minimum) = %v; want ErrUnsupported", err)
	}
}

// TestMaskPaths: the in-string fast path masks exactly as matching every
// token does, along random constrained runs.
func TestMaskPaths(t *testing.T) {
	v, words := toyVocab()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sc := range []string{`{"type":"string","maxLength":4}`, `{"type":"object","properties":{"a":{"type":"string"},"b":{"enum":["xy","é\n"]}}}`, `{}`} {
		g, _ := Compile([]byte(sc))
		for run := 0; run < 20; run++ {
			fast, slow := NewConstraint(g, v), NewConstraint(g, v)
			slow.noFast = true
			for step := 0; step < 30; step++ {
				lf, ls := make([]float32, len(words)), make([]float32, len(words))
				fast.Mask(lf)
				slow.Mask(ls)
				var ok []int
				for i := range lf {
					if math.IsInf(float64(lf[i]), -1) != math.IsInf(float64(ls[i]), -1) {
						t.Fatalf("schema %s step %d: token %q masked differently", sc, step, words[i])
					}
					if !math.IsInf(float64(lf[i]), -1) && i != 0 {
						ok = append(ok, i)
					}
				}
				if len(ok) == 0 {
					break
				}
				id := ok[rng.IntN(len(ok))]
				fast.Accept(id)
				slow.Accept(id)
			}
		}
	}
}
