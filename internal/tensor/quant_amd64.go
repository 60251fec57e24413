//go:build amd64 && !purego

package tensor

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// quantBothAVX512 quantizes nsb·256 values of x into both forms of an
// Activation at once (quant_amd64.s): per 32 values d, q, s; per 256 dk,
// qk and per 32 sk. It computes exactly what quantizeActAVX2 and
// quantizeActKAVX2 compute (the same scale, reciprocal, product, rounding
// and sums), reading x once and storing the bytes with VPMOVDB instead of
// one at a time.
//
//go:noescape
func quantBothAVX512(x *float32, nsb int, d *float32, q *int8, s *int32, dk *float32, qk *int8, sk *int32)

func init() {
	// Only with the SIMD kernel set, whose results these equal, or the
	// default build's set with the VNNI kernels (asmSet, chosen in
	// gemm_q8vnni_amd64.go's init, which runs before this one); the
	// generic set keeps its own quantizer, which rounds through float64
	// (see quantizeActGeneric).
	if (simdKernels != nil || asmSet != nil) && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW {
		quantizeBoth = quantBoth
	}
}

func quantBoth(a *Activation) {
	nsb := len(a.F) / qkK
	_, _, _ = a.D[nsb*8-1], a.Q[nsb*qkK-1], a.S[nsb*8-1]
	_, _, _ = a.DK[nsb-1], a.QK[nsb*qkK-1], a.SK[nsb*8-1]
	quantBothAVX512(unsafe.SliceData(a.F), nsb, unsafe.SliceData(a.D), unsafe.SliceData(a.Q), unsafe.SliceData(a.S),
		unsafe.SliceData(a.DK), unsafe.SliceData(a.QK), unsafe.SliceData(a.SK))
}
