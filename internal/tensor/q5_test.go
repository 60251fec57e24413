package tensor

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
)

// refQ5 reads element i of a Q5_0 or Q5_1 row bit by bit from GGML's
// documented layout, independently of DequantizeQ5.
func refQ5(t DType, src []byte, i int) float64 {
	bl := Q5BlockBytes(t)
	blk := src[(i/32)*bl:]
	l := i % 32
	h := func(b []byte) float64 { return float64(f16ToF32Slow(binary.LittleEndian.Uint16(b))) }
	hdr := 2
	if t == Q5_1 {
		hdr = 4
	}
	qh := blk[hdr : hdr+4]
	qs := blk[hdr+4:]
	var lo byte
	if l < 16 {
		lo = qs[l] & 15
	} else {
		lo = qs[l-16] >> 4
	}
	hb := (qh[l/8] >> uint(l%8)) & 1
	q := int(lo) + 16*int(hb)
	if t == Q5_0 {
		return h(blk) * float64(q-16)
	}
	return h(blk)*float64(q) + h(blk[2:])
}

func TestQ5RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const n = 32 * 40
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	x[7] = 0 // a zero in a block
	for i := 64; i < 96; i++ {
		x[i] = 0 // an all-zero block
	}
	for _, tc := range []struct {
		name  string
		t     DType
		quant func([]float32, []byte)
	}{{"Q5_0", Q5_0, QuantizeQ5_0}, {"Q5_1", Q5_1, QuantizeQ5_1}} {
		t.Run(tc.name, func(t *testing.T) {
			buf := make([]byte, n/32*Q5BlockBytes(tc.t))
			tc.quant(x, buf)
			y := make([]float32, n)
			DequantizeQ5(tc.t, buf, y)
			for b := 0; b < n/32; b++ {
				lo, hi := x[b*32], x[b*32]
				for _, v := range x[b*32 : b*32+32] {
					lo, hi = min(lo, v), max(hi, v)
				}
				// Half a quantization step, plus f16 rounding of the scale;
				// Q5_0 maps the extreme to −16, so the other sign can clip
				// by up to a whole step at +15.
				step := float64(max(hi, -lo)) / 16 * 2
				if tc.t == Q5_1 {
					step = float64(hi-lo) / 31
				}
				for i := b * 32; i < b*32+32; i++ {
					if ref := refQ5(tc.t, buf, i); float64(y[i]) != ref {
						t.Fatalf("DequantizeQ5[%d] = %v; reference reading %v", i, y[i], ref)
					}
					if d := math.Abs(float64(y[i] - x[i])); d > step*0.5+2e-3*math.Abs(float64(x[i]))+1e-3 {
						t.Fatalf("element %d: %v quantized to %v (error %g, step %g)", i, x[i], y[i], d, step)
					}
				}
			}
			for i := 64; i < 96; i++ {
				if y[i] != 0 {
					t.Fatalf("zero block element %d = %v; want 0", i, y[i])
				}
			}
		})
	}
}

func TestQ5ExtremeMapsToMinus16(t *testing.T) {
	x := make([]float32, 32)
	for i := range x {
		x[i] = float32(i) / 31
	}
	x[3] = -2 // the largest magnitude, negative
	buf := make([]byte, Q5BlockBytes(Q5_0))
	QuantizeQ5_0(x, buf)
	y := make([]float32, 32)
	DequantizeQ5(Q5_0, buf, y)
	if y[3] != -2 {
		t.Errorf("DequantizeQ5 of the extreme -2 = %v; want exactly -2", y[3])
	}
}

// q5Kernels returns the Q5 row kernels to test by name: the portable ones
// and, where the CPU runs them, the assembly ones.
func q5Kernels() map[string][2]func(w []byte, a *Activation) float32 {
	ks := map[string][2]func(w []byte, a *Activation) float32{
		"generic": {dotQ5_0Generic, dotQ5_1Generic},
	}
	if dotQ5_0 != nil && (funcName(dotQ5_0) != funcName(dotQ5_0Generic)) {
		ks["active"] = [2]func(w []byte, a *Activation) float32{dotQ5_0, dotQ5_1}
	}
	return ks
}

// TestDotQ5 checks the Q5_0 and Q5_1 row kernels and Matrix.DotRow
// against a float64 product of the bit-by-bit reference weights and the
// activation's 8-bit values, over rows of 1 to 48 blocks with extreme
// weights (all 31 or all 0 in a block, zero scales) and activations
// (±127, a zero block).
func TestDotQ5(t *testing.T) {
	r := rand.New(rand.NewPCG(55, 5))
	for name, k := range q5Kernels() {
		for ti, typ := range []DType{Q5_0, Q5_1} {
			for _, nb := range []int{1, 2, 3, 7, 12, 48} {
				n := nb * qk
				x := make([]float32, n)
				wv := make([]float32, n)
				for i := range x {
					x[i] = float32(r.NormFloat64())
					wv[i] = float32(r.NormFloat64() * 3)
				}
				if nb > 2 {
					for i := 0; i < qk; i++ {
						wv[qk+i] = -4 // every q at one end of the range
						x[2*qk+i] = 0 // an all-zero activation block
					}
					x[5] = 40 // a block's maximum: ±127 after quantization
				}
				w := make([]byte, nb*Q5BlockBytes(typ))
				if typ == Q5_0 {
					QuantizeQ5_0(wv, w)
				} else {
					QuantizeQ5_1(wv, w)
				}
				var a Activation
				a.Set(x)
				var want, mag float64
				for i := range n {
					b := i / qk
					p := refQ5(typ, w, i) * float64(a.D[b]) * float64(a.Q[i])
					want += p
					mag += math.Abs(p)
				}
				got := k[ti](w, &a)
				if d := math.Abs(float64(got) - want); d > 1e-5*mag+1e-6 {
					t.Errorf("%s %v, %d blocks: %v; want %v", name, typ, nb, got, want)
				}
				m, err := NewMatrix(typ, 1, n, w)
				if err != nil {
					t.Fatal(err)
				}
				if got := m.DotRow(0, &a); math.Abs(float64(got)-want) > 1e-5*mag+1e-6 {
					t.Errorf("%v DotRow, %d blocks: %v; want %v", typ, nb, got, want)
				}
			}
		}
	}
}

// TestMatMulFQ5 checks MatMulF on five-bit matrices against the
// bit-by-bit reference weights.
func TestMatMulFQ5(t *testing.T) {
	r := rand.New(rand.NewPCG(56, 6))
	const rows, cols, batch = 9, 96, 5
	for _, typ := range []DType{Q5_0, Q5_1} {
		wv := make([]float32, rows*cols)
		for i := range wv {
			wv[i] = float32(r.NormFloat64())
		}
		w := make([]byte, rows*cols/qk*Q5BlockBytes(typ))
		if typ == Q5_0 {
			QuantizeQ5_0(wv, w)
		} else {
			QuantizeQ5_1(wv, w)
		}
		m, err := NewMatrix(typ, rows, cols, w)
		if err != nil {
			t.Fatal(err)
		}
		xs, outs := make([][]float32, batch), make([][]float32, batch)
		for b := range xs {
			xs[b] = make([]float32, cols)
			for i := range xs[b] {
				xs[b][i] = float32(r.NormFloat64())
			}
			outs[b] = make([]float32, rows)
		}
		p := NewPool(2)
		p.MatMulF(outs, m, xs)
		p.Close()
		for b, x := range xs {
			for i := range rows {
				var want, mag float64
				for c, v := range x {
					p := refQ5(typ, w, i*cols+c) * float64(v)
					want += p
					mag += math.Abs(p)
				}
				if d := math.Abs(float64(outs[b][i]) - want); d > 1e-6*mag+1e-7 {
					t.Fatalf("%v: out[%d][%d] = %v; want %v", typ, b, i, outs[b][i], want)
				}
			}
		}
	}
}

// BenchmarkDotQ5 times the Q5 row kernels over a 1536-value row (the
// Whisper tiny decoder's widest), in L1.
func BenchmarkDotQ5(b *testing.B) {
	r := rand.New(rand.NewPCG(57, 7))
	const n = 1536
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	var a Activation
	a.Set(x)
	w := make([]byte, n/qk*q51Len)
	QuantizeQ5_0(x, w[:n/qk*q50Len])
	for name, k := range q5Kernels() {
		for ti, typ := range []DType{Q5_0, Q5_1} {
			b.Run(name+"/"+typ.String(), func(b *testing.B) {
				var s float32
				for b.Loop() {
					s += k[ti](w, &a)
				}
				_ = s
			})
		}
	}
}

// funcName names the function f.
func funcName(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }
