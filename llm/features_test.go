package llm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sottolabs/sotto/llm/chattemplate"
	"github.com/sottolabs/sotto/llm/gguf"
)

func TestFileFeatures(t *testing.T) {
	dir := t.TempDir()
	write := func(name, template string) string {
		w := &gguf.Writer{}
		w.AddKV("general.architecture", "llama")
		if template != "" {
			w.AddKV("tokenizer.chat_template", template)
		}
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.WriteTo(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	qwen, err := os.ReadFile("chattemplate/testdata/templates/qwen2.5-instruct.jinja")
	if err != nil {
		t.Fatal(err)
	}
	smol, _ := os.ReadFile("chattemplate/testdata/templates/smollm2-instruct.jinja")
	for _, c := range []struct {
		path string
		want []string
	}{
		{write("qwen.gguf", string(qwen)), []string{FeatureToolCalling}},
		{write("smol.gguf", string(smol)), []string{}},
		{write("none.gguf", ""), []string{}},
		{filepath.Join("testdata", "stories260K.bin"), []string{}},
	} {
		got, err := FileFeatures(c.path)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("FileFeatures(%s) = %v, %v; want %v", c.path, got, err, c.want)
		}
	}
	if _, err := FileFeatures(filepath.Join(dir, "missing.gguf")); err == nil {
		t.Error("FileFeatures(missing file) = nil error")
	}
}

// TestCatalogToolCalling checks the tool_calling feature of the language
// models in the embedded catalog against their chat templates (the
// templates of the same models in chattemplate/testdata).
func TestCatalogToolCalling(t *testing.T) {
	b, err := os.ReadFile("../internal/models/default_catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat struct {
		Models []struct {
			ID       string   `json:"id"`
			Backend  string   `json:"backend"`
			Features []string `json:"features"`
		} `json:"models"`
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		t.Fatal(err)
	}
	templates := map[string]string{
		"Sotto/Qwen2.5-0.5B-Instruct": "qwen2.5-instruct",
		"Sotto/Qwen2.5-1.5B-Instruct": "qwen2.5-instruct",
		"Sotto/SmolLM2-360M-Instruct": "smollm2-instruct",
		"Sotto/Llama-3.2-1B-Instruct": "llama3.2-1b-instruct",
		"Sotto/TinyLlama-1.1B-Chat":   "tinyllama-1.1b-chat-v1.0",
	}
	for _, m := range cat.Models {
		if m.Backend != "llm-go" {
			continue
		}
		name, ok := templates[m.ID]
		if !ok {
			t.Errorf("catalog model %s: no chat template in chattemplate/testdata to check its features against", m.ID)
			continue
		}
		src, err := os.ReadFile("chattemplate/testdata/templates/" + name + ".jinja")
		if err != nil {
			t.Fatal(err)
		}
		tp, err := chattemplate.Parse(string(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(m.Features, FeatureToolCalling); got != tp.SupportsTools() {
			t.Errorf("catalog model %s: tool_calling %v; its template renders tools: %v", m.ID, got, tp.SupportsTools())
		}
	}
}
