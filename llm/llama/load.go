package llama

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sottolabs/sotto/llm/gguf"
	"github.com/sottolabs/sotto/llm/tokenizer"
)

// Bundle is what a model file provides: the weights, the tokenizer and,
// for GGUF files that have one, the chat template (tokenizer.chat_template,
// a Jinja template).
type Bundle struct {
	Model        *Model
	Tokenizer    tokenizer.Tokenizer
	ChatTemplate string
	Name         string
}

// Close releases the model.
func (b *Bundle) Close() error { return b.Model.Close() }

// Load opens a GGUF file, or a llama2.c checkpoint with its tokenizer file
// (tokenizerPath, required for checkpoints and ignored for GGUF).
func Load(path, tokenizerPath string) (*Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	magic := make([]byte, 4)
	_, err = io.ReadFull(f, magic)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if string(magic) == gguf.Magic {
		g, err := gguf.Open(path)
		if err != nil {
			return nil, err
		}
		m, err := FromGGUF(g)
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		m.closer = g
		m.copyWeights()
		tok, err := tokenizer.FromGGUF(g)
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if tok.Len() != m.Vocab {
			m.Close()
			return nil, fmt.Errorf("%s: %w: %d tokens in the vocabulary, %d embeddings", path, ErrUnsupported, tok.Len(), m.Vocab)
		}
		b := &Bundle{Model: m, Tokenizer: tok}
		b.ChatTemplate, _ = g.String("tokenizer.chat_template")
		b.Name, _ = g.String("general.name")
		return b, nil
	}
	if tokenizerPath == "" {
		return nil, errors.New("llama: " + path + " is not GGUF; a llama2.c checkpoint needs its tokenizer file")
	}
	c, err := ReadLlama2C(path, tokenizerPath)
	if err != nil {
		return nil, err
	}
	m, err := c.Model()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Bundle{Model: m, Tokenizer: c.Tokenizer()}, nil
}
