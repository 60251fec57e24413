package whisper

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/sottolabs/sotto/internal/tensor"
)

// layerNormEps is the epsilon of every layer norm in Whisper.
const layerNormEps = 1e-5

// Encoder is Whisper's audio encoder over a model's weights: two
// convolutions with GELU, sinusoid-free learned positional embedding, then
// pre-norm transformer blocks and a final layer norm.
type Encoder struct {
	h              Hparams
	conv1, conv2   *tensor.Matrix // rows: output channels; cols: 3 taps × input channels, tap fastest
	conv1b, conv2b []float32
	pe             []float32 // NAudioCtx × NAudioState
	layers         []encLayer
	lnW, lnB       []float32
	// roundF16 is set when the matrices are F16: whisper.cpp then rounds
	// their input to F16 too. roundQ8 is set when they are quantized:
	// whisper.cpp then multiplies them with the input quantized to Q8_0
	// (an F16 scale per 32 values), which the encoder mirrors by passing
	// the input through Q8_0 before the product.
	roundF16, roundQ8 bool
}

type encLayer struct {
	attnLnW, attnLnB []float32
	q, k, v, o       *tensor.Matrix
	qb, vb, ob       []float32
	mlpLnW, mlpLnB   []float32
	fc1, fc2         *tensor.Matrix
	fc1b, fc2b       []float32
}

// weights reads named tensors of a model, remembering the first error.
type weights struct {
	m   *Model
	err error
}

func (w *weights) tensor(name string) *Tensor {
	t, ok := w.m.Tensor(name)
	if !ok && w.err == nil {
		w.err = fmt.Errorf("%w: missing tensor %q", ErrFormat, name)
	}
	return t
}

// vec returns an F32 tensor as float32 values (copied: file data are not
// aligned).
func (w *weights) vec(name string, n int) []float32 {
	t := w.tensor(name)
	if t == nil {
		return nil
	}
	if t.Type != TypeF32 || t.Elements() != n {
		if w.err == nil {
			w.err = fmt.Errorf("%w: tensor %q is %v %v (want %d F32)", ErrFormat, name, t.Type, t.Dims, n)
		}
		return nil
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.Data[4*i:]))
	}
	return out
}

// matrix returns a tensor as rows of Dims[0] (or cols) elements, used in
// place (F32, F16, Q8_0, Q5_0, Q5_1 …: the types internal/tensor computes
// with).
func (w *weights) matrix(name string, rows, cols int) *tensor.Matrix {
	t := w.tensor(name)
	if t == nil {
		return nil
	}
	if t.Elements() != rows*cols {
		if w.err == nil {
			w.err = fmt.Errorf("%w: tensor %q has dims %v (want %d×%d)", ErrFormat, name, t.Dims, rows, cols)
		}
		return nil
	}
	dt, ok := t.Type.DType()
	if !ok {
		if w.err == nil {
			w.err = fmt.Errorf("whisper: tensor %q: type %v is not supported yet", name, t.Type)
		}
		return nil
	}
	m, err := tensor.NewMatrix(dt, rows, cols, t.Data)
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("whisper: tensor %q: %w", name, err)
	}
	return m
}

// NewEncoder builds the encoder over m's weights (kept in place where
// possible, so m must stay open).
func NewEncoder(m *Model) (*Encoder, error) {
	h := m.Hparams
	w := &weights{m: m}
	n := h.NAudioState
	e := &Encoder{
		h:      h,
		conv1:  w.matrix("encoder.conv1.weight", n, 3*h.NMels),
		conv1b: w.vec("encoder.conv1.bias", n),
		conv2:  w.matrix("encoder.conv2.weight", n, 3*n),
		conv2b: w.vec("encoder.conv2.bias", n),
		pe:     w.vec("encoder.positional_embedding", n*h.NAudioCtx),
		lnW:    w.vec("encoder.ln_post.weight", n),
		lnB:    w.vec("encoder.ln_post.bias", n),
	}
	wt, _ := h.FType.WeightType()
	e.roundF16 = wt == TypeF16
	e.roundQ8 = wt != TypeF16 && wt != TypeF32
	for i := range h.NAudioLayer {
		p := fmt.Sprintf("encoder.blocks.%d.", i)
		e.layers = append(e.layers, encLayer{
			attnLnW: w.vec(p+"attn_ln.weight", n), attnLnB: w.vec(p+"attn_ln.bias", n),
			q: w.matrix(p+"attn.query.weight", n, n), qb: w.vec(p+"attn.query.bias", n),
			k: w.matrix(p+"attn.key.weight", n, n),
			v: w.matrix(p+"attn.value.weight", n, n), vb: w.vec(p+"attn.value.bias", n),
			o: w.matrix(p+"attn.out.weight", n, n), ob: w.vec(p+"attn.out.bias", n),
			mlpLnW: w.vec(p+"mlp_ln.weight", n), mlpLnB: w.vec(p+"mlp_ln.bias", n),
			fc1: w.matrix(p+"mlp.0.weight", 4*n, n), fc1b: w.vec(p+"mlp.0.bias", 4*n),
			fc2: w.matrix(p+"mlp.2.weight", n, 4*n), fc2b: w.vec(p+"mlp.2.bias", n),
		})
	}
	if w.err != nil {
		return nil, w.err
	}
	return e, nil
}

// f16Round rounds x to the nearest half-precision value.
func f16Round(x float32) float32 { return tensor.F16ToF32(tensor.F32ToF16(x)) }

// gelu is GELU's tanh approximation evaluated as whisper.cpp's CPU
// backend evaluates it: on the input rounded to half precision, with the
// result rounded to half precision (ggml reads it from an F16 table),
// exactly 0 from −10 down and the identity from 10 up. Between, the
// result is read from geluTable, indexed by the input's half-precision
// bits, as ggml does.
func gelu(x float32) float32 {
	if x <= -10 {
		return 0
	}
	if x >= 10 {
		return x
	}
	return geluTable()[tensor.F32ToF16(x)]
}

// geluTable returns GELU of every half-precision value, rounded to half
// precision (built on first use: 65 536 evaluations of tanh).
var geluTable = sync.OnceValue(func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for h := range t {
		t[h] = geluF16(tensor.F16ToF32(uint16(h)))
	}
	return &t
})

// geluF16 is GELU's tanh approximation of a half-precision value v,
// rounded to half precision.
func geluF16(v32 float32) float32 {
	const c, a = 0.79788456080286535587989211986876, 0.044715
	v := float64(v32)
	return f16Round(float32(0.5 * v * (1 + math.Tanh(c*v*(1+a*v*v)))))
}

// layerNorm sets dst to (x − mean)/√(var + eps) · w + b.
func layerNorm(dst, x, w, b []float32) {
	var s float64
	for _, v := range x {
		s += float64(v)
	}
	mean := s / float64(len(x))
	var ss float64
	for _, v := range x {
		d := float64(v) - mean
		ss += d * d
	}
	scale := 1 / math.Sqrt(ss/float64(len(x))+layerNormEps)
	for i, v := range x {
		dst[i] = float32((float64(v)-mean)*scale)*w[i] + b[i]
	}
}

// batch multiplies m by every row of xs (each m.Cols long) into the rows
// of out (each m.Rows long), adding bias when it is non-nil. The rows of
// xs are first rounded as whisper.cpp rounds the input of a product with
// m: to half precision in place for F16 models (rounding is idempotent,
// and every input of a product is read by products with the same
// rounding only), through Q8_0 for quantized ones (into a copy, scratch,
// when m is a float matrix). Float and five-bit matrices go through the
// blocked matrix × matrix kernel (Pool.MatMulF, which converts the
// weights to float32 once per product: the products then equal
// whisper.cpp's Q5 × Q8_0 block sums up to float32 rounding), Q8_0 and
// other quantized ones through Pool.MatMul.
func (e *Encoder) batch(pool *tensor.Pool, m *tensor.Matrix, xs, out [][]float32, bias []float32, acts []tensor.Activation, scratch *[][]float32) {
	conv := m == e.conv1 || m == e.conv2 // inputs already rounded to F16
	if !m.Quantized() || m.Type == tensor.Q5_0 || m.Type == tensor.Q5_1 {
		switch {
		case conv:
		case e.roundF16:
			for _, x := range xs {
				tensor.RoundF16(x)
			}
		case e.roundQ8:
			if len(*scratch) < len(xs) || cap((*scratch)[0]) < m.Cols {
				*scratch = rows(len(xs), 4*e.h.NAudioState)
			}
			var q []byte
			cp := (*scratch)[:len(xs)]
			for i, x := range xs {
				cp[i] = cp[i][:len(x)]
				if len(x)%32 != 0 {
					copy(cp[i], x)
					continue
				}
				q = append(q[:0], make([]byte, len(x)/32*34)...)
				tensor.QuantizeQ8_0(x, q)
				tensor.Dequantize(tensor.Q8_0, q, cp[i])
			}
			xs = cp
		}
		pool.MatMulF(out, m, xs)
	} else {
		var r []float32
		var q []byte
		for i, x := range xs {
			if e.roundQ8 && len(x)%32 == 0 {
				q = append(q[:0], make([]byte, len(x)/32*34)...)
				tensor.QuantizeQ8_0(x, q)
				r = append(r[:0], x...)
				tensor.Dequantize(tensor.Q8_0, q, r)
				x = r
			}
			acts[i].Set(x)
		}
		pool.MatMul(out, m, acts[:len(xs)])
	}
	if bias != nil {
		for _, o := range out {
			tensor.Add(o, bias)
		}
	}
}

// rows returns n slices of width w over one allocation.
func rows(n, w int) [][]float32 {
	buf := make([]float32, n*w)
	r := make([][]float32, n)
	for i := range r {
		r[i] = buf[i*w : (i+1)*w : (i+1)*w]
	}
	return r
}

// Encode runs the encoder on the 2·NAudioCtx mel frames starting at frame
// offset (frames past the end of mel read as the padding value) and
// returns NAudioCtx rows of NAudioState values. Work is spread over pool.
func (e *Encoder) Encode(ctx context.Context, pool *tensor.Pool, mel *Mel, offset int) ([][]float32, error) {
	h := e.h
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("whisper: encode: %w", err)
	}
	if mel.NMel != h.NMels {
		return nil, fmt.Errorf("whisper: encode: %d mel bins for a %d-bin model", mel.NMel, h.NMels)
	}
	nCtx, n := h.NAudioCtx, h.NAudioState
	nIn := 2 * nCtx
	acts := make([]tensor.Activation, nIn)
	var scratch [][]float32 // Q8_0-rounded inputs of float matrices

	// conv1 (kernel 3, stride 1, padding 1) over the F16-rounded mel, as
	// whisper.cpp's im2col in the kernel's type does.
	melAt := func(t, b int) float32 {
		t += offset
		if t < 0 || t >= mel.NLen {
			return 0
		}
		return mel.At(t, b)
	}
	cols := rows(nIn, 3*h.NMels)
	for t := range nIn {
		for c := range h.NMels {
			for k := range 3 {
				v := float32(0)
				if tt := t + k - 1; tt >= 0 && tt < nIn {
					v = melAt(tt, c)
				}
				cols[t][3*c+k] = v
			}
		}
		tensor.RoundF16(cols[t])
	}
	c1 := rows(nIn, n)
	e.batch(pool, e.conv1, cols, c1, e.conv1b, acts, &scratch)
	for _, r := range c1 {
		for i, v := range r {
			r[i] = gelu(v)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("whisper: encode: %w", err)
	}
	// conv2 (kernel 3, stride 2, padding 1).
	cols = rows(nCtx, 3*n)
	for t := range nCtx {
		for c := range n {
			for k := range 3 {
				v := float32(0)
				if tt := 2*t + k - 1; tt >= 0 && tt < nIn {
					v = c1[tt][c]
				}
				cols[t][3*c+k] = v
			}
		}
		tensor.RoundF16(cols[t])
	}
	x := rows(nCtx, n)
	e.batch(pool, e.conv2, cols, x, e.conv2b, acts, &scratch)
	for t, r := range x {
		for i, v := range r {
			r[i] = gelu(v) + e.pe[t*n+i]
		}
	}

	cur := rows(nCtx, n)
	q, k, v, att := rows(nCtx, n), rows(nCtx, n), rows(nCtx, n), rows(nCtx, n)
	proj := rows(nCtx, n)
	hidden := rows(nCtx, 4*n)
	packed := make([]float32, 2*nCtx*n) // attention's keys and values by head
	for _, l := range e.layers {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("whisper: encode: %w", err)
		}
		for t := range x {
			layerNorm(cur[t], x[t], l.attnLnW, l.attnLnB)
		}
		e.batch(pool, l.q, cur, q, l.qb, acts, &scratch)
		e.batch(pool, l.k, cur, k, nil, acts, &scratch)
		e.batch(pool, l.v, cur, v, l.vb, acts, &scratch)
		attention(att, q, k, v, h.NAudioHead, pool.Threads(), packed)
		e.batch(pool, l.o, att, proj, l.ob, acts, &scratch)
		for t := range x {
			tensor.Add(x[t], proj[t])
			layerNorm(cur[t], x[t], l.mlpLnW, l.mlpLnB)
		}
		e.batch(pool, l.fc1, cur, hidden, l.fc1b, acts, &scratch)
		for _, r := range hidden {
			for i, v := range r {
				r[i] = gelu(v)
			}
		}
		e.batch(pool, l.fc2, hidden, proj, l.fc2b, acts, &scratch)
		for t := range x {
			tensor.Add(x[t], proj[t])
		}
	}
	for t := range x {
		layerNorm(x[t], x[t], e.lnW, e.lnB)
	}
	return x, nil
}

// attention sets out to multi-head softmax(q·kᵀ/√d)·v over all positions
// (no mask) as whisper.cpp's non-flash path computes it: q, k and v
// rounded to half precision, and the probabilities too (they enter an F16
// matrix product).
//
// The keys of each head are packed into a matrix of positions × head
// dimension and the values transposed (head dimension × positions), so
// that a block of attnBlock queries takes its scores and then its
// weighted values as two blocked matrix products (tensor.MulF32); only a
// block's scores exist at a time, never the positions × positions matrix.
// The (head, block) pairs are split over threads goroutines. packed is
// scratch of 2·len(q)·len(q[0]) values.
func attention(out, q, k, v [][]float32, heads, threads int, packed []float32) {
	nPos, n := len(q), len(q[0])
	hd := n / heads
	scale := float32(1 / math.Sqrt(float64(hd)))
	for _, m := range [][][]float32{q, k, v} {
		for _, r := range m {
			tensor.RoundF16(r)
		}
	}
	// kp[hh]: nPos rows of hd; vt[hh]: hd rows of nPos.
	kp, vt := packed[:nPos*n], packed[nPos*n:2*nPos*n]
	for j := range nPos {
		for hh := range heads {
			copy(kp[(hh*nPos+j)*hd:(hh*nPos+j+1)*hd], k[j][hh*hd:(hh+1)*hd])
		}
		for i, x := range v[j] {
			vt[i*nPos+j] = x // i = hh·hd + d: head hh's row d
		}
	}
	blocks := (nPos + attnBlock - 1) / attnBlock
	tasks := heads * blocks
	threads = max(1, min(threads, tasks))
	var wg sync.WaitGroup
	for w := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := rows(attnBlock, nPos)
			qs := make([][]float32, attnBlock)
			outs := make([][]float32, attnBlock)
			for t := w; t < tasks; t += threads {
				hh, b := t/blocks, t%blocks
				i0, i1 := b*attnBlock, min((b+1)*attnBlock, nPos)
				nb := i1 - i0
				for i := range nb {
					qs[i] = q[i0+i][hh*hd : (hh+1)*hd]
					outs[i] = out[i0+i][hh*hd : (hh+1)*hd]
				}
				tensor.MulF32(sc[:nb], kp[hh*nPos*hd:(hh+1)*nPos*hd], qs[:nb])
				for _, s := range sc[:nb] {
					for j := range s {
						s[j] *= scale
					}
					tensor.SoftmaxF16(s)
				}
				tensor.MulF32(outs[:nb], vt[hh*hd*nPos:(hh+1)*hd*nPos], sc[:nb])
			}
		}()
	}
	wg.Wait()
}

// attnBlock is the number of queries whose scores attention computes at
// once: 32 rows of 1500 scores (188 KiB) stay in a core's second-level
// cache with one head's keys and values (375 KiB each).
const attnBlock = 32
