package audio_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

// findSpeechDir locates the shared speech test data ($SOTTO_TESTDATA/speech,
// see internal/testdata). It returns "" and a one-line reason when absent.
func findSpeechDir() (dir, reason string) {
	dir, err := sharedtestdata.Lookup("speech")
	if err != nil {
		return "", err.Error()
	}
	return dir, ""
}

// speechFile returns the path of a file of the shared speech test data,
// skipping the test when it is absent (a partial set from make testdata).
func speechFile(t testing.TB, name string) string {
	t.Helper()
	return sharedtestdata.Path(t, "speech", name)
}

// speechDir returns the shared speech test data directory, skipping the test
// when it is absent.
func speechDir(t testing.TB) string {
	t.Helper()
	dir, reason := findSpeechDir()
	if dir == "" {
		t.Skip(reason)
	}
	return dir
}

func needFFmpeg(t testing.TB) {
	t.Helper()
	if !audio.FFmpegAvailable() {
		t.Skip("ffmpeg is not on PATH; install it (apt-get install ffmpeg) to test container formats")
	}
}

func decodeFile(t testing.TB, path string, opts audio.Options) (sotto.Audio, audio.Info) {
	t.Helper()
	a, info, err := audio.DecodeFile(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("DecodeFile(%q, %+v) error: %v", filepath.Base(path), opts, err)
	}
	return a, info
}

// wantSotto checks that err is a *sotto.Error with the given kind, code and
// param.
func wantSotto(t testing.TB, err error, kind error, code, param string) {
	t.Helper()
	var se *sotto.Error
	if !errors.As(err, &se) {
		t.Fatalf("error = %v (%T); want *sotto.Error %s/%s", err, err, code, param)
	}
	if !errors.Is(err, kind) || se.Code != code || se.Param != param {
		t.Fatalf("error = {Kind: %v, Code: %q, Param: %q, %q}; want {%v, %q, %q}", se.Kind, se.Code, se.Param, se.Message, kind, code, param)
	}
}

// rms returns the root mean square of x.
func rms(x []float32) float64 {
	var s float64
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return math.Sqrt(s / float64(max(len(x), 1)))
}

// snrDB returns the ratio, in dB, of the power of ref to the power of
// (got - ref) over their common length.
func snrDB(ref, got []float32) float64 {
	n := min(len(ref), len(got))
	var ps, pn float64
	for i := range n {
		r := float64(ref[i])
		d := float64(got[i]) - r
		ps += r * r
		pn += d * d
	}
	if pn == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(ps/pn)
}

// bestLag returns the lag in [-maxLag, maxLag] (samples of got relative to
// ref) with the highest normalised correlation, and that correlation.
func bestLag(ref, got []float32, maxLag int) (int, float64) {
	best, bestC := 0, -2.0
	for lag := -maxLag; lag <= maxLag; lag++ {
		var sxy, sxx, syy float64
		for i := range ref {
			j := i + lag
			if j < 0 || j >= len(got) {
				continue
			}
			x, y := float64(ref[i]), float64(got[j])
			sxy += x * y
			sxx += x * x
			syy += y * y
		}
		if sxx == 0 || syy == 0 {
			continue
		}
		c := sxy / math.Sqrt(sxx*syy)
		if c > bestC {
			best, bestC = lag, c
		}
	}
	return best, bestC
}

func readFile(dir, name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
