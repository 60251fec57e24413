package dsp

// YIN is a pitch tracker after de Cheveigné and Kawahara's YIN (2002): for
// each frame it computes the difference function d(τ) = Σ_j (x[j] −
// x[j+τ])² over Win samples, normalises it by its cumulative mean (d'(τ) =
// d(τ)·τ / Σ_{k≤τ} d(k)), takes the first lag in [MinLag, MaxLag] where d'
// dips below Thresh, walks down to the bottom of that dip and refines it by
// a parabola through its neighbours. A frame without such a dip is
// unvoiced, and so is a frame whose Win samples are all zero.
//
// Lags are in samples: at a sample rate r they bound the pitch to
// r/MaxLag … r/MinLag Hz. A frame reads Win+MaxLag+1 samples ([YIN.Span]).
// The zero value is not usable; 1 ≤ MinLag ≤ MaxLag and Win ≥ 1 are the
// caller's to keep (a kernel: misuse panics).
type YIN struct {
	Win    int     // samples summed per lag
	MinLag int     // shortest period considered, in samples
	MaxLag int     // longest period considered, in samples
	Thresh float64 // a dip of the normalised difference below this is voiced
}

// PitchFrame is one voiced frame found by [YIN.Track]: its index and its
// period in samples (fractional, from the parabola).
type PitchFrame struct {
	Frame  int
	Period float64
}

// Span returns the number of samples one frame reads: Win+MaxLag+1.
func (y YIN) Span() int { return y.Win + y.MaxLag + 1 }

// Track runs the tracker on frames 0 … n-1 of x, frame i starting at
// sample i·hop+off, and returns the voiced ones in order. A frame is
// skipped when mask marks it false or is too short to cover it (a nil
// mask: no frame is skipped that way) and when it does not lie wholly in
// x (it starts before 0 or ends past len(x), see [YIN.Span]).
func (y YIN) Track(x []float32, n, hop, off int, mask []bool) []PitchFrame {
	d := make([]float64, y.MaxLag+2)
	var out []PitchFrame
	for i := range n {
		if mask != nil && (i >= len(mask) || !mask[i]) {
			continue
		}
		st := i*hop + off
		if st < 0 || st+y.Span() > len(x) {
			continue
		}
		if p, ok := y.period(x[st:st+y.Span()], d); ok {
			out = append(out, PitchFrame{Frame: i, Period: p})
		}
	}
	return out
}

// period returns the period of the frame fr (Span samples) and whether it
// is voiced; d is scratch of MaxLag+2 numbers.
func (y YIN) period(fr []float32, d []float64) (float64, bool) {
	silent := true
	for _, v := range fr[:y.Win] {
		if v != 0 {
			silent = false
			break
		}
	}
	// A silent window would find no dip anyway when MaxLag < Win (d(τ)
	// then only grows with τ, so d'(τ) ≥ 1); this says so for any lags
	// and saves the lag loop.
	if silent {
		return 0, false
	}
	var sum float64
	d[0] = 1
	for tau := 1; tau <= y.MaxLag+1; tau++ {
		var s float64
		for j := range y.Win {
			v := float64(fr[j]) - float64(fr[j+tau])
			s += v * v
		}
		sum += s
		if sum == 0 {
			d[tau] = 1
		} else {
			d[tau] = s * float64(tau) / sum
		}
	}
	best := 0
	for tau := y.MinLag; tau <= y.MaxLag; tau++ {
		if d[tau] < y.Thresh {
			for tau+1 <= y.MaxLag && d[tau+1] < d[tau] {
				tau++
			}
			best = tau
			break
		}
	}
	if best == 0 {
		return 0, false
	}
	a, b, c := d[best-1], d[best], d[best+1]
	shift := 0.0
	if den := a - 2*b + c; den > 0 {
		shift = 0.5 * (a - c) / den
	}
	return float64(best) + shift, true
}
