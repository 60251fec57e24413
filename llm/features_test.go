package llm

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

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
