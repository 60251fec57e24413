package sphinx

import (
	"errors"
	"fmt"
	"math"
)

// MLLRStats gathers the statistics of a model-space MLLR transform of the
// Gaussian means (Leggetter and Woodland 1995): per regression class, an
// affine map μ ↦ A·μ + b of the means of every Gaussian of the class,
// block-diagonal (each feature stream — statics, deltas, double deltas
// for 1s_c_d_dd — mapped from itself), estimated from frames aligned to
// known senones. The variances are unchanged. Unlike fMLLR ([FMLLRStats])
// the features stay as they are and the scorer uses adapted means: see
// [Model.WithMeans].
//
// The statistics are kept per Gaussian (its occupancy and the sum of the
// frames it explains, weighted by its posterior within the frame's
// senone), so they are small (one value per mean dimension) and the
// transform of any grouping of codebooks into classes can be estimated
// from them. For row i of a class's transform, with ξ = [μ_s; 1] the
// extended mean of the Gaussian in the row's stream s,
// G_i = Σ_m γ_m/σ²_mi · ξ_mξ_mᵀ and k_i = Σ_m o_mi/σ²_mi · ξ_m, and the row
// is the solution of G_i·w_i = k_i (diagonal covariances).
//
// An MLLRStats is not safe for concurrent use; gather one per goroutine
// and combine them with Merge.
type MLLRStats struct {
	g     *gmm
	occ   [][]float64 // [cb*nFeat+f][density]
	first [][]float64 // [cb*nFeat+f][density*l+i]
	beta  float64
	dens  []float32
	post  []float64
}

// NewMLLRStats returns empty statistics for m's Gaussians. Models with a
// feature_transform (LDA/MLLT) are not supported.
func (m *Model) NewMLLRStats() (*MLLRStats, error) {
	g := m.scorer
	if g.xform != nil {
		return nil, errors.New("sphinx: MLLR: models with a feature_transform are not supported")
	}
	s := &MLLRStats{g: g, occ: make([][]float64, g.nCB*g.nFeat), first: make([][]float64, g.nCB*g.nFeat),
		dens: make([]float32, g.nDen), post: make([]float64, g.nDen)}
	for cb := range g.nCB {
		for f := range g.nFeat {
			k := cb*g.nFeat + f
			s.occ[k] = make([]float64, g.nDen)
			s.first[k] = make([]float64, g.nDen*g.vecLen[f])
		}
	}
	return s, nil
}

// Frames returns the weighted number of frames added.
func (s *MLLRStats) Frames() float64 { return s.beta }

// Merge adds the statistics of o (of the same model) to s.
func (s *MLLRStats) Merge(o *MLLRStats) {
	s.beta += o.beta
	for k := range s.occ {
		for d, v := range o.occ[k] {
			s.occ[k][d] += v
		}
		for j, v := range o.first[k] {
			s.first[k][j] += v
		}
	}
}

// Add counts the feature vector feat (all streams, as the scorer sees
// them) as an observation of senone sen with weight w (1 for a frame of
// a trusted alignment): in each stream, the Gaussians of the senone's
// codebook share w by their posterior (mixture weight times density).
func (s *MLLRStats) Add(feat []float32, sen int, w float64) {
	g := s.g
	if sen < 0 || sen >= g.nSen || w <= 0 {
		return
	}
	cb := int(g.senCB[sen])
	for f := range g.nFeat {
		k := cb*g.nFeat + f
		l := g.vecLen[f]
		x := feat[g.featOff[f] : g.featOff[f]+l]
		gaussians(s.dens, x, g.mean[k], g.prec[k], g.logNorm[k], l)
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
		occ, first := s.occ[k], s.first[k]
		for d, q := range s.post {
			if q < 1e-6*sum {
				continue
			}
			q *= w / sum
			occ[d] += q
			fr := first[d*l : d*l+l]
			for i, v := range x {
				fr[i] += q * float64(v)
			}
		}
	}
	s.beta += w
}

// MLLROptions tune [MLLRStats.Estimate]. The zero value estimates one
// transform for all Gaussians, without a prior.
type MLLROptions struct {
	// Class maps each codebook (a CI phone for a PTM model: see
	// [Model.CodebookPhone]) to its regression class in [0, Classes), or
	// to -1 to leave its Gaussians unadapted. nil puts every codebook in
	// class 0.
	Class func(cb int) int
	// Classes is the number of regression classes; 0 = 1.
	Classes int
	// Prior is the weight, in frames, of a prior centred on the identity
	// transform (with the curvature of each class's own statistics per
	// frame): with few frames a class's transform stays near the
	// identity, with many it is the maximum-likelihood one. 0 = none.
	Prior float64
	// MinFrames is the least occupancy (frames) a class needs to get a
	// transform; classes with less keep their means. 0 = 1.
	MinFrames float64
}

// MeanTransform is the outcome of [MLLRStats.Estimate]: for each class,
// a block-diagonal affine transform of the means, and the class of each
// codebook.
type MeanTransform struct {
	// Class is the regression class of each codebook (-1: unadapted).
	Class []int
	// W holds, per class, the rows of its transform over all feature
	// dimensions: row i (dimension i of stream s, length len(s)+1)
	// maps [μ_s; 1] to the adapted μ_i. nil for a class left unadapted.
	W [][][]float64
	// Frames is the occupancy of each class.
	Frames []float64
}

// Estimate returns the mean transform of each class that maximises the
// likelihood of the statistics (with opts.Prior, their posterior). It
// fails when no frames were added or opts is invalid; a class whose
// statistics are too few or singular keeps its means.
func (s *MLLRStats) Estimate(opts MLLROptions) (*MeanTransform, error) {
	g := s.g
	if s.beta <= 0 {
		return nil, errors.New("sphinx: MLLR: no frames")
	}
	nc := max(opts.Classes, 1)
	if opts.Prior < 0 || opts.MinFrames < 0 {
		return nil, fmt.Errorf("sphinx: MLLR: negative prior %g or minimum %g", opts.Prior, opts.MinFrames)
	}
	minFrames := opts.MinFrames
	if minFrames == 0 {
		minFrames = 1
	}
	t := &MeanTransform{Class: make([]int, g.nCB), W: make([][][]float64, nc), Frames: make([]float64, nc)}
	for cb := range g.nCB {
		c := 0
		if opts.Class != nil {
			c = opts.Class(cb)
		}
		if c < -1 || c >= nc {
			return nil, fmt.Errorf("sphinx: MLLR: codebook %d in class %d of %d", cb, c, nc)
		}
		t.Class[cb] = c
		if c >= 0 {
			// Frames per class: the first stream's occupancy (every
			// stream shares each frame out in full).
			for _, v := range s.occ[cb*g.nFeat] {
				t.Frames[c] += v
			}
		}
	}
	dim := 0
	for _, l := range g.vecLen {
		dim += l
	}
	for c := range nc {
		if t.Frames[c] < minFrames {
			continue
		}
		rows := make([][]float64, dim)
		ok := true
		for f := range g.nFeat {
			l := g.vecLen[f]
			e := l + 1
			gm := make([][]float64, l) // per row: e×e
			kv := make([][]float64, l)
			for i := range l {
				gm[i] = make([]float64, e*e)
				kv[i] = make([]float64, e)
			}
			xi := make([]float64, e)
			xi[l] = 1
			for cb := range g.nCB {
				if t.Class[cb] != c {
					continue
				}
				k := cb*g.nFeat + f
				mean, prec := g.mean[k], g.prec[k]
				for d, o := range s.occ[k] {
					if o <= 0 {
						continue
					}
					for i := range l {
						xi[i] = float64(mean[d*l+i])
					}
					for i := range l {
						iv := 2 * float64(prec[d*l+i])
						gi := o * iv
						row := gm[i]
						for a := range e {
							v := gi * xi[a]
							for b := a; b < e; b++ {
								row[a*e+b] += v * xi[b]
							}
						}
						ki := s.first[k][d*l+i] * iv
						for a := range e {
							kv[i][a] += ki * xi[a]
						}
					}
				}
			}
			for i := range l {
				gr := gm[i]
				for a := range e {
					for b := range a {
						gr[a*e+b] = gr[b*e+a]
					}
				}
				kr := kv[i]
				if opts.Prior > 0 {
					// Prior τ·Ḡ_i (Ḡ_i = G_i per frame) around the identity
					// row w0 = e_i: solve (G_i + τḠ_i)w = k_i + τḠ_i·w0.
					sc := opts.Prior / t.Frames[c]
					for a := range e {
						kr[a] += sc * gr[a*e+i]
					}
					for j := range gr {
						gr[j] *= 1 + sc
					}
				}
				ch, okc := cholesky(gr, e)
				if !okc {
					ok = false
					break
				}
				w := cholSolve(ch, e, kr)
				for _, v := range w {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						ok = false
					}
				}
				rows[g.featOff[f]+i] = w
			}
			if !ok {
				break
			}
		}
		if ok {
			t.W[c] = rows
		}
	}
	return t, nil
}

// CodebookPhone returns the CI phone whose Gaussians codebook cb holds
// (PTM models: one codebook per CI phone), or "" for other kinds.
func (m *Model) CodebookPhone(cb int) string {
	if m.Kind != "ptm" || cb < 0 || cb >= len(m.Mdef.CIName) {
		return ""
	}
	return m.Mdef.CIName[cb]
}

// Codebooks returns the number of Gaussian codebooks of the model.
func (m *Model) Codebooks() int { return m.scorer.nCB }

// WithMeans returns a copy of m whose scorer uses the means adapted by t
// (the variances, mixture weights and everything else are shared with
// m, which is unchanged). It costs one pass over the means (for the
// Debian model 42×128×39 values) and their memory; the copy is
// read-only and safe for concurrent use like m.
func (m *Model) WithMeans(t *MeanTransform) (*Model, error) {
	g := m.scorer
	if len(t.Class) != g.nCB {
		return nil, fmt.Errorf("sphinx: MLLR: transform for %d codebooks, model has %d", len(t.Class), g.nCB)
	}
	ng := *g
	ng.mean = make([][]float32, len(g.mean))
	copy(ng.mean, g.mean)
	for cb, c := range t.Class {
		if c < 0 || c >= len(t.W) || t.W[c] == nil {
			continue
		}
		rows := t.W[c]
		for f := range g.nFeat {
			k := cb*g.nFeat + f
			l := g.vecLen[f]
			off := g.featOff[f]
			src := g.mean[k]
			dst := make([]float32, len(src))
			for d := range g.nDen {
				mu := src[d*l : d*l+l]
				for i := range l {
					w := rows[off+i]
					if len(w) != l+1 {
						return nil, fmt.Errorf("sphinx: MLLR: row %d has %d values, want %d", off+i, len(w), l+1)
					}
					acc := w[l]
					for j, v := range mu {
						acc += w[j] * float64(v)
					}
					dst[d*l+i] = float32(acc)
				}
			}
			ng.mean[k] = dst
		}
	}
	nm := *m
	nm.scorer = &ng
	return &nm, nil
}
