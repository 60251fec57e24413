//go:build goexperiment.simd && amd64

package tensor

import (
	"math"
	"testing"
)

// TestRoundF16x8 compares the vector rounding with F32ToF16 on float32
// values in [0, 1]: a stride through all bit patterns, and every value one
// float32 step around each halfway point between half-precision values
// (where ties go to even).
func TestRoundF16x8(t *testing.T) {
	if simdKernels == nil {
		t.Skip("skip: no AVX2")
	}
	var c vconst
	c.init()
	var vals []float32
	for b := uint32(0); b <= math.Float32bits(1); b += 997 {
		vals = append(vals, math.Float32frombits(b))
	}
	for h := uint16(0); h < 0x3c00; h++ {
		mid := (float64(F16ToF32(h)) + float64(F16ToF32(h+1))) / 2
		m := float32(mid)
		vals = append(vals, m, math.Nextafter32(m, 0), math.Nextafter32(m, 2))
	}
	for len(vals)%8 != 0 {
		vals = append(vals, 1)
	}
	got := make([]float32, len(vals))
	for i := 0; i < len(vals); i += 8 {
		c.roundF16x8(f32x8(vals[i:])).Store((*[8]float32)(got[i:]))
	}
	for i, v := range vals {
		if want := F16ToF32(F32ToF16(v)); got[i] != want {
			t.Fatalf("roundF16x8(%g) = %g; want %g", v, got[i], want)
		}
	}
}

// TestExp8 bounds the vector exp's relative error on [−87, 0] and checks
// that inputs further down give values that round to 0 in half precision.
func TestExp8(t *testing.T) {
	if simdKernels == nil {
		t.Skip("skip: no AVX2")
	}
	var c vconst
	c.init()
	var in, out [8]float32
	var worst float64
	for i := 0; i <= 870000; i += 56 { // every seventh vector
		for j := range in {
			in[j] = -float32(i+j) * 1e-4
		}
		c.exp8(f32x8(in[:])).Store(&out)
		for j, x := range in {
			want := math.Exp(float64(x))
			worst = max(worst, math.Abs(float64(out[j])-want)/want)
		}
	}
	if worst > 3e-7 {
		t.Errorf("exp8: relative error up to %.3g (limit 3e-7)", worst)
	}
	in = [8]float32{-88, -100, -1e4, float32(math.Inf(-1)), -87.5, -90, -200, -1e30}
	c.exp8(f32x8(in[:])).Store(&out)
	for j, v := range out {
		if v < 0 || F16ToF32(F32ToF16(v)) != 0 {
			t.Errorf("exp8(%g) = %g; want a value that rounds to 0", in[j], v)
		}
	}
}
