package whisper

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/testdata"
)

// melGolden is whisper.cpp's log-mel output recorded by mel_dump (see
// testdata/README.md): the dimensions, whole frames at chosen positions,
// per-frame sums over the bins and the sum of every value.
type melGolden struct {
	nSamples, nMel, nLen, nLenOrg int
	frames                        map[int][]float64
	sums                          map[int]float64
	total                         float64
}

func readMelGolden(t *testing.T, path string) *melGolden {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := &melGolden{frames: map[int][]float64{}, sums: map[int]float64{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return v
	}
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 2 {
			continue
		}
		switch fs[0] {
		case "n_samples":
			g.nSamples = int(num(fs[1]))
		case "n_mel":
			g.nMel = int(num(fs[1]))
		case "n_len":
			g.nLen = int(num(fs[1]))
		case "n_len_org":
			g.nLenOrg = int(num(fs[1]))
		case "frame":
			var v []float64
			for _, s := range fs[2:] {
				v = append(v, num(s))
			}
			g.frames[int(num(fs[1]))] = v
		case "sum":
			g.sums[int(num(fs[1]))] = num(fs[2])
		case "total":
			g.total = num(fs[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestLogMelMatchesWhisperCpp compares LogMel on real speech with the
// spectrogram whisper.cpp computed from the same samples and filters: the
// 80-bin bank of the tiny model file, and the 128-bin bank of large-v3
// (MelFilters(128), which whisper.cpp read from a header-only file).
func TestLogMelMatchesWhisperCpp(t *testing.T) {
	wav := testdata.Path(t, "speech", "en_jfk_16k.wav")
	a, _, err := audio.DecodeFile(context.Background(), wav, audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Rate() != SampleRate {
		t.Fatalf("%s: %d Hz; want %d", wav, a.Rate(), SampleRate)
	}
	m, err := Parse(forTests(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		golden  string
		filters Filters
	}{
		{"mel_en_jfk_16k.txt", m.Filters},
		{"mel128_en_jfk_16k.txt", MelFilters(128)},
	} {
		t.Run(strconv.Itoa(tc.filters.NMel), func(t *testing.T) {
			checkMel(t, a.Samples, tc.filters, filepath.Join("testdata", tc.golden))
		})
	}
}

func checkMel(t *testing.T, samples []float32, filters Filters, golden string) {
	t.Helper()
	g := readMelGolden(t, golden)
	if len(samples) != g.nSamples {
		t.Fatalf("%d samples; the golden file was recorded from %d", len(samples), g.nSamples)
	}
	mel, err := LogMel(context.Background(), samples, filters, 2)
	if err != nil {
		t.Fatalf("LogMel = %v", err)
	}
	if mel.NMel != g.nMel || mel.NLen != g.nLen || mel.NLenAudio != g.nLenOrg {
		t.Fatalf("LogMel: %d bins × %d frames (%d of audio); want %d × %d (%d)", mel.NMel, mel.NLen, mel.NLenAudio, g.nMel, g.nLen, g.nLenOrg)
	}
	const tol = 1e-4
	var worst float64
	for fr, want := range g.frames {
		for b, w := range want {
			d := math.Abs(float64(mel.At(fr, b)) - w)
			worst = max(worst, d)
			if d > tol {
				t.Errorf("frame %d bin %d = %.7f; whisper.cpp %.7f (|Δ| %.2g > %g)", fr, b, mel.At(fr, b), w, d, tol)
			}
		}
	}
	var worstSum float64
	for fr, want := range g.sums {
		var s float64
		for b := range mel.NMel {
			s += float64(mel.At(fr, b))
		}
		// A frame sum may differ by at most tol per bin.
		d := math.Abs(s-want) / float64(mel.NMel)
		worstSum = max(worstSum, d)
		if d > tol {
			t.Errorf("frame %d: mean over bins differs from whisper.cpp's by %.2g (> %g)", fr, d, tol)
		}
	}
	var total float64
	for _, v := range mel.Data {
		total += float64(v)
	}
	if d := math.Abs(total-g.total) / float64(len(mel.Data)); d > tol {
		t.Errorf("mean of all values differs from whisper.cpp's by %.2g", d)
	}
	t.Logf("max |Δ| over %d whole frames: %.3g; max per-bin mean |Δ| over %d frame sums: %.3g", len(g.frames), worst, len(g.sums), worstSum)
}

func TestLogMelShortAndSilent(t *testing.T) {
	m, err := Parse(forTests(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, 2, 150, 401} {
		mel, err := LogMel(context.Background(), make([]float32, n), m.Filters, 1)
		if err != nil {
			t.Fatalf("LogMel(%d zeros) = %v", n, err)
		}
		if want := (n + chunkLength) / HopLength; mel.NLen != want {
			t.Errorf("LogMel(%d zeros): %d frames; want %d", n, mel.NLen, want)
		}
		// All zeros: every value is log10(1e-10) = −10, mapped to (−10+4)/4.
		for _, v := range mel.Data {
			if v != -1.5 {
				t.Fatalf("LogMel(%d zeros) has value %v; want -1.5", n, v)
			}
		}
	}
	if _, err := LogMel(context.Background(), nil, Filters{NMel: 2, NFFT: 100, Data: make([]float32, 200)}, 1); err == nil {
		t.Error("LogMel with 100-bin filters succeeded; want an error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LogMel(ctx, make([]float32, 16000), m.Filters, 1); err == nil {
		t.Error("LogMel with a cancelled context succeeded")
	}
}

// TestFFT checks the mixed-radix transform against a direct DFT.
func TestFFT(t *testing.T) {
	in := make([]float64, NFFT)
	for i := range in {
		in[i] = math.Sin(float64(i)*0.37) + float64(i%11)/10
	}
	out := make([]float64, 2*NFFT)
	fft(in, out, make([]float64, 6*NFFT))
	for k := range NFFT {
		var re, im float64
		for j, v := range in {
			re += v * math.Cos(2*math.Pi*float64(k*j)/NFFT)
			im -= v * math.Sin(2*math.Pi*float64(k*j)/NFFT)
		}
		if math.Abs(re-out[2*k]) > 1e-9 || math.Abs(im-out[2*k+1]) > 1e-9 {
			t.Fatalf("bin %d = (%g, %g); direct DFT (%g, %g)", k, out[2*k], out[2*k+1], re, im)
		}
	}
}

// TestMelFiltersMatchFile checks MelFilters against the 80-bin bank
// OpenAI shipped and whisper.cpp stored in its model files.
func TestMelFiltersMatchFile(t *testing.T) {
	m, err := Parse(forTests(t))
	if err != nil {
		t.Fatal(err)
	}
	f := MelFilters(80)
	var worst float64
	for i, want := range m.Filters.Data {
		d := math.Abs(float64(f.Data[i] - want))
		worst = max(worst, d/max(1e-3, math.Abs(float64(want))))
	}
	if worst > 1e-5 {
		t.Errorf("MelFilters(80) differs from the file's bank by a relative %.3g", worst)
	}
	t.Logf("MelFilters(80): max relative difference from the file's bank %.3g", worst)
}
