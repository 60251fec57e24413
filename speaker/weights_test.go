package speaker

import (
	"math"
	"testing"
)

// TestCodebookWeights: every codebook's weights of both streams sum to
// one, and they are far from uniform (the model's senones prefer some
// Gaussians of their codebook by orders of magnitude).
func TestCodebookWeights(t *testing.T) {
	l := openGo(t).(*lattice)
	for f, m := range []*mllrModel{l.m, l.m.delta} {
		const nDen = 128
		lw := make([]float64, m.k)
		for k := range m.k {
			// cnstW - cnst = ln(nDen) + ln w_k (see newMLLR).
			lw[k] = m.cnstW[k] - m.cnst[k] - math.Log(nDen)
		}
		spread := 0.0
		for c := range m.k / nDen {
			var sum float64
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, v := range lw[c*nDen : c*nDen+nDen] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("stream %d codebook %d: log weight %v", f, c, v)
				}
				sum += math.Exp(v)
				lo, hi = min(lo, v), max(hi, v)
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("stream %d codebook %d: weights sum to %.12f; want 1", f, c, sum)
			}
			spread = max(spread, hi-lo)
		}
		if spread < math.Log(100) {
			t.Errorf("stream %d: the largest weight is at most %.1f times the smallest in every codebook; want the model's uneven weights", f, math.Exp(spread))
		}
	}
}

// TestWeightedPosteriors: the embedding's frame posteriors sum to one and
// are the uniform background model's posteriors reweighted by the
// codebook weights (p_k ∝ w_k·N(x; mu_k, sigma_k)), which differ from the
// uniform ones; the timelines' accumulator keeps the uniform ones.
func TestWeightedPosteriors(t *testing.T) {
	l := openGo(t).(*lattice)
	m := l.m
	// A frame between the means of two Gaussians of different codebooks.
	var x [nCep]float64
	for i := range nCep {
		x[i] = 0.5*m.mu[100*nCep+i] + 0.5*m.mu[3000*nCep+i] + 0.3
	}
	w, u := m.newAccumulator(), m.newUniformAccumulator()
	w.frame(&x)
	u.frame(&x)
	var sumW, sumU, norm float64
	for k := range m.k {
		sumW += w.n[k]
		sumU += u.n[k]
		norm += u.n[k] * math.Exp(m.cnstW[k]-m.cnst[k])
	}
	if math.Abs(sumW-1) > 1e-9 || math.Abs(sumU-1) > 1e-9 {
		t.Fatalf("posteriors sum to %.12f (weighted) and %.12f (uniform); want 1", sumW, sumU)
	}
	var tv float64
	for k := range m.k {
		want := u.n[k] * math.Exp(m.cnstW[k]-m.cnst[k]) / norm
		if math.Abs(w.n[k]-want) > 1e-9 {
			t.Fatalf("Gaussian %d: weighted posterior %.3g; want %.3g (uniform %.3g reweighted)", k, w.n[k], want, u.n[k])
		}
		tv += math.Abs(w.n[k]-u.n[k]) / 2
	}
	if tv < 0.05 {
		t.Errorf("the weighted and uniform posteriors differ by %.4f (total variation); want the codebook weights to matter", tv)
	}
	for i := range nCep {
		var fw, fu float64
		for k := range m.k {
			fw += w.f[k*nCep+i]
			fu += u.f[k*nCep+i]
		}
		if math.Abs(fw-x[i]) > 1e-9 || math.Abs(fu-x[i]) > 1e-9 {
			t.Fatalf("first-order sums of c%d: %v and %v; want the frame's %v", i, fw, fu, x[i])
		}
	}
}
