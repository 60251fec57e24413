package llm

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/llm/chattemplate"
	"github.com/sottolabs/sotto/llm/llama"
	"github.com/sottolabs/sotto/llm/tokenizer"
)

// storiesWithTemplate is the stories260K model with a chat template, as a
// GGUF file that has one would be opened.
func storiesWithTemplate(t *testing.T, src string) *goBackend {
	t.Helper()
	c, err := llama.ReadLlama2C(filepath.Join("testdata", "stories260K.bin"), filepath.Join("testdata", "stories260K-tok512.bin"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "stories260K.gguf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteGGUF(f, "stories260K"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, err := llama.Load(path, "")
	if err != nil {
		t.Fatal(err)
	}
	b.ChatTemplate = src
	tp, err := chattemplate.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	g := &goBackend{b: b, tmpl: tp, pool: tensor.NewPool(1), ctxLen: 256}
	t.Cleanup(func() { g.Close() })
	return g
}

func TestTemplatePrompt(t *testing.T) {
	ctx := context.Background()
	// A template that writes bos_token itself gets no second BOS.
	g := storiesWithTemplate(t, "{{ bos_token }}{% for m in messages %}{{ m.content }}{% endfor %}")
	msgs := []Message{{Role: "user", Content: "Once upon a time"}}
	rep, err := g.GenerateReport(ctx, msgs, Options{MaxTokens: 2}, func(Token) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	text, err := renderTemplate(g.tmpl, g.b.Tokenizer, msgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := g.b.Tokenizer.Encode(text, false, true)
	if rep.PromptTokens != len(ids) || ids[0] != g.b.Tokenizer.BOS() || ids[1] == g.b.Tokenizer.BOS() {
		t.Errorf("prompt of %d tokens; want %d, %v (one BOS)", rep.PromptTokens, len(ids), ids)
	}
	if g.SupportsTools() {
		t.Error("SupportsTools() = true for a template without tools")
	}
	_, err = g.GenerateReport(ctx, msgs, Options{Tools: []Tool{{Name: "f"}}}, func(Token) error { return nil })
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "unsupported_parameter" || se.Param != "tools" {
		t.Errorf("GenerateReport(tools) on a model without tool calling = %v; want unsupported_parameter", err)
	}
}

func TestTemplateRejects(t *testing.T) {
	g := storiesWithTemplate(t, "{% if messages[0].role == 'assistant' %}{{ raise_exception('Conversation roles must alternate') }}{% endif %}x")
	err := g.Generate(context.Background(), []Message{{Role: "assistant", Content: "hi"}}, Options{MaxTokens: 1}, func(Token) error { return nil })
	if !errors.Is(err, sotto.ErrInvalidRequest) || !strings.Contains(err.Error(), "Conversation roles must alternate") {
		t.Errorf("Generate = %v; want a 400 with the template's message", err)
	}
}

// TestTemplateTools runs a tool-capable (Hermes syntax) template: the
// tools reach the prompt and text without a call streams as text.
func TestTemplateTools(t *testing.T) {
	g := storiesWithTemplate(t, "{% if tools %}{% for t in tools %}{{ t.function.name }} {% endfor %}<tool_call></tool_call>\n{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}")
	if !g.SupportsTools() {
		t.Fatal("SupportsTools() = false")
	}
	var sb strings.Builder
	rep, err := g.GenerateReport(context.Background(), []Message{{Role: "user", Content: "Once upon a time"}},
		Options{MaxTokens: 10, Tools: []Tool{{Name: "lily", Parameters: []byte(`{"type":"object"}`)}}},
		func(tk Token) error { sb.WriteString(tk.Text); return nil })
	if err != nil || rep.Stop != StopLength || len(rep.ToolCalls) != 0 || sb.Len() == 0 {
		t.Errorf("GenerateReport = %+v, %v, text %q; want 10 tokens of text, no calls", rep, err, sb.String())
	}
	if rep.PromptTokens < 8 {
		t.Errorf("prompt has %d tokens; the tool name should be in it", rep.PromptTokens)
	}
}

func TestMarkerTokens(t *testing.T) {
	tokens := []string{"<unk>", "<s>", "</s>", "[TOOL_CALLS]", "[ARGS]", "▁a", "a", "[", "]"}
	types := []int32{2, 3, 3, 3, 3, 1, 1, 1, 1}
	tok := tokenizer.NewSentencePiece(tokens, make([]float32, len(tokens)), types, 1, 2)
	got := markerTokens(tok, chattemplate.FormatMistral)
	if len(got) != 2 || got[3] != "[TOOL_CALLS]" || got[4] != "[ARGS]" {
		t.Errorf("markerTokens(Mistral) = %v; want [TOOL_CALLS] and [ARGS]", got)
	}
	if got := markerTokens(tok, chattemplate.FormatHermes); len(got) != 0 {
		t.Errorf("markerTokens(Hermes) = %v; want none (<tool_call> is not one control token here)", got)
	}
}

// TestForcedToolCall forces stories260K (which has never seen a tool) to
// call a tool through a Hermes template: the call parses, its arguments
// validate, and it is reported as a tool call.
func TestForcedToolCall(t *testing.T) {
	g := storiesWithTemplate(t, "{% if tools %}{% for t in tools %}{{ t.function.name }} {% endfor %}<tool_call></tool_call>\\n{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}")
	tools := []Tool{
		{Name: "get_weather", Parameters: []byte(`{"type":"object","properties":{"city":{"type":"string","maxLength":10},"days":{"type":"integer"}},"required":["city","days"]}`)},
		{Name: "now"},
	}
	for _, choice := range []string{"required", "get_weather", "now"} {
		var sb strings.Builder
		rep, err := g.GenerateReport(context.Background(), []Message{{Role: "user", Content: "Once upon a time"}},
			Options{MaxTokens: 120, Tools: tools, ToolChoice: choice}, func(tk Token) error { sb.WriteString(tk.Text); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stop != StopToolCalls || len(rep.ToolCalls) != 1 || sb.String() != "" {
			t.Fatalf("tool_choice %s: %+v, text %q; want one call and no text", choice, rep, sb.String())
		}
		c := rep.ToolCalls[0]
		if choice != "required" && c.Name != choice {
			t.Errorf("tool_choice %s: called %s", choice, c.Name)
		}
		var args map[string]any
		if err := json.Unmarshal(c.Arguments, &args); err != nil {
			t.Errorf("arguments %s: %v", c.Arguments, err)
		}
		if c.Name == "get_weather" {
			if city, ok := args["city"].(string); !ok || len([]rune(city)) > 10 || args["days"] == nil {
				t.Errorf("arguments %s do not validate", c.Arguments)
			}
		}
		t.Logf("tool_choice %s: %s %s", choice, c.Name, c.Arguments)
	}
	_, err := g.GenerateReport(context.Background(), []Message{{Role: "user", Content: "x"}},
		Options{Tools: tools, ToolChoice: "missing"}, func(Token) error { return nil })
	if !errors.Is(err, sotto.ErrInvalidRequest) {
		t.Errorf("tool_choice missing = %v; want a 400", err)
	}
}
