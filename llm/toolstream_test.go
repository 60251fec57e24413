package llm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/llm/chattemplate"
)

// TestStreamedToolCall forces stories260K to call a tool through a Hermes
// template and checks the call's Token.Call deltas: the call is announced
// while the model is still writing it, its arguments following in several
// pieces (as the tokens come), and the pieces joined are the reported
// call.
func TestStreamedToolCall(t *testing.T) {
	g := storiesWithTemplate(t, "{% if tools %}{% for t in tools %}{{ t.function.name }} {% endfor %}<tool_call></tool_call>\\n{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}")
	tools := []Tool{{Name: "get_weather", Parameters: []byte(`{"type":"object","properties":{"city":{"type":"string","maxLength":10},"days":{"type":"integer"}},"required":["city","days"]}`)}}
	var name, args strings.Builder
	pieces := 0
	rep, err := g.GenerateReport(context.Background(), []Message{{Role: "user", Content: "Once upon a time"}},
		Options{MaxTokens: 120, Tools: tools, ToolChoice: "get_weather"}, func(tk Token) error {
			switch {
			case tk.Call != nil:
				if tk.Call.Index != 0 || (tk.Call.Name != "") != (pieces == 0) {
					t.Errorf("delta %+v after %d pieces", *tk.Call, pieces)
				}
				name.WriteString(tk.Call.Name)
				args.WriteString(tk.Call.Arguments)
				pieces++
			case tk.Text != "":
				t.Errorf("text %q shown from a forced call", tk.Text)
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stop != StopToolCalls || len(rep.ToolCalls) != 1 {
		t.Fatalf("report %+v; want one call", rep)
	}
	c := rep.ToolCalls[0]
	if name.String() != c.Name || args.String() != string(c.Arguments) {
		t.Errorf("deltas give %s(%s); the report %s(%s)", name.String(), args.String(), c.Name, c.Arguments)
	}
	if pieces < 3 {
		t.Errorf("the call came in %d pieces; want it streamed", pieces)
	}
}

// TestXMLToolCalls runs a template in the Qwen3.6 XML syntax: the model
// calls tools (the format is read), and forcing a call, which the JSON
// grammar cannot write in that syntax, is refused by name.
func TestXMLToolCalls(t *testing.T) {
	g := storiesWithTemplate(t, "{% if tools %}{% for t in tools %}{{ t.function.name }} {% endfor %}<tool_call>\\n<function=example>\\n</function>\\n</tool_call>\\n{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}")
	if !g.SupportsTools() || g.tmpl.ToolFormat() != chattemplate.FormatXML {
		t.Fatalf("SupportsTools() = %v, format %v; want xml", g.SupportsTools(), g.tmpl.ToolFormat())
	}
	tools := []Tool{{Name: "get_weather", Parameters: []byte(`{"type":"object","properties":{"city":{"type":"string"}}}`)}}
	_, err := g.GenerateReport(context.Background(), []Message{{Role: "user", Content: "Once upon a time"}},
		Options{MaxTokens: 5, Tools: tools, ToolChoice: "required"}, func(Token) error { return nil })
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "unsupported_parameter" || se.Param != "tool_choice" || !strings.Contains(se.Message, "xml") {
		t.Errorf("tool_choice required in the XML syntax = %v; want unsupported_parameter naming the syntax", err)
	}
	rep, err := g.GenerateReport(context.Background(), []Message{{Role: "user", Content: "Once upon a time"}},
		Options{MaxTokens: 10, Tools: tools}, func(Token) error { return nil })
	if err != nil || rep.Stop != StopLength || len(rep.ToolCalls) != 0 {
		t.Errorf("GenerateReport = %+v, %v; want 10 tokens of text", rep, err)
	}
}
