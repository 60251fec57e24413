//go:build goexperiment.simd && amd64

package tensor

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// BenchmarkTileKernels times the Q8_0 prompt tile against the four-activation
// kernel it replaces, on two rows of 1024 values in the first-level cache,
// in thread CPU time per block of 32 products.
func BenchmarkTileKernels(b *testing.B) {
	if simdTiles == nil {
		b.Skip("no tiles")
	}
	const cols = 1024
	r := rand.New(rand.NewPCG(5, 6))
	var as [4]Activation
	var a4 [4]*Activation
	for k := range as {
		x := make([]float32, cols)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		as[k].Set(x)
		a4[k] = &as[k]
	}
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c0 := threadCPU()
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(8*cols/32), "cpu-ns/block")
		})
	}
	w8 := RandomData(Q8_0, 2*cols, 1, r)
	d0, d1 := make([]byte, decQ8_0Len(cols)), make([]byte, decQ8_0Len(cols))
	decQ8_0AVX512(w8[:cols/32*34], d0)
	decQ8_0AVX512(w8[cols/32*34:], d1)
	var q4, x4 [4][]byte
	for k := range 4 {
		q4[k] = int8Bytes(as[k].Q)
		x4[k] = make([]byte, prepQ8_0Len(cols))
		prepQ8_0AVX512(&as[k], x4[k])
	}
	var out [8]float32
	run("Q8_0/tile2x4", func() { dot2x4Q8_0AVX512(d0, d1, &q4, &x4, &out) })
	run("Q8_0/dot4x2", func() {
		var o4 [4]float32
		dot4Q8_0AVX2(w8[:cols/32*34], &a4, &o4)
		dot4Q8_0AVX2(w8[cols/32*34:], &a4, &o4)
	})
}

// BenchmarkGenKernels times the generation (matrix-vector) kernels on one
// row of 1024 values in the first-level cache, in thread CPU time per block
// of 32 products.
func BenchmarkGenKernels(b *testing.B) {
	const cols = 1024
	r := rand.New(rand.NewPCG(7, 8))
	x := make([]float32, cols)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	var a Activation
	a.Set(x)
	for _, c := range []struct {
		t   DType
		dot func([]byte, *Activation) float32
	}{{Q8_0, dotQ8_0AVX2}, {Q4_K, dotQ4_KAVX2}} {
		w := RandomData(c.t, cols, 1, r)
		b.Run(c.t.String(), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c0 := threadCPU()
			for b.Loop() {
				c.dot(w, &a)
			}
			b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(cols/32), "cpu-ns/block")
		})
	}
	if simdTiles == nil {
		return
	}
	w := RandomData(Q8_0, 4*cols, 1, r)
	var d4 [4][]byte
	for k := range d4 {
		d4[k] = make([]byte, decQ8_0Len(cols))
	}
	x4 := make([]byte, prepQ8_0Len(cols))
	var out [4]float32
	b.Run("Q8_0/decode+4x1", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := threadCPU()
		for b.Loop() {
			prepQ8_0AVX512(&a, x4)
			for k := range d4 {
				decQ8_0AVX512(w[k*cols/32*q80Len:(k+1)*cols/32*q80Len], d4[k])
			}
			dot4x1Q8_0AVX512(&d4, int8Bytes(a.Q), x4, &out)
		}
		b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(4*cols/32), "cpu-ns/block")
	})
	var w4 [4][]byte
	for k := range w4 {
		w4[k] = w[k*cols/32*q80Len : (k+1)*cols/32*q80Len]
	}
	b.Run("Q8_0/raw4x1", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := threadCPU()
		for b.Loop() {
			raw4x1Q8_0AVX512(&w4, int8Bytes(a.Q), a.D, &out)
		}
		b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(4*cols/32), "cpu-ns/block")
	})
	wk := RandomData(Q4_K, cols, 1, r)
	qp := make([]byte, cols)
	permQKAVX512(&a, qp)
	sk := make([]float32, cols/32)
	prepQ4_KAVX512(&a, sk)
	b.Run("Q4_K/vec512", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := threadCPU()
		for b.Loop() {
			vecQ4_KAVX512(wk, qp, &a, sk)
		}
		b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(cols/32), "cpu-ns/block")
	})
	dec := make([]byte, decQ4_KLen(cols))
	decQ4_KMinAVX512(wk, dec)
	b.Run("Q4_K/dotDecMin", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := threadCPU()
		for b.Loop() {
			dotDecQ4_KMinAVX512(dec, &a, sk)
		}
		b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(cols/32), "cpu-ns/block")
	})
	decQ4_KAVX2(wk, dec)
	b.Run("Q4_K/dotDec", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := threadCPU()
		for b.Loop() {
			dotDecQ4_KAVX512(dec, &a)
		}
		b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(cols/32), "cpu-ns/block")
	})
}
