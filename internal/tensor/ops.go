package tensor

import "math"

// RMSNorm sets dst[i] = x[i] * w[i] / sqrt(mean(x²) + eps). dst may alias x.
func RMSNorm(dst, x, w []float32, eps float32) {
	if len(x) != len(w) || len(dst) != len(x) {
		panic("tensor: RMSNorm: length mismatch")
	}
	ss := active.dotF32(x, x)
	ss = ss/float32(len(x)) + eps
	inv := 1 / float32(math.Sqrt(float64(ss)))
	for i, v := range x {
		dst[i] = w[i] * (inv * v)
	}
}

// Softmax replaces x by exp(x - max x) / Σ exp(x - max x).
func Softmax(x []float32) {
	if len(x) == 0 {
		return
	}
	m := x[0]
	for _, v := range x[1:] {
		m = max(m, v)
	}
	var sum float32
	for i, v := range x {
		e := float32(math.Exp(float64(v - m)))
		x[i] = e
		sum += e
	}
	for i := range x {
		x[i] /= sum
	}
}

// SiLU returns x·σ(x).
func SiLU(x float32) float32 { return x / (1 + float32(math.Exp(float64(-x)))) }

// SwiGLU sets gate[i] = SiLU(gate[i]) * up[i], in place. With AVX-512
// (swiglu_amd64.go) the exponential is a float32 polynomial: results
// within 4e-7 relative of SiLU's.
func SwiGLU(gate, up []float32) {
	if swigluKernel != nil {
		swigluKernel(gate, up)
		return
	}
	up = up[:len(gate)]
	for i, g := range gate {
		gate[i] = SiLU(g) * up[i]
	}
}

// swigluKernel replaces SwiGLU's loop where set (nil: the loop).
var swigluKernel func(gate, up []float32)

// Add sets dst[i] += x[i].
func Add(dst, x []float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += x[i]
	}
}

// Scale multiplies x by s in place.
func Scale(x []float32, s float32) {
	for i := range x {
		x[i] *= s
	}
}

// Rope holds the rotation angles of rotary position embeddings for one head
// size: frequencies θ_i = base^(-2i/headDim) for i < headDim/2.
type Rope struct {
	HeadDim int
	NeoX    bool // rotate pairs (i, i+headDim/2) instead of (2i, 2i+1)
	freq    []float64
	cos     []float32
	sin     []float32
	pos     int // position cos and sin hold, -1 for none
}

// NewRope prepares rotary embeddings for heads of headDim (even) values,
// with the given frequency base (10000 for Llama 2). neox selects the
// layout that pairs value i with i+headDim/2 (GPT-NeoX, Qwen) instead of
// adjacent values (Llama in GGUF, llama2.c).
func NewRope(headDim int, base float64, neox bool) *Rope {
	return NewRopeFactors(headDim, base, neox, nil)
}

// NewRopeFactors is NewRope with per-frequency divisors (GGUF's
// rope_freqs.weight, Llama 3.1's long-context scaling): θ_i becomes
// θ_i/factors[i]. factors is nil or has headDim/2 values.
func NewRopeFactors(headDim int, base float64, neox bool, factors []float32) *Rope {
	r := &Rope{HeadDim: headDim, NeoX: neox, freq: make([]float64, headDim/2),
		cos: make([]float32, headDim/2), sin: make([]float32, headDim/2), pos: -1}
	for i := range r.freq {
		r.freq[i] = 1 / math.Pow(base, float64(2*i)/float64(headDim))
		if factors != nil {
			r.freq[i] /= float64(factors[i])
		}
	}
	return r
}

// Apply rotates every head of x (len(x) a multiple of HeadDim) for position
// pos, in place. It is not safe for concurrent use (it caches the angles of
// the last position).
func (r *Rope) Apply(x []float32, pos int) {
	r.setPos(pos)
	h := r.HeadDim
	half := h / 2
	for o := 0; o+h <= len(x); o += h {
		v := x[o : o+h]
		for i := range half {
			a, b := 2*i, 2*i+1
			if r.NeoX {
				a, b = i, i+half
			}
			c, s := r.cos[i], r.sin[i]
			v0, v1 := v[a], v[b]
			v[a] = v0*c - v1*s
			v[b] = v0*s + v1*c
		}
	}
}

func (r *Rope) setPos(pos int) {
	if pos == r.pos {
		return
	}
	r.pos = pos
	for i, f := range r.freq {
		// Angles in float32 as llama2.c and GGML compute them.
		a := float32(pos) * float32(f)
		r.cos[i] = float32(math.Cos(float64(a)))
		r.sin[i] = float32(math.Sin(float64(a)))
	}
}
