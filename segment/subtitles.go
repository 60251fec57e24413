package segment

import (
	"context"
	"math"
	"strings"
	"unicode"

	"github.com/sottolabs/sotto"
)

// Subtitle layout: the limits subtitle users expect by default (the common
// broadcast and streaming guidelines): at most 42 characters a line, two
// lines a cue, about seven seconds a cue.
const (
	DefaultMaxLineChars  = 42
	DefaultMaxLines      = 2
	DefaultMaxCueSeconds = 7.0
)

// SubtitleOptions are the layout limits of [Subtitles]. A zero limit is off.
type SubtitleOptions struct {
	// MaxLineChars is the width of a line in display columns: one per
	// character, two for a wide (East Asian) character, none for a
	// combining mark, so 42 columns hold 42 Latin letters or 21 Chinese
	// characters. Columns are counted on the text read in NFC, so
	// decomposed text is as wide as composed text, and a line never breaks
	// before a combining mark. Lines are wrapped at word gaps (at any character between
	// CJK characters); a single word wider than the line stands alone on
	// its line. 0 keeps each cue on one line.
	MaxLineChars int
	// MaxLines is the number of lines a cue may have; a longer text is
	// split into several cues. 0 allows any number of lines.
	MaxLines int
	// MaxCueSeconds is the longest a cue may stay on screen; a longer one
	// is split (a single word longer than this stays whole). 0 is no limit.
	MaxCueSeconds float64
	// Language is a BCP 47 tag naming the language's conjunctions and
	// prepositions, good places to break; "" uses the union of the
	// languages the package knows.
	Language string
}

// DefaultSubtitleOptions returns the default layout: 42 columns, 2 lines,
// 7 seconds.
func DefaultSubtitleOptions() SubtitleOptions {
	return SubtitleOptions{MaxLineChars: DefaultMaxLineChars, MaxLines: DefaultMaxLines, MaxCueSeconds: DefaultMaxCueSeconds}
}

// Validate returns a 400-kind [*sotto.Error] for a negative or non-finite limit.
func (o SubtitleOptions) Validate() error {
	switch {
	case o.MaxLineChars < 0:
		return sotto.Invalid("bad_request", "max_line_chars", "max_line_chars %d must not be negative", o.MaxLineChars)
	case o.MaxLines < 0:
		return sotto.Invalid("bad_request", "max_lines", "max_lines %d must not be negative", o.MaxLines)
	case o.MaxCueSeconds < 0 || math.IsNaN(o.MaxCueSeconds) || math.IsInf(o.MaxCueSeconds, 0):
		return sotto.Invalid("bad_request", "max_cue_seconds", "max_cue_seconds %g must be a non-negative number", o.MaxCueSeconds)
	}
	return nil
}

// Subtitles lays cues (sentences or segments, such as those of [Cues],
// [Words] or an alignment) out as subtitles: each cue's text is wrapped
// into lines of at most opts.MaxLineChars columns, and a cue that needs
// more than opts.MaxLines lines or lasts longer than opts.MaxCueSeconds is
// split into several. Cues are never merged.
//
// Breaks are chosen for the whole cue at once (fewest parts, each on as
// few lines as its text needs, then the best places): after a sentence
// stop, then after a comma,
// semicolon, colon or dash, then before a conjunction or preposition of the
// language, and never, when avoidable, after an article or preposition;
// among equally good choices the lines and cues of balanced length win.
//
// The times of a split cue come from its words when the input cue has
// words that can be found in its text, in order (Word.Word compared by
// letters and digits, as [Cues] does); a cue part then starts at its first
// word's start and ends at its last word's end. Otherwise, and for text
// between found words, times are interpolated by characters over the cue
// (or over the words' span), and the parts follow each other without gaps.
// The first part keeps the cue's start and the last its end; times never
// decrease. Each part keeps the speaker and the
// words it holds. Line breaks are "\n" in Text, as [WriteSRT] and
// [WriteVTT] expect. The text is kept: the parts hold the input's
// characters in order, only white space changes.
//
// Invalid options return a 400-kind [*sotto.Error]; cancellation returns
// ctx.Err(). Subtitles does not modify in.
func Subtitles(ctx context.Context, in []Cue, opts SubtitleOptions) ([]Cue, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if err := validateCues(in); err != nil {
		return nil, err
	}
	lang := baseLang(opts.Language)
	lay := layout{opts: opts, breakBefore: breakBeforeSets.get(lang), binds: bindingSets.get(lang)}
	out := make([]Cue, 0, len(in))
	for k, c := range in {
		if k&0xff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out = lay.cue(out, c)
	}
	return out, nil
}

// layout holds the options and word lists of one Subtitles call.
type layout struct {
	opts        SubtitleOptions
	breakBefore map[string]bool
	binds       map[string]bool
	spans       []int // per word of the current cue: where it starts in the text (empty when not found)
}

// subTok is a unit of a cue's text that a line may not break: a word with
// its punctuation, or one CJK character.
type subTok struct {
	a, b       int     // byte span in the cue text
	width      int     // display columns
	space      bool    // a space separates it from the previous token
	start, end float64 // seconds
	pen        float64 // cost of a break after it
}

// Break costs, in the units of the layout's dynamic programs.
const (
	costCue      = 40  // one more cue
	costLine     = 20  // one more line in a cue
	penStop      = 0   // after a sentence stop
	penClause    = 1   // after a comma, semicolon, colon or dash
	penBefore    = 2.5 // before a conjunction or preposition
	penCJKPhrase = 3   // between two CJK characters where a phrase likely ends
	penCJK       = 4   // between two CJK characters
	penPlain     = 5   // between two words
	penBinds     = 9   // after an article or preposition
	costBalance  = 6   // weight of the squared unused share of a line or cue
	lineTooShort = 0.2 // share of the line below which a last line costs extra

	cueBreakWeight = 3 // a poor break between cues costs more than one between lines
)

// cue appends the subtitle cues of c to out.
func (l *layout) cue(out []Cue, c Cue) []Cue {
	text := c.Text
	toks := l.tokens(text)
	if len(toks) == 0 {
		c.Text = "" // white space only: nothing to lay out
		return append(out, c)
	}
	l.times(toks, c)
	for i := range toks {
		toks[i].pen = l.penalty(text, toks, i)
	}
	parts := l.chunks(toks)
	wk := 0
	for pi, p := range parts {
		t0, t1 := toks[p[0]], toks[p[1]-1]
		part := Cue{Text: l.wrap(text, toks[p[0]:p[1]]), Start: t0.start, End: t1.end, Speaker: c.Speaker}
		if pi == 0 {
			part.Start = c.Start
		}
		if pi == len(parts)-1 {
			part.End = c.End
		}
		if n := len(out); pi > 0 && n > 0 {
			part.Start = max(part.Start, out[n-1].End)
		}
		part.End = max(part.End, part.Start)
		part.Start = math.Round(part.Start*1e6) / 1e6
		part.End = math.Round(part.End*1e6) / 1e6
		// Each word goes to the part its span starts in, or, when the
		// words could not be found in the text, the part its start time
		// falls in.
		for ; wk < len(c.Words); wk++ {
			if pi < len(parts)-1 {
				if len(l.spans) == len(c.Words) && l.spans[wk] >= t1.b {
					break
				}
				if len(l.spans) != len(c.Words) && c.Words[wk].Start >= t1.end {
					break
				}
			}
			part.Words = append(part.Words, c.Words[wk])
		}
		out = append(out, part)
	}
	return out
}

// tokens splits text into words at white space and into single characters
// inside runs of CJK characters; punctuation stays with the character
// before it, opening brackets and quotes with the one after.
func (l *layout) tokens(text string) []subTok {
	var toks []subTok
	space := false
	cur := -1 // index of the open token, -1 after white space
	for i, r := range text {
		n := len(string(r))
		switch {
		case isSpace(r):
			space, cur = true, -1
			continue
		case cur >= 0 && unicode.IsMark(r):
			// A combining mark stays with its base: a decomposed letter
			// (か + U+3099) is never split.
		case cur >= 0 && !isWordRune(r) && !isOpener(r):
			// Punctuation: stays with the token before.
		case cur >= 0 && !isCJK(r) && !isCJKRune(text, toks[cur]) && !isOpenerTok(text, toks[cur]):
			// A word continues.
		case cur >= 0 && isOpenerTok(text, toks[cur]):
			// After an opening bracket or quote: the same token.
		default:
			toks = append(toks, subTok{a: i, b: i, space: space && len(toks) > 0})
			cur = len(toks) - 1
		}
		space = false
		toks[cur].b = i + n
	}
	for k := range toks {
		toks[k].width = textWidth(text[toks[k].a:toks[k].b])
	}
	return toks
}

// textWidth is the display width of s read in NFC (internal/nfc): the sum
// of its characters' runeWidth, so that a letter written decomposed is as
// wide as the composed one (Oriya U+0B47 U+0B3E is one vowel sign, as
// U+0B4B; conjoining jamo are one Hangul syllable).
func textWidth(s string) int {
	read, _ := readNFC(s)
	w := 0
	for _, r := range read {
		w += runeWidth(r)
	}
	return w
}

// isCJKRune reports whether the token t of text starts with a CJK character.
func isCJKRune(text string, t subTok) bool {
	r, _ := runeAt(text, t.a)
	return isCJK(r) && isWordRune(r)
}

// isOpenerTok reports whether t is so far only opening brackets or quotes.
func isOpenerTok(text string, t subTok) bool {
	for _, r := range text[t.a:t.b] {
		if !isOpener(r) {
			return false
		}
	}
	return true
}

// runeWidth is the display width of r: 0 for combining marks and format
// characters, 2 for East Asian wide and full-width characters, else 1.
func runeWidth(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r):
		return 0
	case r >= 0x1100 && r <= 0x115F, // Hangul Jamo initials
		r >= 0x2E80 && r <= 0x303E, // CJK radicals, punctuation
		r >= 0x3041 && r <= 0x33FF, // kana, CJK compatibility
		r >= 0x3400 && r <= 0x4DBF, // CJK extension A
		r >= 0x4E00 && r <= 0x9FFF, // CJK unified ideographs
		r >= 0xA000 && r <= 0xA4CF, // Yi
		r >= 0xAC00 && r <= 0xD7A3, // Hangul syllables
		r >= 0xF900 && r <= 0xFAFF, // CJK compatibility ideographs
		r >= 0xFE30 && r <= 0xFE4F, // CJK compatibility forms
		r >= 0xFF00 && r <= 0xFF60, // full-width forms
		r >= 0xFFE0 && r <= 0xFFE6,
		r >= 0x1F300 && r <= 0x1FAFF, // emoji
		r >= 0x20000 && r <= 0x3FFFD: // CJK extensions B and later
		return 2
	}
	return 1
}

// times sets the start and end of every token: from the cue's words where
// they are found in the text, otherwise by characters.
func (l *layout) times(toks []subTok, c Cue) {
	l.spans = l.spans[:0]
	// Anchors: byte offsets of the text with known times, in order.
	type anchor struct {
		off int
		t   float64
	}
	anchors := []anchor{{toks[0].a, c.Start}}
	found := false
	if spans, ok := alignWords(c.Text, c.Words); ok && len(c.Words) > 0 {
		found = true
		for k, sp := range spans {
			l.spans = append(l.spans, sp[0])
			if sp[1] > sp[0] {
				anchors = append(anchors, anchor{sp[0], c.Words[k].Start}, anchor{sp[1], c.Words[k].End})
			}
		}
	} else if len(c.Words) > 0 {
		// Words that cannot be found (the aligner spoke "$5" as "five
		// dollars"): spread the text over the words' span.
		ws, we := c.Words[0].Start, c.Words[len(c.Words)-1].End
		if we > ws {
			anchors = append(anchors, anchor{toks[0].a, ws}, anchor{toks[len(toks)-1].b, we})
		}
	}
	anchors = append(anchors, anchor{toks[len(toks)-1].b, c.End})
	// Make the anchors monotonic in both offset and time.
	clean := anchors[:1]
	for _, a := range anchors[1:] {
		last := clean[len(clean)-1]
		if a.off < last.off {
			continue
		}
		a.t = max(a.t, last.t)
		clean = append(clean, a)
	}
	// Interpolate by characters between anchors: characters of the text
	// read in NFC, as [Cues] counts them, so that decomposed text is timed
	// as composed text.
	k := 0 // offsets only grow: the search resumes where it stopped
	at := func(off int) float64 {
		for k+1 < len(clean) && clean[k+1].off < off {
			k++
		}
		if k+1 >= len(clean) {
			return clean[len(clean)-1].t
		}
		a, b := clean[k], clean[k+1]
		if off <= a.off {
			return a.t
		}
		if off >= b.off || b.off == a.off {
			return b.t
		}
		f := float64(readLen(c.Text[a.off:off])) / float64(readLen(c.Text[a.off:b.off]))
		return a.t + f*(b.t-a.t)
	}
	for i := range toks {
		toks[i].start = at(toks[i].a)
		toks[i].end = max(at(toks[i].b), toks[i].start)
	}
	// The cue's own times bound it, as the first and last parts keep them.
	toks[0].start = c.Start
	toks[len(toks)-1].end = max(c.End, toks[len(toks)-1].start)
	if !found {
		// Without words the parts follow each other without gaps.
		for i := 1; i < len(toks); i++ {
			toks[i-1].end = toks[i].start
		}
	}
}

// penalty is the cost of a break after token i.
func (l *layout) penalty(text string, toks []subTok, i int) float64 {
	if i == len(toks)-1 {
		return 0
	}
	t := text[toks[i].a:toks[i].b]
	last, _ := runeBefore(t, len(t))
	for isCloser(last) && len(t) > len(string(last)) {
		t = t[:len(t)-len(string(last))]
		last, _ = runeBefore(t, len(t))
	}
	switch {
	case isPeriod(last) || isStop(last) || last == '…':
		if len(t) > 1 && isAbbrevLike(t) {
			break
		}
		return penStop
	case strings.ContainsRune(",;:、，；：،؛", last) || isDash(last):
		return penClause
	}
	word := strings.ToLower(strings.TrimFunc(text[toks[i].a:toks[i].b], func(r rune) bool { return !isWordRune(r) }))
	next := strings.ToLower(strings.TrimFunc(text[toks[i+1].a:toks[i+1].b], func(r rune) bool { return !isWordRune(r) }))
	switch {
	case l.binds[word]:
		return penBinds
	case l.breakBefore[next]:
		return penBefore
	case !toks[i+1].space && cjkPhraseEnd(text, toks[i], toks[i+1]):
		return penCJKPhrase
	case !toks[i+1].space:
		return penCJK
	}
	return penPlain
}

// cjkPhraseEnd reports whether a phrase of Chinese or Japanese likely ends
// between the characters a and b, without a dictionary: after a Chinese
// structural particle (的 了 着 过), or where Japanese hiragana (particles,
// endings) is followed by kanji or katakana (the start of the next content
// word).
func cjkPhraseEnd(text string, a, b subTok) bool {
	ra, _ := runeBefore(text, a.b)
	rb, _ := runeAt(text, b.a)
	switch ra {
	case '的', '了', '着', '过':
		return true
	}
	return unicode.Is(unicode.Hiragana, ra) && (unicode.Is(unicode.Han, rb) || unicode.Is(unicode.Katakana, rb))
}

// isAbbrevLike reports whether the token t ending in a period looks like an
// abbreviation or initial ("Mr.", "U.S.", "J."): a poor place for a break.
func isAbbrevLike(t string) bool {
	w := strings.TrimSuffix(t, ".")
	if strings.Contains(w, ".") {
		return true
	}
	if runeLen(w) == 1 {
		return true
	}
	_, ok := baseAbbrev[strings.ToLower(w)]
	return ok && baseAbbrev[strings.ToLower(w)] == abbrTitle
}

// lineWidth returns the display width of toks[i:j] on one line.
func lineWidth(toks []subTok, i, j int) int {
	w := 0
	for k := i; k < j; k++ {
		if k > i && toks[k].space {
			w++
		}
		w += toks[k].width
	}
	return w
}

// lines finds the best wrapping of toks[i:j]: its line starts, its cost,
// and whether it fits in MaxLines lines.
func (l *layout) lines(toks []subTok, i, j int) ([]int, float64, bool) {
	L := l.opts.MaxLineChars
	if L == 0 || lineWidth(toks, i, j) <= L {
		return []int{i}, 0, true
	}
	n := j - i
	// best[k]: cost of laying toks[i:i+k] out in whole lines.
	best := make([]float64, n+1)
	from := make([]int, n+1)
	count := make([]int, n+1)
	for k := 1; k <= n; k++ {
		best[k] = math.Inf(1)
		w := 0
		for s := k - 1; s >= 0; s-- {
			w += toks[i+s].width
			if s < k-1 && toks[i+s+1].space {
				w++
			}
			if w > L && s < k-1 {
				break // a line holds one over-long word at most
			}
			c := best[s] + costLine + lineSlack(w, L, k == n)
			if s > 0 {
				c += toks[i+s-1].pen
			}
			if c < best[k] {
				best[k], from[k], count[k] = c, s, count[s]+1
			}
		}
	}
	var starts []int
	for k := n; k > 0; k = from[k] {
		starts = append(starts, i+from[k])
	}
	for a, b := 0, len(starts)-1; a < b; a, b = a+1, b-1 {
		starts[a], starts[b] = starts[b], starts[a]
	}
	// The cost returned leaves out the per-line cost: it rates the breaks
	// and the balance of the lines, not how many there are.
	return starts, best[n] - costLine*float64(count[n]), l.opts.MaxLines == 0 || count[n] <= l.opts.MaxLines
}

// lineSlack is the cost of the unused share of a line of width w.
func lineSlack(w, L int, last bool) float64 {
	if w >= L {
		return 0
	}
	u := float64(L-w) / float64(L)
	c := costBalance * u * u
	if last && float64(w) < lineTooShort*float64(L) {
		c += costBalance // a last line of one short word
	}
	return c
}

// chunks splits the tokens of one cue into cue parts, [start, end) pairs.
func (l *layout) chunks(toks []subTok) [][2]int {
	n := len(toks)
	o := l.opts
	fits := func(i, j int) (float64, bool) {
		if j-i > 1 && o.MaxCueSeconds > 0 && toks[j-1].end-toks[i].start > o.MaxCueSeconds+1e-9 {
			return 0, false
		}
		_, c, ok := l.lines(toks, i, j)
		return c, ok || j-i == 1
	}
	if _, ok := fits(0, n); ok {
		return [][2]int{{0, n}}
	}
	capacity := 0
	if o.MaxLineChars > 0 && o.MaxLines > 0 {
		capacity = o.MaxLineChars * o.MaxLines
	}
	best := make([]float64, n+1)
	from := make([]int, n+1)
	for j := 1; j <= n; j++ {
		best[j] = math.Inf(1)
		for i := j - 1; i >= 0; i-- {
			lc, ok := fits(i, j)
			if !ok {
				if j-i > 1 {
					break // longer parts only fit less
				}
				lc = 0
			}
			c := best[i] + costCue + lc
			if j < n {
				c += cueBreakWeight * toks[j-1].pen
			}
			if capacity > 0 {
				u := 1 - float64(min(lineWidth(toks, i, j), capacity))/float64(capacity)
				c += costBalance * u * u
			}
			if c < best[j] {
				best[j], from[j] = c, i
			}
		}
	}
	var parts [][2]int
	for j := n; j > 0; j = from[j] {
		parts = append(parts, [2]int{from[j], j})
	}
	for a, b := 0, len(parts)-1; a < b; a, b = a+1, b-1 {
		parts[a], parts[b] = parts[b], parts[a]
	}
	return parts
}

// wrap returns the text of toks laid out in lines joined by "\n".
func (l *layout) wrap(text string, toks []subTok) string {
	starts, _, _ := l.lines(toks, 0, len(toks))
	var b strings.Builder
	line := 0
	for k, t := range toks {
		if line+1 < len(starts) && k == starts[line+1] {
			b.WriteByte('\n')
			line++
		} else if k > 0 && t.space {
			b.WriteByte(' ')
		}
		b.WriteString(text[t.a:t.b])
	}
	return b.String()
}

// wordSets holds a word list per language as sets, and their union under "".
type wordSets map[string]map[string]bool

func newWordSets(lists map[string]string) wordSets {
	ws := wordSets{"": {}}
	for lang, list := range lists {
		ws[lang] = words2(list)
		for _, w := range strings.Fields(list) {
			ws[""][w] = true
		}
	}
	return ws
}

// get returns the set of lang, or the union of all when lang has none.
func (ws wordSets) get(lang string) map[string]bool {
	if m, ok := ws[lang]; ok {
		return m
	}
	return ws[""]
}

var (
	breakBeforeSets = newWordSets(breakBeforeWords)
	bindingSets     = newWordSets(bindingWords)
)

// breakBeforeWords are conjunctions, relative words and prepositions that
// open a clause or phrase: a line or cue may well start with one.
var breakBeforeWords = map[string]string{
	"en": `and but or nor so yet because although though while whereas when whenever where which who whom whose that if unless until since after before as than to of in on at for with from by about into onto over under between through during without within against among toward towards`,
	"de": `und oder aber denn sondern doch weil da dass ob wenn als wie während bevor nachdem obwohl damit sodass der die das mit von zu für auf in an bei nach aus über unter durch gegen ohne um vor hinter zwischen`,
	"fr": `et ou mais donc car or ni parce que qui quand lorsque si comme puisque bien pour par avec sans de dans sur sous entre vers chez depuis pendant avant après contre selon`,
	"es": `y e o u pero sino porque aunque cuando donde mientras que si como pues para por con sin de en entre hasta desde sobre hacia contra durante según tras`,
	"it": `e ed o od ma però perché poiché che quando mentre se come dove per con senza di in su tra fra da verso contro durante dopo prima`,
	"pt": `e ou mas porém porque pois que quando enquanto se como onde para por com sem de em entre até desde sobre contra durante após`,
	"nl": `en of maar want dus omdat hoewel terwijl toen als wanneer dat die wat met van voor naar in op aan bij door over onder tussen zonder tegen`,
	"da": `og eller men for fordi selvom mens når hvis at som der med af til på i fra om under over mellem uden efter før`,
	"ru": `и или но а однако что чтобы когда если хотя потому как где который которая которое которые в на с со по из к для без о об от до при через под над между`,
}

// bindingWords are articles, determiners and short prepositions that bind
// to the word after them: a line should not end with one.
var bindingWords = map[string]string{
	"en": `the a an this that these those my your his her its our their of to in on at for with from by`,
	"de": `der die das den dem des ein eine einen einem einer eines mit von zu für auf in an bei nach aus im am zum zur vom`,
	"fr": `le la les l un une des du au aux ce cette ces mon ma mes son sa ses de à en dans sur par pour`,
	"es": `el la los las lo un una unos unas del al de a en con por para mi tu su sus este esta estos estas`,
	"it": `il lo la i gli le l un uno una del della dei degli delle al alla ai agli alle di a da in con su per`,
	"pt": `o a os as um uma uns umas do da dos das no na nos nas ao à de em com por para`,
	"nl": `de het een van in op aan met voor naar`,
	"da": `en et den det de af i på til med for`,
	"ru": `в на с со по из к для без о об от до при`,
}
