package llama

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/internal/tensor"
)

// writeRandomGGUF writes spec as a GGUF file with random weights.
func writeRandomGGUF(t testing.TB, path string, s RandomSpec) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteRandomGGUF(f, s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// ref64 is a plain float64 forward pass over dequantized weights, written
// from the architecture's definition without the engine's code paths.
type ref64 struct {
	m    *Model
	k, v [][][]float64 // layer, position, kvDim
	pos  int
}

func dense(m *tensor.Matrix) [][]float64 {
	out := make([][]float64, m.Rows)
	row := make([]float32, m.Cols)
	for i := range out {
		m.DequantizeRow(i, row)
		out[i] = make([]float64, m.Cols)
		for j, v := range row {
			out[i][j] = float64(v)
		}
	}
	return out
}

func mv(w [][]float64, x []float64) []float64 {
	out := make([]float64, len(w))
	for i, row := range w {
		for j, v := range row {
			out[i] += v * x[j]
		}
	}
	return out
}

func rms(x []float64, w []float32, eps float64) []float64 {
	var ss float64
	for _, v := range x {
		ss += v * v
	}
	inv := 1 / math.Sqrt(ss/float64(len(x))+eps)
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * inv * float64(w[i])
	}
	return out
}

func (r *ref64) step(tok int, w map[*tensor.Matrix][][]float64) []float64 {
	m := r.m
	c := m.Config
	d := func(x *tensor.Matrix) [][]float64 {
		if w[x] == nil {
			w[x] = dense(x)
		}
		return w[x]
	}
	x := append([]float64(nil), d(m.Embed)[tok]...)
	hd := c.HeadDim
	eps := float64(c.NormEps)
	rope := func(v []float64) {
		for h := 0; h < len(v); h += hd {
			for i := range hd / 2 {
				th := float64(r.pos) * math.Pow(c.RopeBase, -float64(2*i)/float64(hd))
				a, b := h+2*i, h+2*i+1
				if c.RopeNeoX {
					a, b = h+i, h+i+hd/2
				}
				v[a], v[b] = v[a]*math.Cos(th)-v[b]*math.Sin(th), v[a]*math.Sin(th)+v[b]*math.Cos(th)
			}
		}
	}
	addv := func(x []float64, b []float32) {
		for i := range b {
			x[i] += float64(b[i])
		}
	}
	for li, l := range m.Layers {
		xn := rms(x, l.AttnNorm, eps)
		q, k, v := mv(d(l.Wq), xn), mv(d(l.Wk), xn), mv(d(l.Wv), xn)
		addv(q, l.Bq)
		addv(k, l.Bk)
		addv(v, l.Bv)
		if l.QNorm != nil {
			for h := 0; h < len(q); h += hd {
				copy(q[h:h+hd], rms(q[h:h+hd], l.QNorm, eps))
			}
			for h := 0; h < len(k); h += hd {
				copy(k[h:h+hd], rms(k[h:h+hd], l.KNorm, eps))
			}
		}
		rope(q)
		rope(k)
		r.k[li] = append(r.k[li], k)
		r.v[li] = append(r.v[li], v)
		att := make([]float64, len(q))
		for h := range c.Heads {
			kh := h / (c.Heads / c.KVHeads)
			sc := make([]float64, r.pos+1)
			mx := math.Inf(-1)
			for t := range sc {
				for i := range hd {
					sc[t] += q[h*hd+i] * r.k[li][t][kh*hd+i]
				}
				sc[t] /= math.Sqrt(float64(hd))
				mx = math.Max(mx, sc[t])
			}
			var z float64
			for t := range sc {
				sc[t] = math.Exp(sc[t] - mx)
				z += sc[t]
			}
			for t := range sc {
				for i := range hd {
					att[h*hd+i] += sc[t] / z * r.v[li][t][kh*hd+i]
				}
			}
		}
		for i, v := range mv(d(l.Wo), att) {
			x[i] += v
		}
		xn = rms(x, l.FFNNorm, eps)
		g, u := mv(d(l.Gate), xn), mv(d(l.Up), xn)
		for i := range g {
			g[i] = g[i] / (1 + math.Exp(-g[i])) * u[i]
		}
		for i, v := range mv(d(l.Down), g) {
			x[i] += v
		}
	}
	r.pos++
	return mv(d(m.Output), rms(x, m.OutNorm, eps))
}

func TestRandomGGUFAgainstFloat64(t *testing.T) {
	archs := []RandomSpec{
		{Arch: "llama", Dim: 256, Hidden: 512, Layers: 2, Heads: 4, KVHeads: 2, HeadDim: 64, Vocab: 96, Context: 64},
		{Arch: "qwen2", Dim: 256, Hidden: 512, Layers: 2, Heads: 4, KVHeads: 1, HeadDim: 64, Vocab: 96, Context: 64, Bias: true},
		{Arch: "qwen3", Dim: 256, Hidden: 256, Layers: 2, Heads: 4, KVHeads: 2, HeadDim: 128, Vocab: 96, Context: 64, QKNorm: true},
	}
	types := []tensor.DType{tensor.F32, tensor.F16, tensor.BF16, tensor.Q8_0, tensor.Q4_0, tensor.Q4_K, tensor.Q5_K, tensor.Q6_K}
	pool := tensor.NewPool(2)
	defer pool.Close()
	tokens := []int{1, 5, 17, 42, 95, 3, 60}
	for ai, spec := range archs {
		for ti, typ := range types {
			spec.Type, spec.Seed = typ, uint64(10*ai+ti)
			spec.OutType = 0
			if ti%2 == 1 {
				spec.OutType = tensor.Q6_K // untied output of another type
			}
			t.Run(fmt.Sprintf("%s/%v", spec.Arch, typ), func(t *testing.T) {
				p := filepath.Join(t.TempDir(), "m.gguf")
				writeRandomGGUF(t, p, spec)
				m, err := LoadGGUF(p)
				if err != nil {
					t.Fatal(err)
				}
				defer m.Close()
				if (m.Output == m.Embed) != (spec.OutType == 0) {
					t.Errorf("tied output = %v; want %v", m.Output == m.Embed, spec.OutType == 0)
				}
				ref := &ref64{m: m, k: make([][][]float64, spec.Layers), v: make([][][]float64, spec.Layers)}
				cache := map[*tensor.Matrix][][]float64{}
				// Prompt in one batch, then one token at a time: both paths.
				s := m.NewState(0, pool)
				split := 4
				var want [][]float64
				for _, tok := range tokens {
					want = append(want, ref.step(tok, cache))
				}
				got, err := s.Forward(context.Background(), tokens[:split])
				if err != nil {
					t.Fatal(err)
				}
				check(t, quantized(typ, spec.OutType), split-1, got, want[split-1])
				for i := split; i < len(tokens); i++ {
					if got, err = s.Forward(context.Background(), tokens[i:i+1]); err != nil {
						t.Fatal(err)
					}
					check(t, quantized(typ, spec.OutType), i, got, want[i])
				}
			})
		}
	}
}

// check compares logits with the float64 reference. Float weights see the
// activations in float32, so they agree closely; quantized weights read
// 8-bit activations (as GGML does: one scale per 32 values for Q8_0 and
// Q4_0, per 256 for the K-quants), which costs up to 3.4 % of the largest
// logit on these random models (measured), under half the tolerance.
func check(t *testing.T, quant bool, pos int, got []float32, want []float64) {
	t.Helper()
	var scale, maxErr float64
	for i, w := range want {
		scale = math.Max(scale, math.Abs(w))
		maxErr = math.Max(maxErr, math.Abs(float64(got[i])-w))
	}
	tol := 1e-4
	if quant {
		tol = 0.07
	}
	if maxErr > tol*scale {
		t.Errorf("pos %d: max |logit error| %.3g > %.3g × max |logit| %.3g", pos, maxErr, tol, scale)
	}
}

func quantized(types ...tensor.DType) bool {
	for _, t := range types {
		switch t {
		case tensor.F32, tensor.F16, tensor.BF16: // F32 (0) also stands for "tied"
		default:
			return true
		}
	}
	return false
}
