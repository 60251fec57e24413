//go:build amd64 && !purego

package tensor

import "unsafe"

// K-quant row kernels in assembly (kquant_amd64.s) for the build without
// GOEXPERIMENT=simd, whose set otherwise multiplies these types in
// portable Go (30× slower for Q6_K, the type of a Q4_K_M file's output
// matrix, and Q5_K). They do dotQ6_KAVX2's and dotQ5_KAVX2's operations
// (simd_amd64.go) in their order up to the final sum of eight lanes, so
// their results agree with them and with the generic kernels to rounding.

//go:noescape
func dotQ6_KAVX2Asm(w *byte, q *int8, dk *float32, nsb int) float32

//go:noescape
func dotQ5_KAVX2Asm(w *byte, q *int8, dk *float32, sk *int32, nsb int) float32

func init() {
	if f16cKernels != nil { // AVX2, FMA and F16C, and no SIMD set
		f16cKernels.dotQ6_K = dotQ6_KAsm
		f16cKernels.dotQ5_K = dotQ5_KAsm
	}
}

func dotQ6_KAsm(w []byte, a *Activation) float32 {
	nsb := len(a.DK)
	if nsb == 0 {
		return 0
	}
	w = w[:nsb*q6KLen]
	q := a.QK[:nsb*qkK]
	return dotQ6_KAVX2Asm(unsafe.SliceData(w), unsafe.SliceData(q), unsafe.SliceData(a.DK), nsb)
}

func dotQ5_KAsm(w []byte, a *Activation) float32 {
	nsb := len(a.DK)
	if nsb == 0 {
		return 0
	}
	w = w[:nsb*q5KLen]
	q, sk := a.QK[:nsb*qkK], a.SK[:nsb*8]
	return dotQ5_KAVX2Asm(unsafe.SliceData(w), unsafe.SliceData(q), unsafe.SliceData(a.DK), unsafe.SliceData(sk), nsb)
}
