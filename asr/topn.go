package asr

import (
	"fmt"
	"strconv"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// OptTopN is the number of Gaussians per codebook and stream that score
// a senone in the flat pass (the lattice keeps the flat pass's acoustic
// scores), with speaker adaptation (OptAdapt tree): 1 to 128 for the
// Debian model; default 0, the model's own 4 (the peer's -topn). The
// tree pass keeps the model's. More Gaussians give a closer
// approximation of each senone's mixture likelihood at a CPU cost. See
// docs/bench/asr.md.
const OptTopN = "topn"

// parseTopN reads OptTopN.
func parseTopN(o map[string]string) (int, error) {
	n := 0
	if v := o[OptTopN]; v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 0 || n > 1024 {
			return 0, fmt.Errorf("asr: option %s %q: want an integer in [0, 1024] (0: the model's)", OptTopN, v)
		}
	}
	return n, nil
}

// secondModel returns the model that scores the flat pass: am (the
// adapted means, or nil for the decoder's model) with OptTopN Gaussians
// when the option is set.
func (s *sphinxASR) secondModel(am *sphinx.Model) *sphinx.Model {
	if s.topN <= 0 {
		return am
	}
	if am == nil {
		am = s.am
	}
	return am.WithTopN(s.topN)
}
