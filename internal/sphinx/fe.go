package sphinx

import (
	"context"
	"fmt"
	"math"

	"github.com/sottolabs/sotto/internal/dsp"
)

// Frontend turns 16 kHz audio into mel-frequency cepstra exactly as the
// peer's front end (sphinxbase fe, float build) does: pre-emphasis, Hamming
// window, power spectrum, mel filterbank, optional spectral noise
// subtraction, natural log, DCT and liftering. It keeps state between calls
// to Process so audio can be fed in chunks; it is not safe for concurrent
// use.
type Frontend struct {
	p          FeatParams
	frameSize  int
	shift      int
	nfft       int
	window     []float64 // first half of the symmetric Hamming window
	specStart  []int
	filtStart  []int
	filtWidth  []int
	filtCoef   []float32
	melCos     [][]float32
	sqrtInvN   float32
	sqrtInv2N  float32
	lifter     []float32
	fft        *dsp.FFT
	removeNois bool

	// streaming state
	pending []int16 // samples not yet consumed by a full frame
	prior   int16   // sample before the current frame, for pre-emphasis
	noise   noiseStats

	// scratch
	frame  []float64
	im     []float64
	spec   []float64
	mfspec []float64
}

// NewFrontend builds a front end for p (usually a model's feat.params).
func NewFrontend(p FeatParams) (*Frontend, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	fe := &Frontend{
		p:          p,
		frameSize:  int(p.WindowLength*p.SampleRate + 0.5),
		shift:      int(p.SampleRate/float64(p.FrameRate) + 0.5),
		nfft:       p.NFFT,
		removeNois: p.RemoveNoise,
	}
	fe.window = make([]float64, fe.frameSize/2)
	for i := range fe.window {
		fe.window[i] = 0.54 - 0.46*math.Cos(2*math.Pi*float64(i)/(float64(fe.frameSize)-1))
	}
	if err := fe.buildMel(); err != nil {
		return nil, err
	}
	n := p.NFilt
	fe.melCos = make([][]float32, p.NCep)
	for i := range fe.melCos {
		fe.melCos[i] = make([]float32, n)
		for j := range n {
			fe.melCos[i][j] = float32(math.Cos(math.Pi * float64(i) * (float64(j) + 0.5) / float64(n)))
		}
	}
	fe.sqrtInvN = float32(math.Sqrt(1 / float64(n)))
	fe.sqrtInv2N = float32(math.Sqrt(2 / float64(n)))
	if p.Lifter > 0 {
		fe.lifter = make([]float32, p.NCep)
		for i := range fe.lifter {
			fe.lifter[i] = float32(1 + float64(p.Lifter)/2*math.Sin(float64(i)*math.Pi/float64(p.Lifter)))
		}
	}
	fe.fft = dsp.NewFFT(fe.nfft)
	fe.frame = make([]float64, fe.nfft)
	fe.im = make([]float64, fe.nfft)
	fe.spec = make([]float64, fe.nfft/2+1)
	fe.mfspec = make([]float64, n)
	fe.noise.init(n)
	return fe, nil
}

// NCep returns the number of cepstra per frame.
func (fe *Frontend) NCep() int { return fe.p.NCep }

// FrameShift returns the hop between frames in samples.
func (fe *Frontend) FrameShift() int { return fe.shift }

func mel32(x float32) float32 {
	return float32(2595.0 * math.Log10(1.0+float64(x)/700.0))
}

func melinv32(x float32) float32 {
	return float32(700.0 * (math.Pow(10.0, float64(x)/2595.0) - 1.0))
}

// WarpHz maps frequency f (Hz) by the piecewise-linear warp of factor a
// with the band edge upper fixed: f·a up to a knee at 0.85·upper (over a
// when a > 1, so the knee stays below upper), then the straight line to
// (upper, upper). Frequencies above upper are left as they are. It is the
// usual vocal tract length normalisation warp; [FeatParams.Warp] applies
// it to the edges of the mel filters.
func WarpHz(f, a, upper float64) float64 {
	if a == 0 || a == 1 || f >= upper {
		return f
	}
	knee := 0.85 * upper * min(1, 1/a)
	if f <= knee {
		return f * a
	}
	return a*knee + (f-knee)*(upper-a*knee)/(upper-knee)
}

// buildMel places the triangular filters as sphinxbase does with
// -round_filters yes -unit_area yes; with FeatParams.Warp, each filter's
// edge and centre frequencies are warped by [WarpHz] before rounding to
// FFT points.
func (fe *Frontend) buildMel() error {
	p := fe.p
	n := p.NFilt
	melmin := float64(mel32(float32(p.LowerF)))
	melmax := float64(mel32(float32(p.UpperF)))
	melbw := (melmax - melmin) / float64(n+1)
	fftfreq := p.SampleRate / float64(fe.nfft)
	fe.specStart = make([]int, n)
	fe.filtStart = make([]int, n)
	fe.filtWidth = make([]int, n)
	freqsOf := func(i int) [3]float64 {
		var f [3]float64
		for j := range 3 {
			f[j] = float64(melinv32(float32(float64(i+j)*melbw + melmin)))
			f[j] = WarpHz(f[j], p.Warp, p.UpperF)
			f[j] = float64(int(f[j]/fftfreq+0.5)) * fftfreq
		}
		return f
	}
	for i := range n {
		f := freqsOf(i)
		fe.specStart[i] = -1
		for j := 0; j < fe.nfft/2+1; j++ {
			hz := float64(j) * fftfreq
			if hz < f[0] {
				continue
			}
			if hz > f[2] || j == fe.nfft/2 {
				fe.filtWidth[i] = j - fe.specStart[i]
				fe.filtStart[i] = len(fe.filtCoef)
				break
			}
			if fe.specStart[i] == -1 {
				fe.specStart[i] = j
			}
		}
		if fe.specStart[i] < 0 || fe.filtWidth[i] <= 0 || f[1] == f[0] || f[2] == f[1] {
			return fmt.Errorf("sphinx: mel filter %d is empty (%d filters too many for %d FFT points)", i, n, fe.nfft)
		}
		for j := range fe.filtWidth[i] {
			hz := float64(fe.specStart[i]+j) * fftfreq
			lo := (hz - f[0]) / (f[1] - f[0])
			hi := (f[2] - hz) / (f[2] - f[1])
			lo *= 2 / (f[2] - f[0])
			hi *= 2 / (f[2] - f[0])
			fe.filtCoef = append(fe.filtCoef, float32(min(lo, hi)))
		}
	}
	return nil
}

// Reset forgets buffered audio and the noise and pre-emphasis state, so the
// next Process call starts a new utterance.
func (fe *Frontend) Reset() {
	fe.pending = fe.pending[:0]
	fe.prior = 0
	fe.noise.init(fe.p.NFilt)
}

// toInt16 scales float samples in [-1,1] to the int16 range the peer works
// on, rounding to nearest and clipping.
func toInt16(dst []int16, src []float32) []int16 {
	for _, v := range src {
		x := math.Round(float64(v) * 32768)
		dst = append(dst, int16(max(-32768, min(32767, x))))
	}
	return dst
}

// Process appends the cepstra of every complete frame in samples (16 kHz,
// values in [-1,1]) to dst, NCep values per frame, and returns it; samples
// that do not yet fill a frame are kept for the next call or Flush. It
// checks ctx every 4 s of audio (and every 1000 frames of one pending
// block) and returns ctx.Err() when cancelled.
func (fe *Frontend) Process(ctx context.Context, dst []float32, samples []float32) ([]float32, error) {
	// Convert in chunks so a long input is never copied whole.
	const chunk = 1 << 16
	for len(samples) > 0 {
		// processPending counts frames per call, and a chunk holds fewer
		// than its check interval, so check here too.
		if err := ctx.Err(); err != nil {
			return dst, err
		}
		n := min(chunk, len(samples))
		fe.pending = toInt16(fe.pending, samples[:n])
		samples = samples[n:]
		var err error
		if dst, err = fe.processPending(ctx, dst); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// ProcessInt16 is Process for samples already in the int16 range.
func (fe *Frontend) ProcessInt16(ctx context.Context, dst []float32, samples []int16) ([]float32, error) {
	fe.pending = append(fe.pending, samples...)
	return fe.processPending(ctx, dst)
}

func (fe *Frontend) processPending(ctx context.Context, dst []float32) ([]float32, error) {
	off := 0
	for n := 0; len(fe.pending)-off >= fe.frameSize; n++ {
		if n%1000 == 999 {
			if err := ctx.Err(); err != nil {
				return dst, err
			}
		}
		dst = fe.frameCep(dst, fe.pending[off:off+fe.frameSize])
		off += fe.shift
	}
	fe.pending = append(fe.pending[:0], fe.pending[off:]...)
	return dst, nil
}

// Flush emits the final, zero-padded frame when audio is left over (as the
// peer's fe_end_utt does) and resets the front end for a new utterance.
func (fe *Frontend) Flush(dst []float32) []float32 {
	if len(fe.pending) > 0 {
		dst = fe.frameCep(dst, fe.pending)
	}
	fe.Reset()
	return dst
}

// Cepstra computes the cepstra of a whole utterance (NCep values per frame,
// frames concatenated); the front end is reset before and after.
func (fe *Frontend) Cepstra(ctx context.Context, samples []float32) ([]float32, error) {
	fe.Reset()
	out := make([]float32, 0, (len(samples)/fe.shift+1)*fe.p.NCep)
	out, err := fe.Process(ctx, out, samples)
	if err != nil {
		fe.Reset()
		return nil, err
	}
	return fe.Flush(out), nil
}

// frameCep appends the cepstra of one frame of up to frameSize samples.
func (fe *Frontend) frameCep(dst []float32, spch []int16) []float32 {
	fr := fe.frame
	alpha := fe.p.Alpha
	n := len(spch)
	if alpha != 0 {
		fr[0] = float64(spch[0]) - float64(fe.prior)*alpha
		for i := 1; i < n; i++ {
			fr[i] = float64(spch[i]) - float64(spch[i-1])*alpha
		}
		if n >= fe.shift {
			fe.prior = spch[fe.shift-1]
		} else {
			fe.prior = spch[n-1]
		}
	} else {
		for i := range n {
			fr[i] = float64(spch[i])
		}
	}
	clear(fr[n:])
	for i, w := range fe.window {
		fr[i] *= w
		fr[fe.frameSize-1-i] *= w
	}
	// Power spectrum.
	clear(fe.im)
	fe.fft.Transform(fr, fe.im)
	for j := 0; j <= fe.nfft/2; j++ {
		fe.spec[j] = fr[j]*fr[j] + fe.im[j]*fe.im[j]
	}
	// Mel filterbank.
	for i := range fe.mfspec {
		s := 0.0
		st, fs := fe.specStart[i], fe.filtStart[i]
		for k := range fe.filtWidth[i] {
			s += fe.spec[st+k] * float64(fe.filtCoef[fs+k])
		}
		fe.mfspec[i] = s
	}
	if fe.removeNois {
		fe.noise.track(fe.mfspec)
	}
	for i, v := range fe.mfspec {
		fe.mfspec[i] = math.Log(v + 1e-4)
	}
	k := len(dst)
	dst = append(dst, make([]float32, fe.p.NCep)...)
	cep := dst[k:]
	switch fe.p.Transform {
	case "dct", "htk":
		var c0 float32 = float32(fe.mfspec[0])
		for _, v := range fe.mfspec[1:] {
			c0 = float32(float64(c0) + v)
		}
		if fe.p.Transform == "htk" {
			cep[0] = float32(float64(c0) * float64(fe.sqrtInv2N))
		} else {
			cep[0] = float32(float64(c0) * float64(fe.sqrtInvN))
		}
		for i := 1; i < len(cep); i++ {
			var acc float32
			for j, v := range fe.mfspec {
				acc = float32(float64(acc) + v*float64(fe.melCos[i][j]))
			}
			cep[i] = float32(float64(acc) * float64(fe.sqrtInv2N))
		}
	default: // legacy
		nf := float64(len(fe.mfspec))
		for i := range cep {
			var acc float32
			for j, v := range fe.mfspec {
				w := v
				if j == 0 {
					w *= 0.5
				}
				acc = float32(float64(acc) + w*float64(fe.melCos[i][j]))
			}
			cep[i] = float32(float64(acc) / nf)
		}
	}
	for i, l := range fe.lifter {
		cep[i] *= l
	}
	return dst
}

// noiseStats is the spectral noise subtraction of sphinxbase fe_noise.c
// (float build): a smoothed power and a lower envelope per mel band give a
// gain that is smoothed across bands and applied to the mel energies.
type noiseStats struct {
	undefined bool
	power     []float64
	noise     []float64
	floor     []float64
	peak      []float64
	signal    []float64
	gain      []float64
}

func (ns *noiseStats) init(n int) {
	*ns = noiseStats{
		undefined: true,
		power:     make([]float64, n), noise: make([]float64, n), floor: make([]float64, n),
		peak: make([]float64, n), signal: make([]float64, n), gain: make([]float64, n),
	}
}

const (
	nsLambdaPower = 0.7
	nsLambdaA     = 0.995
	nsLambdaB     = 0.5
	nsLambdaT     = 0.85
	nsMuT         = 0.2
	nsMaxGain     = 20.0
	nsSmoothWin   = 4
)

func lowerEnvelope(buf, floor []float64) {
	for i, b := range buf {
		if b >= floor[i] {
			floor[i] = nsLambdaA*floor[i] + (1-nsLambdaA)*b
		} else {
			floor[i] = nsLambdaB*floor[i] + (1-nsLambdaB)*b
		}
	}
}

func (ns *noiseStats) track(mfspec []float64) {
	n := len(mfspec)
	if ns.undefined {
		for i, v := range mfspec {
			ns.power[i] = v
			ns.noise[i] = v / nsMaxGain
			ns.floor[i] = v / nsMaxGain
			ns.peak[i] = 0
		}
		ns.undefined = false
	}
	for i, v := range mfspec {
		ns.power[i] = nsLambdaPower*ns.power[i] + (1-nsLambdaPower)*v
	}
	lowerEnvelope(ns.power, ns.noise)
	for i := range n {
		ns.signal[i] = ns.power[i] - ns.noise[i]
		if ns.signal[i] < 1 {
			ns.signal[i] = 1
		}
	}
	lowerEnvelope(ns.signal, ns.floor)
	// Temporal masking.
	for i := range n {
		cur := ns.signal[i]
		ns.peak[i] *= nsLambdaT
		if ns.signal[i] < nsLambdaT*ns.peak[i] {
			ns.signal[i] = ns.peak[i] * nsMuT
		}
		if cur > ns.peak[i] {
			ns.peak[i] = cur
		}
	}
	for i := range n {
		if ns.signal[i] < ns.floor[i] {
			ns.signal[i] = ns.floor[i]
		}
		if ns.signal[i] < nsMaxGain*ns.power[i] {
			ns.gain[i] = ns.signal[i] / ns.power[i]
		} else {
			ns.gain[i] = nsMaxGain
		}
		if ns.gain[i] < 1/nsMaxGain {
			ns.gain[i] = 1 / nsMaxGain
		}
	}
	for i := range n {
		l1 := max(i-nsSmoothWin, 0)
		l2 := min(i+nsSmoothWin, n-1)
		c := 0.0
		for j := l1; j <= l2; j++ {
			c += ns.gain[j]
		}
		mfspec[i] *= c / float64(l2-l1+1)
	}
}
