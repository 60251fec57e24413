package decoder

import (
	"context"
	"testing"
)

// TestFlatReproducesTreePath checks the flat pass against the tree pass
// on jfk with the Debian trigram model, both at the tree's language
// weight so that their path scores are comparable. Restricted to the
// words of the tree pass's best path, each allowed to start only where
// it started there, the flat pass must find that path again; over the
// tree pass's whole word list (the normal second pass) it must find a
// path scoring at least as well. (The tree pass's own score of its path
// is not quite a path score: a tree root takes its left context from the
// acoustically best predecessor, which the last phone may replace.)
// Before the flat pass pruned word entries with its own beam it lost
// this path: a word entered with its full trigram score fell outside the
// tree's last-phone beam.
func TestFlatReproducesTreePath(t *testing.T) {
	d, feats, n := jfkDecoder(t, Config{Flat: true, FlatLanguageWeight: 6.5})
	ctx := context.Background()
	frame := func(i int) []float32 { return feats[i*39 : (i+1)*39] }
	tree := newSearch(d, d.lx)
	if _, _, err := tree.run(ctx, frame, n); err != nil {
		t.Fatal(err)
	}
	want := tree.result(n)
	// The tree path's words and start frames.
	e, _ := tree.bestFinal()
	if e < 0 {
		t.Fatal("tree pass found no path")
	}
	starts := map[int32][]int32{}
	var vocab []int32
	for ; e > 0; e = tree.bp[e].pred {
		b := &tree.bp[e]
		if d.lx.words[b.word].filler {
			continue
		}
		if _, ok := starts[b.word]; !ok {
			vocab = append(vocab, b.word)
		}
		starts[b.word] = append([]int32{tree.bp[b.pred].frame + 1}, starts[b.word]...)
	}
	var last *search
	run := func(vocab []int32, starts map[int32][]int32, window int32) *Result {
		t.Helper()
		s := newSearch(d, buildFlat(d.am.Mdef, d.lx, vocab, starts, n, window, chains{}))
		if _, _, err := s.run(ctx, frame, n); err != nil {
			t.Fatal(err)
		}
		last = s
		return s.result(n)
	}
	path1 := run(vocab, starts, 0)
	if got := path1.Text(); got != want.Text() {
		t.Fatalf("flat pass over the tree path's words = %q; want the tree path %q", got, want.Text())
	}
	var wi int
	for _, w := range path1.Words {
		if w.Filler {
			continue
		}
		for want.Words[wi].Filler {
			wi++
		}
		if ww := want.Words[wi]; w.Start != ww.Start || w.End != ww.End {
			t.Errorf("flat pass: %q at frames %d-%d; tree pass %d-%d", w.Text, w.Start, w.End, ww.Start, ww.End)
		}
		wi++
	}
	vocabAll, startsAll := tree.firstPassWords(0)
	full := run(vocabAll, startsAll, d.flatWindow)
	t.Logf("tree %.2f %q; flat over its path %.2f; flat over its %d words %.2f %q",
		want.Score, want.Text(), path1.Score, len(vocabAll), full.Score, full.Text())
	if full.Score < path1.Score*(1+1e-6) { // scores are negative; float32 sums
		t.Errorf("flat pass over the tree's words scores %.2f, below the tree path's %.2f: it lost that path", full.Score, path1.Score)
	}
	// Rescoring the flat pass's word graph at the pass's own language
	// weight must find its best path again (or a better one).
	r := last.lattice().Rescore(0, 0)
	if len(r.Words) == 0 || r.Score < full.Score*(1+1e-6) {
		t.Errorf("lattice rescored at the flat pass's weight scores %.2f (%q); want at least the pass's %.2f", r.Score, r.Text(), full.Score)
	}
}
