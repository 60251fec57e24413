package nfc

import (
	"math/rand"
	"slices"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/sottolabs/sotto/internal/nfc/nfctest"
)

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, in, read string
		runs           []Run
	}{
		{"empty", "", "", nil},
		{"ASCII", "plain. Text 5", "plain. Text 5", nil},
		{"composed", "fünf Café", "fünf Café", nil},
		{"NFD letter", "fu\u0308nf", "fünf", []Run{{1, 3, 1, 4}}},
		{"two NFD letters", "Ja\u0308n. O\u0308l", "Jän. Öl", []Run{{1, 3, 1, 4}, {6, 8, 7, 10}}},
		{"marks reordered", "q\u0307\u0323.", "q\u0323\u0307.", []Run{{0, 5, 0, 5}}},
		{"marks reordered on a digit", "5\u0301\u0323", "5\u0323\u0301", []Run{{0, 5, 0, 5}}},
		{"Hangul jamo", "\u1100\u1161\u11a8!", "\uac01!", []Run{{0, 3, 0, 9}}},
		{"letter then its run", "e\u0301\u0301", "\u00e9\u0301", []Run{{0, 4, 0, 5}}},
		// Characters NFC replaces are kept as written, with the marks after
		// them: the Greek question mark, the ångström sign, an exclusion.
		{"Greek question mark", "Τι\u037E", "Τι\u037E", nil},
		{"ångström sign", "\u212B 5", "\u212B 5", nil},
		{"ångström sign with a mark", "\u212B\u0301", "\u212B\u0301", nil},
		{"exclusion", "\u095D", "\u095D", nil},
		{"exclusion before NFD", "\u095B A\u030A", "\u095B \u00c5", []Run{{4, 6, 4, 7}}},
		{"decomposed nukta is NFC", "\u091c\u093c", "\u091c\u093c", nil},
		{"mark alone", "\u0301x", "\u0301x", nil},
		{"line break parts", "e\n\u0301", "e\n\u0301", nil},
		// A byte that is not UTF-8 is kept and composes with nothing.
		{"invalid byte", "a\xffe\u0301", "a\xff\u00e9", []Run{{2, 4, 2, 5}}},
		{"invalid byte before a mark", "\xff\u0301e\u0301", "\xff\u0301\u00e9", []Run{{3, 5, 3, 6}}},
		{"truncated rune", "e\u0301\xcc", "\u00e9\xcc", []Run{{0, 2, 0, 3}}},
	} {
		read, runs := Read(tc.in)
		if read != tc.read || !slices.Equal(runs, tc.runs) {
			t.Errorf("%s: Read(%+q) = %+q, %v; want %+q, %v", tc.name, tc.in, read, runs, tc.read, tc.runs)
			continue
		}
		if runs == nil && read != tc.in {
			t.Errorf("%s: Read(%+q) changed the text with no runs", tc.name, tc.in)
		}
		checkMap(t, tc.in, read, runs)
	}
}

// TestFloorCeil maps every read-form offset of one text back by hand:
// outside the runs shifted, inside them to the run's start (Floor) or end
// (Ceil).
func TestFloorCeil(t *testing.T) {
	in := "a\u0308b 5\u0301\u0323c"
	read, runs := Read(in)
	if read != "\u00e4b 5\u0323\u0301c" || len(runs) != 2 {
		t.Fatalf("Read(%+q) = %+q, %v", in, read, runs)
	}
	// read: ä 0-2, b 2, ' ' 3, 5 4, U+0323 5-7, U+0301 7-9, c 9, end 10.
	// in:   a 0, U+0308 1-3, b 3, ' ' 4, 5 5, U+0301 6-8, U+0323 8-10, c 10, end 11.
	for _, tc := range []struct{ x, floor, floorRead, ceil, ceilRead int }{
		{0, 0, 0, 0, 0},
		{1, 0, 0, 3, 2},
		{2, 3, 2, 3, 2},
		{3, 4, 3, 4, 3},
		{4, 5, 4, 5, 4},
		{5, 5, 4, 10, 9},
		{7, 5, 4, 10, 9},
		{9, 10, 9, 10, 9},
		{10, 11, 10, 11, 10},
	} {
		f, fr := Floor(runs, tc.x)
		c, cr := Ceil(runs, tc.x)
		if f != tc.floor || fr != tc.floorRead || c != tc.ceil || cr != tc.ceilRead {
			t.Errorf("x=%d: Floor = %d, %d; Ceil = %d, %d; want %d, %d; %d, %d",
				tc.x, f, fr, c, cr, tc.floor, tc.floorRead, tc.ceil, tc.ceilRead)
		}
	}
	// With no runs both are the identity.
	for x := range 5 {
		if f, fr := Floor(nil, x); f != x || fr != x {
			t.Errorf("Floor(nil, %d) = %d, %d", x, f, fr)
		}
		if c, cr := Ceil(nil, x); c != x || cr != x {
			t.Errorf("Ceil(nil, %d) = %d, %d", x, c, cr)
		}
	}
}

func TestReplaced(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"", false},
		{"abc", false},
		{"e\u0301", false},
		{"\u00e9", false},
		{"\xff", false},
		{"\u037E", true},
		{"x\u212B", true},
		{"\u095D\u093c", true},
		{"\u0344", true}, // a non-starter that NFC decomposes
	} {
		if got := Replaced(tc.s); got != tc.want {
			t.Errorf("Replaced(%+q) = %v; want %v", tc.s, got, tc.want)
		}
	}
}

// checkMap checks runs as a map from read to in: the runs are in order and
// lie on rune boundaries of both; outside them read and in are the same
// bytes; each run of in reads as its NFC; Floor and Ceil take every rune
// boundary of read to a rune boundary of in, in order, and to where the
// text after them is the same.
func checkMap(t *testing.T, in, read string, runs []Run) {
	t.Helper()
	inB, readB := boundaries(in), boundaries(read)
	ri, ii := 0, 0
	for _, r := range runs {
		if r.ReadStart < ri || r.ReadEnd <= r.ReadStart || r.InEnd <= r.InStart ||
			!inB[r.InStart] || !inB[r.InEnd] || !readB[r.ReadStart] || !readB[r.ReadEnd] {
			t.Fatalf("Read(%+q): run %v out of order or not on rune boundaries", in, r)
		}
		if read[ri:r.ReadStart] != in[ii:r.InStart] {
			t.Fatalf("Read(%+q): read[%d:%d] = %+q but in[%d:%d] = %+q", in, ri, r.ReadStart, read[ri:r.ReadStart], ii, r.InStart, in[ii:r.InStart])
		}
		if got, want := read[r.ReadStart:r.ReadEnd], norm.NFC.String(in[r.InStart:r.InEnd]); got != want {
			t.Fatalf("Read(%+q): run %v reads %+q; NFC is %+q", in, r, got, want)
		}
		ri, ii = r.ReadEnd, r.InEnd
	}
	if read[ri:] != in[ii:] {
		t.Fatalf("Read(%+q): read[%d:] = %+q but in[%d:] = %+q", in, ri, read[ri:], ii, in[ii:])
	}
	lastF, lastC := 0, 0
	for x := 0; x <= len(read); x++ {
		if !readB[x] {
			continue
		}
		f, fr := Floor(runs, x)
		c, cr := Ceil(runs, x)
		if !inB[f] || !inB[c] || f > c || f < lastF || c < lastC {
			t.Fatalf("Read(%+q): x=%d maps to %d, %d: not rune boundaries of the input, or out of order", in, x, f, c)
		}
		if fr > x || cr < x || !readB[fr] || !readB[cr] {
			t.Fatalf("Read(%+q): x=%d stands for read offsets %d, %d", in, x, fr, cr)
		}
		// The read text from fr (from cr) is the input's from f (from c)
		// read again. Inside a composing run that Read kept as written
		// (it holds a character NFC replaces, "0\u0341\u0301\u0323"),
		// the marks after x read alone are no longer such a run and come
		// in canonical order: the same text, canonically equivalent.
		same := func(i int, a, b string) bool {
			return a == b || (midRun(in, i) && norm.NFC.String(a) == norm.NFC.String(b))
		}
		if r, _ := Read(in[f:]); !same(f, r, read[fr:]) {
			t.Fatalf("Read(%+q): Floor(%d) = %d, %d: read[%d:] = %+q but in[%d:] reads %+q", in, x, f, fr, fr, read[fr:], f, r)
		}
		if r, _ := Read(in[c:]); !same(c, r, read[cr:]) {
			t.Fatalf("Read(%+q): Ceil(%d) = %d, %d: read[%d:] = %+q but in[%d:] reads %+q", in, x, c, cr, cr, read[cr:], c, r)
		}
		lastF, lastC = f, c
	}
}

// midRun reports whether byte i of s is inside a composing run: the rune
// there is valid UTF-8 and NFC may combine it with the rune before it.
func midRun(s string, i int) bool {
	if i == 0 || i >= len(s) || !utf8.FullRuneInString(s[i:]) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError {
		return false
	}
	return !norm.NFC.PropertiesString(s[i:]).BoundaryBefore()
}

// boundaries marks the rune boundaries of s, a byte that is not UTF-8
// being a rune of its own, the end of s included.
func boundaries(s string) []bool {
	b := make([]bool, len(s)+1)
	for i := 0; i < len(s); i += runeLen(s[i:]) {
		b[i] = true
	}
	b[len(s)] = true
	return b
}

// FuzzRead: the runs map the read form back to the input exactly, every
// rune boundary of the read form maps to a rune boundary of the input, the
// read form is NFC(input) when no character is kept as written, and it is
// its own read form.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"", "plain", "fu\u0308nf", "5\u0301\u0323", "\u095b\u093c", "A\u030a\u212b",
		"\u1100\u1161\u11a8x", "\u0b47\u0300\u0b3e", "e\n\u0301", "a\xffe\u0301", "\u037E\u0301e\u0301", "e\u0301\xcc",
		// Exclusions, singletons, non-starter decompositions, compatibility
		// ideographs, marks after a space, Hangul LV + T, ZWJ, FEFF, a
		// variation selector, full width forms.
		"\u0958\u09dc\u0a33\ufb1d", "\u2126\u037e\u0340", "a\u0344\u0323 \u0f73", "\uf900\U0002f800",
		" \u0301\u0323x", "\uac00\u11a8\u1100\u1161", "a\u200d\u0301\ufeff\u0301", "\u845b\U000e0100\u0301", "\uff76\uff9e\u30ab\u3099",
		// A singleton among marks: kept as written, while the marks
		// after it, read alone, are put in canonical order.
		"000000\u0341\u0301\u0323"} {
		f.Add(s)
	}
	f.Fuzz(checkRead)
}

// checkRead checks FuzzRead's invariants on s: runs exactly when the text
// changed, the map (checkMap), the read form is NFC(s) when s holds no
// character NFC replaces, and it is its own read form.
func checkRead(t *testing.T, s string) {
	t.Helper()
	read, runs := Read(s)
	if (runs == nil) != (read == s) {
		t.Fatalf("Read(%+q) = %+q with %d runs", s, read, len(runs))
	}
	checkMap(t, s, read, runs)
	if !utf8.ValidString(s) {
		return
	}
	if !Replaced(s) && read != norm.NFC.String(s) {
		t.Fatalf("Read(%+q) = %+q; NFC is %+q", s, read, norm.NFC.String(s))
	}
	if r2, runs2 := Read(read); r2 != read || runs2 != nil {
		t.Fatalf("Read(%+q) = %+q; read again %+q", s, read, r2)
	}
}

// unicodePool holds the pieces TestUnicodeRead strings together beside
// nfctest.Special (the characters NFC treats specially): letters, a digit,
// white space, a line break and stray bytes that are not UTF-8.
var unicodePool = []string{"a", "e", "A", "O", "u", "5", " ", "\n", "\xff", "\xcc"}

// TestUnicodeRead checks checkRead on seeded random strings of the
// characters NFC treats specially (nfctest.Special) and unicodePool, which put marks, stray
// bytes and replaced characters next to each other far more often than the
// fuzzer does.
func TestUnicodeRead(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for it := 0; it < 3000; it++ {
		s := nfctest.Text(r, 12, unicodePool, nfctest.Special)
		checkRead(t, s)
		if t.Failed() {
			t.Fatalf("case %d: %+q", it, s)
		}
	}
}
