package normalize

import (
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/unicode/norm"

	"github.com/sottolabs/sotto/internal/nfc"
)

func TestReadForm(t *testing.T) {
	tests := []struct {
		in, want string
		changed  bool
	}{
		{"fünf", "fünf", false},
		{"fu\u0308nf", "fünf", true},
		{"Ä5 e\u0301", "Ä5 é", true},
		{"5\u0301\u0323", "5\u0323\u0301", true}, // marks put in canonical order
		{"\u095b", "\u095b", false},              // ज़ precomposed, an exclusion: as written
		{"\u091c\u093c", "\u091c\u093c", false},  // ज़ decomposed: already NFC
		{"\u212b 5", "\u212b 5", false},          // the ångström sign: as written
		{"A\u030a \u212b", "Å \u212b", true},     // A + ring composes; the sign stays
		{"\u1100\u1161\u11a8", "\uac01", true},   // Hangul jamo compose
		{"a\xffe\u0301", "a\xffé", true},         // invalid UTF-8 kept byte for byte
		{"\u0301x", "\u0301x", false},            // a mark at the start
		{"e\n\u0301", "e\n\u0301", false},        // no composition across a line break
		{"", "", false},
	}
	for _, tt := range tests {
		got, m := readForm(tt.in)
		if got != tt.want || (m != nil) != tt.changed {
			t.Errorf("readForm(%+q) = %+q, map %v; want %+q, map %v", tt.in, got, m != nil, tt.want, tt.changed)
		}
	}
}

// TestRestore maps spans of the read form back to the input: shifted after
// a changed run, widened over a run they cut, merged when two cut the same
// run.
func TestRestore(t *testing.T) {
	text := "u\u0308 5x5\u0301\u0323y 7"
	read, m := readForm(text)
	if read != "ü 5x5\u0323\u0301y 7" || m == nil {
		t.Fatalf("readForm = %+q", read)
	}
	r := func(s string, from int) int { // byte offset of s in read
		for i := from; i+len(s) <= len(read); i++ {
			if read[i:i+len(s)] == s {
				return i
			}
		}
		t.Fatalf("%q not in %q", s, read)
		return 0
	}
	five := r("5", 0)                 // the first 5, after the changed ü
	run := r("5\u0323\u0301", five+1) // the reordered run
	seven := r("7", 0)
	alts := []Alternative{{Spans: []Span{
		{StartByte: five, EndByte: five + 1, Class: Cardinal, Output: "five"},
		{StartByte: run, EndByte: run + 1, Class: Cardinal, Output: "FIVE"},      // ends inside the run
		{StartByte: run + 1, EndByte: run + 3, Class: Verbatim, Output: "DOT"},   // starts and ends inside it
		{StartByte: seven, EndByte: seven + 1, Class: Cardinal, Output: "seven"}, // after it
	}}}
	m.restore(alts, read, text)
	o := func(s string, from int) int {
		for i := from; i+len(s) <= len(text); i++ {
			if text[i:i+len(s)] == s {
				return i
			}
		}
		t.Fatalf("%q not in %q", s, text)
		return 0
	}
	o5 := o("5", 0)
	orun := o("5\u0301\u0323", o5+1)
	o7 := o("7", 0)
	want := []Span{
		{StartByte: o5, EndByte: o5 + 1, Class: Cardinal, Source: "5", Output: "five"},
		{StartByte: orun, EndByte: orun + len("5\u0301\u0323"), Class: Cardinal, Source: "5\u0301\u0323", Output: "FIVEDOT\u0301"},
		{StartByte: o7, EndByte: o7 + 1, Class: Cardinal, Source: "7", Output: "seven"},
	}
	if d := cmp.Diff(want, alts[0].Spans); d != "" {
		t.Errorf("restored spans (-want +got):\n%s", d)
	}
}

// FuzzReadForm: the read form is NFC for text without a character NFC
// replaces, is its own read form, and is canonically equivalent to the
// text.
func FuzzReadForm(f *testing.F) {
	for _, s := range []string{"fu\u0308nf", "5\u0301\u0323", "\u095b\u093c", "A\u030a\u212b", "\u1100\u1161\u11a8x", "\u0b47\u0300\u0b3e", "e\n\u0301",
		// Exclusions, singletons, non-starter decompositions, compatibility
		// ideographs, marks after a space, Hangul LV + T, ZWJ, FEFF.
		"\u0958\u09dc\u0a33\ufb1d", "\u2126\u037e\u0340", "a\u0344\u0323 \u0f73", "\uf900\U0002f800",
		" \u0301\u0323x", "\uac00\u11a8\u1100\u1161", "a\u200d\u0301\ufeff\u0301"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		r, m := readForm(s)
		if (m == nil) != (r == s) {
			t.Fatalf("readForm(%+q) = %+q with map %v", s, r, m != nil)
		}
		if !nfc.Replaced(s) && r != norm.NFC.String(s) {
			t.Fatalf("readForm(%+q) = %+q; NFC is %+q", s, r, norm.NFC.String(s))
		}
		if r2, _ := readForm(r); r2 != r {
			t.Fatalf("readForm(%+q) = %+q; of that %+q", s, r, r2)
		}
		if norm.NFC.String(r) != norm.NFC.String(s) {
			t.Fatalf("readForm(%+q) = %+q is not canonically equivalent", s, r)
		}
	})
}
