package speaker

import (
	"math"
	"slices"
)

// Noise estimate and spectral subtraction of the "go" driver, done on the
// cepstra the shared Sphinx front end returns (so that front end, shared
// with alignment and transcription, stays as it is). Since sphinx-mllr-v6
// the embeddings use only the estimate (subtractNoise with subtract off)
// and compensate the background model instead (vts.go); the timelines'
// windows still subtract (their clustering was tuned with it).
//
// The 13 cepstra of a frame are the first 13 coefficients of an orthonormal
// DCT-II of the 25 log mel energies (liftered). Their inverse gives the
// cepstrally smoothed log mel spectrum, and the DCT of a spectrum changed
// there gives back 13 cepstra; with no change the round trip is exact.
// The noise power per band is the mean power of the quietest frames of the
// utterance (by c0). Subtracting it (weighted by noiseAlpha, never below
// noiseBeta of the frame's power) removes most of what additive noise puts
// into the spectral valleys, which otherwise moves the MLLR transform.
//
// Subtraction also moves clean recordings a little (their quietest frames
// are breath, room or the speech itself), so it is weighed by the estimated
// signal-to-noise ratio: in full below noiseSNRLow dB, not at all above
// noiseSNRHigh dB, linearly between. Measured on the dev part of the
// shared trials (docs/bench/speaker.md): without the weighting, clean
// speech lost 0.7-1.2 EER points; with it, clean speech keeps its figure
// and white noise at 20 dB SNR on one side still gains about 4 points.
const (
	nFilt        = 25   // mel filters of the model's front end (feat.params)
	noiseQuiet   = 0.1  // fraction of the frames, the quietest, that estimate the noise
	noiseAlpha   = 0.7  // weight of the subtracted noise power
	noiseBeta    = 0.05 // floor: a band keeps at least this fraction of its power
	noiseSNRLow  = 15.0 // dB: full subtraction at or below this estimated SNR
	noiseSNRHigh = 30.0 // dB: no subtraction at or above this estimated SNR
)

// melBasis returns the front end's DCT-II basis (row i gives c_i from the
// log mel energies) and its lifter weights.
func (m *mllrModel) melBasis() (b [nCep][nFilt]float64, lift [nCep]float64) {
	for i := range nCep {
		s := math.Sqrt(2.0 / nFilt)
		if i == 0 {
			s = math.Sqrt(1.0 / nFilt)
		}
		for j := range nFilt {
			b[i][j] = s * math.Cos(math.Pi*float64(i)*(float64(j)+0.5)/nFilt)
		}
		lift[i] = 1
		if l := m.params.Lifter; l > 0 {
			lift[i] = 1 + float64(l)/2*math.Sin(float64(i)*math.Pi/float64(l))
		}
	}
	return b, lift
}

// compensateNoise subtracts the utterance's noise estimate from the mel
// power of every frame of cep (raw cepstra, before mean normalisation), in
// place, weighted by the estimated signal-to-noise ratio; mask marks the
// speech frames. It returns that ratio in dB (+Inf without noise).
func (m *mllrModel) compensateNoise(cep [][nCep]float64, mask []bool) float64 {
	return m.subtractNoise(cep, mask, true).snr
}

// noiseEstimate is what the spectral subtraction found in a recording.
type noiseEstimate struct {
	snr   float64        // estimated signal-to-noise ratio, dB (+Inf without noise)
	w     float64        // weight of the subtraction by snr, 0..1
	noise [nFilt]float64 // mean mel power of the quietest frames
}

// subtractNoise estimates the recording's noise and, when subtract is
// set, does the spectral subtraction of compensateNoise.
func (m *mllrModel) subtractNoise(cep [][nCep]float64, mask []bool, subtract bool) noiseEstimate {
	est := noiseEstimate{snr: math.Inf(1)}
	if len(cep) == 0 {
		return est
	}
	b, lift := m.melBasis()
	logMel := make([][nFilt]float64, len(cep))
	for t := range cep {
		for j := range nFilt {
			var v float64
			for i := range nCep {
				v += b[i][j] * cep[t][i] / lift[i]
			}
			logMel[t][j] = v
		}
	}
	// The quietest frames by c0 (ties by time, so the choice is
	// deterministic).
	idx := make([]int, len(cep))
	for t := range idx {
		idx[t] = t
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		switch {
		case cep[x][0] < cep[y][0]:
			return -1
		case cep[x][0] > cep[y][0]:
			return 1
		}
		return 0
	})
	nq := max(1, int(noiseQuiet*float64(len(cep))))
	var noise [nFilt]float64
	var noiseAll, speechAll float64
	for _, t := range idx[:nq] {
		for j := range nFilt {
			noise[j] += math.Exp(logMel[t][j]) / float64(nq)
		}
	}
	ns := 0
	for t := range cep {
		if mask[t] {
			for j := range nFilt {
				speechAll += math.Exp(logMel[t][j])
			}
			ns++
		}
	}
	if ns == 0 {
		return est
	}
	for j := range nFilt {
		noiseAll += noise[j]
	}
	snr := 10 * math.Log10(speechAll/float64(ns)/noiseAll)
	w := min(1, max(0, (noiseSNRHigh-snr)/(noiseSNRHigh-noiseSNRLow)))
	est = noiseEstimate{snr: snr, w: w, noise: noise}
	if math.IsNaN(snr) {
		est.w = 0
	}
	if w == 0 || math.IsNaN(snr) || !subtract {
		return est
	}
	for t := range cep {
		var out [nFilt]float64
		for j := range nFilt {
			p := math.Exp(logMel[t][j])
			out[j] = math.Log(max(p-w*noiseAlpha*noise[j], noiseBeta*p))
		}
		for i := range nCep {
			var v float64
			for j := range nFilt {
				v += b[i][j] * out[j]
			}
			cep[t][i] = v * lift[i]
		}
	}
	return est
}
