package speaker

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sottolabs/sotto"
)

// withNoise returns s with white Gaussian noise at snr dB below its mean
// power (seeded).
func withNoise(s []float32, snr float64, seed uint64) []float32 {
	var p float64
	for _, v := range s {
		p += float64(v) * float64(v)
	}
	sd := math.Sqrt(p / float64(len(s)) / math.Pow(10, snr/10))
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]float32, len(s))
	for i, v := range s {
		out[i] = v + float32(sd*r.NormFloat64())
	}
	return out
}

// TestCompensatedWithoutNoise: with no noise the compensated model is the
// model, every Jacobian is the identity, and the joint solve of all 13
// rows gives what the row-wise solve gives.
func TestCompensatedWithoutNoise(t *testing.T) {
	l := openGo(t).(*lattice)
	m := l.m
	var mx [nCep]float64
	for i := range mx {
		mx[i] = float64(3 - i)
	}
	var zero [nFilt]float64
	c := m.compensated(mx, mx, &zero)
	for i := range m.mu {
		if math.Abs(c.mu[i]-m.mu[i]) > 1e-9 || math.Abs(c.iv[i]/m.iv[i]-1) > 1e-9 {
			t.Fatalf("value %d: mean %v, inverse variance %v after compensating no noise; want %v, %v", i, c.mu[i], c.iv[i], m.mu[i], m.iv[i])
		}
	}
	for k := range m.k {
		if math.Abs(c.cnstW[k]-m.cnstW[k]) > 1e-9 {
			t.Fatalf("Gaussian %d: constant %v; want %v", k, c.cnstW[k], m.cnstW[k])
		}
	}
	jac := m.mel.cbJacobians(m.cbMean, mx, &zero)
	for _, jm := range jac {
		for i := range nCep {
			for j := range nCep {
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(jm[i][j]-want) > 1e-12 {
					t.Fatalf("Jacobian without noise: [%d][%d] = %v; want %v", i, j, jm[i][j], want)
				}
			}
		}
	}
	cep, err := m.cepstra(context.Background(), speech(t, "en_jfk_16k.wav").Samples)
	if err != nil {
		t.Fatal(err)
	}
	mask := speechMask(cep)
	n := subtractMean(cep, mask)
	m.normalizeSpread(cep, mask)
	acc := m.newAccumulator()
	for i := range cep {
		if mask[i] {
			acc.frame(&cep[i])
		}
	}
	joint := c.jointRaw(m, acc, jac, priorWeight(n, 40))
	var st mllrStats
	acc.flush(&st)
	rows := m.embedRaw(&st, priorWeight(n, 40))
	for i := range rows {
		if math.Abs(joint[i]-rows[i]) > 1e-6*(1+math.Abs(rows[i])) {
			t.Fatalf("number %d: joint solve %v, row-wise %v", i, joint[i], rows[i])
		}
	}
}

// TestCompensationInNoise: a clean recording (estimated SNR above
// noiseSNRHigh) is not compensated (the same embedding with the
// compensation on or off); with white noise at
// 15 and 20 dB SNR the compensated embedding of the noisy copy is the
// same in two runs and nearer the clean one's than the uncompensated one.
func TestCompensationInNoise(t *testing.T) {
	l := openGo(t).(*lattice)
	ctx := context.Background()
	for _, name := range []string{"en_jfk_16k.wav", "en_lj_LJ001-0004_16k.wav"} {
		a := speech(t, name)
		on, err := l.embedSamples(ctx, a.Samples, sotto.SampleRate, true)
		if err != nil {
			t.Fatal(err)
		}
		off, err := l.embedSamples(ctx, a.Samples, sotto.SampleRate, false)
		if err != nil {
			t.Fatal(err)
		}
		cep, err := l.m.cepstra(ctx, a.Samples)
		if err != nil {
			t.Fatal(err)
		}
		est := l.m.subtractNoise(cep, speechMask(cep), false)
		if name == "en_jfk_16k.wav" && est.w != 0 {
			t.Fatalf("%s: estimated SNR %.1f dB; want a clean recording (above %.0f dB)", name, est.snr, noiseSNRHigh)
		}
		for i := range on.Vector {
			if est.w == 0 && on.Vector[i] != off.Vector[i] {
				t.Fatalf("%s (clean): value %d is %v compensated, %v not; want no change", name, i, on.Vector[i], off.Vector[i])
			}
		}
		clean := Float64(on.Vector)
		for _, snr := range []float64{15, 20} {
			noisy := withNoise(a.Samples, snr, 3)
			c, err := l.embedSamples(ctx, noisy, sotto.SampleRate, true)
			if err != nil {
				t.Fatal(err)
			}
			u, err := l.embedSamples(ctx, noisy, sotto.SampleRate, false)
			if err != nil {
				t.Fatal(err)
			}
			again, err := l.embedSamples(ctx, noisy, sotto.SampleRate, true)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.Vector {
				if c.Vector[i] != again.Vector[i] {
					t.Fatalf("%s at %.0f dB SNR: value %d differs between two runs", name, snr, i)
				}
			}
			sc, su := dot(clean, Float64(c.Vector)), dot(clean, Float64(u.Vector))
			if sc <= su {
				t.Errorf("%s at %.0f dB SNR: similarity to the clean embedding %.3f compensated, %.3f not; want higher", name, snr, sc, su)
			} else {
				t.Logf("%s at %.0f dB SNR: similarity to the clean embedding %.3f compensated, %.3f not", name, snr, sc, su)
			}
		}
	}
}

// TestPitchEncoding: the cosine of two encodings falls with the distance
// of their medians as the bumps' width says; too few voiced frames give
// zeros.
func TestPitchEncoding(t *testing.T) {
	enc := func(hz float64) []float64 {
		lf := make([]float64, pitchMinVoiced)
		for i := range lf {
			lf[i] = math.Log(hz)
		}
		return pitchEncoding(lf)
	}
	for _, c := range []struct{ a, b, min, max float64 }{
		{120, 120, 0.999, 1.001},
		{120, 120 * math.Pow(2, 3.0/12), 0.70, 0.85}, // three semitones: exp(-1/4)
		{120, 240, 0, 0.05},                          // an octave
		{200, 100 * math.Pow(2, 1.0/12), 0, 0.2},
	} {
		if s := dot(enc(c.a), enc(c.b)); s < c.min || s > c.max {
			t.Errorf("%.0f Hz vs %.0f Hz: cosine %.3f; want %.2f..%.2f", c.a, c.b, s, c.min, c.max)
		}
	}
	for _, v := range pitchEncoding(make([]float64, pitchMinVoiced-1)) {
		if v != 0 {
			t.Fatalf("too few voiced frames: %v; want zeros", v)
		}
	}
}

// TestFramePitch: a harmonic tone's pitch is found within a percent in
// every frame, with and without white noise at 10 dB SNR; white noise
// alone is unvoiced.
func TestFramePitch(t *testing.T) {
	const f0 = 137.0
	s := make([]float32, 16000)
	for i := range s {
		x := float64(i) / 16000
		for h := 1.0; h <= 8; h++ {
			s[i] += float32(0.1 / h * math.Sin(2*math.Pi*f0*h*x))
		}
	}
	mask := make([]bool, 98)
	for i := range mask {
		mask[i] = true
	}
	for name, x := range map[string][]float32{"clean": s, "10 dB SNR": withNoise(s, 10, 1)} {
		lf := framePitch(x, mask)
		if len(lf) < 80 {
			t.Errorf("%s: %d voiced frames of 98; want at least 80", name, len(lf))
		}
		for _, v := range lf {
			if hz := math.Exp(v); math.Abs(hz/f0-1) > 0.01 {
				t.Fatalf("%s: a frame at %.1f Hz; want %.0f", name, hz, f0)
			}
		}
	}
	if lf := framePitch(silentNoise(), mask); len(lf) > 5 {
		t.Errorf("white noise: %d voiced frames; want almost none", len(lf))
	}
}

// silentNoise is one second of white noise.
func silentNoise() []float32 {
	r := rand.New(rand.NewPCG(2, 7))
	s := make([]float32, 16000)
	for i := range s {
		s[i] = float32(0.05 * r.NormFloat64())
	}
	return s
}

// BenchmarkEmbedNoisy is BenchmarkEmbed on a copy with white noise at
// 15 dB SNR, where the model is compensated.
func BenchmarkEmbedNoisy(b *testing.B) {
	be := openGo(b)
	a := speech(b, "en_jfk_16k.wav")
	a.Samples = withNoise(a.Samples, 15, 3)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := be.Embed(context.Background(), a); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/a.Seconds(), "rtf")
}
