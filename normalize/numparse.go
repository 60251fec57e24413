package normalize

import (
	"math/big"
)

// A language-independent parser for spoken numbers, driven by a lexicon.
// German, Spanish and French ITN use it; English has its own in
// lang_en_itn.go.

type lexKind uint8

const (
	kUnit       lexKind = iota + 1 // 0-9
	kTeen                          // 10-19
	kTens                          // 20, 30, ... 90
	kHundreds                      // a whole hundreds word: "doscientos" (200), "cien" (100)
	kHundredMul                    // "hundert", "cent": multiplies what precedes by 100
	kThousand                      // "tausend", "mil", "mille"
	kBig                           // million and up; value in exp (power of ten)
	kAnd                           // "und", "y", "et"
)

type lexEntry struct {
	kind lexKind
	val  int // value for units..hundreds; power of ten for kBig
}

// numLex is one language's number vocabulary.
type numLex struct {
	words map[string]lexEntry
	// reversed: units precede tens with a connector ("drei und zwanzig").
	reversed bool
	// vigesimal: French "quatre-vingt", "soixante-dix".
	vigesimal bool
	// compound: words may be written joined ("einhundertzwei") and are
	// split into lexicon entries.
	compound bool

	// maxKey is the longest lexicon key, for compound splitting.
	maxKey int
}

func newLex(words map[string]lexEntry) *numLex {
	l := &numLex{words: words}
	for k := range words {
		l.maxKey = max(l.maxKey, len(k))
	}
	return l
}

// split divides a joined word into lexicon entries by greedy longest match
// with backtracking; ok is false when it cannot be divided entirely.
func (l *numLex) split(w string) ([]string, bool) {
	if _, ok := l.words[w]; ok {
		return []string{w}, true
	}
	if !l.compound || len(w) > 80 {
		return nil, false
	}
	var rec func(s string, depth int) []string
	rec = func(s string, depth int) []string {
		if s == "" {
			return []string{}
		}
		if depth > 12 {
			return nil
		}
		for n := min(len(s), l.maxKey); n >= 2; n-- {
			if _, ok := l.words[s[:n]]; ok {
				if rest := rec(s[n:], depth+1); rest != nil {
					return append([]string{s[:n]}, rest...)
				}
			}
		}
		return nil
	}
	parts := rec(w, 0)
	return parts, parts != nil
}

// spokenNum is the result of parsing spoken number words.
type spokenNum struct {
	val     *big.Int
	used    int  // entries consumed
	neg     bool // a minus word preceded
	words   int  // number of number entries (excluding connectors)
	bigTail int  // power of ten of a trailing big scale word with nothing after it ("120 millionen"), else 0
	tailMul int  // the value before that trailing big scale
	small   bool // a single entry below ten
}

// parse reads entries from ws (already split). It stops at the first entry
// that cannot continue the number.
func (l *numLex) parse(ws []string) (spokenNum, bool) {
	var r spokenNum
	if len(ws) == 0 {
		return r, false
	} else if _, ok := l.words[ws[0]]; !ok {
		return r, false // most words: no number starts here
	}
	acc := new(big.Int)
	cur, grp := 0, 0
	var last lexKind
	lastVal := 0
	prevUnit := 0 // de: unit waiting for "und zwanzig"
	lastBig := 1 << 30
	groupAnd := 0 // index of a connector after a thousand or big scale
	used := 0
	n := 0
	for k := 0; k < len(ws); k++ {
		e, ok := l.words[ws[k]]
		if !ok {
			break
		}
		switch e.kind {
		case kAnd:
			// A connector must be followed by a number word that can continue.
			if k+1 >= len(ws) {
				goto done
			}
			nx, ok := l.words[ws[k+1]]
			if !ok || nx.kind == kAnd {
				goto done
			}
			if l.reversed && last == kUnit && nx.kind == kTens {
				last = kAnd
				continue
			}
			if !l.reversed && (last == kTens || last == kHundreds || last == kHundredMul || last == kThousand || last == kBig || last == kTeen && l.vigesimal) && (nx.kind == kUnit || nx.kind == kTeen) {
				if last == kThousand || last == kBig {
					groupAnd = k
				}
				last = kAnd
				continue
			}
			// Portuguese joins groups too: "mil e vinte", "um milhão e cem".
			if !l.reversed && (last == kHundreds || last == kThousand || last == kBig) && (nx.kind == kTens || nx.kind == kHundreds && last != kHundreds || nx.kind == kThousand && last == kBig) {
				last = kAnd
				continue
			}
			goto done
		case kUnit:
			if last == kUnit || last == kTeen && !(l.vigesimal && lastVal == 10 && e.val >= 7) || last == kTens && grp%10 != 0 {
				goto done
			}
			if e.val == 0 && (last != 0 || k+1 < len(ws) && l.words[ws[k+1]].kind != 0) {
				if n == 0 {
					grp, used, n = 0, k+1, 1
				}
				goto done
			}
			grp += e.val
			prevUnit = e.val
		case kTeen:
			if last == kUnit || last == kTeen || last == kTens && !(l.vigesimal && (grp%100 == 60 || grp%100 == 80)) {
				goto done
			}
			grp += e.val
		case kTens:
			switch {
			case last == kAnd && l.reversed:
				// "drei und zwanzig": the unit is already in grp.
			case l.vigesimal && e.val == 20 && last == kUnit && prevUnit == 4:
				grp += 80 - 4 - 20
			case last == kUnit || last == kTeen || last == kTens:
				goto done
			}
			grp += e.val
		case kHundreds:
			if grp != 0 {
				goto done
			}
			grp = e.val
		case kHundredMul:
			switch {
			case grp == 0:
				grp = 100
			case grp < 100 && last != kHundredMul:
				grp *= 100
			default:
				goto done
			}
		case kThousand:
			if cur != 0 || last == kThousand {
				goto done
			}
			if grp == 0 {
				grp = 1
			}
			cur, grp = grp*1000, 0
		case kBig:
			if e.val >= lastBig {
				goto done
			}
			m := cur + grp
			if m == 0 {
				m = 1
			}
			t := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e.val)), nil)
			acc.Add(acc, t.Mul(t, big.NewInt(int64(m))))
			r.bigTail, r.tailMul = e.val, m
			cur, grp, lastBig = 0, 0, e.val
		}
		if e.kind != kBig {
			r.bigTail = 0
		}
		last, lastVal = e.kind, e.val
		used = k + 1
		n++
	}
done:
	// "dieciséis mil y dieciocho mil": a connector after a thousand or a
	// big scale that runs into another scale word joins two numbers, not
	// one; stop before it.
	if groupAnd > 0 && used < len(ws) && used > groupAnd {
		if nx, ok := l.words[ws[used]]; ok && (nx.kind == kThousand || nx.kind == kBig) {
			return l.parse(ws[:groupAnd])
		}
	}
	if used == 0 {
		return r, false
	}
	// Drop a trailing connector.
	for used > 0 && l.words[ws[used-1]].kind == kAnd {
		used--
	}
	acc.Add(acc, big.NewInt(int64(cur+grp)))
	r.val, r.used, r.words = acc, used, n
	if r.bigTail != 0 && !acc.IsInt64() || r.bigTail != 0 {
		// bigTail is only meaningful when nothing but the tail group was said.
		t := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(r.bigTail)), nil)
		t.Mul(t, big.NewInt(int64(r.tailMul)))
		if t.Cmp(acc) != 0 {
			r.bigTail = 0
		}
	}
	r.small = n == 1 && acc.IsInt64() && acc.Int64() < 10 && r.bigTail == 0
	return r, true
}

// spokenWords collects the words at token i for ITN: word tokens separated
// by single spaces or hyphens, lower-cased and split into lexicon entries.
// ends[k] is the token index after the word that entry k belongs to, and
// whole[k] is true when entry k is the last of its word.
func spokenWords(s *stream, i int, l *numLex, max int) (ws []string, ends []int, whole []bool) {
	ws, ends, whole = spokenWordsN(s, i, l, 60)
	n := min(max, len(ws))
	return ws[:n:n], ends[:n:n], whole[:n:n]
}

// spokenWordsN returns the entries of the run of joined words starting at
// token i (nil when it is no word): whole words, while fewer than max
// entries are taken. The slices are views of the stream's entries, shared
// between calls; callers must not modify them.
func spokenWordsN(s *stream, i int, l *numLex, max int) (ws []string, ends []int, whole []bool) {
	if s.kind(i) != tWord || i < 0 || max <= 0 {
		return nil, nil, nil
	}
	if s.swLex != l {
		s.spokenIndex(l)
	}
	start, end := int(s.swFirst[i]), int(s.swRunEnd[i])
	if end-start > max {
		// stop after the word holding entry max-1
		end = int(s.swTokEnd[start+max-1])
	}
	return s.swWs[start:end], s.swEnds[start:end], s.swWhole[start:end]
}

// spokenIndex builds the stream's spokenWords entries for lexicon l: each
// word token lower-cased and split into l's entries (kept whole when it
// cannot be split), and the runs of words joined by one space or a
// hyphen.
func (s *stream) spokenIndex(l *numLex) {
	n := len(s.toks)
	s.swLex = l
	s.swWs, s.swEnds, s.swWhole = s.swWs[:0], s.swEnds[:0], s.swWhole[:0]
	s.swTokEnd = s.swTokEnd[:0]
	s.swFirst = zeroed(s.swFirst, n)
	s.swRunEnd = zeroed(s.swRunEnd, n)
	for j := range n {
		if s.toks[j].kind != tWord {
			continue
		}
		w := s.lowerAt(j)
		parts, ok := l.split(w)
		if !ok {
			parts = []string{w}
		}
		s.swFirst[j] = int32(len(s.swWs))
		for p, x := range parts {
			s.swWs = append(s.swWs, x)
			s.swEnds = append(s.swEnds, j+1)
			s.swWhole = append(s.swWhole, p == len(parts)-1)
		}
		for range parts {
			s.swTokEnd = append(s.swTokEnd, int32(len(s.swWs)))
		}
	}
	for j := n - 1; j >= 0; j-- {
		if s.toks[j].kind != tWord {
			continue
		}
		if (s.kind(j+1) == tSpace && s.text(j+1) == " " || s.is(j+1, "-")) && s.kind(j+2) == tWord {
			s.swRunEnd[j] = s.swRunEnd[j+2]
		} else {
			s.swRunEnd[j] = s.swTokEnd[s.swFirst[j]]
		}
	}
}

// wholeWords shortens n entries so that they end on a word boundary.
func wholeWords(n int, whole []bool) int {
	for n > 0 && !whole[n-1] {
		n--
	}
	return n
}
