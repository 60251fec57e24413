package normalize

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a token.
type tokKind uint8

const (
	tSpace tokKind = iota // a run of white space
	tWord                 // a run of letters and marks (not Han)
	tNum                  // a run of ASCII digits
	tHan                  // one Han ideograph
	tSym                  // any other single rune (punctuation, symbols)
)

// token is a piece of the input: bytes [start, end) of the segment.
type token struct {
	start, end int32
	kind       tokKind
}

// stream is the tokenized view of one segment that matchers read.
type stream struct {
	src  string
	toks []token
	// Built lazily by index: lower-cased word tokens, the sequence of all
	// words (wseq, with the token index after each in wend), each token's
	// position in it (wpos, -1 for non-words) and where each word's run of
	// single-space-separated words ends (wrunEnd).
	lower   []string
	wseq    []string
	wend    []int
	wpos    []int32
	wrunEnd []int32
	// The entries spokenWords (numparse.go) returns views of, built once
	// per stream for lexicon swLex: every word token split into the
	// lexicon's entries, in token order (swWs, with the token index after
	// each entry's word in swEnds and whether the entry ends its word in
	// swWhole); for each token its first entry (swFirst) and where the run
	// of joined words starting at it ends (swRunEnd); for each entry where
	// its word's entries end (swTokEnd).
	swLex    *numLex
	swWs     []string
	swEnds   []int
	swWhole  []bool
	swFirst  []int32
	swRunEnd []int32
	swTokEnd []int32
	// indexed reports whether lower, wseq, wend, wpos and wrunEnd are
	// built.
	indexed bool
	// memo caches a grammar's parse at a token for the other matchers
	// that ask for it (lang_zh.go's zhParse).
	memo map[memoKey]any
	// firstOpen caches, per quote rune, the byte offset of its first
	// opening occurrence in src (-1: none), for openedBefore.
	firstOpen map[rune]int
}

// memoKey names a cached parse: the parser and the token index.
type memoKey struct {
	parser string
	i      int
}

func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }

// reset makes s the stream of src, keeping the capacity of its token and
// index buffers for the next segment (run reads a text line by line). The
// views of them handed out for the previous segment are dead.
func (s *stream) reset(src string) {
	*s = stream{
		src: src, toks: tokenizeInto(s.toks[:0], src),
		lower: s.lower[:0], wseq: s.wseq[:0], wend: s.wend[:0], wpos: s.wpos[:0], wrunEnd: s.wrunEnd[:0],
		swWs: s.swWs[:0], swEnds: s.swEnds[:0], swWhole: s.swWhole[:0],
		swFirst: s.swFirst[:0], swRunEnd: s.swRunEnd[:0], swTokEnd: s.swTokEnd[:0],
		memo: s.memo, firstOpen: s.firstOpen,
	}
	clear(s.memo)
	clear(s.firstOpen)
}

// zeroed returns b resized to n zero elements, reusing its array when it
// is large enough.
func zeroed[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	b = b[:n]
	clear(b)
	return b
}

func tokenize(src string) []token {
	return tokenizeInto(make([]token, 0, len(src)/2+8), src)
}

// tokenizeInto appends the tokens of src to toks.
func tokenizeInto(toks []token, src string) []token {
	i := 0
	for i < len(src) {
		r, n := rune(src[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(src[i:])
		}
		start := i
		var k tokKind
		switch {
		case r >= '0' && r <= '9':
			k = tNum
			for i < len(src) && src[i] >= '0' && src[i] <= '9' {
				i++
			}
		case unicode.IsSpace(r):
			k = tSpace
			for i < len(src) {
				r2, n2 := utf8.DecodeRuneInString(src[i:])
				if !unicode.IsSpace(r2) {
					break
				}
				i += n2
			}
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'),
			r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsMark(r)) && !isHan(r):
			k = tWord
			for i < len(src) {
				c := src[i]
				if c < utf8.RuneSelf {
					if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
						i++
						continue
					}
					break
				}
				r2, n2 := utf8.DecodeRuneInString(src[i:])
				if !(unicode.IsLetter(r2) || unicode.IsMark(r2)) || isHan(r2) {
					break
				}
				i += n2
			}
		case isHan(r):
			k = tHan
			i += n
		default:
			k = tSym
			i += n
		}
		toks = append(toks, token{kind: k, start: int32(start), end: int32(i)})
	}
	return toks
}

// Helpers for matchers. All are safe for any index.

func (s *stream) n() int { return len(s.toks) }

func (s *stream) kind(i int) tokKind {
	if i < 0 || i >= len(s.toks) {
		return tSpace
	}
	return s.toks[i].kind
}

func (s *stream) text(i int) string {
	if i < 0 || i >= len(s.toks) {
		return ""
	}
	return s.src[s.toks[i].start:s.toks[i].end]
}

// is reports whether token i is exactly t.
func (s *stream) is(i int, t string) bool { return s.text(i) == t }

// span returns the source text of tokens [i, j).
func (s *stream) span(i, j int) string {
	if i >= j || i < 0 || j > len(s.toks) {
		return ""
	}
	return s.src[s.toks[i].start:s.toks[j-1].end]
}

// skipSpace returns the first index ≥ i that is not a space token.
func (s *stream) skipSpace(i int) int {
	for i < len(s.toks) && s.toks[i].kind == tSpace {
		i++
	}
	return i
}

// boundary reports whether a token-level match may end before token i: at the
// end, before a space, or before punctuation.
func (s *stream) boundary(i int) bool {
	k := s.kind(i)
	return i >= len(s.toks) || k == tSpace || k == tSym || k == tHan
}

// startOK reports whether a match may begin at token i (the previous token is
// not a letter or digit run glued to it).
func (s *stream) startOK(i int) bool {
	k := s.kind(i - 1)
	return i == 0 || k == tSpace || k == tSym || k == tHan
}

// lowerAt returns the lower-cased text of token i ("" for non-words).
func (s *stream) lowerAt(i int) string {
	s.index()
	return s.lower[i]
}

// index builds, once per stream, the lower-cased words and the runs of words
// separated by single spaces that words() returns views of.
func (s *stream) index() {
	if s.indexed {
		return
	}
	s.indexed = true
	s.lower = zeroed(s.lower, len(s.toks))
	s.wpos = zeroed(s.wpos, len(s.toks))
	s.wseq = slices.Grow(s.wseq[:0], len(s.toks)/2)
	s.wend = slices.Grow(s.wend[:0], len(s.toks)/2)
	runStart := 0
	for k, t := range s.toks {
		s.wpos[k] = -1
		if t.kind != tWord {
			continue
		}
		s.lower[k] = strings.ToLower(s.src[t.start:t.end])
		joined := k >= 2 && s.toks[k-1].kind == tSpace && s.toks[k-1].end-s.toks[k-1].start == 1 && s.src[s.toks[k-1].start] == ' ' && s.toks[k-2].kind == tWord
		if !joined {
			runStart = len(s.wseq)
		}
		_ = runStart
		s.wpos[k] = int32(len(s.wseq))
		s.wseq = append(s.wseq, s.lower[k])
		s.wend = append(s.wend, k+1)
	}
	// run end for every word position
	s.wrunEnd = zeroed(s.wrunEnd, len(s.wseq))
	end := len(s.wseq)
	for p := len(s.wseq) - 1; p >= 0; p-- {
		s.wrunEnd[p] = int32(end)
		k := s.wend[p] - 1 // token of word p
		joined := k >= 2 && s.toks[k-1].kind == tSpace && s.toks[k-1].end-s.toks[k-1].start == 1 && s.src[s.toks[k-1].start] == ' ' && s.toks[k-2].kind == tWord
		if !joined {
			end = p
		}
	}
}

// words returns the lower-cased word tokens starting at i, separated by single
// spaces, up to max words; idx[k] is the token index after word k. The
// slices are views shared between calls and must not be modified.
func (s *stream) words(i, max int) (ws []string, idx []int) {
	if i < 0 || i >= len(s.toks) || s.toks[i].kind != tWord {
		return nil, nil
	}
	s.index()
	p := int(s.wpos[i])
	e := min(int(s.wrunEnd[p]), p+max)
	return s.wseq[p:e:e], s.wend[p:e:e]
}

// maxScan bounds how many tokens one matcher may look ahead, so that no input
// (a 256 KiB run of "1-1-1-…" or "a.a.a.…") makes matching quadratic.
const maxScan = 64

// chosen is a span picked by the segmenter, with its readings best first.
type chosen struct {
	start, end int
	source     string
	readings   []reading
}

// segmentSpans runs the matchers of r over src (a segment starting at byte
// offset base of the whole input) and appends the picked spans to out.
//
// s is scratch space: segmentSpans makes it the stream of src, reusing its
// token buffer (run calls it once per line).
func segmentSpans(ctx context.Context, s *stream, src string, base int, r *rules, p *plan, out []chosen) ([]chosen, error) {
	ms := r.matchers(p.mode)
	bits, fns := ms.bits, ms.fns
	s.reset(src)
	for i := 0; i < len(s.toks); {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return out, fmt.Errorf("normalize: %w", err)
			}
		}
		if s.toks[i].kind == tSpace {
			i++
			continue
		}
		best := -1
		var reads []reading
		for k, fn := range fns {
			if p.allow&bits[k] == 0 {
				continue
			}
			for _, m := range fn(s, i) {
				if m.end <= i || m.end > len(s.toks) || len(m.readings) == 0 {
					continue
				}
				switch {
				case m.end > best:
					best, reads = m.end, append(reads[:0], m.readings...)
				case m.end == best:
					reads = append(reads, m.readings...)
				}
			}
		}
		if best < 0 {
			i++
			continue
		}
		// Trim trailing spaces off the span; matchers should not end on them.
		for best > i+1 && s.toks[best-1].kind == tSpace {
			best--
		}
		slices.SortStableFunc(reads, func(a, b reading) int { return cmp.Compare(a.cost, b.cost) })
		src0 := s.span(i, best)
		reads = dedupe(reads, src0)
		if len(reads) > 0 {
			start, end := int(s.toks[i].start), int(s.toks[best-1].end)
			if p.mode == TN && p.separate(r) {
				// Closing punctuation glued to a letter after the span
				// joins it, so that a space can follow ("1!hello" →
				// "one! hello").
				if e := closingRun(s, best); e > best && s.kind(e) == tWord {
					suffix := s.span(best, e)
					best, end = e, int(s.toks[e-1].end)
					src0 = s.span(i, best)
					for k := range reads {
						reads[k].text += suffix + " "
					}
				} else if q := s.text(best); s.kind(best+1) == tWord && len(q) == 1 && isQuote(rune(q[0])) &&
					!(s.is(best+1, "s") && s.kind(best+2) != tWord && s.kind(best+2) != tNum) && !s.openedBefore(start, rune(q[0])) {
					// So is a stray quote glued to a word: "3'sss" → "three
					// ' sss".
					best, end = best+1, int(s.toks[best].end)
					src0 = s.span(i, best)
					for k := range reads {
						reads[k].text += " " + q + " "
					}
				}
				reads = padSeparate(s, start, end, reads)
			} else {
				reads = pad(src, start, end, reads)
			}
			out = append(out, chosen{start: base + start, end: base + end, source: src0, readings: reads})
		}
		i = best
	}
	return out, nil
}

// dedupe drops readings equal to an earlier reading, and a first reading
// equal to the source (the span changes nothing). A later reading equal to
// the source stays as the alternative "as written" ("death-cup" beside
// "death cup"); build leaves such a span out of the alternative's Spans.
func dedupe(rs []reading, source string) []reading {
	out := rs[:0]
	for _, r := range rs {
		if r.text == source && len(out) == 0 || slices.ContainsFunc(out, func(o reading) bool { return o.text == r.text }) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// spanEdges returns the runes just before and after src[start:end] and its
// first and last rune (utf8.RuneError where there is none).
func spanEdges(src string, start, end int) (before, after, first, last rune) {
	before, _ = utf8.DecodeLastRuneInString(src[:start])
	after, _ = utf8.DecodeRuneInString(src[end:])
	first, _ = utf8.DecodeRuneInString(src[start:end])
	last, _ = utf8.DecodeLastRuneInString(src[start:end])
	return before, after, first, last
}

// pad adds a space to a reading that would otherwise glue onto a letter or
// digit right before or after the span ("4.4x" → "four point four x"), or
// follow "!", "?", ";" or a backtick with no space ("NO?17" → "NO?
// seventeen", "!1" → "! one").
func pad(src string, start, end int, rs []reading) []reading {
	before, after, first, last := spanEdges(src, start, end)
	// A span of Han text was already glued to its neighbours in writing.
	glueB := start > 0 && isGlueRune(before) && !isHan(first)
	glueA := end < len(src) && isGlueRune(after) && !isHan(last)
	if !glueB && !glueA {
		return rs
	}
	for k := range rs {
		t := rs[k].text
		if t == "" {
			continue
		}
		f, _ := utf8.DecodeRuneInString(t)
		l, _ := utf8.DecodeLastRuneInString(t)
		if glueB && isWordRune(f) && !isHan(f) && !isHan(before) {
			t = " " + t
		}
		if glueA && isWordRune(l) && !isHan(l) && !isHan(after) {
			t += " "
		}
		rs[k].text = t
	}
	return rs
}

// closingPunct lists punctuation that attaches to the text before it.
const closingPunct = ".,;:!?)]}>"

// closingRun returns the token index after the run of closing punctuation
// starting at token j (j itself when there is none).
func closingRun(s *stream, j int) int {
	e := j
	for e < s.n() && s.kind(e) == tSym && strings.Contains(closingPunct, s.text(e)) {
		e++
	}
	return e
}

// padSeparate is pad for SpacingSeparate: besides letters and digits, any
// punctuation next to the span is set off by a space, except closing
// punctuation after it, an opening bracket before it, a quote that pairs
// with another across the span and an "'s" suffix.
func padSeparate(s *stream, start, end int, rs []reading) []reading {
	src := s.src
	before, after, first, last := spanEdges(src, start, end)
	glueB := start > 0 && !unicode.IsSpace(before) && !strings.ContainsRune("([{<", before) &&
		!isHan(first) && !isHan(before)
	if glueB && isQuote(before) && strings.ContainsRune(src[end:], before) {
		glueB = false // an opening quote: `"12text"`
	}
	glueA := end < len(src) && !unicode.IsSpace(after) && !strings.ContainsRune(closingPunct, after) &&
		!isHan(last) && !isHan(after)
	if glueA && isQuote(after) {
		rest := src[end+utf8.RuneLen(after):]
		possessive := strings.HasPrefix(rest, "s") && (len(rest) == 1 || !isWordRune(firstRune(rest[1:])))
		if possessive || s.openedBefore(start, after) {
			glueA = false
		}
	}
	// A hyphen or slash joining the span to more text is part of a
	// compound or serial ("133-ABC", "31/31/100", "covid-19").
	joinB := false
	if glueB && isJoiner(before) {
		b2, _ := utf8.DecodeLastRuneInString(src[:start-utf8.RuneLen(before)])
		joinB = !(start == utf8.RuneLen(before) || unicode.IsSpace(b2))
	}
	if glueA && isJoiner(after) {
		a2, _ := utf8.DecodeRuneInString(src[end+utf8.RuneLen(after):])
		glueA = end+utf8.RuneLen(after) == len(src) || unicode.IsSpace(a2)
	}
	if !glueB && !glueA {
		return rs
	}
	for k := range rs {
		t := rs[k].text
		if t == "" {
			continue
		}
		f, _ := utf8.DecodeRuneInString(t)
		l, _ := utf8.DecodeLastRuneInString(t)
		// Serials join integers; a decimal stays apart ("covid-19" →
		// "covid-nineteen", "covid-19.5" → "covid- nineteen point five").
		if glueB && (!joinB || rs[k].class == Decimal) && isWordRune(f) && !isHan(f) {
			t = " " + t
		}
		if glueA && isWordRune(l) && !isHan(l) {
			t += " "
		}
		rs[k].text = t
	}
	return rs
}

// isJoiner reports whether r joins parts of compounds and serials.
func isJoiner(r rune) bool { return r == '-' || r == '/' || r == '–' || r == '—' }

// isQuote reports whether r is a quotation mark or apostrophe.
func isQuote(r rune) bool { return strings.ContainsRune("\"'`“”‘’«»", r) }

// openedBefore reports whether the source before start (a rune boundary)
// has the quote q at an opening position: at the start or after a space or
// an opening bracket. The first opening q of the whole source is found
// once, and the text before start holds one exactly when that one begins
// before start; scanning the text before every span made quote-heavy input
// quadratic.
func (s *stream) openedBefore(start int, q rune) bool {
	p, ok := s.firstOpen[q]
	if !ok {
		p = firstOpening(s.src, q)
		if s.firstOpen == nil {
			s.firstOpen = map[rune]int{}
		}
		s.firstOpen[q] = p
	}
	return p >= 0 && p < start
}

// firstOpening returns the byte offset of the first q in text at an
// opening position (as openedBefore defines it), or -1.
func firstOpening(text string, q rune) int {
	prev := ' '
	for k, r := range text {
		if r == q && (unicode.IsSpace(prev) || strings.ContainsRune("([{<", prev)) {
			return k
		}
		prev = r
	}
	return -1
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isGlueRune reports whether a reading next to r needs a separating space:
// letters, digits and symbols such as + or $ glue, punctuation does not.
func isGlueRune(r rune) bool {
	return isWordRune(r) || unicode.In(r, unicode.Sm, unicode.Sc) || r == '#' || r == '@' || r == '&'
}

// run normalizes text under p and builds the ranked alternatives.
func run(ctx context.Context, text string, p *plan) ([]Alternative, error) {
	orig := text
	if p.variant != nil && p.variant.read != nil {
		text = p.variant.read(text)
	}
	var spans []chosen
	s := &stream{toks: make([]token, 0, min(len(text)/2+8, 4096))}
	// Each line, without the white space around it, is read as if it were
	// the whole input (lines).
	err := lines(text, func(start, end int) error {
		var err error
		line := text[start:end]
		if !p.und {
			spans, err = segmentSpans(ctx, s, line, start, p.rules, p, spans)
			return err
		}
		for _, seg := range segmentUnd(line) {
			if spans, err = segmentSpans(ctx, s, line[seg.start:seg.end], start+seg.start, seg.rules, p, spans); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Different picks can splice to the same text ("00 00": "zero zero"
	// + "zero" or "zero" + "zero zero"), so ask for spare combinations and
	// keep the first of each text.
	want := p.topK
	if want > 1 {
		want *= 3
	}
	combos := kbest(spans, want)
	alts := make([]Alternative, 0, min(len(combos), p.topK))
	seen := make(map[string]bool, len(combos))
	for _, pick := range combos {
		if len(alts) == p.topK {
			break
		}
		a := build(text, spans, pick, len(alts))
		if seen[a.Text] {
			continue
		}
		seen[a.Text] = true
		alts = append(alts, a)
	}
	if p.variant != nil {
		p.variant.respell(alts, orig, text)
	}
	return alts, nil
}

// build splices the picked readings into text.
func build(text string, spans []chosen, pick map[int]int, rank int) Alternative {
	var b strings.Builder
	b.Grow(len(text) + len(text)/4)
	out := make([]Span, 0, len(spans))
	prev := 0
	for k, c := range spans {
		rd := c.readings[pick[k]]
		if rd.text == c.source {
			continue // kept as written
		}
		b.WriteString(text[prev:c.start])
		t := rd.text
		// Two adjacent conversions that each set themselves off by a
		// space ("3*4" → "three" + " times ") share one.
		if b.Len() > 0 && strings.HasPrefix(t, " ") && b.String()[b.Len()-1] == ' ' {
			t = t[1:]
		}
		b.WriteString(t)
		prev = c.end
		out = append(out, Span{StartByte: c.start, EndByte: c.end, Class: rd.class, Source: c.source, Output: t})
	}
	b.WriteString(text[prev:])
	return Alternative{Rank: rank, Text: b.String(), Spans: out}
}

// kbest returns up to k choices of one reading per span, by ascending total
// cost; each choice maps span index → reading index (absent = 0). Only the k
// smallest single-span deltas can take part in the k best combinations, so
// the search enumerates subsets of those deltas in order of their sum.
func kbest(spans []chosen, k int) []map[int]int {
	type delta struct {
		span, read int
		cost       float64
	}
	var ds []delta
	for si, c := range spans {
		for ri := 1; ri < len(c.readings); ri++ {
			d := c.readings[ri].cost - c.readings[0].cost
			if d < 0 {
				d = 0
			}
			ds = append(ds, delta{si, ri, d})
		}
	}
	slices.SortStableFunc(ds, func(a, b delta) int {
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		}
		return 0
	})
	if len(ds) > k {
		ds = ds[:k]
	}
	out := []map[int]int{{}}
	if len(ds) == 0 || k <= 1 {
		return out
	}
	// Subset enumeration in order of sum: a state is a sorted index list;
	// children extend it by the next index or move its last index forward.
	h := &subsetHeap{}
	heap.Push(h, subset{idx: []int{0}, cost: ds[0].cost})
	for steps := 0; h.Len() > 0 && len(out) < k && steps < 1<<14; steps++ {
		st := heap.Pop(h).(subset)
		last := st.idx[len(st.idx)-1]
		if last+1 < len(ds) {
			ext := append(slices.Clone(st.idx), last+1)
			heap.Push(h, subset{idx: ext, cost: st.cost + ds[last+1].cost})
			mv := slices.Clone(st.idx)
			mv[len(mv)-1] = last + 1
			heap.Push(h, subset{idx: mv, cost: st.cost - ds[last].cost + ds[last+1].cost})
		}
		pick := map[int]int{}
		ok := true
		for _, x := range st.idx {
			d := ds[x]
			if _, dup := pick[d.span]; dup {
				ok = false
				break
			}
			pick[d.span] = d.read
		}
		if ok {
			out = append(out, pick)
		}
	}
	return out
}

type subset struct {
	idx  []int
	cost float64
}

type subsetHeap []subset

func (h subsetHeap) Len() int { return len(h) }
func (h subsetHeap) Less(i, j int) bool {
	if h[i].cost != h[j].cost {
		return h[i].cost < h[j].cost
	}
	if len(h[i].idx) != len(h[j].idx) {
		return len(h[i].idx) < len(h[j].idx)
	}
	return slices.Compare(h[i].idx, h[j].idx) < 0
}
func (h subsetHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *subsetHeap) Push(x any)   { *h = append(*h, x.(subset)) }
func (h *subsetHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
