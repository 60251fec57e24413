//go:build amd64 && !purego

package tensor

import "unsafe"

// K-quant row kernels in assembly (kquant_amd64.s), in both builds on CPUs
// with AVX2, FMA and F16C: without GOEXPERIMENT=simd these types ran in
// portable Go before (30× slower for Q6_K, the type of a Q4_K_M file's
// output matrix, and Q5_K), and they are faster than the archsimd forms
// they replaced in the SIMD set. Per super-block the integer sum of the
// scaled sub-block products in eight int32 lanes, converted and added
// times d·dk (and, for Q5_K, the mins' term) to eight float sums, added up
// as hsumClear does: the Q6_K kernel's results equal dot4Q6_KAVX2's (the
// SIMD set's prompt kernel) bit for bit, and agree with the generic
// kernels to rounding.

//go:noescape
func dotQ6_KAVX2Asm(w *byte, q *int8, dk *float32, nsb int) float32

//go:noescape
func dotQ5_KAVX2Asm(w *byte, q *int8, dk *float32, sk *int32, nsb int) float32

//go:noescape
func dotQ4_KAVX2Asm(w *byte, q *int8, dk *float32, sk *int32, nsb int) float32

func init() {
	for _, k := range []*kernelSet{f16cKernels, simdKernels} { // either is nil
		if k != nil && hasF16C {
			k.dotQ6_K = dotQ6_KAsm
			k.dotQ5_K = dotQ5_KAsm
		}
	}
	if f16cKernels != nil { // the SIMD set's Q4_K kernel pairs with its dot4Q4_K
		f16cKernels.dotQ4_K = dotQ4_KAsm
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

func dotQ5_KAsm(w []byte, a *Activation) float32 { return dotKMinAsm(dotQ5_KAVX2Asm, q5KLen, w, a) }

func dotQ4_KAsm(w []byte, a *Activation) float32 { return dotKMinAsm(dotQ4_KAVX2Asm, q4KLen, w, a) }

// dotKMinAsm runs kernel, a K-quant kernel with mins (Q4_K, Q5_K: super-
// blocks of blockLen bytes), over the row w and the activation a.
func dotKMinAsm(kernel func(w *byte, q *int8, dk *float32, sk *int32, nsb int) float32, blockLen int, w []byte, a *Activation) float32 {
	nsb := len(a.DK)
	if nsb == 0 {
		return 0
	}
	w = w[:nsb*blockLen]
	q, sk := a.QK[:nsb*qkK], a.SK[:nsb*8]
	return kernel(unsafe.SliceData(w), unsafe.SliceData(q), unsafe.SliceData(a.DK), unsafe.SliceData(sk), nsb)
}
