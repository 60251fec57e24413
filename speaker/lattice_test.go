package speaker

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/holdout"
	"github.com/sottolabs/sotto/internal/sphinx"
	"github.com/sottolabs/sotto/internal/testdata"
)

// openGo opens the "go" driver on the Debian model, or skips.
func openGo(tb testing.TB) Backend {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(sphinx.DefaultModelDir, "means")); err != nil {
		tb.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	b, err := Open(context.Background(), "go", backend.Config{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Close() })
	return b
}

func speech(tb testing.TB, name string) sotto.Audio {
	tb.Helper()
	a, _, err := audio.DecodeFile(context.Background(), testdata.Path(tb, "speech", name), audio.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return a
}

func embed(t *testing.T, b Backend, a sotto.Audio) []float64 {
	t.Helper()
	v, err := b.Embed(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != Dim {
		t.Fatalf("embedding has %d values; want %d", len(v), Dim)
	}
	out := make([]float64, Dim)
	var n float64
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			t.Fatalf("value %d is %v", i, x)
		}
		out[i] = float64(x)
		n += out[i] * out[i]
	}
	if math.Abs(n-1) > 1e-5 {
		t.Fatalf("squared norm %v; want 1", n)
	}
	return out
}

func sim(t *testing.T, a, b []float64) float64 {
	t.Helper()
	s, err := Similarity(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEmbedDeterministicUnitLength(t *testing.T) {
	b := openGo(t)
	a := speech(t, "en_jfk_16k.wav")
	x, y := embed(t, b, a), embed(t, b, a)
	for i := range x {
		if x[i] != y[i] {
			t.Fatalf("value %d differs between two runs: %v, %v", i, x[i], y[i])
		}
	}
	e, err := EmbedDetail(context.Background(), b, a)
	if err != nil || e.Method != Method || e.SpeechSeconds < 3 || e.SpeechSeconds > a.Seconds() {
		t.Errorf("detail = %+v, %v; want method %s and 3..%.1f s of speech", e, err, Method, a.Seconds())
	}
}

// TestEmbedRobust: gain, clipping and 8 kHz input keep the voice, and
// silence is refused with a 422.
func TestEmbedRobust(t *testing.T) {
	b := openGo(t)
	a := speech(t, "en_jfk_16k.wav")
	ref := embed(t, b, a)
	scaled := func(g float64, clip bool) sotto.Audio {
		s := make([]float32, len(a.Samples))
		for i, v := range a.Samples {
			x := float64(v) * g
			if clip {
				x = max(-1, min(1, x))
			}
			s[i] = float32(x)
		}
		return sotto.Audio{Samples: s, SampleRate: a.Rate()}
	}
	// The front end works on 16-bit samples as the Sphinx one does, so a
	// quiet copy differs by its rounding noise only.
	if s := sim(t, ref, embed(t, b, scaled(0.5, false))); s < 0.999 {
		t.Errorf("gain ×0.5: similarity %.6f; want > 0.999", s)
	}
	if s := sim(t, ref, embed(t, b, scaled(0.05, false))); s < 0.95 {
		t.Errorf("gain ×0.05 (-26 dB): similarity %.6f; want > 0.95", s)
	}
	// ×4 gain clipped at full scale: every loud vowel is flattened.
	if s := sim(t, ref, embed(t, b, scaled(4, true))); s < VerifyThreshold {
		t.Errorf("clipped: similarity %.3f below the threshold %.2f", s, VerifyThreshold)
	}
	s8, err := audio.Resample(nil, a.Samples, a.Rate(), 8000)
	if err != nil {
		t.Fatal(err)
	}
	if s := sim(t, ref, embed(t, b, sotto.Audio{Samples: s8, SampleRate: 8000})); s < VerifyThreshold {
		t.Errorf("8 kHz input: similarity %.3f below the threshold %.2f", s, VerifyThreshold)
	}
	for name, samples := range map[string][]float32{
		"silence":    make([]float32, 5*sotto.SampleRate),
		"empty":      nil,
		"short word": a.Samples[int(0.3*sotto.SampleRate):int(1.2*sotto.SampleRate)],
	} {
		_, err := b.Embed(context.Background(), sotto.Audio{Samples: samples})
		var se *sotto.Error
		if !errors.As(err, &se) || !errors.Is(err, sotto.ErrUnsatisfiable) || se.Code != CodeTooLittleSpeech {
			t.Errorf("%s: error %v; want 422 %s", name, err, CodeTooLittleSpeech)
		}
	}
}

// TestSameSpeakerScoresHigher: halves of one recording are more alike than
// recordings of different speakers.
func TestSameSpeakerScoresHigher(t *testing.T) {
	b := openGo(t)
	jfk := speech(t, "en_jfk_16k.wav")
	half := len(jfk.Samples) / 2
	h1 := embed(t, b, sotto.Audio{Samples: jfk.Samples[:half]})
	h2 := embed(t, b, sotto.Audio{Samples: jfk.Samples[half:]})
	same := sim(t, h1, h2)
	for _, other := range []string{"en_lj_LJ001-0004_16k.wav", "en_arctic_aew_a0002_16k.wav", "en_ls_1089-134686-0000_16k.wav"} {
		o := embed(t, b, speech(t, other))
		if d := sim(t, h1, o); d >= same {
			t.Errorf("jfk vs %s: %.3f; not below jfk's halves %.3f", other, d, same)
		}
	}
}

func TestEmbedCancelled(t *testing.T) {
	b := openGo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Embed(ctx, speech(t, "en_jfk_16k.wav")); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v; want context.Canceled", err)
	}
}

// TestTimelineTwoSpeakers joins two speakers' recordings and expects the
// change near the joint.
func TestTimelineTwoSpeakers(t *testing.T) {
	b := openGo(t)
	x, y := speech(t, "en_jfk_16k.wav"), speech(t, "en_lj_LJ001-0004_16k.wav")
	joint := float64(len(x.Samples)) / sotto.SampleRate
	a := sotto.Audio{Samples: append(append([]float32{}, x.Samples...), y.Samples...)}
	for _, n := range []int{2, 0} {
		tl, err := MakeTimeline(context.Background(), b, a, TimelineOptions{Speakers: n})
		if err != nil {
			t.Fatal(err)
		}
		if len(tl.Speakers) != 2 {
			t.Fatalf("speakers=%d: found %v; want 2 (%+v)", n, tl.Speakers, tl.Turns)
		}
		var wrong float64
		for i, tu := range tl.Turns {
			if tu.End <= tu.Start || (i > 0 && tu.Start < tl.Turns[i-1].End) || tu.End > tl.Duration {
				t.Fatalf("turn %d %+v out of order or outside 0..%.2f", i, tu, tl.Duration)
			}
			// Time on the wrong side of the joint (S1 speaks first).
			if tu.Speaker == "S1" {
				wrong += max(0, tu.End-max(tu.Start, joint))
			} else {
				wrong += max(0, min(tu.End, joint)-tu.Start)
			}
		}
		// Labels come in 0.5 s blocks seen through 2.5 s windows.
		if wrong > 1.5 {
			t.Errorf("speakers=%d: %.2f s given to the wrong speaker; turns %+v", n, wrong, tl.Turns)
		}
	}
	tl, err := MakeTimeline(context.Background(), b, sotto.Audio{Samples: make([]float32, sotto.SampleRate)}, TimelineOptions{})
	if err != nil || len(tl.Turns) != 0 || len(tl.Speakers) != 0 {
		t.Errorf("silence: %+v, %v; want an empty timeline", tl, err)
	}
	if _, err := MakeTimeline(context.Background(), b, a, TimelineOptions{Speakers: -1}); !errors.Is(err, sotto.ErrInvalidRequest) {
		t.Errorf("speakers -1: %v; want 400", err)
	}
}

func TestRTTMRoundTrip(t *testing.T) {
	tl := &Timeline{Turns: []Turn{{0.5, 2.25, "S1"}, {2.5, 4, "S2"}}}
	var buf bytes.Buffer
	if err := WriteRTTM(&buf, "meeting", tl); err != nil {
		t.Fatal(err)
	}
	want := "SPEAKER meeting 1 0.500 1.750 <NA> <NA> S1 <NA> <NA>\nSPEAKER meeting 1 2.500 1.500 <NA> <NA> S2 <NA> <NA>\n"
	if buf.String() != want {
		t.Errorf("rttm:\n%s\nwant:\n%s", buf.String(), want)
	}
	got, err := ParseRTTM(strings.NewReader(";; comment\n" + buf.String() + "SPKR-INFO x 1 <NA> <NA> <NA> unknown S1 <NA> <NA>\n"))
	if err != nil || len(got) != 2 || got[0] != tl.Turns[0] || got[1] != tl.Turns[1] {
		t.Errorf("parsed %+v, %v; want %+v", got, err, tl.Turns)
	}
	if err := WriteRTTM(&buf, "two words", tl); err == nil {
		t.Error("a file name with a space was accepted")
	}
	for _, bad := range []string{"SPEAKER f 1 x 1 <NA> <NA> A", "SPEAKER f 1 1 -2 <NA> <NA> A", "SPEAKER f 1 1"} {
		if _, err := ParseRTTM(strings.NewReader(bad)); err == nil {
			t.Errorf("%q parsed without error", bad)
		}
	}
}

func FuzzParseRTTM(f *testing.F) {
	f.Add("SPEAKER dev00 1 1.440 11.872 <NA> <NA> MEE009 <NA> <NA>\n")
	f.Add(";; x\nSPEAKER a 1 0 0 <NA> <NA> b\n")
	f.Add("SPEAKER a 1 NaN 1 x x y\n")
	f.Fuzz(func(t *testing.T, s string) {
		turns, err := ParseRTTM(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, tu := range turns {
			if !(tu.Start >= 0 && tu.End >= tu.Start) {
				t.Fatalf("turn %+v", tu)
			}
		}
	})
}

func TestCholeskySolve(t *testing.T) {
	a := []float64{4, 2, 0.6, 2, 5, 1, 0.6, 1, 3}
	x := []float64{1, -2, 0.5}
	b := make([]float64, 3)
	for i := range 3 {
		for j := range 3 {
			b[i] += a[i*3+j] * x[j]
		}
	}
	got := choleskySolve(append([]float64{}, a...), b, 3)
	for i := range x {
		if math.Abs(got[i]-x[i]) > 1e-12 {
			t.Fatalf("x = %v; want %v", got, x)
		}
	}
}

func TestDCTOrthonormal(t *testing.T) {
	n := 16
	r := dctMatrix(n)
	for u := range n {
		for v := range n {
			var d float64
			for x := range n {
				d += r[u*n+x] * r[v*n+x]
			}
			want := 0.0
			if u == v {
				want = 1
			}
			if math.Abs(d-want) > 1e-12 {
				t.Fatalf("rows %d·%d = %v; want %v", u, v, d, want)
			}
		}
	}
}

func BenchmarkEmbed(b *testing.B) {
	be := openGo(b)
	a := speech(b, "en_jfk_16k.wav")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := be.Embed(context.Background(), a); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/a.Seconds(), "rtf")
}

// TestTrialsEER guards the accuracy: the equal error rate on the dev part
// of trials.txt (docs/bench/speaker.md has the figures).
func TestTrialsEER(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds 25 files; skipped with -short")
	}
	best, at := devTrialsEER(t, openGo(t))
	if best > 0.08 || at < 0.2 || at > 0.45 {
		t.Errorf("EER %.1f %% at %.3f; want at most 8 %% (one or two misses) at a threshold in 0.2..0.45", 100*best, at)
	}
}

// devTrialsEER returns b's equal error rate on the dev part of trials.txt
// (the lowest max(FRR, FAR) over thresholds) and its threshold.
func devTrialsEER(t *testing.T, b Backend) (best, at float64) {
	t.Helper()
	data, err := os.ReadFile(testdata.Path(t, "speech", "trials.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cache := map[string][]float64{}
	get := func(name string) []float64 {
		if v, ok := cache[name]; ok {
			return v
		}
		v := embed(t, b, speech(t, name))
		cache[name] = v
		return v
	}
	var tgt, non []float64
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) != 3 || holdout.Sealed(strings.TrimSpace(line)) {
			continue
		}
		s := sim(t, get(f[0]), get(f[1]))
		if f[2] == "same" {
			tgt = append(tgt, s)
		} else {
			non = append(non, s)
		}
	}
	best = 1.0
	for _, thr := range append(append([]float64{}, tgt...), non...) {
		miss, fa := 0, 0
		for _, s := range tgt {
			if s < thr {
				miss++
			}
		}
		for _, s := range non {
			if s >= thr {
				fa++
			}
		}
		if e := max(float64(miss)/float64(len(tgt)), float64(fa)/float64(len(non))); e < best {
			best, at = e, thr
		}
	}
	t.Logf("dev trials: %d targets, %d non-targets; EER ≤ %.1f %% at %.3f", len(tgt), len(non), 100*best, at)
	return best, at
}
