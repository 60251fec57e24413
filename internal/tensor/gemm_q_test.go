package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
)

// tiled reports whether products of typ take the kernels of gemm_q.go,
// whose results differ from DotRow's by rounding.
func tiled(typ DType) bool {
	return active.tiles() != nil && (typ == Q8_0 || typ == Q4_K)
}

// threadCPU returns the calling thread's CPU time in nanoseconds (0 where
// the system does not report it).
func threadCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestMatMulTiles checks prompt batches of Q8_0 and Q4_K rows (the kernels
// of gemm_q.go where the build has them) against the float64 reference and
// the single-row kernels, within float rounding (they add in another
// order); MatVec must give MatMul's results exactly (generation and prompt
// agree). The last activation repeats
// the first, so a tile's result and the single kernel's for the same pair
// meet in one batch and must be equal.
func TestMatMulTiles(t *testing.T) {
	forEachKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		p := NewPool(2)
		defer p.Close()
		for _, typ := range []DType{Q8_0, Q4_K} {
			for _, cols := range []int{256, 384, 512, 1024, 96} {
				if typ == Q4_K && cols%qkK != 0 {
					continue
				}
				for _, batch := range []int{4, 5, 9} {
					rows := 7 // odd: the last row has no partner
					m, err := NewMatrix(typ, rows, cols, RandomData(typ, rows*cols, 0.5, r))
					if err != nil {
						t.Fatal(err)
					}
					as := make([]Activation, batch)
					outs := make([][]float32, batch)
					for b := range as {
						x := make([]float32, cols)
						for i := range x {
							x[i] = float32(r.NormFloat64())
						}
						if b == batch-1 {
							x = as[0].F
						}
						as[b].Set(x)
						outs[b] = make([]float32, rows)
					}
					p.MatMul(outs, m, as)
					// Generation (MatVec) must agree with the prompt batch.
					vec := make([]float32, rows)
					p.MatVec(vec, m, &as[0])
					for i := range rows {
						if vec[i] != outs[0][i] {
							t.Fatalf("%v cols %d batch %d row %d: MatVec %v, MatMul %v", typ, cols, batch, i, vec[i], outs[0][i])
						}
					}
					for b := range as {
						for i := range rows {
							got := outs[b][i]
							want, mag := refDot(typ, m.Row(i), &as[b])
							if d := math.Abs(float64(got) - want); d > 1e-5*mag+1e-6 {
								t.Fatalf("%v cols %d batch %d: out[%d][%d] = %v; want %v", typ, cols, batch, b, i, got, want)
							}
							single := m.DotRow(i, &as[b])
							if d := math.Abs(float64(got - single)); d > 1e-5*mag {
								t.Fatalf("%v cols %d batch %d: out[%d][%d] = %v; DotRow %v", typ, cols, batch, b, i, got, single)
							}
						}
					}
					if batch > 4 {
						for i := range rows {
							if outs[batch-1][i] != outs[0][i] {
								t.Fatalf("%v cols %d batch %d row %d: single kernel %v, tile %v", typ, cols, batch, i, outs[batch-1][i], outs[0][i])
							}
						}
					}
				}
			}
		}
	})
}

// BenchmarkMatMulTiles multiplies a 1024×1024 matrix by 64 activations (a
// prompt batch) with and without the tile kernels, one thread.
func BenchmarkMatMulTiles(b *testing.B) {
	benchTiles(b, 1024, 1024, 64)
}

// BenchmarkMatMulTilesCached is BenchmarkMatMulTiles with operands that
// stay in the first-level cache: the kernels' arithmetic alone.
func BenchmarkMatMulTilesCached(b *testing.B) {
	benchTiles(b, 16, 512, 8)
}

func benchTiles(b *testing.B, rows, cols, batch int) {
	r := rand.New(rand.NewPCG(3, 4))
	as, outs := randomActivations(r, batch, cols, rows)
	for _, typ := range []DType{Q8_0, Q4_K} {
		m, _ := NewMatrix(typ, rows, cols, RandomData(typ, rows*cols, 1, r))
		for _, tiles := range []bool{false, true} {
			if tiles && simdTiles == nil {
				continue
			}
			b.Run(fmt.Sprintf("%v/tiles=%v", typ, tiles), func(b *testing.B) {
				saved := simdTiles
				if !tiles {
					simdTiles = nil
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
