package sphinx

import (
	"errors"
	"fmt"
	"math"
)

// FMLLRStats gathers the statistics of a feature-space MLLR (constrained
// MLLR) transform of a model's features: an affine map x ↦ A·x + b of
// the feature vectors that raises the likelihood of frames aligned to
// known senones, so the model fits one speaker and channel better while
// senone scoring stays unchanged (the transform is applied to the
// features, not the Gaussians).
//
// For each feature dimension i it holds, over the frames added, G_i =
// Σ γ/σ²_i · ξξᵀ and k_i = Σ γ·μ_i/σ²_i · ξ, where ξ = [x; 1] and γ are
// the posteriors of the Gaussians of the frame's senone in the stream of
// dimension i (Gales 1998, "Maximum likelihood linear transformations
// for HMM-based speech recognition", with diagonal covariances).
// An FMLLRStats is not safe for concurrent use; merge one per goroutine
// with Add.
type FMLLRStats struct {
	g      *gmm
	dim    int         // feature dimensions (39 for 1s_c_d_dd)
	gm     [][]float64 // per row: packed upper triangle of the (dim+1)² matrix G_i
	k      [][]float64 // per row: dim+1
	beta   float64     // weighted frames
	xi     []float64
	outer  []float64
	dens   []float32
	post   []float64
	stream []int // stream of each dimension
}

// NewFMLLRStats returns empty statistics for m's features. Models with a
// feature_transform (LDA/MLLT) are not supported: their Gaussians live
// in the transformed space.
func (m *Model) NewFMLLRStats() (*FMLLRStats, error) {
	g := m.scorer
	if g.xform != nil {
		return nil, errors.New("sphinx: fMLLR: models with a feature_transform are not supported")
	}
	dim := 0
	var stream []int
	for f, l := range g.vecLen {
		dim += l
		for range l {
			stream = append(stream, f)
		}
	}
	e := dim + 1
	s := &FMLLRStats{g: g, dim: dim, xi: make([]float64, e), outer: make([]float64, e*(e+1)/2),
		dens: make([]float32, g.nDen), post: make([]float64, g.nDen), stream: stream}
	s.gm = make([][]float64, dim)
	s.k = make([][]float64, dim)
	for i := range dim {
		s.gm[i] = make([]float64, e*(e+1)/2)
		s.k[i] = make([]float64, e)
	}
	return s, nil
}

// Frames returns the weighted number of frames added.
func (s *FMLLRStats) Frames() float64 { return s.beta }

// Merge adds the statistics of o (of the same model) to s.
func (s *FMLLRStats) Merge(o *FMLLRStats) {
	s.beta += o.beta
	for i := range s.gm {
		for j, v := range o.gm[i] {
			s.gm[i][j] += v
		}
		for j, v := range o.k[i] {
			s.k[i][j] += v
		}
	}
}

// Add counts the feature vector feat (all streams, untransformed) as an
// observation of senone sen with weight w (1 for a frame of a trusted
// alignment).
func (s *FMLLRStats) Add(feat []float32, sen int, w float64) {
	g := s.g
	if sen < 0 || sen >= g.nSen || w <= 0 {
		return
	}
	e := s.dim + 1
	for i := range s.dim {
		s.xi[i] = float64(feat[i])
	}
	s.xi[s.dim] = 1
	p := 0
	for a := range e {
		xa := s.xi[a]
		for b := a; b < e; b++ {
			s.outer[p] = xa * s.xi[b]
			p++
		}
	}
	cb := int(g.senCB[sen])
	for f := range g.nFeat {
		k := cb*g.nFeat + f
		l := g.vecLen[f]
		off := g.featOff[f]
		gaussians(s.dens, feat[off:off+l], g.mean[k], g.prec[k], g.logNorm[k], l)
		best := math.Inf(-1)
		for d := range s.dens {
			v := float64(s.dens[d] + g.mixLog[g.mixw.W[(f*g.nDen+d)*g.nSen+sen]])
			s.post[d] = v
			best = max(best, v)
		}
		var sum float64
		for d, v := range s.post {
			s.post[d] = math.Exp(v - best)
			sum += s.post[d]
		}
		mean, prec := g.mean[k], g.prec[k]
		for i := range l {
			var gi, ki float64
			for d, q := range s.post {
				if q < 1e-6*sum {
					continue
				}
				iv := 2 * float64(prec[d*l+i]) // 1/σ²
				gi += q * iv
				ki += q * iv * float64(mean[d*l+i])
			}
			gi *= w / sum
			ki *= w / sum
			row := s.gm[off+i]
			for j, v := range s.outer {
				row[j] += gi * v
			}
			kr := s.k[off+i]
			for j, v := range s.xi {
				kr[j] += ki * v
			}
		}
	}
	s.beta += w
}

// FMLLROptions tune Estimate. The zero value estimates a full transform
// with 10 iterations and no prior.
type FMLLROptions struct {
	// Prior is the weight, in frames, of a prior centred on the identity
	// transform (with the curvature of the data's own statistics): with
	// few frames the estimate stays near the identity, with many it is
	// the maximum-likelihood one. 0 = none.
	Prior float64
	// Blocks restricts the transform to one block per feature stream
	// (for 1s_c_d_dd split as 0-12/13-25/26-38: statics, deltas and
	// double deltas each mapped from themselves), plus the offset.
	Blocks bool
	// Iterations of the row-by-row update; 0 = 10.
	Iterations int
}

// Affine is an affine feature transform y = A·x + b: Dim rows of Dim+1
// columns, the last column b.
type Affine struct {
	Dim int
	M   []float64
	// Gain is the rise of the auxiliary function per frame of the
	// statistics (nats), a measure of how far the transform moved the
	// model; 0 for the identity.
	Gain float64
}

// Apply writes A·x + b into dst (length Dim) and returns it.
func (t *Affine) Apply(dst, x []float32) []float32 {
	n := t.Dim
	dst = dst[:n]
	x = x[:n]
	for i := range dst {
		row := t.M[i*(n+1) : (i+1)*(n+1)]
		acc := row[n]
		for j, v := range x {
			acc += row[j] * float64(v)
		}
		dst[i] = float32(acc)
	}
	return dst
}

// Estimate returns the transform that maximises the likelihood of the
// statistics (with opts.Prior, their posterior), by Gales's row-by-row
// iteration. It fails when no frames were added or the statistics are
// degenerate.
func (s *FMLLRStats) Estimate(opts FMLLROptions) (*Affine, error) {
	if s.beta <= 0 {
		return nil, errors.New("sphinx: fMLLR: no frames")
	}
	iters := opts.Iterations
	if iters <= 0 {
		iters = 10
	}
	n := s.dim
	e := n + 1
	beta := s.beta
	unpack := func(p []float64) []float64 {
		m := make([]float64, e*e)
		q := 0
		for a := range e {
			for b := a; b < e; b++ {
				m[a*e+b], m[b*e+a] = p[q], p[q]
				q++
			}
		}
		return m
	}
	// Per row: the free columns, and G and k restricted to them with the
	// prior added, G factored once.
	type rowSys struct {
		cols []int
		chol []float64 // Cholesky factor of G restricted, len(cols)²
		k    []float64
		gFul []float64 // G restricted (for the objective)
	}
	rows := make([]rowSys, n)
	for i := range n {
		var cols []int
		if opts.Blocks {
			f := s.stream[i]
			for j := range n {
				if s.stream[j] == f {
					cols = append(cols, j)
				}
			}
			cols = append(cols, n)
		} else {
			for j := range e {
				cols = append(cols, j)
			}
		}
		gfull := unpack(s.gm[i])
		c := len(cols)
		gr := make([]float64, c*c)
		kr := make([]float64, c)
		scale := 1 + opts.Prior/beta
		for a, ca := range cols {
			for b, cb := range cols {
				gr[a*c+b] = gfull[ca*e+cb] * scale
			}
			kr[a] = s.k[i][ca]
			if opts.Prior > 0 {
				// τ(Ḡ_i e_i − e_i): the identity row is the prior's optimum.
				kr[a] += opts.Prior * gfull[ca*e+i] / beta
				if ca == i {
					kr[a] -= opts.Prior
				}
			}
		}
		ch, ok := cholesky(gr, c)
		if !ok {
			return nil, fmt.Errorf("sphinx: fMLLR: statistics of dimension %d are singular", i)
		}
		rows[i] = rowSys{cols: cols, chol: ch, k: kr, gFul: gr}
	}
	betaT := beta + opts.Prior
	w := make([]float64, n*e)
	for i := range n {
		w[i*e+i] = 1
	}
	objective := func() (float64, bool) {
		a := make([]float64, n*n)
		for i := range n {
			copy(a[i*n:(i+1)*n], w[i*e:i*e+n])
		}
		ld, ok := logAbsDet(a, n)
		if !ok {
			return 0, false
		}
		q := betaT * ld
		for i, r := range rows {
			c := len(r.cols)
			for x, cx := range r.cols {
				wx := w[i*e+cx]
				q += wx * r.k[x]
				for y, cy := range r.cols {
					q -= 0.5 * wx * r.gFul[x*c+y] * w[i*e+cy]
				}
			}
		}
		return q, true
	}
	q0, _ := objective()
	a := make([]float64, n*n)
	inv := make([]float64, n*n)
	for range iters {
		for i, r := range rows {
			for x := range n {
				copy(a[x*n:(x+1)*n], w[x*e:x*e+n])
			}
			if !invert(a, inv, n) {
				return nil, errors.New("sphinx: fMLLR: the transform became singular")
			}
			c := len(r.cols)
			cv := make([]float64, c)
			for x, cx := range r.cols {
				if cx < n {
					cv[x] = inv[cx*n+i] // cofactor row i ∝ column i of A⁻¹
				}
			}
			gc := cholSolve(r.chol, c, cv)
			gk := cholSolve(r.chol, c, r.k)
			var e1, e2 float64
			for x := range c {
				e1 += cv[x] * gc[x]
				e2 += cv[x] * gk[x]
			}
			if e1 <= 0 {
				return nil, errors.New("sphinx: fMLLR: degenerate statistics")
			}
			disc := math.Sqrt(e2*e2 + 4*e1*betaT)
			f := func(al float64) float64 { return betaT*math.Log(math.Abs(al*e1+e2)) - 0.5*al*al*e1 }
			al := (-e2 + disc) / (2 * e1)
			if al2 := (-e2 - disc) / (2 * e1); f(al2) > f(al) {
				al = al2
			}
			for x := range e {
				w[i*e+x] = 0
			}
			for x, cx := range r.cols {
				w[i*e+cx] = al*gc[x] + gk[x]
			}
		}
	}
	q1, ok := objective()
	if !ok {
		return nil, errors.New("sphinx: fMLLR: the transform became singular")
	}
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("sphinx: fMLLR: the estimate diverged")
		}
	}
	return &Affine{Dim: n, M: w, Gain: (q1 - q0) / betaT}, nil
}

// cholesky returns the lower Cholesky factor of the c×c matrix g, or
// false when g is not positive definite.
func cholesky(g []float64, c int) ([]float64, bool) {
	l := make([]float64, c*c)
	for i := range c {
		for j := 0; j <= i; j++ {
			sum := g[i*c+j]
			for k := range j {
				sum -= l[i*c+k] * l[j*c+k]
			}
			if i == j {
				if sum <= 0 {
					return nil, false
				}
				l[i*c+i] = math.Sqrt(sum)
			} else {
				l[i*c+j] = sum / l[j*c+j]
			}
		}
	}
	return l, true
}

// cholSolve solves L·Lᵀ·x = b.
func cholSolve(l []float64, c int, b []float64) []float64 {
	y := make([]float64, c)
	for i := range c {
		sum := b[i]
		for k := range i {
			sum -= l[i*c+k] * y[k]
		}
		y[i] = sum / l[i*c+i]
	}
	for i := c - 1; i >= 0; i-- {
		sum := y[i]
		for k := i + 1; k < c; k++ {
			sum -= l[k*c+i] * y[k]
		}
		y[i] = sum / l[i*c+i]
	}
	return y
}

// invert writes the inverse of the n×n matrix a into inv (Gauss-Jordan
// with partial pivoting; a is destroyed) and reports whether a was
// invertible.
func invert(a, inv []float64, n int) bool {
	for i := range inv {
		inv[i] = 0
	}
	for i := range n {
		inv[i*n+i] = 1
	}
	for col := range n {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r*n+col]) > math.Abs(a[p*n+col]) {
				p = r
			}
		}
		if a[p*n+col] == 0 {
			return false
		}
		if p != col {
			for k := range n {
				a[p*n+k], a[col*n+k] = a[col*n+k], a[p*n+k]
				inv[p*n+k], inv[col*n+k] = inv[col*n+k], inv[p*n+k]
			}
		}
		d := 1 / a[col*n+col]
		for k := range n {
			a[col*n+k] *= d
			inv[col*n+k] *= d
		}
		for r := range n {
			if r == col {
				continue
			}
			f := a[r*n+col]
			if f == 0 {
				continue
			}
			for k := range n {
				a[r*n+k] -= f * a[col*n+k]
				inv[r*n+k] -= f * inv[col*n+k]
			}
		}
	}
	return true
}

// logAbsDet returns log|det a| of the n×n matrix a (destroyed), false
// when a is singular.
func logAbsDet(a []float64, n int) (float64, bool) {
	var ld float64
	for col := range n {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r*n+col]) > math.Abs(a[p*n+col]) {
				p = r
			}
		}
		if a[p*n+col] == 0 {
			return 0, false
		}
		if p != col {
			for k := range n {
				a[p*n+k], a[col*n+k] = a[col*n+k], a[p*n+k]
			}
		}
		piv := a[col*n+col]
		ld += math.Log(math.Abs(piv))
		for r := col + 1; r < n; r++ {
			f := a[r*n+col] / piv
			for k := col; k < n; k++ {
				a[r*n+k] -= f * a[col*n+k]
			}
		}
	}
	return ld, true
}
