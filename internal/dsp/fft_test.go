package dsp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The FFT equals the plain DFT on random data, for every size used.
func TestFFTMatchesDFT(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 4, 8, 64, 512} {
		f := NewFFT(n)
		re, im := make([]float64, n), make([]float64, n)
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			re[i], im[i] = r.NormFloat64(), r.NormFloat64()
			x[i], y[i] = re[i], im[i]
		}
		f.Transform(re, im)
		for k := range n {
			var sr, si float64
			for j := range n {
				a := -2 * math.Pi * float64(j*k) / float64(n)
				sr += x[j]*math.Cos(a) - y[j]*math.Sin(a)
				si += x[j]*math.Sin(a) + y[j]*math.Cos(a)
			}
			if math.Abs(sr-re[k]) > 1e-9*float64(n) || math.Abs(si-im[k]) > 1e-9*float64(n) {
				t.Fatalf("n=%d k=%d: FFT (%g, %g), DFT (%g, %g)", n, k, re[k], im[k], sr, si)
			}
		}
	}
}

func TestPowerSpectrum(t *testing.T) {
	f := NewFFT(8)
	out, re, im := make([]float64, 5), make([]float64, 8), make([]float64, 8)
	f.PowerSpectrum([]float64{1, 1, 1, 1, 1, 1}, out, re, im) // zero-padded to 8
	if out[0] != 36 {
		t.Errorf("DC power = %g; want 36", out[0])
	}
	f.PowerSpectrum([]float64{1, -1, 1, -1, 1, -1, 1, -1}, out, re, im)
	if out[4] != 64 || out[0] != 0 {
		t.Errorf("Nyquist power = %g, DC %g; want 64, 0", out[4], out[0])
	}
}

func TestNewFFTRejectsSize(t *testing.T) {
	for _, n := range []int{0, 1, 3, 400} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewFFT(%d) did not panic", n)
				}
			}()
			NewFFT(n)
		}()
	}
}
