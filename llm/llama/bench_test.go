package llama

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/internal/tensor"
)

// benchModel returns a random-weight model of about 0.5B weights of type t
// (the shapes of llm/internal/llmbench), written once to the system's
// temporary directory and reused.
func benchModel(b *testing.B, t tensor.DType) *Model {
	b.Helper()
	spec := RandomSpec{Arch: "llama", Dim: 1024, Hidden: 4096, Layers: 24, Heads: 16, KVHeads: 4, HeadDim: 64,
		Vocab: 49152, Context: 2048, Type: t, OutType: t, Seed: 1}
	dir := filepath.Join(os.TempDir(), "sotto-llmbench")
	path := filepath.Join(dir, fmt.Sprintf("random-0.5b-%v.gguf", t))
	if _, err := os.Stat(path); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(path + ".tmp")
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteRandomGGUF(f, spec); err != nil {
			b.Fatal(err)
		}
		f.Close()
		if err := os.Rename(path+".tmp", path); err != nil {
			b.Fatal(err)
		}
	}
	m, err := LoadGGUF(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { m.Close() })
	return m
}

// BenchmarkLlama05B reports prompt (64 tokens in one Forward) and
// generation (one token per Forward) speed in tokens/s.
func BenchmarkLlama05B(b *testing.B) {
	for _, typ := range []tensor.DType{tensor.Q8_0, tensor.Q4_K} {
		m := benchModel(b, typ)
		for _, threads := range []int{1, 2} {
			pool := tensor.NewPool(threads)
			prompt := make([]int, 64)
			for i := range prompt {
				prompt[i] = 3 + (i*7919)%(m.Vocab-3)
			}
			s := m.NewState(256, pool)
			ctx := context.Background()
			b.Run(fmt.Sprintf("%v/t%d/prompt", typ, threads), func(b *testing.B) {
				for b.Loop() {
					s.Reset()
					if _, err := s.Forward(ctx, prompt); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(prompt)*b.N)/b.Elapsed().Seconds(), "tok/s")
			})
			b.Run(fmt.Sprintf("%v/t%d/gen", typ, threads), func(b *testing.B) {
				s.Reset()
				for b.Loop() {
					if s.Pos() >= 255 {
						s.Reset()
					}
					if _, err := s.Forward(ctx, prompt[:1]); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tok/s")
			})
			pool.Close()
		}
	}
}
