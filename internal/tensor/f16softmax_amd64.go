//go:build amd64 && !purego

package tensor

import (
	"math"
	"unsafe"
)

// SoftmaxF16's kernel in assembly for CPUs with AVX2, F16C and FMA (both
// builds; see f16asm_amd64.go): the maximum, exp and sum, and the scaled
// rounding to half precision over groups of eight values, with the
// rounding of VCVTPS2PH. The last len(x) mod 8 values take
// softmaxF16Generic's scalar steps.
//
// The exp (expSubF32) is e^x for x ≤ 0 (inputs below −87.33 give about
// 1.2e−38, which rounds to 0 in half precision): x = n·ln 2 + r with
// |r| ≤ ln 2 / 2 (ln 2 split in two parts, Cody and Waite's reduction), e^r
// from its Taylor polynomial of degree 6 (error below 2e−7 relative), and
// 2^n built in the exponent bits.

//go:noescape
func maxF32(x *float32, n int) float32

//go:noescape
func expSubF32(x *float32, n int, m float32) float32

//go:noescape
func scaleRoundF16(x *float32, n int, s float32)

func softmaxF16Asm(x []float32) {
	n8 := len(x) &^ 7
	if n8 == 0 {
		softmaxF16Generic(x)
		return
	}
	p := unsafe.SliceData(x)
	mx := maxF32(p, n8)
	for _, v := range x[n8:] {
		mx = max(mx, v)
	}
	sum := float64(expSubF32(p, n8, mx))
	for i := n8; i < len(x); i++ {
		e := float32(math.Exp(float64(x[i] - mx)))
		x[i] = e
		sum += float64(e)
	}
	inv := float32(1 / sum)
	scaleRoundF16(p, n8, inv)
	for i := n8; i < len(x); i++ {
		x[i] = F16ToF32(F32ToF16(x[i] * inv))
	}
}
