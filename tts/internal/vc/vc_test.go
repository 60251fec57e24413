package vc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// voiced returns secs seconds of a harmonic signal at Rate: harmonics of f0
// (with a 3 % vibrato so that frames differ) shaped by one resonance at
// formant Hz (Gaussian, 150 Hz wide) over a -30 dB floor.
func voiced(f0, formant, secs float64) []float32 {
	n := int(secs * Rate)
	x := make([]float32, n)
	phase := 0.0
	for i := range n {
		t := float64(i) / Rate
		f := f0 * (1 + 0.03*math.Sin(2*math.Pi*3*t))
		phase += 2 * math.Pi * f / Rate
		var s float64
		for h := 1; float64(h)*f < Rate/2; h++ {
			hf := float64(h) * f
			amp := math.Exp(-0.5*math.Pow((hf-formant)/150, 2)) + 0.03
			s += amp * math.Sin(float64(h)*phase)
		}
		x[i] = float32(0.1 * s)
	}
	return x
}

// centroid is the power-weighted mean frequency of p's LTAS over lo–hi Hz.
func centroid(p Profile, lo, hi float64) float64 {
	var s, w float64
	for b := int(lo / BandHz); b < int(hi/BandHz); b++ {
		pw := math.Pow(10, p.LTAS[b]/10)
		s += pw * (float64(b) + 0.5) * BandHz
		w += pw
	}
	return s / w
}

func TestWarpMovesF0AndFormant(t *testing.T) {
	for _, tc := range []struct{ f0, formant, alpha float64 }{
		{120, 1000, 1.2},
		{120, 1000, 0.85},
		{200, 1500, 1.1},
		{200, 1500, 1},
	} {
		x := voiced(tc.f0, tc.formant, 2)
		before := Analyze(x, Rate)
		y := Warp(x, Rate, tc.alpha)
		if len(y) != len(x) {
			t.Fatalf("Warp(α=%g) has %d samples; want %d", tc.alpha, len(y), len(x))
		}
		after := Analyze(y, Rate)
		if r := after.F0Mean / before.F0Mean; math.Abs(r-tc.alpha) > 0.02*tc.alpha {
			t.Errorf("Warp(f0 %g, α=%g): F0 %0.1f → %0.1f Hz, ratio %.3f; want %.3f", tc.f0, tc.alpha, before.F0Mean, after.F0Mean, r, tc.alpha)
		}
		lo, hi := tc.formant*0.6, tc.formant*1.6
		c0, c1 := centroid(before, lo, hi), centroid(after, lo*tc.alpha, hi*tc.alpha)
		if r := c1 / c0; math.Abs(r-tc.alpha) > 0.04*tc.alpha {
			t.Errorf("Warp(formant %g, α=%g): spectral centroid %0.0f → %0.0f Hz, ratio %.3f; want %.3f", tc.formant, tc.alpha, c0, c1, r, tc.alpha)
		}
	}
}

func TestPitch(t *testing.T) {
	for _, f0 := range []float64{80, 110, 150, 220, 300} {
		p := Analyze(voiced(f0, 800, 1), Rate)
		if math.Abs(p.F0Mean-f0) > 0.01*f0 {
			t.Errorf("Analyze(voiced %g Hz).F0Mean = %.1f; want %g ± 1 %%", f0, p.F0Mean, f0)
		}
		if p.Voiced < 0.9 {
			t.Errorf("Analyze(voiced %g Hz).Voiced = %.2f; want ≥ 0.9", f0, p.Voiced)
		}
	}
}

func TestWarpFactorRecoversWarp(t *testing.T) {
	x := voiced(130, 900, 2)
	// Add a second resonance so the spectral shape has two landmarks.
	x2 := voiced(130, 2400, 2)
	for i := range x {
		x[i] += 0.5 * x2[i]
	}
	from := Analyze(x, Rate)
	for _, alpha := range []float64{0.9, 1, 1.12, 1.2} {
		to := Analyze(Warp(x, Rate, alpha), Rate)
		if got := WarpFactor(from, to); math.Abs(got-alpha) > 0.03 {
			t.Errorf("WarpFactor(x, Warp(x, %g)) = %.3f; want %g ± 0.03", alpha, got, alpha)
		}
	}
}

func TestStretchKeepsPitch(t *testing.T) {
	x := voiced(150, 800, 1)
	for _, n := range []int{len(x) * 2 / 3, len(x) * 3 / 2} {
		y := Stretch(x, Rate, n)
		if len(y) != n {
			t.Fatalf("Stretch(.., %d) has %d samples", n, len(y))
		}
		if p := Analyze(y, Rate); math.Abs(p.F0Mean-150) > 3 {
			t.Errorf("Stretch(to %d).F0Mean = %.1f; want 150 ± 3", n, p.F0Mean)
		}
	}
}

func TestEqualize(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, 2*Rate)
	for i := range x {
		x[i] = float32(0.05 * r.NormFloat64())
	}
	gains := make([]float64, NumBands)
	for b := 2000 / BandHz; b < 3000/BandHz; b++ {
		gains[b] = 6
	}
	for b := 5000 / BandHz; b < 6000/BandHz; b++ {
		gains[b] = -9
	}
	before, after := Analyze(x, Rate), Analyze(Equalize(x, Rate, gains), Rate)
	diff := func(lo, hi int) float64 { // mean dB change over the bands, relative to the flat 500–1500 Hz
		var d, ref float64
		for b := lo / BandHz; b < hi/BandHz; b++ {
			d += after.LTAS[b] - before.LTAS[b]
		}
		for b := 500 / BandHz; b < 1500/BandHz; b++ {
			ref += after.LTAS[b] - before.LTAS[b]
		}
		return d/float64((hi-lo)/BandHz) - ref/float64(1000/BandHz)
	}
	for _, tc := range []struct {
		lo, hi int
		want   float64
	}{{2250, 2750, 6}, {5250, 5750, -9}, {3500, 4500, 0}} {
		if got := diff(tc.lo, tc.hi); math.Abs(got-tc.want) > 1 {
			t.Errorf("Equalize: %d–%d Hz changed by %.2f dB; want %g ± 1", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestEQGains(t *testing.T) {
	a, b := Profile{LTAS: make([]float64, NumBands)}, Profile{LTAS: make([]float64, NumBands)}
	for i := range b.LTAS {
		b.LTAS[i] = 30
	}
	for _, tc := range []struct{ strength, max, want float64 }{{1, 12, 12}, {0.2, 12, 6}, {0, 12, 0}} {
		if g := EQGains(a, b, tc.strength, tc.max); g[10] != tc.want {
			t.Errorf("EQGains(strength %g, max %g)[10] = %g; want %g", tc.strength, tc.max, g[10], tc.want)
		}
	}
}

func TestSyllableRate(t *testing.T) {
	// 4 "syllables" a second: 150 ms tones separated by 100 ms of silence.
	x := voiced(120, 800, 3)
	for i := range x {
		if (i % (Rate / 4)) >= Rate*15/100 {
			x[i] = 0
		}
	}
	p := Analyze(x, Rate)
	if got := p.SyllableRate * p.SpeechSeconds; math.Abs(got-12) > 1 {
		t.Errorf("syllables = %.1f; want 12 ± 1", got)
	}
}

// TestAnalyzeShort: audio shorter than one analysis frame (25 ms at
// 16 kHz) has no frames; it used to index past its end.
func TestAnalyzeShort(t *testing.T) {
	for _, n := range []int{0, 1, 240, 399, 400, 401} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(i%7) / 7
		}
		want := 0
		if n >= 400 {
			want = (n-400)/160 + 1
		}
		if e := frameEnergies(x); len(e) != want {
			t.Errorf("%d samples: %d frames, want %d", n, len(e), want)
		}
		Analyze(x, 16000) // must not panic
	}
}
