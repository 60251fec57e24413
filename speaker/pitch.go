package speaker

import (
	"math"
	"slices"

	"github.com/sottolabs/sotto/audio"
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
	x, err := audio.Resample(nil, s16, 16000, pitchRate)
	if err != nil {
		return nil
	}
	maxLag := 133 // pitchRate / pitchMinF0
	minLag := 19  // pitchRate / pitchMaxF0
	d := make([]float64, maxLag+2)
	var out []float64
	for t, sp := range mask {
		if !sp {
			continue
		}
		// Centre of the 16 kHz frame (t·160 + 205) at 8 kHz, window
		// centred on it.
		st := (t*160+205)/2 - (pitchWin+maxLag)/2
		if st < 0 || st+pitchWin+maxLag+1 > len(x) {
			continue
		}
		fr := x[st:]
		var e float64
		for j := range pitchWin {
			e += float64(fr[j]) * float64(fr[j])
		}
		if e == 0 {
			continue
		}
		var sum float64
		for tau := 1; tau <= maxLag+1; tau++ {
			var s float64
			for j := range pitchWin {
				v := float64(fr[j]) - float64(fr[j+tau])
				s += v * v
			}
			sum += s
			if sum == 0 {
				d[tau] = 1
			} else {
				d[tau] = s * float64(tau) / sum
			}
		}
		best := 0
		for tau := minLag; tau <= maxLag; tau++ {
			if d[tau] < pitchThresh {
				for tau+1 <= maxLag && d[tau+1] < d[tau] {
					tau++
				}
				best = tau
				break
			}
		}
		if best == 0 {
			continue
		}
		a, b, c := d[best-1], d[best], d[best+1]
		shift := 0.0
		if den := a - 2*b + c; den > 0 {
			shift = 0.5 * (a - c) / den
		}
		out = append(out, math.Log(pitchRate/(float64(best)+shift)))
	}
	return out
}

// The pitch part of the embedding (sphinx-mllr-v6): pitchDims numbers
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
	out := make([]float64, pitchDims)
	if len(lf) < pitchMinVoiced {
		return out
	}
	v := slices.Clone(lf)
	slices.Sort(v)
	med := v[len(v)/2]
	lo := math.Log(pitchMinF0)
	step := (math.Log(pitchMaxF0) - lo) / float64(pitchDims-1)
	for k := range out {
		d := med - (lo + float64(k)*step)
		out[k] = math.Exp(-d * d / (2 * pitchSigma * pitchSigma))
	}
	normalize(out)
	return out
}

// fuse returns the embedding of a static transform's numbers st, a delta
// transform's numbers dt (each nRows×nXi) and a pitch encoding pe
// (pitchDims numbers, unit length or zero): st at unit length times
// sqrt((1-pitchShare)(1-deltaShare)); dt projected to nDelta-pitchDims
// numbers at unit length times sqrt((1-pitchShare)·deltaShare); pe times
// sqrt(pitchShare); all rotated by the DCT. The cosine of two such
// embeddings is (1-pitchShare)((1-deltaShare)·cos(static) +
// deltaShare·cos(delta)) + pitchShare·cos(pitch).
func (m *mllrModel) fuse(st, dt, pe []float64) []float64 {
	raw := make([]float64, Dim)
	n := nRows * nXi
	copy(raw, st)
	normalize(raw[:n])
	for i := range n {
		raw[i] *= math.Sqrt((1 - pitchShare) * (1 - deltaShare))
	}
	nd := nDelta - pitchDims
	d := raw[n : n+nd]
	for i := range nd {
		row := m.proj[i*n : i*n+n]
		var v float64
		for j, x := range dt {
			v += row[j] * x
		}
		d[i] = v
	}
	normalize(d)
	for i := range d {
		d[i] *= math.Sqrt((1 - pitchShare) * deltaShare)
	}
	for i, x := range pe {
		raw[n+nd+i] = x * math.Sqrt(pitchShare)
	}
	return m.rotate(raw)
}
