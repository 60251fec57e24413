package segment

import (
	"context"
	"math"
	"strings"
	"unicode"

	"github.com/sottolabs/sotto"
)

// Defaults of the spec's segmentation fields.
const (
	DefaultThreshold   = 0.35 // sentence threshold
	DefaultMinChars    = 12   // characters (see Length), when length constraints are on
	DefaultMaxChars    = 42   // characters (see Length), when length constraints are on
	DefaultStartMargin = 0.2  // seconds, when margins are on
	DefaultEndMargin   = 0.2  // seconds, when margins are on
)

// Options controls segmentation. The zero value splits into sentences at
// [DefaultThreshold], guesses the language, and applies no length
// constraints and no margins.
type Options struct {
	// Threshold is the sentence threshold in [0, 1]; nil means
	// DefaultThreshold. Every candidate boundary has a score in [0, 1] and
	// is kept when its score is at least Threshold: 0 splits at every
	// candidate, 1 only at certain boundaries (blank lines, speaker
	// changes), and raising it never adds a boundary.
	Threshold *float64
	// ParagraphThreshold, when non-nil, turns on paragraph mode: each
	// result item is a paragraph. It must be at least the sentence
	// threshold and excludes Length. (The HTTP endpoint accepts it only
	// with text input, as the spec says; [Cues] also groups timed input.)
	ParagraphThreshold *float64
	// Length, when non-nil, turns on length constraints: items are split
	// into cues of at most MaxChars characters (see [Length]) at the
	// best-scored word gap and items shorter than MinChars are merged with
	// a neighbour when that keeps them within MaxChars.
	Length *Length
	// Margins, when non-nil, pads the times of timed items, without
	// overlapping a neighbour or leaving the media. Plain text ignores it.
	Margins *Margins
	// Language is a BCP 47 tag selecting abbreviation lists; "" guesses it
	// from the text.
	Language string
	// MediaEnd is the duration of the media in seconds, the latest time a
	// margin may reach; 0 means the latest end time of the input.
	MediaEnd float64
}

// Length holds the length constraints of cues, in characters of the text
// read in Unicode NFC (a letter and its marks count once), for [Text] and
// [Cues] alike.
type Length struct {
	MinChars int // merge items shorter than this; 0 disables merging
	MaxChars int // split items longer than this; must be positive
}

// Margins holds the padding added to each timed item, in seconds.
type Margins struct {
	Start float64 // subtracted from each start
	End   float64 // added to each end
}

// Validate checks the ranges of o. It returns a 400-kind [*sotto.Error]
// whose Param names the offending field.
func (o Options) Validate() error {
	th := o.threshold()
	if !inUnit(th) {
		return sotto.Invalid("bad_request", "threshold", "threshold %v is outside [0, 1]", th)
	}
	if p := o.ParagraphThreshold; p != nil {
		if !inUnit(*p) {
			return sotto.Invalid("bad_request", "paragraph_threshold", "paragraph_threshold %v is outside [0, 1]", *p)
		}
		if *p < th {
			return sotto.Invalid("bad_request", "paragraph_threshold", "paragraph_threshold %v is below threshold %v", *p, th)
		}
	}
	if l := o.Length; l != nil {
		if l.MaxChars < 1 {
			return sotto.Invalid("bad_request", "max_chars", "max_chars %d must be positive", l.MaxChars)
		}
		if l.MinChars < 0 || l.MinChars > l.MaxChars {
			return sotto.Invalid("bad_request", "min_chars", "min_chars %d must be between 0 and max_chars %d", l.MinChars, l.MaxChars)
		}
	}
	if m := o.Margins; m != nil {
		if !(m.Start >= 0 && m.Start <= maxMargin) {
			return sotto.Invalid("bad_request", "start_margin", "start_margin %v must be between 0 and %v seconds", m.Start, maxMargin)
		}
		if !(m.End >= 0 && m.End <= maxMargin) {
			return sotto.Invalid("bad_request", "end_margin", "end_margin %v must be between 0 and %v seconds", m.End, maxMargin)
		}
	}
	if !(o.MediaEnd >= 0) {
		return sotto.Invalid("bad_request", "duration", "media duration %v must not be negative", o.MediaEnd)
	}
	return nil
}

const maxMargin = 60.0

func inUnit(x float64) bool { return x >= 0 && x <= 1 }

func (o Options) threshold() float64 {
	if o.Threshold == nil {
		return DefaultThreshold
	}
	return *o.Threshold
}

// Float returns a pointer to x, for the optional fields of [Options].
func Float(x float64) *float64 { return &x }

// Word is one timed word; times are in seconds.
type Word struct {
	Word  string   `json:"word"`
	Start float64  `json:"start"`
	End   float64  `json:"end"`
	Score *float64 `json:"score,omitempty"`
}

// Cue is a timed span of text: a timed input segment, or a sentence or cue
// of the output. Times are in seconds; Speaker is "" when unknown. Words,
// when present, carry their own times and lie within the cue.
type Cue struct {
	Text    string  `json:"text"`
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	Speaker string  `json:"speaker,omitempty"`
	Words   []Word  `json:"words,omitempty"`
}

// Item is one item of a [Result]: a sentence, paragraph or cue. Start,
// End and Speaker are set only for timed input (Speaker only when the input
// named one), so plain-text items marshal to {"text": ...} alone. Words are
// present when the timed input carried words.
type Item struct {
	Text    string   `json:"text"`
	Start   *float64 `json:"start,omitempty"`
	End     *float64 `json:"end,omitempty"`
	Speaker *string  `json:"speaker,omitempty"`
	Words   []Word   `json:"words,omitempty"`
}

// Result is the spec's segmentation result.
type Result struct {
	Task     string `json:"task"` // always "segment"
	Text     string `json:"text"` // items joined by "\n", paragraphs by a blank line
	Segments []Item `json:"segments"`
}

// Sentences splits text into sentences with the given options and returns
// their texts. It is a convenience over [Text].
func Sentences(ctx context.Context, text string, opts Options) ([]string, error) {
	r, err := Text(ctx, text, opts)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(r.Segments))
	for i, s := range r.Segments {
		out[i] = s.Text
	}
	return out, nil
}

// Text segments plain text into sentences, paragraphs (when
// opts.ParagraphThreshold is set) or length-constrained cues (when
// opts.Length is set). Items keep the input's words in order; inside a
// sentence or cue, whitespace runs that contain a line break become one
// space (none between two CJK characters), paragraphs keep their line
// breaks. Text is read in Unicode NFC, so decomposed input ("Ja\u0308n.")
// splits where composed input does and max_chars counts a letter and its
// marks once; items are the input's bytes as sent. It returns a 400-kind
// [*sotto.Error] for invalid options and ctx.Err() when cancelled. Text is
// safe for concurrent use.
func Text(ctx context.Context, text string, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.ParagraphThreshold != nil && opts.Length != nil {
		return nil, sotto.Invalid("bad_request", "max_chars", "length constraints apply to sentences and cues, not to paragraph mode")
	}
	lang := baseLang(opts.Language)
	// Every decision reads the text in NFC (read); the items are the
	// input's bytes as sent (text[at(a):at(b)]).
	read, runs := readNFC(text)
	at, atStart := func(x int) int { return x }, func(x int) int { return x }
	if runs != nil {
		at = func(x int) int { return fromRead(runs, x) }
		atStart = func(x int) int { return startFromRead(text, read, runs, x) }
	}
	bs, err := sentenceBoundaries(ctx, read, lang)
	if err != nil {
		return nil, err
	}
	if runs != nil {
		snapToRuns(read, bs, runs)
	}
	th := opts.threshold()
	kept := keep(bs, th)
	res := &Result{Task: "segment", Segments: []Item{}}
	if opts.ParagraphThreshold != nil {
		pb := paragraphBoundaries(read, kept)
		var paras []string
		for _, sp := range spans(read, keep(pb, *opts.ParagraphThreshold)) {
			p := strings.TrimSpace(text[atStart(sp[0]):at(sp[1])])
			if p == "" {
				continue
			}
			paras = append(paras, p)
			res.Segments = append(res.Segments, Item{Text: p})
		}
		res.Text = strings.Join(paras, "\n\n")
		return res, nil
	}
	units := spans(read, kept)
	if opts.Length != nil {
		units, err = cueSpans(ctx, read, units, bs, *opts.Length, nil)
		if err != nil {
			return nil, err
		}
	}
	lines := make([]string, 0, len(units))
	for _, sp := range units {
		t := clean(text[atStart(sp[0]):at(sp[1])])
		if t == "" {
			continue
		}
		lines = append(lines, t)
		res.Segments = append(res.Segments, Item{Text: t})
	}
	res.Text = strings.Join(lines, "\n")
	return res, nil
}

// keep returns the boundaries scoring at least th.
func keep(bs []boundary, th float64) []boundary {
	out := make([]boundary, 0, len(bs))
	for _, b := range bs {
		if b.score >= th {
			out = append(out, b)
		}
	}
	return out
}

// spans returns the byte ranges between the boundaries, trimmed of
// surrounding whitespace; empty ranges are dropped.
func spans(text string, bs []boundary) [][2]int {
	var out [][2]int
	start := 0
	add := func(a, b int) {
		for a < b {
			r, n := runeAt(text, a)
			if !isSpace(r) {
				break
			}
			a += n
		}
		for b > a {
			r, n := runeBefore(text, b)
			if !isSpace(r) {
				break
			}
			b -= n
		}
		if a < b {
			out = append(out, [2]int{a, b})
		}
	}
	for _, b := range bs {
		if b.end < start {
			continue
		}
		add(start, b.end)
		start = b.next
	}
	add(start, len(text))
	return out
}

// baseBefore returns the character before byte offset i of s without the
// marks after it: a letter written decomposed ("\u304b\u3099", が) is the
// CJK character it reads as in NFC. It returns 0 when only marks precede i.
func baseBefore(s string, i int) rune {
	for i > 0 {
		r, n := runeBefore(s, i)
		if !unicode.IsMark(r) {
			return r
		}
		i -= n
	}
	return 0
}

// clean trims s and turns every whitespace run that contains a line break
// into one space, or into nothing between two CJK characters.
func clean(s string) string {
	s = strings.TrimSpace(s)
	if !strings.ContainsAny(s, "\n\r") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := runeAt(s, i)
		if !isSpace(r) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		j, nl := i, false
		for j < len(s) {
			r2, n2 := runeAt(s, j)
			if !isSpace(r2) {
				break
			}
			if r2 == '\n' || r2 == '\r' {
				nl = true
			}
			j += n2
		}
		switch {
		case !nl:
			b.WriteString(s[i:j])
		default:
			p := baseBefore(s, i)
			q, _ := runeAt(s, j)
			if !(isCJK(p) && isCJK(q)) {
				b.WriteByte(' ')
			}
		}
		i = j
	}
	return b.String()
}

// cueSpans applies length constraints to units (byte ranges of text): a unit
// longer than l.MaxChars runes is split at the best-scored word gaps, and
// units shorter than l.MinChars are merged with a neighbour when the merged
// unit still fits. bs are all candidate boundaries with their scores (those
// below the threshold serve as split hints). hint, when non-nil, returns
// extra evidence in [0, 1] for a split between byte offsets end and next (a
// pause), and certain where two units must stay apart (a change of
// speaker).
func cueSpans(ctx context.Context, text string, units [][2]int, bs []boundary, l Length, hint func(end, next int) (float64, bool)) ([][2]int, error) {
	hints := map[int]float64{}
	for _, b := range bs {
		hints[b.next] = b.score
	}
	var out [][2]int
	for k, u := range units {
		if k&63 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out = append(out, splitUnit(text, u, l, hints, hint)...)
	}
	if l.MinChars > 0 {
		out = mergeShort(text, out, l, hint)
	}
	return out, nil
}

// gap is a place where a unit may be split: the text before ends at end, the
// text after starts at next.
type gap struct {
	end, next int
	score     float64
}

var conjunctions = words2(`and but or so because which that who when while although though whereas if unless until since after before
	und aber oder denn weil dass wenn als während obwohl
	et mais ou donc car que qui quand lorsque parce
	y pero o porque que cuando mientras aunque
	e ma o perché che quando mentre anche
	и но а или потому что когда который если`)

// splitUnit splits one unit into pieces of at most l.MaxChars runes, by
// dynamic programming over its word gaps: fewer pieces and better-scored
// split points win, and pieces shorter than l.MinChars are penalised.
func splitUnit(text string, u [2]int, l Length, hints map[int]float64, hint func(end, next int) (float64, bool)) [][2]int {
	if runeLen(text[u[0]:u[1]]) <= l.MaxChars {
		return [][2]int{u}
	}
	gaps := []gap{{end: u[0], next: u[0]}}
	for i := u[0]; i < u[1]; {
		r, n := runeAt(text, i)
		if isSpace(r) {
			j := i
			for j < u[1] {
				r2, n2 := runeAt(text, j)
				if !isSpace(r2) {
					break
				}
				j += n2
			}
			gaps = append(gaps, gap{end: i, next: j})
			i = j
			continue
		}
		if i+n < u[1] && isCJK(r) {
			if r2, _ := runeAt(text, i+n); isCJK(r2) && !isCloser(r2) && !isCJKStop(r2) && r2 != '、' && r2 != '，' {
				gaps = append(gaps, gap{end: i + n, next: i + n})
			}
		}
		i += n
	}
	gaps = append(gaps, gap{end: u[1], next: u[1]})
	for k := 1; k < len(gaps)-1; k++ {
		g := &gaps[k]
		p, _ := runeBefore(text, g.end)
		sc := 0.1
		switch p {
		case ',', '，', '、', '—', '–':
			sc = 0.6
		case ';', ':', '；', '：':
			sc = 0.7
		case '-':
			sc = 0.4
		}
		if isCloser(p) {
			sc = max(sc, 0.3)
		}
		if conjunctions[strings.ToLower(wordAt(text, g.next))] {
			sc = max(sc, 0.45)
		}
		if h, ok := hints[g.next]; ok {
			sc = max(sc, h)
		}
		if hint != nil {
			if h, ok := hint(g.end, g.next); ok {
				sc = 1 - (1-sc)*(1-h)
			}
		}
		g.score = sc
	}
	// Prefix rune counts at each gap.
	pos := make([]int, len(gaps))
	for k := 1; k < len(gaps); k++ {
		pos[k] = pos[k-1] + runeLen(text[gaps[k-1].end:gaps[k].end])
	}
	length := func(i, j int) int { // runes of the piece from gap i to gap j
		return pos[j] - pos[i] - runeLen(text[gaps[i].end:gaps[i].next])
	}
	n := len(gaps)
	cost := make([]float64, n)
	from := make([]int, n)
	for j := 1; j < n; j++ {
		cost[j] = -1
		for i := j - 1; i >= 0; i-- {
			ln := length(i, j)
			if ln > l.MaxChars && i != j-1 {
				break
			}
			if cost[i] < 0 {
				continue
			}
			c := cost[i] + 0.4
			if j < n-1 {
				c += 0.6 * (1 - gaps[j].score)
			}
			if ln < l.MinChars {
				c += 1.5 * float64(l.MinChars-ln) / float64(l.MinChars)
			}
			if cost[j] < 0 || c < cost[j] {
				cost[j], from[j] = c, i
			}
		}
	}
	var cuts []int
	for j := n - 1; j > 0; j = from[j] {
		cuts = append(cuts, j)
	}
	out := make([][2]int, 0, len(cuts))
	prev := 0
	for k := len(cuts) - 1; k >= 0; k-- {
		j := cuts[k]
		out = append(out, [2]int{gaps[prev].next, gaps[j].end})
		prev = j
	}
	return out
}

// mergeShort merges pieces shorter than l.MinChars runes with the shorter
// neighbour when the result fits in l.MaxChars and hint does not forbid
// joining them.
func mergeShort(text string, ps [][2]int, l Length, hint func(end, next int) (float64, bool)) [][2]int {
	joinable := func(a, b [2]int) bool {
		if runeLen(text[a[0]:b[1]]) > l.MaxChars {
			return false
		}
		if hint != nil {
			if h, ok := hint(a[1], b[0]); ok && h >= certain {
				return false
			}
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for k := 0; k < len(ps); k++ {
			if runeLen(text[ps[k][0]:ps[k][1]]) >= l.MinChars {
				continue
			}
			left, right := -1, -1
			if k > 0 && joinable(ps[k-1], ps[k]) {
				left = runeLen(text[ps[k-1][0]:ps[k-1][1]])
			}
			if k+1 < len(ps) && joinable(ps[k], ps[k+1]) {
				right = runeLen(text[ps[k+1][0]:ps[k+1][1]])
			}
			switch {
			case left >= 0 && (right < 0 || left <= right):
				ps[k-1][1] = ps[k][1]
				ps = append(ps[:k], ps[k+1:]...)
			case right >= 0:
				ps[k][1] = ps[k+1][1]
				ps = append(ps[:k+1], ps[k+2:]...)
			default:
				continue
			}
			changed = true
			k--
		}
	}
	return ps
}

// paragraphBoundaries scores the kept sentence boundaries as paragraph
// boundaries: a blank line is certain, a single line break is strong when
// the text uses single line breaks for paragraphs, and elsewhere the score
// is the lexical-cohesion depth between the sentences on either side
// (TextTiling).
func paragraphBoundaries(text string, kept []boundary) []boundary {
	blank := false
	for _, b := range kept {
		if b.newlines >= 2 {
			blank = true
			break
		}
	}
	sents := spans(text, kept)
	depth := cohesionDepth(text, sents)
	out := make([]boundary, len(kept))
	for k, b := range kept {
		b.score = 0
		switch {
		case b.newlines >= 2:
			b.score = certain
		case b.newlines == 1 && !blank:
			b.score = 0.8
		case b.newlines == 1:
			b.score = 0.3
		}
		if k < len(depth) {
			b.score = max(b.score, 0.9*depth[k])
		}
		out[k] = b
	}
	return out
}

// cohesionDepth returns, for the gap after each sentence but the last, a
// TextTiling depth score in [0, 1]: how far the lexical similarity of the
// windows on either side dips below the nearest peaks.
func cohesionDepth(text string, sents [][2]int) []float64 {
	n := len(sents)
	if n < 4 {
		return nil
	}
	bags := make([]map[string]float64, n)
	for k, sp := range sents {
		bag := map[string]float64{}
		for w := range strings.FieldsFuncSeq(strings.ToLower(text[sp[0]:sp[1]]), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if runeLen(w) < 3 || isFunctionWord(w) {
				continue
			}
			bag[stem(w)]++
		}
		bags[k] = bag
	}
	const win = 3
	sim := make([]float64, n-1)
	for g := range sim {
		left, right := map[string]float64{}, map[string]float64{}
		for k := max(0, g-win+1); k <= g; k++ {
			for w, c := range bags[k] {
				left[w] += c
			}
		}
		for k := g + 1; k <= min(n-1, g+win); k++ {
			for w, c := range bags[k] {
				right[w] += c
			}
		}
		sim[g] = cosine(left, right)
	}
	depth := make([]float64, n-1)
	for g := range sim {
		if (g > 0 && sim[g-1] < sim[g]) || (g+1 < len(sim) && sim[g+1] < sim[g]) {
			continue // only a local minimum of cohesion is a topic shift
		}
		lp := sim[g]
		for k := g - 1; k >= 0 && sim[k] >= lp; k-- {
			lp = sim[k]
		}
		rp := sim[g]
		for k := g + 1; k < len(sim) && sim[k] >= rp; k++ {
			rp = sim[k]
		}
		depth[g] = clamp01((lp - sim[g]) + (rp - sim[g]))
	}
	return depth
}

func cosine(a, b map[string]float64) float64 {
	var dot, na, nb float64
	for w, x := range a {
		na += x * x
		dot += x * b[w]
	}
	for _, y := range b {
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// stem is a crude suffix stripper so that "budget" and "budgets" match.
func stem(w string) string {
	for _, suf := range [...]string{"ing", "ed", "es", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

func isFunctionWord(w string) bool {
	for _, m := range functionWords {
		if m[w] {
			return true
		}
	}
	for _, m := range starters {
		if m[w] {
			return true
		}
	}
	return false
}
