package main

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestJacobiEigen checks A·v = λ·v for every pair, unit and orthogonal
// eigenvectors, and the descending order, on a random symmetric matrix.
func TestJacobiEigen(t *testing.T) {
	const d = 12
	r := rand.New(rand.NewPCG(1, 2))
	a := make([]float64, d*d)
	for i := range d {
		for j := i; j < d; j++ {
			x := r.NormFloat64()
			a[i*d+j], a[j*d+i] = x, x
		}
	}
	val, vec := jacobiEigen(a, d)
	for k := range d {
		if k > 0 && val[k] > val[k-1] {
			t.Fatalf("eigenvalues not descending: %v", val)
		}
		for i := range d {
			var av float64
			for j := range d {
				av += a[i*d+j] * vec[k][j]
			}
			if math.Abs(av-val[k]*vec[k][i]) > 1e-9 {
				t.Fatalf("pair %d: (A·v)[%d] = %g, λ·v = %g", k, i, av, val[k]*vec[k][i])
			}
		}
		for l := range d {
			want := 0.0
			if l == k {
				want = 1
			}
			if got := dot(vec[k], vec[l]); math.Abs(got-want) > 1e-9 {
				t.Fatalf("v%d·v%d = %g, want %g", k, l, got, want)
			}
		}
	}
}

// TestNapMapsProject checks that the NAP and the oblique (LDA by
// recording) maps are projections: applied twice they give what they give
// once, and what they remove is gone (NAP: orthogonal to the removed
// eigenvectors).
func TestNapMapsProject(t *testing.T) {
	const d = 10
	r := rand.New(rand.NewPCG(3, 4))
	spd := func() []float64 {
		x := make([]float64, d*d)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		a := make([]float64, d*d)
		for i := range d {
			for j := range d {
				for k := range d {
					a[i*d+j] += x[i*d+k] * x[j*d+k]
				}
			}
		}
		return a
	}
	sw, sb := spd(), spd()
	var e eig
	e.val, e.vec = jacobiEigen(sw, d)
	e.sw, e.sb, e.d = sw, sb, d
	x := make([]float64, d)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	for name, m := range map[string]linMap{"nap": napMap(e, 3), "lda": ldaMap(e, 3, 0.1)} {
		y := m(x)
		z := m(y)
		for i := range y {
			if math.Abs(z[i]-y[i]) > 1e-9 {
				t.Fatalf("%s: not idempotent at %d: %g then %g", name, i, y[i], z[i])
			}
		}
		if math.Abs(dot(y, y)-dot(x, x)) < 1e-6 {
			t.Fatalf("%s: removed nothing", name)
		}
		if name == "nap" {
			for _, v := range e.vec[:3] {
				if c := dot(v, y); math.Abs(c) > 1e-9 {
					t.Fatalf("nap: %g left along a removed direction", c)
				}
			}
		}
	}
}

// TestAddPinkNoise checks the pink noise's level against the signal's
// power and that it leans to low frequencies (neighbouring samples
// correlate, as white noise's do not), and that it is seeded by the name.
func TestAddPinkNoise(t *testing.T) {
	s := make([]float32, 16000)
	for i := range s {
		s[i] = float32(math.Sin(2 * math.Pi * 440 * float64(i) / 16000))
	}
	out := addPinkNoise(s, "x", 20)
	var p, r1 float64
	n := make([]float64, len(s))
	for i := range s {
		n[i] = float64(out[i] - s[i])
		p += n[i] * n[i]
	}
	for i := 1; i < len(n); i++ {
		r1 += n[i] * n[i-1]
	}
	r1 /= p
	p /= float64(len(n))
	if want := 0.5 / 100; math.Abs(p-want)/want > 1e-3 {
		t.Errorf("noise power %g, want %g (20 dB under 0.5)", p, want)
	}
	if r1 < 0.5 {
		t.Errorf("lag-1 correlation %.2f; pink noise's is high", r1)
	}
	w := addNoise(s, "x", 20)
	var wr, wp float64
	for i := 1; i < len(s); i++ {
		wr += float64(w[i]-s[i]) * float64(w[i-1]-s[i-1])
		wp += float64(w[i]-s[i]) * float64(w[i]-s[i])
	}
	if wr/wp > 0.1 {
		t.Errorf("white noise's lag-1 correlation %.2f", wr/wp)
	}
	if again := addPinkNoise(s, "x", 20); again[100] != out[100] {
		t.Error("not reproducible")
	}
	if other := addPinkNoise(s, "y", 20); other[100] == out[100] {
		t.Error("same noise for another name")
	}
}
