package asr

import (
	"context"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/decoder"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// TestGoRetreeJFK decodes jfk with the adapted second tree pass, its word
// list alone and united with the first tree pass's: each must give a
// valid transcript (segments in order, words inside them) with the
// words every decent pass finds.
func TestGoRetreeJFK(t *testing.T) {
	base := goBackend(t).(*sphinxASR)
	a := jfk(t)
	for _, mode := range []int{retreeReplace, retreeUnion} {
		s := *base
		s.retree = mode
		tr, err := Transcribe(context.Background(), &s, a, Options{Words: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Segments) == 0 {
			t.Fatalf("retree %d: no segment", mode)
		}
		prev := 0.0
		for _, seg := range tr.Segments {
			for _, w := range seg.Words {
				if w.Start < prev || w.Start < seg.Start || w.End > seg.End || w.End <= w.Start || w.Confidence < 0 || w.Confidence > 1 {
					t.Errorf("retree %d: word %+v out of order or outside its segment [%.2f, %.2f]", mode, w, seg.Start, seg.End)
				}
				prev = w.Start
			}
		}
		t.Logf("retree %d: %q", mode, tr.Text)
		checkJFKWords(t, "Transcribe(jfk) with retree", tr.Text)
	}
}

// TestGoRetreeUnion checks retreeFirst's lists on jfk's frames: replace
// hands on the adapted tree pass's list, union every word and start of
// both lists, and off (or no adaptation) the first list itself.
func TestGoRetreeUnion(t *testing.T) {
	s := *goBackend(t).(*sphinxASR)
	a := jfk(t)
	cep, regions, err := s.cepstra(context.Background(), a.Samples, 0)
	if err != nil {
		t.Fatal(err)
	}
	nc := s.am.Params.NCep
	// The tree pass of every region, the file's transform, and the
	// longest region's lists.
	aligned := make([][]alignedFrame, len(regions))
	var first regionOut
	var r [2]int
	for i, ri := range regions {
		o, err := s.decodeRegion(context.Background(), cep, nc, ri, phaseFirst, nil, nil, nil, nil, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		aligned[i] = o.aligned
		if ri[1]-ri[0] > r[1]-r[0] {
			first, r = o, ri
		}
	}
	xf, _, err := s.adaptation(context.Background(), cep, nc, regions, aligned)
	if err != nil || xf == nil {
		t.Fatalf("no transform for jfk (%v)", err)
	}
	c := cep[r[0]*nc : r[1]*nc]
	buf, out := make([]float32, 3*nc), make([]float32, 3*nc)
	frame := func(i int) []float32 { return xf.Apply(out, sphinx.FeatureAt(buf, c, nc, i)) }
	n := r[1] - r[0]
	lists := map[int]*decoder.FirstPass{}
	for _, mode := range []int{retreeOff, retreeReplace, retreeUnion} {
		s.retree = mode
		if lists[mode], err = s.retreeFirst(context.Background(), frame, n, first.fp, false, decoder.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if lists[retreeOff] != first.fp {
		t.Error("retree off: not the first pass's own list")
	}
	if fp, err := s.retreeFirst(context.Background(), frame, n, first.fp, true, decoder.Options{}); err != nil || fp != first.fp {
		t.Error("retree union without adaptation: not the first pass's own list")
	}
	rw, rs := lists[retreeReplace].Words()
	fw, fs := first.fp.Words()
	uw, us := lists[retreeUnion].Words()
	t.Logf("first tree pass %d words (%d starts), adapted %d (%d), union %d (%d)", fw, fs, rw, rs, uw, us)
	if rw == fw && rs == fs {
		t.Error("the adapted tree pass found exactly the first one's list size: features not adapted?")
	}
	want, err := lists[retreeReplace].Union(first.fp)
	if err != nil {
		t.Fatal(err)
	}
	ww, ws := want.Words()
	if uw != ww || us != ws || uw < max(rw, fw) || us < max(rs, fs) {
		t.Errorf("union: %d words, %d starts; want %d, %d (at least each list's)", uw, us, ww, ws)
	}
	if lists[retreeUnion].Result.Text() != lists[retreeReplace].Result.Text() {
		t.Error("union: the fallback result is not the adapted tree pass's")
	}
}

// TestGoWordListOptions checks that bad word-list options fail at Open,
// before the model loads, naming the option.
func TestGoWordListOptions(t *testing.T) {
	for _, o := range []map[string]string{
		{OptRetree: "yes"},
		{OptRetree: "union", OptAdapt: "off"},
		{OptRetree: "union", OptAdapt: "full"},
		{OptRetree: "union", OptPasses: "1"},
		{OptRetree: "replace", OptCombine: "vtln"},
		{OptFlatListBeam: "1"},
		{OptFlatListBeam: "0"},
		{OptFlatListBeam: "wide"},
		{OptFlatMinEnds: "-1"},
		{OptFlatMinEnds: "x"},
		{OptFlatWindow: "0"},
		{OptFlatWordBeam: "0"},
		{OptFlatWordBeam: "1.5"},
	} {
		_, err := openSphinx(context.Background(), backend.Config{Options: o})
		key := OptRetree
		for k := range o {
			if k != OptPasses && k != OptAdapt && k != OptCombine {
				key = k
			}
		}
		if err == nil || !strings.Contains(err.Error(), "option "+key) {
			t.Errorf("Open(%v) = %v; want an error naming option %s", o, err, key)
		}
	}
}
