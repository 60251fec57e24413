package audio

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// Resampler design constants. The prototype low-pass filter is a
// Kaiser-windowed sinc whose pass band ends at passFraction of the lower of
// the two Nyquist frequencies and whose stop band starts at that Nyquist
// frequency, with stopbandDB of attenuation beyond it.
const (
	stopbandDB   = 90.0
	passFraction = 0.90
	// maxExactPhases is the largest interpolation factor L (after reducing
	// toHz/fromHz) for which one coefficient row per phase is stored. Rate
	// pairs with a larger L use tablePhases rows and interpolate linearly
	// between neighbouring rows.
	maxExactPhases = 1024
	tablePhases    = 1024
	// maxTable bounds the coefficient table (in float32 values); a filter
	// that would need more uses fewer interpolated rows.
	maxTable = 1 << 21
)

// MaxRate is the highest sample rate, in Hz, that a [Resampler] and the
// decoders accept.
const MaxRate = 768000

// MinRate is the lowest sample rate, in Hz, that the decoders accept. No
// speech is recorded below it, and it bounds the work a small file can
// ask for: every second of input becomes 16 000 samples, so a header
// claiming 1 Hz would turn 128 kB of samples into gigabytes.
const MinRate = 1000

// A Resampler converts a stream of mono float32 samples from one sample rate
// to another with a polyphase Kaiser-windowed sinc filter: a pass band that
// is flat to within 0.01 dB up to 90% of the lower Nyquist frequency, and at
// least 80 dB of attenuation at and above the lower Nyquist frequency, so
// downsampling does not alias and upsampling leaves no images.
//
// Feed input with [Resampler.Process] in chunks of any size, then call
// [Resampler.Flush] once at the end of the stream. The output is aligned with
// the input (sample m of the output sits at time m/toHz seconds, with no
// group delay), and a stream of n input samples yields ceil(n*toHz/fromHz)
// output samples in total, independent of how the input was chunked.
//
// A Resampler holds the state of one stream and is not safe for concurrent
// use; use one per stream. Its memory is bounded by the filter table (at most
// 8 MiB, a few hundred KiB for the common rates, and shared by all
// Resamplers of the same rate pair) plus one input chunk.
type Resampler struct {
	from, to int
	l, m     int64 // reduced interpolation and decimation factors: to/g, from/g
	*filter        // nil when from == to

	hist      []float32 // input samples from absolute index histStart on
	histStart int64
	nIn       int64 // input samples consumed so far
	nOut      int64 // output samples produced so far
	flushed   bool
}

// NewResampler returns a Resampler from fromHz to toHz. Both rates must be
// positive and at most [MaxRate]; otherwise NewResampler returns an error.
// When the rates are equal the Resampler copies its input.
func NewResampler(fromHz, toHz int) (*Resampler, error) {
	if fromHz <= 0 || toHz <= 0 || fromHz > MaxRate || toHz > MaxRate {
		return nil, fmt.Errorf("audio: resample: invalid rates %d Hz -> %d Hz", fromHz, toHz)
	}
	g := gcd(fromHz, toHz)
	r := &Resampler{from: fromHz, to: toHz, l: int64(toHz / g), m: int64(fromHz / g)}
	if fromHz == toHz {
		return r, nil
	}
	key := [2]int{fromHz, toHz}
	if f, ok := filterCache.Load(key); ok {
		r.filter = f.(*filter)
		return r, nil
	}
	r.filter = design(fromHz, toHz, r.l)
	if filterCacheLen.Add(1) <= maxCachedFilters {
		filterCache.Store(key, r.filter)
	}
	return r, nil
}

// Designed filters are immutable and shared between Resamplers of the same
// rate pair; a server sees few distinct pairs.
var (
	filterCache    sync.Map // [2]int{from, to} -> *filter
	filterCacheLen atomic.Int64
)

const maxCachedFilters = 64

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// filter is a polyphase coefficient table.
type filter struct {
	half  int  // half-width in input samples; each output uses 2*half inputs
	exact bool // one row per phase (l <= maxExactPhases)
	rows  int64
	table []float32 // rows*2*half coefficients, read-only once built
}

// design computes the polyphase coefficient table for interpolation factor
// l (toHz/gcd).
func design(fromHz, toHz int, l int64) *filter {
	r := &filter{}
	nyq := 0.5 * float64(min(fromHz, toHz)) // Hz
	stop := nyq
	pass := passFraction * nyq
	cutoff := 0.5 * (pass + stop) / float64(fromHz) // cycles per input sample
	dw := 2 * math.Pi * (stop - pass) / float64(fromHz)
	// Kaiser's estimates of the length and shape for the given attenuation.
	a := stopbandDB
	beta := 0.1102 * (a - 8.7)
	n := (a - 8) / (2.285 * dw)
	r.half = int(math.Ceil(n/2)) + 1
	taps := 2 * r.half

	r.exact = l <= maxExactPhases && int(l)*taps <= maxTable
	r.rows = l
	if !r.exact {
		// Rows at frac = p/(rows-1); the last is a guard row for
		// interpolation as frac approaches 1.
		r.rows = int64(min(tablePhases, maxTable/taps-1)) + 1
	}
	r.table = make([]float32, int(r.rows)*taps)
	coef := make([]float64, taps)
	i0b := besselI0(beta)
	hw := float64(r.half)
	for p := range r.rows {
		var frac float64
		if r.exact {
			frac = float64(p) / float64(l)
		} else {
			frac = float64(p) / float64(r.rows-1)
		}
		row := r.table[int(p)*taps : int(p+1)*taps]
		var sum float64
		for j := range taps {
			// Input sample j of the window sits at distance tau (in input
			// samples) before the output instant.
			tau := frac + float64(r.half-1-j)
			var w float64
			if x := tau / hw; x > -1 && x < 1 {
				w = besselI0(beta*math.Sqrt(1-x*x)) / i0b
			}
			c := 2 * cutoff * sinc(2*cutoff*tau) * w
			coef[j] = c
			sum += c
		}
		// Normalise every phase to unity DC gain, which removes the small
		// per-phase gain ripple of the truncated kernel.
		for j, c := range coef {
			row[j] = float32(c / sum)
		}
	}
	return r
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	px := math.Pi * x
	return math.Sin(px) / px
}

// besselI0 is the zeroth-order modified Bessel function of the first kind,
// summed from its power series.
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	q := x * x / 4
	for k := 1; k < 500; k++ {
		term *= q / float64(k*k)
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}

// FromHz returns the input sample rate in Hz.
func (r *Resampler) FromHz() int { return r.from }

// ToHz returns the output sample rate in Hz.
func (r *Resampler) ToHz() int { return r.to }

// Reset discards all state so that r can convert a new stream.
func (r *Resampler) Reset() {
	r.hist = r.hist[:0]
	r.histStart, r.nIn, r.nOut, r.flushed = 0, 0, 0, false
}

// Process appends to dst the output samples that src (the next input samples
// of the stream) completes, and returns the extended slice. Up to about
// half the filter length of recent input is held back until more input or
// [Resampler.Flush] arrives. Process does not retain src. Calling Process
// after Flush without [Resampler.Reset] panics.
func (r *Resampler) Process(dst, src []float32) []float32 {
	if r.flushed {
		panic("audio: Resampler.Process called after Flush")
	}
	if r.from == r.to {
		r.nIn += int64(len(src))
		r.nOut += int64(len(src))
		return append(dst, src...)
	}
	r.nIn += int64(len(src))
	r.hist = append(r.hist, src...)
	dst = r.run(dst, false)
	r.compact()
	return dst
}

// Flush appends the remaining output samples to dst, treating the input as
// zero after its end, and returns the extended slice. After Flush the total
// output length is ceil(n*toHz/fromHz) for n input samples.
func (r *Resampler) Flush(dst []float32) []float32 {
	if r.flushed {
		return dst
	}
	r.flushed = true
	if r.from == r.to {
		return dst
	}
	// Pad with enough zeros to complete every outstanding window.
	r.hist = append(r.hist, make([]float32, 2*r.half+1)...)
	dst = r.run(dst, true)
	r.hist = r.hist[:0]
	return dst
}

// run produces outputs while their input windows are available. At the end
// of the stream it stops after the last output whose instant lies before the
// end of the input.
func (r *Resampler) run(dst []float32, final bool) []float32 {
	taps := 2 * r.half
	histEnd := r.histStart + int64(len(r.hist))
	for {
		// Output nOut sits at input position t = nOut*m/l = i + frac.
		num := r.nOut * r.m
		i := num / r.l
		if final && num >= r.nIn*r.l {
			return dst
		}
		first := i - int64(r.half) + 1 // first input index of the window
		last := first + int64(taps)    // one past the window
		if last > histEnd {
			return dst
		}
		var x []float32
		if first >= r.histStart {
			x = r.hist[first-r.histStart : last-r.histStart]
		} else {
			// The start of the stream: samples before index 0 are zero.
			x = make([]float32, taps)
			copy(x[r.histStart-first:], r.hist[:last-r.histStart])
		}
		phase := num % r.l
		var y float32
		if r.exact {
			y = dot(x, r.table[int(phase)*taps:int(phase+1)*taps])
		} else {
			pos := float64(phase) / float64(r.l) * float64(r.rows-1)
			p := int(pos)
			w := float32(pos - float64(p))
			a := dot(x, r.table[p*taps:(p+1)*taps])
			b := dot(x, r.table[(p+1)*taps:(p+2)*taps])
			y = a + w*(b-a)
		}
		dst = append(dst, y)
		r.nOut++
	}
}

// compact drops input samples that no future output needs.
func (r *Resampler) compact() {
	next := r.nOut * r.m / r.l
	keepFrom := next - int64(r.half) + 1
	if keepFrom <= r.histStart {
		return
	}
	drop := keepFrom - r.histStart
	if drop > int64(len(r.hist)) {
		drop = int64(len(r.hist))
	}
	n := copy(r.hist, r.hist[drop:])
	r.hist = r.hist[:n]
	r.histStart += drop
}

// dot returns the inner product of equally long x and h, with four partial
// sums to shorten the dependency chain.
func dot(x, h []float32) float32 {
	h = h[:len(x)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * h[i]
		s1 += x[i+1] * h[i+1]
		s2 += x[i+2] * h[i+2]
		s3 += x[i+3] * h[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * h[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Resample converts src, a complete mono signal at fromHz, to toHz, appends
// the result (ceil(len(src)*toHz/fromHz) samples) to dst and returns the
// extended slice. It returns an error only for invalid rates (see
// [NewResampler]). For long or streamed signals use a [Resampler] instead.
func Resample(dst, src []float32, fromHz, toHz int) ([]float32, error) {
	r, err := NewResampler(fromHz, toHz)
	if err != nil {
		return dst, err
	}
	dst = r.Process(dst, src)
	return r.Flush(dst), nil
}
