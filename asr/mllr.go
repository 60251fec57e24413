package asr

import (
	"context"
	"fmt"
	"strings"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// Option keys of the model-space adaptation (MLLR of the Gaussian means).
const (
	// OptAdaptSpace is where the speaker adaptation (OptAdapt) acts:
	// "features" (the default: one fMLLR feature transform per file),
	// "means" (instead, an MLLR transform of the acoustic model's
	// Gaussian means per regression class, OptMLLRClasses, estimated from
	// the same aligned frames; the flat pass scores with the adapted
	// means) or "both" (fMLLR, then MLLR of the means estimated on the
	// transformed features). See docs/bench/asr.md, "MLLR of the means".
	OptAdaptSpace = "adapt_space"
	// OptMLLRClasses is the number of regression classes of the MLLR
	// transform: "1" (default: one transform for every codebook,
	// silence and noise included), "2" (one for the speech phones;
	// silence and noise keep their means) or "3" (vowels and consonants
	// apart; silence and noise keep their means).
	OptMLLRClasses = "mllr_classes"
	// OptMLLRPrior is the weight, in frames, of the MLLR prior centred on
	// the identity transform (default 1000), per class.
	OptMLLRPrior = "mllr_prior"
)

// mllrConfig is the MLLR part of the driver's configuration.
type mllrConfig struct {
	features bool // estimate the fMLLR feature transform
	means    bool // estimate the MLLR mean transform
	classes  int
	prior    float64
}

// parseMLLR reads OptAdaptSpace, OptMLLRClasses and OptMLLRPrior.
func parseMLLR(o map[string]string) (mllrConfig, error) {
	c := mllrConfig{features: true, classes: 1, prior: 1000}
	switch o[OptAdaptSpace] {
	case "", "features":
	case "means":
		c.features, c.means = false, true
	case "both":
		c.means = true
	default:
		return c, fmt.Errorf("asr: option %s %q: want features, means or both", OptAdaptSpace, o[OptAdaptSpace])
	}
	switch o[OptMLLRClasses] {
	case "", "1":
	case "2":
		c.classes = 2
	case "3":
		c.classes = 3
	default:
		return c, fmt.Errorf("asr: option %s %q: want 1, 2 or 3", OptMLLRClasses, o[OptMLLRClasses])
	}
	if v := o[OptMLLRPrior]; v != "" {
		if _, err := fmt.Sscan(v, &c.prior); err != nil || c.prior < 0 {
			return c, fmt.Errorf("asr: option %s %q: want a number ≥ 0", OptMLLRPrior, v)
		}
	}
	return c, nil
}

// cmuVowels are the vowel phones of the CMU dictionary's phone set.
var cmuVowels = map[string]bool{"AA": true, "AE": true, "AH": true, "AO": true, "AW": true, "AY": true, "EH": true,
	"ER": true, "EY": true, "IH": true, "IY": true, "OW": true, "OY": true, "UH": true, "UW": true}

// mllrClass returns the regression class of codebook cb of am for n
// classes (see OptMLLRClasses): -1 leaves it unadapted.
func mllrClass(am *sphinx.Model, n int) func(cb int) int {
	return func(cb int) int {
		if n == 1 {
			return 0
		}
		ph := am.CodebookPhone(cb)
		if ph == "" || ph == "SIL" || strings.HasPrefix(ph, "+") {
			return -1
		}
		if n == 3 && cmuVowels[ph] {
			return 1
		}
		return 0
	}
}

// adaptation returns the file's feature transform (nil: none) and the
// acoustic model with adapted means (nil: the decoder's), as configured
// by OptAdaptSpace, from the aligned speech frames of its regions.
func (s *sphinxASR) adaptation(ctx context.Context, cep []float32, nc int, regions [][2]int, aligned [][]alignedFrame) (*sphinx.Affine, *sphinx.Model, error) {
	var xf *sphinx.Affine
	if s.mllr.features {
		var err error
		if xf, err = s.transform(ctx, cep, nc, regions, aligned); err != nil {
			return nil, nil, err
		}
	}
	if !s.mllr.means {
		return xf, nil, nil
	}
	total, err := sumRegions(ctx, s.workers, len(regions), func(i int) (*sphinx.MLLRStats, error) {
		return s.mllrStats(cep, nc, regions[i], aligned[i], xf)
	})
	if err != nil {
		return nil, nil, err
	}
	if total == nil || total.Frames() < s.adaptMinFrames {
		return xf, nil, nil
	}
	tr, err := total.Estimate(sphinx.MLLROptions{Class: mllrClass(s.am, s.mllr.classes), Classes: s.mllr.classes,
		Prior: s.mllr.prior, MinFrames: 1})
	if err != nil {
		return xf, nil, nil // degenerate statistics: keep the means
	}
	am, err := s.am.WithMeans(tr)
	if err != nil {
		return nil, nil, err
	}
	return xf, am, nil
}

// mllrStats returns the MLLR statistics of the aligned frames of region
// r of the normalised cepstra cep, transformed by xf (nil: as they
// are), or nil when there are none.
func (s *sphinxASR) mllrStats(cep []float32, nc int, r [2]int, aligned []alignedFrame, xf *sphinx.Affine) (*sphinx.MLLRStats, error) {
	if len(aligned) == 0 {
		return nil, nil
	}
	st, err := s.am.NewMLLRStats()
	if err != nil {
		return nil, err
	}
	c := cep[r[0]*nc : r[1]*nc]
	buf := make([]float32, 3*nc)
	out := make([]float32, 3*nc)
	for _, a := range aligned {
		x := sphinx.FeatureAt(buf, c, nc, int(a.t))
		if xf != nil {
			x = xf.Apply(out, x)
		}
		st.Add(x, int(a.sen), 1)
	}
	return st, nil
}
