package tensor

// RoundF16 rounds every value of x in place to the nearest half-precision
// value (ties to even; beyond half precision's range to infinity; NaN
// stays NaN), as F16ToF32(F32ToF16(v)) does. Whisper's engine rounds the
// inputs of F16 matrix products this way, as whisper.cpp stores them in
// half precision.
func RoundF16(x []float32) {
	if len(x) > 0 {
		active.roundF16(x)
	}
}

func roundF16Generic(x []float32) {
	for i, v := range x {
		x[i] = F16ToF32(F32ToF16(v))
	}
}
