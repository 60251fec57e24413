package align

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/sphinx"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

// testdata returns the shared test data directory, or skips.
func testdata(t testing.TB) string { return sharedtestdata.Dir(t, "speech") }

func openTestBackend(t testing.TB) *lattice {
	t.Helper()
	if _, err := os.Stat(filepath.Join(sphinx.DefaultModelDir, "mdef")); err != nil {
		t.Skipf("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us): %v", err)
	}
	b, err := openLattice(context.Background(), backendConfig())
	if err != nil {
		t.Fatal(err)
	}
	return b.(*lattice)
}

func TestAlignJFK(t *testing.T) {
	dir := testdata(t)
	l := openTestBackend(t)
	a, _, err := audio.DecodeFile(context.Background(), filepath.Join(dir, "speech", "en_jfk_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."
	res, err := l.Align(context.Background(), a, text, Options{Language: "en", TextNormalization: DefaultTextNormalization})
	if err != nil {
		t.Fatal(err)
	}
	var words []Word
	for _, s := range res.Segments {
		words = append(words, s.Words...)
	}
	if len(words) != 22 {
		t.Fatalf("got %d words; want 22: %+v", len(words), res.Segments)
	}
	for i, w := range words {
		if w.End <= w.Start || (i > 0 && w.Start < words[i-1].End-1e-9) || w.End > res.Duration {
			t.Errorf("word %d %+v has bad times", i, w)
		}
	}
	t.Logf("first %+v last %+v, usage %+v", words[0], words[len(words)-1], res.Usage)
	if res.Usage.Seconds < 10.9 || res.Duration < 10.9 {
		t.Errorf("usage %v duration %v; want ≈ 11 s", res.Usage.Seconds, res.Duration)
	}
}

// TestScoreFlagsWrongWord replaces a word of the transcript; the wrong word
// must score clearly lower than the correct ones.
func TestScoreFlagsWrongWord(t *testing.T) {
	dir := testdata(t)
	l := openTestBackend(t)
	a, _, err := audio.DecodeFile(context.Background(), filepath.Join(dir, "speech", "en_jfk_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := "And so my fellow Americans, ask not what your elephant can do for you, ask what you can do for your country."
	res, err := l.Align(context.Background(), a, text, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	var wrong float64
	var others []float64
	for _, s := range res.Segments {
		for _, w := range s.Words {
			if strings.HasPrefix(w.Word, "elephant") {
				wrong = w.Score
			} else {
				others = append(others, w.Score)
			}
		}
	}
	sorted := slices.Clone(others)
	slices.Sort(sorted)
	t.Logf("wrong word score %.3f; correct words %v", wrong, others)
	if wrong >= sorted[0] || wrong >= 0.5*sorted[len(sorted)/2] {
		t.Errorf("the wrong word scores %.3f; want below every correct word (lowest %.3f) and under half their median %.3f",
			wrong, sorted[0], sorted[len(sorted)/2])
	}
}

// TestAlignStartOnly aligns from Start to the end of the audio when End is
// zero; timestamps stay relative to the whole recording.
func TestAlignStartOnly(t *testing.T) {
	dir := testdata(t)
	l := openTestBackend(t)
	a, _, err := audio.DecodeFile(context.Background(), filepath.Join(dir, "speech", "en_jfk_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := l.Align(context.Background(), a, "ask what you can do for your country", Options{Language: "en", Start: 8})
	if err != nil {
		t.Fatal(err)
	}
	if res.Usage.Seconds > 3.01 || res.Segments[0].Words[0].Start < 8 {
		t.Errorf("usage %v, first word %+v; want the 3 s from 8 s on, times relative to the recording", res.Usage.Seconds, res.Segments[0].Words[0])
	}
}
