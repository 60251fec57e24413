package llama

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/internal/tensor"
)

// TestBatchMatchesOneByOne runs the same tokens through a state as prompt
// batches (batched attention, attendBatch) and through another one token
// at a time (attendOne): with float32 weights the logits after every batch
// must agree within 2e-5 of the largest (the attention adds in another
// order; the matrix products are the same). The batches cross attnBlock
// queries, start after earlier context and end partway through MaxBatch.
func TestBatchMatchesOneByOne(t *testing.T) {
	pool := tensor.NewPool(2)
	defer pool.Close()
	for _, spec := range []RandomSpec{
		{Arch: "llama", Dim: 128, Hidden: 256, Layers: 2, Heads: 4, KVHeads: 2, HeadDim: 32, Vocab: 64, Context: 256, Type: tensor.F32, Seed: 7},
		{Arch: "qwen2", Dim: 128, Hidden: 256, Layers: 2, Heads: 4, KVHeads: 1, HeadDim: 32, Vocab: 64, Context: 256, Type: tensor.F32, Seed: 8, Bias: true},
	} {
		t.Run(spec.Arch, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "m.gguf")
			writeRandomGGUF(t, p, spec)
			m, err := LoadGGUF(p)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			tokens := make([]int, 150)
			for i := range tokens {
				tokens[i] = (i*37 + 5) % m.Vocab
			}
			ctx := context.Background()
			batch, one := m.NewState(0, pool), m.NewState(0, pool)
			at := 0
			for _, n := range []int{3, MaxBatch + 9, 1, 40, len(tokens) - 53 - MaxBatch} {
				got, err := batch.Forward(ctx, tokens[at:at+n])
				if err != nil {
					t.Fatal(err)
				}
				var want []float32
				for _, tok := range tokens[at : at+n] {
					if want, err = one.Forward(ctx, []int{tok}); err != nil {
						t.Fatal(err)
					}
				}
				at += n
				var scale, diff float64
				for i, w := range want {
					scale = math.Max(scale, math.Abs(float64(w)))
					diff = math.Max(diff, math.Abs(float64(got[i]-w)))
				}
				if diff > 2e-5*scale {
					t.Fatalf("after %d tokens: max |batch − one by one| %.3g > 2e-5 × %.3g", at, diff, scale)
				}
			}
		})
	}
}
