//go:build goexperiment.simd && amd64 && !purego

package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// edgyQ8_0 returns n random Q8_0 values whose quants are often the
// extremes (−128, −127, 127) and whose block scales are sometimes
// subnormal half floats: the cases an integer kernel gets wrong first.
func edgyQ8_0(n int, r *rand.Rand) []byte {
	w := RandomData(Q8_0, n, 0.5, r)
	for b := 0; b < len(w); b += q80Len {
		for i := range qk {
			switch r.IntN(8) {
			case 0:
				w[b+2+i] = 0x80 // −128
			case 1:
				w[b+2+i] = 127
			case 2:
				w[b+2+i] = 0x81 // −127
			}
		}
		if r.IntN(4) == 0 { // a subnormal f16 scale
			binary.LittleEndian.PutUint16(w[b:], uint16(1+r.IntN(0x3ff)))
		}
	}
	return w
}

// TestQ8_0VNNI checks the VNNI prompt kernel against the archsimd tile
// (dot2x4Q8_0AVX512 and dotDecQ8_0AVX512) through MatMul, over row and
// token counts that are not multiples of the 4×4 tile and odd numbers of
// block pairs: the results must be identical (the integer sums are the
// same and the float operations run in the same order), and within
// rounding of the float64 reference. The weights include −128 and ±127,
// the quantized values' extremes.
func TestQ8_0VNNI(t *testing.T) {
	if simdTiles == nil || simdTiles.dot4x4Q8_0V == nil {
		t.Skip("no AVX512-VNNI on this CPU")
	}
	r := rand.New(rand.NewPCG(31, 32))
	p := NewPool(2)
	defer p.Close()
	for _, tc := range []struct{ rows, cols, batch int }{
		{1, 64, 4}, {3, 192, 5}, {4, 64, 4}, {5, 320, 6}, {7, 1024, 7},
		{8, 256, 8}, {9, 448, 11}, {13, 128, 13}, {2, 2048, 9},
	} {
		t.Run(fmt.Sprintf("%dx%dx%d", tc.rows, tc.cols, tc.batch), func(t *testing.T) {
			m, err := NewMatrix(Q8_0, tc.rows, tc.cols, edgyQ8_0(tc.rows*tc.cols, r))
			if err != nil {
				t.Fatal(err)
			}
			as := make([]Activation, tc.batch)
			for b := range as {
				x := make([]float32, tc.cols)
				for i := range x {
					x[i] = float32(r.NormFloat64())
				}
				if b%3 == 1 {
					x[r.IntN(tc.cols)] = 40 // a value that quantizes to ±127
				}
				as[b].Set(x)
			}
			checkVNNI(t, p, m, as)
		})
	}
}

// checkVNNI compares MatMul(m, as) with and without the VNNI kernels
// (exactly) and with the float64 reference (within rounding).
func checkVNNI(t *testing.T, p *Pool, m *Matrix, as []Activation) {
	t.Helper()
	got, want := make([][]float32, len(as)), make([][]float32, len(as))
	for b := range as {
		got[b], want[b] = make([]float32, m.Rows), make([]float32, m.Rows)
	}
	p.MatMul(got, m, as)
	saved := simdTiles
	plain := *simdTiles
	plain.dot4x4Q8_0V, plain.dot2x4Q4_KV = nil, nil
	simdTiles = &plain
	p.MatMul(want, m, as)
	simdTiles = saved
	for b := range as {
		for i := range m.Rows {
			if got[b][i] != want[b][i] {
				t.Fatalf("%v out[%d][%d] = %v; archsimd kernels %v", m.Type, b, i, got[b][i], want[b][i])
			}
			ref, mag := refDot(m.Type, m.Row(i), &as[b])
			if d := math.Abs(float64(got[b][i]) - ref); d > 1e-5*mag+1e-6 {
				t.Fatalf("%v out[%d][%d] = %v; want %v", m.Type, b, i, got[b][i], ref)
			}
		}
	}
}

// TestQ4_KVNNI checks the VNNI Q4_K prompt kernel as TestQ8_0VNNI does,
// against dotDecQ4_KMinAVX512 (exactly) and the float64 reference.
func TestQ4_KVNNI(t *testing.T) {
	if simdTiles == nil || simdTiles.dot2x4Q4_KV == nil {
		t.Skip("no AVX512-VNNI on this CPU")
	}
	r := rand.New(rand.NewPCG(33, 34))
	p := NewPool(2)
	defer p.Close()
	for _, tc := range []struct{ rows, cols, batch int }{
		{1, 256, 4}, {2, 256, 5}, {3, 768, 6}, {5, 512, 7}, {6, 1024, 9}, {9, 256, 13},
	} {
		t.Run(fmt.Sprintf("%dx%dx%d", tc.rows, tc.cols, tc.batch), func(t *testing.T) {
			m, err := NewMatrix(Q4_K, tc.rows, tc.cols, RandomData(Q4_K, tc.rows*tc.cols, 0.5, r))
			if err != nil {
				t.Fatal(err)
			}
			as := make([]Activation, tc.batch)
			for b := range as {
				x := make([]float32, tc.cols)
				for i := range x {
					x[i] = float32(r.NormFloat64())
				}
				if b%3 == 1 {
					x[r.IntN(tc.cols)] = 40 // a value that quantizes to ±127
				}
				as[b].Set(x)
			}
			checkVNNI(t, p, m, as)
		})
	}
}

// BenchmarkVNNI times Q8_0 and Q4_K prompt batches (MatMul, one thread) with
// the archsimd tile and with the VNNI kernel, in thread CPU time per block
// of 32 products: a 1024×1024 matrix by 64 activations, and 16×512 by 8
// (operands in the first-level cache).
func BenchmarkVNNI(b *testing.B) {
	if simdTiles == nil || simdTiles.dot4x4Q8_0V == nil || simdTiles.dot2x4Q4_KV == nil {
		b.Skip("no AVX512-VNNI on this CPU")
	}
	for _, sz := range [][3]int{{1024, 1024, 64}, {16, 1024, 8}} {
		rows, cols, batch := sz[0], sz[1], sz[2]
		r := rand.New(rand.NewPCG(3, 4))
		as := make([]Activation, batch)
		outs := make([][]float32, batch)
		for k := range as {
			x := make([]float32, cols)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			as[k].Set(x)
			outs[k] = make([]float32, rows)
		}
		for _, typ := range []DType{Q8_0, Q4_K} {
			m, _ := NewMatrix(typ, rows, cols, RandomData(typ, rows*cols, 1, r))
			for _, vnni := range []bool{false, true} {
				b.Run(fmt.Sprintf("%v/%dx%dx%d/vnni=%v", typ, rows, cols, batch, vnni), func(b *testing.B) {
					saved := simdTiles
					if !vnni {
						plain := *simdTiles
						plain.dot4x4Q8_0V, plain.dot2x4Q4_KV = nil, nil
						simdTiles = &plain
					}
					defer func() { simdTiles = saved }()
					p := NewPool(1)
					defer p.Close()
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					c0 := threadCPU()
					for b.Loop() {
						p.MatMul(outs, m, as)
					}
					b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(rows*cols/32*batch), "cpu-ns/block")
				})
			}
		}
	}
}
