package llm

import (
	"io"
	"os"

	"github.com/sottolabs/sotto/llm/chattemplate"
	"github.com/sottolabs/sotto/llm/gguf"
)

// FeatureToolCalling is the catalog feature of a model that calls tools.
const FeatureToolCalling = "tool_calling"

// FileFeatures returns the catalog features of a model file: tool_calling
// for a GGUF file whose chat template renders tools in a tool-call syntax
// the engine reads (see package chattemplate). A file that is not GGUF
// (a llama2.c checkpoint) has none.
func FileFeatures(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	magic := make([]byte, 4)
	_, err = io.ReadFull(f, magic)
	f.Close()
	if err != nil || string(magic) != gguf.Magic {
		return []string{}, nil
	}
	g, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	src, _ := g.String("tokenizer.chat_template")
	if src == "" {
		return []string{}, nil
	}
	t, err := chattemplate.Parse(src)
	if err != nil || !t.SupportsTools() {
		return []string{}, nil
	}
	return []string{FeatureToolCalling}, nil
}
