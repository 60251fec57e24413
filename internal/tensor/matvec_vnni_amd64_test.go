//go:build goexperiment.simd && amd64 && !purego

package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestQ8_0VNNIMatVec checks the VNNI matrix-vector kernel over row counts
// that are not multiples of eight and odd numbers of block pairs: MatVec
// must equal, exactly, the prompt kernel's result for the same activation
// in a batch (dot4x4Q8_0VNNI through MatMul) and the archsimd
// matrix-vector kernels' (raw4x1Q8_0AVX512, dot4x1Q8_0AVX512), and the
// float64 reference within rounding. Weights include −128 and ±127 and
// subnormal scales.
func TestQ8_0VNNIMatVec(t *testing.T) {
	if simdTiles == nil || simdTiles.vec8Q8_0V == nil {
		t.Skip("no AVX512-VNNI on this CPU")
	}
	r := rand.New(rand.NewPCG(41, 42))
	for _, tc := range []struct{ rows, cols, threads int }{
		{1, 64, 1}, {3, 192, 1}, {7, 320, 1}, {8, 256, 1}, {9, 448, 2},
		{13, 1024, 2}, {17, 128, 1}, {33, 2048, 2}, {64, 512, 2}, {2, 64, 2},
	} {
		t.Run(fmt.Sprintf("%dx%d/%d", tc.rows, tc.cols, tc.threads), func(t *testing.T) {
			m, err := NewMatrix(Q8_0, tc.rows, tc.cols, edgyQ8_0(tc.rows*tc.cols, r))
			if err != nil {
				t.Fatal(err)
			}
			as := make([]Activation, 5)
			for b := range as {
				x := make([]float32, tc.cols)
				for i := range x {
					x[i] = float32(r.NormFloat64())
				}
				if b%2 == 1 {
					x[r.IntN(tc.cols)] = 40 // a value that quantizes to ±127
				}
				as[b].Set(x)
			}
			p := NewPool(tc.threads)
			defer p.Close()
			batch := make([][]float32, len(as))
			for b := range batch {
				batch[b] = make([]float32, m.Rows)
			}
			p.MatMul(batch, m, as)
			saved := simdTiles
			plain := *simdTiles
			plain.vec8Q8_0V = nil
			for b := range as {
				got, want := make([]float32, m.Rows), make([]float32, m.Rows)
				p.MatVec(got, m, &as[b])
				simdTiles = &plain
				p.MatVec(want, m, &as[b])
				simdTiles = saved
				for i := range m.Rows {
					if got[i] != batch[b][i] || got[i] != want[i] {
						t.Fatalf("activation %d row %d: MatVec %v; batch %v, archsimd MatVec %v", b, i, got[i], batch[b][i], want[i])
					}
					ref, mag := refDot(Q8_0, m.Row(i), &as[b])
					if d := math.Abs(float64(got[i]) - ref); d > 1e-5*mag+1e-6 {
						t.Fatalf("activation %d row %d: %v; want %v", b, i, got[i], ref)
					}
				}
			}
		})
	}
}

// BenchmarkQ8_0MatVecVNNI times Q8_0 matrix-vector products (one thread)
// with the kernel set's row kernel (dotQ8_0AVX2), the archsimd kernel
// (raw4x1Q8_0AVX512) and the VNNI kernel, in
// thread CPU time per block of 32 products: 1024×1024 (in the second-level
// cache) and 4096×1024 (4.4 MB, mostly from memory).
func BenchmarkQ8_0MatVecVNNI(b *testing.B) {
	if simdTiles == nil || simdTiles.vec8Q8_0V == nil {
		b.Skip("no AVX512-VNNI on this CPU")
	}
	for _, sz := range [][2]int{{1024, 1024}, {4096, 1024}, {32768, 1024}} {
		rows, cols := sz[0], sz[1]
		r := rand.New(rand.NewPCG(5, 6))
		var a Activation
		x := make([]float32, cols)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		a.Set(x)
		out := make([]float32, rows)
		m, _ := NewMatrix(Q8_0, rows, cols, RandomData(Q8_0, rows*cols, 1, r))
		for _, k := range []string{"row", "archsimd", "vnni"} {
			b.Run(fmt.Sprintf("%dx%d/%s", rows, cols, k), func(b *testing.B) {
				saved := simdTiles
				plain := *simdTiles
				plain.vec8Q8_0V = nil
				switch k {
				case "row":
					simdTiles = nil
				case "archsimd":
					simdTiles = &plain
				}
				defer func() { simdTiles = saved }()
				p := NewPool(1)
				defer p.Close()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				c0 := threadCPU()
				for b.Loop() {
					p.MatVec(out, m, &a)
				}
				b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(rows*cols/32), "cpu-ns/block")
			})
		}
	}
}

// TestMatMulOneActivation checks that a batch of one activation (how the
// engine runs generation) gives exactly what the same activation gets in
// a prompt batch of five, for the types with prompt kernels (Q8_0 through
// the VNNI kernels where the CPU has them, Q4_K), over row counts that
// are not multiples of the kernels' row blocks.
func TestMatMulOneActivation(t *testing.T) {
	if simdTiles == nil {
		t.Skip("no AVX-512 on this CPU")
	}
	r := rand.New(rand.NewPCG(43, 44))
	p := NewPool(2)
	defer p.Close()
	for _, typ := range []DType{Q8_0, Q4_K} {
		for _, sz := range [][2]int{{1, 256}, {11, 512}, {37, 1024}} {
			rows, cols := sz[0], sz[1]
			m, err := NewMatrix(typ, rows, cols, RandomData(typ, rows*cols, 0.5, r))
			if err != nil {
				t.Fatal(err)
			}
			as := make([]Activation, 5)
			batch := make([][]float32, len(as))
			for b := range as {
				x := make([]float32, cols)
				for i := range x {
					x[i] = float32(r.NormFloat64())
				}
				as[b].Set(x)
				batch[b] = make([]float32, rows)
			}
			p.MatMul(batch, m, as)
			for b := range as {
				one := [][]float32{make([]float32, rows)}
				p.MatMul(one, m, as[b:b+1])
				for i := range rows {
					if one[0][i] != batch[b][i] {
						t.Fatalf("%v %dx%d activation %d row %d: alone %v, in the batch %v", typ, rows, cols, b, i, one[0][i], batch[b][i])
					}
				}
			}
		}
	}
}
