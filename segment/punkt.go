package segment

import (
	"strings"
	"unicode"
)

// learnAbbreviations finds abbreviations the built-in lists miss, with
// Punkt-style evidence from the document itself: a short word that occurs
// at least twice with a final period, at least once followed by a lower-case
// word, and never without the period, is taken to be an abbreviation. The
// result is keyed by the lower-case word without its period.
func learnAbbreviations(s string, known map[string]abbrevKind) map[string]bool {
	type stat struct{ dotted, dottedLower, bare int }
	var stats map[string]*stat
	get := func(w string) *stat {
		if stats == nil {
			stats = map[string]*stat{}
		}
		st := stats[w]
		if st == nil {
			st = &stat{}
			stats[w] = st
		}
		return st
	}
	fields := strings.Fields(s)
	for k, f := range fields {
		f = strings.TrimLeftFunc(f, isOpener)
		dotted := strings.HasSuffix(f, ".") && !strings.HasSuffix(f, "..")
		w := strings.ToLower(strings.TrimRight(f, ".,;:!?\"')]}»”’"))
		if w == "" || runeLen(w) > 5 || !allLetters(w) {
			continue
		}
		if _, ok := known[w]; ok {
			continue
		}
		st := get(w)
		if !dotted {
			st.bare++
			continue
		}
		st.dotted++
		if k+1 < len(fields) {
			r, _ := runeAt(strings.TrimLeftFunc(fields[k+1], isOpener), 0)
			if unicode.IsLower(r) {
				st.dottedLower++
			}
		}
	}
	var out map[string]bool
	for w, st := range stats {
		if st.dotted >= 2 && st.dottedLower >= 1 && st.bare == 0 {
			if out == nil {
				out = map[string]bool{}
			}
			out[w] = true
		}
	}
	return out
}

func allLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}
