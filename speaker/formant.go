package speaker

import (
	"cmp"
	"math"
	"math/cmplx"
	"slices"

	"github.com/sottolabs/sotto/audio"
)

// Formants of the voiced speech frames: linear prediction (autocorrelation
// method) on the signal resampled to 10 kHz, of order 12 (five formants
// and the spectral tilt below 5 kHz), one 25 ms Hamming window per voiced
// frame of the Sphinx front end, centred on that frame, after a
// pre-emphasis from 50 Hz; the formant candidates are the roots of the
// prediction polynomial in the upper half plane, with their frequency
// (angle) and bandwidth (from the radius). Audio sampled below 10 kHz (8
// kHz telephone audio) is analysed at its own rate with order 10: the
// empty band above its Nyquist frequency would otherwise take poles from
// the formants (on jfk at 8 kHz, the median F3 fell 7 % at 10 kHz, see
// TestFormantsOfSpeech).
const (
	formantRate    = 10000
	formantMinRate = 8000
)

// formantAnalysis returns the rate and the order of the formant analysis
// of audio sampled at inRate Hz.
func formantAnalysis(inRate int) (rate, order int) {
	rate = formantRate
	if inRate < formantRate {
		rate = max(inRate, formantMinRate)
	}
	return rate, rate/1000 + 2
}

// formantCand is one root of a frame's prediction polynomial: its
// frequency and bandwidth in Hz.
type formantCand struct{ f, bw float64 }

// frameFormants returns the formant candidates of the frames listed in
// frames (indices of frames of the 16 kHz front end: hop 160 samples,
// window 410) of s16, audio first sampled at inRate Hz, sorted by
// frequency, one slice per listed frame (nil for a frame whose window is
// silent or not wholly in the signal).
func frameFormants(s16 []float32, inRate int, frames []int) [][]formantCand {
	rate, order := formantAnalysis(inRate)
	x, err := audio.Resample(nil, s16, 16000, rate)
	if err != nil {
		return nil
	}
	out := make([][]formantCand, len(frames))
	win := rate / 40 // 25 ms
	pre := math.Exp(-2 * math.Pi * 50 / float64(rate))
	w := make([]float64, win)
	for i := range w {
		w[i] = 0.54 - 0.46*math.Cos(2*math.Pi*float64(i)/float64(win-1))
	}
	buf := make([]float64, win)
	for i, t := range frames {
		// Frame t is centred on 16 kHz sample t·160 + 205.
		c := (t*160 + 205) * rate / 16000
		st := c - win/2
		if st < 1 || st+win > len(x) {
			continue
		}
		for j := range buf {
			buf[j] = (float64(x[st+j]) - pre*float64(x[st+j-1])) * w[j]
		}
		a, ok := lpc(buf, order)
		if !ok {
			continue
		}
		out[i] = lpcFormants(a, float64(rate))
	}
	return out
}

// lpc returns the prediction polynomial a[0..p] (a[0] = 1) of x by the
// autocorrelation method and the Levinson-Durbin recursion, and false when
// x has no energy or the recursion breaks down.
func lpc(x []float64, p int) ([]float64, bool) {
	r := make([]float64, p+1)
	for k := range r {
		var s float64
		for j := k; j < len(x); j++ {
			s += x[j] * x[j-k]
		}
		r[k] = s
	}
	if r[0] <= 0 {
		return nil, false
	}
	r[0] *= 1 + 1e-9 // a white floor far below any signal keeps the recursion stable
	a := make([]float64, p+1)
	a[0] = 1
	tmp := make([]float64, p+1)
	e := r[0]
	for i := 1; i <= p; i++ {
		acc := r[i]
		for j := 1; j < i; j++ {
			acc += a[j] * r[i-j]
		}
		k := -acc / e
		copy(tmp, a)
		for j := 1; j < i; j++ {
			a[j] = tmp[j] + k*tmp[i-j]
		}
		a[i] = k
		e *= 1 - k*k
		if e <= 0 || math.IsNaN(e) {
			return nil, false
		}
	}
	return a, true
}

// lpcFormants returns the roots of z^p + a1 z^(p-1) + … + ap in the upper
// half plane as frequencies and bandwidths at sample rate fs, sorted by
// frequency (roots on the real axis, which shape the spectral tilt, left
// out).
func lpcFormants(a []float64, fs float64) []formantCand {
	var out []formantCand
	for _, z := range polyRoots(a) {
		if imag(z) <= 1e-9 {
			continue
		}
		r := cmplx.Abs(z)
		if r <= 0 {
			continue
		}
		out = append(out, formantCand{
			f:  cmplx.Phase(z) * fs / (2 * math.Pi),
			bw: -math.Log(r) * fs / math.Pi,
		})
	}
	slices.SortFunc(out, func(x, y formantCand) int { return cmp.Compare(x.f, y.f) })
	return out
}

// polyRoots returns the len(a)-1 roots of the monic polynomial
// a[0]z^n + a[1]z^(n-1) + … + a[n] (a[0] = 1) by the Durand-Kerner
// iteration from fixed starting points (deterministic).
func polyRoots(a []float64) []complex128 {
	n := len(a) - 1
	z := make([]complex128, n)
	for i := range z {
		z[i] = cmplx.Pow(complex(0.4, 0.9), complex(float64(i), 0))
	}
	eval := func(x complex128) complex128 {
		v := complex(a[0], 0)
		for _, c := range a[1:] {
			v = v*x + complex(c, 0)
		}
		return v
	}
	for range 500 {
		var moved float64
		for i := range z {
			den := complex(1, 0)
			for j := range z {
				if j != i {
					den *= z[i] - z[j]
				}
			}
			if den == 0 {
				den = complex(1e-12, 0)
			}
			d := eval(z[i]) / den
			z[i] -= d
			moved = max(moved, cmplx.Abs(d))
		}
		if moved < 1e-10 {
			break
		}
	}
	return z
}

// formantsOf picks F1..F4 from a frame's candidates: in order of
// frequency, the first four above formantMinFreq with a bandwidth under
// formantMaxBW (zero where there are fewer).
func formantsOf(cs []formantCand) [4]float64 {
	var out [4]float64
	k := 0
	for _, c := range cs {
		if k == 4 {
			break
		}
		if c.f > formantMinFreq && c.bw < formantMaxBW {
			out[k] = c.f
			k++
		}
	}
	return out
}

// The formant part of the embedding (sphinx-mllr-v7): the median third
// formant of the voiced speech frames, formantDims numbers with a share
// formantShare of the cosine. F3 varies little with the vowel and mostly
// with the length of the speaker's vocal tract; unlike the cepstral
// transform it is a peak position, which white noise at 20 dB moves by a
// few per cent where it fills the spectrum's valleys.
const (
	formantDims    = 16
	formantShare   = 0.08
	formantMinFreq = 150.0 // Hz: candidates below are the glottal source's, not the tract's
	formantMaxBW   = 600.0 // Hz: wider roots shape the spectrum without a peak
	// formantLo and formantHi bound the encoding's grid of log F3: 16
	// bumps 0.8 semitones apart over the octave from 1900 to 3800 Hz.
	formantLo = 1900.0
	formantHi = 3800.0
	// formantSigma is the width of the bumps in log F3: one semitone, so
	// that two medians a semitone apart score exp(-1/4) = 0.78, three
	// semitones apart 0.1.
	formantSigma = math.Ln2 / 12
)

// formantEncoding returns the formantDims numbers of the formant part:
// Gaussian bumps of width formantSigma on a grid of log frequency from
// formantLo to formantHi at the median log F3 of the frames' candidates,
// scaled to unit length (as pitchEncoding). With F3 in fewer than
// pitchMinVoiced frames: zeros (the part adds nothing to the cosine).
func formantEncoding(frames [][]formantCand) []float64 {
	return medianBumps(thirdFormants(frames), formantDims, formantLo, formantHi, formantSigma)
}

// thirdFormants returns log F3 of each of the frames that has one.
func thirdFormants(frames [][]formantCand) []float64 {
	var f3 []float64
	for _, cs := range frames {
		if f := formantsOf(cs)[2]; f > 0 {
			f3 = append(f3, math.Log(f))
		}
	}
	return f3
}
