//go:build goexperiment.simd && amd64 && !purego

package tensor

import "unsafe"

// The Q8_0 matrix-vector product of generation on CPUs with AVX512-VNNI:
// eight rows read as stored (no decoded copy) times one activation
// prepared once per product by prepQ8_0VNNI. Per pair of blocks and row:
// the weights with their top bit flipped (weight + 128, unsigned), one
// VPDPBUSD starting from the activation's −128·Σa correction (the exact
// integer sums), then the conversion, the product of the two scales
// (the row's converted from f16 in the loop) and a multiply-add, the
// operations of the prompt kernel dot4x4Q8_0VNNI in its order, and the
// same final reduction: a matrix-vector product equals the batch's result
// for the same row and activation. Eight rows per call (eight independent
// chains of multiply-adds, the activation's operands loaded once for
// eight rows) run at 0.9 against 1.5–1.8 ns per block for the archsimd
// kernel raw4x1Q8_0AVX512 with the matrix in cache, 1.4–1.5 against 2.0
// for a 4 MB matrix (BenchmarkQ8_0MatVecVNNI). Each row is prefetched 512
// bytes ahead: in the engine, where the weights come from memory, that
// made generation 1.25× faster per CPU-second; without it the kernel was
// 4 % slower there than the archsimd one despite the figures above.

// vec8Q8_0VNNIAsm multiplies the eight Q8_0 rows at rows (np pairs of
// blocks each) by the prepared activation x; out[r] holds row r's four
// partial sums.
//
//go:noescape
func vec8Q8_0VNNIAsm(rows *[8]unsafe.Pointer, x unsafe.Pointer, np int, out *[8][4]float32)

// vec8Q8_0VNNI multiplies eight Q8_0 rows as stored (w[r], all of the
// same length, a multiple of two blocks) by an activation prepared by
// prepQ8_0VNNI: out[r] is row r times the activation, with
// dot4x4Q8_0VNNI's result.
func vec8Q8_0VNNI(w *[8][]byte, x []byte, out *[8]float32) {
	np := len(w[0]) / (2 * q80Len)
	if np == 0 {
		*out = [8]float32{}
		return
	}
	var rp [8]unsafe.Pointer
	var s [8][4]float32
	_ = x[np*prepQ8_0VPair-1]
	for k := range w {
		_ = w[k][np*2*q80Len-1]
		rp[k] = unsafe.Pointer(&w[k][0])
	}
	vec8Q8_0VNNIAsm(&rp, unsafe.Pointer(&x[0]), np, &s)
	for k := range out {
		out[k] = (s[k][0] + s[k][1]) + (s[k][2] + s[k][3])
	}
}
