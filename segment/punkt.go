package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// learnAbbreviations finds abbreviations the built-in lists miss, with
// Punkt-style evidence from the document itself: a word of at most four
// letters that is followed by a lower-case word at least twice and in most
// of its occurrences with a final period, and never occurs without the
// period, is taken to be an abbreviation. The
// result is keyed by the lower-case word without its period.
func learnAbbreviations(s string, known map[string]abbrevKind) map[string]bool {
	type stat struct{ dotted, dottedLower, bare int }
	var stats map[string]*stat
	// Pass 1: short words before a period that is followed by a space.
	for i := 0; ; {
		k := strings.IndexByte(s[i:], '.')
		if k < 0 {
			break
		}
		i += k + 1
		if r, _ := runeAt(s, i); i < len(s) && !isSpace(r) {
			continue
		}
		if p, _ := runeBefore(s, i-1); p == '.' {
			continue
		}
		w := prevToken(s, i-1)
		if w == "" || len(w) > 16 || runeLen(w) > 4 || !allLetters(w) {
			continue
		}
		w = strings.ToLower(w)
		if _, ok := known[w]; ok {
			continue
		}
		if stats == nil {
			stats = map[string]*stat{}
		}
		st := stats[w]
		if st == nil {
			st = &stat{}
			stats[w] = st
		}
		st.dotted++
		j := i
		for j < len(s) {
			r, n := runeAt(s, j)
			if !isSpace(r) && !isOpener(r) {
				if unicode.IsLower(r) {
					st.dottedLower++
				}
				break
			}
			j += n
		}
	}
	// Only the words that passed pass 1 need counting in pass 2; a table
	// of their first bytes (lower case ASCII) skips most lookups.
	var cands map[string]*stat
	var first [256]bool
	for w, st := range stats {
		if st.dottedLower >= 2 && 2*st.dottedLower > st.dotted {
			if cands == nil {
				cands = map[string]*stat{}
			}
			cands[w] = st
			first[w[0]] = true
		}
	}
	if cands == nil {
		return nil
	}
	// Pass 2: the candidates must never occur without the period.
	for i := 0; i < len(s); {
		r, n := runeAt(s, i)
		if !unicode.IsLetter(r) {
			i += n
			continue
		}
		j, count, upper := i, 0, false
		for j < len(s) {
			r, n := runeAt(s, j)
			if !unicode.IsLetter(r) {
				break
			}
			upper = upper || unicode.IsUpper(r)
			j += n
			count++
		}
		if c := s[i]; count <= 4 && (c >= utf8.RuneSelf || first[c|0x20]) {
			p, _ := runeBefore(s, i)
			if (j >= len(s) || s[j] != '.') && p != '.' && p != '-' {
				w := s[i:j]
				if upper {
					w = strings.ToLower(w)
				}
				if st, ok := cands[w]; ok {
					st.bare++
				}
			}
		}
		i = j
	}
	var out map[string]bool
	for w, st := range cands {
		if st.bare == 0 {
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
