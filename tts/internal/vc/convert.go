package vc

import (
	"math"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/dsp"
)

// Warp moves every frequency of x (mono, rate Hz) by the factor α — F0,
// formants and the whole spectrum — and keeps its duration: it resamples x
// so that it plays α times faster, then stretches it back to its length
// with WSOLA. α = 1 returns a copy; α is limited to 0.5–2.
func Warp(x []float32, rate int, alpha float64) []float32 {
	alpha = min(max(alpha, 0.5), 2)
	if alpha == 1 || len(x) == 0 {
		return append([]float32(nil), x...)
	}
	to := int(math.Round(float64(rate) / alpha))
	y, err := audio.Resample(nil, x, rate, to)
	if err != nil {
		panic(err) // both rates are positive
	}
	return Stretch(y, rate, len(x))
}

// Stretch time-scales x (mono, rate Hz) to n samples without changing its
// pitch, by waveform-similarity overlap-add (WSOLA): 20 ms Hann frames laid
// every 10 ms on the output, each taken from near its nominal input
// position at the offset (±10 ms) whose waveform best continues the frame
// before.
func Stretch(x []float32, rate, n int) []float32 {
	out := make([]float32, n)
	if len(x) == 0 || n == 0 {
		return out
	}
	frame := max(32, rate/50) &^ 1
	hs := frame / 2
	tol := rate / 100
	w := hann(frame)
	norm := make([]float64, n+frame)
	acc := make([]float64, n+frame)
	scale := float64(len(x)) / float64(n) // input samples per output sample
	at := func(i int) float64 {
		if i < 0 || i >= len(x) {
			return 0
		}
		return float64(x[i])
	}
	prev := -1 // input position of the previous frame
	for k := 0; k*hs < n; k++ {
		nominal := int(math.Round(float64(k*hs) * scale))
		pos := nominal
		if prev >= 0 {
			natural := prev + hs // where the previous frame's input continues
			best, bestScore := 0, math.Inf(-1)
			for d := -tol; d <= tol; d++ {
				c := nominal + d
				var s float64
				for j := 0; j < frame; j += 2 {
					s += at(c+j) * at(natural+j)
				}
				if s > bestScore {
					best, bestScore = d, s
				}
			}
			pos = nominal + best
		}
		for j := range frame {
			o := k*hs + j
			acc[o] += w[j] * at(pos+j)
			norm[o] += w[j]
		}
		prev = pos
	}
	for i := range out {
		if norm[i] > 1e-3 {
			out[i] = float32(acc[i] / norm[i])
		}
	}
	return out
}

// Equalize filters x (mono, rate Hz) with the per-band gains in dB of
// [EQGains] (band b covers b·BandHz to (b+1)·BandHz; frequencies above the
// last band get its gain), by short-time Fourier transform: 512-point Hann
// frames every 128 samples, Hann again on synthesis.
func Equalize(x []float32, rate int, gainsDB []float64) []float32 {
	const n, hopN = 512, 128
	out := make([]float32, len(x))
	if len(x) == 0 || len(gainsDB) == 0 {
		copy(out, x)
		return out
	}
	gain := make([]float64, n/2+1)
	for k := range gain {
		f := float64(k) * float64(rate) / n
		pos := f/BandHz - 0.5
		i := int(math.Floor(pos))
		t := pos - float64(i)
		g := func(b int) float64 { return gainsDB[min(max(b, 0), len(gainsDB)-1)] }
		gain[k] = math.Pow(10, ((1-t)*g(i)+t*g(i+1))/20)
	}
	f := dsp.NewFFT(n)
	w := hann(n)
	re, im := make([]float64, n), make([]float64, n)
	acc := make([]float64, len(x)+2*n)
	norm := make([]float64, len(x)+2*n)
	for start := -n + hopN; start < len(x); start += hopN {
		for j := range n {
			i := start + j
			re[j], im[j] = 0, 0
			if i >= 0 && i < len(x) {
				re[j] = float64(x[i]) * w[j]
			}
		}
		f.Transform(re, im)
		for k := range n {
			kk := k
			if kk > n/2 {
				kk = n - k
			}
			re[k] *= gain[kk]
			im[k] = -im[k] * gain[kk] // conjugate: the forward transform then inverts
		}
		f.Transform(re, im)
		for j := range n {
			i := start + j + n // acc is offset by n
			acc[i] += re[j] / n * w[j]
			norm[i] += w[j] * w[j]
		}
	}
	for i := range out {
		if d := norm[i+n]; d > 1e-6 {
			out[i] = float32(acc[i+n] / d)
		}
	}
	return out
}

// Level returns the RMS of x's frames above the speech gate (0 for
// silence).
func Level(x []float32) float64 {
	var s float64
	var c int
	for i := 0; i+win <= len(x); i += hop {
		var e float64
		for _, v := range x[i : i+win] {
			e += float64(v) * float64(v)
		}
		if e/win > 1e-6 {
			s += e
			c += win
		}
	}
	if c == 0 {
		return 0
	}
	return math.Sqrt(s / float64(c))
}

// Clipped returns the fraction of samples of x at or beyond ±0.999.
func Clipped(x []float32) float64 {
	if len(x) == 0 {
		return 0
	}
	n := 0
	for _, v := range x {
		if v >= 0.999 || v <= -0.999 {
			n++
		}
	}
	return float64(n) / float64(len(x))
}

// Gain scales x in place by g and limits it to ±0.99 with a soft knee
// above 0.9.
func Gain(x []float32, g float64) {
	for i, v := range x {
		y := float64(v) * g
		if a := math.Abs(y); a > 0.9 {
			y = math.Copysign(0.9+0.09*math.Tanh((a-0.9)/0.09), y)
		}
		x[i] = float32(y)
	}
}
