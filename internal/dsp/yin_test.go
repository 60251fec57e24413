package dsp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestYINTones: sines at 120 and 220 Hz are found within 1 % in every
// frame, at 16 kHz and at 8 kHz with the callers' two settings; silence
// and white noise give no voiced frame.
func TestYINTones(t *testing.T) {
	configs := []struct {
		rate int
		y    YIN
	}{
		{16000, YIN{Win: 400, MinLag: 40, MaxLag: 266, Thresh: 0.15}},
		{8000, YIN{Win: 240, MinLag: 19, MaxLag: 133, Thresh: 0.25}},
	}
	sine := func(rate int, f0 float64) []float32 {
		x := make([]float32, rate)
		for i := range x {
			x[i] = float32(0.5 * math.Sin(2*math.Pi*f0*float64(i)/float64(rate)))
		}
		return x
	}
	noise := func(rate int) []float32 {
		r := rand.New(rand.NewPCG(3, 5))
		x := make([]float32, rate)
		for i := range x {
			x[i] = float32(0.3 * r.NormFloat64())
		}
		return x
	}
	for _, c := range configs {
		hop := c.rate / 100
		n := (c.rate-c.y.Span())/hop + 1
		for _, f0 := range []float64{120, 220} {
			got := c.y.Track(sine(c.rate, f0), n, hop, 0, nil)
			if len(got) != n {
				t.Errorf("%d Hz, %g Hz sine: %d voiced frames of %d", c.rate, f0, len(got), n)
			}
			for _, f := range got {
				if hz := float64(c.rate) / f.Period; math.Abs(hz/f0-1) > 0.01 {
					t.Fatalf("%d Hz, %g Hz sine: frame %d at %.2f Hz", c.rate, f0, f.Frame, hz)
				}
			}
		}
		for name, x := range map[string][]float32{"silence": make([]float32, c.rate), "white noise": noise(c.rate)} {
			if got := c.y.Track(x, n, hop, 0, nil); len(got) != 0 {
				t.Errorf("%d Hz, %s: %d voiced frames; want none", c.rate, name, len(got))
			}
		}
	}
}

// TestYINTrackFrames: the mask and the bounds of x decide which frames are
// looked at; frame indices are reported, and a frame that would read past
// the end is skipped, not read.
func TestYINTrackFrames(t *testing.T) {
	y := YIN{Win: 240, MinLag: 19, MaxLag: 133, Thresh: 0.25}
	x := make([]float32, 8000)
	for i := range x {
		x[i] = float32(math.Sin(2 * math.Pi * 150 * float64(i) / 8000))
	}
	frames := func(got []PitchFrame) []int {
		var v []int
		for _, f := range got {
			v = append(v, f.Frame)
		}
		return v
	}
	for _, tc := range []struct {
		name        string
		x           []float32
		n, hop, off int
		mask        []bool
		want        []int
	}{
		{"nil mask", x, 4, 80, 0, nil, []int{0, 1, 2, 3}},
		{"mask", x, 4, 80, 0, []bool{true, false, true, false}, []int{0, 2}},
		{"short mask", x, 4, 80, 0, []bool{false, true}, []int{1}},
		{"negative offset", x, 4, 80, -100, nil, []int{2, 3}},
		{"exact span", x[:y.Span()+80], 3, 80, 0, nil, []int{0, 1}},
		{"one short", x[:y.Span()+79], 3, 80, 0, nil, []int{0}},
		{"empty", nil, 3, 80, 0, nil, nil},
	} {
		got := frames(y.Track(tc.x, tc.n, tc.hop, tc.off, tc.mask))
		if len(got) != len(tc.want) {
			t.Errorf("%s: frames %v; want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: frames %v; want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}
