package align

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

const jfkText = "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."

// speech loads a shared recording and its transcript.
func speech(t testing.TB, name string) (sotto.Audio, string) {
	t.Helper()
	a, _, err := audio.DecodeFile(context.Background(), sharedtestdata.Path(t, "speech", name+"_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := jfkText
	if name != "en_jfk" {
		b, err := os.ReadFile(sharedtestdata.Path(t, "speech", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		text = strings.TrimSpace(string(b))
	}
	return a, text
}

// failure returns the alignment object of err, failing the test when err
// is not an alignment error with code.
func failure(t *testing.T, err error, code string) Failure {
	t.Helper()
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != code {
		t.Fatalf("err = %v; want a *sotto.Error with code %s", err, code)
	}
	if se.Kind != sotto.ErrUnsatisfiable {
		t.Errorf("kind = %v; want ErrUnsatisfiable (422)", se.Kind)
	}
	f, ok := se.Detail.(Failure)
	if !ok {
		t.Fatalf("detail = %#v; want a Failure", se.Detail)
	}
	return f
}

func words(res *Alignment) []Word {
	var out []Word
	for _, s := range res.Segments {
		out = append(out, s.Words...)
	}
	return out
}

// TestSearchEfforts runs a recording whose standard search fails under a
// narrowed beam (100 nats, an unexported knob) and succeeds with the
// extended one: standard fails with retry recommended, extended and auto
// succeed, and auto reports the stage before its second search.
func TestSearchEfforts(t *testing.T) {
	l := openTestBackend(t)
	l.knobs.standardBeam = 100
	a, text := speech(t, "en_mfa_cold_corpus")
	ctx := context.Background()

	_, err := l.Align(ctx, a, text, Options{Language: "en", TextNormalization: DefaultTextNormalization, SearchEffort: EffortStandard})
	f := failure(t, err, "alignment_failed")
	if f.EstimatedExtraBytes <= 0 {
		t.Errorf("standard failure estimated_extra_bytes = %d; want > 0", f.EstimatedExtraBytes)
	}
	f.EstimatedExtraBytes = 0
	want := Failure{Reason: ReasonNoPath, SearchEffortUsed: EffortStandard, SearchPath: PathWholeAudio, SearchLimit: LimitBudget, RetryRecommended: true}
	if d := cmp.Diff(want, f); d != "" {
		t.Errorf("standard failure (-want +got):\n%s", d)
	}

	res, err := l.Align(ctx, a, text, Options{Language: "en", TextNormalization: DefaultTextNormalization, SearchEffort: EffortExtended})
	if err != nil {
		t.Fatalf("extended: %v", err)
	}
	if res.SearchEffortUsed != EffortExtended || res.SearchRetried {
		t.Errorf("extended: effort %q retried %v; want extended, false", res.SearchEffortUsed, res.SearchRetried)
	}

	var events []Progress
	res, err = l.Align(ctx, a, text, Options{Language: "en", TextNormalization: DefaultTextNormalization, SearchEffort: EffortAuto,
		Progress: func(p Progress) { events = append(events, p) }})
	if err != nil {
		t.Fatalf("auto: %v", err)
	}
	if res.SearchEffortUsed != EffortExtended || !res.SearchRetried {
		t.Errorf("auto: effort %q retried %v; want extended, true", res.SearchEffortUsed, res.SearchRetried)
	}
	if n := len(words(res)); n < 60 {
		t.Errorf("auto: %d words; want the 63 of the transcript", n)
	}
	stage := -1
	for i, e := range events {
		if e.Stage == "extended_search" {
			if stage >= 0 {
				t.Errorf("stage reported twice (events %d and %d)", stage, i)
			}
			stage = i
		}
	}
	if stage < 1 || stage == len(events)-1 {
		t.Fatalf("stage at %d of %d events; want between the two searches", stage, len(events))
	}
	if e := events[stage+1]; e.Fraction != 0 {
		t.Errorf("first progress after the stage = %v; want it to restart from 0", e.Fraction)
	}
	if last := events[len(events)-1]; last.Fraction != 1 {
		t.Errorf("last progress = %v; want 1", last.Fraction)
	}

	// Standard success: no retry, effort standard.
	l.knobs.standardBeam = 0
	res, err = l.Align(ctx, a, text, Options{Language: "en", TextNormalization: DefaultTextNormalization, SearchEffort: EffortAuto})
	if err != nil {
		t.Fatalf("auto, default beam: %v", err)
	}
	if res.SearchEffortUsed != EffortStandard || res.SearchRetried {
		t.Errorf("auto, default beam: effort %q retried %v; want standard, false", res.SearchEffortUsed, res.SearchRetried)
	}
}

// TestBudgetExceeded shrinks the spare memory: the extended search is
// refused before it runs, both directly and as an auto retry.
func TestBudgetExceeded(t *testing.T) {
	l := openTestBackend(t)
	l.knobs.standardBeam = 100
	l.knobs.budget = 1000
	a, text := speech(t, "en_mfa_cold_corpus")
	for _, effort := range []string{EffortAuto, EffortExtended} {
		t.Run(effort, func(t *testing.T) {
			stages := 0
			_, err := l.Align(context.Background(), a, text, Options{Language: "en", TextNormalization: DefaultTextNormalization, SearchEffort: effort,
				Progress: func(p Progress) {
					if p.Stage != "" {
						stages++
					}
				}})
			f := failure(t, err, "alignment_search_budget_exceeded")
			if f.EstimatedExtraBytes <= 1000 || f.RetryRecommended || f.SearchLimit != LimitBudget {
				t.Errorf("failure %+v; want estimated_extra_bytes > 1000, no retry, limit budget", f)
			}
			if stages != 0 {
				t.Errorf("%d stage events; want none (the extended search did not run)", stages)
			}
		})
	}
}

// TestGraphSize shrinks the memory a graph may take: the search is not
// run, and no wider search is recommended.
func TestGraphSize(t *testing.T) {
	l := openTestBackend(t)
	l.knobs.graphBudget = 1000
	a, _ := speech(t, "en_jfk")
	_, err := l.Align(context.Background(), a, jfkText, Options{Language: "en", SearchEffort: EffortAuto})
	want := Failure{Reason: ReasonSearchIncomplete, SearchEffortUsed: EffortStandard, SearchPath: PathWholeAudio, SearchLimit: LimitGraphSize}
	if d := cmp.Diff(want, failure(t, err, "alignment_failed")); d != "" {
		t.Errorf("failure (-want +got):\n%s", d)
	}
}

func TestFailureReasons(t *testing.T) {
	l := openTestBackend(t)
	a, _ := speech(t, "en_jfk")
	short := sotto.Audio{Samples: a.Samples[:8000]}
	tests := []struct {
		name  string
		audio sotto.Audio
		text  string
		want  Failure
	}{
		// Half a second cannot hold 22 words: no search can help.
		{"too short", short, jfkText, Failure{Reason: ReasonNoPath, SearchEffortUsed: EffortStandard, SearchPath: PathWholeAudio, SearchLimit: LimitNone}},
		// Words over 11 s of noise: the beam loses every path, the auto
		// retry runs and fails too, and recommends nothing more.
		{"noise", sotto.Audio{Samples: noise(11 * 16000)}, jfkText, Failure{Reason: ReasonNoPath, SearchEffortUsed: EffortExtended, SearchPath: PathWholeAudio, SearchLimit: LimitBudget}},
		{"no words", a, " ,. ", Failure{Reason: ReasonNoWords, SearchPath: PathWholeAudio, SearchLimit: LimitNone}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := l.Align(context.Background(), tt.audio, tt.text, Options{Language: "en", SearchEffort: EffortAuto})
			if d := cmp.Diff(tt.want, failure(t, err, "alignment_failed")); d != "" {
				t.Errorf("failure (-want +got):\n%s", d)
			}
		})
	}
}

// noise returns n samples of deterministic white noise at -40 dBFS.
func noise(n int) []float32 {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(r.NormFloat64() * 0.01)
	}
	return out
}

func TestBadSearchEffort(t *testing.T) {
	l := openTestBackend(t)
	a, _ := speech(t, "en_jfk")
	_, err := l.Align(context.Background(), a, jfkText, Options{SearchEffort: "wide"})
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "bad_request" || se.Param != "search_effort" {
		t.Errorf("Align(search_effort wide) = %v; want bad_request on search_effort", err)
	}
}

// TestProgress checks that progress is reported during the search, not
// only at its ends, and never goes backwards.
func TestProgress(t *testing.T) {
	l := openTestBackend(t)
	a, _ := speech(t, "en_jfk")
	var got []float64
	_, err := l.Align(context.Background(), a, jfkText, Options{Language: "en", Progress: func(p Progress) { got = append(got, p.Fraction) }})
	if err != nil {
		t.Fatal(err)
	}
	inner := 0
	for i, f := range got {
		if f > 0 && f < 1 {
			inner++
		}
		if i > 0 && f < got[i-1] {
			t.Errorf("progress went back from %v to %v", got[i-1], f)
		}
	}
	if inner < 5 || got[len(got)-1] != 1 {
		t.Errorf("progress %v; want at least 5 reports strictly between 0 and 1, ending at 1", got)
	}
}

// longAudio concatenates recordings and their transcripts.
func longAudio(t testing.TB, names []string, repeat int) (sotto.Audio, string) {
	var samples []float32
	var text []string
	for range repeat {
		for _, n := range names {
			a, tx := speech(t, n)
			samples = append(samples, a.Samples...)
			text = append(text, tx)
		}
	}
	return sotto.Audio{Samples: samples}, strings.Join(text, " ")
}

var longNames = []string{"en_jfk", "en_ls_1089-134686-0000", "en_ls_1089-134691-0001", "en_ls_2412-153948-0000",
	"en_ps_sense0870", "en_ps_sense0880", "en_ps_sense0890"}

// TestStreamingMatchesWholeAudio aligns two minutes of speech on both
// search paths (streaming forced by a 20 s threshold and 20 s windows):
// the anchored chunks must land the words where the whole-audio search
// does.
func TestStreamingMatchesWholeAudio(t *testing.T) {
	l := openTestBackend(t)
	a, text := longAudio(t, longNames, 2)
	opts := Options{Language: "en", TextNormalization: DefaultTextNormalization, Sentences: SentenceOptions{Disabled: true}}
	whole, err := l.Align(context.Background(), a, text, opts)
	if err != nil {
		t.Fatal(err)
	}
	l.knobs.streamSeconds, l.knobs.chunkSeconds = 20, 20
	var path string
	var out *searchOut
	l.knobs.observe = func(p string, o *searchOut) { path, out = p, o }
	var fr []float64
	opts.Progress = func(p Progress) { fr = append(fr, p.Fraction) }
	stream, err := l.Align(context.Background(), a, text, opts)
	if err != nil {
		t.Fatal(err)
	}
	if path != PathStreaming || out.chunks < 4 {
		t.Fatalf("search path %q with %d chunks; want streaming with at least 4", path, out.chunks)
	}
	ww, sw := words(whole), words(stream)
	if len(ww) != len(sw) {
		t.Fatalf("streaming gave %d words; whole audio %d", len(sw), len(ww))
	}
	close := 0
	for i := range ww {
		if ww[i].Word != sw[i].Word {
			t.Fatalf("word %d: streaming %q, whole audio %q", i, sw[i].Word, ww[i].Word)
		}
		for _, d := range []float64{ww[i].Start - sw[i].Start, ww[i].End - sw[i].End} {
			if math.Abs(d) <= 0.02 {
				close++
			}
		}
	}
	share := float64(close) / float64(2*len(ww))
	t.Logf("%d words, %.1f%% of boundaries within 20 ms of the whole-audio search; %d chunks, %d retries, %d progress reports",
		len(ww), 100*share, out.chunks, out.retries, len(fr))
	if share < 0.95 {
		t.Errorf("%.1f%% of boundaries within 20 ms of the whole-audio search; want ≥ 95%%", 100*share)
	}
	if len(fr) < 6 {
		t.Errorf("%d progress reports on the streaming path; want one per chunk", len(fr))
	}
}

func TestStreamingCancel(t *testing.T) {
	l := openTestBackend(t)
	l.knobs.streamSeconds, l.knobs.chunkSeconds = 10, 10
	a, text := longAudio(t, longNames, 1)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := l.Align(ctx, a, text, Options{Language: "en", Progress: func(p Progress) {
		if calls++; calls == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Align after cancel = %v; want context.Canceled", err)
	}
}

func TestCollapsedRule(t *testing.T) {
	w := func(start, end, phones int) alignedWord {
		return alignedWord{start: start, end: end, phones: phones}
	}
	tests := []struct {
		name  string
		words []alignedWord
		want  bool
	}{
		{"natural", []alignedWord{w(0, 30, 3), w(30, 70, 4), w(80, 100, 2), w(100, 140, 5)}, false},
		{"squeezed", []alignedWord{w(0, 6, 3), w(6, 14, 4), w(14, 18, 2), w(100, 160, 5)}, true},
		{"short phones", []alignedWord{w(0, 10, 3), w(10, 23, 4), w(23, 30, 2), w(30, 47, 5)}, true},
		{"two words", []alignedWord{w(0, 2, 1), w(2, 4, 1)}, false},
		{"silence ignored", []alignedWord{{parent: -1, start: 0, end: 2, phones: 1}, w(2, 32, 3), w(32, 72, 4), w(72, 90, 2)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := collapsed(&searchOut{words: tt.words}, searchParams{effort: EffortStandard}, PathWholeAudio) != nil
			if got != tt.want {
				t.Errorf("collapsed(%v) = %v; want %v", tt.words, got, tt.want)
			}
		})
	}
}

func TestSearchBytes(t *testing.T) {
	small, ok := searchBytes(624, 101)
	if !ok || small <= 0 || small > 1<<20 {
		t.Errorf("searchBytes(624, 101) = %d, %v; want a positive figure under 1 MiB", small, ok)
	}
	wider, _ := searchBytes(624, 303)
	if wider <= small {
		t.Errorf("searchBytes with 3× the active states = %d; want more than %d", wider, small)
	}
	if _, ok := searchBytes(math.MaxInt64/2, math.MaxInt64/2); ok {
		t.Errorf("searchBytes(huge) reported no overflow")
	}
}

func TestMemAvailable(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"MemTotal:        8000000 kB\nMemFree:  100 kB\nMemAvailable:    4000000 kB\n", 4000000 * 1024, true},
		{"MemTotal: 1 kB\n", 0, false},
		{"MemAvailable: x kB\n", 0, false},
		{"MemAvailable: -5 kB\n", 0, false},
		{"MemAvailable: 99999999999999999999 kB\n", 0, false},
	}
	for _, tt := range tests {
		got, ok := memAvailable([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("memAvailable(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if spareMemory() <= 0 {
		t.Errorf("spareMemory() = %d; want > 0", spareMemory())
	}
}

func FuzzMemAvailable(f *testing.F) {
	f.Add([]byte("MemAvailable:    4000000 kB\n"))
	f.Add([]byte("MemAvailable:\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, ok := memAvailable(b)
		if ok && v < 0 {
			t.Errorf("memAvailable(%q) = %d; want ≥ 0", b, v)
		}
	})
}

// TestStreamingAcrossPause puts a 40 s pause (faint noise, -70 dBFS)
// between two copies of the speech, longer than the 15 s windows: the
// chunks that fall into it are widened, and the words after the pause
// still land after it.
func TestStreamingAcrossPause(t *testing.T) {
	l := openTestBackend(t)
	l.knobs.streamSeconds, l.knobs.chunkSeconds = 10, 15
	a, text := longAudio(t, longNames, 1)
	gap := noise(40 * sotto.SampleRate)
	for i := range gap {
		gap[i] *= 0.03
	}
	samples := append(append(append([]float32(nil), a.Samples...), gap...), a.Samples...)
	var out *searchOut
	l.knobs.observe = func(_ string, o *searchOut) { out = o }
	res, err := l.Align(context.Background(), sotto.Audio{Samples: samples}, text+" "+text, Options{Language: "en", TextNormalization: DefaultTextNormalization})
	if err != nil {
		t.Fatal(err)
	}
	ws := words(res)
	half := len(ws) / 2
	first := a.Seconds()
	t.Logf("%d chunks, %d retries; word %d %+v", out.chunks, out.retries, half, ws[half])
	if ws[half-1].End > first+0.5 {
		t.Errorf("last word of the first copy %+v ends after the first copy (%.2f s)", ws[half-1], first)
	}
	if ws[half].Start < first+40-0.5 {
		t.Errorf("first word of the second copy %+v starts before the pause ends (%.2f s)", ws[half], first+40)
	}
	if out.retries == 0 {
		t.Errorf("no chunk was retried; want the chunks in the pause widened")
	}
}
