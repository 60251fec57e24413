package decoder

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/lm"
)

// A trigram whose best path the one-history approximation misses: "x"
// is likelier after "b" than after "a", but "y" after "a x" is far
// likelier than after "b x".
const latticeARPA = `\data\
ngram 1=6
ngram 2=6
ngram 3=2

\1-grams:
-1.0 <s> 0.0
-1.0 </s>
-1.0 a 0.0
-1.0 b 0.0
-1.0 x 0.0
-1.0 y 0.0

\2-grams:
-0.5 <s> a 0.0
-0.5 <s> b 0.0
-1.0 a x 0.0
-0.3 b x 0.0
-1.0 x y 0.0
-0.1 y </s>

\3-grams:
-0.01 a x y
-2.0 b x y

\end\
`

// latticeLM parses latticeARPA and returns it with a lookup of its word
// IDs that fails the test on an unknown word.
func latticeLM(t *testing.T) (*lm.Model, func(string) int32) {
	t.Helper()
	lang, err := lm.ParseARPA("test", []byte(latticeARPA))
	if err != nil {
		t.Fatal(err)
	}
	return lang, func(w string) int32 {
		i, ok := lang.ID(w)
		if !ok {
			t.Fatalf("no %q", w)
		}
		return i
	}
}

// testLattice builds a lattice by hand over latticeARPA: nodes are
// (word, start, end) with acoustic score ascr; one phone, no right
// context losses, language weight 1 and no insertion penalty. A filler
// node's text need not be a word of the LM.
func testLattice(t *testing.T, nodes []latNode) *Lattice {
	t.Helper()
	lang, id := latticeLM(t)
	d := &Decoder{lang: lang, lw: 1, lx: &lexicon{start: id("<s>"), finish: id("</s>"), nci: 1}}
	all := append([]latNode{{start: -1, end: -1, lmid: id("<s>")}}, nodes...)
	last := int32(-1)
	for i := range all[1:] {
		if !all[i+1].filler { // a filler has no LM word
			all[i+1].lmid = id(all[i+1].text)
		}
		if all[i+1].end < all[i].end {
			t.Fatal("nodes must be in end-frame order")
		}
		last = max(last, all[i+1].end)
	}
	l := &Lattice{d: d, frames: int(last) + 1, nci: 1, nodes: all, rc: make([]float32, len(all)), last: last, lw: 1, prev: -1}
	l.frameEnd = make([]int32, last+3)
	for f := int32(-1); f <= last+1; f++ {
		n := int32(0)
		for n < int32(len(all)) && all[n].end < f {
			n++
		}
		l.frameEnd[f+1] = n
	}
	return l
}

func TestRescoreExactTrigram(t *testing.T) {
	l := testLattice(t, []latNode{
		{text: "a", start: 0, end: 4},
		{text: "b", start: 0, end: 4},
		{text: "x", start: 5, end: 9},
		{text: "y", start: 10, end: 14},
	})
	r := l.Rescore(1, 1)
	if got := r.Text(); got != "a x y" {
		t.Fatalf("Rescore = %q; want \"a x y\" (the trigram's best; one history per node gives \"b x y\")", got)
	}
	ln10 := math.Ln10
	// Path scores: a x y </s> = -0.5-1.0-0.01-0.1, b x y </s> = -0.5-0.3-2.0-0.1 (log10).
	if want := -1.61 * ln10; math.Abs(r.Score-want) > 1e-4 {
		t.Errorf("score %.5f; want %.5f", r.Score, want)
	}
	pa := 1 / (1 + math.Pow(10, -2.9+1.61))
	want := []float64{pa, 1, 1}
	for i, w := range r.Words {
		if math.Abs(w.Confidence-want[i]) > 1e-4 {
			t.Errorf("%q confidence %.5f; want %.5f", w.Text, w.Confidence, want[i])
		}
	}
	if w := r.Words[1]; w.Start != 5 || w.End != 10 {
		t.Errorf("x at frames %d-%d; want 5-10", w.Start, w.End)
	}
}

func TestRescoreWeights(t *testing.T) {
	// Acoustics favour "x" (3 nats) and "a" (0.1); the LM favours "y",
	// and most the one-word path "y"; a word insertion bonus favours two
	// words. Path scores, ascr + lw × LM (log10 × ln 10) + words × log wip:
	//   a x: 3.1 + lw(-0.5 -1.0 -1.0)   b x: 3 + lw(-0.5 -0.3 -1.0)
	//   a y: 0.1 + lw(-0.5 -1.0 -0.1)   b y: lw(-0.5 -1.0 -0.1)
	//   y:   lw(-1.0 -0.1)
	l := testLattice(t, []latNode{
		{text: "a", start: 0, end: 4, ascr: 0.1},
		{text: "b", start: 0, end: 4},
		{text: "x", start: 5, end: 9, ascr: 3},
		{text: "y", start: 5, end: 9},
		{text: "y", start: 0, end: 9},
	})
	for _, c := range []struct {
		lw, wip float64
		want    string
	}{{1, 1, "b x"}, {20, 1, "y"}, {20, math.Exp(30), "a y"}} {
		if got := l.Rescore(c.lw, c.wip).Text(); got != c.want {
			t.Errorf("lw %g wip %g: %q; want %q", c.lw, c.wip, got, c.want)
		}
	}
	// Posteriors at lw 1: the paths' probabilities are exp(score).
	ln10 := math.Ln10
	p := map[string]float64{
		"a x": math.Exp(3.1 - 2.5*ln10), "b x": math.Exp(3 - 1.8*ln10),
		"a y": math.Exp(0.1 - 1.6*ln10), "b y": math.Exp(-1.6 * ln10), "y": math.Exp(-1.1 * ln10),
	}
	var z float64
	for _, v := range p {
		z += v
	}
	r := l.Rescore(1, 1)
	want := []float64{(p["b x"] + p["b y"]) / z, (p["a x"] + p["b x"]) / z}
	for i, w := range r.Words {
		if math.Abs(w.Confidence-want[i]) > 1e-6 {
			t.Errorf("%q confidence %.6f; want %.6f", w.Text, w.Confidence, want[i])
		}
	}
}

// TestConsensus checks the confusion network's choices slot by slot:
// a spelling whose posterior sums over nodes beats the best path's word,
// a pivot word less likely than no word is dropped, and a word likelier
// than nothing in a pivot silence is added.
func TestConsensus(t *testing.T) {
	l := &Lattice{nodes: []latNode{
		{start: -1, end: -1},
		{text: "a", start: 0, end: 4},                     // 1, pivot: 0.4
		{text: "b", start: 0, end: 3},                     // 2: 0.35
		{text: "b", start: 0, end: 5},                     // 3: 0.25, b overall 0.6
		{text: "x", start: 5, end: 9},                     // 4, pivot: 0.9
		{text: "y", start: 6, end: 9},                     // 5: 0.1
		{text: "q", start: 10, end: 14},                   // 6, pivot: 0.3 < no word
		{text: "<sil>", start: 15, end: 19, filler: true}, // 7, pivot
		{text: "z", start: 14, end: 19},                   // 8: 0.8, mostly over the silence
	}}
	post := []float64{1, 0.4, 0.35, 0.25, 0.9, 0.1, 0.3, 1, 0.8}
	pivot := []int32{1, 4, 6, 7}
	var words []Word
	for _, e := range pivot {
		n := &l.nodes[e]
		words = append(words, Word{Text: n.text, Start: int(n.start), End: int(n.end) + 1, Filler: n.filler})
	}
	got := l.consensus(post, pivot, words)
	want := []Word{{Text: "b", Start: 0, End: 4, Confidence: 0.6}, {Text: "x", Start: 5, End: 10, Confidence: 0.9},
		{Text: "z", Start: 14, End: 20, Confidence: 0.8}}
	if len(got) != len(want) {
		t.Fatalf("consensus = %+v; want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Text != w.Text || g.Start != w.Start || g.End != w.End || math.Abs(g.Confidence-w.Confidence) > 1e-9 {
			t.Errorf("word %d = %+v; want %+v", i, g, w)
		}
	}
}

// TestLatticeOracle checks the lattice's graph error count on a hand-built
// lattice: two competing first words, a filler, and a last word; the
// best path against each reference, with deletions, insertions and a
// path that must end at the last frame.
func TestLatticeOracle(t *testing.T) {
	l := testLattice(t, []latNode{
		{text: "a", start: 0, end: 9},
		{text: "b", start: 0, end: 9},
		{text: "<sil>", start: 10, end: 14, filler: true},
		{text: "x", start: 0, end: 19}, // a long "x" from the start
		{text: "x", start: 10, end: 19},
		{text: "x", start: 15, end: 19},
		{text: "a", start: 20, end: 24}, // ends before the last frame: no complete path
		{text: "y", start: 20, end: 29},
	})
	for _, c := range []struct {
		ref  string
		want int
	}{
		{"a x y", 0},   // a, x, y
		{"b x y", 0},   // b, <sil>, x, y
		{"x y", 0},     // the long x
		{"y", 1},       // x inserted (no path is y alone)
		{"a b x y", 1}, // one deleted
		{"a x", 1},     // y inserted
		{"", 2},        // x, y inserted
		{"b y y", 1},   // b, x for y, y
		{"q r s t u", 5},
		{"x a", 1}, // x, y for a: the path through the last "a" does not end the lattice
	} {
		if got := l.Oracle(strings.Fields(c.ref)); got != c.want {
			t.Errorf("Oracle(%q) = %d; want %d", c.ref, got, c.want)
		}
	}
	// Without an exit of "b" into the next word's first phone, no path
	// goes on from it.
	l.rc[2] = float32(math.Inf(-1))
	if got := l.Oracle(strings.Fields("b x y")); got != 1 {
		t.Errorf("Oracle(\"b x y\") with \"b\" a dead end = %d; want 1", got)
	}
	empty := testLattice(t, nil)
	empty.last = -2
	if got := empty.Oracle([]string{"a"}); got != -1 {
		t.Errorf("Oracle of a lattice without paths = %d; want -1", got)
	}
}

// A second model over the same words in another order, with "<unk>", that
// favours "b x y" and dislikes "a".
const lattice2ARPA = `\data\
ngram 1=7
ngram 2=4

\1-grams:
-1.0 </s>
-1.0 <s> 0.0
-1.0 <unk>
-1.0 y 0.0
-1.0 x 0.0
-1.0 b 0.0
-3.0 a 0.0

\2-grams:
-0.1 <s> b
-0.1 b x
-0.1 x y
-0.1 y </s>

\end\
`

// TestRescoreLM2 checks the interpolation of a second model in the
// rescoring: scores are ln(λ·P2 + (1-λ)·P1) word by word, matched by
// spelling across the two models' ids, and the second model can change
// the best path.
func TestRescoreLM2(t *testing.T) {
	nodes, lm2 := lm2Fixture(t)
	mix := func(lambda float64, p1, p2 []float64) float64 {
		s := 0.0
		for i := range p1 {
			s += math.Log(lambda*math.Pow(10, p2[i]) + (1-lambda)*math.Pow(10, p1[i]))
		}
		return s
	}
	for _, c := range []struct {
		lambda float64
		want   string
	}{{0.01, "a x y"}, {0.5, "b x y"}, {0.99, "b x y"}} {
		l := testLattice(t, nodes)
		if err := l.d.setLM2(lm2, c.lambda); err != nil {
			t.Fatal(err)
		}
		r := l.Rescore(1, 1)
		if got := r.Text(); got != c.want {
			t.Errorf("λ %g: %q; want %q", c.lambda, got, c.want)
		}
		// log10 of each word: the trigram model's, then the second's.
		want := mix(c.lambda, []float64{-0.5, -1.0, -0.01, -0.1}, []float64{-3.0, -1.0, -0.1, -0.1})
		if c.want == "b x y" {
			want = mix(c.lambda, []float64{-0.5, -0.3, -2.0, -0.1}, []float64{-0.1, -0.1, -0.1, -0.1})
		}
		if math.Abs(r.Score-want) > 1e-4 {
			t.Errorf("λ %g: score %.5f; want %.5f", c.lambda, r.Score, want)
		}
	}
	l := testLattice(t, nodes)
	if err := l.d.setLM2(lm2, 1); err == nil {
		t.Error("λ 1 accepted")
	}
}

// TestRescoreWith: rescoring one lattice at another second-model weight
// gives what the decoder configured with that weight gives (words, times,
// confidences and score); the posterior scale changes the confidences
// and not the best path; zero settings equal Rescore; bad settings are
// errors.
func TestRescoreWith(t *testing.T) {
	nodes, lm2 := lm2Fixture(t)
	l := testLattice(t, nodes)
	if err := l.d.setLM2(lm2, 0.5); err != nil {
		t.Fatal(err)
	}
	texts := map[string]bool{}
	for _, lambda := range []float64{0.01, 0.3, 0.5, 0.99} {
		want := testLattice(t, nodes)
		if err := want.d.setLM2(lm2, lambda); err != nil {
			t.Fatal(err)
		}
		for _, lw := range []float64{1, 2.5} {
			w := want.Rescore(lw, 0.5)
			got, err := l.RescoreWith(RescoreSettings{LanguageWeight: lw, WordInsertion: 0.5, LM2Weight: lambda})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Words, w.Words) || got.Score != w.Score {
				t.Errorf("λ %g lw %g: %+v (%g); want %+v (%g)", lambda, lw, got.Words, got.Score, w.Words, w.Score)
			}
			texts[got.Text()] = true
		}
	}
	if len(texts) < 2 {
		t.Errorf("the weights tried give one text only: %v", texts)
	}
	// Zero settings: Rescore's values.
	got, err := l.RescoreWith(RescoreSettings{LanguageWeight: 1, WordInsertion: 1})
	if w := l.Rescore(1, 1); err != nil || !reflect.DeepEqual(got, w) {
		t.Errorf("zero settings: %+v, %v; Rescore %+v", got, err, w)
	}
	// A larger posterior scale sharpens the posteriors: the best path's
	// first word, which has a rival, gains confidence.
	base := l.Rescore(1, 1)
	sharp, err := l.RescoreWith(RescoreSettings{LanguageWeight: 1, WordInsertion: 1, PosteriorScale: 3})
	if err != nil {
		t.Fatal(err)
	}
	if sharp.Text() != base.Text() || sharp.Score != base.Score {
		t.Errorf("posterior scale 3: %q %g; want %q %g", sharp.Text(), sharp.Score, base.Text(), base.Score)
	}
	if c0, c1 := base.Words[0].Confidence, sharp.Words[0].Confidence; !(c1 > c0 && c0 < 1) {
		t.Errorf("posterior scale 3: confidence %g; scale 1: %g", c1, c0)
	}
	for _, bad := range []RescoreSettings{{LM2Weight: 1}, {LM2Weight: -0.5}, {LM2Weight: math.NaN()}, {PosteriorScale: -1},
		{PosteriorScale: math.Inf(1)}, {LanguageWeight: -1}, {LanguageWeight: math.NaN()}, {WordInsertion: 2}} {
		if _, err := l.RescoreWith(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// lm2Fixture returns the four-node lattice of TestRescoreLM2 and
// TestRescoreWith (a or b, then x, then y) and the second model they
// interpolate (lattice2ARPA).
func lm2Fixture(t *testing.T) ([]latNode, *lm.Model) {
	t.Helper()
	nodes := []latNode{
		{text: "a", start: 0, end: 4},
		{text: "b", start: 0, end: 4},
		{text: "x", start: 5, end: 9},
		{text: "y", start: 10, end: 14},
	}
	lm2, err := lm.ParseARPA("lm2", []byte(lattice2ARPA))
	if err != nil {
		t.Fatal(err)
	}
	return nodes, lm2
}
