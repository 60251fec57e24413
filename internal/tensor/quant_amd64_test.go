//go:build goexperiment.simd && amd64 && !purego

package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQuantBoth checks the one-pass AVX-512 quantizer against the SIMD
// kernel set's two (quantizeActAVX2, quantizeActKAVX2): every scale, byte
// and sum must be identical, over blocks of zeros, subnormals, values on
// the rounding halves, ±127-quantizing spikes, infinities and NaN.
func TestQuantBoth(t *testing.T) {
	if quantizeBoth == nil || simdKernels == nil {
		t.Skip("no AVX-512 or no SIMD kernel set")
	}
	r := rand.New(rand.NewPCG(61, 62))
	for trial := range 200 {
		n := qkK * (1 + r.IntN(6))
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		for b := 0; b < n; b += qk {
			blk := x[b : b+qk]
			switch r.IntN(8) {
			case 0:
				clear(blk)
			case 1:
				for i := range blk {
					blk[i] = math.Float32frombits(uint32(r.IntN(1 << 23))) // subnormal
				}
			case 2: // values on the halves: amax 127 → step 1
				for i := range blk {
					blk[i] = float32(r.IntN(254)-127) + 0.5
				}
				blk[0] = 127
			case 3:
				blk[r.IntN(qk)] = 1e30
			case 4:
				if trial%10 == 0 {
					blk[r.IntN(qk)] = float32(math.Inf(1 - 2*r.IntN(2)))
				}
			case 5:
				if trial%10 == 1 {
					blk[r.IntN(qk)] = float32(math.NaN())
				}
			}
		}
		var got Activation
		got.Set(x)
		nb := n / qk
		want := Activation{D: make([]float32, nb), Q: make([]int8, n), S: make([]int32, nb),
			DK: make([]float32, n/qkK), QK: make([]int8, n), SK: make([]int32, nb)}
		quantizeActAVX2(x, want.D, want.Q, want.S)
		quantizeActKAVX2(x, want.DK, want.QK, want.SK)
		bits := func(f []float32) []uint32 {
			u := make([]uint32, len(f))
			for i, v := range f {
				u[i] = math.Float32bits(v)
			}
			return u
		}
		if !slices.Equal(bits(got.D), bits(want.D)) || !slices.Equal(got.Q, want.Q) || !slices.Equal(got.S, want.S) {
			t.Fatalf("trial %d: 32-value form differs", trial)
		}
		if !slices.Equal(bits(got.DK), bits(want.DK)) || !slices.Equal(got.QK, want.QK) || !slices.Equal(got.SK, want.SK) {
			t.Fatalf("trial %d: 256-value form differs", trial)
		}
	}
}

// BenchmarkActivationSet times Activation.Set of 4096 values with the two
// quantizers and the one-pass one.
func BenchmarkActivationSet(b *testing.B) {
	x := make([]float32, 4096)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	saved := quantizeBoth
	defer func() { quantizeBoth = saved }()
	for _, name := range []string{"two", "both"} {
		if name == "two" {
			quantizeBoth = nil
		} else {
			quantizeBoth = saved
		}
		b.Run(name, func(b *testing.B) {
			var a Activation
			for b.Loop() {
				a.Set(x)
			}
		})
	}
}
