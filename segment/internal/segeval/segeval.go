// Package segeval scores sentence splits against reference splits, the
// way the upstream suites compare them; the segment package's suite test
// and the segbench report share it.
package segeval

import (
	"strings"
	"unicode"
)

// Norm collapses white-space runs to one space and removes the white space
// between CJK characters, as the upstream tests strip sentences.
func Norm(s string) string {
	f := strings.Fields(s)
	var b strings.Builder
	for i, w := range f {
		if i > 0 {
			p := []rune(f[i-1])
			q := []rune(w)
			if !(isCJK(p[len(p)-1]) && isCJK(q[0])) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(w)
	}
	return b.String()
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// Equal reports whether two splits have the same sentences after [Norm].
func Equal(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if Norm(got[i]) != Norm(want[i]) {
			return false
		}
	}
	return true
}

// Ends returns the set of sentence end offsets, counted in non-space runes,
// excluding the end of the text.
func Ends(ss []string) map[int]bool {
	m := map[int]bool{}
	n := 0
	for i, s := range ss {
		for _, r := range s {
			if !unicode.IsSpace(r) {
				n++
			}
		}
		if i < len(ss)-1 {
			m[n] = true
		}
	}
	return m
}

// BoundaryCounts compares the sentence ends of got with those of want:
// true positives, false positives and false negatives.
func BoundaryCounts(got, want []string) (tp, fp, fn int) {
	g, w := Ends(got), Ends(want)
	for k := range g {
		if w[k] {
			tp++
		} else {
			fp++
		}
	}
	for k := range w {
		if !g[k] {
			fn++
		}
	}
	return tp, fp, fn
}
