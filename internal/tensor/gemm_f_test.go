package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestMatMulF checks the blocked float products against a float64 reading
// of the weights, for every kernel set, with shapes that leave partial
// panels (rows not a multiple of 4), rows the vector kernel cannot take
// (length not a multiple of 8), an odd number of activations and more
// than one block of them, on one and two goroutines.
func TestMatMulF(t *testing.T) { forEachKernels(t, checkMatMulF) }

// checkMatMulF is TestMatMulF with the active kernel set.
func checkMatMulF(t *testing.T) {
	{
		r := rand.New(rand.NewPCG(21, 22))
		for _, typ := range []DType{F32, F16, BF16} {
			for _, sh := range []struct{ rows, cols, batch int }{
				{4, 8, 1}, {7, 16, 3}, {64, 384, 2}, {33, 24, 65}, {12, 12, 5}, {130, 72, 131}, {5, 3, 2}, {8, 40, 3}, {9, 1500, 4},
			} {
				w := RandomData(typ, sh.rows*sh.cols, 0.5, r)
				m, err := NewMatrix(typ, sh.rows, sh.cols, w)
				if err != nil {
					t.Fatal(err)
				}
				ref := refDequant(typ, w, sh.rows*sh.cols)
				xs, outs := make([][]float32, sh.batch), make([][]float32, sh.batch)
				for b := range xs {
					xs[b] = make([]float32, sh.cols)
					for i := range xs[b] {
						xs[b][i] = float32(r.NormFloat64())
					}
					outs[b] = make([]float32, sh.rows)
				}
				for _, threads := range []int{1, 2} {
					p := NewPool(threads)
					p.MatMulF(outs, m, xs)
					p.Close()
					for b, x := range xs {
						for i := range sh.rows {
							var want, mag float64
							for c, v := range x {
								want += ref[i*sh.cols+c] * float64(v)
								mag += math.Abs(ref[i*sh.cols+c] * float64(v))
							}
							if d := math.Abs(float64(outs[b][i]) - want); d > 1e-6*mag+1e-7 {
								t.Fatalf("%v %d×%d batch %d, %d threads: out[%d][%d] = %v; want %v", typ, sh.rows, sh.cols, sh.batch, threads, b, i, outs[b][i], want)
							}
						}
					}
				}
			}
		}
	}
}

// TestMulF32 checks MulF32 against the dot product of each pair.
func TestMulF32(t *testing.T) { forEachKernels(t, checkMulF32) }

// checkMulF32 is TestMulF32 with the active kernel set.
func checkMulF32(t *testing.T) {
	{
		r := rand.New(rand.NewPCG(23, 24))
		for _, sh := range []struct{ rows, k, batch int }{{1500, 64, 9}, {6, 40, 4}, {3, 8, 1}} {
			w := make([]float32, sh.rows*sh.k)
			for i := range w {
				w[i] = float32(r.NormFloat64())
			}
			xs, outs := make([][]float32, sh.batch), make([][]float32, sh.batch)
			for b := range xs {
				xs[b] = make([]float32, sh.k)
				for i := range xs[b] {
					xs[b][i] = float32(r.NormFloat64())
				}
				outs[b] = make([]float32, sh.rows+1)
				outs[b][sh.rows] = 42 // past the rows: must stay
			}
			MulF32(outs, w, xs)
			for b, x := range xs {
				for i := range sh.rows {
					var want, mag float64
					for c, v := range x {
						want += float64(w[i*sh.k+c]) * float64(v)
						mag += math.Abs(float64(w[i*sh.k+c]) * float64(v))
					}
					if d := math.Abs(float64(outs[b][i]) - want); d > 1e-6*mag+1e-7 {
						t.Fatalf("%v: out[%d][%d] = %v; want %v", sh, b, i, outs[b][i], want)
					}
				}
				if outs[b][sh.rows] != 42 {
					t.Fatalf("%v: out[%d] written past its %d rows", sh, b, sh.rows)
				}
			}
		}
	}
}

// BenchmarkMatMulF compares the blocked product with one dot product per
// row and activation (Pool.MatMul) on the Whisper tiny encoder's largest
// shape: 1536×384 weights times 1500 activations, one goroutine.
func BenchmarkMatMulF(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const rows, cols, batch = 1536, 384, 1500
	xs, outs := make([][]float32, batch), make([][]float32, batch)
	acts := make([]Activation, batch)
	for i := range xs {
		xs[i] = make([]float32, cols)
		for j := range xs[i] {
			xs[i][j] = float32(r.NormFloat64())
		}
		outs[i] = make([]float32, rows)
	}
	for _, typ := range []DType{F16, F32} {
		m, _ := NewMatrix(typ, rows, cols, RandomData(typ, rows*cols, 1, r))
		for _, k := range kernelSets() {
			saved := active
			active = k
			for i := range acts {
				acts[i].Set(xs[i])
			}
			active = saved
			for _, name := range []string{"MatMulF", "MatMul"} {
				b.Run(fmt.Sprintf("%v/%s/%s", typ, k.name, name), func(b *testing.B) {
					saved := active
					active = k
					defer func() { active = saved }()
					p := NewPool(1)
					defer p.Close()
					for b.Loop() {
						if name == "MatMulF" {
							p.MatMulF(outs, m, xs)
						} else {
							p.MatMul(outs, m, acts)
						}
					}
					b.ReportMetric(2*rows*cols*batch*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}
