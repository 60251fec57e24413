package segment

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/nfc"
	"golang.org/x/text/unicode/norm"
)

// Timed input: the text of the input segments is joined into one buffer and
// segmented like plain text, with two more kinds of evidence: a change of
// speaker between input segments is a certain boundary, and a pause between
// words raises the score of a boundary there (or makes one). Every byte of
// the buffer belongs to a token with a start and an end time, taken from the
// input's words when given and otherwise interpolated by characters over the
// input segment.

// token is a timed span of the buffer.
type token struct {
	a, b       int     // byte range in the buffer
	start, end float64 // seconds
	seg        int     // index of the input segment
	word       int     // index into timeline.words, or -1 for an interpolated span
}

type timeline struct {
	buf     string
	toks    []token
	words   []Word
	speaker []string // per input segment
	joins   []boundary
	joinAt  map[int]bool // byte offsets where a new speaker starts
}

// Cues re-segments timed input into sentences, or into cues when
// opts.Length is set, keeping times: from the input's words where given,
// otherwise interpolated by characters within each input segment. A change
// of speaker is always a boundary and a pause between words is evidence for
// one. With opts.Margins, each output cue is padded without overlapping its
// neighbours or leaving [0, media end]. With opts.ParagraphThreshold, each
// cue is a paragraph: a change of speaker always starts one, a long pause
// (over a second) is evidence for one, and lexical cohesion covers the rest
// (the HTTP endpoint accepts paragraph mode only for text, as the spec says). Invalid input returns a 400-kind [*sotto.Error] whose Param
// names the field ("segments[3].end"); cancellation returns ctx.Err().
// The text is read in Unicode NFC, as [Text] reads it: sentence boundaries
// are found there, opts.Length counts its characters (a letter and its
// marks once, so decomposed input gives the cues composed input gives) and
// times are interpolated by them; the cues' texts are the input's as sent.
// Cues does not modify in; it is safe for concurrent use.
func Cues(ctx context.Context, in []Cue, opts Options) ([]Cue, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.ParagraphThreshold != nil && opts.Length != nil {
		return nil, sotto.Invalid("bad_request", "max_chars", "length constraints apply to sentences and cues, not to paragraph mode")
	}
	if err := validateCues(in); err != nil {
		return nil, err
	}
	tl := buildTimeline(in)
	if strings.TrimSpace(tl.buf) == "" {
		return []Cue{}, nil
	}
	// Every decision, max_chars included, is made on the buffer read in
	// NFC, as [Text] makes them; the cues' texts are the input's bytes as
	// sent (sent[at(a):at(b)]).
	sent := tl.buf
	read, runs := readNFC(sent)
	at, atStart := func(x int) int { return x }, func(x int) int { return x }
	if runs != nil {
		tl.toRead(read, runs)
		at = func(x int) int { return fromRead(runs, x) }
		atStart = func(x int) int { return startFromRead(sent, read, runs, x) }
	}
	cands, err := sentenceBoundaries(ctx, read, baseLang(opts.Language))
	if err != nil {
		return nil, err
	}
	if runs != nil {
		snapToRuns(read, cands, runs)
	}
	cands = tl.addEvidence(cands)
	th := opts.threshold()
	kept := keep(cands, th)
	units := spans(tl.buf, kept)
	if opts.ParagraphThreshold != nil {
		units = spans(tl.buf, keep(tl.paragraphBoundaries(kept), *opts.ParagraphThreshold))
	}
	if opts.Length != nil {
		units, err = cueSpans(ctx, tl.buf, units, cands, *opts.Length, tl.hint)
		if err != nil {
			return nil, err
		}
	}
	out := make([]Cue, 0, len(units))
	wk := 0 // tokens before wk start before the current unit
	for _, u := range units {
		text := clean(sent[atStart(u[0]):at(u[1])])
		if text == "" {
			continue
		}
		c := Cue{Text: text, Start: tl.timeAt(u[0], true), End: tl.timeAt(u[1], false)}
		if k := tl.tokenAt(u[0]); k >= 0 {
			c.Speaker = tl.speaker[tl.toks[k].seg]
		}
		for wk < len(tl.toks) && tl.toks[wk].a < u[0] {
			wk++
		}
		for ; wk < len(tl.toks) && tl.toks[wk].a < u[1]; wk++ {
			if t := tl.toks[wk]; t.word >= 0 {
				c.Words = append(c.Words, tl.words[t.word])
			}
		}
		if c.End < c.Start {
			c.End = c.Start
		}
		if n := len(out); n > 0 && c.Start < out[n-1].Start {
			c.Start = out[n-1].Start
			c.End = max(c.End, c.Start)
		}
		out = append(out, c)
	}
	if m := opts.Margins; m != nil {
		mediaEnd := opts.MediaEnd
		if mediaEnd == 0 {
			for _, c := range in {
				mediaEnd = max(mediaEnd, c.End)
			}
		}
		pad(out, *m, mediaEnd)
	}
	for i := range out {
		// Interpolation leaves float noise (3.5599999999999996); a
		// microsecond is far below any timing the input can carry.
		out[i].Start = math.Round(out[i].Start*1e6) / 1e6
		out[i].End = math.Round(out[i].End*1e6) / 1e6
	}
	return out, nil
}

// Words segments a stream of timed words, such as a forced alignment's, into
// sentence cues with the same machinery as [Cues]: words may carry their
// punctuation ("Hello," "world."); they are joined with spaces (none between
// CJK characters). All cues have speaker "". When the words were aligned
// to a transcript and lost its punctuation, pass the transcript instead:
// Cues(ctx, []Cue{{Text: transcript, Start: s, End: e, Words: words}}, opts)
// finds each word in the text and segments with its punctuation.
func Words(ctx context.Context, words []Word, opts Options) ([]Cue, error) {
	if len(words) == 0 {
		return []Cue{}, nil
	}
	c := Cue{Start: words[0].Start, End: words[len(words)-1].End, Words: words}
	for _, w := range words {
		c.Start = min(c.Start, w.Start)
		c.End = max(c.End, w.End)
	}
	c.Text = joinWords(words)
	return Cues(ctx, []Cue{c}, opts)
}

// maxSeconds bounds the times of cues and words: about 116 days, past any
// recording, and small enough that the sums of times the layout computes
// (midpoints, margins) stay finite (1e308 + 1e308 is +Inf, which made the
// result impossible to write as JSON).
const maxSeconds = 1e7

// validateCues checks times: finite, from 0 to maxSeconds, start <= end.
func validateCues(in []Cue) error {
	bad := func(x float64) bool { return !(x >= 0 && x <= maxSeconds) }
	for i, c := range in {
		if bad(c.Start) {
			return sotto.Invalid("bad_request", param(i, "start"), "start %v must be a number of seconds from 0 to %g", c.Start, float64(maxSeconds))
		}
		if bad(c.End) || c.End < c.Start {
			return sotto.Invalid("bad_request", param(i, "end"), "end %v must be a number of seconds not before start %v", c.End, c.Start)
		}
		for j, w := range c.Words {
			if bad(w.Start) || bad(w.End) || w.End < w.Start {
				return sotto.Invalid("bad_request", param(i, "words")+"["+itoa(j)+"]", "word %q has invalid times [%v, %v]", w.Word, w.Start, w.End)
			}
		}
	}
	return nil
}

func param(i int, field string) string { return "segments[" + itoa(i) + "]." + field }

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	k := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		k--
		b[k] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		k--
		b[k] = '-'
	}
	return string(b[k:])
}

// joinWords joins word texts with spaces, leaving none between two CJK
// characters.
func joinWords(ws []Word) string {
	var b strings.Builder
	for i, w := range ws {
		t := strings.TrimSpace(w.Word)
		if t == "" {
			continue
		}
		if i > 0 && b.Len() > 0 {
			p, _ := runeBefore(b.String(), b.Len())
			q, _ := runeAt(t, 0)
			if !(isCJK(p) && isCJK(q)) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(t)
	}
	return b.String()
}

// buildTimeline joins the input segments into one buffer with timed tokens.
func buildTimeline(in []Cue) *timeline {
	order := make([]int, len(in))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return in[order[a]].Start < in[order[b]].Start })
	tl := &timeline{}
	var b strings.Builder
	type field struct{ a, b, from, to int } // a field of a segment without words: its bytes and characters
	var fields []field
	prevSeg := -1
	for _, i := range order {
		c := in[i]
		text := strings.TrimSpace(c.Text)
		var ws []Word
		if len(c.Words) > 0 {
			ws = c.Words
			if text == "" {
				text = joinWords(ws)
			}
		}
		if text == "" {
			continue
		}
		seg := len(tl.speaker)
		tl.speaker = append(tl.speaker, c.Speaker)
		joinEnd := b.Len()
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		base := b.Len()
		spans, ok := alignWords(text, ws)
		if !ok {
			text = joinWords(ws)
			spans, _ = alignWords(text, ws)
		}
		b.WriteString(text)
		if prevSeg >= 0 && tl.speaker[prevSeg] != c.Speaker {
			tl.joins = append(tl.joins, boundary{end: joinEnd, next: base, score: certain})
		}
		prevSeg = seg
		if len(ws) > 0 {
			for k, w := range ws {
				tl.toks = append(tl.toks, token{a: base + spans[k][0], b: base + spans[k][1], start: w.Start, end: w.End, seg: seg, word: len(tl.words)})
				tl.words = append(tl.words, w)
			}
			continue
		}
		// Interpolate each whitespace-separated field by its offset in
		// characters of the read form (NFC), as max_chars counts them.
		fields = fields[:0]
		chars := 0
		for i := 0; i < len(text); {
			r, n := runeAt(text, i)
			if isSpace(r) {
				i += n
				chars++
				continue
			}
			j := i
			for j < len(text) {
				r2, n2 := runeAt(text, j)
				if isSpace(r2) {
					break
				}
				j += n2
			}
			fields = append(fields, field{a: i, b: j, from: chars, to: chars + readLen(text[i:j])})
			chars = fields[len(fields)-1].to
			i = j
		}
		at := func(k int) float64 { return c.Start + (c.End-c.Start)*float64(k)/float64(chars) }
		for _, f := range fields {
			tl.toks = append(tl.toks, token{a: base + f.a, b: base + f.b, start: at(f.from), end: at(f.to), seg: seg, word: -1})
		}
	}
	tl.buf = b.String()
	tl.joinAt = make(map[int]bool, len(tl.joins))
	for _, j := range tl.joins {
		tl.joinAt[j.next] = true
	}
	slices.SortStableFunc(tl.toks, func(x, y token) int { return x.a - y.a })
	return tl
}

// toRead moves the timeline's byte offsets from the buffer as sent to its
// read form read (runs as readNFC returned them), which becomes the buffer:
// a token or a join keeps the whole of a changed run it starts or ends in.
func (tl *timeline) toRead(read string, runs []nfc.Run) {
	for k := range tl.toks {
		t := &tl.toks[k]
		t.a, t.b = readOffset(runs, t.a, false), readOffset(runs, t.b, true)
	}
	for k := range tl.joins {
		j := &tl.joins[k]
		j.end, j.next = readOffset(runs, j.end, false), readOffset(runs, j.next, false)
	}
	tl.joinAt = make(map[int]bool, len(tl.joins))
	for _, j := range tl.joins {
		tl.joinAt[j.next] = true
	}
	tl.buf = read
}

// alignWords finds each word of ws in text, in order, comparing letters,
// digits and marks only (case-folded), each character by its canonical
// decomposition, so that a word written composed ("é") is found in text
// written decomposed ("e" + U+0301) and the other way round, as is a Hangul
// syllable in its jamo. It returns the byte span of each word; a word
// without letters, digits or marks gets an empty span at the current
// position. It reports false when a word cannot be found where expected,
// or ends inside a character of text (the word "Cafe" is not the text
// "Café").
func alignWords(text string, ws []Word) ([][2]int, bool) {
	spans := make([][2]int, len(ws))
	i := 0          // byte offset of the text character being matched
	var pend []rune // what is left of that character's decomposition
	var word []rune
	// next returns the next letter, digit or mark of text's decomposition
	// at or after i, the offset of the character it belongs to and that
	// character's end; it consumes nothing.
	next := func() (rune, int, int) {
		if len(pend) > 0 {
			_, n := runeAt(text, i)
			return unicode.ToLower(pend[0]), i, i + n
		}
		for k := i; k < len(text); {
			r, n := runeAt(text, k)
			if isWordRune(r) {
				i, pend = k, decompose(r, pend[:0])
				return unicode.ToLower(pend[0]), k, k + n
			}
			k += n
		}
		i = len(text)
		return 0, len(text), len(text)
	}
	for k, w := range ws {
		first, last := -1, -1
		word = word[:0]
		for _, r := range w.Word {
			if isWordRune(r) {
				word = decompose(r, word)
			}
		}
		for _, r := range word {
			got, at, end := next()
			if end == at || got != unicode.ToLower(r) {
				return nil, false
			}
			if first < 0 {
				first = at
			}
			if pend = pend[1:]; len(pend) == 0 {
				i, last = end, end
			}
		}
		if first < 0 {
			spans[k] = [2]int{i, i}
			continue
		}
		if len(pend) > 0 {
			return nil, false
		}
		if last < len(text) {
			if r, _ := runeAt(text, last); unicode.IsMark(r) {
				return nil, false // "Cafe" against "Cafe" + U+0301
			}
		}
		// Take trailing punctuation into the word's span.
		for last < len(text) {
			r, n := runeAt(text, last)
			if isSpace(r) || isWordRune(r) {
				break
			}
			last += n
		}
		spans[k] = [2]int{first, last}
		i = last
	}
	return spans, true
}

// decompose appends the canonical decomposition of r to dst.
func decompose(r rune, dst []rune) []rune {
	var b [utf8.UTFMax]byte
	n := utf8.EncodeRune(b[:], r)
	if norm.NFD.QuickSpan(b[:n]) == n {
		return append(dst, r)
	}
	for _, d := range norm.NFD.String(string(b[:n])) {
		dst = append(dst, d)
	}
	return dst
}

// tokenAt returns the index of the token containing byte off, or of the
// first token after it, or -1.
func (tl *timeline) tokenAt(off int) int {
	k := sort.Search(len(tl.toks), func(k int) bool { return tl.toks[k].b > off })
	if k == len(tl.toks) {
		return -1
	}
	return k
}

// timeAt returns the time of byte offset off: the start of the unit that
// begins there (isStart) or the end of the unit that ends there.
func (tl *timeline) timeAt(off int, isStart bool) float64 {
	if len(tl.toks) == 0 {
		return 0
	}
	k := sort.Search(len(tl.toks), func(k int) bool { return tl.toks[k].b > off })
	if !isStart {
		// The last token starting before off.
		k = sort.Search(len(tl.toks), func(k int) bool { return tl.toks[k].a >= off }) - 1
		if k < 0 {
			return tl.toks[0].start
		}
		t := tl.toks[k]
		if off >= t.b || t.b == t.a {
			return t.end
		}
		return t.start + (t.end-t.start)*float64(runeLen(tl.buf[t.a:off]))/float64(runeLen(tl.buf[t.a:t.b]))
	}
	if k == len(tl.toks) {
		return tl.toks[len(tl.toks)-1].end
	}
	t := tl.toks[k]
	if off <= t.a || t.b == t.a {
		return t.start
	}
	return t.start + (t.end-t.start)*float64(runeLen(tl.buf[t.a:off]))/float64(runeLen(tl.buf[t.a:t.b]))
}

// paragraphBoundaries scores the kept sentence boundaries of timed text as
// paragraph boundaries: a change of speaker is certain, a long pause is
// strong evidence, and lexical cohesion (TextTiling) covers the rest.
func (tl *timeline) paragraphBoundaries(kept []boundary) []boundary {
	depth := cohesionDepth(tl.buf, spans(tl.buf, kept))
	out := make([]boundary, len(kept))
	for k, b := range kept {
		b.score = 0
		if k < len(depth) {
			b.score = 0.9 * depth[k]
		}
		if tl.joinAt[b.next] {
			b.score = certain
		} else if j := tl.tokenStarting(b.next); j > 0 {
			p, q := tl.toks[j-1], tl.toks[j]
			if p.word >= 0 || q.word >= 0 || p.seg != q.seg {
				b.score = max(b.score, clamp01(min(0.95, (q.start-p.end-1)/3)))
			}
		}
		out[k] = b
	}
	return out
}

// pauseScore turns a silence between words, in seconds, into boundary
// evidence in [0, 0.9].
func pauseScore(gap float64) float64 {
	return clamp01(min(0.9, (gap-0.3)/2))
}

// addEvidence merges speaker changes and pauses into the text's candidate
// boundaries.
func (tl *timeline) addEvidence(cands []boundary) []boundary {
	// A pause is keyed by where the text after it starts: the first
	// character after the white space, which may be punctuation before the
	// word's letters ("¿Qué", "(so"); the word's span starts at its
	// letters, and a boundary there would drop that punctuation.
	type pause struct {
		end   int
		score float64
	}
	pauses := map[int]pause{} // start of the text after the pause -> its end and score
	var order []int
	for k := 1; k < len(tl.toks); k++ {
		p, q := tl.toks[k-1], tl.toks[k]
		if p.word < 0 && q.word < 0 && p.seg == q.seg {
			continue // interpolated times carry no pause information
		}
		if s := pauseScore(q.start - p.end); s > 0 && q.a > p.b {
			next := tl.textStart(p.b, q.a)
			if _, ok := pauses[next]; !ok {
				order = append(order, next)
			}
			pauses[next] = pause{end: p.b, score: s}
		}
	}
	seen := map[int]bool{}
	for i := range cands {
		c := &cands[i]
		if ps, ok := pauses[c.next]; ok {
			c.score = 1 - (1-c.score)*(1-ps.score)
			seen[c.next] = true
		}
	}
	for _, next := range order {
		if ps := pauses[next]; !seen[next] {
			cands = append(cands, boundary{end: ps.end, next: next, score: 0.8 * ps.score})
		}
	}
	cands = append(cands, tl.joins...)
	slices.SortFunc(cands, func(a, b boundary) int { return a.next - b.next })
	out := cands[:0]
	for _, c := range cands {
		if n := len(out); n > 0 && out[n-1].next == c.next {
			out[n-1].score = max(out[n-1].score, c.score)
			out[n-1].end = min(out[n-1].end, c.end)
			continue
		}
		out = append(out, c)
	}
	return out
}

// textStart returns the first offset in [from, to) of the buffer that is
// not white space, or to.
func (tl *timeline) textStart(from, to int) int {
	for from < to {
		r, n := runeAt(tl.buf, from)
		if !isSpace(r) {
			return from
		}
		from += n
	}
	return to
}

// tokenStarting returns the index of the token whose text starts at next:
// the token starting there, or the first one after next when only
// punctuation, no white space, lies between (the token's span starts at its
// letters). It returns -1 for none.
func (tl *timeline) tokenStarting(next int) int {
	k := tl.tokenAt(next)
	if k < 0 || tl.toks[k].a < next || tl.textStart(next, tl.toks[k].a) != next {
		return -1
	}
	if strings.IndexFunc(tl.buf[next:tl.toks[k].a], isSpace) >= 0 {
		return -1
	}
	return k
}

// hint reports the pause evidence for a split between end and next, and
// certain for a change of speaker.
func (tl *timeline) hint(end, next int) (float64, bool) {
	if tl.joinAt[next] {
		return certain, true
	}
	k := tl.tokenStarting(next)
	if k <= 0 {
		return 0, false
	}
	p, q := tl.toks[k-1], tl.toks[k]
	if p.word < 0 && q.word < 0 {
		return 0, false
	}
	return pauseScore(q.start - p.end), true
}

// pad applies margins to cs in place, never overlapping a neighbour (the
// silence between two cues is shared in proportion to the margins) and
// staying within [0, mediaEnd]. Cues whose input times already overlap keep
// their original times at that junction.
func pad(cs []Cue, m Margins, mediaEnd float64) {
	orig := make([][2]float64, len(cs))
	for i, c := range cs {
		orig[i] = [2]float64{c.Start, c.End}
	}
	for i := range cs {
		cs[i].Start = max(0, orig[i][0]-m.Start)
		cs[i].End = orig[i][1] + m.End
		if mediaEnd > 0 {
			cs[i].End = min(cs[i].End, max(mediaEnd, orig[i][1]))
		}
	}
	for i := 1; i < len(cs); i++ {
		prevEnd, curStart := orig[i-1][1], orig[i][0]
		if cs[i-1].End <= cs[i].Start {
			continue
		}
		if prevEnd > curStart {
			cs[i-1].End, cs[i].Start = max(prevEnd, cs[i-1].Start), min(curStart, cs[i].End)
			continue
		}
		split := prevEnd + (curStart-prevEnd)/2
		if m.Start+m.End > 0 {
			split = prevEnd + (curStart-prevEnd)*m.End/(m.Start+m.End)
		}
		cs[i-1].End = min(cs[i-1].End, split)
		cs[i].Start = max(cs[i].Start, split)
	}
}
