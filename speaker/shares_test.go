package speaker

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSharesFor: long clean recordings keep v7's shares within a few per
// cent; a clean 2 s of speech leans on pitch and deltas, less on F3; in
// noise (20 dB or less) only the pitch's share moves.
func TestSharesFor(t *testing.T) {
	near := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Abs(b) }
	for _, c := range []struct {
		name             string
		frames, f3Frames int
		snr              float64
		want             shares
		tol              float64
	}{
		{"long clean", 20000, 8000, math.Inf(1), longShares, 0.011},
		{"2 s clean", 200, 100, 40, shares{static: 0.82 * 0.8, delta: 0.82 * 0.2, pitch: 0.15, formant: 0.08 * 100 / 150}, 1e-12},
		{"2 s at 25 dB", 200, 100, 25, shares{static: 0.82 * 0.85, delta: 0.82 * 0.15, pitch: 0.15, formant: 0.08 * 100 / 125}, 1e-12},
		{"2 s at 20 dB", 200, 100, 20, shares{static: 0.82 * 0.9, delta: 0.82 * 0.1, pitch: 0.15, formant: 0.08}, 1e-12},
		{"2 s, no F3, clean", 200, 0, 40, shares{static: 0.82 * 0.8, delta: 0.82 * 0.2, pitch: 0.15, formant: 0}, 1e-12},
		{"2 s, no F3, noisy", 200, 0, 12, shares{static: 0.82 * 0.9, delta: 0.82 * 0.1, pitch: 0.15, formant: 0.08}, 1e-12},
	} {
		got := sharesFor(c.frames, c.f3Frames, c.snr)
		if !near(got.static, c.want.static, c.tol) || !near(got.delta, c.want.delta, c.tol) ||
			!near(got.pitch, c.want.pitch, c.tol) || !near(got.formant, c.want.formant, c.tol) {
			t.Errorf("%s: shares %+v; want %+v", c.name, got, c.want)
		}
	}
}

// TestFuseUnequalShares: two embeddings fused with different shares still
// compare by the cosine of their weighted parts.
func TestFuseUnequalShares(t *testing.T) {
	m := &mllrModel{proj: deltaProjection(), rot: dctMatrix(Dim)}
	r := rand.New(rand.NewPCG(6, 7))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return v
	}
	st1, dt1, st2, dt2 := vec(nRows*nXi), vec(nRows*nXi), vec(nRows*nXi), vec(nRows*nXi)
	p1, p2 := unitVec(vec(pitchDims)), unitVec(vec(pitchDims))
	f1, f2 := unitVec(vec(formantDims)), unitVec(vec(formantDims))
	s1, s2 := sharesFor(200, 80, 40), longShares
	a, b := m.fuse(st1, dt1, p1, f1, s1), m.fuse(st2, dt2, p2, f2, s2)
	cos := func(x, y []float64) float64 {
		return dot(unitVec(append([]float64(nil), x...)), unitVec(append([]float64(nil), y...)))
	}
	d1, d2 := m.projectDelta(dt1), m.projectDelta(dt2)
	num := math.Sqrt(s1.static*s2.static)*cos(st1, st2) + math.Sqrt(s1.delta*s2.delta)*cos(d1, d2) +
		math.Sqrt(s1.pitch*s2.pitch)*dot(p1, p2) + math.Sqrt(s1.formant*s2.formant)*dot(f1, f2)
	sum := func(s shares) float64 { return s.static + s.delta + s.pitch + s.formant }
	want := num / math.Sqrt(sum(s1)*sum(s2))
	if got := dot(a, b); math.Abs(got-want) > 1e-12 {
		t.Errorf("cosine %.15f; want %.15f", got, want)
	}
}
