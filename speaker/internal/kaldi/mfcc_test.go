package kaldi

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// voskConf is vosk-model-spk-0.4's mfcc.conf.
const voskConf = "--sample-frequency=8000 \n--high-freq=3700\n--low-freq=20\n--num-ceps=23\n--allow-downsample=true\n"

func TestParseMFCCConf(t *testing.T) {
	o, err := ParseMFCCConf(voskConf)
	if err != nil {
		t.Fatal(err)
	}
	want := MFCCOptions{SampleRate: 8000, LowFreq: 20, HighFreq: 3700, NumCeps: 23, NumMelBins: 23}
	if o != want {
		t.Fatalf("got %+v, want %+v", o, want)
	}
	for _, bad := range []string{
		"--frame-shift=20",                          // unknown to us: would change the frames
		"--use-energy=false",                        // c0 would not be the energy
		"--num-ceps=30",                             // more cepstra than mel bins
		"--sample-frequency=abc",                    //
		"sample-frequency=8000",                     // not an option
		"--high-freq=5000\n--sample-frequency=8000", // above Nyquist
	} {
		if _, err := ParseMFCCConf(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if o, err := ParseMFCCConf("# comment\n--num-ceps=20 # twenty\n"); err != nil || o.NumCeps != 20 || o.SampleRate != 16000 {
		t.Fatalf("comments: %+v, %v", o, err)
	}
}

func TestMFCCFramesAndEnergy(t *testing.T) {
	o, _ := ParseMFCCConf(voskConf)
	m, err := NewMFCC(o)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, 8000)
	for i := range x {
		x[i] = float32(1000*rng.NormFloat64() + 300)
	}
	f := m.Compute(x)
	if len(f) != 1+(8000-200)/80 || len(f[0]) != 23 {
		t.Fatalf("%d frames of %d", len(f), len(f[0]))
	}
	// c0 is the log energy of frame 3 after removing its mean.
	fr := x[240:440]
	var mean, e float64
	for _, v := range fr {
		mean += float64(v)
	}
	mean /= 200
	for _, v := range fr {
		e += (float64(v) - mean) * (float64(v) - mean)
	}
	if got := float64(f[3][0]); math.Abs(got-math.Log(e)) > 1e-4 {
		t.Fatalf("c0 %v, want %v", got, math.Log(e))
	}
	if m.Compute(x[:199]) != nil {
		t.Fatal("a signal shorter than a frame has frames")
	}
	// A constant signal has no energy after DC removal: the floor.
	c := m.Compute(make([]float32, 400))
	if math.Abs(float64(c[0][0])-math.Log(1.1920928955078125e-07)) > 1e-4 {
		t.Fatalf("silent c0 %v", c[0][0])
	}
}

// With as many cepstra as mel bins the DCT is invertible: a 1 kHz tone's
// log mel energies peak in the filter centred nearest 1 kHz (filter 10 of
// 23 between 20 and 3700 Hz, centre ≈ 1001 mel).
func TestMFCCToneFilter(t *testing.T) {
	o, _ := ParseMFCCConf(voskConf)
	m, _ := NewMFCC(o)
	x := make([]float32, 2000)
	for i := range x {
		x[i] = float32(8000 * math.Sin(2*math.Pi*1000*float64(i)/8000))
	}
	f := m.Compute(x)
	c := f[5]
	best, arg := math.Inf(-1), -1
	for j := range 23 {
		// Inverse of the orthonormal DCT; c0 (replaced by the energy)
		// only adds a constant to every filter, so it is left out.
		var s float64
		for k := 1; k < 23; k++ {
			lift := 1 + 11*math.Sin(math.Pi*float64(k)/22)
			s += float64(c[k]) / lift * math.Sqrt(2.0/23) * math.Cos(math.Pi/23*(float64(j)+0.5)*float64(k))
		}
		if s > best {
			best, arg = s, j
		}
	}
	if arg != 10 {
		t.Fatalf("a 1 kHz tone peaks in filter %d, want 10", arg)
	}
}

func TestVAD(t *testing.T) {
	energies := func(e ...float32) [][]float32 {
		f := make([][]float32, len(e))
		for i, v := range e {
			f[i] = []float32{v, 0}
		}
		return f
	}
	// Mean 20/12; threshold 5.5 + 0.5·1.67 = 6.33: frame 5 alone is loud,
	// and one loud frame in five (≥ 12 %) makes frames 3…7 speech.
	got := VAD(energies(0, 0, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0), RecipeVAD)
	want := "...#####...."
	if s := mask(got); s != want {
		t.Fatalf("got %s, want %s", s, want)
	}
	// At the edge the window is shorter: frame 0 loud marks 0…2.
	if s := mask(VAD(energies(20, 0, 0, 0, 0, 0), RecipeVAD)); s != "###..." {
		t.Fatalf("edge: got %s", s)
	}
	// A higher proportion needs more loud frames nearby: frame 1 sees 2
	// of 4, frame 5 only 2 of 5.
	o := RecipeVAD
	o.ProportionThreshold = 0.5
	if s := mask(VAD(energies(0, 0, 20, 20, 20, 0, 0, 0, 0, 0, 0, 0), o)); s != ".####......." {
		t.Fatalf("proportion 0.5: got %s", s)
	}
	if len(VAD(nil, RecipeVAD)) != 0 {
		t.Fatal("no frames")
	}
}

func mask(v []bool) string {
	var b strings.Builder
	for _, x := range v {
		if x {
			b.WriteByte('#')
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}

func TestSlidingCMN(t *testing.T) {
	rows := func(v ...float32) [][]float32 {
		f := make([][]float32, len(v))
		for i, x := range v {
			f[i] = []float32{x, 2 * x}
		}
		return f
	}
	for _, c := range []struct {
		window int
		in     [][]float32
		want   []float64
	}{
		// Windows of 3 frames centred, moved inwards at the ends.
		{3, rows(1, 2, 3, 4, 10), []float64{-1, 0, 0, 4 - 17.0/3, 10 - 17.0/3}},
		// A window longer than the input: the mean of all.
		{10, rows(1, 2, 3, 4, 10), []float64{-3, -2, -1, 0, 6}},
	} {
		got := SlidingCMN(c.in, c.window)
		for i, w := range c.want {
			if math.Abs(float64(got[i][0])-w) > 1e-5 || math.Abs(float64(got[i][1])-2*w) > 1e-5 {
				t.Fatalf("window %d: got %v, want %v", c.window, got, c.want)
			}
		}
	}
	if SlidingCMN(nil, 300) != nil {
		t.Fatal("no frames")
	}
}
