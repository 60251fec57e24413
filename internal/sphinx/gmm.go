package sphinx

import (
	"math"
)

// gmm holds the Gaussians prepared for scoring: for codebook m and
// stream f, means and precisions (1/(2σ²)) laid out [density][dim], and the
// log normalising constant of each density.
type gmm struct {
	nCB, nFeat, nDen int
	vecLen           []int
	featOff          []int // offset of stream f in a feature vector
	mean             [][]float32
	prec             [][]float32
	logNorm          [][]float32
	mixw             *MixWeights
	mixLog           [256]float32 // byte → log weight
	senCB            []int32      // senone → codebook
	cbSenones        [][]int32    // senones of each codebook, ascending
	topN             int
	nSen             int
	xform            *FeatureTransform // applied to each frame, or nil
}

// newGMM prepares the codebooks of means and vars for scoring the senones
// of mw, senone s drawing on codebook senCB[s] (its CI phone for a PTM
// model, itself for a continuous one, 0 for a semi-continuous one).
func newGMM(means, vars *Gauden, varFloor float64, mw *MixWeights, senCB []int32, xform *FeatureTransform, topN int) *gmm {
	g := &gmm{nCB: means.NMgau, nFeat: means.NFeat, nDen: means.NDensity, vecLen: means.VecLen,
		mixw: mw, senCB: senCB, topN: min(topN, means.NDensity), nSen: mw.NSen, xform: xform}
	off := 0
	for _, l := range g.vecLen {
		g.featOff = append(g.featOff, off)
		off += l
	}
	n := g.nCB * g.nFeat
	g.mean = make([][]float32, n)
	g.prec = make([][]float32, n)
	g.logNorm = make([][]float32, n)
	for m := range g.nCB {
		for f := range g.nFeat {
			l := g.vecLen[f]
			start := means.Offset(m, f, 0)
			mu := means.Data[start : start+g.nDen*l]
			va := vars.Data[start : start+g.nDen*l]
			k := m*g.nFeat + f
			g.mean[k] = append([]float32(nil), mu...)
			g.prec[k] = make([]float32, len(va))
			g.logNorm[k] = make([]float32, g.nDen)
			for d := range g.nDen {
				ln := 0.0
				for i := range l {
					v := float64(va[d*l+i])
					if v < varFloor {
						v = varFloor
					}
					g.prec[k][d*l+i] = float32(1 / (2 * v))
					ln -= 0.5 * math.Log(2*math.Pi*v)
				}
				g.logNorm[k][d] = float32(ln)
			}
		}
	}
	g.cbSenones = make([][]int32, g.nCB)
	for sen, cb := range g.senCB {
		g.cbSenones[cb] = append(g.cbSenones[cb], int32(sen))
	}
	for b := range g.mixLog {
		g.mixLog[b] = float32(-logUnit * float64(b))
	}
	return g
}

// topEntry is one of the best Gaussians of a codebook stream.
type topEntry struct {
	idx   int32
	score float32
}

// Scorer computes senone log-likelihoods (natural log) for one frame at a
// time. Codebooks are evaluated lazily, once per frame, when a senone that
// uses them is first scored. A Scorer is not safe for concurrent use; make
// one per goroutine with Model.NewScorer.
type Scorer struct {
	g    *gmm
	feat []float32
	done []bool       // codebook evaluated for the current frame
	top  [][]topEntry // [cb*nFeat+f][topN]
	dens []float32
	fden []float32
	xf   []float32 // the transformed frame when the model has a transform
	// Evals counts codebook-stream evaluations since creation (each is
	// NDensity Gaussians); benchmarks and tests read it.
	Evals int
}

// NewScorer returns a scorer for m.
func (m *Model) NewScorer() *Scorer {
	g := m.scorer
	s := &Scorer{g: g, done: make([]bool, g.nCB), top: make([][]topEntry, g.nCB*g.nFeat), dens: make([]float32, g.nDen)}
	for i := range s.top {
		s.top[i] = make([]topEntry, g.topN)
	}
	if g.xform != nil {
		s.xf = make([]float32, g.xform.Out)
	}
	return s
}

// NSenones returns the number of senones the model scores.
func (s *Scorer) NSenones() int { return s.g.nSen }

// SetFrame makes feat (all streams concatenated, 39 values for 1s_c_d_dd)
// the current observation. When the model has a feature transform
// (feature_transform), it is applied here, so callers always pass the
// untransformed features. The scorer keeps a reference to feat until the
// next SetFrame; the caller must not modify it meanwhile.
func (s *Scorer) SetFrame(feat []float32) {
	if s.g.xform != nil {
		feat = s.g.xform.Apply(s.xf, feat)
	}
	s.feat = feat
	clear(s.done)
}

// gaussians computes the log density of every Gaussian of one codebook
// stream for x into out.
func gaussians(out, x, mean, prec, logNorm []float32, l int) {
	for d := range out {
		mu := mean[d*l : d*l+l]
		pr := prec[d*l : d*l+l]
		var acc float32
		if l == 13 {
			// Unrolled for the common 13-dimensional stream.
			x := x[:13]
			mu := mu[:13]
			pr := pr[:13]
			d0, d1, d2, d3 := x[0]-mu[0], x[1]-mu[1], x[2]-mu[2], x[3]-mu[3]
			a0 := d0 * d0 * pr[0]
			a1 := d1 * d1 * pr[1]
			a2 := d2 * d2 * pr[2]
			a3 := d3 * d3 * pr[3]
			d0, d1, d2, d3 = x[4]-mu[4], x[5]-mu[5], x[6]-mu[6], x[7]-mu[7]
			a0 += d0 * d0 * pr[4]
			a1 += d1 * d1 * pr[5]
			a2 += d2 * d2 * pr[6]
			a3 += d3 * d3 * pr[7]
			d0, d1, d2, d3 = x[8]-mu[8], x[9]-mu[9], x[10]-mu[10], x[11]-mu[11]
			a0 += d0 * d0 * pr[8]
			a1 += d1 * d1 * pr[9]
			a2 += d2 * d2 * pr[10]
			a3 += d3 * d3 * pr[11]
			d0 = x[12] - mu[12]
			a0 += d0 * d0 * pr[12]
			acc = (a0 + a1) + (a2 + a3)
		} else {
			for i := range l {
				df := x[i] - mu[i]
				acc += df * df * pr[i]
			}
		}
		out[d] = logNorm[d] - acc
	}
}

// evalCodebook finds the top-N Gaussians of every stream of codebook cb.
func (s *Scorer) evalCodebook(cb int) {
	g := s.g
	for f := range g.nFeat {
		k := cb*g.nFeat + f
		l := g.vecLen[f]
		x := s.feat[g.featOff[f] : g.featOff[f]+l]
		gaussians(s.dens, x, g.mean[k], g.prec[k], g.logNorm[k], l)
		top := s.top[k]
		for i := range top {
			top[i] = topEntry{-1, float32(math.Inf(-1))}
		}
		worst := top[len(top)-1].score
		for d, v := range s.dens {
			if v <= worst {
				continue
			}
			i := len(top) - 1
			for i > 0 && top[i-1].score < v {
				top[i] = top[i-1]
				i--
			}
			top[i] = topEntry{int32(d), v}
			worst = top[len(top)-1].score
		}
		s.Evals++
	}
	s.done[cb] = true
}

// logAddTable[i] = log(1 + e^(-i/logAddScale)), for linear interpolation.
var logAddTable = func() []float32 {
	t := make([]float32, logAddMax*logAddScale+2)
	for i := range t {
		t[i] = float32(math.Log1p(math.Exp(-float64(i) / logAddScale)))
	}
	return t
}()

const (
	logAddScale = 64
	logAddMax   = 24
)

// logAdd returns log(e^a + e^b) to within about 1e-4 (table with linear
// interpolation; differences beyond 24 nats are dropped).
func logAdd(a, b float32) float32 {
	if a < b {
		a, b = b, a
	}
	d := (a - b) * logAddScale
	if d >= logAddMax*logAddScale {
		return a
	}
	i := int(d)
	fr := d - float32(i)
	return a + logAddTable[i] + fr*(logAddTable[i+1]-logAddTable[i])
}

// Senone returns the log-likelihood of senone sen for the current frame: the
// sum over streams of the log of the weighted top-N Gaussian densities.
func (s *Scorer) Senone(sen int) float32 {
	g := s.g
	cb := int(g.senCB[sen])
	if !s.done[cb] {
		s.evalCodebook(cb)
	}
	var total float32
	mw := g.mixw.W
	for f := range g.nFeat {
		top := s.top[cb*g.nFeat+f]
		base := f * g.nDen
		var acc float32
		for j, t := range top {
			v := g.mixLog[mw[(base+int(t.idx))*g.nSen+sen]] + t.score
			if j == 0 {
				acc = v
			} else {
				acc = logAdd(acc, v)
			}
		}
		total += acc
	}
	return total
}

// ScoreAll writes the score of every senone for feat into out (length
// NSenones) and returns the best score. It walks codebook by codebook so the
// mixture-weight rows are read in order.
func (s *Scorer) ScoreAll(feat []float32, out []float32) float32 {
	s.SetFrame(feat)
	g := s.g
	if len(s.fden) < g.nSen {
		s.fden = make([]float32, g.nSen)
	}
	clear(out[:g.nSen])
	fden := s.fden
	for cb, sens := range g.cbSenones {
		if len(sens) == 0 {
			continue
		}
		s.evalCodebook(cb)
		for f := range g.nFeat {
			top := s.top[cb*g.nFeat+f]
			for j, t := range top {
				row := g.mixw.W[(f*g.nDen+int(t.idx))*g.nSen:][:g.nSen]
				sc := t.score
				if j == 0 {
					for _, sen := range sens {
						fden[sen] = g.mixLog[row[sen]] + sc
					}
					continue
				}
				for _, sen := range sens {
					fden[sen] = logAdd(fden[sen], g.mixLog[row[sen]]+sc)
				}
			}
			for _, sen := range sens {
				out[sen] += fden[sen]
			}
		}
	}
	best := float32(math.Inf(-1))
	for _, v := range out[:g.nSen] {
		best = max(best, v)
	}
	return best
}

// TopN returns the number of Gaussians the model scores each senone with
// per codebook and stream (Config.TopN, at most the densities of a
// codebook).
func (m *Model) TopN() int { return m.scorer.topN }

// WithTopN returns a copy of m whose scorers keep the n best Gaussians
// of each codebook and stream (Config.TopN) instead of m's number: a more
// exact (n larger) or cheaper score of the same model. The copy shares
// m's Gaussians, weights and model definition, so a decoder built on m
// accepts it as decoder.Options.Acoustic. n is clamped to [1, densities
// per codebook]; m itself is returned when n equals its number.
func (m *Model) WithTopN(n int) *Model {
	g := m.scorer
	n = max(1, min(n, g.nDen))
	if n == g.topN {
		return m
	}
	ng := *g
	ng.topN = n
	nm := *m
	nm.scorer = &ng
	nm.topN = n
	return &nm
}
