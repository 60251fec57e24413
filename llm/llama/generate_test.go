package llama

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/tensor"
)

func TestGenerate(t *testing.T) {
	c := stories(t)
	m, err := c.Model()
	if err != nil {
		t.Fatal(err)
	}
	tok := c.Tokenizer()
	pool := tensor.NewPool(1)
	defer pool.Close()
	prompt := tok.Encode("Once upon a time", true, false)
	run := func(o GenerateOptions) (string, Result, error) {
		var b strings.Builder
		res, err := Generate(context.Background(), m.NewState(0, pool), tok, prompt, o, func(s string, _ int) error { b.WriteString(s); return nil })
		return b.String(), res, err
	}
	// Greedy continuation: a prefix of the llama2.c reference after the prompt.
	ref := ", there was a little girl named Lily. She loved to play outside in the park."
	got, res, err := run(GenerateOptions{MaxTokens: 18})
	if err != nil || !strings.HasPrefix(ref, got) || len(got) < 50 || res.Stop != StopLength || res.Tokens != 18 {
		t.Errorf("Generate(max 18) = %q, %+v, %v; want a prefix of %q, length, 18 tokens", got, res, err, ref)
	}
	got, res, err = run(GenerateOptions{Stop: []string{" in the"}})
	if err != nil || got != ", there was a little girl named Lily. She loved to play outside" || res.Stop != StopSequence {
		t.Errorf("Generate(stop) = %q, %+v, %v", got, res, err)
	}
	a, _, _ := run(GenerateOptions{SampleOptions: SampleOptions{Temperature: 1, Seed: 7}, MaxTokens: 30})
	b, _, _ := run(GenerateOptions{SampleOptions: SampleOptions{Temperature: 1, Seed: 7}, MaxTokens: 30})
	if a != b || a == "" {
		t.Errorf("seeded samples differ or are empty: %q vs %q", a, b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err = Generate(ctx, m.NewState(0, pool), tok, prompt, GenerateOptions{}, func(string, int) error {
		if n++; n == 3 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Generate after cancel = %v; want context.Canceled", err)
	}
	long := make([]int, 600)
	if _, err := Generate(context.Background(), m.NewState(0, pool), tok, long, GenerateOptions{}, nil); !errors.Is(err, ErrContextFull) {
		t.Errorf("Generate(600-token prompt) = %v; want ErrContextFull", err)
	}
}
