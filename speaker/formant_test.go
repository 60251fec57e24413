package speaker

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
)

// synthVowel returns sec seconds of a vowel at 16 kHz: a pulse train at f0
// through a cascade of two-pole resonators at the given formant
// frequencies and bandwidths.
func synthVowel(sec, f0 float64, fmts, bws []float64) []float32 {
	const fs = 16000.0
	n := int(sec * fs)
	x := make([]float64, n)
	per := fs / f0
	for p := 0.0; int(p) < n; p += per {
		x[int(p)] = 1
	}
	for i, f := range fmts {
		r := math.Exp(-math.Pi * bws[i] / fs)
		a1, a2 := -2*r*math.Cos(2*math.Pi*f/fs), r*r
		g := 1 + a1 + a2
		var y1, y2 float64
		for j := range x {
			y := g*x[j] - a1*y1 - a2*y2
			y2, y1 = y1, y
			x[j] = y
		}
	}
	out := make([]float32, n)
	var peak float64
	for _, v := range x {
		peak = max(peak, math.Abs(v))
	}
	for j, v := range x {
		out[j] = float32(0.5 * v / peak)
	}
	return out
}

// The formants of a synthetic vowel are found on every frame: F2-F4
// within 3 %, F1 within 10 % (linear prediction pulls a low first formant
// towards the nearest harmonics of the pitch).
func TestFrameFormantsSyntheticVowel(t *testing.T) {
	for _, tc := range []struct {
		f0   float64
		fmts []float64
	}{
		{110, []float64{700, 1220, 2600, 3500}},
		{130, []float64{400, 2000, 2900, 3900}},
		{150, []float64{550, 900, 2400, 3300}},
	} {
		s := synthVowel(1, tc.f0, tc.fmts, []float64{80, 100, 140, 180})
		var frames []int
		for f := 5; f < 90; f++ {
			frames = append(frames, f)
		}
		for i, cs := range frameFormants(s, sotto.SampleRate, frames) {
			got := formantsOf(cs)
			for k, want := range tc.fmts {
				tol := 0.03
				if k == 0 {
					tol = 0.10
				}
				if got[k] == 0 || math.Abs(got[k]-want)/want > tol {
					t.Fatalf("f0 %g, frame %d: F%d = %.0f Hz; want %.0f ± %.0f %% (candidates %v)", tc.f0, frames[i], k+1, got[k], want, 100*tol, cs)
				}
			}
		}
	}
}

func TestFormantEncoding(t *testing.T) {
	enc := func(hz float64) []float64 {
		fr := make([][]formantCand, pitchMinVoiced)
		for i := range fr {
			fr[i] = []formantCand{{500, 80}, {1500, 100}, {hz, 150}, {3900, 200}}
		}
		return formantEncoding(fr)
	}
	for _, c := range []struct{ a, b, min, max float64 }{
		{2500, 2500, 0.999, 1.001},
		{2500, 2500 * math.Pow(2, 1.0/12), 0.70, 0.85}, // a semitone: exp(-1/4)
		{2500, 2500 * math.Pow(2, 3.0/12), 0.05, 0.15}, // three: exp(-9/4)
		{2200, 3100, 0, 0.01},
	} {
		if s := dot(enc(c.a), enc(c.b)); s < c.min || s > c.max {
			t.Errorf("F3 %.0f Hz vs %.0f Hz: cosine %.3f; want %.2f..%.2f", c.a, c.b, s, c.min, c.max)
		}
	}
	// Too few frames with a third formant, or candidates too wide or too
	// low to count: zeros.
	few := make([][]formantCand, 30)
	for i := range few {
		few[i] = []formantCand{{100, 50}, {500, 80}, {1500, 700}, {2500, 150}}
	}
	few[0] = []formantCand{{500, 80}, {1500, 100}, {2500, 150}}
	for name, fr := range map[string][][]formantCand{"none": nil, "one frame": few[:1], "low and wide": few[1:]} {
		for _, v := range formantEncoding(fr) {
			if v != 0 {
				t.Fatalf("%s: %v; want zeros", name, v)
			}
		}
	}
}

// TestFuseShares: the cosine of two fused embeddings is the parts' cosines
// weighted by their shares; the formant part weighs formantShare.
func TestFuseShares(t *testing.T) {
	m := &mllrModel{proj: deltaProjection(), rot: dctMatrix(Dim)}
	r := rand.New(rand.NewPCG(4, 5))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return v
	}
	st, dt := vec(nRows*nXi), vec(nRows*nXi)
	pe := unitVec(vec(pitchDims))
	f1, f2 := unitVec(vec(formantDims)), unitVec(vec(formantDims))
	a := m.fuse(st, dt, pe, f1, longShares)
	for name, c := range map[string]struct {
		b    []float64
		want float64
	}{
		"other formants": {m.fuse(st, dt, pe, f2, longShares), 1 - formantShare*(1-dot(f1, f2))},
		"no formants":    {m.fuse(st, dt, pe, make([]float64, formantDims), longShares), math.Sqrt(1 - formantShare)},
		"no pitch":       {m.fuse(st, dt, make([]float64, pitchDims), f1, longShares), math.Sqrt(1 - pitchShare)},
	} {
		if got := dot(a, c.b) / math.Sqrt(dot(a, a)*dot(c.b, c.b)); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: cosine %.6f; want %.6f", name, got, c.want)
		}
	}
}

func unitVec(v []float64) []float64 {
	normalize(v)
	return v
}

// medianF3 returns the median third formant of the voiced speech frames
// of a, as the embedding finds them, and how many frames had one.
func medianF3(t *testing.T, b Backend, a sotto.Audio) (float64, int) {
	l := b.(*lattice)
	s, err := samples16k(a)
	if err != nil {
		t.Fatal(err)
	}
	cep, err := l.m.cepstra(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	var idx []int
	for _, f := range voicedFrames(s, speechMask(cep)) {
		idx = append(idx, f.Frame)
	}
	var f3 []float64
	for _, cs := range frameFormants(s, a.Rate(), idx) {
		if f := formantsOf(cs)[2]; f > 0 {
			f3 = append(f3, f)
		}
	}
	if len(f3) == 0 {
		return 0, 0
	}
	slices.Sort(f3)
	return f3[len(f3)/2], len(f3)
}

// TestFormantsOfSpeech: the median F3 of real speech is where an adult
// male's is, and clipping, 8 kHz input and white noise at 20 dB SNR move
// it by less than half a semitone (3 %; measured on jfk: -0.4, -0.7 and
// +1.9 %; 8 kHz input analysed at 10 kHz like the rest fell 7 %).
func TestFormantsOfSpeech(t *testing.T) {
	b := openGo(t)
	a := speech(t, "en_jfk_16k.wav")
	ref, n := medianF3(t, b, a)
	if ref < 2100 || ref > 2900 || n < 200 {
		t.Fatalf("jfk: median F3 %.0f Hz over %d frames; want 2100-2900 Hz over at least 200", ref, n)
	}
	clipped := make([]float32, len(a.Samples))
	for i, v := range a.Samples {
		clipped[i] = max(-1, min(1, 4*v))
	}
	s8, err := audio.Resample(nil, a.Samples, a.Rate(), 8000)
	if err != nil {
		t.Fatal(err)
	}
	for name, x := range map[string]sotto.Audio{
		"clipped":   {Samples: clipped, SampleRate: a.Rate()},
		"8 kHz":     {Samples: s8, SampleRate: 8000},
		"20 dB SNR": {Samples: withNoise(a.Samples, 20, 9), SampleRate: a.Rate()},
	} {
		got, _ := medianF3(t, b, x)
		if math.Abs(got/ref-1) > 0.03 {
			t.Errorf("%s: median F3 %.0f Hz; clean %.0f Hz", name, got, ref)
		}
	}
	// Silence and windows past the end have no candidates, and nothing panics.
	for i, cs := range frameFormants(make([]float32, 16000), sotto.SampleRate, []int{0, 10, 99, 200}) {
		if cs != nil {
			t.Errorf("silence, frame %d: %v; want none", i, cs)
		}
	}
}
