package align

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/g2p"
	"github.com/sottolabs/sotto/normalize"
)

// TextNormalization controls how the transcript is normalized before
// alignment. The zero value (Enabled false) aligns the transcript as
// written; [DefaultTextNormalization] is what an omitted field means.
type TextNormalization struct {
	// Enabled turns TN on: numbers, money, dates … are aligned as spoken.
	Enabled bool
	// TopK is how many readings of each region are considered and
	// reported; 0 means 8.
	TopK int
	// Classes restricts the regions normalized; nil means all.
	Classes []string
	// Pins fix the reading of a region by its source bytes.
	Pins []Pin
}

// DefaultTextNormalization is normalization on, with the default top_k.
var DefaultTextNormalization = TextNormalization{Enabled: true}

// Pin selects the reading of the region [SourceStartByte, SourceEndByte) of
// the transcript: Rank is the rank of the alternative to use, nil to keep
// the source text as written.
type Pin struct {
	SourceStartByte int  `json:"source_start_byte"`
	SourceEndByte   int  `json:"source_end_byte"`
	Rank            *int `json:"rank"`
}

// Reading is one candidate reading of a normalization region.
type Reading struct {
	Rank     int    `json:"rank"`
	Class    string `json:"class"`
	Output   string `json:"output"`
	Selected bool   `json:"selected"`
}

// Region is one stretch of the transcript that normalization changed (or a
// pin kept as written), with word-level provenance: the byte range in the
// original UTF-8 transcript, the candidate readings, and the aligned words
// of the reading that was used.
type Region struct {
	SourceStartByte int       `json:"source_start_byte"`
	SourceEndByte   int       `json:"source_end_byte"`
	Source          string    `json:"source"`
	Class           string    `json:"class,omitempty"`
	Normalizations  []Reading `json:"normalizations"`
	Words           []Word    `json:"words"`
}

// token is one unit handed to the acoustic search: a spoken word (or a
// protected term) with the source bytes it came from.
type token struct {
	// Text is the spoken form, lower-cased, without surrounding punctuation.
	Text string
	// Parts are the spoken words a protected term is made of (one element
	// otherwise); pronunciations are looked up per part and concatenated.
	Parts []string
	// Start, End are the source byte range the token came from.
	Start, End int
	// Unit indexes the display unit (a whitespace-separated source word,
	// or several joined by one region) the token belongs to.
	Unit int
	// Region indexes the normalization region, or -1.
	Region int
	// Lang is the language the token is pronounced in; Readings[i] are
	// what the phonemizer reads instead of Parts[i] (kana, pinyin), if any.
	Lang     string
	Readings [][]string
	// Prons are the token's pronunciations in the acoustic model's phones,
	// once resolved (see pronounceTokens).
	Prons [][]string
}

// unit is a word of the transcript as written, which the result reports.
type unit struct {
	Text       string
	Start, End int
}

// transcript is the prepared form of a transcript.
type transcript struct {
	Source  string
	Units   []unit
	Tokens  []token
	Regions []Region
}

// span is a chosen replacement of source bytes by spoken text.
type span struct {
	start, end int
	output     string
	region     int
	protected  bool
}

// prepare normalizes text (when tn.Enabled), applies pins and protected
// terms, and splits the result into spoken tokens that keep their source
// byte ranges. lang is a BCP 47 tag or "und"; languages without
// normalization rules are aligned as written.
func prepare(ctx context.Context, text, lang string, tn TextNormalization, protected []string) (*transcript, error) {
	if i := invalidUTF8(text); i >= 0 {
		// Tokenizers (MeCab) replace a bad byte, and their words no
		// longer map back onto the text's bytes.
		return nil, sotto.Invalid("bad_request", "text", "align: the transcript is not valid UTF-8 (byte %d)", i)
	}
	t := &transcript{Source: text}
	var spans []span
	prot := protectedRanges(text, protected)
	for _, r := range prot {
		spans = append(spans, span{start: r[0], end: r[1], output: text[r[0]:r[1]], region: -1, protected: true})
	}
	if tn.Enabled {
		regions, chosen, err := normalizeRegions(ctx, text, lang, tn, prot)
		if err != nil {
			return nil, err
		}
		t.Regions = regions
		spans = append(spans, chosen...)
	} else if len(tn.Pins) > 0 {
		return nil, sotto.Invalid("bad_request", "text_normalization.pins", "pins need text normalization enabled")
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	words, err := tokenizeSource(ctx, text, lang, spans)
	if err != nil {
		return nil, err
	}
	t.Units = sourceUnits(text, spans, words)
	t.Tokens, err = spokenTokens(ctx, text, lang, spans, words, t.Units)
	if err != nil {
		return nil, err
	}
	if len(t.Tokens) == 0 {
		return nil, noWords()
	}
	return t, nil
}

func noWords() error {
	e := sotto.Unsatisfiable("alignment_failed", "", "align: the transcript has no words to align")
	e.Detail = Failure{Reason: ReasonNoWords, SearchPath: PathWholeAudio, SearchLimit: LimitNone}
	return e
}

// protectedRanges finds each protected term in text, case-insensitively and
// at word boundaries, longest terms first; ranges do not overlap.
func protectedRanges(text string, terms []string) [][2]int {
	terms = slices.Clone(terms)
	slices.SortFunc(terms, func(a, b string) int { return len(b) - len(a) })
	lower := lowerSameLength(text)
	var out [][2]int
	taken := func(s, e int) bool {
		for _, r := range out {
			if s < r[1] && r[0] < e {
				return true
			}
		}
		return false
	}
	for _, term := range terms {
		term = strings.TrimSpace(term)
		if term == "" {
			continue
		}
		lt := lowerSameLength(term)
		for from := 0; ; {
			i := strings.Index(lower[from:], lt)
			if i < 0 {
				break
			}
			s, e := from+i, from+i+len(lt)
			from = e
			if !wordBoundary(text, s, e) || taken(s, e) {
				continue
			}
			out = append(out, [2]int{s, e})
		}
	}
	return out
}

// lowerSameLength lower-cases s rune by rune where that keeps the UTF-8
// length, so byte offsets into the result hold for s; other runes and
// invalid bytes are kept as they are.
func lowerSameLength(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			if l := unicode.ToLower(r); l != r && utf8.RuneLen(l) == n {
				utf8.EncodeRune(b[i:], l)
			}
		}
		i += n
	}
	return string(b)
}

func wordBoundary(text string, s, e int) bool {
	if s > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:s])
		if isWordRune(r) {
			return false
		}
	}
	if e < len(text) {
		r, _ := utf8.DecodeRuneInString(text[e:])
		if isWordRune(r) {
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// normalizeRegions runs TN and chooses one reading per region: rank 0, or
// the pinned rank. Regions overlapping a protected term are dropped.
func normalizeRegions(ctx context.Context, text, lang string, tn TextNormalization, prot [][2]int) ([]Region, []span, error) {
	topK := tn.TopK
	if topK == 0 {
		topK = normalize.DefaultTopK
	}
	if lang == "" {
		lang = "und"
	}
	res, err := normalize.Normalize(ctx, text, normalize.Options{Language: lang, Mode: normalize.TN, TopK: topK, Classes: tn.Classes})
	if err != nil {
		var se *sotto.Error
		if errors.As(err, &se) && se.Code == "normalization_language_unsupported" {
			return nil, nil, checkPinsUnused(tn.Pins) // no rules: align as written
		}
		if errors.As(err, &se) && se.Code == "normalization_class_unsupported" {
			return nil, nil, sotto.Invalid("bad_request", "text_normalization.classes", "%s", se.Message)
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, err
	}
	// Collect every distinct range any alternative changed, with readings.
	type key struct{ s, e int }
	byRange := map[key]*Region{}
	var order []key
	for _, alt := range res.Alternatives {
		for _, sp := range alt.Spans {
			k := key{sp.StartByte, sp.EndByte}
			r := byRange[k]
			if r == nil {
				r = &Region{SourceStartByte: sp.StartByte, SourceEndByte: sp.EndByte, Source: sp.Source, Words: []Word{}}
				byRange[k] = r
				order = append(order, k)
			}
			dup := false
			for _, rd := range r.Normalizations {
				dup = dup || rd.Output == sp.Output
			}
			if !dup {
				r.Normalizations = append(r.Normalizations, Reading{Rank: alt.Rank, Class: sp.Class, Output: sp.Output})
			}
		}
	}
	// The reading used: rank 0's spans, then pins.
	chosen := map[key]string{}
	if len(res.Alternatives) > 0 {
		for _, sp := range res.Alternatives[0].Spans {
			chosen[key{sp.StartByte, sp.EndByte}] = sp.Output
		}
	}
	for i, p := range tn.Pins {
		k := key{p.SourceStartByte, p.SourceEndByte}
		r := byRange[k]
		if r == nil {
			return nil, nil, sotto.Invalid("bad_request", "text_normalization.pins",
				"pin %d: bytes %d..%d are not a normalization region of the transcript", i, k.s, k.e)
		}
		if p.Rank == nil {
			chosen[k] = r.Source
			continue
		}
		out, ok := "", false
		for _, alt := range res.Alternatives {
			if alt.Rank != *p.Rank {
				continue
			}
			out, ok = r.Source, true // an alternative without a span here keeps the source
			for _, sp := range alt.Spans {
				if sp.StartByte == k.s && sp.EndByte == k.e {
					out = sp.Output
				}
			}
		}
		if !ok {
			return nil, nil, sotto.Invalid("bad_request", "text_normalization.pins",
				"pin %d: rank %d is not among the %d readings", i, *p.Rank, len(res.Alternatives))
		}
		chosen[k] = out
	}
	// Keep chosen, non-overlapping regions that avoid protected terms.
	slices.SortFunc(order, func(a, b key) int {
		if a.s != b.s {
			return a.s - b.s
		}
		return b.e - a.e
	})
	var regions []Region
	var spans []span
	last := -1
	for _, k := range order {
		out, ok := chosen[k]
		if !ok || k.s < last {
			continue
		}
		overlap := false
		for _, p := range prot {
			overlap = overlap || (k.s < p[1] && p[0] < k.e)
		}
		if overlap {
			continue
		}
		r := byRange[k]
		for i := range r.Normalizations {
			r.Normalizations[i].Selected = r.Normalizations[i].Output == out
		}
		if out != r.Source && len(r.Normalizations) > 0 {
			for _, rd := range r.Normalizations {
				if rd.Selected {
					r.Class = rd.Class
				}
			}
		}
		regions = append(regions, *r)
		spans = append(spans, span{start: k.s, end: k.e, output: out, region: len(regions) - 1})
		last = k.e
	}
	return regions, spans, nil
}

func checkPinsUnused(pins []Pin) error {
	if len(pins) > 0 {
		return sotto.Invalid("bad_request", "text_normalization.pins", "the language has no normalization rules, so there is nothing to pin")
	}
	return nil
}

// noSpaceScript reports whether words of the script are written without
// spaces between them, so that each token is a word of its own.
func noSpaceScript(sc g2p.Script) bool {
	switch sc {
	case g2p.Han, g2p.Kana, g2p.Thai:
		return true
	}
	return false
}

// mecab reads Japanese for the tokenizer; it runs the mecab program.
var mecab = &g2p.MeCab{}

// tokenizeSource splits the source text outside spans into words with
// their byte offsets, language and readings.
func tokenizeSource(ctx context.Context, text, lang string, spans []span) ([]spokenWord, error) {
	toks, err := g2p.Tokenize(ctx, mecab, text, lang)
	if err != nil {
		return nil, tokenizeError(err)
	}
	// spans is sorted by start: a span overlaps the token when one of
	// those starting before the token's end ends after its start, that is
	// when the greatest end among them does. (A scan of every span for
	// every token made a long transcript quadratic.)
	maxEnd := make([]int, len(spans))
	for k, s := range spans {
		maxEnd[k] = s.end
		if k > 0 {
			maxEnd[k] = max(maxEnd[k], maxEnd[k-1])
		}
	}
	var out []spokenWord
	for _, tk := range toks {
		k := sort.Search(len(spans), func(k int) bool { return spans[k].start >= tk.End })
		if k > 0 && maxEnd[k-1] > tk.Start {
			continue // inside a span
		}
		if w := spokenOf(tk); w.text != "" {
			out = append(out, w)
		}
	}
	return out, nil
}

func tokenizeError(err error) error {
	switch {
	case errors.Is(err, g2p.ErrNoMeCab):
		return &sotto.Error{Kind: sotto.ErrNotImplemented, Code: "capability_unavailable",
			Message: "align: Japanese needs the mecab program and its IPADIC dictionary (apt-get install mecab mecab-ipadic-utf8)", Err: err}
	case errors.Is(err, g2p.ErrNoEspeak):
		return &sotto.Error{Kind: sotto.ErrNotImplemented, Code: "capability_unavailable",
			Message: "align: pronouncing this language needs espeak-ng (apt-get install espeak-ng)", Err: err}
	}
	return err
}

type spokenWord struct {
	text       string
	start, end int
	lang       string
	script     g2p.Script
	readings   []string
}

func spokenOf(tk g2p.Token) spokenWord {
	w := strings.ToLower(strings.Trim(tk.Text, "'’"))
	return spokenWord{text: w, start: tk.Start, end: tk.End, lang: tk.Lang, script: tk.Script, readings: tk.Readings}
}

// sourceUnits splits text into the words as written that the result
// reports: whitespace-separated words, each token of a script written
// without spaces on its own, and the words a span or protected term
// crosses joined into one.
func sourceUnits(text string, spans []span, words []spokenWord) []unit {
	var cuts [][2]int // stretches that must not be split further
	for _, w := range words {
		if noSpaceScript(w.script) {
			cuts = append(cuts, [2]int{w.start, w.end})
		}
	}
	// Both lookups run at every byte of a word: as scans of every span
	// and cut they made a long transcript quadratic (16 MiB of text ran
	// for minutes). spans is sorted by start; when no two overlap, the
	// one that can hold i is the last starting at or before it.
	overlap := false
	for k := 1; k < len(spans); k++ {
		overlap = overlap || spans[k].start < spans[k-1].end
	}
	inSpan := func(i int) (int, bool) {
		if !overlap {
			k := sort.Search(len(spans), func(k int) bool { return spans[k].start > i }) - 1
			if k >= 0 && i < spans[k].end {
				return spans[k].end, true
			}
			return 0, false
		}
		for _, s := range spans {
			if i >= s.start && i < s.end {
				return s.end, true
			}
		}
		return 0, false
	}
	cutEnd := make(map[int]int, len(cuts))
	for _, c := range cuts {
		if _, ok := cutEnd[c[0]]; !ok {
			cutEnd[c[0]] = c[1] // the first cut starting there, as a scan finds it
		}
	}
	cutAt := func(i int) (int, bool) {
		e, ok := cutEnd[i]
		return e, ok
	}
	var units []unit
	i := 0
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			i += n
			continue
		}
		start := i
		if e, ok := cutAt(i); ok {
			// A word of a no-space script is a unit, with trailing punctuation.
			i = e
			for i < len(text) {
				r, n := utf8.DecodeRuneInString(text[i:])
				if unicode.IsSpace(r) || isWordRune(r) {
					break
				}
				i += n
			}
			units = append(units, unit{Text: text[start:i], Start: start, End: i})
			continue
		}
		for i < len(text) {
			if e, ok := inSpan(i); ok && e > i {
				i = e
				continue
			}
			if _, ok := cutAt(i); ok && i > start {
				break
			}
			r, n := utf8.DecodeRuneInString(text[i:])
			if unicode.IsSpace(r) {
				break
			}
			i += n
		}
		units = append(units, unit{Text: text[start:i], Start: start, End: i})
	}
	return units
}

// spokenTokens produces the tokens of the spoken form: the source words
// outside spans, and for each span the words of its output (a protected
// term stays one token), in text order.
func spokenTokens(ctx context.Context, text, lang string, spans []span, words []spokenWord, units []unit) ([]token, error) {
	// units are in text order and do not overlap (sourceUnits): the one
	// that can hold pos is the first ending after it. (A scan of every
	// unit for every token made a long transcript quadratic.)
	unitOf := func(pos int) int {
		i := sort.Search(len(units), func(i int) bool { return units[i].End > pos })
		if i < len(units) && pos >= units[i].Start {
			return i
		}
		return max(len(units)-1, 0)
	}
	var toks []token
	wi := 0
	flushWords := func(upto int) {
		for wi < len(words) && words[wi].start < upto {
			w := words[wi]
			toks = append(toks, token{Text: w.text, Parts: []string{w.text}, Start: w.start, End: w.end,
				Unit: unitOf(w.start), Region: -1, Lang: w.lang, Readings: [][]string{w.readings}})
			wi++
		}
	}
	for _, s := range spans {
		flushWords(s.start)
		out, err := g2p.Tokenize(ctx, mecab, s.output, spanLanguage(lang, s.output))
		if err != nil {
			return nil, tokenizeError(err)
		}
		var parts []spokenWord
		for _, tk := range out {
			if w := spokenOf(tk); w.text != "" {
				parts = append(parts, w)
			}
		}
		if len(parts) == 0 {
			continue
		}
		if s.protected {
			texts := make([]string, len(parts))
			readings := make([][]string, len(parts))
			for i, p := range parts {
				texts[i], readings[i] = p.text, p.readings
			}
			toks = append(toks, token{Text: strings.Join(texts, " "), Parts: texts, Start: s.start, End: s.end,
				Unit: unitOf(s.start), Region: -1, Lang: parts[0].lang, Readings: readings})
			continue
		}
		for _, p := range parts {
			toks = append(toks, token{Text: p.text, Parts: []string{p.text}, Start: s.start, End: s.end,
				Unit: unitOf(s.start), Region: s.region, Lang: p.lang, Readings: [][]string{p.readings}})
		}
	}
	flushWords(len(text) + 1)
	return toks, nil
}

// spanLanguage is the language a normalized output is read in: the
// request's, or for und the one its text suggests.
func spanLanguage(lang, output string) string {
	if lang != "" && lang != "und" {
		return lang
	}
	return ""
}

// invalidUTF8 returns the byte offset of the first invalid UTF-8 sequence
// of s, or -1.
func invalidUTF8(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
	}
	return -1
}
