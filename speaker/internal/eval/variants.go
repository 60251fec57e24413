package main

import (
	"fmt"
	"math"
	"slices"

	"github.com/sottolabs/sotto/speaker/internal/parts"
)

// partsVariants are the fusion variants -partsscore scores; taus names
// the stored extra prior weights (Parts.Extra).
func partsVariants(taus []string) []variant {
	vs := []variant{{"v7", v7Side}, {"v8", v8Side}}
	// Shares by the amount of speech: the formant part's times nf/(nf+tf)
	// for nf frames with an F3, the delta part's share of the spectral
	// cosine 0.1·(1+td/n) for n speech frames.
	for _, tf := range []float64{0, 50, 100, 200, 400} {
		for _, td := range []float64{0, 100, 200, 300} {
			if tf == 0 && td == 0 {
				continue
			}
			vs = append(vs, variant{fmt.Sprintf("byn formant tf %g delta td %g", tf, td), bySpeech(tf, td, 0)})
		}
	}
	for _, lo := range []float64{15, 20, 25} {
		for _, tf := range []float64{0, 50, 100} {
			for _, td := range []float64{100, 200, 300, 400} {
				vs = append(vs, variant{fmt.Sprintf("snr>%g byn formant tf %g delta td %g", lo, tf, td), bySpeechSNR(tf, td, lo)})
			}
		}
	}
	for _, tf := range []float64{50, 75, 100} {
		for _, td := range []float64{150, 200, 250} {
			for _, pb := range []float64{0.5, 1, 1.5} {
				for _, tp := range []float64{200, 300} {
					vs = append(vs, variant{fmt.Sprintf("pboost snr>20 tf %g td %g pitch×(1+%g·%g/(n+%g))", tf, td, pb, tp, tp), func(p *parts.Parts) side {
						s := bySpeechSNR(tf, td, 20)(p)
						n := float64(p.Frames)
						s.w[2] *= 1 + pb*tp/(n+tp)
						return s
					}})
				}
			}
		}
	}
	for _, T := range []float64{150, 200, 250} {
		for _, fk := range []float64{0.25, 0.375, 0.5, 1} {
			vs = append(vs, variant{fmt.Sprintf("unified T %g formant nf/(nf+%g·T)", T, fk), func(p *parts.Parts) side {
				s := bySpeechSNR(fk*T, T, 20)(p)
				n := float64(p.Frames)
				s.w[2] *= 1 + T/(n+T)
				return s
			}})
		}
	}
	// Fixed shares (grid): what each condition would take alone.
	for _, ps := range []float64{0.05, 0.1, 0.15} {
		for _, fs := range []float64{0.04, 0.08, 0.12} {
			for _, ds := range []float64{0.1, 0.2, 0.3, 0.4} {
				vs = append(vs, variant{fmt.Sprintf("grid pitch %g formant %g delta %g", ps, fs, ds), func(p *parts.Parts) side {
					s := v7Side(p)
					sp := 1 - ps - fs
					s.w = []float64{sp * (1 - ds), sp * ds, ps, fs}
					return s
				}})
			}
		}
	}
	// Reliability by the amount of speech: the transforms' shares times
	// n/(n+tau) for n speech frames.
	for _, tau := range []float64{50, 100, 200, 400, 800} {
		vs = append(vs, variant{fmt.Sprintf("rel mllr n/(n+%g)", tau), func(p *parts.Parts) side {
			s := v7Side(p)
			r := float64(p.Frames) / (float64(p.Frames) + tau)
			s.w[0] *= r
			s.w[1] *= r
			return s
		}})
	}
	for _, tau := range []float64{100, 200, 400} {
		vs = append(vs, variant{fmt.Sprintf("rel static only n/(n+%g)", tau), func(p *parts.Parts) side {
			s := v7Side(p)
			s.w[0] *= float64(p.Frames) / (float64(p.Frames) + tau)
			return s
		}})
	}
	// Transform priors that grow for short clips.
	for k, name := range taus {
		vs = append(vs, variant{"prior " + name, func(p *parts.Parts) side {
			s := v7Side(p)
			s.u[0], s.u[1] = unit(p.Extra[k].Static), unit(p.Extra[k].DeltaProj)
			return s
		}})
	}
	// F3 picked otherwise.
	vs = append(vs,
		variant{"F3 nearest the median, 1 pass", f3Side(func(p *parts.Parts) []float64 { return f3Nearest(p, 1) })},
		variant{"F3 nearest the median, 2 passes", f3Side(func(p *parts.Parts) []float64 { return f3Nearest(p, 2) })},
		variant{"F3 frames with 4 formants", f3Side(f3Four)},
		variant{"F3 quantile 0.4", f3Quantile(0.4)},
		variant{"F3 quantile 0.3", f3Quantile(0.3)},
	)
	// Bumps wider for fewer voiced frames (a median of fewer frames is
	// less certain).
	for _, v0 := range []float64{100, 300, 1000} {
		vs = append(vs, variant{fmt.Sprintf("pitch sigma·sqrt(1+%g/v)", v0), func(p *parts.Parts) side {
			s := v7Side(p)
			sig := math.Ln2 / 4 * math.Sqrt(1+v0/float64(max(len(p.LogF0), 1)))
			s.u[2] = parts.MedianBumps(slices.Clone(p.LogF0), 16, 60, 420, sig)
			return s
		}})
		vs = append(vs, variant{fmt.Sprintf("F3 sigma·sqrt(1+%g/v)", v0), func(p *parts.Parts) side {
			s := v7Side(p)
			v := thirdLogs(p)
			sig := math.Ln2 / 12 * math.Sqrt(1+v0/float64(max(len(v), 1)))
			s.u[3] = parts.MedianBumps(v, 16, 1900, 3800, sig)
			return s
		}})
	}
	return vs
}

// formantsOf picks F1..F4 as the driver does: the first four candidates
// above 150 Hz narrower than 600 Hz.
func formantsOf(cs []parts.Cand) []float64 {
	var out []float64
	for _, c := range cs {
		if len(out) == 4 {
			break
		}
		if c.F > 150 && c.BW < 600 {
			out = append(out, c.F)
		}
	}
	return out
}

func f3Bumps(lf []float64) []float64 {
	return parts.MedianBumps(lf, 16, 1900, 3800, math.Ln2/12)
}

func f3Side(f func(p *parts.Parts) []float64) func(p *parts.Parts) side {
	return func(p *parts.Parts) side {
		s := v7Side(p)
		s.u[3] = f3Bumps(f(p))
		return s
	}
}

func thirdLogs(p *parts.Parts) []float64 {
	var out []float64
	for _, cs := range p.Formants {
		if fs := formantsOf(cs); len(fs) >= 3 {
			out = append(out, math.Log(fs[2]))
		}
	}
	return out
}

func median(v []float64) float64 {
	w := slices.Clone(v)
	slices.Sort(w)
	return w[len(w)/2]
}

// f3Nearest: starting from the median third formant, each frame's F3 is
// its candidate (above 1500 Hz, narrower than 600) nearest the current
// median in log frequency; passes times.
func f3Nearest(p *parts.Parts, passes int) []float64 {
	v := thirdLogs(p)
	if len(v) < 20 {
		return v
	}
	m := median(v)
	for range passes {
		v = v[:0]
		for _, cs := range p.Formants {
			best, bd := 0.0, math.Inf(1)
			for _, c := range cs {
				if c.F > 1500 && c.BW < 600 {
					if d := math.Abs(math.Log(c.F) - m); d < bd {
						best, bd = math.Log(c.F), d
					}
				}
			}
			if bd < math.Inf(1) {
				v = append(v, best)
			}
		}
		m = median(v)
	}
	return v
}

// f3Four: F3 only from frames where four formants are found.
func f3Four(p *parts.Parts) []float64 {
	var out []float64
	for _, cs := range p.Formants {
		if fs := formantsOf(cs); len(fs) == 4 {
			out = append(out, math.Log(fs[2]))
		}
	}
	return out
}

// f3Quantile encodes the q-quantile of the frames' third formants
// instead of their median.
func f3Quantile(q float64) func(p *parts.Parts) side {
	return func(p *parts.Parts) side {
		s := v7Side(p)
		v := thirdLogs(p)
		if len(v) < 20 {
			s.u[3] = make([]float64, 16)
			return s
		}
		slices.Sort(v)
		x := v[int(q*float64(len(v)))]
		s.u[3] = f3Bumps([]float64{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x})
		return s
	}
}

// bySpeech: the formant share times nf/(nf+tf) (nf frames with an F3),
// the delta part's share of the spectral cosine 0.1·(1+td/n), the pitch
// share times nv/(nv+tp) (nv voiced frames).
func bySpeech(tf, td, tp float64) func(p *parts.Parts) side {
	return func(p *parts.Parts) side {
		s := v7Side(p)
		nf := float64(len(thirdLogs(p)))
		n := float64(p.Frames)
		ds := min(v7Delta*(1+td/n), 0.5)
		sp := 1 - v7Pitch - v7Formant
		s.w[0], s.w[1] = sp*(1-ds), sp*ds
		if tf > 0 {
			s.w[3] *= nf / (nf + tf)
		}
		if nv := float64(len(p.LogF0)); tp > 0 {
			s.w[2] *= nv / (nv + tp)
		}
		return s
	}
}

// bySpeechSNR is bySpeech(tf, td, 0) with both rules faded out as the
// estimated SNR falls from 30 dB to lo.
func bySpeechSNR(tf, td, lo float64) func(p *parts.Parts) side {
	return func(p *parts.Parts) side {
		c := min(max((p.SNR-lo)/(30-lo), 0), 1)
		return bySpeech(tf*c, td*c, 0)(p)
	}
}
