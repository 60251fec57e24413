package sphinx

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// sampleSenone draws one feature vector from senone sen's mixture (every
// stream: a Gaussian chosen by the mixture weights, then each dimension
// from it).
func sampleSenone(g *gmm, sen int, rng *rand.Rand, dst []float32) {
	cb := int(g.senCB[sen])
	for f := range g.nFeat {
		k := cb*g.nFeat + f
		l := g.vecLen[f]
		// Mixture weights are -log(w)/logUnit bytes.
		var sum float64
		w := make([]float64, g.nDen)
		for d := range g.nDen {
			w[d] = math.Exp(float64(g.mixLog[g.mixw.W[(f*g.nDen+d)*g.nSen+sen]]))
			sum += w[d]
		}
		u := rng.Float64() * sum
		d := 0
		for ; d < g.nDen-1 && u > w[d]; d++ {
			u -= w[d]
		}
		for i := range l {
			sd := math.Sqrt(1 / (2 * float64(g.prec[k][d*l+i])))
			dst[g.featOff[f]+i] = g.mean[k][d*l+i] + float32(rng.NormFloat64()*sd)
		}
	}
}

// TestFMLLRUndoesDistortion draws frames from the model's own senones,
// distorts them with a known affine map (a per-stream mix of dimensions,
// a scale and an offset) and checks that the estimated transform undoes
// it: A·D ≈ I and A·d + b ≈ 0, for the full and the block-diagonal
// transform; with undistorted frames it stays near the identity, and a
// heavy prior holds it there.
func TestFMLLRUndoesDistortion(t *testing.T) {
	m, err := Load(context.Background(), Config{Dir: modelDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	g := m.scorer
	const dim, frames = 39, 6000
	rng := rand.New(rand.NewPCG(1, 2))
	// D: within each 13-dimensional stream, 1.15 on the diagonal and 0.1
	// on the first superdiagonal; offset 0.4 on statics.
	dm := make([]float64, dim*dim)
	off := make([]float64, dim)
	for i := range dim {
		dm[i*dim+i] = 1.15
		if i%13 != 12 {
			dm[i*dim+i+1] = 0.1
		}
		if i < 13 {
			off[i] = 0.4
		}
	}
	clean, warped := make([][]float32, frames), make([][]float32, frames)
	sens := make([]int, frames)
	for n := range frames {
		sens[n] = rng.IntN(g.nSen)
		x := make([]float32, dim)
		sampleSenone(g, sens[n], rng, x)
		y := make([]float32, dim)
		for i := range dim {
			v := off[i]
			for j := range dim {
				v += dm[i*dim+j] * float64(x[j])
			}
			y[i] = float32(v)
		}
		clean[n], warped[n] = x, y
	}
	stats := func(xs [][]float32) *FMLLRStats {
		// Two halves merged: Merge must equal one accumulation.
		a, _ := m.NewFMLLRStats()
		b, _ := m.NewFMLLRStats()
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
	sw := stats(warped)
	if sw.Frames() != frames {
		t.Fatalf("Frames() = %v, want %d", sw.Frames(), frames)
	}
	// deviation returns the largest |(A·D)ij − δij| and |A·d + b|i.
	deviation := func(a *Affine, dm, off []float64) (float64, float64) {
		var worstM, worstB float64
		for i := range dim {
			row := a.M[i*(dim+1) : (i+1)*(dim+1)]
			b := row[dim]
			for j := range dim {
				var v float64
				for k := range dim {
					v += row[k] * dm[k*dim+j]
				}
				if i == j {
					v--
				}
				worstM = max(worstM, math.Abs(v))
				b += row[j] * off[j]
			}
			worstB = max(worstB, math.Abs(b))
		}
		return worstM, worstB
	}
	for _, blocks := range []bool{false, true} {
		a, err := sw.Estimate(FMLLROptions{Blocks: blocks})
		if err != nil {
			t.Fatal(err)
		}
		dM, dB := deviation(a, dm, off)
		t.Logf("blocks %v: gain %.3f nats/frame, max |A·D − I| %.3f, max |A·d + b| %.3f", blocks, a.Gain, dM, dB)
		if dM > 0.12 || dB > 0.45 {
			t.Errorf("blocks %v: the transform does not undo the distortion: max |A·D − I| %.3f (want ≤ 0.12), max |A·d + b| %.3f (want ≤ 0.45)", blocks, dM, dB)
		}
		// The senone likelihood of the adapted frames (with the Jacobian
		// log|det A|) is back near the best any transform can reach: that
		// of the clean frames less log|det D| (densities of y = D·x + d are
		// those of x divided by |det D|).
		ll := func(xs [][]float32, a *Affine) float64 {
			sc := m.NewScorer()
			buf := make([]float32, dim)
			var sum float64
			for n, x := range xs {
				if a != nil {
					x = a.Apply(buf, x)
				}
				sc.SetFrame(x)
				sum += float64(sc.Senone(sens[n]))
			}
			if a != nil {
				am := make([]float64, dim*dim)
				for i := range dim {
					copy(am[i*dim:(i+1)*dim], a.M[i*(dim+1):i*(dim+1)+dim])
				}
				ld, _ := logAbsDet(am, dim)
				sum += float64(len(xs)) * ld
			}
			return sum / float64(len(xs))
		}
		dc := append([]float64(nil), dm...)
		ldD, _ := logAbsDet(dc, dim)
		best, lw, la := ll(clean, nil)-ldD, ll(warped, nil), ll(warped, a)
		t.Logf("blocks %v: mean senone log-likelihood: distorted %.2f, adapted %.2f, best reachable %.2f", blocks, lw, la, best)
		if la-lw < 0.8*(best-lw) {
			t.Errorf("blocks %v: adapted log-likelihood %.2f recovers less than 80%% of the loss (distorted %.2f, best %.2f)", blocks, la, lw, best)
		}
		if a.Gain <= 0.1 {
			t.Errorf("blocks %v: gain %.3f nats/frame; want a clear rise for distorted frames", blocks, a.Gain)
		}
		if blocks {
			for i := range dim {
				for j := range dim {
					if i/13 != j/13 && a.M[i*(dim+1)+j] != 0 {
						t.Fatalf("blocks: A[%d][%d] = %v outside the stream blocks", i, j, a.M[i*(dim+1)+j])
					}
				}
			}
		}
	}
	ident := make([]float64, dim*dim)
	for i := range dim {
		ident[i*dim+i] = 1
	}
	zero := make([]float64, dim)
	a, err := stats(clean).Estimate(FMLLROptions{})
	if err != nil {
		t.Fatal(err)
	}
	if dM, dB := deviation(a, ident, zero); dM > 0.12 || dB > 0.45 {
		t.Errorf("undistorted frames: max |A − I| %.3f, max |b| %.3f; want the identity (≤ 0.12, ≤ 0.45)", dM, dB)
	}
	a, err = sw.Estimate(FMLLROptions{Prior: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	if dM, dB := deviation(a, ident, zero); dM > 0.02 || dB > 0.05 {
		t.Errorf("prior of 1e6 frames: max |A − I| %.3f, max |b| %.3f; want the identity", dM, dB)
	}
	// Apply computes A·x + b.
	x := warped[0]
	y := a.Apply(make([]float32, dim), x)
	for i := range dim {
		v := a.M[i*(dim+1)+dim]
		for j := range dim {
			v += a.M[i*(dim+1)+j] * float64(x[j])
		}
		if math.Abs(v-float64(y[i])) > 1e-4*(1+math.Abs(v)) {
			t.Fatalf("Apply: y[%d] = %v, want %v", i, y[i], v)
		}
	}
	empty, _ := m.NewFMLLRStats()
	if _, err := empty.Estimate(FMLLROptions{}); err == nil {
		t.Error("Estimate with no frames: no error")
	}
}
