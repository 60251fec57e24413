package whisper

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Whisper's front-end constants: 16 kHz input, a 400-sample (25 ms) Hann
// window moved by 160 samples (10 ms), 30-second chunks.
const (
	SampleRate  = 16000
	NFFT        = 400
	HopLength   = 160
	ChunkSecs   = 30
	chunkLength = SampleRate * ChunkSecs
)

// Mel is a log-mel spectrogram laid out as whisper.cpp keeps it: NMel
// rows of NLen frames, Data[m*NLen+t] the value of bin m at frame t
// (10 ms apart).
type Mel struct {
	NMel, NLen int
	// NLenAudio is the number of frames that cover the input itself, the
	// rest being the 30 s of padding.
	NLenAudio int
	Data      []float32
}

// At returns bin m of frame t.
func (m *Mel) At(t, bin int) float32 { return m.Data[bin*m.NLen+t] }

// hannWindow is the periodic 400-point Hann window.
var hannWindow = func() [NFFT]float64 {
	var w [NFFT]float64
	for i := range w {
		w[i] = 0.5 * (1 - math.Cos(2*math.Pi*float64(i)/NFFT))
	}
	return w
}()

// twiddle holds cos and sin of 2πk/400 for k < 400.
var twiddleCos, twiddleSin = func() (c, s [NFFT]float64) {
	for k := range c {
		c[k] = math.Cos(2 * math.Pi * float64(k) / NFFT)
		s[k] = math.Sin(2 * math.Pi * float64(k) / NFFT)
	}
	return
}()

// fft computes the DFT of the n real values in (n divides 400) into
// out[2k], out[2k+1] (real, imaginary part) for k < n: it splits even and
// odd samples while n is even and sums directly once n is odd (400 =
// 2⁴·25). scratch needs 6n values and is overwritten.
func fft(in, out, scratch []float64) {
	n := len(in)
	step := NFFT / n
	if n%2 == 1 {
		for k := range n {
			var re, im float64
			for j, v := range in {
				idx := (k * j % n) * step
				re += v * twiddleCos[idx]
				im -= v * twiddleSin[idx]
			}
			out[2*k], out[2*k+1] = re, im
		}
		return
	}
	h := n / 2
	even, odd := scratch[:h], scratch[h:n]
	ef, of, rest := scratch[n:2*n], scratch[2*n:3*n], scratch[3*n:]
	for i := range h {
		even[i], odd[i] = in[2*i], in[2*i+1]
	}
	fft(even, ef, rest)
	fft(odd, of, rest)
	for k := range h {
		c, s := twiddleCos[k*step], -twiddleSin[k*step]
		ore, oim := of[2*k], of[2*k+1]
		tre, tim := c*ore-s*oim, c*oim+s*ore
		out[2*k], out[2*k+1] = ef[2*k]+tre, ef[2*k+1]+tim
		out[2*(k+h)], out[2*(k+h)+1] = ef[2*k]-tre, ef[2*k+1]-tim
	}
}

// LogMel computes Whisper's log-mel spectrogram of samples (mono, 16 kHz,
// nominally in [−1, 1]) with the filter bank f, as whisper.cpp does: the
// input is padded with 200 reflected samples in front and 30 s of zeros
// behind, each 400-sample frame is Hann-windowed and transformed, its
// power spectrum (201 bins) weighted by the filters, log10 taken (floored
// at 1e-10), values clamped to at least the maximum minus 8, and mapped by
// (x+4)/4. The result has (len(samples)+480000)/160 frames. Work is split
// over threads goroutines (0 = GOMAXPROCS).
func LogMel(ctx context.Context, samples []float32, f Filters, threads int) (*Mel, error) {
	if f.NFFT != 1+NFFT/2 || f.NMel < 1 || len(f.Data) != f.NMel*f.NFFT {
		return nil, fmt.Errorf("whisper: mel: filter bank %d×%d with %d weights (want n×%d)", f.NMel, f.NFFT, len(f.Data), 1+NFFT/2)
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	ns := len(samples)
	const pad = NFFT / 2
	padded := make([]float64, ns+chunkLength+2*pad)
	for i, v := range samples {
		padded[pad+i] = float64(v)
	}
	nReflect := min(pad, max(0, ns-1))
	for j := range nReflect {
		padded[pad-1-j] = float64(samples[1+j])
	}
	m := &Mel{NMel: f.NMel, NLen: (len(padded) - NFFT) / HopLength}
	m.NLenAudio = 1 + (ns+pad-NFFT)/HopLength
	if ns+pad < NFFT {
		m.NLenAudio = 1
	}
	m.Data = make([]float32, m.NMel*m.NLen)
	// Frames past the end of the input (plus its front padding) see only
	// zeros: whisper.cpp gives them log10(1e-10) without transforming.
	nCompute := min((ns+pad)/HopLength+1, m.NLen)
	var wg sync.WaitGroup
	errs := make([]error, threads)
	for w := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := make([]float64, NFFT)
			out := make([]float64, 2*NFFT)
			scratch := make([]float64, 6*NFFT)
			power := make([]float64, f.NFFT)
			for t := w; t < m.NLen; t += threads {
				if t%64 == w && ctx.Err() != nil {
					errs[w] = ctx.Err()
					return
				}
				if t >= nCompute {
					for b := range m.NMel {
						m.Data[b*m.NLen+t] = -10
					}
					continue
				}
				off := t * HopLength
				for j := range in {
					in[j] = hannWindow[j] * padded[off+j]
				}
				fft(in, out, scratch)
				for k := range power {
					power[k] = out[2*k]*out[2*k] + out[2*k+1]*out[2*k+1]
				}
				for b := range m.NMel {
					row := f.Data[b*f.NFFT : (b+1)*f.NFFT]
					var s float64
					for k, p := range power {
						s += p * float64(row[k])
					}
					m.Data[b*m.NLen+t] = float32(math.Log10(max(s, 1e-10)))
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("whisper: mel: %w", err)
		}
	}
	mx := float32(math.Inf(-1))
	for _, v := range m.Data {
		mx = max(mx, v)
	}
	floor := float64(mx) - 8
	for i, v := range m.Data {
		m.Data[i] = float32((max(float64(v), floor) + 4) / 4)
	}
	return m, nil
}
