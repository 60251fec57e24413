//go:build amd64 && !purego

package tensor

import "unsafe"

// The Q8_0 matrix-vector product of generation on CPUs with AVX512-VNNI:
// eight rows read as stored (no decoded copy) times one activation
// prepared once per product by prepQ8_0VNNI. Per group of 16 blocks and
// row the kernel transposes the row's weights into the lane layout of
// gemm_q8vnni_amd64.go as it loads them (eight loads, eight insertions,
// eight shuffles across 128-bit chunks and sixteen within them), flips
// their top bits, gathers and converts the 16 f16 scales, and then runs
// the prompt kernel's operations in its order: eight VPDPBUSDs from the
// activation's correction, a conversion, the product with the
// activation's scales, a multiply-add with the row's. The lanes are added
// by the same reduce16Asm: a matrix-vector product equals the batch's
// result for the same row and activation. A last partial group is copied
// into zero-padded rows first, as the prompt path pads it. Each row is
// prefetched one group (544 bytes) ahead.

// vec8Q8_0VNNIAsm adds the ng groups of the eight Q8_0 rows at rows
// times the prepared activation x to the lane accumulators acc.
//
//go:noescape
func vec8Q8_0VNNIAsm(rows *[8]unsafe.Pointer, x unsafe.Pointer, ng int, acc *[8][16]float32)

// vec8Q8_0VNNI multiplies eight Q8_0 rows as stored (w[r], all of the
// same length, whole blocks) by an activation prepared by prepQ8_0VNNI:
// out[r] is row r times the activation, with dot4x4Q8_0VNNI's result.
func vec8Q8_0VNNI(w *[8][]byte, x []byte, out *[8]float32) {
	nb := len(w[0]) / q80Len
	ng := nb / q8VGroup
	var rp [8]unsafe.Pointer
	var acc [8][16]float32
	if ng > 0 {
		_ = x[ng*prepQ8_0VGroup-1]
		for k := range w {
			_ = w[k][ng*q8VGroup*q80Len-1]
			rp[k] = unsafe.Pointer(&w[k][0])
		}
		vec8Q8_0VNNIAsm(&rp, unsafe.Pointer(&x[0]), ng, &acc)
	}
	if nb > ng*q8VGroup {
		var pad [8][q8VGroup * q80Len]byte // prefetches past it do not fault
		for k := range w {
			copy(pad[k][:], w[k][ng*q8VGroup*q80Len:nb*q80Len])
			rp[k] = unsafe.Pointer(&pad[k][0])
		}
		_ = x[(ng+1)*prepQ8_0VGroup-1]
		vec8Q8_0VNNIAsm(&rp, unsafe.Pointer(&x[ng*prepQ8_0VGroup]), 1, &acc)
	}
	reduce16Asm(unsafe.Pointer(&acc), 8, unsafe.Pointer(out))
}
