package tensor

import "math"

// SoftmaxF16 replaces x by its softmax with each probability rounded to
// half precision, as whisper.cpp's attention (non-flash path) computes its
// probabilities before an F16 matrix product. The generic kernel
// evaluates exp in float64 and sums in float64; the AVX2 kernel evaluates
// exp in float32 vectors (within two float32 rounding steps of the exact
// value), so the two may differ by one half-precision step at a rounding
// boundary.
func SoftmaxF16(x []float32) {
	if len(x) > 0 {
		active.softmaxF16(x)
	}
}

func softmaxF16Generic(x []float32) {
	mx := float32(math.Inf(-1))
	for _, v := range x {
		mx = max(mx, v)
	}
	var sum float64
	for i, v := range x {
		e := float32(math.Exp(float64(v - mx)))
		x[i] = e
		sum += float64(e)
	}
	inv := float32(1 / sum)
	for i, v := range x {
		x[i] = F16ToF32(F32ToF16(v * inv))
	}
}
