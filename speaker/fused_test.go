package speaker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/sphinx"
	"github.com/sottolabs/sotto/speaker/speakertest"
)

// tinyXVectorDir writes speakertest's tiny x-vector model of seed into a
// temporary directory.
func tinyXVectorDir(t testing.TB, seed uint64) string {
	t.Helper()
	d := t.TempDir()
	if err := speakertest.WriteXVector(d, seed); err != nil {
		t.Fatal(err)
	}
	return d
}

// openFused opens the "go" driver with the x-vector model in dir, or skips
// without the Debian acoustic model.
func openFused(t testing.TB, dir string) *lattice {
	t.Helper()
	if _, err := os.Stat(filepath.Join(sphinx.DefaultModelDir, "means")); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	b, err := Open(context.Background(), "go", backend.Config{Options: map[string]string{OptXVectorDir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b.(*lattice)
}

// unrotate returns the layout of the embedding e before the rotation (at
// the length the rotation left it: e is of unit length).
func unrotate(m *mllrModel, e []float32) []float64 {
	raw := make([]float64, Dim)
	for i := range Dim {
		for j := range Dim {
			raw[i] += m.rot[j*Dim+i] * float64(e[j])
		}
	}
	return raw
}

func sqNorm(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return s
}

func unitOf(v []float64) []float64 {
	out := append([]float64(nil), v...)
	normalize(out)
	return out
}

func maxDiff(a, b []float64) float64 {
	var d float64
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// TestFusedEmbedding checks MethodFused's assembly with a tiny x-vector
// network: 256 finite numbers of unit length, deterministic, whose blocks
// before the rotation are v8's static transform without offsets, its first
// 24 delta numbers, its pitch encoding and the x-vector's first 60, each
// at its share; a different network changes the x-vector block only.
func TestFusedEmbedding(t *testing.T) {
	dir1, dir2 := tinyXVectorDir(t, 1), tinyXVectorDir(t, 2)
	l := openFused(t, dir1)
	l2 := openFused(t, dir2)
	a := speech(t, "en_jfk_16k.wav")
	ctx := context.Background()
	e, err := l.EmbedDetail(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if e.Method != MethodFused || len(e.Vector) != Dim {
		t.Fatalf("method %q, %d numbers; want %q, %d", e.Method, len(e.Vector), MethodFused, Dim)
	}
	var n float64
	for i, x := range e.Vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			t.Fatalf("number %d is %v", i, x)
		}
		n += float64(x) * float64(x)
	}
	if math.Abs(n-1) > 1e-5 {
		t.Errorf("squared length %v; want 1", n)
	}
	again, err := l.Embed(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, e.Vector) {
		t.Error("two embeddings of the same audio differ")
	}

	// The parts the blocks must hold.
	s, err := samples16k(a)
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.parts(ctx, s, a.Rate(), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := float64(p.frames) / frameRate; e.SpeechSeconds != want {
		t.Errorf("speech %v s; want v8's %v", e.SpeechSeconds, want)
	}
	sh := sharesFor(p.frames, len(thirdFormants(p.formants)), p.snr)
	total := sh.static + sh.delta + sh.pitch
	var static []float64
	for i, x := range p.static {
		if i%nXi != 0 {
			static = append(static, x)
		}
	}
	pe := pitchEncoding(logF0(p.vf))
	if sqNorm(pe) == 0 {
		t.Fatal("no pitch in the test file")
	}
	xvm, err := LoadXVector(dir1)
	if err != nil {
		t.Fatal(err)
	}
	xv, err := xvm.Embed(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	// L's recipe, written out rather than taken from the constants.
	const v8Weight, xvWeight = 0.45, 0.55
	xv60 := make([]float64, 60)
	for i := range xv60 {
		xv60[i] = float64(xv[i])
	}
	raw := unrotate(l.m, e.Vector)
	blocks := []struct {
		name   string
		lo, hi int
		want   []float64 // its direction
		share  float64
	}{
		{"static", 0, 156, static, v8Weight * sh.static / total},
		{"delta", 156, 180, l.m.projectDelta(p.delta)[:24], v8Weight * sh.delta / total},
		{"pitch", 180, 196, pe, v8Weight * sh.pitch / total},
		{"x-vector", 196, 256, xv60, xvWeight},
	}
	for _, b := range blocks {
		got := raw[b.lo:b.hi]
		if d := maxDiff(unitOf(got), unitOf(b.want)); d > 1e-5 {
			t.Errorf("%s block [%d, %d): direction off by %.2g", b.name, b.lo, b.hi, d)
		}
		if sq := sqNorm(got); math.Abs(sq-b.share) > 1e-5 {
			t.Errorf("%s block: squared length %.6f; want its share %.6f", b.name, sq, b.share)
		}
	}

	// Another network: the same v8 blocks, another x-vector block.
	e2, err := l2.Embed(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	raw2 := unrotate(l2.m, e2)
	if d := maxDiff(raw[:196], raw2[:196]); d > 1e-6 {
		t.Errorf("another x-vector network moved the v8 blocks by %.2g", d)
	}
	if d := maxDiff(raw[196:], raw2[196:]); d < 1e-3 {
		t.Errorf("another x-vector network moved the x-vector block by only %.2g", d)
	}
}

// TestFusedKeepsV8 checks that the driver without OptXVectorDir embeds as
// v8 did (golden numbers of sphinx-mllr-v8, and the same numbers as the
// fused backend's v8 side), and that timelines do not change with the
// option.
func TestFusedKeepsV8(t *testing.T) {
	l := openFused(t, tinyXVectorDir(t, 1))
	v8 := openGo(t)
	a := speech(t, "en_jfk_16k.wav")
	ctx := context.Background()
	e, err := EmbedDetail(ctx, v8, a)
	if err != nil {
		t.Fatal(err)
	}
	if e.Method != Method {
		t.Errorf("method %q without the option; want %q", e.Method, Method)
	}
	same, _, err := bothOf(ctx, l, a)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(same, e.Vector) {
		t.Error("the fused backend's v8 embedding differs from the driver's without the option")
	}
	golden := filepath.Join("testdata", "v8_golden.txt")
	if os.Getenv("SOTTO_UPDATE_GOLDEN") != "" {
		var b strings.Builder
		b.WriteString("# sphinx-mllr-v8 embedding of en_jfk_16k.wav (the Debian en-us model)\n")
		for _, x := range e.Vector {
			fmt.Fprintf(&b, "%.9g\n", x)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := readFloats(t, golden)
	if len(want) != Dim {
		t.Fatalf("%s: %d numbers", golden, len(want))
	}
	for i, x := range e.Vector {
		if math.Abs(float64(x)-want[i]) > 1e-6 {
			t.Fatalf("number %d: %v; v8's golden %v", i, x, want[i])
		}
	}

	x, y := speech(t, "en_jfk_16k.wav"), speech(t, "en_lj_LJ001-0004_16k.wav")
	two := sotto.Audio{Samples: append(append([]float32{}, x.Samples...), y.Samples...)}
	t8, err := MakeTimeline(ctx, v8, two, TimelineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tf, err := MakeTimeline(ctx, l, two, TimelineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(t8, tf) || len(t8.Speakers) == 0 {
		t.Errorf("timeline with the x-vector option %+v; without %+v", tf, t8)
	}
}

func readFloats(t *testing.T, path string) []float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		v, err := strconv.ParseFloat(line, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestFusedOpenErrors: a directory without one of the four files is an
// error naming it.
func TestFusedOpenErrors(t *testing.T) {
	if _, err := os.Stat(filepath.Join(sphinx.DefaultModelDir, "means")); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	for _, f := range []string{XVectorNetFile, XVectorMeanFile, XVectorTransformFile, XVectorMFCCFile} {
		d := tinyXVectorDir(t, 1)
		if err := os.Remove(filepath.Join(d, f)); err != nil {
			t.Fatal(err)
		}
		_, err := Open(context.Background(), "go", backend.Config{Options: map[string]string{OptXVectorDir: d}})
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("without %s: %v; want an error naming it", f, err)
		}
	}
	d := tinyXVectorDir(t, 1)
	if err := os.WriteFile(filepath.Join(d, XVectorMeanFile), []byte(" [ 1 2 3 ]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), "go", backend.Config{Options: map[string]string{OptXVectorDir: d}}); err == nil {
		t.Error("a mean.vec of 3 numbers: no error")
	}
}

// TestFusedCancelledAndShort: a cancelled context stops the fused
// embedding; too little speech is v8's 422.
func TestFusedCancelledAndShort(t *testing.T) {
	l := openFused(t, tinyXVectorDir(t, 1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Embed(ctx, speech(t, "en_jfk_16k.wav")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v; want context.Canceled", err)
	}
	_, err := l.Embed(context.Background(), sotto.Audio{Samples: make([]float32, 3*sotto.SampleRate)})
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != CodeTooLittleSpeech {
		t.Errorf("silence: %v; want %s", err, CodeTooLittleSpeech)
	}
}

// TestFusedGolden embeds a file with the real x-vector network when it is
// present and compares the numbers with the golden ones
// (SOTTO_UPDATE_GOLDEN=1 rewrites them).
func TestFusedGolden(t *testing.T) {
	d := xvectorDir()
	if _, err := os.Stat(filepath.Join(d, XVectorNetFile)); err != nil {
		t.Skipf("x-vector model absent in %s (set SOTTO_XVECTOR_DIR or download Sotto/Kaldi-XVector-Callhome)", d)
	}
	l := openFused(t, d)
	golden := filepath.Join("testdata", "fused_golden.txt")
	a := speech(t, "en_jfk_16k.wav")
	v, err := l.Embed(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SOTTO_UPDATE_GOLDEN") != "" {
		var b strings.Builder
		b.WriteString("# sphinx-mllr-xvector-v1 embedding of en_jfk_16k.wav (the Debian en-us model, vosk-model-spk-0.4)\n")
		for _, x := range v {
			fmt.Fprintf(&b, "%.9g\n", x)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := readFloats(t, golden)
	if len(want) != Dim {
		t.Fatalf("%s: %d numbers", golden, len(want))
	}
	for i, x := range v {
		if math.Abs(float64(x)-want[i]) > 1e-4 {
			t.Fatalf("number %d: %v; golden %v", i, x, want[i])
		}
	}
}

// BenchmarkFusedEmbed measures the MethodFused embedding (v8's parts, then
// the real x-vector) of en_jfk_16k.wav; skipped without the network.
func BenchmarkFusedEmbed(b *testing.B) {
	d := xvectorDir()
	if _, err := os.Stat(filepath.Join(d, XVectorNetFile)); err != nil {
		b.Skipf("x-vector model absent in %s (set SOTTO_XVECTOR_DIR or download Sotto/Kaldi-XVector-Callhome)", d)
	}
	l := openFused(b, d)
	a := speech(b, "en_jfk_16k.wav")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.Embed(context.Background(), a); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/a.Seconds(), "rtf")
}

// TestFusedOddAudio: audio v8 may take but that is not speech (noise,
// tones, a constant, 8 kHz input) gives the fused backend an embedding of
// finite numbers or a *sotto.Error, never another error; with the real
// network when present, else the tiny one.
func TestFusedOddAudio(t *testing.T) {
	d := xvectorDir()
	if _, err := os.Stat(filepath.Join(d, XVectorNetFile)); err != nil {
		d = tinyXVectorDir(t, 1)
	}
	l := openFused(t, d)
	n := 4 * sotto.SampleRate
	gen := func(f func(i int) float64) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(f(i))
		}
		return s
	}
	var x uint64 = 1
	noise := func(int) float64 { // a fixed xorshift sequence in [-0.5, 0.5)
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return float64(x>>11)/(1<<53) - 0.5
	}
	jfk := speech(t, "en_jfk_16k.wav")
	s8, err := audio.Resample(nil, jfk.Samples, jfk.Rate(), 8000)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]sotto.Audio{
		"white noise": {Samples: gen(noise)},
		"tone":        {Samples: gen(func(i int) float64 { return 0.5 * math.Sin(2*math.Pi*440*float64(i)/sotto.SampleRate) })},
		"square":      {Samples: gen(func(i int) float64 { return float64(1 - 2*((i/40)%2)) })},
		"constant":    {Samples: gen(func(int) float64 { return 0.3 })},
		"8 kHz":       {Samples: s8, SampleRate: 8000},
		"speech in loud noise": {Samples: func() []float32 {
			out := make([]float32, len(jfk.Samples))
			for i, v := range jfk.Samples {
				out[i] = v + float32(0.3*noise(i))
			}
			return out
		}()},
		"speech clipped ×30": {Samples: func() []float32 {
			out := make([]float32, len(jfk.Samples))
			for i, v := range jfk.Samples {
				out[i] = max(-1, min(1, 30*v))
			}
			return out
		}()},
	}
	embedded := 0
	for name, a := range cases {
		e, err := l.EmbedDetail(context.Background(), a)
		if err != nil {
			var se *sotto.Error
			if !errors.As(err, &se) {
				t.Errorf("%s: error %v is not a *sotto.Error", name, err)
			}
			t.Logf("%s: %v", name, err)
			continue
		}
		for i, v := range e.Vector {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("%s: number %d is %v", name, i, v)
			}
		}
		embedded++
	}
	if embedded == 0 {
		t.Error("no case embedded: the x-vector part was not exercised")
	}
}

// TestFusedTrialsEER guards the fused method's accuracy with the real
// network: the dev part of trials.txt (0.3 % EER, one target of 14 at
// most, in docs/bench/speaker.md).
func TestFusedTrialsEER(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds 25 files; skipped with -short")
	}
	d := xvectorDir()
	if _, err := os.Stat(filepath.Join(d, XVectorNetFile)); err != nil {
		t.Skipf("x-vector model absent in %s (set SOTTO_XVECTOR_DIR or download Sotto/Kaldi-XVector-Callhome)", d)
	}
	best, at := devTrialsEER(t, openFused(t, d))
	if best > 0.08 || at < 0.3 || at > 0.55 {
		t.Errorf("EER %.1f %% at %.3f; want at most 8 %% (one miss) at a threshold in 0.3..0.55", 100*best, at)
	}
}
