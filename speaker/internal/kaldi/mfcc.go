package kaldi

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto/internal/dsp"
)

// MFCCOptions are the options of Kaldi's compute-mfcc-feats that an
// x-vector model's mfcc.conf sets; the others keep Kaldi's defaults (25 ms
// frames every 10 ms, pre-emphasis 0.97, DC removal, the "povey" window,
// FFT size rounded up to a power of two, raw log energy as c0, cepstral
// lifter 22, frames that fit wholly in the signal). Dither is always off,
// so that the features are deterministic.
type MFCCOptions struct {
	SampleRate float64 // --sample-frequency, Hz
	LowFreq    float64 // --low-freq, Hz
	HighFreq   float64 // --high-freq, Hz; ≤ 0 counts down from the Nyquist frequency
	NumCeps    int     // --num-ceps
	NumMelBins int     // --num-mel-bins
}

// DefaultMFCCOptions are Kaldi's defaults.
func DefaultMFCCOptions() MFCCOptions {
	return MFCCOptions{SampleRate: 16000, LowFreq: 20, HighFreq: 0, NumCeps: 13, NumMelBins: 23}
}

// ParseMFCCConf reads a Kaldi mfcc.conf ("--key=value" per line, "#"
// comments). Keys it does not know, or values that would change what the
// fixed defaults compute, are errors. --allow-downsample is accepted: the
// caller resamples.
func ParseMFCCConf(text string) (MFCCOptions, error) {
	o := DefaultMFCCOptions()
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimPrefix(line, "--"), "=")
		if !ok || !strings.HasPrefix(line, "--") {
			return o, fmt.Errorf("kaldi: mfcc.conf line %q is not --key=value", line)
		}
		num := func() (float64, error) {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return 0, fmt.Errorf("kaldi: mfcc.conf: %s=%q is not a number", k, v)
			}
			return x, nil
		}
		var err error
		switch k {
		case "sample-frequency":
			o.SampleRate, err = num()
		case "low-freq":
			o.LowFreq, err = num()
		case "high-freq":
			o.HighFreq, err = num()
		case "num-ceps", "num-mel-bins":
			var x float64
			x, err = num()
			if err == nil && (x != math.Trunc(x) || x < 1 || x > 256) {
				err = fmt.Errorf("kaldi: mfcc.conf: %s=%s is out of range", k, v)
			}
			if k == "num-ceps" {
				o.NumCeps = int(x)
			} else {
				o.NumMelBins = int(x)
			}
		case "allow-downsample", "allow-upsample":
		case "use-energy", "snip-edges":
			if v != "true" {
				err = fmt.Errorf("kaldi: mfcc.conf: %s=%s is not supported", k, v)
			}
		case "dither":
		default:
			err = fmt.Errorf("kaldi: mfcc.conf: option --%s is not supported", k)
		}
		if err != nil {
			return o, err
		}
	}
	return o, o.check()
}

func (o MFCCOptions) check() error {
	nyq := o.SampleRate / 2
	hi := o.HighFreq
	if hi <= 0 {
		hi += nyq
	}
	if o.SampleRate < 1000 || o.SampleRate > 192000 || o.LowFreq < 0 || hi > nyq || o.LowFreq >= hi ||
		o.NumCeps < 1 || o.NumMelBins < 2 || o.NumCeps > o.NumMelBins {
		return fmt.Errorf("kaldi: MFCC options %+v are inconsistent", o)
	}
	return nil
}

// MFCC computes Kaldi MFCC features.
type MFCC struct {
	opt                  MFCCOptions
	frameLen, frameShift int
	fft                  *dsp.FFT
	window               []float64
	banks                [][2]int // first bin and weights of each mel filter
	weights              [][]float64
	dct                  [][]float64 // NumCeps × NumMelBins, lifter folded in
}

// NewMFCC prepares the MFCC front end for o.
func NewMFCC(o MFCCOptions) (*MFCC, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	m := &MFCC{opt: o}
	m.frameLen = int(o.SampleRate * 0.025)
	m.frameShift = int(o.SampleRate * 0.010)
	nfft := 1
	for nfft < m.frameLen {
		nfft <<= 1
	}
	m.fft = dsp.NewFFT(nfft)
	// Povey window: a Hann window to the power 0.85.
	m.window = make([]float64, m.frameLen)
	for i := range m.window {
		m.window[i] = math.Pow(0.5-0.5*math.Cos(2*math.Pi*float64(i)/float64(m.frameLen-1)), 0.85)
	}
	// Triangular filters equally spaced on the mel scale over the FFT bins
	// below the Nyquist bin (Kaldi's MelBanks).
	mel := func(f float64) float64 { return 1127 * math.Log(1+f/700) }
	hi := o.HighFreq
	if hi <= 0 {
		hi += o.SampleRate / 2
	}
	ml, mh := mel(o.LowFreq), mel(hi)
	delta := (mh - ml) / float64(o.NumMelBins+1)
	binHz := o.SampleRate / float64(nfft)
	for j := range o.NumMelBins {
		l, c, r := ml+float64(j)*delta, ml+float64(j+1)*delta, ml+float64(j+2)*delta
		first := -1
		var w []float64
		for i := range nfft / 2 {
			f := mel(binHz * float64(i))
			if f > l && f < r {
				if first < 0 {
					first = i
				}
				if f <= c {
					w = append(w, (f-l)/(c-l))
				} else {
					w = append(w, (r-f)/(r-c))
				}
			}
		}
		if first < 0 {
			return nil, fmt.Errorf("kaldi: mel filter %d is empty (too many mel bins for %g Hz)", j, o.SampleRate)
		}
		m.banks = append(m.banks, [2]int{first, len(w)})
		m.weights = append(m.weights, w)
	}
	// DCT-II with orthonormal scaling, times the lifter 1 + 11·sin(πi/22).
	n := float64(o.NumMelBins)
	m.dct = make([][]float64, o.NumCeps)
	for k := range m.dct {
		norm := math.Sqrt(2 / n)
		if k == 0 {
			norm = math.Sqrt(1 / n)
		}
		lift := 1 + 0.5*22*math.Sin(math.Pi*float64(k)/22)
		m.dct[k] = make([]float64, o.NumMelBins)
		for j := range m.dct[k] {
			m.dct[k][j] = lift * norm * math.Cos(math.Pi/n*(float64(j)+0.5)*float64(k))
		}
	}
	return m, nil
}

// Compute returns the features of x, samples at the options' rate on the
// scale of 16-bit integers (±32768), one row of NumCeps values per 10 ms
// frame that fits wholly in x; c0 is the log energy of the frame after DC
// removal and before pre-emphasis and windowing.
func (m *MFCC) Compute(x []float32) [][]float32 {
	if len(x) < m.frameLen {
		return nil
	}
	nf := 1 + (len(x)-m.frameLen)/m.frameShift
	nfft := m.fft.Len()
	fr := make([]float64, m.frameLen)
	pow := make([]float64, nfft/2+1)
	re, im := make([]float64, nfft), make([]float64, nfft)
	melE := make([]float64, m.opt.NumMelBins)
	out := make([][]float32, nf)
	buf := make([]float32, nf*m.opt.NumCeps)
	const eps = 1.1920928955078125e-07 // FLT_EPSILON, Kaldi's floor before a log
	for t := range nf {
		var mean float64
		for i := range fr {
			fr[i] = float64(x[t*m.frameShift+i])
			mean += fr[i]
		}
		mean /= float64(len(fr))
		var energy float64
		for i := range fr {
			fr[i] -= mean
			energy += fr[i] * fr[i]
		}
		for i := len(fr) - 1; i > 0; i-- {
			fr[i] -= 0.97 * fr[i-1]
		}
		fr[0] -= 0.97 * fr[0]
		for i := range fr {
			fr[i] *= m.window[i]
		}
		m.fft.PowerSpectrum(fr, pow, re, im)
		for j, b := range m.banks {
			var s float64
			for i, w := range m.weights[j] {
				s += w * pow[b[0]+i]
			}
			melE[j] = math.Log(max(s, eps))
		}
		row := buf[t*m.opt.NumCeps : (t+1)*m.opt.NumCeps : (t+1)*m.opt.NumCeps]
		for k, d := range m.dct {
			var s float64
			for j, v := range melE {
				s += d[j] * v
			}
			row[k] = float32(s)
		}
		row[0] = float32(math.Log(max(energy, eps)))
		out[t] = row
	}
	return out
}

// VADOptions are the options of Kaldi's compute-vad.
type VADOptions struct {
	EnergyThreshold     float64 // --vad-energy-threshold
	EnergyMeanScale     float64 // --vad-energy-mean-scale
	FramesContext       int     // --vad-frames-context
	ProportionThreshold float64 // --vad-proportion-threshold
}

// RecipeVAD is conf/vad.conf of Kaldi's speaker recipes (sre08 onwards,
// callhome_diarization among them): a frame is speech when at least 12 %
// of the frames within two of it have a log energy above 5.5 plus half
// the utterance's mean log energy.
var RecipeVAD = VADOptions{EnergyThreshold: 5.5, EnergyMeanScale: 0.5, FramesContext: 2, ProportionThreshold: 0.12}

// VAD marks the speech frames of feats by their c0 (log energy), as
// Kaldi's compute-vad does.
func VAD(feats [][]float32, o VADOptions) []bool {
	n := len(feats)
	voiced := make([]bool, n)
	if n == 0 {
		return voiced
	}
	var mean float64
	for _, f := range feats {
		mean += float64(f[0])
	}
	mean /= float64(n)
	thr := o.EnergyThreshold + o.EnergyMeanScale*mean
	for t := range n {
		num, den := 0, 0
		for u := max(0, t-o.FramesContext); u <= min(n-1, t+o.FramesContext); u++ {
			den++
			if float64(feats[u][0]) > thr {
				num++
			}
		}
		voiced[t] = float64(num) >= float64(den)*o.ProportionThreshold
	}
	return voiced
}

// SlidingCMN subtracts from each frame the mean of a window of `window`
// frames centred on it (moved inwards at the edges, shorter when there
// are fewer frames), as Kaldi's apply-cmvn-sliding --center=true
// --norm-vars=false does. It returns new rows.
func SlidingCMN(feats [][]float32, window int) [][]float32 {
	n := len(feats)
	if n == 0 {
		return nil
	}
	dim := len(feats[0])
	cum := make([]float64, (n+1)*dim)
	for t, f := range feats {
		for j, v := range f {
			cum[(t+1)*dim+j] = cum[t*dim+j] + float64(v)
		}
	}
	out := make([][]float32, n)
	buf := make([]float32, n*dim)
	for t := range n {
		s := t - window/2
		e := s + window
		if s < 0 {
			e -= s
			s = 0
		}
		if e > n {
			s -= e - n
			e = n
			s = max(s, 0)
		}
		row := buf[t*dim : (t+1)*dim : (t+1)*dim]
		for j := range dim {
			row[j] = float32(float64(feats[t][j]) - (cum[e*dim+j]-cum[s*dim+j])/float64(e-s))
		}
		out[t] = row
	}
	return out
}
