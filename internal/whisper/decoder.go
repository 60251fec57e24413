package whisper

import (
	"context"
	"fmt"
	"math"

	"github.com/sottolabs/sotto/internal/tensor"
)

// Decoder is Whisper's text decoder over a model's weights: token and
// learned positional embeddings, pre-norm blocks of causal self-attention,
// cross-attention over the encoder output and a GELU MLP, a final layer
// norm, and logits from the token embedding matrix (tied weights).
//
// A Decoder holds only weights and is safe for concurrent use; the
// per-sequence data (key/value caches, buffers) live in a [DecoderState],
// and the cross-attention keys and values of one 30 s window in an
// [Audio].
type Decoder struct {
	h      Hparams
	tokEmb *tensor.Matrix // NVocab rows of NTextState
	pe     []float32      // NTextCtx × NTextState
	layers []decLayer
	lnW    []float32
	lnB    []float32
	round  rounding
}

type decLayer struct {
	attnLnW, attnLnB   []float32
	q, k, v, o         *tensor.Matrix
	qb, vb, ob         []float32
	crossLnW, crossLnB []float32
	xq, xk, xv, xo     *tensor.Matrix
	xqb, xvb, xob      []float32
	mlpLnW, mlpLnB     []float32
	fc1, fc2           *tensor.Matrix
	fc1b, fc2b         []float32
}

// rounding says how whisper.cpp's CPU backend rounds the input of a
// matrix product: to half precision for F16 weights, through Q8_0 (an F16
// scale per 32 values) for quantized weights.
type rounding struct{ f16, q8 bool }

func newRounding(h Hparams) rounding {
	wt, _ := h.FType.WeightType()
	return rounding{f16: wt == TypeF16, q8: wt != TypeF16 && wt != TypeF32}
}

// set loads x into act as the matrices of the model read it. tmp and q
// are scratch of at least len(x) floats and len(x)/32·34 bytes.
func (r rounding) set(act *tensor.Activation, x, tmp []float32, q []byte) {
	switch {
	case r.f16:
		tmp = tmp[:len(x)]
		copy(tmp, x)
		tensor.RoundF16(tmp)
		x = tmp
	case r.q8 && len(x)%32 == 0:
		q = q[:len(x)/32*34]
		tmp = tmp[:len(x)]
		tensor.QuantizeQ8_0(x, q)
		tensor.Dequantize(tensor.Q8_0, q, tmp)
		x = tmp
	}
	act.Set(x)
}

// NewDecoder builds the decoder over m's weights (kept in place where
// possible, so m must stay open).
func NewDecoder(m *Model) (*Decoder, error) {
	h := m.Hparams
	w := &weights{m: m}
	n := h.NTextState
	d := &Decoder{
		h:      h,
		tokEmb: w.matrix("decoder.token_embedding.weight", h.NVocab, n),
		pe:     w.vec("decoder.positional_embedding", n*h.NTextCtx),
		lnW:    w.vec("decoder.ln.weight", n),
		lnB:    w.vec("decoder.ln.bias", n),
		round:  newRounding(h),
	}
	for i := range h.NTextLayer {
		p := fmt.Sprintf("decoder.blocks.%d.", i)
		d.layers = append(d.layers, decLayer{
			attnLnW: w.vec(p+"attn_ln.weight", n), attnLnB: w.vec(p+"attn_ln.bias", n),
			q: w.matrix(p+"attn.query.weight", n, n), qb: w.vec(p+"attn.query.bias", n),
			k: w.matrix(p+"attn.key.weight", n, n),
			v: w.matrix(p+"attn.value.weight", n, n), vb: w.vec(p+"attn.value.bias", n),
			o: w.matrix(p+"attn.out.weight", n, n), ob: w.vec(p+"attn.out.bias", n),
			crossLnW: w.vec(p+"cross_attn_ln.weight", n), crossLnB: w.vec(p+"cross_attn_ln.bias", n),
			xq: w.matrix(p+"cross_attn.query.weight", n, n), xqb: w.vec(p+"cross_attn.query.bias", n),
			xk: w.matrix(p+"cross_attn.key.weight", n, n),
			xv: w.matrix(p+"cross_attn.value.weight", n, n), xvb: w.vec(p+"cross_attn.value.bias", n),
			xo: w.matrix(p+"cross_attn.out.weight", n, n), xob: w.vec(p+"cross_attn.out.bias", n),
			mlpLnW: w.vec(p+"mlp_ln.weight", n), mlpLnB: w.vec(p+"mlp_ln.bias", n),
			fc1: w.matrix(p+"mlp.0.weight", 4*n, n), fc1b: w.vec(p+"mlp.0.bias", 4*n),
			fc2: w.matrix(p+"mlp.2.weight", n, 4*n), fc2b: w.vec(p+"mlp.2.bias", n),
		})
	}
	if w.err != nil {
		return nil, w.err
	}
	return d, nil
}

// Hparams returns the model dimensions the decoder was built for.
func (d *Decoder) Hparams() Hparams { return d.h }

// Audio is the cross-attention keys and values of one encoded window, per
// decoder layer: computed once per window by [Decoder.Audio] and read by
// every step of every sequence decoded against that window.
type Audio struct {
	nCtx int
	// k[l] holds the keys, scaled by head_dim^−¼ and rounded to half
	// precision, head by head (head h's nCtx rows of head_dim values at
	// h·nCtx·head_dim); vt[l] holds the values transposed
	// (NTextState rows of nCtx), rounded to half precision, so that the
	// weighted sum over positions is one dot product per output value.
	k, vt [][]float32
}

// Audio computes the cross-attention keys and values of every decoder
// layer for the encoder output enc (rows of NAudioState). dst is reused
// when it is non-nil and of the same size. Work is spread over pool.
func (d *Decoder) Audio(ctx context.Context, pool *tensor.Pool, enc [][]float32, dst *Audio) (*Audio, error) {
	h := d.h
	n, nCtx := h.NTextState, len(enc)
	if nCtx == 0 || nCtx > h.NAudioCtx || len(enc[0]) != h.NAudioState {
		return nil, fmt.Errorf("whisper: decoder: encoder output of %d rows (want 1–%d rows of %d)", nCtx, h.NAudioCtx, h.NAudioState)
	}
	a := dst
	if a == nil || a.nCtx != nCtx || len(a.k) != len(d.layers) {
		a = &Audio{nCtx: nCtx}
		for range d.layers {
			a.k = append(a.k, make([]float32, nCtx*n))
			a.vt = append(a.vt, make([]float32, nCtx*n))
		}
	}
	acts := make([]tensor.Activation, nCtx)
	tmp := make([]float32, n)
	q := make([]byte, n/32*34+34)
	for t, x := range enc {
		d.round.set(&acts[t], x, tmp, q)
	}
	out := rows(nCtx, n)
	kScale := float32(math.Pow(float64(n/h.NTextHead), -0.25))
	for l, L := range d.layers {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("whisper: decoder: %w", err)
		}
		pool.MatMul(out, L.xk, acts)
		k := a.k[l]
		hd := n / h.NTextHead
		for t, r := range out {
			for i, v := range r {
				hh, j := i/hd, i%hd
				k[(hh*nCtx+t)*hd+j] = f16Round(v * kScale)
			}
		}
		pool.MatMul(out, L.xv, acts)
		vt := a.vt[l]
		for t, r := range out {
			for i, v := range r {
				vt[i*nCtx+t] = f16Round(v + L.xvb[i])
			}
		}
	}
	return a, nil
}

// DecoderState is one token sequence being decoded: its self-attention
// key/value cache and every buffer a step needs, so that [DecoderState.Step]
// allocates nothing. It is not safe for concurrent use.
type DecoderState struct {
	d *Decoder
	// k[l], v[l]: NTextCtx rows of NTextState, rounded to half precision
	// (whisper.cpp keeps its cache in F16); k is scaled by head_dim^−¼.
	k, v [][]float32
	n    int // positions filled

	x, cur, q, att, proj, hidden, tmp []float32
	scores                            []float32
	one, one2                         [1][]float32 // MulF32's one-row batches, kept to avoid allocation
	q8                                []byte
	act                               tensor.Activation
	// Logits holds the logits of the last step that asked for them
	// (NVocab values).
	Logits []float32
}

// NewState returns an empty decoding state for d.
func (d *Decoder) NewState() *DecoderState {
	h := d.h
	n := h.NTextState
	s := &DecoderState{
		d:      d,
		x:      make([]float32, n),
		cur:    make([]float32, n),
		q:      make([]float32, n),
		att:    make([]float32, n),
		proj:   make([]float32, n),
		hidden: make([]float32, 4*n),
		tmp:    make([]float32, 4*n),
		scores: make([]float32, max(h.NTextCtx, h.NAudioCtx)),
		q8:     make([]byte, 4*n/32*34),
		Logits: make([]float32, h.NVocab),
	}
	for range d.layers {
		s.k = append(s.k, make([]float32, h.NTextCtx*n))
		s.v = append(s.v, make([]float32, h.NTextCtx*n))
	}
	return s
}

// Len returns the number of tokens in the state's cache.
func (s *DecoderState) Len() int { return s.n }

// Reset empties the cache.
func (s *DecoderState) Reset() { s.n = 0 }

// CopyFrom makes s a copy of o (same decoder): its cache and length.
func (s *DecoderState) CopyFrom(o *DecoderState) {
	n := s.d.h.NTextState
	for l := range s.k {
		copy(s.k[l][:o.n*n], o.k[l][:o.n*n])
		copy(s.v[l][:o.n*n], o.v[l][:o.n*n])
	}
	s.n = o.n
}

// Truncate drops the cached tokens from position n on.
func (s *DecoderState) Truncate(n int) {
	if n < s.n {
		s.n = max(n, 0)
	}
}

// matVec sets out to m·x (+ bias), rounding x as whisper.cpp does.
func (s *DecoderState) matVec(pool *tensor.Pool, out []float32, m *tensor.Matrix, x, bias []float32) {
	s.d.round.set(&s.act, x, s.tmp, s.q8)
	pool.MatVec(out, m, &s.act)
	if bias != nil {
		tensor.Add(out, bias)
	}
}

// Step appends token tok at the next position, runs the decoder on it
// against the window a and, when logits is true, fills s.Logits with the
// next-token logits. It fails when the context (NTextCtx tokens) is full
// or tok is out of range.
func (s *DecoderState) Step(pool *tensor.Pool, a *Audio, tok int, logits bool) error {
	d := s.d
	h := d.h
	if s.n >= h.NTextCtx {
		return fmt.Errorf("whisper: decoder: context of %d tokens is full", h.NTextCtx)
	}
	if tok < 0 || tok >= h.NVocab {
		return fmt.Errorf("whisper: decoder: token %d out of range", tok)
	}
	n, heads := h.NTextState, h.NTextHead
	hd := n / heads
	pos := s.n
	scale := float32(math.Pow(float64(hd), -0.25))

	d.tokEmb.DequantizeRow(tok, s.x)
	tensor.Add(s.x, d.pe[pos*n:(pos+1)*n])
	for l := range d.layers {
		L := &d.layers[l]
		// Causal self-attention over the cache.
		layerNorm(s.cur, s.x, L.attnLnW, L.attnLnB)
		s.matVec(pool, s.q, L.q, s.cur, L.qb)
		kc, vc := s.k[l], s.v[l]
		krow, vrow := kc[pos*n:(pos+1)*n], vc[pos*n:(pos+1)*n]
		s.matVec(pool, krow, L.k, s.cur, nil)
		s.matVec(pool, vrow, L.v, s.cur, L.vb)
		for i := range n {
			s.q[i] = f16Round(s.q[i] * scale)
			krow[i] = f16Round(krow[i] * scale)
			vrow[i] = f16Round(vrow[i])
		}
		for hh := range heads {
			o := hh * hd
			qh := s.q[o : o+hd]
			sc := s.scores[:pos+1]
			for j := range sc {
				sc[j] = tensor.Dot(qh, kc[j*n+o:j*n+o+hd])
			}
			tensor.SoftmaxF16(sc)
			out := s.att[o : o+hd]
			clear(out)
			for j, p := range sc {
				tensor.Axpy(p, vc[j*n+o:j*n+o+hd], out)
			}
		}
		s.matVec(pool, s.proj, L.o, s.att, L.ob)
		tensor.Add(s.x, s.proj)

		// Cross-attention over the window.
		layerNorm(s.cur, s.x, L.crossLnW, L.crossLnB)
		s.matVec(pool, s.q, L.xq, s.cur, L.xqb)
		for i := range n {
			s.q[i] = f16Round(s.q[i])
		}
		nCtx := a.nCtx
		ka, vt := a.k[l], a.vt[l]
		for hh := range heads {
			o := hh * hd
			s.one[0], s.one2[0] = s.q[o:o+hd], s.scores[:nCtx]
			// Scores over the window's keys, then the weighted values,
			// each as one blocked product (four keys or values per step).
			tensor.MulF32(s.one2[:], ka[hh*nCtx*hd:(hh+1)*nCtx*hd], s.one[:])
			sc := s.scores[:nCtx]
			for t := range sc {
				sc[t] *= scale
			}
			tensor.SoftmaxF16(sc)
			s.one[0] = s.att[o : o+hd]
			tensor.MulF32(s.one[:], vt[o*nCtx:(o+hd)*nCtx], s.one2[:])
		}
		s.matVec(pool, s.proj, L.xo, s.att, L.xob)
		tensor.Add(s.x, s.proj)

		// MLP.
		layerNorm(s.cur, s.x, L.mlpLnW, L.mlpLnB)
		s.matVec(pool, s.hidden, L.fc1, s.cur, L.fc1b)
		for i, v := range s.hidden {
			s.hidden[i] = gelu(v)
		}
		s.matVec(pool, s.proj, L.fc2, s.hidden, L.fc2b)
		tensor.Add(s.x, s.proj)
	}
	s.n++
	if logits {
		layerNorm(s.cur, s.x, d.lnW, d.lnB)
		s.matVec(pool, s.Logits, d.tokEmb, s.cur, nil)
	}
	return nil
}
