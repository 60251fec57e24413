package decoder

import (
	"context"
	"slices"
	"testing"
)

// firstPass builds a FirstPass over n frames from word → start frames.
func firstPass(n int, words map[int32][]int32) *FirstPass {
	fp := &FirstPass{n: n, Result: &Result{Frames: n}}
	for w := range words {
		fp.vocab = append(fp.vocab, w)
	}
	slices.Sort(fp.vocab)
	for _, w := range fp.vocab {
		fp.off = append(fp.off, int32(len(fp.frames)))
		fp.frames = append(fp.frames, words[w]...)
	}
	fp.off = append(fp.off, int32(len(fp.frames)))
	return fp
}

// listOf returns fp's word list as word → start frames.
func listOf(fp *FirstPass) map[int32][]int32 {
	m := map[int32][]int32{}
	for k, w := range fp.vocab {
		m[w] = fp.frames[fp.off[k]:fp.off[k+1]]
	}
	return m
}

// TestFirstPassUnion checks the union of two word lists: every word of
// either, in ascending order, each with the start frames of both,
// sorted and each once; the receiver's result; first passes over other
// frame counts refused.
func TestFirstPassUnion(t *testing.T) {
	a := firstPass(100, map[int32][]int32{2: {5, 40}, 7: {10}, 9: {0, 30, 60}})
	b := firstPass(100, map[int32][]int32{1: {3}, 7: {10, 12}, 9: {30, 31, 90}, 11: {50}})
	u, err := a.Union(b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int32][]int32{1: {3}, 2: {5, 40}, 7: {10, 12}, 9: {0, 30, 31, 60, 90}, 11: {50}}
	got := listOf(u)
	if !slices.IsSorted(u.vocab) || len(got) != len(want) {
		t.Errorf("union vocabulary %v; want the words %v in ascending order", u.vocab, want)
	}
	for w, fs := range want {
		if !slices.Equal(got[w], fs) {
			t.Errorf("union: word %d starts at %v; want %v", w, got[w], fs)
		}
	}
	if u.Result != a.Result || u.n != 100 {
		t.Errorf("union: result %p over %d frames; want the receiver's %p over 100", u.Result, u.n, a.Result)
	}
	if nw, ns := u.Words(); nw != 5 || ns != 11 {
		t.Errorf("union: Words() = %d, %d; want 5 words, 11 starts", nw, ns)
	}
	// With itself and with an empty list: the list unchanged.
	for _, o := range []*FirstPass{a, firstPass(100, nil)} {
		u, err := a.Union(o)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := listOf(u), listOf(a); len(g) != len(w) || !slices.Equal(u.frames, a.frames) || !slices.Equal(u.vocab, a.vocab) {
			t.Errorf("union with %v = %v; want %v", listOf(o), g, w)
		}
	}
	if _, err := a.Union(firstPass(99, nil)); err == nil {
		t.Error("union of first passes over 100 and 99 frames: no error")
	}
}

// TestFlatListBeam decodes jfk's tree pass with the Debian trigram model
// with and without the word list's own beam (Config.FlatListBeam) and
// with every exit counted (FlatMinEnds < 0): the tree pass's best path
// must not change, and each wider list must hold every (word, start) of
// the default one and more.
func TestFlatListBeam(t *testing.T) {
	ctx := context.Background()
	var base *FirstPass
	for _, cfg := range []Config{{Flat: true}, {Flat: true, FlatListBeam: 1e-40}, {Flat: true, FlatMinEnds: -1}, {Flat: true, FlatListBeam: 1e-40, FlatMinEnds: -1}} {
		d, feats, n := jfkDecoder(t, cfg)
		fp, err := d.DecodeFirst(ctx, func(i int) []float32 { return feats[i*39 : (i+1)*39] }, n, Options{})
		if err != nil {
			t.Fatal(err)
		}
		nw, ns := fp.Words()
		t.Logf("list beam %g, min ends %d: %d words, %d starts", cfg.FlatListBeam, cfg.FlatMinEnds, nw, ns)
		if base == nil {
			base = fp
			continue
		}
		if g, w := fp.Result.Text(), base.Result.Text(); g != w {
			t.Errorf("%+v: tree pass %q; want the default's %q (only the list may change)", cfg, g, w)
		}
		got := listOf(fp)
		for w, fs := range listOf(base) {
			for _, f := range fs {
				if !slices.Contains(got[w], f) {
					t.Errorf("%+v: the list lost word %q starting at %d", cfg, d.lx.words[w].text, f)
				}
			}
		}
		if bw, bs := base.Words(); ns <= bs || nw < bw {
			t.Errorf("%+v: %d words, %d starts; want more starts than the default's %d (%d words)", cfg, nw, ns, bs, bw)
		}
	}
}
