package tensor

import (
	"fmt"
	"sync"
)

// Matrix × matrix products with float weights (F32, F16, BF16) and float32
// activations, for work that has many activation vectors at once (the
// Whisper encoder's 1500 positions, attention over them). Each product is
// split into panels of four weight rows; a panel, converted to float32 once,
// is multiplied by a block of activations two at a time with eight
// independent sums (kernelSet.gemm4), so that every weight and activation
// value loaded is used several times and no F16 value is converted more
// than once per product. The results equal those of one dot product per
// pair up to the order of the additions.

// gemmPanel is the number of weight rows a kernel call multiplies at once.
const gemmPanel = 4

// gemmBlock is the number of activations multiplied by one panel before
// the next panel is taken: 64 activations of up to 1536 values (384 KiB)
// stay in a core's second-level cache while every panel of the part
// passes over them.
const gemmBlock = 64

// MulF32 sets outs[j][i] = w[i·k : (i+1)·k] · xs[j] for every activation
// xs[j] (each k = len(xs[j]) long) and every row i of w, a row-major
// float32 matrix of len(w)/k rows. It runs on the calling goroutine; the
// Whisper encoder's attention uses it for one head's scores and weighted
// values. len(outs) must equal len(xs) and each outs[j] hold len(w)/k
// values.
func MulF32(outs [][]float32, w []float32, xs [][]float32) {
	if len(xs) == 0 {
		return
	}
	if len(outs) != len(xs) {
		panic("tensor: MulF32: batch mismatch")
	}
	k := len(xs[0])
	if k == 0 || len(w)%k != 0 {
		panic(fmt.Sprintf("tensor: MulF32: %d weights are not rows of %d", len(w), k))
	}
	rows := len(w) / k
	for j := range xs {
		if len(xs[j]) != k || len(outs[j]) < rows {
			panic("tensor: MulF32: activation or output length mismatch")
		}
	}
	mulPanels(outs, w, k, 0, rows, xs)
}

// gemm4Generic is the portable panel kernel: outs[j][i0+r] = row r of the
// four packed rows w (each len(w)/4 long) · xs[j]. Eight sums per pair of
// activations are independent, so the loop is not bound by the latency of
// one chain of additions.
func gemm4Generic(w []float32, xs, outs [][]float32, i0 int) {
	k := len(w) / gemmPanel
	w0, w1, w2, w3 := w[:k], w[k:2*k], w[2*k:3*k], w[3*k:4*k]
	j := 0
	for ; j+2 <= len(xs); j += 2 {
		x0, x1 := xs[j][:k], xs[j+1][:k]
		w0, w1, w2, w3 := w0[:len(x0)], w1[:len(x0)], w2[:len(x0)], w3[:len(x0)]
		x1 = x1[:len(x0)]
		var s00, s10, s20, s30, s01, s11, s21, s31 float32
		for i, a := range x0 {
			b := x1[i]
			r0, r1, r2, r3 := w0[i], w1[i], w2[i], w3[i]
			s00 += r0 * a
			s10 += r1 * a
			s20 += r2 * a
			s30 += r3 * a
			s01 += r0 * b
			s11 += r1 * b
			s21 += r2 * b
			s31 += r3 * b
		}
		o0, o1 := outs[j][i0:i0+4], outs[j+1][i0:i0+4]
		o0[0], o0[1], o0[2], o0[3] = s00, s10, s20, s30
		o1[0], o1[1], o1[2], o1[3] = s01, s11, s21, s31
	}
	for ; j < len(xs); j++ {
		x := xs[j][:k]
		o := outs[j][i0 : i0+4]
		o[0], o[1], o[2], o[3] = dotF32Generic(w0, x), dotF32Generic(w1, x), dotF32Generic(w2, x), dotF32Generic(w3, x)
	}
}

// f32Scratch holds float32 buffers for converted weight panels, reused
// across products.
var f32Scratch sync.Pool

// gemm4Tail adds to outs[j][i0:i0+4] the products of columns from..k-1
// of the four packed rows in w (k values each) with every xs[j]: the
// columns a vector kernel leaves over when k is no multiple of its width.
func gemm4Tail(w []float32, k, from int, xs, outs [][]float32, i0 int) {
	if from == k {
		return
	}
	for j, x := range xs {
		x = x[from:k]
		o := outs[j][i0 : i0+4]
		for r := range o {
			wr := w[r*k+from : r*k+k]
			s := o[r]
			for i, v := range x {
				s += wr[i] * v
			}
			o[r] = s
		}
	}
}

func getScratch(n int) *[]float32 {
	if p, ok := f32Scratch.Get().(*[]float32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float32, n)
	return &s
}

// MatMulF multiplies a float matrix (F32, F16 or BF16) or a five-bit one
// (Q5_0, Q5_1) by each activation: outs[b][i] = row i of m · xs[b], like
// [Pool.MatMul] but reading the activations' float32 values directly (no
// [Activation]) and multiplying several weight rows by several
// activations per step, which is several times faster for large batches.
// Rows are split over the pool's goroutines; each converts its rows to
// float32 once per call.
func (p *Pool) MatMulF(outs [][]float32, m *Matrix, xs [][]float32) {
	switch m.Type {
	case F32, F16, BF16, Q5_0, Q5_1:
	default:
		panic("tensor: MatMulF: " + m.Type.String() + " matrix (want F32, F16, BF16, Q5_0 or Q5_1)")
	}
	if len(outs) != len(xs) {
		panic("tensor: MatMulF: batch mismatch")
	}
	for b := range xs {
		if len(xs[b]) != m.Cols || len(outs[b]) != m.Rows {
			panic(fmt.Sprintf("tensor: MatMulF: %d×%d matrix, activation %d of %d, output of %d", m.Rows, m.Cols, b, len(xs[b]), len(outs[b])))
		}
	}
	if len(xs) == 0 || m.Rows == 0 {
		return
	}
	parts := 1
	if p.n > 1 && len(m.Data)*len(xs) >= minParallelWork && m.Rows >= 2*gemmPanel*p.n {
		parts = p.n
	}
	// Parts start on panel boundaries.
	panels := (m.Rows + gemmPanel - 1) / gemmPanel
	run := func(w int) {
		lo := min(panels*w/parts*gemmPanel, m.Rows)
		hi := min(panels*(w+1)/parts*gemmPanel, m.Rows)
		if lo >= hi {
			return
		}
		k := m.Cols
		if m.Type == F32 {
			mulPanels(outs, f32s(m.Data)[lo*k:hi*k], k, lo, hi, xs)
			return
		}
		buf := getScratch((hi - lo) * k)
		for i := lo; i < hi; i++ {
			Dequantize(m.Type, m.Row(i), (*buf)[(i-lo)*k:(i-lo+1)*k])
		}
		mulPanels(outs, *buf, k, lo, hi, xs)
		f32Scratch.Put(buf)
	}
	if parts == 1 {
		run(0)
		return
	}
	var wg sync.WaitGroup
	for w := 1; w < parts; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(w)
		}()
	}
	run(0)
	wg.Wait()
}

// mulPanels multiplies rows lo…hi−1 of a float32 matrix with rows of k
// values, given as w (w[0:k] is row lo), by every activation in xs,
// writing outs[j][lo:hi].
func mulPanels(outs [][]float32, w []float32, k, lo, hi int, xs [][]float32) {
	g := active.gemm4
	full := lo + (hi-lo)/gemmPanel*gemmPanel
	for b := 0; b < len(xs); b += gemmBlock {
		xb, ob := xs[b:min(b+gemmBlock, len(xs))], outs[b:min(b+gemmBlock, len(xs))]
		for i := lo; i < full; i += gemmPanel {
			g(w[(i-lo)*k:(i-lo+gemmPanel)*k], xb, ob, i)
		}
		for i := full; i < hi; i++ {
			wr := w[(i-lo)*k : (i-lo+1)*k]
			for j, x := range xb {
				ob[j][i] = active.dotF32(wr, x)
			}
		}
	}
}
