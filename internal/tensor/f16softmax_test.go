package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSoftmaxF16 checks every kernel set's SoftmaxF16 against a float64
// softmax rounded to half precision: every result must be a half-precision
// value within one half-precision step of the reference, and most must
// equal it.
func TestSoftmaxF16(t *testing.T) { forEachKernels(t, checkSoftmaxF16) }

// checkSoftmaxF16 is TestSoftmaxF16 with the active kernel set.
func checkSoftmaxF16(t *testing.T) {
	{
		r := rand.New(rand.NewPCG(31, 32))
		for _, n := range []int{1, 5, 8, 9, 15, 16, 17, 64, 100, 449, 1500} {
			for _, spread := range []float64{0.1, 4, 40} {
				x := make([]float32, n)
				for i := range x {
					x[i] = float32(r.NormFloat64() * spread)
				}
				mx := math.Inf(-1)
				for _, v := range x {
					mx = max(mx, float64(v))
				}
				ref := make([]float64, n)
				var sum float64
				for i, v := range x {
					ref[i] = math.Exp(float64(v) - mx)
					sum += ref[i]
				}
				SoftmaxF16(x)
				same := 0
				for i, v := range x {
					want := ref[i] / sum
					if F16ToF32(F32ToF16(v)) != v {
						t.Fatalf("n=%d: p[%d] = %v is not a half-precision value", n, i, v)
					}
					step := max(0x1p-24, math.Abs(want)*0x1p-10)
					if d := math.Abs(float64(v) - want); d > step {
						t.Fatalf("n=%d spread %v: p[%d] = %v; want %v (more than one step %g)", n, spread, i, v, want, step)
					}
					if v == F16ToF32(F32ToF16(float32(want))) {
						same++
					}
				}
				if same < n*95/100 {
					t.Errorf("n=%d spread %v: only %d of %d probabilities equal the rounded reference", n, spread, same, n)
				}
			}
		}
	}
}
