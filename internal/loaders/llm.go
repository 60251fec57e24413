package loaders

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/llm"
)

// LLMBackend is the catalog backend name of language models run by the
// pure-Go engine (llm driver "go").
const LLMBackend = "llm-go"

// Catalog options of an [LLMBackend] entry: the names (File.Name) of its
// model file and, for a llama2.c checkpoint, its tokenizer file. The
// defaults are "model" and "tokenizer".
const (
	OptLLMModel     = "model"
	OptLLMTokenizer = "tokenizer"
)

// LLM opens a language model with the llm "go" driver: a GGUF file or a
// llama2.c checkpoint with its tokenizer, named by the entry's options
// [OptLLMModel] and [OptLLMTokenizer]. Other entry options (such as
// llm.OptContextLength) are passed on to the driver. The loaded object is
// the driver's llm.Backend (which is also an llm.Tokenizer and llm.Reporter).
func LLM(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	cfg := spec.Config()
	opts := map[string]string{}
	for k, v := range cfg.Options {
		if k != OptLLMModel && k != OptLLMTokenizer {
			opts[k] = v
		}
	}
	resolve := func(key, def string, required bool) (string, error) {
		name := cfg.Options[key]
		if name == "" {
			name = def
		}
		p, ok := spec.Paths[name]
		if !ok && required {
			return "", fmt.Errorf("loaders: %s: file %q (option %s) is not on disk", spec.Entry.ID, name, key)
		}
		return p, nil
	}
	model, err := resolve(OptLLMModel, "model", true)
	if err != nil {
		return nil, err
	}
	tok, _ := resolve(OptLLMTokenizer, "tokenizer", false)
	opts[llm.OptModelFile] = model
	if tok != "" {
		opts[llm.OptTokenizerFile] = tok
	}
	cfg.Options = opts
	b, err := llm.Open(ctx, "go", cfg)
	if err != nil && ctx.Err() == nil {
		if se := (*sotto.Error)(nil); !errors.As(err, &se) {
			// The files are there but do not read as a model (a wrong or
			// damaged file, often one the user imported): the client's
			// load cannot succeed, and a 500 "internal error" would hide
			// why.
			return nil, sotto.Unsatisfiable("model_files_invalid", "model",
				"model %q could not be loaded from its files: %v", spec.Entry.ID, err)
		}
	}
	return b, err
}
