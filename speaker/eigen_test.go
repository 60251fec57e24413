package speaker

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSymEigenvalues checks the eigenvalues of random symmetric matrices
// built from known eigenvalues (Q diag(λ) Qᵀ with Q a product of random
// reflections), and of matrices with repeated and zero eigenvalues.
func TestSymEigenvalues(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		lam  []float64
	}{
		{"distinct", []float64{-3, -1, 0.5, 2, 7, 11}},
		{"repeated", []float64{0, 0, 0, 1, 1, 5, 5, 5}},
		{"one", []float64{4}},
		{"two", []float64{-2, 3}},
		{"laplacian-like", []float64{0, 1e-9, 0.3, 0.31, 2, 2.5, 3, 3, 3, 3, 4, 9}},
	} {
		n := len(tc.lam)
		a := make([]float64, n*n)
		for i := range n {
			a[i*n+i] = tc.lam[i]
		}
		for range 3 { // a ← H a H for a random unit v
			v := make([]float64, n)
			var s float64
			for i := range v {
				v[i] = r.NormFloat64()
				s += v[i] * v[i]
			}
			s = math.Sqrt(s)
			h := make([]float64, n*n)
			for i := range n {
				for j := range n {
					h[i*n+j] = -2 * v[i] * v[j] / (s * s)
				}
				h[i*n+i]++
			}
			a = matMul(matMul(h, a, n), h, n)
		}
		want := slices.Sorted(slices.Values(tc.lam))
		small, largest := symEigenvalues(a, n, n)
		for i := range n {
			if math.Abs(small[i]-want[i]) > 1e-9 {
				t.Errorf("%s: eigenvalue %d = %.12g, want %g", tc.name, i, small[i], want[i])
			}
		}
		if math.Abs(largest-want[n-1]) > 1e-9 {
			t.Errorf("%s: largest = %g, want %g", tc.name, largest, want[n-1])
		}
	}
}

func matMul(a, b []float64, n int) []float64 {
	c := make([]float64, n*n)
	for i := range n {
		for k := range n {
			for j := range n {
				c[i*n+j] += a[i*n+k] * b[k*n+j]
			}
		}
	}
	return c
}
