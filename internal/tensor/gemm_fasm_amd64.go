//go:build amd64 && !purego

package tensor

import "unsafe"

// The float matrix × matrix panel kernel (kernelSet.gemm4) and the
// half-precision rounding (kernelSet.roundF16) in assembly, so that builds
// without GOEXPERIMENT=simd multiply the Whisper encoder's matrices with
// AVX2 and FMA (or AVX-512) too. f16asm_amd64.go puts them in the
// "generic+f16c" set; they need the same CPU features as that set's F16
// dot product (AVX2, F16C, FMA), which it checks.

//go:noescape
func gemm4x2F32(w *float32, k, kv int, x0, x1, o0, o1 *float32)

//go:noescape
func gemm4x2F32AVX512(w *float32, k, kv int, x0, x1, o0, o1 *float32)

//go:noescape
func roundF16F16C(x *float32, n int)

// gemm4Asm is gemm4Generic with the assembly kernel: four packed rows
// (len(w)/4 values each) times the activations two at a time, the last
// odd one paired with itself. The vector loop covers the largest
// multiple of 8 (16 with AVX-512) of the row length; the products past it
// are added in Go afterwards.
func gemm4Asm(w []float32, xs, outs [][]float32, i0 int) {
	k := len(w) / gemmPanel
	wide := hasF16AVX512
	step := 8
	if wide {
		step = 16
	}
	kv := k / step * step
	if kv == 0 {
		gemm4Generic(w, xs, outs, i0)
		return
	}
	w = w[:gemmPanel*k]
	pw := unsafe.SliceData(w)
	var spare [4]float32
	for j := 0; j < len(xs); j += 2 {
		x0, o0 := xs[j][:k], outs[j][i0:i0+4]
		x1, o1 := x0, spare[:]
		if j+1 < len(xs) {
			x1, o1 = xs[j+1][:k], outs[j+1][i0:i0+4]
		}
		// Direct calls (not through a func value), so that spare stays on
		// the stack.
		if wide {
			gemm4x2F32AVX512(pw, k, kv, unsafe.SliceData(x0), unsafe.SliceData(x1), unsafe.SliceData(o0), unsafe.SliceData(o1))
		} else {
			gemm4x2F32(pw, k, kv, unsafe.SliceData(x0), unsafe.SliceData(x1), unsafe.SliceData(o0), unsafe.SliceData(o1))
		}
	}
	gemm4Tail(w, k, kv, xs, outs, i0)
}

// roundF16Asm is roundF16Generic with F16C: eight values per instruction
// pair, the rest through the table.
func roundF16Asm(x []float32) {
	n := len(x) &^ 7
	if n > 0 {
		roundF16F16C(unsafe.SliceData(x), n)
	}
	for i := n; i < len(x); i++ {
		x[i] = F16ToF32(F32ToF16(x[i]))
	}
}
