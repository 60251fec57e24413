package tensor

import (
	"math"
	"testing"
)

// TestRoundF16 compares every kernel set's RoundF16 with F32ToF16 and back
// on float32 values of both signs: a stride through all bit patterns
// (zeros, subnormals, normals, the overflow range, infinities, NaNs), and
// every value one float32 step around each halfway point between
// neighbouring half-precision values, where ties go to even. The slice
// length is not a multiple of eight, so the scalar tail runs too.
func TestRoundF16(t *testing.T) { forEachKernels(t, checkRoundF16) }

// checkRoundF16 is TestRoundF16 with the active kernel set.
func checkRoundF16(t *testing.T) {
	var vals []float32
	for b := uint64(0); b <= math.MaxUint32; b += 65521 {
		vals = append(vals, math.Float32frombits(uint32(b)))
	}
	for h := uint16(0); h < 0x7bff; h++ {
		mid := float32((float64(F16ToF32(h)) + float64(F16ToF32(h+1))) / 2)
		for _, v := range []float32{mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, 1e9)} {
			vals = append(vals, v, -v)
		}
	}
	vals = append(vals, 65504, 65519.99, 65520, 65536, 1e30, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0x1p-25, 0x1p-24*1.5, 0)
	{
		got := append([]float32(nil), vals...)
		RoundF16(got)
		for i, v := range vals {
			want := F16ToF32(F32ToF16(v))
			if want != want {
				if got[i] == got[i] {
					t.Fatalf("RoundF16(%g) = %g; want NaN", v, got[i])
				}
				continue
			}
			if math.Float32bits(got[i]) != math.Float32bits(want) {
				t.Fatalf("RoundF16(%g) = %g; want %g", v, got[i], want)
			}
		}
	}
}
