package speaker

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// Phonetically aware statistics: the frame posteriors over the 5376
// Gaussians weighted by which phone the frame is, as the acoustic model
// tells it in context, instead of one uniform background model.

// sendumpLogUnit is one unit of the 8-bit sendump weights in nats
// (1024·ln(1.0001)): a stored byte b is the weight exp(-b·sendumpLogUnit).
const sendumpLogUnit = 1024 * 0.00009999500033330834

// phoneLoop is the context-independent phone loop of the model: every CI
// phone's HMM (NEmit states, each one CI senone of the phone's codebook)
// with its transition matrix, any phone free to follow any other.
type phoneLoop struct {
	nEmit  int
	nState int          // nPhone·nEmit; state p·nEmit+j is phone p's state j
	cb     []int        // state → codebook (its phone)
	w      [2][]float64 // stream → state×nDen linear mixture weights
	trans  []float64    // state×(nEmit+1): linear probability of j → j' within the phone, last column the exit
	cbw    [2][]float64 // stream → codebook×nDen: weights averaged over the codebook's senones
	nDen   int
	nPhone int
}

// loadPhoneLoop reads mdef, sendump and transition_matrices from dir.
func loadPhoneLoop(dir string, k, nDen int) (*phoneLoop, error) {
	read := func(name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("speaker: %w", err)
		}
		return b, nil
	}
	b, err := read("mdef")
	if err != nil {
		return nil, err
	}
	md, err := sphinx.ParseMdef("mdef", b)
	if err != nil {
		return nil, fmt.Errorf("speaker: %w", err)
	}
	nPhone := len(md.CIName)
	if nPhone*nDen != k {
		return nil, fmt.Errorf("speaker: %s: %d CI phones of %d Gaussians, but %d Gaussians: not a PTM model", dir, nPhone, nDen, k)
	}
	if b, err = read("sendump"); err != nil {
		return nil, err
	}
	mw, err := sphinx.ParseSendump("sendump", b, 3, nDen, md.NSen)
	if err != nil {
		return nil, fmt.Errorf("speaker: %w", err)
	}
	if b, err = read("transition_matrices"); err != nil {
		return nil, err
	}
	tm, err := sphinx.ParseTransitionMatrices("transition_matrices", b, 1e-4)
	if err != nil {
		return nil, fmt.Errorf("speaker: %w", err)
	}
	ne := md.NEmit
	pl := &phoneLoop{nEmit: ne, nState: nPhone * ne, nDen: nDen, nPhone: nPhone,
		cb: make([]int, nPhone*ne), trans: make([]float64, nPhone*ne*(ne+1))}
	weight := func(f, d, s int) float64 {
		return math.Exp(-sendumpLogUnit * float64(mw.W[(f*nDen+d)*mw.NSen+s]))
	}
	for f := range 2 {
		pl.w[f] = make([]float64, pl.nState*nDen)
		pl.cbw[f] = make([]float64, nPhone*nDen)
	}
	for p := range nPhone {
		sen := md.Senones(p)
		t := int(md.Phones[p].Tmat)
		for j := range ne {
			s := p*ne + j
			pl.cb[s] = p
			if md.SenoneBase(int(sen[j])) != p {
				return nil, fmt.Errorf("speaker: mdef: CI phone %s draws on another codebook", md.CIName[p])
			}
			for f := range 2 {
				w := pl.w[f][s*nDen : s*nDen+nDen]
				var sum float64
				for d := range nDen {
					w[d] = weight(f, d, int(sen[j]))
					sum += w[d]
				}
				for d := range nDen {
					w[d] /= sum
				}
			}
			var sum float64
			row := pl.trans[s*(ne+1) : s*(ne+1)+ne+1]
			for j2 := j; j2 <= ne; j2++ {
				row[j2] = math.Exp(float64(tm.At(t, j, j2)))
				sum += row[j2]
			}
			for j2 := range row {
				row[j2] /= sum
			}
		}
	}
	// Codebook weights: every senone of the codebook (all triphones) averaged.
	cnt := make([]int, nPhone)
	for s := range md.NSen {
		c := md.SenoneBase(s)
		cnt[c]++
		for f := range 2 {
			for d := range nDen {
				pl.cbw[f][c*nDen+d] += weight(f, d, s)
			}
		}
	}
	for f := range 2 {
		for c := range nPhone {
			var sum float64
			for d := range nDen {
				sum += pl.cbw[f][c*nDen+d]
			}
			for d := range nDen {
				pl.cbw[f][c*nDen+d] /= sum
			}
		}
	}
	return pl, nil
}

// Experiment knobs (temporary).
var (
	expMode    = os.Getenv("SPK_MODE") // "", "w", "fb", "frame"
	expKappa   = envFloat("SPK_KAPPA", 1)
	expPen     = envFloat("SPK_PEN", 1)
	expStreams = int(envFloat("SPK_STREAMS", 1))
	expWithin  = os.Getenv("SPK_WITHIN") // "senone" (default), "uniform", "cb"
	expDelta   = os.Getenv("SPK_DELTAPOST") != "0"
	expSNRW    = envFloat("SPK_SNRW", math.NaN())
	expSNRTau  = os.Getenv("SPK_SNRTAU") == "1"
)

func envFloat(k string, def float64) float64 {
	if v := os.Getenv(k); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err == nil {
			return f
		}
	}
	return def
}

// logLik sets ll[k] to the log-likelihood of x under Gaussian k (with the
// uniform weight 1/K).
func (m *mllrModel) logLik(x *[nCep]float64, ll []float64) {
	var h [nCep]float64
	for i := range nCep {
		h[i] = -0.5 * x[i] * x[i]
	}
	for k := range m.k {
		iv, miv := m.iv[k*nCep:k*nCep+nCep], m.miv[k*nCep:k*nCep+nCep]
		s := m.cnst[k]
		for i := range nCep {
			s += h[i]*iv[i] + x[i]*miv[i]
		}
		ll[k] = s
	}
}

// codebookExp turns ll (one frame) into e[k] = exp(ll[k] - max of k's
// codebook) (0 below llDrop) and returns the maxima.
func codebookExp(ll, e, mx []float64, nDen int) {
	for c := range mx {
		seg := ll[c*nDen : c*nDen+nDen]
		b := math.Inf(-1)
		for _, v := range seg {
			b = max(b, v)
		}
		mx[c] = b
		es := e[c*nDen : c*nDen+nDen]
		for d, v := range seg {
			if v-b < -llDrop {
				es[d] = 0
			} else {
				es[d] = math.Exp(v - b)
			}
		}
	}
}

// senoneScores sets out[s] += log Σ_d w_sd·e_cd + mx_c for every state s.
func (pl *phoneLoop) senoneScores(f int, e, mx, out []float64) {
	nd := pl.nDen
	for s := range pl.nState {
		c := pl.cb[s]
		w := pl.w[f][s*nd : s*nd+nd]
		es := e[c*nd : c*nd+nd]
		var v float64
		for d := range nd {
			v += w[d] * es[d]
		}
		out[s] += math.Log(max(v, 1e-300)) + mx[c]
	}
}

// forwardBackward returns the state posteriors (T×nState) of the phone
// loop given the state log-likelihoods (T×nState), scaled by kappa.
func (pl *phoneLoop) forwardBackward(L []float64, T int, kappa, pen float64) []float64 {
	ns, ne := pl.nState, pl.nEmit
	b := make([]float64, T*ns)
	for t := range T {
		row := L[t*ns : t*ns+ns]
		best := math.Inf(-1)
		for _, v := range row {
			best = max(best, v)
		}
		for s, v := range row {
			b[t*ns+s] = math.Exp(kappa * (v - best))
		}
	}
	pi := pen / float64(pl.nPhone)
	alpha := make([]float64, T*ns)
	for p := range pl.nPhone {
		alpha[p*ne] = b[p*ne] / float64(pl.nPhone)
	}
	norm := func(v []float64) {
		var s float64
		for _, x := range v {
			s += x
		}
		if s > 0 {
			for i := range v {
				v[i] /= s
			}
		}
	}
	norm(alpha[:ns])
	for t := 1; t < T; t++ {
		prev, cur := alpha[(t-1)*ns:t*ns], alpha[t*ns:(t+1)*ns]
		var exit float64
		for s := range ns {
			a := prev[s]
			if a == 0 {
				continue
			}
			j := s % ne
			base := s - j
			row := pl.trans[s*(ne+1) : s*(ne+1)+ne+1]
			for j2 := j; j2 < ne; j2++ {
				cur[base+j2] += a * row[j2]
			}
			exit += a * row[ne]
		}
		for p := range pl.nPhone {
			cur[p*ne] += exit * pi
		}
		for s := range ns {
			cur[s] *= b[t*ns+s]
		}
		norm(cur)
	}
	beta := make([]float64, T*ns)
	for s := range ns {
		beta[(T-1)*ns+s] = 1
	}
	tmp := make([]float64, ns)
	for t := T - 2; t >= 0; t-- {
		next, cur := beta[(t+1)*ns:(t+2)*ns], beta[t*ns:(t+1)*ns]
		var entry float64
		for s := range ns {
			tmp[s] = next[s] * b[(t+1)*ns+s]
		}
		for p := range pl.nPhone {
			entry += tmp[p*ne] * pi
		}
		for s := range ns {
			j := s % ne
			base := s - j
			row := pl.trans[s*(ne+1) : s*(ne+1)+ne+1]
			var v float64
			for j2 := j; j2 < ne; j2++ {
				v += row[j2] * tmp[base+j2]
			}
			cur[s] = v + row[ne]*entry
		}
		norm(cur)
	}
	for t := range T {
		a, bt := alpha[t*ns:(t+1)*ns], beta[t*ns:(t+1)*ns]
		for s := range ns {
			a[s] *= bt[s]
		}
		norm(a)
	}
	return alpha
}

// framePosteriors returns per-frame state posteriors without context
// (the softmax of the kappa-scaled state log-likelihoods).
func (pl *phoneLoop) framePosteriors(L []float64, T int, kappa float64) []float64 {
	ns := pl.nState
	out := make([]float64, T*ns)
	for t := range T {
		row := L[t*ns : t*ns+ns]
		best := math.Inf(-1)
		for _, v := range row {
			best = max(best, v)
		}
		var sum float64
		for s, v := range row {
			out[t*ns+s] = math.Exp(kappa * (v - best))
			sum += out[t*ns+s]
		}
		for s := range ns {
			out[t*ns+s] /= sum
		}
	}
	return out
}

// phoneStats accumulates the statistics of the static frames x and
// delta frames dx (one per speech frame each) with phone-aware
// posteriors; fw weighs each frame (nil: 1).
func (m *mllrModel) phoneStats(ctx context.Context, x, dx [][nCep]float64, fw []float64, st, sd *mllrStats) error {
	pl := m.phones
	T := len(x)
	ns, nd, nc := pl.nState, pl.nDen, pl.nPhone
	ll := make([]float64, m.k)
	e := make([]float64, m.k)
	mx := make([]float64, nc)
	L := make([]float64, T*ns)
	for t := range T {
		if t%500 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		m.logLik(&x[t], ll)
		codebookExp(ll, e, mx, nd)
		pl.senoneScores(0, e, mx, L[t*ns:t*ns+ns])
		if expStreams > 1 {
			m.delta.logLik(&dx[t], ll)
			codebookExp(ll, e, mx, nd)
			pl.senoneScores(1, e, mx, L[t*ns:t*ns+ns])
		}
	}
	var post []float64
	if expMode == "frame" {
		post = pl.framePosteriors(L, T, expKappa)
	} else {
		post = pl.forwardBackward(L, T, expKappa, expPen)
	}
	acc := func(mm *mllrModel, f int, frames [][nCep]float64, s *mllrStats) {
		a := mm.newAccumulator()
		gc := make([]float64, nc)
		coef := make([]float64, nd)
		for t := range T {
			p := post[t*ns : t*ns+ns]
			clear(gc)
			for st := range ns {
				gc[pl.cb[st]] += p[st]
			}
			wt := 1.0
			if fw != nil {
				wt = fw[t]
			}
			mm.logLik(&frames[t], ll)
			codebookExp(ll, e, mx, nd)
			xt := &frames[t]
			for c := range nc {
				if gc[c] < 1e-6 {
					continue
				}
				es := e[c*nd : c*nd+nd]
				cf := coef
				switch expWithin {
				case "uniform":
					var sum float64
					for _, v := range es {
						sum += v
					}
					for d := range nd {
						cf[d] = gc[c] / sum
					}
				case "cb":
					w := pl.cbw[f][c*nd : c*nd+nd]
					var sum float64
					for d := range nd {
						sum += w[d] * es[d]
					}
					for d := range nd {
						cf[d] = gc[c] * w[d] / sum
					}
				default:
					clear(cf)
					for j := range pl.nEmit {
						st := c*pl.nEmit + j
						w := pl.w[f][st*nd : st*nd+nd]
						var sum float64
						for d := range nd {
							sum += w[d] * es[d]
						}
						if sum == 0 {
							continue
						}
						r := p[st] / sum
						for d := range nd {
							cf[d] += r * w[d]
						}
					}
				}
				for d := range nd {
					g := cf[d] * es[d] * wt
					if g < 1e-12 {
						continue
					}
					k := c*nd + d
					a.n[k] += g
					fk := a.f[k*nCep : k*nCep+nCep]
					for i := range nCep {
						fk[i] += g * xt[i]
					}
				}
			}
			a.frames++
		}
		a.flush(s)
	}
	acc(m, 0, x, st)
	if expDelta {
		acc(m.delta, 1, dx, sd)
	} else {
		a := m.delta.newAccumulator()
		for t := range dx {
			a.frameW(&dx[t], 1)
		}
		a.flush(sd)
	}
	return nil
}
