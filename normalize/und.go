package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// undSegment is a stretch of the input handled by one language's rules.
type undSegment struct {
	start, end int
	rules      *rules
}

// segmentUnd splits text by script (Han vs. everything else), then splits the
// non-Han stretches at sentence ends and picks, for each, the Latin-script
// language whose score function rates it highest (English on a tie). Digits,
// spaces and punctuation join the segment before them. Adjacent segments
// with the same language are merged.
func segmentUnd(text string) []undSegment {
	var han *rules
	for _, tag := range Languages() {
		if registry[tag].script == "Hani" {
			han = registry[tag]
			break
		}
	}
	def := registry["en"]
	type run struct {
		start, end int
		han        bool
	}
	var runs []run
	cur := -1 // -1 unknown, 0 latin/other, 1 han
	start := 0
	for i, r := range text {
		var c int
		switch {
		case isHan(r):
			c = 1
		case unicode.IsLetter(r):
			c = 0
		default:
			continue
		}
		if cur == -1 {
			cur = c
			continue
		}
		if c != cur {
			// Neutral characters since the last letter stay with the
			// previous run, except digits directly before a Han
			// character, which belong to the Han run ("2024年").
			cut := i
			for cut > start {
				r2, n := utf8.DecodeLastRuneInString(text[:cut])
				if c == 1 && (unicode.IsDigit(r2) || r2 == '.') {
					cut -= n
					continue
				}
				break
			}
			runs = append(runs, run{start, cut, cur == 1})
			start, cur = cut, c
		}
	}
	runs = append(runs, run{start, len(text), cur == 1})
	var segs []undSegment
	add := func(s, e int, r *rules) {
		if r == nil {
			r = def
		}
		if n := len(segs); n > 0 && segs[n-1].rules == r && segs[n-1].end == s {
			segs[n-1].end = e
			return
		}
		segs = append(segs, undSegment{s, e, r})
	}
	for _, ru := range runs {
		if ru.han && han != nil {
			add(ru.start, ru.end, han)
			continue
		}
		for _, sen := range sentences(text, ru.start, ru.end) {
			add(sen[0], sen[1], pickLatin(text[sen[0]:sen[1]], def))
		}
	}
	return segs
}

// sentences splits text[start:end] after ". ", "! ", "? " and newlines.
func sentences(text string, start, end int) [][2]int {
	var out [][2]int
	s := start
	for i := start; i < end; i++ {
		c := text[i]
		if (c == '.' || c == '!' || c == '?' || c == '\n') && i+1 < end && (text[i+1] == ' ' || text[i+1] == '\n') {
			out = append(out, [2]int{s, i + 1})
			s = i + 1
		}
	}
	return append(out, [2]int{s, end})
}

// diacriticHints are letters that point to one Latin-script language.
var diacriticHints = map[rune]string{'ß': "de", 'ä': "de", 'ö': "de", 'ü': "de", 'ñ': "es", '¿': "es", '¡': "es",
	'í': "es", 'ó': "es", 'ú': "es", 'á': "es", 'ç': "fr", 'è': "fr", 'ê': "fr", 'à': "fr", 'ë': "fr", 'î': "fr",
	'ô': "fr", 'û': "fr", 'œ': "fr", 'ù': "fr", 'ã': "pt", 'õ': "pt"}

func pickLatin(seg string, def *rules) *rules {
	low := strings.ToLower(seg)
	words := strings.FieldsFunc(low, func(r rune) bool { return !unicode.IsLetter(r) })
	hints := map[string]int{}
	for _, r := range low {
		if tag, ok := diacriticHints[r]; ok {
			hints[tag]++
		}
	}
	score := func(r *rules) int {
		if r == nil || r.score == nil {
			return 0
		}
		return 2*r.score(words) + hints[r.tag]
	}
	best, bestScore := def, score(def)
	for _, tag := range Languages() {
		r := registry[tag]
		if r == def || r.score == nil {
			continue
		}
		if sc := score(r); sc > bestScore {
			best, bestScore = r, sc
		}
	}
	return best
}

// stopScore counts the words that are in set.
func stopScore(set map[string]bool) func([]string) int {
	return func(ws []string) int {
		n := 0
		for _, w := range ws {
			if set[w] {
				n++
			}
		}
		return n
	}
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
