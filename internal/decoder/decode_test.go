package decoder

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/lm"
	"github.com/sottolabs/sotto/internal/sphinx"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/internal/wer"
)

var (
	amOnce sync.Once
	amErr  error
	amVal  *sphinx.Model
)

// acoustic loads the Debian acoustic model once, or skips.
func acoustic(t *testing.T) *sphinx.Model {
	t.Helper()
	if _, err := os.Stat(sphinx.DefaultModelDir); err != nil {
		t.Skipf("skipping: %s absent (apt-get install pocketsphinx-en-us)", sphinx.DefaultModelDir)
	}
	amOnce.Do(func() { amVal, amErr = sphinx.Load(context.Background(), sphinx.Config{}) })
	if amErr != nil {
		t.Fatal(amErr)
	}
	return amVal
}

func jfkFeatures(t *testing.T, am *sphinx.Model) ([]float32, int) {
	t.Helper()
	path := testdata.Path(t, "speech", "en_jfk_16k.wav")
	a, _, err := audio.DecodeFile(context.Background(), path, audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	feats, n, err := am.Features(context.Background(), a.Samples)
	if err != nil {
		t.Fatal(err)
	}
	return feats, n
}

const jfkText = "and so my fellow americans ask not what your country can do for you ask what you can do for your country"

// sentenceDecoder returns a decoder with cfg on am and a language model
// built from jfk's transcript.
func sentenceDecoder(t *testing.T, am *sphinx.Model, cfg Config) *Decoder {
	t.Helper()
	lang, err := sentenceLM(jfkText)
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(am, lang, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDecodeSentenceLM decodes a recording with a language model built
// from its transcript: the search must find every word, in order, at the
// times the peer's grammar-constrained route gives (within 80 ms).
func TestDecodeSentenceLM(t *testing.T) {
	am := acoustic(t)
	feats, n := jfkFeatures(t, am)
	d := sentenceDecoder(t, am, Config{})
	r, err := d.Decode(context.Background(), feats, n)
	if err != nil {
		t.Fatal(err)
	}
	// The single-tree search keeps one predecessor per tree entry (as the
	// peer's first pass does), so one substitution is tolerated.
	if got := r.Text(); wordErrors(jfkText, got) > 1 {
		t.Fatalf("Decode(jfk) = %q; want %q (at most one error)", got, jfkText)
	}
	// Word starts from the peer's JSGF route (research notes), seconds.
	want := map[string]float64{"fellow": 1.24, "what": 5.37, "americans": 1.63, "country": 5.86}
	i := 0
	for _, w := range r.Words {
		if w.Filler {
			continue
		}
		if s, ok := want[w.Text]; ok {
			if got := float64(w.Start) / 100; got < s-0.08 || got > s+0.08 {
				t.Errorf("word %d %q starts at %.2f s; want %.2f ± 0.08", i, w.Text, got, s)
			}
			delete(want, w.Text)
		}
		if w.Confidence < 0 || w.Confidence > 1 {
			t.Errorf("word %q confidence %v outside [0,1]", w.Text, w.Confidence)
		}
		i++
	}
}

func TestDecodeCancel(t *testing.T) {
	am := acoustic(t)
	feats, n := jfkFeatures(t, am)
	d := sentenceDecoder(t, am, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	frame := func(i int) []float32 {
		calls++
		if calls == 100 {
			cancel()
		}
		return feats[i*39 : (i+1)*39]
	}
	_, err := d.DecodeFrames(ctx, frame, n)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("DecodeFrames after cancel = %v; want context.Canceled", err)
	}
	if calls >= n {
		t.Errorf("search read all %d frames after cancellation", calls)
	}
}

// jfkDecoder returns a decoder with cfg on the Debian acoustic model and
// trigram LM, and jfk's features (n frames); it skips the test where the
// LM is not installed and in -short mode (a large-vocabulary decode).
func jfkDecoder(t *testing.T, cfg Config) (d *Decoder, feats []float32, n int) {
	t.Helper()
	am := acoustic(t)
	const path = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("skipping: %s absent", path)
	}
	if testing.Short() {
		t.Skip("skipping: large-vocabulary decode in -short mode")
	}
	feats, n = jfkFeatures(t, am)
	lang, err := lm.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if d, err = New(am, lang, cfg); err != nil {
		t.Fatal(err)
	}
	return d, feats, n
}

// TestDecodeDebianLM decodes jfk with the Debian trigram model: most of
// the words must come out (the peer's first pass gets 18 of 22).
func TestDecodeDebianLM(t *testing.T) {
	d, feats, n := jfkDecoder(t, Config{})
	r, err := d.Decode(context.Background(), feats, n)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Text()
	plain := wordErrors(jfkText, got)
	t.Logf("Decode(jfk) = %q (%+v)", got, r.Stats)
	if plain > 14 {
		t.Errorf("Decode(jfk) = %q: %d word errors; want ≤ 14", got, plain)
	}
	// The tree pass scores paths as the peer's does: its words are the
	// peer's fwdtree words (pocketsphinx_batch -remove_silence no -fwdflat
	// no -bestpath no on the same file: "and got my fellow america and not
	// like you are kind trained in dover yo and white you can you we got on
	// pre") up to where the beams part them. Without the predecessor
	// choice at the last phone the search gave "and while my fellow
	// america and not white you are covering in dover yo ...".
	const peerTree = "and got my fellow america and not like you are kind trained in dover yo and white you can"
	if hw, pw := splitWords(got), splitWords(peerTree); len(hw) < len(pw) || strings.Join(hw[:len(pw)], " ") != peerTree {
		t.Errorf("Decode(jfk) = %q; want it to start with the peer's tree-pass words %q", got, peerTree)
	}
	// Biasing the LM toward the words of a prompt (as the API's prompt
	// field does) must help on speech that contains them.
	dim := len(feats) / n
	rb, err := d.DecodeWith(context.Background(), func(t int) []float32 { return feats[t*dim : (t+1)*dim] }, n,
		Options{Bias: splitWords("what your country ask not")})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("DecodeWith(bias) = %q", rb.Text())
	if biased := wordErrors(jfkText, rb.Text()); biased >= plain {
		t.Errorf("DecodeWith(bias) = %q: %d word errors; want fewer than without bias (%d)", rb.Text(), biased, plain)
	}
}

// wordErrors is the Levenshtein distance between word sequences.
func wordErrors(ref, hyp string) int {
	return wer.Errors(splitWords(ref), splitWords(hyp))
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i, c := range s + " " {
		if c == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return out
}
