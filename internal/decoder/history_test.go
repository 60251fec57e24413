package decoder

import (
	"context"
	"math"
	"testing"
)

// TestHistoryIDs checks how Options.History becomes the start entry's
// LM history: the last two words, up to the last unknown one, "<s>"
// allowed only as the older word, "</s>" counted as unknown.
func TestHistoryIDs(t *testing.T) {
	lang, id := latticeLM(t)
	d := &Decoder{lang: lang, lx: &lexicon{start: id("<s>"), finish: id("</s>")}}
	for _, tc := range []struct {
		hist       []string
		real, prev int32
	}{
		{nil, id("<s>"), -1},
		{[]string{"a"}, id("a"), -1},
		{[]string{"<s>", "a"}, id("a"), id("<s>")},
		{[]string{"y", "b", "x"}, id("x"), id("b")},
		{[]string{"zzyzx", "x"}, id("x"), -1},
		{[]string{"x", "zzyzx"}, id("<s>"), -1},
		{[]string{"x", "</s>"}, id("<s>"), -1},
		{[]string{"</s>", "y"}, id("y"), -1},
		{[]string{"a", "<s>"}, id("<s>"), -1},
	} {
		real, prev := d.history(tc.hist)
		if real != tc.real || prev != tc.prev {
			t.Errorf("history(%q) = %d, %d; want %d, %d", tc.hist, real, prev, tc.real, tc.prev)
		}
	}
}

// TestRescoreHistory checks that lattice rescoring scores the first
// words after the search's history: "x y" after "a" takes the trigram
// "a x y", after "b" the trigram "b x y", after "<s>" back-offs.
func TestRescoreHistory(t *testing.T) {
	nodes := []latNode{
		{text: "x", start: 0, end: 4},
		{text: "y", start: 5, end: 9},
	}
	for _, tc := range []struct {
		hist  string
		log10 float64 // of the path's LM probability, "</s>" included
	}{
		{"<s>", -1.0 - 1.0 - 0.1}, // P(x) after <s>'s back-off 0, P(y|x), P(</s>|y)
		{"a", -1.0 - 0.01 - 0.1},
		{"b", -0.3 - 2.0 - 0.1},
	} {
		l := testLattice(t, nodes)
		h, ok := l.d.lang.ID(tc.hist)
		if !ok {
			t.Fatalf("no %q", tc.hist)
		}
		l.nodes[0].lmid = h
		r := l.Rescore(1, 1)
		if got := r.Text(); got != "x y" {
			t.Fatalf("after %q: Rescore = %q; want \"x y\"", tc.hist, got)
		}
		if want := tc.log10 * math.Ln10; math.Abs(r.Score-want) > 1e-4 {
			t.Errorf("after %q: score %.5f; want %.5f", tc.hist, r.Score, want)
		}
	} // The older word of the history: "y" after "a x" or "b x".
	for _, tc := range []struct {
		prev  string
		log10 float64
	}{{"a", -0.01 - 0.1}, {"b", -2.0 - 0.1}} {
		l := testLattice(t, []latNode{{text: "y", start: 0, end: 4}})
		l.nodes[0].lmid, _ = l.d.lang.ID("x")
		l.prev, _ = l.d.lang.ID(tc.prev)
		r := l.Rescore(1, 1)
		if want := tc.log10 * math.Ln10; r.Text() != "y" || math.Abs(r.Score-want) > 1e-4 {
			t.Errorf("after %q x: %q, score %.5f; want \"y\", %.5f", tc.prev, r.Text(), r.Score, want)
		}
	}
}

// TestDecodeHistory decodes jfk with its sentence LM (a bigram model:
// "<s> and" seen, "country and" not) with and without the history "for
// your country": the words stay, and the path score drops by the
// first word's LM difference, log10 -0.3 against the back-off -0.5-1.5,
// at each pass's language weight.
func TestDecodeHistory(t *testing.T) {
	am := acoustic(t)
	feats, n := jfkFeatures(t, am)
	frame := func(i int) []float32 { return feats[i*39 : (i+1)*39] }
	for _, tc := range []struct {
		name string
		cfg  Config
		lw   float64 // of the result's score
	}{
		{"tree pass", Config{}, 6.5},
		{"flat pass", Config{Flat: true}, 8.5},
		{"lattice", Config{Flat: true, BestPath: true}, 9.5},
	} {
		d := sentenceDecoder(t, am, tc.cfg)
		ctx := context.Background()
		plain, err := d.DecodeWith(ctx, frame, n, Options{})
		if err != nil {
			t.Fatal(err)
		}
		hist, err := d.DecodeWith(ctx, frame, n, Options{History: []string{"for", "your", "country"}})
		if err != nil {
			t.Fatal(err)
		}
		if plain.Text() != hist.Text() {
			t.Fatalf("%s: words %q without history, %q with", tc.name, plain.Text(), hist.Text())
		}
		want := tc.lw * (-2.0 + 0.3) * math.Ln10
		got := hist.Score - plain.Score
		t.Logf("%s: difference %.3f, want %.3f", tc.name, got, want)
		if math.Abs(got-want) > 1e-3*math.Abs(want) {
			t.Errorf("%s: score %.2f with history, %.2f without: difference %.2f; want %.2f", tc.name, hist.Score, plain.Score, got, want)
		}
	}
}
