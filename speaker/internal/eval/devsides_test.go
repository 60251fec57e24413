package main

import (
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/internal/testdata"
)

// TestDevSides checks the walk shared by -partsdump and -xvecfuse: every dev
// trial of both lists and no sealed one, and each side of each condition
// (A clean, B as the condition says) exactly once.
func TestDevSides(t *testing.T) {
	dir, err := testdata.Lookup("speech")
	if err != nil {
		t.Skip("no shared speech data:", err)
	}
	calls := map[string]int{}
	var sets []string
	got, err := devSides(dir, func(name string, c condition) error {
		calls[condKey(name, c)]++
		return nil
	}, func(set string) { sets = append(sets, set) })
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 2 || sets[0] != "trials.txt" || sets[1] != "trials-more.txt" {
		t.Errorf("after called for %q; want both lists in order", sets)
	}
	want := map[string]bool{}
	for _, set := range []string{"trials.txt", "trials-more.txt"} {
		all, err := readTrials(filepath.Join(dir, set))
		if err != nil {
			t.Fatal(err)
		}
		var dev []trial
		for _, tr := range all {
			if !tr.sealed {
				dev = append(dev, tr)
			}
		}
		if len(got[set]) != len(dev) || len(dev) == 0 || len(dev) == len(all) {
			t.Fatalf("%s: %d dev trials walked; the list has %d dev of %d", set, len(got[set]), len(dev), len(all))
		}
		for k, tr := range dev {
			if g := got[set][k]; g != (trial2{tr.a, tr.b, tr.same}) {
				t.Errorf("%s trial %d = %+v; want %s %s %v", set, k, g, tr.a, tr.b, tr.same)
			}
			for _, c := range evalConditions {
				want[condKey(tr.a, condition{clip: c.clip})] = true
				want[condKey(tr.b, c)] = true
			}
		}
	}
	if len(calls) != len(want) {
		t.Errorf("%d sides walked; want %d", len(calls), len(want))
	}
	for k, n := range calls {
		if n != 1 || !want[k] {
			t.Errorf("side %s walked %d times (wanted: %v)", k, n, want[k])
		}
	}
}
