package decoder

import (
	"context"
	"slices"
	"testing"
)

// TestBuildFlatChains checks how buildFlat splits a word's start frames
// among its chains: frame t goes to copy (t/cluster) mod max, each copy
// with HMMs of its own, and without chains the word has one copy; with
// predecessor buckets each chain has that many copies.
func TestBuildFlatChains(t *testing.T) {
	am := acoustic(t)
	d := sentenceDecoder(t, am, Config{})
	bw := int32(slices.IndexFunc(d.lx.words, func(w word) bool { return w.text == "country" }))
	if bw < 0 {
		t.Fatal("no \"country\" in the lexicon")
	}
	starts := map[int32][]int32{bw: {10, 40}}
	// Window 5: frames 5-15 and 35-45; cluster 10, 3 chains: 5-9 and
	// 35-39 in chain 0 (blocks 0 and 3), 10-15 and 40-45 in chain 1.
	for _, c := range []struct {
		ch     chains
		copies int
	}{{chains{}, 1}, {chains{cluster: 10, max: 3}, 2}, {chains{cluster: 10, max: 8}, 4}, {chains{cluster: 100, max: 8}, 1},
		{chains{cluster: 10, max: 3, pred: 4}, 8}, {chains{pred: 3}, 3}} {
		lx := buildFlat(am.Mdef, d.lx, []int32{bw}, starts, 60, 5, c.ch)
		var copies []int32
		for id, w := range lx.words {
			if w.text == "country" {
				copies = append(copies, int32(id))
			}
		}
		if len(copies) != c.copies {
			t.Errorf("%+v: %d copies of the word; want %d", c.ch, len(copies), c.copies)
			continue
		}
		for _, id := range copies {
			if r := lx.rootOf[id]; r < 0 || len(lx.nodes[r].kids) != 1 {
				t.Errorf("%+v: copy %d has no HMM chain of its own", c.ch, id)
			}
		}
		// Copies are created in order of first use.
		chainIdx := map[int32]int{}
		for t0 := int32(0); t0 <= 60; t0++ {
			allowed := (t0 >= 5 && t0 <= 15) || (t0 >= 35 && t0 <= 45)
			got := lx.starts[t0]
			if !allowed {
				if len(got) != 0 {
					t.Errorf("%+v: frame %d starts %v; want none", c.ch, t0, got)
				}
				continue
			}
			if len(got) != 1 {
				t.Fatalf("%+v: frame %d starts %v; want one copy", c.ch, t0, got)
			}
			if cp := lx.predCopies[got[0]]; c.ch.pred > 1 && (len(cp) != int(c.ch.pred) || cp[0] != got[0]) {
				t.Errorf("%+v: frame %d: copies by predecessor %v; want %d, starting with %d", c.ch, t0, cp, c.ch.pred, got[0])
			}
			k := c.ch.chainOf(t0)
			if i, ok := chainIdx[got[0]]; ok && int32(i) != k {
				t.Errorf("%+v: copy %d starts in chains %d and %d", c.ch, got[0], i, k)
			}
			chainIdx[got[0]] = int(k)
		}
	}
}

// TestFlatChainsLattice decodes jfk with the Debian trigram model, the
// flat pass with one chain per word, with start clusters and with
// predecessor buckets. With either, the lattice must hold words that end at one frame from
// several starts (one chain per word keeps a single start per word and
// end frame, barring pronunciation variants), the pass must find a path
// at least as good (each chain keeps its own two-word history), and
// rescoring the lattice at the pass's own weights must find the pass's
// best path or a better one (the rescoring's trigram is exact on every
// path; on jfk without adaptation it finds better paths with either
// lattice).
func TestFlatChainsLattice(t *testing.T) {
	d, feats, n := jfkDecoder(t, Config{Flat: true, FlatLanguageWeight: 7.5})
	ctx := context.Background()
	frame := func(i int) []float32 { return feats[i*39 : (i+1)*39] }
	fp, err := d.DecodeFirst(ctx, frame, n, Options{})
	if err != nil {
		t.Fatal(err)
	}
	starts := map[int32][]int32{}
	for k, w := range fp.vocab {
		starts[w] = fp.frames[fp.off[k]:fp.off[k+1]]
	}
	type outcome struct {
		best        *Result
		l           *Lattice
		multi       int
		multiOnBest int
	}
	decode := func(ch chains) outcome {
		t.Helper()
		s := newSearch(d, buildFlat(d.am.Mdef, d.lx, fp.vocab, starts, n, d.flatWindow, ch))
		if _, _, err := s.run(ctx, frame, n); err != nil {
			t.Fatal(err)
		}
		o := outcome{best: s.result(n), l: s.lattice()}
		_, o.multi = o.l.startsPerEnd()
		for _, w := range o.best.Words {
			if w.Filler {
				continue
			}
			st := map[int32]bool{}
			for _, nd := range o.l.nodes[1:] {
				if nd.text == w.Text && int(nd.end) == w.End-1 {
					st[nd.start] = true
				}
			}
			if len(st) > 1 {
				o.multiOnBest++
			}
		}
		t.Logf("%+v: %d HMM evaluations, %d word exits, %d lattice nodes, %d (spelling, end frame) with several starts (%d on the best path); best path %.2f %q",
			ch, s.stats.HMMEvals, len(s.bp), o.l.Nodes(), o.multi, o.multiOnBest, o.best.Score, o.best.Text())
		return o
	}
	one := decode(chains{})
	many := decode(chains{cluster: 10, max: 8})
	if many.multi <= 2*one.multi {
		t.Errorf("lattice with start clusters: %d (spelling, end frame) pairs with several starts; want more than twice the %d of one chain per word", many.multi, one.multi)
	}
	if many.multiOnBest == 0 {
		t.Errorf("no word of the best path %q ends with several starts in the lattice", many.best.Text())
	}
	if many.best.Score < one.best.Score*(1+1e-6) { // scores are negative
		t.Errorf("best path with start clusters %.2f; below one chain per word's %.2f", many.best.Score, one.best.Score)
	}
	byPred := decode(chains{pred: 4})
	if byPred.multi <= 2*one.multi {
		t.Errorf("lattice with predecessor buckets: %d (spelling, end frame) pairs with several starts; want more than twice the %d of one chain per word", byPred.multi, one.multi)
	}
	if byPred.best.Score < one.best.Score*(1+1e-6) {
		t.Errorf("best path with predecessor buckets %.2f; below one chain per word's %.2f", byPred.best.Score, one.best.Score)
	}
	for _, o := range []outcome{one, many, byPred} {
		r := o.l.Rescore(0, 0)
		if len(r.Words) == 0 || r.Score < o.best.Score*(1+1e-6) {
			t.Errorf("lattice rescored at the pass's weights: %.2f %q; want at least the pass's best path %.2f %q", r.Score, r.Text(), o.best.Score, o.best.Text())
		}
	}
}
