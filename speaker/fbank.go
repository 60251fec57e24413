package speaker

import (
	"fmt"
	"math"

	"github.com/sottolabs/sotto/internal/dsp"
)

// FbankConfig describes a Kaldi-compatible log mel filterbank, the front end
// of neural speaker-embedding networks (WeSpeaker, 3D-Speaker): the same
// frames, window, pre-emphasis, power spectrum and triangular mel bins as
// Kaldi's compute-fbank-feats, torchaudio.compliance.kaldi.fbank and
// kaldi-native-fbank, without dither and without the energy coefficient.
type FbankConfig struct {
	SampleRate    int     // Hz; 16000
	Bins          int     // mel bins; 80
	FrameLengthMs float64 // 25
	FrameShiftMs  float64 // 10
	// Window is "povey" (Kaldi's default), "hamming" (WeSpeaker's
	// recipe), "hanning" or "rectangular".
	Window string
	// PreEmphasis is the coefficient of x[i] − c·x[i−1]; 0.97.
	PreEmphasis float64
	// LowFreq and HighFreq bound the mel bins in Hz; a HighFreq ≤ 0 is
	// counted down from the Nyquist frequency (0: Nyquist; −400: 400 Hz
	// below it, as lhotse and sherpa-onnx use).
	LowFreq, HighFreq float64
	// SnipEdges keeps only frames that fit in the signal (Kaldi's
	// default); false centres frame i at i·shift + shift/2 and mirrors the
	// signal at both ends.
	SnipEdges bool
	// Scale multiplies the samples first: 32768 reads [-1, 1] audio as
	// 16-bit sample values, as these networks were trained.
	Scale float64
}

// WeSpeakerFbank is the front end WeSpeaker's recipes and its Python
// inference use: 80 bins of 25 ms frames every 10 ms, Hamming window, edges
// snipped, 16-bit sample scale.
var WeSpeakerFbank = FbankConfig{SampleRate: 16000, Bins: 80, FrameLengthMs: 25, FrameShiftMs: 10,
	Window: "hamming", PreEmphasis: 0.97, LowFreq: 20, HighFreq: 0, SnipEdges: true, Scale: 32768}

// Fbank computes log mel filterbank frames; it is read-only after
// NewFbank and safe for concurrent use.
type Fbank struct {
	cfg        FbankConfig
	win, shift int
	padded     int
	window     []float64
	fft        *dsp.FFT
	bins       [][2]int    // per mel bin, the FFT bins [first, last] it covers
	weights    [][]float64 // per mel bin, the weights of those FFT bins
}

// NewFbank checks cfg and prepares its window and mel bins.
func NewFbank(cfg FbankConfig) (*Fbank, error) {
	if cfg.SampleRate <= 0 || cfg.Bins <= 0 || cfg.FrameLengthMs <= 0 || cfg.FrameShiftMs <= 0 {
		return nil, fmt.Errorf("speaker: fbank: sample rate, bins, frame length and shift must be positive (%+v)", cfg)
	}
	f := &Fbank{cfg: cfg}
	f.win = int(math.Round(float64(cfg.SampleRate) * cfg.FrameLengthMs / 1000))
	f.shift = int(math.Round(float64(cfg.SampleRate) * cfg.FrameShiftMs / 1000))
	if f.win < 2 || f.shift < 1 {
		return nil, fmt.Errorf("speaker: fbank: frame of %d samples every %d is too short", f.win, f.shift)
	}
	f.padded = 1
	for f.padded < f.win {
		f.padded <<= 1
	}
	f.fft = dsp.NewFFT(f.padded)
	f.window = make([]float64, f.win)
	a := 2 * math.Pi / float64(f.win-1)
	for i := range f.window {
		c := math.Cos(a * float64(i))
		switch cfg.Window {
		case "povey":
			f.window[i] = math.Pow(0.5-0.5*c, 0.85)
		case "hamming":
			f.window[i] = 0.54 - 0.46*c
		case "hanning":
			f.window[i] = 0.5 - 0.5*c
		case "rectangular":
			f.window[i] = 1
		default:
			return nil, fmt.Errorf("speaker: fbank: unknown window %q (povey, hamming, hanning, rectangular)", cfg.Window)
		}
	}
	nyquist := float64(cfg.SampleRate) / 2
	high := cfg.HighFreq
	if high <= 0 {
		high += nyquist
	}
	if cfg.LowFreq < 0 || cfg.LowFreq >= high || high > nyquist {
		return nil, fmt.Errorf("speaker: fbank: mel range %g–%g Hz does not fit 0–%g Hz", cfg.LowFreq, high, nyquist)
	}
	mel := func(hz float64) float64 { return 1127 * math.Log(1+hz/700) }
	lo, hi := mel(cfg.LowFreq), mel(high)
	delta := (hi - lo) / float64(cfg.Bins+1)
	binHz := float64(cfg.SampleRate) / float64(f.padded)
	f.bins = make([][2]int, cfg.Bins)
	f.weights = make([][]float64, cfg.Bins)
	for b := range cfg.Bins {
		left, centre, right := lo+float64(b)*delta, lo+float64(b+1)*delta, lo+float64(b+2)*delta
		first, last := -1, -1
		var w []float64
		for k := 0; k < f.padded/2; k++ { // Kaldi leaves the Nyquist bin out
			m := mel(binHz * float64(k))
			if m <= left || m >= right {
				continue
			}
			var v float64
			if m <= centre {
				v = (m - left) / (centre - left)
			} else {
				v = (right - m) / (right - centre)
			}
			if first < 0 {
				first = k
			}
			last = k
			w = append(w, v)
		}
		if first < 0 {
			return nil, fmt.Errorf("speaker: fbank: mel bin %d covers no FFT bin (too many bins for %d-point frames)", b, f.padded)
		}
		f.bins[b], f.weights[b] = [2]int{first, last}, w
	}
	return f, nil
}

// Frames is the number of frames of n samples.
func (f *Fbank) Frames(n int) int {
	if f.cfg.SnipEdges {
		if n < f.win {
			return 0
		}
		return 1 + (n-f.win)/f.shift
	}
	return (n + f.shift/2) / f.shift
}

// Compute returns the log mel energies of samples (at cfg.SampleRate), one
// row of Bins numbers per frame (Frames(len(samples)) rows).
func (f *Fbank) Compute(samples []float32) [][]float32 {
	n := len(samples)
	frames := f.Frames(n)
	out := make([][]float32, frames)
	if frames == 0 {
		return out
	}
	flat := make([]float32, frames*f.cfg.Bins)
	x := make([]float64, f.win)
	power := make([]float64, f.padded/2+1)
	re, im := make([]float64, f.padded), make([]float64, f.padded)
	scale := f.cfg.Scale
	if scale == 0 {
		scale = 1
	}
	for t := range frames {
		start := t * f.shift
		if !f.cfg.SnipEdges {
			start += f.shift/2 - f.win/2
		}
		var mean float64
		for i := range x {
			j := start + i
			if j < 0 || j >= n { // mirror at the edges, as Kaldi does
				j = mirror(j, n)
			}
			x[i] = float64(samples[j]) * scale
			mean += x[i]
		}
		mean /= float64(len(x))
		for i := range x {
			x[i] -= mean
		}
		if c := f.cfg.PreEmphasis; c != 0 {
			for i := len(x) - 1; i > 0; i-- {
				x[i] -= c * x[i-1]
			}
			x[0] -= c * x[0]
		}
		for i := range x {
			x[i] *= f.window[i]
		}
		f.fft.PowerSpectrum(x, power, re, im)
		row := flat[t*f.cfg.Bins : (t+1)*f.cfg.Bins : (t+1)*f.cfg.Bins]
		for b, r := range f.bins {
			var e float64
			for k, w := range f.weights[b] {
				e += w * power[r[0]+k]
			}
			row[b] = float32(math.Log(max(e, epsilon32)))
		}
		out[t] = row
	}
	return out
}

// epsilon32 is the floor of the mel energies before the logarithm: the
// float32 machine epsilon, as Kaldi and torchaudio use.
const epsilon32 = 1.1920928955078125e-07

// mirror reflects an index outside [0, n) back into it, the way Kaldi
// extends a signal for frames that overhang its ends.
func mirror(j, n int) int {
	for j < 0 || j >= n {
		if j < 0 {
			j = -j - 1
		} else {
			j = 2*n - 1 - j
		}
	}
	return j
}

// SubtractMean removes each bin's mean over the frames (cepstral mean
// normalisation), in place.
func SubtractMean(frames [][]float32) {
	if len(frames) == 0 {
		return
	}
	mean := make([]float64, len(frames[0]))
	for _, r := range frames {
		for i, v := range r {
			mean[i] += float64(v)
		}
	}
	for i := range mean {
		mean[i] /= float64(len(frames))
	}
	for _, r := range frames {
		for i := range r {
			r[i] = float32(float64(r[i]) - mean[i])
		}
	}
}
