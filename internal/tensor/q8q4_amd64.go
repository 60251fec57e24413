//go:build amd64 && !purego

package tensor

import "unsafe"

// Q8_0 and Q4_0 row kernels in assembly (q8q4_amd64.s) on CPUs with AVX2,
// FMA and F16C. Without GOEXPERIMENT=simd both ran in portable Go (Q8_0
// products take the VNNI tiles where the CPU has AVX512-VNNI); the SIMD
// build takes the Q4_0 one too (its archsimd form was 3× slower) and keeps
// its own Q8_0 kernel, which its four-activation kernel matches bit for
// bit. Per 32-value block
// eight int32 sums, converted and added times the two scales to eight
// float sums: results agree with the generic kernels to rounding.

//go:noescape
func dotQ8_0AVX2Asm(w *byte, q *int8, d *float32, nb int) float32

//go:noescape
func dotQ4_0AVX2Asm(w *byte, q *int8, d *float32, nb int) float32

func init() {
	if f16cKernels != nil { // AVX2, FMA and F16C, and no SIMD set
		f16cKernels.dotQ8_0 = dotQ8_0Asm
	}
	for _, k := range []*kernelSet{f16cKernels, simdKernels} { // either is nil
		if k != nil && hasF16C {
			k.dotQ4_0 = dotQ4_0Asm // the SIMD set's too: 3× its archsimd form
		}
	}
}

func dotQ8_0Asm(w []byte, a *Activation) float32 {
	nb := len(a.D)
	if nb == 0 {
		return 0
	}
	w, q := w[:nb*q80Len], a.Q[:nb*qk]
	return dotQ8_0AVX2Asm(unsafe.SliceData(w), unsafe.SliceData(q), unsafe.SliceData(a.D), nb)
}

func dotQ4_0Asm(w []byte, a *Activation) float32 {
	nb := len(a.D)
	if nb == 0 {
		return 0
	}
	w, q := w[:nb*q40Len], a.Q[:nb*qk]
	return dotQ4_0AVX2Asm(unsafe.SliceData(w), unsafe.SliceData(q), unsafe.SliceData(a.D), nb)
}
