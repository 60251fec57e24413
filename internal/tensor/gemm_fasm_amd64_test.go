//go:build amd64 && !purego

package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// forF16CKernels runs f with the "generic+f16c" kernel set active (the
// default build's set on CPUs with AVX2, F16C and FMA), once with 256-bit
// registers and, where the CPU has AVX-512, once with 512-bit ones. It
// skips on other CPUs and in GOEXPERIMENT=simd builds, where the set is
// not formed.
func forF16CKernels(t *testing.T, f func(t *testing.T)) {
	if f16cKernels == nil {
		t.Skip("no generic+f16c kernel set (CPU without AVX2/F16C/FMA, or a SIMD build)")
	}
	widths := []bool{false}
	if hasF16AVX512 {
		widths = append(widths, true)
	}
	for _, wide := range widths {
		name := "avx2"
		if wide {
			name = "avx512"
		}
		t.Run(name, func(t *testing.T) {
			savedK, savedW := active, hasF16AVX512
			active, hasF16AVX512 = f16cKernels, wide
			defer func() { active, hasF16AVX512 = savedK, savedW }()
			f(t)
		})
	}
}

func TestMatMulFAsm(t *testing.T)  { forF16CKernels(t, checkMatMulF) }
func TestMulF32Asm(t *testing.T)   { forF16CKernels(t, checkMulF32) }
func TestRoundF16Asm(t *testing.T) { forF16CKernels(t, checkRoundF16) }

// BenchmarkMatMulFAsm times MatMulF on the Whisper tiny encoder's largest
// shape (1536×384 F16 weights × 1500 activations, one goroutine) with the
// portable panel kernel and the assembly one at both register widths.
func BenchmarkMatMulFAsm(b *testing.B) {
	if f16cKernels == nil {
		b.Skip("no generic+f16c kernel set")
	}
	r := rand.New(rand.NewPCG(1, 2))
	const rows, cols, batch = 1536, 384, 1500
	xs, outs := make([][]float32, batch), make([][]float32, batch)
	for i := range xs {
		xs[i] = make([]float32, cols)
		for j := range xs[i] {
			xs[i][j] = float32(r.NormFloat64())
		}
		outs[i] = make([]float32, rows)
	}
	m, _ := NewMatrix(F16, rows, cols, RandomData(F16, rows*cols, 1, r))
	for _, v := range []struct {
		name string
		k    *kernelSet
		wide bool
	}{{"generic", &generic, false}, {"asm-avx2", f16cKernels, false}, {"asm-avx512", f16cKernels, true}} {
		if v.wide && !hasF16AVX512 {
			continue
		}
		b.Run(v.name, func(b *testing.B) {
			savedK, savedW := active, hasF16AVX512
			active, hasF16AVX512 = v.k, v.wide
			defer func() { active, hasF16AVX512 = savedK, savedW }()
			p := NewPool(1)
			defer p.Close()
			for b.Loop() {
				p.MatMulF(outs, m, xs)
			}
			b.ReportMetric(2*rows*cols*batch*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

func TestSoftmaxF16Asm(t *testing.T) { forF16CKernels(t, checkSoftmaxF16) }

// TestExpSubF32 bounds the assembly exp's relative error on [−87, 0],
// checks the returned sum, and that inputs further down give values
// that round to 0 in half precision.
func TestExpSubF32(t *testing.T) {
	if !hasF16C {
		t.Skip("CPU without AVX2, F16C and FMA")
	}
	const n = 870000 / 7 &^ 7
	x := make([]float32, n)
	for i := range x {
		x[i] = 1.5 - float32(i)*7e-4
	}
	in := append([]float32(nil), x...)
	sum := expSubF32(&x[0], n, 1.5)
	var worst, ref float64
	for i, v := range in {
		want := math.Exp(float64(v) - 1.5)
		ref += want
		worst = max(worst, math.Abs(float64(x[i])-want)/want)
	}
	if worst > 3e-7 {
		t.Errorf("expSubF32: relative error up to %.3g (limit 3e-7)", worst)
	}
	if d := math.Abs(float64(sum)-ref) / ref; d > 1e-5 {
		t.Errorf("expSubF32: sum %v; want %v", sum, ref)
	}
	low := []float32{-88, -100, -1e4, float32(math.Inf(-1)), -87.5, -90, -200, -1e30}
	expSubF32(&low[0], len(low), 0)
	for j, v := range low {
		if v < 0 || F16ToF32(F32ToF16(v)) != 0 {
			t.Errorf("exp(%d-th low input) = %g; want a value that rounds to 0", j, v)
		}
	}
}
