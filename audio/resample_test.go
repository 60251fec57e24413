package audio_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sottolabs/sotto/audio"
)

func sine(n, rate int, freq, amp float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(amp * math.Sin(2*math.Pi*freq*float64(i)/float64(rate)+0.3))
	}
	return x
}

// fitSine fits a*sin + b*cos at freq (least squares over x) and returns the
// amplitude and the RMS of the residual.
func fitSine(x []float32, rate int, freq float64, offset int) (amp, resid float64) {
	var ss, cc, sc, xs, xc float64
	for i, v := range x {
		ph := 2 * math.Pi * freq * float64(i+offset) / float64(rate)
		s, c := math.Sin(ph), math.Cos(ph)
		ss += s * s
		cc += c * c
		sc += s * c
		xs += float64(v) * s
		xc += float64(v) * c
	}
	det := ss*cc - sc*sc
	a := (xs*cc - xc*sc) / det
	b := (xc*ss - xs*sc) / det
	var r float64
	for i, v := range x {
		ph := 2 * math.Pi * freq * float64(i+offset) / float64(rate)
		d := float64(v) - a*math.Sin(ph) - b*math.Cos(ph)
		r += d * d
	}
	return math.Hypot(a, b), math.Sqrt(r / float64(len(x)))
}

// zeroCrossFreq estimates the frequency of a sine from its zero crossings,
// interpolated linearly between samples.
func zeroCrossFreq(x []float32, rate int) float64 {
	var first, last float64
	n := 0
	for i := 1; i < len(x); i++ {
		a, b := float64(x[i-1]), float64(x[i])
		if (a < 0) != (b < 0) {
			t := float64(i-1) + a/(a-b)
			if n == 0 {
				first = t
			}
			last = t
			n++
		}
	}
	if n < 2 {
		return 0
	}
	return float64(n-1) / 2 / ((last - first) / float64(rate))
}

func TestResamplePassband(t *testing.T) {
	pairs := [][2]int{
		{8000, 16000}, {11025, 16000}, {12000, 16000}, {22050, 16000}, {24000, 16000},
		{32000, 16000}, {44100, 16000}, {48000, 16000}, {96000, 16000}, {16000, 44100},
		{16000, 8000}, {44100, 48000}, {47999, 16000}, // the last uses interpolated phases
	}
	for _, p := range pairs {
		from, to := p[0], p[1]
		nyq := 0.5 * float64(min(from, to))
		for _, rel := range []float64{0.0125, 0.1, 0.3, 0.6, 0.85} {
			freq := math.Round(rel * nyq)
			t.Run(fmt.Sprintf("%d-%d/%gHz", from, to, freq), func(t *testing.T) {
				x := sine(from, from, freq, 0.5) // one second
				y, err := audio.Resample(nil, x, from, to)
				if err != nil {
					t.Fatal(err)
				}
				if want := (len(x)*to + from - 1) / from; len(y) != want {
					t.Fatalf("len(Resample) = %d; want %d", len(y), want)
				}
				// Measure away from the edges, where the filter sees the
				// abrupt start and end of the tone.
				edge := to / 20
				mid := y[edge : len(y)-edge]
				// The output must be the same tone at the same phase:
				// sample m of the output is the input at time m/to.
				amp, resid := fitSine(mid, to, freq, edge)
				t.Logf("amplitude error %+.4f dB, residual %.1f dB", 20*math.Log10(amp/0.5), 20*math.Log10(resid/(0.5/math.Sqrt2)))
				// The brief asks for 0.1 dB; the documented pass band is
				// flat to 0.01 dB.
				if db := 20 * math.Log10(amp/0.5); math.Abs(db) > 0.01 {
					t.Errorf("amplitude %.5f is %+.4f dB from 0.5; want within 0.01 dB", amp, db)
				}
				// Phase-locked residual: a time shift, aliasing or images
				// would all show up here.
				if db := 20 * math.Log10(resid/(0.5/math.Sqrt2)); db > -90 {
					t.Errorf("residual after fitting the %g Hz tone: %.1f dB; want <= -90 dB", freq, db)
				}
				if f := zeroCrossFreq(mid, to); math.Abs(f-freq) > 0.001*freq+0.5 {
					t.Errorf("zero-crossing frequency = %.2f Hz; want %g Hz", f, freq)
				}
			})
		}
	}
}

func TestResampleStopband(t *testing.T) {
	tests := []struct {
		from, to int
		freqs    []float64
	}{
		{44100, 16000, []float64{8000, 8500, 10000, 15000, 21000}},
		{48000, 16000, []float64{8000, 9000, 12000, 20000, 23900}},
		{22050, 16000, []float64{8100, 9000, 11000}},
		{96000, 16000, []float64{8000, 16000, 40000}},
		{11025, 8000, []float64{4000, 5000}},
	}
	for _, tt := range tests {
		for _, freq := range tt.freqs {
			t.Run(fmt.Sprintf("%d-%d/%gHz", tt.from, tt.to, freq), func(t *testing.T) {
				x := sine(tt.from, tt.from, freq, 0.5)
				y, err := audio.Resample(nil, x, tt.from, tt.to)
				if err != nil {
					t.Fatal(err)
				}
				edge := tt.to / 20
				att := 20 * math.Log10(rms(y[edge:len(y)-edge])/(0.5/math.Sqrt2))
				t.Logf("output level %.1f dB", att)
				// The brief asks for 60 dB; the documented minimum is 80 dB.
				if att > -80 {
					t.Errorf("%g Hz tone above the %d Hz Nyquist frequency: output at %.1f dB; want <= -80 dB", freq, tt.to/2, att)
				}
			})
		}
	}
}

// TestResampleUpsampleImages checks that upsampling leaves no spectral
// images: a tone below the old Nyquist frequency comes out pure.
func TestResampleUpsampleImages(t *testing.T) {
	for _, freq := range []float64{1000, 3000, 3500} {
		x := sine(8000, 8000, freq, 0.5)
		y, err := audio.Resample(nil, x, 8000, 16000)
		if err != nil {
			t.Fatal(err)
		}
		mid := y[800 : len(y)-800]
		_, resid := fitSine(mid, 16000, freq, 800)
		if db := 20 * math.Log10(resid/(0.5/math.Sqrt2)); db > -60 {
			t.Errorf("8000->16000 Hz, %g Hz tone: residual (images) %.1f dB; want <= -60 dB", freq, db)
		}
	}
}

// TestResamplerChunking checks that streaming in arbitrary chunks gives the
// same samples as one call.
func TestResamplerChunking(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, 30011)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * 0.1)
	}
	for _, p := range [][2]int{{44100, 16000}, {8000, 16000}, {16000, 16000}, {11025, 16000}, {47999, 16000}} {
		t.Run(fmt.Sprintf("%d-%d", p[0], p[1]), func(t *testing.T) {
			want, err := audio.Resample(nil, x, p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			r, err := audio.NewResampler(p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second round checks Reset
				var got []float32
				for rest := x; len(rest) > 0; {
					n := min(len(rest), 1+rng.IntN(3000))
					got = r.Process(got, rest[:n])
					rest = rest[n:]
				}
				got = r.Flush(got)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("chunked Process+Flush differs from Resample (-want +got):\n%.2000s", diff)
				}
				r.Reset()
			}
		})
	}
}

func TestResampleShortInputs(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 10} {
		x := make([]float32, n)
		for i := range x {
			x[i] = 0.25
		}
		y, err := audio.Resample(nil, x, 44100, 16000)
		if err != nil {
			t.Fatal(err)
		}
		if want := (n*16000 + 44099) / 44100; len(y) != want {
			t.Errorf("len(Resample(%d samples)) = %d; want %d", n, len(y), want)
		}
	}
}

func TestNewResamplerInvalid(t *testing.T) {
	for _, p := range [][2]int{{0, 16000}, {16000, 0}, {-1, 16000}, {audio.MaxRate + 1, 16000}} {
		if _, err := audio.NewResampler(p[0], p[1]); err == nil {
			t.Errorf("NewResampler(%d, %d) = nil error; want an error", p[0], p[1])
		}
	}
}

// BenchmarkResample converts 10 s of noise between common rate pairs; rtf is
// processing time over audio duration.
func BenchmarkResample(b *testing.B) {
	for _, p := range [][2]int{{44100, 16000}, {48000, 16000}, {22050, 16000}, {8000, 16000}} {
		b.Run(fmt.Sprintf("%d-%d", p[0], p[1]), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			x := make([]float32, 10*p[0])
			for i := range x {
				x[i] = float32(rng.NormFloat64() * 0.1)
			}
			r, err := audio.NewResampler(p[0], p[1])
			if err != nil {
				b.Fatal(err)
			}
			out := make([]float32, 0, 10*p[1]+1)
			b.SetBytes(int64(4 * len(x)))
			for b.Loop() {
				r.Reset()
				out = r.Flush(r.Process(out[:0], x))
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/10, "rtf")
		})
	}
}
