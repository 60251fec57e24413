package speaker

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// The "sphinx-mllr-v8" embedding: a per-utterance MLLR mean transform of
// the CMU Sphinx English acoustic model's Gaussians, taken as the
// description of the voice (see ../shared/research/speaker-embeddings.md
// and docs/bench/speaker.md for the measurements behind each choice).
//
// All 42×128 = 5376 stream-0 Gaussians of the model's "means" and
// "variances" (13 cepstra c0..c12) form one background model (UBM). For an
// utterance, the frame posteriors of the UBM give the statistics of one
// regularised affine transform mu' = A·mu + b of all UBM means; its 12
// rows for c1..c12 (12 × 14 numbers, identity removed, made unit-free with
// the UBM's global standard deviations) are the 168 numbers of the voice.
// They are zero-padded to 256, rotated by a fixed orthonormal DCT-II
// (cosines are unchanged; the values are spread over all 256 dimensions)
// and scaled to unit length. The transform's prior towards the identity
// weighs in proportion to the speech (priorWeight). v4: the same transform
// of the delta stream's 5376 Gaussians (their own posteriors, on the
// deltas of the normalised cepstra) fills the other 88 numbers through a
// fixed projection, with a share deltaShare of the cosine (fuse).
// v5: the UBM weighs each Gaussian by its codebook weight (the model's
// senone mixture weights averaged over the codebook, codebookWeights)
// instead of uniformly, in both streams; the timelines keep the uniform
// weights (newUniformAccumulator). v6: in noise the static stream's
// model is compensated for the recording's noise and the transform of the
// clean means solved under it (vts.go), and 16 of the delta part's 88
// numbers hold the median pitch (pitch.go). v7: 16 more of them hold the
// median third formant (formant.go); the delta part keeps 56. v8: the
// parts' shares of the cosine follow the amount of speech (shares.go).

const (
	nCep  = 13       // cepstra per frame, c0..c12
	nXi   = nCep + 1 // regressors of one mean: 1, mu0..mu12
	nRows = nCep - 1 // transform rows kept: c1..c12
	nSym  = nXi * (nXi + 1) / 2
	// windowTau is the prior weight towards the identity transform of the
	// timelines' window and group embeddings (their DER was tuned with it);
	// single embeddings use priorWeight.
	windowTau = 100.0
	dbC0      = 1.1513 // c0 units per decibel (c0 = 5·mean(ln mel))
	llDrop    = 30.0   // log-posteriors this far below the best are ignored
	// varFloor is the variance floor of the UBM: 18 Gaussians of the model
	// have a variance of 1e-4 in some dimension (with mixture weight ≈ 0);
	// the median variance per dimension is 29–115.
	varFloor = 1.0
)

const (
	// vadTop is how far (dB) below the 99th percentile of c0 a frame still
	// counts as speech. The study's 30 dB dropped weak consonants; 40 dB
	// gave 3.9 % instead of 6.4 % EER on the dev part of trials-more.txt
	// (35 / 50 dB: 5.4 / 4.9 %) and 11.3 % instead of 12.5 % on its 3 s clips.
	vadTop = 40.0
	vadLow = 3.0 // dB above the 5th percentile of c0 that speech must reach
)

// mllrModel is the background model read from a Sphinx acoustic model.
// It is read-only after loading and safe for concurrent use.
type mllrModel struct {
	params sphinx.FeatParams
	k      int
	nDen   int       // Gaussians per codebook
	mu     []float64 // k×nCep means
	iv     []float64 // k×nCep inverse variances
	miv    []float64 // k×nCep mu·iv
	cnst   []float64 // k: -ln K - ½Σln(2πσ²) - ½Σmu²·iv (uniform weights)
	// cnstW is cnst with the codebook weights: -ln(codebooks) + ln w_k
	// - ½Σln(2πσ²) - ½Σmu²·iv.
	cnstW []float64
	gsd   [nCep]float64
	rot   []float64 // Dim×Dim orthonormal DCT-II, row-major
	// delta is the model of the delta stream's Gaussians (stream 1),
	// nil in itself; proj is deltaProjection().
	delta *mllrModel
	proj  []float64
	// mel maps cepstra to the log mel spectrum and back; cbMean holds each
	// codebook's weighted mean (static stream), where the noise
	// compensation takes its Jacobians (vts.go).
	mel    melMap
	cbMean [][nCep]float64
}

// loadMLLR reads feat.params, means and variances from dir.
func loadMLLR(dir string) (*mllrModel, error) {
	read := func(name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("speaker: %w", err)
		}
		return b, nil
	}
	fp, err := read("feat.params")
	if err != nil {
		return nil, err
	}
	params, err := sphinx.ParseFeatParams("feat.params", fp)
	if err != nil {
		return nil, fmt.Errorf("speaker: %w", err)
	}
	if params.NCep != nCep {
		return nil, fmt.Errorf("speaker: %s: %d cepstra per frame; the embedding needs %d", dir, params.NCep, nCep)
	}
	params.RemoveNoise = false
	mb, err := read("means")
	if err != nil {
		return nil, err
	}
	vb, err := read("variances")
	if err != nil {
		return nil, err
	}
	means, err := sphinx.ParseGauden("means", mb)
	if err != nil {
		return nil, fmt.Errorf("speaker: %w", err)
	}
	vars, err := sphinx.ParseGauden("variances", vb)
	if err != nil {
		return nil, fmt.Errorf("speaker: %w", err)
	}
	if means.NMgau != vars.NMgau || means.NDensity != vars.NDensity || len(means.VecLen) < 2 ||
		len(vars.VecLen) < 2 || means.VecLen[0] != nCep || vars.VecLen[0] != nCep || means.VecLen[1] != nCep || vars.VecLen[1] != nCep {
		return nil, fmt.Errorf("speaker: %s: means and variances do not describe %d-cepstrum and %d-delta Gaussians of the same shape", dir, nCep, nCep)
	}
	lw, err := codebookWeights(dir, means.NMgau*means.NDensity, means.NFeat, means.NDensity)
	if err != nil {
		return nil, err
	}
	m := newMLLR(params, means, vars, 0, lw[0])
	m.delta = newMLLR(params, means, vars, 1, lw[1])
	m.proj = deltaProjection()
	m.mel.b, m.mel.lift = m.melBasis()
	m.cbMean = m.codebookMeans(m.k / m.nDen)
	return m, nil
}

// newMLLR makes the background model of one stream of the model's
// Gaussians (0: cepstra, 1: their deltas); logW holds each Gaussian's log
// weight within its codebook (codebookWeights).
func newMLLR(params sphinx.FeatParams, means, vars *sphinx.Gauden, stream int, logW []float64) *mllrModel {
	k := means.NMgau * means.NDensity
	m := &mllrModel{params: params, k: k, nDen: means.NDensity,
		mu: make([]float64, k*nCep), iv: make([]float64, k*nCep), miv: make([]float64, k*nCep),
		cnst: make([]float64, k), cnstW: make([]float64, k)}
	var sum, sq [nCep]float64
	j := 0
	for g := range means.NMgau {
		for d := range means.NDensity {
			mo, vo := means.Offset(g, stream, d), vars.Offset(g, stream, d)
			c := -math.Log(float64(k))
			for i := range nCep {
				mu, v := float64(means.Data[mo+i]), max(float64(vars.Data[vo+i]), varFloor)
				m.mu[j*nCep+i], m.iv[j*nCep+i], m.miv[j*nCep+i] = mu, 1/v, mu/v
				c -= 0.5 * (math.Log(2*math.Pi*v) + mu*mu/v)
				sum[i] += mu
				sq[i] += v + mu*mu
			}
			m.cnst[j] = c
			m.cnstW[j] = c + math.Log(float64(means.NDensity)) + logW[j]
			j++
		}
	}
	for i := range nCep {
		mean := sum[i] / float64(k)
		m.gsd[i] = math.Sqrt(sq[i]/float64(k) - mean*mean)
	}
	m.rot = dctMatrix(Dim)
	return m
}

// dctMatrix returns the n×n orthonormal DCT-II matrix.
func dctMatrix(n int) []float64 {
	r := make([]float64, n*n)
	for u := range n {
		s := math.Sqrt(2 / float64(n))
		if u == 0 {
			s = math.Sqrt(1 / float64(n))
		}
		for x := range n {
			r[u*n+x] = s * math.Cos(math.Pi*float64(u)*(2*float64(x)+1)/float64(2*n))
		}
	}
	return r
}

// cepstra runs the model's front end on 16 kHz samples (no CMN) and returns
// the frames as float64 rows of nCep values.
func (m *mllrModel) cepstra(ctx context.Context, samples []float32) ([][nCep]float64, error) {
	fe, err := sphinx.NewFrontend(m.params)
	if err != nil {
		return nil, fmt.Errorf("speaker: %w", err)
	}
	c, err := fe.Cepstra(ctx, samples)
	if err != nil {
		return nil, err
	}
	out := make([][nCep]float64, len(c)/nCep)
	for t := range out {
		for i := range nCep {
			out[t][i] = float64(c[t*nCep+i])
		}
	}
	return out, nil
}

// speechMask marks the frames whose energy (c0) is within vadTop dB of the
// loud end of the recording (its 99th percentile) and at least vadLow dB
// above its quiet end (5th percentile): a gate that drops pauses and
// silence, so that they do not describe the voice.
func speechMask(cep [][nCep]float64) []bool {
	if len(cep) == 0 {
		return nil
	}
	c0 := make([]float64, len(cep))
	for t := range cep {
		c0[t] = cep[t][0]
	}
	slices.Sort(c0)
	thr := max(percentile(c0, 99)-vadTop*dbC0, percentile(c0, 5)+vadLow*dbC0)
	mask := make([]bool, len(cep))
	for t := range cep {
		mask[t] = cep[t][0] > thr
	}
	return mask
}

// percentile interpolates linearly in sorted values.
func percentile(sorted []float64, p float64) float64 {
	x := p / 100 * float64(len(sorted)-1)
	i := int(x)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	f := x - float64(i)
	return sorted[i]*(1-f) + sorted[i+1]*f
}

// subtractMean subtracts from every frame the mean of the frames in mask
// (cepstral mean normalisation over speech) and returns the number of them.
func subtractMean(cep [][nCep]float64, mask []bool) int {
	var mean [nCep]float64
	n := 0
	for t := range cep {
		if mask[t] {
			for i := range nCep {
				mean[i] += cep[t][i]
			}
			n++
		}
	}
	if n == 0 {
		return 0
	}
	for i := range nCep {
		mean[i] /= float64(n)
	}
	for t := range cep {
		for i := range nCep {
			cep[t][i] -= mean[i]
		}
	}
	return n
}

// mllrStats are the sufficient statistics of the 12 transform rows: for
// row r, the symmetric 14×14 matrix G_r = Σ_k N_k·iv_kr·ξ_kξ_kᵀ (upper
// triangle) and the vector h_r = Σ_k F_kr·iv_kr·ξ_k, with ξ_k = [1, mu_k].
// They add up over frames, so the statistics of a stretch of speech are
// the sum of those of its parts.
type mllrStats struct {
	g      [nRows][nSym]float64
	h      [nRows][nXi]float64
	frames int
}

func (s *mllrStats) add(o *mllrStats) {
	for r := range nRows {
		for i := range nSym {
			s.g[r][i] += o.g[r][i]
		}
		for i := range nXi {
			s.h[r][i] += o.h[r][i]
		}
	}
	s.frames += o.frames
}

// accumulator turns frames into per-Gaussian occupancies N and first-order
// sums F, and those into mllrStats. It is not safe for concurrent use.
type accumulator struct {
	m      *mllrModel
	cnst   []float64 // m.cnstW or m.cnst: the background model's weights
	n, f   []float64
	ll     []float64
	frames int
}

// newAccumulator returns an accumulator whose frame posteriors weigh each
// Gaussian by its codebook weight (the embeddings).
func (m *mllrModel) newAccumulator() *accumulator {
	return &accumulator{m: m, cnst: m.cnstW, n: make([]float64, m.k), f: make([]float64, m.k*nCep), ll: make([]float64, m.k)}
}

// newUniformAccumulator returns an accumulator whose frame posteriors
// weigh all Gaussians alike, as before sphinx-mllr-v5: the timelines' window
// statistics (their clustering and thresholds were tuned with them).
func (m *mllrModel) newUniformAccumulator() *accumulator {
	a := m.newAccumulator()
	a.cnst = m.cnst
	return a
}

// frame adds one (mean-normalised) frame.
func (a *accumulator) frame(x *[nCep]float64) {
	m := a.m
	var h [nCep]float64
	for i := range nCep {
		h[i] = -0.5 * x[i] * x[i]
	}
	best := math.Inf(-1)
	for k := range m.k {
		iv, miv := m.iv[k*nCep:k*nCep+nCep], m.miv[k*nCep:k*nCep+nCep]
		s := a.cnst[k]
		for i := range nCep {
			s += h[i]*iv[i] + x[i]*miv[i]
		}
		a.ll[k] = s
		best = max(best, s)
	}
	var tot float64
	for k := range m.k {
		d := a.ll[k] - best
		if d < -llDrop {
			a.ll[k] = 0
			continue
		}
		e := math.Exp(d)
		a.ll[k] = e
		tot += e
	}
	for k := range m.k {
		g := a.ll[k]
		if g == 0 {
			continue
		}
		g /= tot
		a.n[k] += g
		f := a.f[k*nCep : k*nCep+nCep]
		for i := range nCep {
			f[i] += g * x[i]
		}
	}
	a.frames++
}

// flush adds the statistics of the frames seen since the last flush to s
// and clears the accumulator.
func (a *accumulator) flush(s *mllrStats) {
	m := a.m
	var xi [nXi]float64
	var p [nSym]float64
	xi[0] = 1
	for k := range m.k {
		nk := a.n[k]
		if nk < 1e-10 {
			continue
		}
		copy(xi[1:], m.mu[k*nCep:k*nCep+nCep])
		j := 0
		for u := range nXi {
			for v := u; v < nXi; v++ {
				p[j] = nk * xi[u] * xi[v]
				j++
			}
		}
		for r := range nRows {
			iv := m.iv[k*nCep+r+1]
			g := &s.g[r]
			for j := range nSym {
				g[j] += iv * p[j]
			}
			fr := a.f[k*nCep+r+1] * iv
			for u := range nXi {
				s.h[r][u] += fr * xi[u]
			}
		}
	}
	s.frames += a.frames
	clear(a.n)
	clear(a.f)
	a.frames = 0
}

// Prior weight of a single embedding (see priorWeight).
const (
	// tauPerFrame is the prior weight per speech frame: 100 for 2 s of
	// speech, the study's best fixed weight for 3-second clips.
	tauPerFrame = 0.5
	// tauSNRSlope is how much more the prior weighs at an estimated SNR
	// of 10 dB or less than at 30 dB or more (linear in between).
	tauSNRSlope = 1.5
)

// priorWeight returns the weight (tau) of the transform's prior towards
// the identity for an utterance of frames speech frames whose estimated
// signal-to-noise ratio is snr dB. It grows with the speech, so that the
// prior keeps a fixed share of the statistics: with a fixed weight, long
// recordings were barely regularised and their transform followed
// whatever the recording, not the voice, did to the cepstra (dev trials,
// both lists, whole files: 4.5 % EER with a fixed 100, 3.6 % with
// 0.5 per frame). Below 30 dB SNR it grows by up to 1+tauSNRSlope, so
// that a noisy recording, whose statistics partly describe the noise the
// spectral subtraction left, moves less far from the background model
// (white noise at 20 dB on one side: 9.6 -> 8.1 %).
func priorWeight(frames int, snr float64) float64 {
	t := tauPerFrame * float64(frames)
	if snr < 30 {
		t *= 1 + tauSNRSlope*(30-max(snr, 10))/20
	}
	return t
}

// embed solves the 12 regularised transform rows of s with prior weight
// tau and returns the unit-length embedding of Dim values.
func (m *mllrModel) embed(s *mllrStats, tau float64) []float64 {
	return m.rotate(m.embedRaw(s, tau))
}

// rotate takes Dim raw numbers by the fixed DCT into a unit-length
// embedding.
func (m *mllrModel) rotate(raw []float64) []float64 {
	e := make([]float64, Dim)
	matVec(e, m.rot, Dim, raw)
	normalize(e)
	return e
}

// embedRaw solves the 12 regularised transform rows of s with prior
// weight tau and returns their nRows×nXi unit-free numbers.
func (m *mllrModel) embedRaw(s *mllrStats, tau float64) []float64 {
	raw := make([]float64, nRows*nXi)
	var a [nXi * nXi]float64
	var b [nXi]float64
	for r := range nRows {
		j := 0
		for u := range nXi {
			for v := u; v < nXi; v++ {
				a[u*nXi+v], a[v*nXi+u] = s.g[r][j], s.g[r][j]
				j++
			}
			a[u*nXi+u] += tau
			b[u] = s.h[r][u]
		}
		b[r+2] += tau // identity row of output r+1 (ξ index 1+i for c_i)
		w := choleskySolve(a[:], b[:], nXi)
		w[r+2]--
		out := r + 1
		w[0] /= m.gsd[out]
		for i := range nCep {
			w[1+i] *= m.gsd[i] / m.gsd[out]
		}
		copy(raw[r*nXi:], w)
	}
	return raw
}

// deltaShare is the share of the spectral cosine of two sphinx-mllr-v4
// (to v6) embeddings that comes from their delta parts (see fuse). Dev trials, both
// lists, whole files / 6 s / 3 s / B noisy / 3 s B noisy: without the
// delta part 3.6 / 4.0 / 11.6 / 8.1 / 19.7 % EER; share 0.1 (kept)
// 3.5 / 3.8 / 10.7 / 8.1 / 19.7 %; 0.2: 3.6 / 3.1 / 10.7 / 8.6 / 20.0 %;
// 0.3: 3.6 / 2.6 / 10.5 / 9.6 / 20.6 %.
const deltaShare = 0.1

// nDelta is how many of the Dim numbers hold the delta part.
const nDelta = Dim - nRows*nXi

// deltaProjection returns the fixed nDelta×(nRows·nXi) projection of the
// delta transform's numbers: ±1 entries from a seeded generator, so that
// every build makes the same one.
func deltaProjection() []float64 {
	r := rand.New(rand.NewPCG(15, Dim))
	p := make([]float64, nDelta*nRows*nXi)
	for i := range p {
		p[i] = float64(2*r.IntN(2) - 1)
	}
	return p
}

// deltas returns the Sphinx delta features of the frames in mask:
// c[t+2] - c[t-2], clamped at the ends (the model's second stream).
func deltas(cep [][nCep]float64, mask []bool) [][nCep]float64 {
	var out [][nCep]float64
	for t := range cep {
		if !mask[t] {
			continue
		}
		p, q := max(0, t-2), min(len(cep)-1, t+2)
		var d [nCep]float64
		for i := range nCep {
			d[i] = cep[q][i] - cep[p][i]
		}
		out = append(out, d)
	}
	return out
}

func normalize(e []float64) {
	var n float64
	for _, v := range e {
		n += v * v
	}
	if n == 0 {
		return
	}
	n = 1 / math.Sqrt(n)
	for i := range e {
		e[i] *= n
	}
}

// choleskySolve solves a·x = b for the symmetric positive definite n×n
// matrix a (row-major, overwritten) and returns x.
func choleskySolve(a, b []float64, n int) []float64 {
	for j := range n {
		d := a[j*n+j]
		for k := range j {
			d -= a[j*n+k] * a[j*n+k]
		}
		d = math.Sqrt(max(d, 1e-12))
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			for k := range j {
				s -= a[i*n+k] * a[j*n+k]
			}
			a[i*n+j] = s / d
		}
	}
	x := make([]float64, n)
	for i := range n {
		s := b[i]
		for k := range i {
			s -= a[i*n+k] * x[k]
		}
		x[i] = s / a[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := x[i]
		for k := i + 1; k < n; k++ {
			s -= a[k*n+i] * x[k]
		}
		x[i] = s / a[i*n+i]
	}
	return x
}
