package loaders

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/llm"
	"github.com/sottolabs/sotto/llm/gguf"
	"github.com/sottolabs/sotto/llm/llama"
	"github.com/sottolabs/sotto/llm/tokenizer"
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
// an llm.Backend that is also an llm.Tokenizer: when the driver does not
// expose its tokenizer, the loader reads the model file's vocabulary
// itself.
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
	if err != nil {
		return nil, err
	}
	if _, ok := b.(llm.Tokenizer); ok {
		return b, nil
	}
	t, closeTok, err := readTokenizer(model, tok)
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("loaders: %s: tokenizer: %w", spec.Entry.ID, err)
	}
	if r, ok := b.(llm.Reporter); ok {
		return reportingLLM{tokenizingLLM{b, t, closeTok}, r}, nil
	}
	return tokenizingLLM{b, t, closeTok}, nil
}

// readTokenizer reads the tokenizer of a GGUF file (kept open until the
// returned close func runs) or of a llama2.c checkpoint.
func readTokenizer(model, tok string) (tokenizer.Tokenizer, func() error, error) {
	f, err := os.Open(model)
	if err != nil {
		return nil, nil, err
	}
	magic := make([]byte, 4)
	_, err = io.ReadFull(f, magic)
	f.Close()
	if err != nil {
		return nil, nil, err
	}
	if string(magic) == gguf.Magic {
		g, err := gguf.Open(model)
		if err != nil {
			return nil, nil, err
		}
		t, err := tokenizer.FromGGUF(g)
		if err != nil {
			g.Close()
			return nil, nil, err
		}
		return t, g.Close, nil
	}
	if tok == "" {
		return nil, nil, errors.New("a llama2.c checkpoint needs its tokenizer file")
	}
	c, err := llama.ReadLlama2C(model, tok)
	if err != nil {
		return nil, nil, err
	}
	return c.Tokenizer(), func() error { return nil }, nil
}

// tokenizingLLM adds llm.Tokenizer to a backend that lacks it.
type tokenizingLLM struct {
	llm.Backend
	tok      tokenizer.Tokenizer
	closeTok func() error
}

var (
	_ llm.Tokenizer = tokenizingLLM{}
	_ llm.Reporter  = reportingLLM{}
)

// Tokenize returns the tokens of text without a BOS token, special-token
// text read as plain text.
func (t tokenizingLLM) Tokenize(ctx context.Context, text string) ([]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(text) > 64<<20 {
		return nil, sotto.Invalid("bad_request", "text", "text of %d bytes is too long to tokenize (at most 64 MiB)", len(text))
	}
	return t.tok.Encode(text, false, false), nil
}

// Close closes the backend and the tokenizer's file.
func (t tokenizingLLM) Close() error { return errors.Join(t.Backend.Close(), t.closeTok()) }

// reportingLLM keeps the llm.Reporter of the wrapped backend visible.
type reportingLLM struct {
	tokenizingLLM
	r llm.Reporter
}

func (r reportingLLM) GenerateReport(ctx context.Context, msgs []llm.Message, opts llm.Options, emit func(llm.Token) error) (llm.Report, error) {
	return r.r.GenerateReport(ctx, msgs, opts, emit)
}
