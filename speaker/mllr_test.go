package speaker

import (
	"math"
	"testing"
)

// tinyModel is a background model of three Gaussians with made-up means
// and variances (enough to check the algebra of the transform passes).
func tinyModel() *mllrModel {
	const k = 3
	m := &mllrModel{k: k, mu: make([]float64, k*nCep), iv: make([]float64, k*nCep),
		miv: make([]float64, k*nCep), cnst: make([]float64, k)}
	for g := range k {
		c := -math.Log(k)
		for i := range nCep {
			mu, v := float64((g+1)*(i-6))/3, 1+float64((g*7+i)%5)
			m.mu[g*nCep+i], m.iv[g*nCep+i], m.miv[g*nCep+i] = mu, 1/v, mu/v
			c -= 0.5 * (math.Log(2*math.Pi*v) + mu*mu/v)
		}
		m.cnst[g] = c
	}
	return m
}

// logLike is what accumulator.frame computes for Gaussian g.
func logLike(m *mllrModel, g int, x *[nCep]float64) float64 {
	s := m.cnst[g]
	for i := range nCep {
		s += -0.5*x[i]*x[i]*m.iv[g*nCep+i] + x[i]*m.miv[g*nCep+i]
	}
	return s
}

func TestSolveWithoutFramesIsIdentity(t *testing.T) {
	w := solve(&mllrStats{})
	for r := range nRows {
		for u := range nXi {
			want := 0.0
			if u == r+2 {
				want = 1
			}
			if math.Abs(w[r][u]-want) > 1e-12 {
				t.Fatalf("row %d, value %d = %v; want %v", r, u, w[r][u], want)
			}
		}
	}
}

// TestMovedMeans: the second pass's posteriors are those of Gaussians
// centred on the moved means (c0 unmoved), with the variances unchanged.
func TestMovedMeans(t *testing.T) {
	m := tinyModel()
	var w [nRows][nXi]float64
	for r := range nRows {
		w[r][r+2] = 1.1
		w[r][0] = 0.3 * float64(r-5)
		w[r][1] = 0.05
	}
	mv := m.moved(&w)
	x := [nCep]float64{1, -2, 0.5, 3, -1, 0, 2, -0.5, 1.5, -3, 0.25, 1, -1}
	for g := range m.k {
		want := -math.Log(float64(m.k))
		for i := range nCep {
			mu := m.mu[g*nCep+i]
			if i > 0 {
				mu = w[i-1][0]
				for j := range nCep {
					mu += w[i-1][1+j] * m.mu[g*nCep+j]
				}
			}
			v := 1 / m.iv[g*nCep+i]
			want -= 0.5 * (math.Log(2*math.Pi*v) + (x[i]-mu)*(x[i]-mu)/v)
		}
		if got := logLike(mv, g, &x); math.Abs(got-want) > 1e-9 {
			t.Errorf("Gaussian %d: log-likelihood %v; want %v", g, got, want)
		}
		if got, orig := logLike(m, g, &x), logLike(mv, g, &x); got == orig {
			t.Errorf("Gaussian %d: the moved model scores the frame as the original does", g)
		}
	}
	// The regressors of the statistics stay the background means.
	if &mv.mu[0] != &m.mu[0] {
		t.Error("moved model has other regressors than the background means")
	}
}
