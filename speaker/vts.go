package speaker

import "math"

// Model-domain noise compensation of the embedding (sphinx-mllr-v6):
// instead of subtracting the recording's noise from its frames (the
// spectral subtraction of noise.go, which the timelines still use), the
// background model is moved to where the noise puts it, and the speaker's
// transform is solved for the clean means under that noise.
//
// The noise estimate is the spectral subtraction's (the mean mel power of
// the quietest tenth of the frames), faded in by the estimated SNR as the
// subtraction was (in full below noiseSNRLow dB, not at all above
// noiseSNRHigh dB: clean recordings are left exactly as they were). Each
// static Gaussian's mean is taken to the log mel domain with the
// recording's clean mean cepstrum added back (the model's means are
// mean-normalised), the noise is added in the linear mel domain, and the
// result taken back to cepstra with the noisy frames' mean subtracted
// (first-order vector Taylor series: the means exactly, the variances
// through the Jacobian). The frames' posteriors come from that model.
// The transform W of the clean means is then solved under the linearised
// model y ≈ μ'_k + J(Wξ_k − μ_k), J the Jacobian at the Gaussian's
// codebook mean (one per codebook, so that the 182 unknowns' normal
// equations cost what the row-wise ones do): bands the noise fills tell
// the transform little, and what the noise does to the means is not
// put down to the voice. Without noise J = I and the solve is the
// row-wise one. The delta stream is left as it is (compensating it with
// the same Jacobians measured the same). Dev, both lists, whole files /
// 6 s / 3 s / B noisy / 3 s B noisy: docs/bench/speaker.md.

// melMap holds the front end's DCT basis and lifter for the maps between
// liftered cepstra and the cepstrally smoothed log mel spectrum.
type melMap struct {
	b    [nCep][nFilt]float64
	lift [nCep]float64
}

func (mm *melMap) toMel(c *[nCep]float64) (l [nFilt]float64) {
	for j := range nFilt {
		var v float64
		for i := range nCep {
			v += mm.b[i][j] * c[i] / mm.lift[i]
		}
		l[j] = v
	}
	return l
}

func (mm *melMap) toCep(l *[nFilt]float64) (c [nCep]float64) {
	for i := range nCep {
		var v float64
		for j := range nFilt {
			v += mm.b[i][j] * l[j]
		}
		c[i] = v * mm.lift[i]
	}
	return c
}

// logAdd returns the cepstrum of the mel power of x plus noise n, and the
// share of speech in each band, s/(s+n).
func (mm *melMap) logAdd(x *[nCep]float64, n *[nFilt]float64) ([nCep]float64, [nFilt]float64) {
	l := mm.toMel(x)
	var r [nFilt]float64
	for j := range nFilt {
		s := math.Exp(l[j])
		r[j] = s / (s + n[j])
		l[j] = math.Log(s + n[j])
	}
	return mm.toCep(&l), r
}

// jacobian returns d(logAdd)/dx for the speech shares r: lift_i Σ_j
// b_ij r_j b_lj / lift_l.
func (mm *melMap) jacobian(r *[nFilt]float64) (jm [nCep][nCep]float64) {
	for i := range nCep {
		for l := range nCep {
			var v float64
			for j := range nFilt {
				v += mm.b[i][j] * r[j] * mm.b[l][j]
			}
			jm[i][l] = v * mm.lift[i] / mm.lift[l]
		}
	}
	return jm
}

// cleanMean estimates the mean cepstrum of the speech frames without the
// noise n: the frames' mel power minus n (floored at noiseBeta of it).
func (mm *melMap) cleanMean(cep [][nCep]float64, mask []bool, n *[nFilt]float64) (mx, my [nCep]float64) {
	var acc [nFilt]float64
	cnt := 0
	for t := range cep {
		if !mask[t] {
			continue
		}
		l := mm.toMel(&cep[t])
		for j := range nFilt {
			p := math.Exp(l[j])
			acc[j] += math.Log(max(p-n[j], noiseBeta*p))
		}
		for i := range nCep {
			my[i] += cep[t][i]
		}
		cnt++
	}
	if cnt == 0 {
		return mx, my
	}
	for j := range nFilt {
		acc[j] /= float64(cnt)
	}
	for i := range nCep {
		my[i] /= float64(cnt)
	}
	return mm.toCep(&acc), my
}

// compensated returns a copy of the static stream's model m with its
// means and variances moved by additive noise of mel power n (first-order
// VTS): each mean μ to g(μ + mx) − my, g the log-add of n in the mel
// domain, mx the clean speech's mean cepstrum (the model's means are
// mean-normalised, so the recording's mean is added back before the
// noise is added) and my the mean the noisy frames have subtracted; each
// variance to the diagonal of J Σ Jᵀ, J the Jacobian of g at the mean.
// With n = 0 it returns m's model unchanged (the maps are exact).
func (m *mllrModel) compensated(mx, my [nCep]float64, n *[nFilt]float64) *mllrModel {
	mm := &m.mel
	c := *m
	c.mu = make([]float64, m.k*nCep)
	c.iv = make([]float64, m.k*nCep)
	c.miv = make([]float64, m.k*nCep)
	c.cnst = make([]float64, m.k)
	c.cnstW = make([]float64, m.k)
	for k := range m.k {
		mu := m.mu[k*nCep : k*nCep+nCep]
		iv := m.iv[k*nCep : k*nCep+nCep]
		var x [nCep]float64
		for i := range nCep {
			x[i] = mu[i] + mx[i]
		}
		y, r := mm.logAdd(&x, n)
		jm := mm.jacobian(&r)
		old, nw := 0.0, 0.0
		for i := range nCep {
			nm := y[i] - my[i]
			var v float64
			for l := range nCep {
				v += jm[i][l] * jm[i][l] / iv[l]
			}
			v = max(v, varFloor*0.25)
			old -= 0.5 * (math.Log(2*math.Pi/iv[i]) + mu[i]*mu[i]*iv[i])
			nw -= 0.5 * (math.Log(2*math.Pi*v) + nm*nm/v)
			c.mu[k*nCep+i], c.iv[k*nCep+i], c.miv[k*nCep+i] = nm, 1/v, nm/v
		}
		c.cnst[k] = m.cnst[k] - old + nw
		c.cnstW[k] = m.cnstW[k] - old + nw
	}
	return &c
}

// codebookMeans returns the weighted mean of each codebook's static means.
func (m *mllrModel) codebookMeans(nCB int) [][nCep]float64 {
	out := make([][nCep]float64, nCB)
	nDen := m.k / nCB
	for cb := range nCB {
		var ws float64
		for d := range nDen {
			k := cb*nDen + d
			w := math.Exp(m.cnstW[k] - m.cnst[k])
			ws += w
			for i := range nCep {
				out[cb][i] += w * m.mu[k*nCep+i]
			}
		}
		for i := range nCep {
			out[cb][i] /= ws
		}
	}
	return out
}

// spreadOf returns Σ_{i≥1} of the model's global variance of c_i (means
// and variances, Gaussians alike).
func (m *mllrModel) spreadOf() float64 {
	var want float64
	for i := 1; i < nCep; i++ {
		var s, sq float64
		for k := range m.k {
			mu := m.mu[k*nCep+i]
			s += mu
			sq += mu*mu + 1/m.iv[k*nCep+i]
		}
		mean := s / float64(m.k)
		want += sq/float64(m.k) - mean*mean
	}
	return want
}

// cbJacobians returns the Jacobian of logAdd at each codebook's mean
// (cbMean, plus the clean utterance mean mx).
func (mm *melMap) cbJacobians(cbMean [][nCep]float64, mx [nCep]float64, n *[nFilt]float64) [][nCep][nCep]float64 {
	jms := make([][nCep][nCep]float64, len(cbMean))
	for cb := range cbMean {
		var x [nCep]float64
		for i := range nCep {
			x[i] = cbMean[cb][i] + mx[i]
		}
		_, r := mm.logAdd(&x, n)
		jms[cb] = mm.jacobian(&r)
	}
	return jms
}

const nJoint = nCep * nXi

// jointRaw solves the transform W of the clean means (all 13 rows) from
// the occupancies and first-order sums of a (posteriors of the noisy
// model c) under the first-order model y ≈ μ'_k + J(Wξ_k − μ_k), J the
// codebook's Jacobian, and returns its rows c1..c12 as embedRaw does.
func (c *mllrModel) jointRaw(clean *mllrModel, a *accumulator, jms [][nCep][nCep]float64, tau float64) []float64 {
	nCB := len(jms)
	nDen := clean.k / nCB
	S := make([][nCep][nXi * nXi]float64, nCB)
	var h [nCep][nXi]float64
	var xi [nXi]float64
	xi[0] = 1
	for k := range clean.k {
		nk := a.n[k]
		if nk < 1e-10 {
			continue
		}
		cb := k / nDen
		jm := &jms[cb]
		mu := clean.mu[k*nCep : k*nCep+nCep]
		copy(xi[1:], mu)
		iv := c.iv[k*nCep : k*nCep+nCep]
		var z [nCep]float64
		for i := range nCep {
			var jmu float64
			for l := range nCep {
				jmu += jm[i][l] * mu[l]
			}
			z[i] = (a.f[k*nCep+i] - nk*(c.mu[k*nCep+i]-jmu)) * iv[i]
		}
		for i := range nCep {
			s := &S[cb][i]
			w := nk * iv[i]
			for u := range nXi {
				for v := u; v < nXi; v++ {
					s[u*nXi+v] += w * xi[u] * xi[v]
				}
			}
		}
		for r := range nCep {
			var v float64
			for i := range nCep {
				v += jm[i][r] * z[i]
			}
			for u := range nXi {
				h[r][u] += v * xi[u]
			}
		}
	}
	g := make([]float64, nJoint*nJoint)
	for cb := range nCB {
		jm := &jms[cb]
		for i := range nCep {
			s := &S[cb][i]
			for u := range nXi {
				for v := 0; v < u; v++ {
					s[u*nXi+v] = s[v*nXi+u]
				}
			}
			for r := range nCep {
				jr := jm[i][r]
				if jr == 0 {
					continue
				}
				for q := range nCep {
					f := jr * jm[i][q]
					for u := range nXi {
						row := g[(r*nXi+u)*nJoint+q*nXi : (r*nXi+u)*nJoint+q*nXi+nXi]
						su := s[u*nXi : u*nXi+nXi]
						for v := range nXi {
							row[v] += f * su[v]
						}
					}
				}
			}
		}
	}
	b := make([]float64, nJoint)
	for r := range nCep {
		for u := range nXi {
			b[r*nXi+u] = h[r][u]
		}
		b[r*nXi+r+1] += tau
	}
	for d := range nJoint {
		g[d*nJoint+d] += tau
	}
	w := choleskySolve(g, b, nJoint)
	raw := make([]float64, nRows*nXi)
	for out := 1; out < nCep; out++ {
		row := append([]float64(nil), w[out*nXi:out*nXi+nXi]...)
		row[out+1]--
		row[0] /= clean.gsd[out]
		for i := range nCep {
			row[1+i] *= clean.gsd[i] / clean.gsd[out]
		}
		copy(raw[(out-1)*nXi:], row)
	}
	return raw
}

// noiseComp is the compensation of one recording: the static stream's
// model moved by its noise and the codebooks' Jacobians.
type noiseComp struct {
	m   *mllrModel
	jac [][nCep][nCep]float64
}

// compensate returns the compensation of the recording whose raw
// cepstra (before mean normalisation) are cep, for its noise estimate est,
// or nil when est says the recording is clean (est.w = 0).
func (m *mllrModel) compensate(cep [][nCep]float64, mask []bool, est noiseEstimate) *noiseComp {
	if !(est.w > 0) {
		return nil
	}
	var n [nFilt]float64
	for j := range nFilt {
		n[j] = est.w * est.noise[j]
	}
	mx, my := m.mel.cleanMean(cep, mask, &n)
	return &noiseComp{m: m.compensated(mx, my, &n), jac: m.mel.cbJacobians(m.cbMean, mx, &n)}
}
