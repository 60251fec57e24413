// Package vc is the signal processing of Sotto's voice-cloning model: it
// measures a speaker's long-term voice statistics (F0, long-term average
// spectrum, syllable rate) and moves synthesized speech toward them with a
// frequency warp (resampling by α, then WSOLA time-stretching back to the
// original duration) and a long-term spectral equalizer.
//
// Everything here is plain DSP on mono float32 samples; no trained weights.
// Functions allocate their outputs and never retain their inputs.
package vc

import (
	"math"
	"slices"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/dsp"
)

// Rate is the analysis rate in Hz: [Analyze] resamples its input to it.
const Rate = 16000

// Analysis framing at [Rate]: 25 ms windows every 10 ms, in a 512-point FFT.
const (
	hop    = 160
	win    = 400
	fftN   = 512
	minF0  = 60  // Hz
	maxF0  = 400 // Hz
	yinWin = 400 // samples summed per lag by the pitch tracker
)

// Bands of the long-term average spectrum: NumBands bands of BandHz each,
// from 0 Hz to Rate/2.
const (
	NumBands = 64
	BandHz   = Rate / 2 / NumBands
)

// Profile is the long-term description of a voice that the conversion
// matches. The JSON form is stored with a saved voice.
type Profile struct {
	// F0Mean and F0Std are the mean and standard deviation, in Hz, of the
	// fundamental frequency over voiced frames (0 when none is voiced).
	F0Mean float64 `json:"f0_mean"`
	F0Std  float64 `json:"f0_std"`
	// Voiced is the fraction of speech frames that are voiced.
	Voiced float64 `json:"voiced"`
	// SpeechSeconds is the duration of the frames above the speech gate.
	SpeechSeconds float64 `json:"speech_seconds"`
	// SyllableRate is the number of energy peaks (syllable nuclei) per
	// second of speech.
	SyllableRate float64 `json:"syllable_rate"`
	// LTAS is the long-term average spectrum of the speech frames in dB,
	// NumBands bands of BandHz Hz, its mean over 100–7000 Hz set to 0 (so
	// it describes the spectral shape, not the level).
	LTAS []float64 `json:"ltas"`
	// SNR is the spread in dB between loud and quiet frames (95th less
	// 10th percentile of frame energies): a rough signal-to-noise ratio.
	// Below [ReliableSNR] the rate and spectrum measurements include much
	// of the background.
	SNR float64 `json:"snr_db"`
}

// ReliableSNR is the SNR, in dB, from which a profile's syllable rate and
// long-term spectrum describe the voice more than the background.
const ReliableSNR = 25

// Valid reports whether p has the shape Analyze gives (a parsed profile
// from storage is checked with it).
func (p *Profile) Valid() bool {
	if len(p.LTAS) != NumBands {
		return false
	}
	for _, x := range append([]float64{p.F0Mean, p.F0Std, p.Voiced, p.SpeechSeconds, p.SyllableRate, p.SNR}, p.LTAS...) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return p.F0Mean >= 0 && p.F0Std >= 0 && p.SpeechSeconds >= 0 && p.SyllableRate >= 0
}

// To16k returns x (at rate Hz) resampled to [Rate].
func To16k(x []float32, rate int) []float32 {
	if rate == Rate {
		return x
	}
	y, err := audio.Resample(nil, x, rate, Rate)
	if err != nil {
		panic(err) // rates come from engines and the decoder, never zero
	}
	return y
}

// frameEnergies returns the energy in dB of each hop of x (at Rate).
func frameEnergies(x []float32) []float64 {
	if len(x) < win {
		return nil // (len(x)-win)/hop rounds toward zero: no whole frame
	}
	n := (len(x)-win)/hop + 1
	e := make([]float64, n)
	for i := range n {
		var s float64
		for _, v := range x[i*hop : i*hop+win] {
			s += float64(v) * float64(v)
		}
		e[i] = 10 * math.Log10(s/win+1e-12)
	}
	return e
}

// speechMask marks the frames within 40 dB of the loudest and above
// -60 dBFS.
func speechMask(e []float64) []bool {
	top := math.Inf(-1)
	for _, v := range e {
		top = max(top, v)
	}
	m := make([]bool, len(e))
	for i, v := range e {
		m[i] = v > top-40 && v > -60
	}
	return m
}

// Analyze measures the voice in x, mono samples at rate Hz.
func Analyze(x []float32, rate int) Profile {
	x = To16k(x, rate)
	e := frameEnergies(x)
	mask := speechMask(e)
	var p Profile
	speech := 0
	for _, s := range mask {
		if s {
			speech++
		}
	}
	p.SpeechSeconds = float64(speech) * hop / Rate
	f0 := Pitch(x, mask)
	var voiced []float64
	for _, f := range f0 {
		if f > 0 {
			voiced = append(voiced, f)
		}
	}
	tracked := 0 // speech frames long enough for the pitch tracker
	for i := range min(len(f0), len(mask)) {
		if mask[i] {
			tracked++
		}
	}
	if tracked > 0 {
		p.Voiced = float64(len(voiced)) / float64(tracked)
	}
	if len(voiced) > 0 {
		// Drop octave errors: keep frames within a factor 1.8 of the median.
		med := median(voiced)
		var s, s2, n float64
		for _, f := range voiced {
			if f > med/1.8 && f < med*1.8 {
				s += f
				s2 += f * f
				n++
			}
		}
		p.F0Mean = s / n
		p.F0Std = math.Sqrt(max(0, s2/n-p.F0Mean*p.F0Mean))
	}
	p.LTAS = ltas(x, mask)
	if len(e) > 0 {
		s := slices.Clone(e)
		slices.Sort(s)
		p.SNR = s[(len(s)-1)*95/100] - s[(len(s)-1)*10/100]
	}
	if p.SpeechSeconds > 0 {
		p.SyllableRate = float64(syllables(e, mask)) / p.SpeechSeconds
	}
	return p
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// Pitch returns the F0 in Hz of each frame of x (at Rate) that mask marks
// as speech, 0 for unvoiced frames and frames outside the mask (nil mask:
// every frame). It is a YIN tracker ([dsp.YIN]): the
// cumulative-mean-normalized difference function's first dip below 0.15,
// refined by a parabola.
func Pitch(x []float32, mask []bool) []float64 {
	y := dsp.YIN{Win: yinWin, MinLag: Rate / maxF0, MaxLag: Rate / minF0, Thresh: 0.15}
	n := max(0, (len(x)-yinWin-y.MaxLag)/hop+1)
	out := make([]float64, n)
	for _, f := range y.Track(x, n, hop, 0, mask) {
		out[f.Frame] = Rate / f.Period
	}
	return out
}

// ltas is the long-term average spectrum of the masked frames of x.
func ltas(x []float32, mask []bool) []float64 {
	f := dsp.NewFFT(fftN)
	re, im := make([]float64, fftN), make([]float64, fftN)
	frame, pow := make([]float64, win), make([]float64, fftN/2+1)
	acc := make([]float64, fftN/2+1)
	w := hann(win)
	n := 0
	for i, s := range mask {
		if !s || i*hop+win > len(x) {
			continue
		}
		for j := range win {
			frame[j] = float64(x[i*hop+j]) * w[j]
		}
		f.PowerSpectrum(frame, pow, re, im)
		for k := range acc {
			acc[k] += pow[k]
		}
		n++
	}
	bands := make([]float64, NumBands)
	per := (fftN / 2) / NumBands
	for b := range bands {
		var s float64
		for k := b * per; k < (b+1)*per; k++ {
			s += acc[k]
		}
		bands[b] = 10 * math.Log10(s/float64(max(n, 1)*per)+1e-12)
	}
	var mean float64
	lo, hi := 100/BandHz, 7000/BandHz
	for b := lo; b < hi; b++ {
		mean += bands[b]
	}
	mean /= float64(hi - lo)
	for b := range bands {
		bands[b] -= mean
	}
	return bands
}

func hann(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n))
	}
	return w
}

// syllables counts the peaks of the smoothed energy contour that lie in
// speech, stand out by 4 dB from the dips on both sides, and are at least
// 100 ms apart.
func syllables(e []float64, mask []bool) int {
	s := make([]float64, len(e))
	for i := range e {
		var sum float64
		var n int
		for j := max(0, i-2); j <= min(len(e)-1, i+2); j++ {
			sum += e[j]
			n++
		}
		s[i] = sum / float64(n)
	}
	count, last := 0, -100
	for i := 1; i+1 < len(s); i++ {
		if !mask[i] || s[i] < s[i-1] || s[i] < s[i+1] || i-last < 10 {
			continue
		}
		l, r := s[i], s[i]
		for j := i; j >= max(0, i-25); j-- {
			l = min(l, s[j])
		}
		for j := i; j <= min(len(s)-1, i+25); j++ {
			r = min(r, s[j])
		}
		if s[i]-l >= 4 && s[i]-r >= 4 {
			count++
			last = i
		}
	}
	return count
}

// WarpFactor returns the frequency-warp factor α (0.85–1.2) that best maps
// the spectral shape of from onto that of to: the α maximizing the
// correlation of to's LTAS with from's LTAS read at f/α over 250–5000 Hz,
// less a small penalty on |ln α| so that flat evidence keeps α near 1.
// The range is about that of adult vocal-tract lengths around a base voice;
// a wider warp sounds processed before it sounds like another speaker.
func WarpFactor(from, to Profile) float64 {
	if len(from.LTAS) != NumBands || len(to.LTAS) != NumBands {
		return 1
	}
	best, bestScore := 1.0, math.Inf(-1)
	for a := 0.85; a <= 1.2001; a += 0.005 {
		w := warpLTAS(from.LTAS, a)
		score := corr(w[250/BandHz:5000/BandHz], to.LTAS[250/BandHz:5000/BandHz]) - 0.5*math.Abs(math.Log(a))
		if score > bestScore {
			best, bestScore = a, score
		}
	}
	return best
}

// warpLTAS returns the LTAS l read at f/α (a spectrum whose frequencies
// were multiplied by α), linearly interpolated between band centres.
func warpLTAS(l []float64, a float64) []float64 {
	out := make([]float64, len(l))
	for b := range out {
		pos := (float64(b)+0.5)/a - 0.5
		i := int(math.Floor(pos))
		t := pos - float64(i)
		at := func(k int) float64 { return l[min(max(k, 0), len(l)-1)] }
		out[b] = (1-t)*at(i) + t*at(i+1)
	}
	return out
}

func corr(a, b []float64) float64 {
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= float64(len(a))
	mb /= float64(len(b))
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	if saa == 0 || sbb == 0 {
		return 0
	}
	return sab / math.Sqrt(saa*sbb)
}

// EQGains returns per-band gains in dB that turn the spectral shape of
// from into that of to: their LTAS difference, smoothed over three bands,
// times strength (0–1), limited to ±maxDB.
func EQGains(from, to Profile, strength, maxDB float64) []float64 {
	g := make([]float64, NumBands)
	if len(from.LTAS) != NumBands || len(to.LTAS) != NumBands {
		return g
	}
	raw := make([]float64, NumBands)
	for b := range raw {
		raw[b] = to.LTAS[b] - from.LTAS[b]
	}
	for b := range g {
		var s float64
		var n int
		for k := max(0, b-1); k <= min(NumBands-1, b+1); k++ {
			s += raw[k]
			n++
		}
		g[b] = min(max(strength*s/float64(n), -maxDB), maxDB)
	}
	return g
}

// WarpLTAS returns the LTAS l of a voice as it reads after a warp by α.
func WarpLTAS(l []float64, alpha float64) []float64 { return warpLTAS(l, alpha) }
