package asr

import (
	"context"
	"math"
	"testing"
)

// warpOf returns the frequency warp chooseWarp picks for samples, from
// the tree pass's alignment of its own speech regions.
func warpOf(t *testing.T, s *sphinxASR, samples []float32) float64 {
	t.Helper()
	ctx := context.Background()
	cep, _, err := s.am.Cepstra(ctx, samples)
	if err != nil {
		t.Fatal(err)
	}
	nc := s.am.Params.NCep
	regions := speechRegions(cep, nc)
	aligned := make([][]alignedFrame, len(regions))
	for i, r := range regions {
		o, err := s.decodeRegion(ctx, cep, nc, r, phaseFirst, nil, nil, nil, nil, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		aligned[i] = o.aligned
	}
	w, err := s.chooseWarp(ctx, samples, regions, aligned)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestChooseWarpFollowsFormants raises every frequency of jfk by 10 %
// (the samples read 1.1 times faster) and checks that the warp chosen
// for it is above the one of the original by most of that factor.
func TestChooseWarpFollowsFormants(t *testing.T) {
	base := *goBackend(t).(*sphinxASR)
	base.adapt, base.vtln = adaptTree, true
	a := jfk(t)
	const f = 1.1
	raised := make([]float32, int(float64(len(a.Samples)-1)/f))
	for i := range raised {
		x := float64(i) * f
		j := int(x)
		raised[i] = a.Samples[j] + float32(x-float64(j))*(a.Samples[j+1]-a.Samples[j])
	}
	w0, w1 := warpOf(t, &base, a.Samples), warpOf(t, &base, raised)
	t.Logf("warp: original %g, frequencies ×%g %g", w0, f, w1)
	if w1/w0 < 1.04 {
		t.Errorf("warp of the raised recording %g, of the original %g: want a ratio of at least 1.04 (the audio is raised by %g)", w1, w0, f)
	}
	if g := warpGrid(); len(g) != 13 || g[0] != 0.88 || g[6] != 1 || g[12] != 1.12 {
		t.Errorf("warpGrid() = %v; want 0.88 … 1.12 in steps of 0.02", g)
	}
	if math.Abs(w0-1) > 0.06 {
		t.Errorf("warp of jfk %g: want within 0.06 of 1", w0)
	}
}
