// Package nfc reads text in Unicode NFC without losing the text as it was
// sent: Read gives the NFC form, one composing run (a character and the
// marks that follow it) at a time, with the runs it changed, and Floor and
// Ceil map byte offsets of that form back to the input. The text-processing
// packages (normalize, segment) decide on the read form, whose tables are
// written in composed text, and report ranges of the input.
//
// A run holding a character that NFC replaces by another character or
// sequence is kept as written: singletons such as the ångström sign U+212B
// and the Greek question mark U+037E, composition exclusions such as
// Devanagari U+095D. The callers' tables and test suites know those
// characters as such.
package nfc

import (
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Run is one run of the input that reading in NFC changed: read-form bytes
// [ReadStart, ReadEnd) stand for input bytes [InStart, InEnd). Outside the
// runs the read form and the input are byte for byte the same, shifted.
type Run struct{ ReadStart, ReadEnd, InStart, InEnd int }

// Read returns text read in NFC, a composing run at a time, and the runs it
// changed, in order. Runs holding a character NFC replaces (see Replaced)
// are kept as written; a byte that is not UTF-8 is kept and composes with
// nothing. Text already in that form is returned as it is, with no runs and
// no copy.
func Read(text string) (string, []Run) {
	q := norm.NFC.QuickSpanString(text)
	if q == len(text) {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	var runs []Run
	for i := 0; ; {
		// text[i:i+q] is normal and ends at a boundary; the run after it
		// ends before the next rune that starts a new one.
		b.WriteString(text[i : i+q])
		if i += q; i == len(text) {
			break
		}
		j := i + runeLen(text[i:])
		for j < len(text) && !norm.NFC.PropertiesString(text[j:]).BoundaryBefore() {
			j += runeLen(text[j:])
		}
		run := text[i:j]
		if c := norm.NFC.String(run); c != run && !Replaced(run) {
			runs = append(runs, Run{ReadStart: b.Len(), ReadEnd: b.Len() + len(c), InStart: i, InEnd: j})
			b.WriteString(c)
		} else {
			b.WriteString(run)
		}
		i = j
		q = norm.NFC.QuickSpanString(text[i:])
	}
	if len(runs) == 0 {
		return text, nil
	}
	return b.String(), runs
}

// runeLen is the byte length of the first rune of s, 1 for a byte that is
// not UTF-8; s is not empty.
func runeLen(s string) int {
	if s[0] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s)
	return n
}

// Replaced reports whether s holds a character whose NFC is another
// character or sequence on its own (a composition exclusion, a singleton or
// a non-starter decomposition). Read keeps the runs holding one as written.
func Replaced(s string) bool {
	for _, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		var buf [utf8.UTFMax]byte
		if !norm.NFC.IsNormal(buf[:utf8.EncodeRune(buf[:], r)]) {
			return true
		}
	}
	return false
}

// Floor maps byte offset x of the read form, the start of a range, to the
// input (runs as Read returned them). An offset strictly inside a changed
// run goes to the run's input start, so that the range keeps the whole run;
// read is the read-form offset the result stands for: the run's start there,
// x elsewhere.
func Floor(runs []Run, x int) (in, read int) {
	k, inside := locate(runs, x)
	if inside {
		return runs[k].InStart, runs[k].ReadStart
	}
	return shift(runs, k, x), x
}

// Ceil maps byte offset x of the read form, the end of a range, to the
// input. An offset strictly inside a changed run goes to the run's input
// end, so that ranges that meet at x still meet and keep every byte; read is
// the read-form offset the result stands for: the run's end there, x
// elsewhere.
func Ceil(runs []Run, x int) (in, read int) {
	k, inside := locate(runs, x)
	if inside {
		return runs[k].InEnd, runs[k].ReadEnd
	}
	return shift(runs, k, x), x
}

// locate returns the first run that ends after x and whether x is strictly
// inside it.
func locate(runs []Run, x int) (k int, inside bool) {
	k = sort.Search(len(runs), func(k int) bool { return runs[k].ReadEnd > x })
	return k, k < len(runs) && runs[k].ReadStart < x
}

// shift maps x, outside the runs and before runs[k], across the runs before
// it.
func shift(runs []Run, k, x int) int {
	if k == 0 {
		return x
	}
	p := runs[k-1]
	return p.InEnd + x - p.ReadEnd
}
