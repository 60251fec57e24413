package main

import (
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/wer"
)

func TestAlignWords(t *testing.T) {
	for _, tc := range []struct {
		ref, hyp string
		want     string // one letter per step: = match, S, D, I
	}{
		{"a b c", "a b c", "==="},
		{"a b c", "a x c", "=S="},
		{"a b c", "a c", "=D="},
		{"a c", "a b c", "=I="},
		{"", "a b", "II"},
		{"a b", "", "DD"},
		{"the cat sat", "a cat sat down", "S==I"},
	} {
		ops := alignWords(strings.Fields(tc.ref), strings.Fields(tc.hyp))
		var got strings.Builder
		errs := 0
		for _, o := range ops {
			got.WriteByte("=SDI"[o.op])
			if o.op != opMatch {
				errs++
			}
		}
		if got.String() != tc.want {
			t.Errorf("alignWords(%q, %q) = %s, want %s", tc.ref, tc.hyp, got.String(), tc.want)
		}
		if d := wer.Errors(strings.Fields(tc.ref), strings.Fields(tc.hyp)); d != errs {
			t.Errorf("alignWords(%q, %q): %d errors, edit distance %d", tc.ref, tc.hyp, errs, d)
		}
	}
}

func TestPosition(t *testing.T) {
	// Regions: "a b" in region 0, "c d e" in region 1.
	hyp := []hypToken{{"a", 0}, {"b", 0}, {"c", 1}, {"d", 1}, {"e", 1}}
	ref := []string{"a", "b", "x", "c", "d", "e"}
	h := make([]string, len(hyp))
	for i, t := range hyp {
		h[i] = t.text
	}
	ops := alignWords(ref, h)
	var got []string
	for k, o := range ops {
		got = append(got, position(o, k, ops, hyp))
	}
	want := []string{positions[0], positions[2], positions[2], positions[2], positions[3], positions[1]}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("positions = %q, want %q", got, want)
	}
}
