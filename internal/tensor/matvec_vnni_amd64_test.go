//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// BenchmarkQ8_0MatVecVNNI times Q8_0 matrix-vector products (one thread)
// with the kernel set's row kernel (dotQ8_0AVX2 in the SIMD build, the
// portable one otherwise), the archsimd kernel (raw4x1Q8_0AVX512, SIMD
// build) and the VNNI kernel, in thread CPU time per block of 32
// products: 1024×1024 (in the second-level cache), 4096×1024 (4.4 MB) and
// 32768×1024 (35 MB, from memory).
func BenchmarkQ8_0MatVecVNNI(b *testing.B) {
	tv, k := vnniTiles()
	if tv == nil {
		b.Skip("no AVX512-VNNI on this CPU")
	}
	saved := active
	active = k
	defer func() { active = saved }()
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
		for _, kind := range []string{"row", "archsimd", "vnni"} {
			if kind == "archsimd" && (*tv).raw4x1Q8_0 == nil {
				continue
			}
			b.Run(fmt.Sprintf("%dx%d/%s", rows, cols, kind), func(b *testing.B) {
				saved := *tv
				plain := **tv
				plain.vec8Q8_0V = nil
				switch kind {
				case "row":
					*tv = nil
				case "archsimd":
					*tv = &plain
				}
				defer func() { *tv = saved }()
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
// the VNNI kernels where the CPU has them, Q4_K in the SIMD build), over
// row counts that are not multiples of the kernels' row blocks.
func TestMatMulOneActivation(t *testing.T) {
	if active.tiles() == nil {
		t.Skip("no tile kernels in this build on this CPU")
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
			as, batch := randomActivations(r, 5, cols, rows)
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
