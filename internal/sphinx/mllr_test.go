package sphinx

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestMLLRRecoversMeanShift draws frames from the model's own senones with
// every mean moved by a known block-diagonal affine map (per stream 1.1
// on the diagonal and 0.05 on the first superdiagonal, offset 0.5 on the
// statics) and checks that the estimated transform is near that map,
// that scoring with the adapted means raises the frames' likelihood, that
// frames drawn from the unchanged model give a transform near the
// identity, and that a heavy prior, a class left out (-1) and too few
// frames all keep the means.
func TestMLLRRecoversMeanShift(t *testing.T) {
	m, err := Load(context.Background(), Config{Dir: modelDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	g := m.scorer
	const dim, frames = 39, 6000
	rng := rand.New(rand.NewPCG(3, 4))
	want := make([][]float64, dim) // row i: the 14 values over [μ_stream; 1]
	for i := range dim {
		w := make([]float64, 14)
		w[i%13] = 1.1
		if i%13 != 12 {
			w[i%13+1] = 0.05
		}
		if i < 13 {
			w[13] = 0.5
		}
		want[i] = w
	}
	shift := &MeanTransform{Class: make([]int, g.nCB), W: [][][]float64{want}}
	moved, err := m.WithMeans(shift)
	if err != nil {
		t.Fatal(err)
	}
	draw := func(src *Model) ([][]float32, []int) {
		xs, sens := make([][]float32, frames), make([]int, frames)
		for n := range frames {
			sens[n] = rng.IntN(g.nSen)
			xs[n] = make([]float32, dim)
			sampleSenone(src.scorer, sens[n], rng, xs[n])
		}
		return xs, sens
	}
	stats := func(xs [][]float32, sens []int) *MLLRStats {
		// Two halves merged: Merge must equal one accumulation.
		a, _ := m.NewMLLRStats()
		b, _ := m.NewMLLRStats()
		for n, x := range xs {
			if n < frames/2 {
				a.Add(x, sens[n], 1)
			} else {
				b.Add(x, sens[n], 1)
			}
		}
		a.Merge(b)
		return a
	}
	// deviation returns the largest difference of the matrix part and of
	// the offset of tr's class-0 rows from w.
	deviation := func(tr *MeanTransform, w [][]float64) (float64, float64) {
		var dM, dB float64
		for i, row := range tr.W[0] {
			for j, v := range row {
				if j == 13 {
					dB = max(dB, math.Abs(v-w[i][j]))
				} else {
					dM = max(dM, math.Abs(v-w[i][j]))
				}
			}
		}
		return dM, dB
	}
	ident := make([][]float64, dim)
	for i := range dim {
		ident[i] = make([]float64, 14)
		ident[i][i%13] = 1
	}
	ll := func(am *Model, xs [][]float32, sens []int) float64 {
		sc := am.NewScorer()
		var sum float64
		for n, x := range xs {
			sc.SetFrame(x)
			sum += float64(sc.Senone(sens[n]))
		}
		return sum / float64(len(xs))
	}

	xs, sens := draw(moved)
	st := stats(xs, sens)
	if st.Frames() != frames {
		t.Fatalf("Frames() = %v, want %d", st.Frames(), frames)
	}
	tr, err := st.Estimate(MLLROptions{})
	if err != nil {
		t.Fatal(err)
	}
	dM, dB := deviation(tr, want)
	t.Logf("moved means: max |A − A₀| %.3f, max |b − b₀| %.3f", dM, dB)
	if dM > 0.1 || dB > 0.45 {
		t.Errorf("the estimate is not near the map: max |A − A₀| %.3f (want ≤ 0.1), max |b − b₀| %.3f (want ≤ 0.45)", dM, dB)
	}
	if dI, dO := deviation(tr, ident); dI < 0.05 && dO < 0.25 {
		t.Errorf("the estimate stayed at the identity (%.3f, %.3f)", dI, dO)
	}
	adapted, err := m.WithMeans(tr)
	if err != nil {
		t.Fatal(err)
	}
	before, after, best := ll(m, xs, sens), ll(adapted, xs, sens), ll(moved, xs, sens)
	t.Logf("mean senone log-likelihood: unadapted %.2f, adapted %.2f, true means %.2f", before, after, best)
	if after-before < 0.8*(best-before) {
		t.Errorf("adapted log-likelihood %.2f recovers less than 80%% of the loss (unadapted %.2f, true %.2f)", after, before, best)
	}
	// WithMeans left m unchanged.
	if again := ll(m, xs, sens); again != before {
		t.Errorf("WithMeans changed the model: log-likelihood %v, was %v", again, before)
	}

	// Frames of the model itself: near the identity.
	cx, csens := draw(m)
	tr0, err := stats(cx, csens).Estimate(MLLROptions{})
	if err != nil {
		t.Fatal(err)
	}
	if dM, dB := deviation(tr0, ident); dM > 0.1 || dB > 0.45 {
		t.Errorf("unmoved frames: max |A − I| %.3f, max |b| %.3f; want the identity (≤ 0.1, ≤ 0.45)", dM, dB)
	}
	// A heavy prior holds the identity.
	trP, err := st.Estimate(MLLROptions{Prior: 1e7})
	if err != nil {
		t.Fatal(err)
	}
	if dM, dB := deviation(trP, ident); dM > 0.01 || dB > 0.01 {
		t.Errorf("prior of 1e7 frames: max |A − I| %.3f, max |b| %.3f; want the identity", dM, dB)
	}
	// Two classes, the silence codebook left out; MinFrames above the
	// data leaves everything unadapted.
	sil, _ := m.Mdef.CIPhone("SIL")
	class := func(cb int) int {
		if cb == sil {
			return -1
		}
		return cb % 2
	}
	tr2, err := st.Estimate(MLLROptions{Class: class, Classes: 2})
	if err != nil {
		t.Fatal(err)
	}
	if tr2.W[0] == nil || tr2.W[1] == nil || tr2.Class[sil] != -1 {
		t.Fatalf("two classes: transforms %v %v, silence class %d", tr2.W[0] != nil, tr2.W[1] != nil, tr2.Class[sil])
	}
	if tr2.Frames[0]+tr2.Frames[1] >= frames || tr2.Frames[0] < 100 {
		t.Errorf("class occupancies %v of %d frames: want the silence codebook's frames left out", tr2.Frames, frames)
	}
	a2, err := m.WithMeans(tr2)
	if err != nil {
		t.Fatal(err)
	}
	k := sil * g.nFeat
	if &a2.scorer.mean[k][0] != &g.mean[k][0] {
		t.Error("two classes: the unadapted silence codebook's means were copied or changed")
	}
	if k1 := (sil + 1) * g.nFeat; a2.scorer.mean[k1][0] == g.mean[k1][0] {
		t.Error("two classes: an adapted codebook kept its first mean")
	}
	trN, err := st.Estimate(MLLROptions{MinFrames: 2 * frames})
	if err != nil {
		t.Fatal(err)
	}
	if trN.W[0] != nil {
		t.Error("MinFrames above the data: a transform was estimated")
	}
	for _, bad := range []MLLROptions{{Prior: -1}, {Class: func(int) int { return 3 }, Classes: 2}} {
		if _, err := st.Estimate(bad); err == nil {
			t.Errorf("Estimate(%+v): no error", bad)
		}
	}
	empty, _ := m.NewMLLRStats()
	if _, err := empty.Estimate(MLLROptions{}); err == nil {
		t.Error("Estimate with no frames: no error")
	}
}
