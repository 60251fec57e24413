package sphinx

import (
	"math"
	"testing"
)

func TestWarpHz(t *testing.T) {
	const upper = 6855.4976
	for _, a := range []float64{0.88, 0.94, 1, 1.06, 1.12} {
		if got := WarpHz(0, a, upper); got != 0 {
			t.Errorf("a=%g: WarpHz(0) = %g, want 0", a, got)
		}
		if got := WarpHz(upper, a, upper); got != upper {
			t.Errorf("a=%g: WarpHz(upper) = %g, want %g", a, got, upper)
		}
		if got := WarpHz(1000, a, upper); math.Abs(got-1000*a) > 1e-9 {
			t.Errorf("a=%g: WarpHz(1000) = %g, want %g (linear below the knee)", a, got, 1000*a)
		}
		prev := -1.0
		for f := 0.0; f <= upper; f += 10 {
			w := WarpHz(f, a, upper)
			if w <= prev || w > upper {
				t.Fatalf("a=%g: WarpHz(%g) = %g after %g: not increasing within [0, upper]", a, f, w, prev)
			}
			prev = w
		}
		// Continuous at the knee.
		knee := 0.85 * upper * min(1, 1/a)
		if d := WarpHz(knee+1e-6, a, upper) - WarpHz(knee-1e-6, a, upper); math.Abs(d) > 1e-4 {
			t.Errorf("a=%g: jump of %g at the knee", a, d)
		}
	}
}

// loudestFilter returns the mel filter with the most energy for a tone of
// hz Hz through a front end with warp factor warp.
func loudestFilter(t *testing.T, hz, warp float64) int {
	t.Helper()
	p := DefaultFeatParams()
	p.RemoveNoise, p.Warp, p.Alpha = false, warp, 0
	fe, err := NewFrontend(p)
	if err != nil {
		t.Fatal(err)
	}
	spch := make([]int16, fe.frameSize)
	for i := range spch {
		spch[i] = int16(8000 * math.Sin(2*math.Pi*hz*float64(i)/p.SampleRate))
	}
	fe.frameCep(nil, spch)
	best := 0
	for i, v := range fe.mfspec {
		if v > fe.mfspec[best] {
			best = i
		}
	}
	return best
}

// A warp moves every filter: the filter that peaks for a tone at f
// without a warp peaks for the tone at WarpHz(f) with it, and no longer
// for the tone at f.
func TestFrontendWarpMovesFilters(t *testing.T) {
	p := DefaultFeatParams()
	melmin, melmax := float64(mel32(float32(p.LowerF))), float64(mel32(float32(p.UpperF)))
	const filt = 20
	centre := float64(melinv32(float32(melmin + float64(filt+1)*(melmax-melmin)/float64(p.NFilt+1))))
	if got := loudestFilter(t, centre, 0); got != filt {
		t.Fatalf("no warp: tone at filter %d's centre %.0f Hz peaks in filter %d", filt, centre, got)
	}
	for _, a := range []float64{0.88, 1.12} {
		if got := loudestFilter(t, WarpHz(centre, a, p.UpperF), a); got != filt {
			t.Errorf("warp %g: tone at %.0f Hz peaks in filter %d, want %d", a, WarpHz(centre, a, p.UpperF), got, filt)
		}
		if got := loudestFilter(t, centre, a); got == filt {
			t.Errorf("warp %g: tone at %.0f Hz still peaks in filter %d", a, centre, got)
		}
	}
	p.Warp = 1.1
	if err := p.Validate(); err != nil {
		t.Errorf("Validate rejected warp 1.1: %v", err)
	}
	p.Warp = 3
	if err := p.Validate(); err == nil {
		t.Error("Validate accepted warp 3")
	}
}
