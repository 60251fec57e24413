//go:build amd64 && !purego

package tensor

import "unsafe"

// The Q5_0 and Q5_1 row kernels in assembly (q5_amd64.s), used in both
// builds on CPUs with AVX2 (and F16C and FMA, which they also use). They
// add the blocks' products in float32 vectors of eight, so their results
// agree with dotQ5_0Generic's and dotQ5_1Generic's to rounding, not bit
// for bit.

//go:noescape
func dotQ5_0AVX2(w *byte, q *int8, d *float32, nb int) float32

//go:noescape
func dotQ5_1AVX2(w *byte, q *int8, d *float32, nb int) float32

func init() {
	if hasF16C {
		dotQ5_0, dotQ5_1 = dotQ5_0Asm, dotQ5_1Asm
	}
}

func dotQ5_0Asm(w []byte, a *Activation) float32 {
	nb := len(a.D)
	if nb == 0 {
		return 0
	}
	w = w[:nb*q50Len]
	q := a.Q[:nb*qk]
	return dotQ5_0AVX2(unsafe.SliceData(w), unsafe.SliceData(q), unsafe.SliceData(a.D), nb)
}

func dotQ5_1Asm(w []byte, a *Activation) float32 {
	nb := len(a.D)
	if nb == 0 {
		return 0
	}
	w = w[:nb*q51Len]
	q := a.Q[:nb*qk]
	s := a.S[:nb]
	var m float32
	for b, da := range a.D {
		m += F16ToF32(le16(w[b*q51Len+2:])) * da * float32(s[b])
	}
	return dotQ5_1AVX2(unsafe.SliceData(w), unsafe.SliceData(q), unsafe.SliceData(a.D), nb) + m
}
