package speaker

import (
	"math"
	"slices"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/dsp"
)

// Pitch of the voice: the median log F0 of the voiced speech frames, from
// a YIN-style tracker (the cumulative-mean-normalised difference function)
// on the signal resampled to 8 kHz, one estimate per frame of the Sphinx
// front end (10 ms hop).
const (
	pitchRate      = 8000
	pitchWin       = 240 // 30 ms window
	pitchMinF0     = 60.0
	pitchMaxF0     = 420.0
	pitchThresh    = 0.25 // a dip of the normalised difference below this is voiced
	pitchMinVoiced = 20   // voiced frames needed for a pitch estimate
)

// framePitch returns log F0 of every voiced frame in mask (frames of the
// 16 kHz front end: hop 160 samples, window 410).
func framePitch(s16 []float32, mask []bool) []float64 {
	return logF0(voicedFrames(s16, mask))
}

// logF0 returns log F0 of each of the frames of voicedFrames.
func logF0(vf []dsp.PitchFrame) []float64 {
	out := make([]float64, len(vf))
	for i, f := range vf {
		out[i] = math.Log(pitchRate / f.Period)
	}
	return out
}

// voicedFrames returns the voiced frames in mask (frames of the 16 kHz
// front end) with their periods in samples at pitchRate.
func voicedFrames(s16 []float32, mask []bool) []dsp.PitchFrame {
	x, err := audio.Resample(nil, s16, 16000, pitchRate)
	if err != nil {
		return nil
	}
	y := dsp.YIN{Win: pitchWin, MinLag: 19, MaxLag: 133, Thresh: pitchThresh} // lags: pitchRate/pitchMaxF0, pitchRate/pitchMinF0
	// Frame t's window is centred on the centre of the 16 kHz frame
	// (t·160 + 205) at 8 kHz: it starts at t·80 + 205/2 - (pitchWin+MaxLag)/2.
	off := 205/2 - (pitchWin+y.MaxLag)/2
	return y.Track(x, len(mask), 80, off, mask)
}

// The pitch part of the embedding (since sphinx-mllr-v6): pitchDims numbers
// with a share pitchShare of the cosine. Pitch is what additive noise
// leaves of the voice when it fills the spectrum's valleys, and what the
// spectral transform does not describe.
const (
	pitchDims  = 16
	pitchShare = 0.1
	// pitchSigma is the width of the encoding's bumps in log F0: three
	// semitones, so that two medians three semitones apart score
	// exp(-1/4) = 0.78, an octave apart 0.02.
	pitchSigma = math.Ln2 / 4
)

// pitchEncoding returns the pitchDims numbers of the pitch part: Gaussian
// bumps of width pitchSigma on a grid of log F0 from pitchMinF0 to
// pitchMaxF0, evaluated at the median of lf and scaled to unit length, so
// that the cosine of two encodings is about exp(-Δ²/(4·pitchSigma²)) for
// medians Δ apart in log F0. With too few voiced frames: zeros (the pitch
// part then adds nothing to the cosine).
func pitchEncoding(lf []float64) []float64 {
	return medianBumps(slices.Clone(lf), pitchDims, pitchMinF0, pitchMaxF0, pitchSigma)
}

// medianBumps encodes the median of the log frequencies v (sorted in
// place) as n Gaussian bumps of width sigma (in log frequency) on a grid
// of log frequency from loHz to hiHz, scaled to unit length: the pitch and
// formant parts' encoding. With fewer than pitchMinVoiced values it
// returns zeros (the part adds nothing to the cosine).
func medianBumps(v []float64, n int, loHz, hiHz, sigma float64) []float64 {
	out := make([]float64, n)
	if len(v) < pitchMinVoiced {
		return out
	}
	slices.Sort(v)
	med := v[len(v)/2]
	lo := math.Log(loHz)
	step := (math.Log(hiHz) - lo) / float64(n-1)
	for k := range out {
		d := med - (lo + float64(k)*step)
		out[k] = math.Exp(-d * d / (2 * sigma * sigma))
	}
	normalize(out)
	return out
}

// fuse returns the embedding of a static transform's numbers st, a delta
// transform's numbers dt (each nRows×nXi), a pitch encoding pe (pitchDims
// numbers) and a formant encoding fe (formantDims numbers; both unit
// length or zero), weighed by sh: st at unit length times
// sqrt(sh.static); dt projected to nDelta-pitchDims-formantDims numbers at
// unit length times sqrt(sh.delta); pe times sqrt(sh.pitch); fe times
// sqrt(sh.formant); all rotated by the DCT (and scaled to unit length).
// The cosine of two such embeddings a, b is Σ_p sqrt(a.p·b.p)·cos(p) over
// the parts p, divided by sqrt(Σ_p a.p·|p_a|² · Σ_p b.p·|p_b|²); with the
// shares of sharesFor or longShares, all parts present and equal shares
// on both sides, Σ_p share_p·cos(p).
func (m *mllrModel) fuse(st, dt, pe, fe []float64, sh shares) []float64 {
	raw := make([]float64, Dim)
	n := nRows * nXi
	copy(raw, st)
	normalize(raw[:n])
	for i := range n {
		raw[i] *= math.Sqrt(sh.static)
	}
	nd := nDelta - pitchDims - formantDims
	d := raw[n : n+nd]
	matVec(d, m.proj, nRows*nXi, dt)
	normalize(d)
	for i := range d {
		d[i] *= math.Sqrt(sh.delta)
	}
	for i, x := range pe {
		raw[n+nd+i] = x * math.Sqrt(sh.pitch)
	}
	for i, x := range fe {
		raw[n+nd+pitchDims+i] = x * math.Sqrt(sh.formant)
	}
	return m.rotate(raw)
}

// projectDelta returns the delta transform's numbers dt through the
// fixed projection, as fuse takes them before scaling them to unit
// length.
func (m *mllrModel) projectDelta(dt []float64) []float64 {
	d := make([]float64, nDelta-pitchDims-formantDims)
	matVec(d, m.proj, nRows*nXi, dt)
	return d
}

// matVec sets y to the product of the first len(x) columns of the
// row-major matrix a (at least len(y) rows of cols columns) and x.
func matVec(y, a []float64, cols int, x []float64) {
	for i := range y {
		row := a[i*cols : i*cols+len(x)]
		var v float64
		for j, xj := range x {
			v += row[j] * xj
		}
		y[i] = v
	}
}
