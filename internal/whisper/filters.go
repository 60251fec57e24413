package whisper

import "math"

// MelFilters returns the Slaney-style mel filter bank Whisper uses (the
// one librosa.filters.mel(sr=16000, n_fft=400, n_mels=nMel) builds and
// OpenAI ships for 80 and 128 bins): nMel triangles spaced evenly on the
// Slaney mel scale (linear below 1 kHz, logarithmic above) from 0 Hz to
// 8 kHz, each scaled to unit area (2 / its width in Hz), over the 201
// bins of a 400-point FFT. Model files carry their own bank; this one
// serves files that lack it and tests.
func MelFilters(nMel int) Filters {
	const nBins = 1 + NFFT/2
	const fSp = 200.0 / 3
	const minLogHz, minLogMel = 1000.0, 1000.0 / fSp
	logStep := math.Log(6.4) / 27
	hzToMel := func(f float64) float64 {
		if f < minLogHz {
			return f / fSp
		}
		return minLogMel + math.Log(f/minLogHz)/logStep
	}
	melToHz := func(m float64) float64 {
		if m < minLogMel {
			return fSp * m
		}
		return minLogHz * math.Exp(logStep*(m-minLogMel))
	}
	top := hzToMel(SampleRate / 2)
	edges := make([]float64, nMel+2)
	for i := range edges {
		edges[i] = melToHz(top * float64(i) / float64(nMel+1))
	}
	f := Filters{NMel: nMel, NFFT: nBins, Data: make([]float32, nMel*nBins)}
	for i := range nMel {
		lo, mid, hi := edges[i], edges[i+1], edges[i+2]
		norm := 2 / (hi - lo)
		for k := range nBins {
			hz := float64(k) * SampleRate / NFFT
			w := max(0, min((hz-lo)/(mid-lo), (hi-hz)/(hi-mid)))
			f.Data[i*nBins+k] = float32(w * norm)
		}
	}
	return f
}
