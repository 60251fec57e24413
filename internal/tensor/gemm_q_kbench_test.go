//go:build goexperiment.simd && amd64

package tensor

import (
	"math/rand/v2"
	"runtime"
	"simd/archsimd"
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

// BenchmarkMultiplyAddFloor times six independent chains of 512-bit
// VPMADDUBSW + VPMADDWD over first-level-cache operands: the floor of any
// int8 kernel here without VNNI, reported per block of 32 products.
func BenchmarkMultiplyAddFloor(b *testing.B) {
	if !archsimd.X86.AVX512() {
		b.Skip("no AVX-512")
	}
	var buf [6][64]int8
	for i := range buf {
		for j := range buf[i] {
			buf[i][j] = int8(i + j)
		}
	}
	w, s := archsimd.BroadcastUint8x64(3), archsimd.BroadcastInt16x32(1)
	const n = 1 << 12
	var sink [16]int32
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadCPU()
	for b.Loop() {
		var a0, a1, a2, a3, a4, a5 archsimd.Int32x16
		for range n {
			a0 = a0.Add(w.DotProductPairsSaturated(archsimd.LoadInt8x64(&buf[0])).DotProductPairs(s))
			a1 = a1.Add(w.DotProductPairsSaturated(archsimd.LoadInt8x64(&buf[1])).DotProductPairs(s))
			a2 = a2.Add(w.DotProductPairsSaturated(archsimd.LoadInt8x64(&buf[2])).DotProductPairs(s))
			a3 = a3.Add(w.DotProductPairsSaturated(archsimd.LoadInt8x64(&buf[3])).DotProductPairs(s))
			a4 = a4.Add(w.DotProductPairsSaturated(archsimd.LoadInt8x64(&buf[4])).DotProductPairs(s))
			a5 = a5.Add(w.DotProductPairsSaturated(archsimd.LoadInt8x64(&buf[5])).DotProductPairs(s))
		}
		a0.Add(a1).Add(a2).Add(a3).Add(a4).Add(a5).Store(&sink)
	}
	b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(n*6*2), "cpu-ns/block")
}
