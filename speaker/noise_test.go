package speaker

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMelBasisRoundTrip: cepstra -> smoothed log mel -> cepstra is exact,
// so compensation changes nothing but what it subtracts.
func TestMelBasisRoundTrip(t *testing.T) {
	m := &mllrModel{}
	m.params.Lifter = 22
	b, lift := m.melBasis()
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		var c, back [nCep]float64
		for i := range c {
			c[i] = 10 * r.NormFloat64()
		}
		var l [nFilt]float64
		for j := range nFilt {
			for i := range nCep {
				l[j] += b[i][j] * c[i] / lift[i]
			}
		}
		for i := range nCep {
			for j := range nFilt {
				back[i] += b[i][j] * l[j]
			}
			back[i] *= lift[i]
			if math.Abs(back[i]-c[i]) > 1e-9 {
				t.Fatalf("c%d: %v after the round trip; want %v", i, back[i], c[i])
			}
		}
	}
}

// TestCompensateNoise: a clean recording is left alone; with white noise
// at 10 dB SNR the estimate says so, and the compensated embedding is
// closer to the clean one than the uncompensated one.
func TestCompensateNoise(t *testing.T) {
	l := openGo(t).(*lattice)
	a := speech(t, "en_jfk_16k.wav")
	ctx := context.Background()
	prep := func(s []float32) ([][nCep]float64, []bool) {
		cep, err := l.m.cepstra(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		return cep, speechMask(cep)
	}
	emb := func(cep [][nCep]float64, mask []bool) []float64 {
		subtractMean(cep, mask)
		l.m.normalizeSpread(cep, mask)
		acc := l.m.newAccumulator()
		for i := range cep {
			if mask[i] {
				acc.frame(&cep[i])
			}
		}
		var st mllrStats
		acc.flush(&st)
		return l.m.embed(&st, windowTau)
	}
	cep, mask := prep(a.Samples)
	before := append([][nCep]float64(nil), cep...)
	if snr := l.m.compensateNoise(cep, mask); snr < noiseSNRHigh {
		t.Errorf("clean recording: SNR estimate %.1f dB; want above %.0f", snr, noiseSNRHigh)
	}
	for i := range cep {
		if cep[i] != before[i] {
			t.Fatalf("clean recording: frame %d changed", i)
		}
	}
	clean := emb(cep, mask)

	var p float64
	for _, v := range a.Samples {
		p += float64(v) * float64(v)
	}
	sd := math.Sqrt(p / float64(len(a.Samples)) / 10)
	r := rand.New(rand.NewPCG(3, 4))
	noisy := make([]float32, len(a.Samples))
	for i, v := range a.Samples {
		noisy[i] = v + float32(sd*r.NormFloat64())
	}
	cep, mask = prep(noisy)
	plain := emb(append([][nCep]float64(nil), cep...), mask)
	if snr := l.m.compensateNoise(cep, mask); snr > noiseSNRLow {
		t.Errorf("10 dB SNR: estimate %.1f dB; want below %.0f", snr, noiseSNRLow)
	}
	comp := emb(cep, mask)
	if s0, s1 := dot(clean, plain), dot(clean, comp); s1 <= s0 {
		t.Errorf("similarity to the clean embedding: %.3f compensated, %.3f not; want higher", s1, s0)
	} else {
		t.Logf("similarity to the clean embedding: %.3f compensated, %.3f not", s1, s0)
	}
}

func TestAbsorbSmall(t *testing.T) {
	// Items 0-3 and 4-6 are two voices; item 7 is a stray group most like
	// the first voice.
	const n = 8
	sim := make([]float64, n*n)
	voice := []int{0, 0, 0, 0, 1, 1, 1, 0}
	for i := range n {
		for j := range n {
			switch {
			case i == j:
				sim[i*n+j] = 1
			case voice[i] == voice[j]:
				sim[i*n+j] = 0.5
			default:
				sim[i*n+j] = -0.1
			}
		}
	}
	for _, tt := range []struct {
		name     string
		minCount float64
		want     []int
	}{
		{"nothing small", 1, []int{0, 0, 0, 0, 4, 4, 4, 7}},
		{"stray joins its voice", 2, []int{0, 0, 0, 0, 4, 4, 4, 0}},
		{"smaller voice joins too", 4, []int{0, 0, 0, 0, 0, 0, 0, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			group := []int{0, 0, 0, 0, 4, 4, 4, 7}
			absorbSmall(sim, group, n, tt.minCount)
			if !slices.Equal(group, tt.want) {
				t.Errorf("groups %v; want %v", group, tt.want)
			}
		})
	}
}

func TestPriorWeight(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		frames int
		snr    float64
		want   float64
	}{
		{200, inf, 100},  // 2 s of clean speech: the study's fixed weight
		{1000, inf, 500}, // in proportion to the speech
		{200, 30, 100},   // 30 dB and above: no noise term
		{200, 40, 100},
		{200, 20, 175}, // halfway: 1 + 1.5/2
		{200, 10, 250}, // 10 dB: 1 + 1.5
		{200, -5, 250}, // capped below 10 dB
		{1000, 10, 1250},
	} {
		if got := priorWeight(c.frames, c.snr); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("priorWeight(%d, %g) = %g, want %g", c.frames, c.snr, got, c.want)
		}
	}
}
