package asr

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/sphinx"
	"github.com/sottolabs/sotto/internal/testdata"
)

var (
	goOnce sync.Once
	goB    Backend
	goErr  error
)

// goBackend opens the "go" driver once, or skips without the Debian model.
func goBackend(t *testing.T) Backend {
	t.Helper()
	for _, p := range []string{sphinx.DefaultModelDir, sphinx.DefaultDictPath, DefaultLM} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("skipping: %s absent (apt-get install pocketsphinx-en-us)", p)
		}
	}
	goOnce.Do(func() { goB, goErr = Open(context.Background(), "go", backend.Config{}) })
	if goErr != nil {
		t.Fatal(goErr)
	}
	return goB
}

func jfk(t *testing.T) sotto.Audio {
	t.Helper()
	a, _, err := audio.DecodeFile(context.Background(), testdata.Path(t, "speech", "en_jfk_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestGoTranscribeJFK(t *testing.T) {
	b := goBackend(t)
	a := jfk(t)
	tr, err := Transcribe(context.Background(), b, a, Options{Language: "en", Words: true})
	if err != nil {
		t.Fatal(err)
	}
	segs := tr.Segments
	if tr.Language != "en" || tr.Duration != a.Seconds() {
		t.Errorf("Transcribe(jfk) language %q, duration %v; want en, %v", tr.Language, tr.Duration, a.Seconds())
	}
	if len(segs) == 0 {
		t.Fatal("Transcribe(jfk) emitted no segment")
	}
	var text []string
	prevEnd, prevID := 0.0, -1
	for _, s := range segs {
		if s.ID <= prevID || s.Start < prevEnd || s.End < s.Start || s.End > a.Seconds()+0.01 {
			t.Errorf("segment %d [%.2f, %.2f] out of order (previous id %d, end %.2f)", s.ID, s.Start, s.End, prevID, prevEnd)
		}
		prevEnd, prevID = s.End, s.ID
		if len(s.Words) == 0 {
			t.Errorf("segment %d has no words with Options.Words set", s.ID)
		}
		for _, w := range s.Words {
			if w.Start < s.Start || w.End > s.End || w.End <= w.Start || w.Confidence < 0 || w.Confidence > 1 {
				t.Errorf("word %+v outside segment [%.2f, %.2f] or bad confidence", w, s.Start, s.End)
			}
		}
		text = append(text, s.Text)
	}
	if tr.Text != strings.Join(text, " ") {
		t.Errorf("Transcribe(jfk).Text = %q; want the segments' texts joined: %q", tr.Text, strings.Join(text, " "))
	}
	got := strings.Fields(tr.Text)
	checkJFKWords(t, "Transcribe(jfk)", strings.Join(got, " "))
}

// checkJFKWords fails the test for each word of jfk that every decent
// pass gets (the peer misses "so", "americans", the "ask"s) missing from
// text; label names the run in the message.
func checkJFKWords(t *testing.T, label, text string) {
	t.Helper()
	words := strings.Fields(text)
	for _, w := range []string{"fellow", "not", "country", "can", "do", "for"} {
		if !slices.Contains(words, w) {
			t.Errorf("%s = %q; want it to contain %q", label, text, w)
		}
	}
}

func TestGoLanguage(t *testing.T) {
	b := goBackend(t)
	a := sotto.Audio{Samples: make([]float32, 16000)}
	err := b.Transcribe(context.Background(), a, Options{Language: "de"}, func(Segment) error { return nil })
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "asr_language_unsupported" || se.Param != "language" || !errors.Is(err, sotto.ErrInvalidRequest) {
		t.Fatalf("Transcribe(language de) = %v; want asr_language_unsupported on param language", err)
	}
	for _, lang := range []string{"", "en", "en-US", "EN-gb"} {
		if err := b.Transcribe(context.Background(), a, Options{Language: lang}, func(Segment) error { return nil }); err != nil {
			t.Errorf("Transcribe(language %q, silence) = %v; want nil", lang, err)
		}
	}
}

// TestGoStop checks that an emit error and a cancelled context stop the
// work and come back from Transcribe.
func TestGoStop(t *testing.T) {
	b := goBackend(t)
	a := jfk(t)
	stop := errors.New("stop")
	n := 0
	err := b.Transcribe(context.Background(), a, Options{}, func(Segment) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("Transcribe with a failing emit = %v after %d calls; want %v after 1", err, n, stop)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = b.Transcribe(ctx, a, Options{}, func(Segment) error { t.Error("emit after cancel"); return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Transcribe(cancelled) = %v; want context.Canceled", err)
	}
}

func TestSpeechRegions(t *testing.T) {
	const nc = 13
	mk := func(c0 []float32) []float32 {
		cep := make([]float32, len(c0)*nc)
		for i, v := range c0 {
			cep[i*nc] = v
		}
		return cep
	}
	level := func(n int, v float32) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	cat := func(parts ...[]float32) []float32 {
		var out []float32
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, c := range []struct {
		name string
		c0   []float32
		want [][2]int
	}{
		{"silence", level(500, 1), nil},
		{"one word", cat(level(300, 1), level(40, 8), level(300, 1)), [][2]int{{280, 390}}},
		{"too short", cat(level(300, 1), level(5, 8), level(300, 1)), nil},
		{"two close words merge", cat(level(300, 1), level(40, 8), level(60, 1), level(40, 8), level(300, 1)), [][2]int{{280, 490}}},
		{"two far words", cat(level(300, 1), level(40, 8), level(200, 1), level(40, 8), level(300, 1)), [][2]int{{280, 390}, {520, 630}}},
	} {
		got := speechRegions(mk(c.c0), nc)
		if len(got) != len(c.want) {
			t.Errorf("%s: speechRegions = %v; want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: speechRegions = %v; want %v", c.name, got, c.want)
				break
			}
		}
	}
	// A long stretch of speech is split into regions of at most 30 s
	// that cover it without gaps.
	// 90 s of speech with a 40-frame pause every 4 s (short enough to
	// be bridged by the padding).
	long := level(100, 1)
	for range 22 {
		long = cat(long, level(360, 8), level(40, 1))
	}
	got := speechRegions(mk(long), nc)
	if len(got) < 3 {
		t.Fatalf("speechRegions(90 s of speech) = %v; want ≥ 3 regions", got)
	}
	for i, r := range got {
		if r[1]-r[0] > vadMaxLen {
			t.Errorf("region %v longer than %d frames", r, vadMaxLen)
		}
		if i > 0 && r[0] != got[i-1][1] {
			t.Errorf("regions %v and %v leave a gap", got[i-1], r)
		}
	}
}

// TestGoTemperature: the recognizer's search is deterministic, so a
// sampling temperature other than 0 is a 400 naming temperature.
func TestGoTemperature(t *testing.T) {
	b := goBackend(t)
	a := sotto.Audio{Samples: make([]float32, 16000)}
	err := b.Transcribe(context.Background(), a, Options{Temperature: 0.2}, func(Segment) error { return nil })
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "bad_request" || se.Param != "temperature" || !errors.Is(err, sotto.ErrInvalidRequest) {
		t.Fatalf("Transcribe(temperature 0.2) = %v; want bad_request on param temperature", err)
	}
	if err := b.Transcribe(context.Background(), a, Options{Temperature: 0}, func(Segment) error { return nil }); err != nil {
		t.Errorf("Transcribe(temperature 0) = %v", err)
	}
}
