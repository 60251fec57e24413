//go:build amd64 && !purego

package tensor

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Half-precision dot products in assembly. archsimd has no VCVTPH2PS, so
// dotF16AVX2 converts weights with about eleven integer and float vector
// instructions per eight; the F16C instruction converts eight (or, with
// AVX-512, sixteen) in one, exactly, and a fused multiply-add follows.
// The kernel, the assembly float matrix × matrix panel and half-precision
// rounding of gemm_fasm_amd64.go and the softmax of f16softmax_amd64.go
// replace the SIMD set's (GOEXPERIMENT=simd; measured there: panel 2×,
// rounding 3×, softmax 1.3× the archsimd forms they replaced), and in builds
// without the experiment they form their own set ("generic+f16c", the
// portable kernels with these), so that both builds use them where the CPU
// can.
//
// The four sums add in another order than dotF16Generic's or
// dotF16AVX2's: results agree to rounding, not bit for bit.

// hasF16C reports whether the CPU and the operating system support the
// instructions of dotF16F16C (AVX2 registers, F16C and FMA).
var hasF16C = cpu.X86.HasAVX2 && cpu.X86.HasF16C && cpu.X86.HasFMA

// hasF16AVX512 reports whether dotF16AVX512 can run.
var hasF16AVX512 = hasF16C && cpu.X86.HasAVX512F

// f16cKernels is the portable kernel set with the assembly F16 dot
// product, used in builds without the SIMD set (nil otherwise).
var f16cKernels *kernelSet

func init() {
	if !hasF16C {
		return
	}
	if simdKernels != nil {
		simdKernels.dotF16 = dotF16Asm
		simdKernels.dotBF16 = dotBF16Asm // 2.4× its archsimd form
		simdKernels.gemm4 = gemm4Asm
		simdKernels.roundF16 = roundF16Asm
		simdKernels.softmaxF16 = softmaxF16Asm
		return
	}
	k := generic
	k.name = "generic+f16c"
	k.dotF16 = dotF16Asm
	k.dotBF16 = dotBF16Asm
	k.dotF32 = dotF32Asm
	k.gemm4 = gemm4Asm // gemm_fasm_amd64.go
	k.roundF16 = roundF16Asm
	k.softmaxF16 = softmaxF16Asm // f16softmax_amd64.go
	f16cKernels = &k
	active = f16cKernels
}

//go:noescape
func dotF16F16C(w *byte, x *float32, n int) float32

//go:noescape
func dotF16AVX512(w *byte, x *float32, n int) float32

// dotF16Asm is the dotF16 kernel: the assembly loop over whole groups of
// eight (sixteen with AVX-512) values, then the rest one by one.
func dotF16Asm(w []byte, x []float32) float32 {
	n := len(x)
	w = w[:2*n]
	var s float32
	m := n &^ 7
	if hasF16AVX512 {
		m = n &^ 15
		if m > 0 {
			s = dotF16AVX512(unsafe.SliceData(w), unsafe.SliceData(x), m)
		}
	} else if m > 0 {
		s = dotF16F16C(unsafe.SliceData(w), unsafe.SliceData(x), m)
	}
	for i := m; i < n; i++ {
		s += F16ToF32(uint16(w[2*i])|uint16(w[2*i+1])<<8) * x[i]
	}
	return s
}

//go:noescape
func dotBF16AVX2Asm(w *byte, x *float32, n int) float32

//go:noescape
func dotF32AVX2Asm(w *float32, x *float32, n int) float32

// dotBF16Asm is the dotBF16 kernel of the "generic+f16c" set: the
// assembly loop over whole groups of eight values, then the rest one by
// one.
func dotBF16Asm(w []byte, x []float32) float32 {
	n := len(x)
	w = w[:2*n]
	var s float32
	m := n &^ 7
	if m > 0 {
		s = dotBF16AVX2Asm(unsafe.SliceData(w), unsafe.SliceData(x), m)
	}
	for i := m; i < n; i++ {
		s += BF16ToF32(uint16(w[2*i])|uint16(w[2*i+1])<<8) * x[i]
	}
	return s
}

// dotF32Asm is the dotF32 kernel of the "generic+f16c" set, as dotBF16Asm.
func dotF32Asm(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	var s float32
	m := n &^ 7
	if m > 0 {
		s = dotF32AVX2Asm(unsafe.SliceData(a), unsafe.SliceData(b), m)
	}
	for i := m; i < n; i++ {
		s += a[i] * b[i]
	}
	return s
}
