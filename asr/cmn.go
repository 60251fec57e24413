package asr

import (
	"context"
	"fmt"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// OptCMN chooses the frames the cepstral mean is taken over (the model's
// batch CMN only; a model with live CMN ignores it):
//
//   - "file" (the default): every frame of the file, segment by segment
//     where the channel changes (sphinx.CMNSegmental), as the peer's
//     batch CMN takes every frame of its utterance.
//   - "speech": the frames of the speech regions (with their padding),
//     the frames that are decoded, so that long silences before, between
//     and after them do not pull the mean toward the silence's spectrum.
//   - "prior": the file's mean of c1…c12 blended with the model's mean
//     (its feat.params -cmninit) at a weight of OptCMNPrior frames, so a
//     short file's few frames do not decide its spectral mean alone; c0,
//     the level, keeps the file's mean.
//
// See docs/bench/asr.md.
const OptCMN = "cmn"

// OptCMNPrior is the weight of the model's mean, in frames, for OptCMN
// prior (default 300).
const OptCMNPrior = "cmn_prior"

// CMN modes (OptCMN).
const (
	cmnFile = iota
	cmnSpeech
	cmnPrior
)

// cmnSpeechMin is the fewest region frames of a CMN segment for OptCMN
// speech to take their mean; a segment with fewer keeps the mean of all its
// frames.
const cmnSpeechMin = 50

// parseCMN reads OptCMN and OptCMNPrior.
func parseCMN(o map[string]string) (mode int, prior float64, err error) {
	prior = 300
	switch o[OptCMN] {
	case "", "file":
	case "speech":
		mode = cmnSpeech
	case "prior":
		mode = cmnPrior
	default:
		return 0, 0, fmt.Errorf("asr: option %s %q: want file, speech or prior", OptCMN, o[OptCMN])
	}
	if v := o[OptCMNPrior]; v != "" {
		if _, err := fmt.Sscan(v, &prior); err != nil || prior < 0 {
			return 0, 0, fmt.Errorf("asr: option %s %q: want a number ≥ 0", OptCMNPrior, v)
		}
	}
	return mode, prior, nil
}

// cepstra returns the normalised cepstra of samples with the mel
// filterbank warped by warp (0 or 1: none) and the speech regions found in
// them, with the cepstral mean chosen by OptCMN.
func (s *sphinxASR) cepstra(ctx context.Context, samples []float32, warp float64) ([]float32, [][2]int, error) {
	nc := s.am.Params.NCep
	regionsOf := func(cep []float32) [][2]int {
		if s.silence != silenceTrim {
			return speechRegions(cep, nc)
		}
		p := s.am.Params
		skip := zeroFrames(samples, len(cep)/nc, int(p.SampleRate)/p.FrameRate, int(p.WindowLength*p.SampleRate+0.5))
		return speechRegionsSkip(cep, nc, skip)
	}
	if s.cmn == cmnFile || s.am.Params.CMN != "batch" {
		cep, _, err := s.am.CepstraWarped(ctx, samples, warp)
		if err != nil {
			return nil, nil, err
		}
		return cep, regionsOf(cep), nil
	}
	p := s.am.Params
	p.Warp = warp
	fe, err := sphinx.NewFrontend(p)
	if err != nil {
		return nil, nil, err
	}
	cep, err := fe.Cepstra(ctx, samples)
	if err != nil {
		return nil, nil, err
	}
	segs := sphinx.CMNSegmental(cep, nc)
	// The regions depend on c0 less its 5th percentile over the file: the
	// same before and after a shift of the mean within one CMN segment.
	regions := regionsOf(cep)
	switch s.cmn {
	case cmnSpeech:
		speechCMN(cep, nc, segs, regions)
	case cmnPrior:
		priorCMN(cep, nc, segs, p.CMNInit, s.cmnPrior)
	}
	return cep, regions, nil
}

// speechCMN moves the mean of each CMN segment of the normalised cepstra
// cep (nc values a frame) to the mean of its frames inside the speech
// regions, when it has at least cmnSpeechMin of them.
func speechCMN(cep []float32, nc int, segs []sphinx.CMNRegion, regions [][2]int) {
	for _, sg := range segs {
		if sg.Mean == nil {
			continue
		}
		mean := make([]float64, nc)
		n := 0
		for _, r := range regions {
			for t := max(r[0], sg.Start); t < min(r[1], sg.End); t++ {
				for i, v := range cep[t*nc : (t+1)*nc] {
					mean[i] += float64(v)
				}
				n++
			}
		}
		if n < cmnSpeechMin {
			continue
		}
		for i := range mean {
			mean[i] /= float64(n)
		}
		sphinx.SubtractMean(cep[sg.Start*nc:sg.End*nc], mean)
	}
}

// priorCMN replaces, in each CMN segment of the normalised cepstra cep,
// the segment's mean of c1…c(nc-1) by its blend with the model's mean
// prior (raw cepstra), weighted by the segment's frame count and by
// weight frames: mean' = (n·mean + weight·prior)/(n + weight).
func priorCMN(cep []float32, nc int, segs []sphinx.CMNRegion, prior []float64, weight float64) {
	if len(prior) < nc || weight <= 0 {
		return
	}
	for _, sg := range segs {
		if sg.Mean == nil {
			continue
		}
		n := float64(sg.End - sg.Start)
		// The frames hold raw - mean; they should hold raw - mean', so
		// subtract mean' - mean = weight·(prior - mean)/(n + weight).
		d := make([]float64, nc)
		for i := 1; i < nc; i++ {
			d[i] = weight * (prior[i] - sg.Mean[i]) / (n + weight)
		}
		sphinx.SubtractMean(cep[sg.Start*nc:sg.End*nc], d)
	}
}
