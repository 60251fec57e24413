package asr

import (
	"context"
	"math"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// Defaults of the warp grid of OptVTLN: factors vtlnLow, vtlnLow+vtlnStep,
// … up to vtlnHigh.
const (
	vtlnLow  = 0.88
	vtlnHigh = 1.12
	vtlnStep = 0.02
)

// warpGrid returns the warp factors searched, 1 (no warp) among them.
func warpGrid() []float64 {
	var g []float64
	for i := 0; ; i++ {
		w := math.Round((vtlnLow+float64(i)*vtlnStep)*1000) / 1000
		if w > vtlnHigh+1e-9 {
			break
		}
		g = append(g, w)
	}
	return g
}

// chooseWarp returns the factor of the frequency warp of the mel
// filterbank (vocal tract length normalisation) under which the aligned
// speech frames of the file are most likely: for every factor of the
// grid, the file's cepstra are computed again with the warped filterbank
// and the model's CMN, and the log-likelihoods of the aligned frames'
// senones summed (the alignment of the unwarped first pass stays fixed).
// With fewer than adaptMinFrames aligned frames it returns 1.
func (s *sphinxASR) chooseWarp(ctx context.Context, samples []float32, regions [][2]int, aligned [][]alignedFrame) (float64, error) {
	var frames int
	for _, a := range aligned {
		frames += len(a)
	}
	if float64(frames) < s.adaptMinFrames || frames == 0 {
		return 1, nil
	}
	grid := warpGrid()
	ll := make([]float64, len(grid))
	nc := s.am.Params.NCep
	err := eachRegion(ctx, s.workers, len(grid), func(ctx context.Context, k int) (regionOut, error) {
		cep, _, err := s.am.CepstraWarped(ctx, samples, grid[k])
		if err != nil {
			return regionOut{}, err
		}
		sc := s.am.NewScorer()
		buf := make([]float32, 3*nc)
		var sum float64
		for i, r := range regions {
			if err := ctx.Err(); err != nil {
				return regionOut{}, err
			}
			c := cep[r[0]*nc : r[1]*nc]
			for _, a := range aligned[i] {
				sc.SetFrame(sphinx.FeatureAt(buf, c, nc, int(a.t)))
				sum += float64(sc.Senone(int(a.sen)))
			}
		}
		ll[k] = sum
		return regionOut{}, nil
	}, func(int, regionOut) error { return nil })
	if err != nil {
		return 0, err
	}
	best := 0
	for k := range grid {
		if ll[k] > ll[best] {
			best = k
		}
	}
	return grid[best], nil
}
