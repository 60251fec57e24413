package asr

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/backend"
)

// TestGoAdaptSplit checks the adapted decoding's plumbing on jfk: split
// into the tree pass, statistics and the flat pass with no transform
// (too few frames to adapt), it gives exactly the segments, words and
// times of the plain two-pass decoding; with the transform it still
// finds the words every decent pass finds, and the transform it
// estimates moves the model (a positive likelihood gain).
func TestGoAdaptSplit(t *testing.T) {
	base := goBackend(t).(*sphinxASR)
	a := jfk(t)
	run := func(s *sphinxASR) *Transcript {
		t.Helper()
		tr, err := Transcribe(context.Background(), s, a, Options{Words: true})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	plain, split, adapted := *base, *base, *base
	plain.adapt = adaptOff
	split.adapt, split.adaptMinFrames = adaptTree, math.Inf(1)
	adapted.adapt, adapted.adaptMinFrames = adaptTree, 300
	want, got := run(&plain), run(&split)
	if g, w := fmt.Sprint(got.Segments), fmt.Sprint(want.Segments); g != w {
		t.Errorf("tree pass, statistics, flat pass without a transform:\n%s\nwant the plain two-pass result:\n%s", g, w)
	}
	// A streaming caller gets each region as it is decoded: the plain
	// decoding, not segments held back for the whole file's transform.
	st, err := Transcribe(context.Background(), &adapted, a, Options{Words: true, Streaming: true})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(st.Segments), fmt.Sprint(want.Segments); g != w {
		t.Errorf("streaming with adaptation on:\n%s\nwant the plain two-pass result:\n%s", g, w)
	}
	tr := run(&adapted)
	t.Logf("plain: %q\nadapted: %q", want.Text, tr.Text)
	checkJFKWords(t, "adapted Transcribe(jfk)", tr.Text)
}

// TestGoAdaptOptions checks that bad adaptation options fail at Open,
// before the model loads, naming the option.
func TestGoAdaptOptions(t *testing.T) {
	for _, o := range []map[string]string{
		{OptAdapt: "yes"},
		{OptAdapt: "tree", OptPasses: "1"},
		{OptAdaptPrior: "-1"},
		{OptAdaptPrior: "many"},
		{OptAdaptMinFrames: "x"},
		{OptAdaptTransform: "diagonal"},
		{OptVTLN: "yes"},
		{OptVTLN: "on", OptPasses: "1"},
		{OptConsensus: "1"},
		{OptConsensus: "on", OptPasses: "2"},
		{OptCacheLM: "1"},
		{OptFillProb: "0"},
		{OptSilProb: "2"},
		{OptCacheLM: "-0.1"},
	} {
		_, err := openSphinx(context.Background(), backend.Config{Options: o})
		var key string
		for k := range o {
			if k != OptPasses {
				key = k
			}
		}
		if err == nil || !strings.Contains(err.Error(), "option "+key) {
			t.Errorf("Open(%v) = %v; want an error naming option %s", o, err, key)
		}
	}
}

// TestGoUnknownOption checks that a misspelt option key fails at Open,
// naming it, instead of changing nothing unnoticed.
func TestGoUnknownOption(t *testing.T) {
	for _, k := range []string{"consensu", "flat-starts", "Passes", "language"} {
		_, err := openSphinx(context.Background(), backend.Config{Options: map[string]string{k: "on"}})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("no option %q", k)) {
			t.Errorf("Open with option %q = %v; want an error naming it", k, err)
		}
	}
	if _, err := openSphinx(context.Background(), backend.Config{Options: map[string]string{OptPasses: "9"}}); err == nil || !strings.Contains(err.Error(), "option "+OptPasses) {
		t.Errorf("a known key with a bad value: %v; want the value's own error", err)
	}
}
