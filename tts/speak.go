package tts

import (
	"context"
	"iter"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/segment"
)

// lookahead is how many sentences [Speak] synthesizes ahead of the one
// being delivered.
const lookahead = 2

// Speak turns written text into speech with b: it splits the text into
// sentences with package segment, normalizes each for the voice's language
// (TN: "$12.50 at 3:30 pm" becomes words), and synthesizes them in order,
// calling emit with each sentence's audio as soon as it and every sentence
// before it are done, so the first audio leaves before the rest is spoken.
// The first sentence is synthesized alone; from then on the next ones are
// synthesized while one is delivered. With opts.Marks each chunk carries
// the times of its words (see [Mark]); where those need a forced alignment
// of the audio (every engine but flite), the chunk is sent first with
// MarksFollow set and its marks follow in a chunk without samples, so the
// alignment never delays the audio. emit is called from the calling
// goroutine only; a non-nil error from it stops the work and is returned.
// Cancelling ctx stops every synthesis in flight.
func Speak(ctx context.Context, b Backend, text string, opts Options, emit func(Chunk) error) error {
	v, ok := FindVoice(b, opts.Voice)
	if !ok {
		return unknownVoice(opts.Voice)
	}
	lang := opts.Language
	if lang == "" || lang == "auto" {
		lang = v.Languages[0]
	}
	sents, err := prepare(ctx, text, lang)
	if err != nil {
		return err
	}
	if len(sents) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	base := baseLanguage(lang)
	type result struct {
		chunk Chunk
		err   error
		// marks, when not nil, delivers the marks of chunk (times from the
		// start of the sentence) once the forced alignment is done: the
		// audio goes out first.
		marks chan []Mark
	}
	pending := make([]chan result, len(sents))
	start := func(i int) {
		ch := make(chan result, 1)
		pending[i] = ch
		go func() {
			var r result
			r.err = b.Synthesize(ctx, sents[i].spoken, opts, func(c Chunk) error {
				if c.Rate > 0 { // the engine's phone times, from the start of the sentence
					before := float64(len(r.chunk.Samples)) / float64(c.Rate)
					for _, p := range c.Phones {
						r.chunk.Phones = append(r.chunk.Phones, PhoneTime{p.Phone, before + p.Start, before + p.End})
					}
				}
				r.chunk.Samples = append(r.chunk.Samples, c.Samples...)
				r.chunk.Rate = c.Rate
				return nil
			})
			if r.err != nil || !opts.Marks || len(r.chunk.Samples) == 0 {
				ch <- r
				return
			}
			// The engine's own timings cost a fraction of a millisecond:
			// they travel with the audio. Forced alignment costs about as
			// long as the synthesis, so the audio is sent without waiting
			// for it, and the marks follow.
			if m, ok := sents[i].engineTimes(ctx, r.chunk, base); ok {
				r.chunk.Marks, r.chunk.MarksSource = m, MarksEngine
				ch <- r
				return
			}
			r.marks = make(chan []Mark, 1)
			r.chunk.MarksFollow = true
			chunk := r.chunk
			ch <- r
			r.marks <- sents[i].marks(ctx, chunk, base, 0)
		}()
	}
	start(0)
	started := 1
	offset := 0.0 // seconds spoken before the current sentence
	for i := range sents {
		var r result
		select {
		case r = <-pending[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if r.err != nil {
			return r.err
		}
		for ; started < len(sents) && started <= i+lookahead; started++ {
			start(started)
		}
		if len(r.chunk.Samples) == 0 {
			continue
		}
		r.chunk.Marks = place(r.chunk.Marks, offset)
		at := offset
		offset += float64(len(r.chunk.Samples)) / float64(r.chunk.Rate)
		if err := emit(r.chunk); err != nil {
			return err
		}
		if r.marks == nil {
			continue
		}
		var ms []Mark
		select {
		case ms = <-r.marks:
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := emit(Chunk{Rate: r.chunk.Rate, Marks: place(ms, at), MarksSource: MarksAlignment}); err != nil {
			return err
		}
	}
	return nil
}

// place shifts marks timed from the start of their sentence by the seconds
// spoken before it, to the millisecond.
func place(marks []Mark, offset float64) []Mark {
	for k := range marks {
		marks[k].Start = round3(offset + marks[k].Start)
		marks[k].End = round3(offset + marks[k].End)
	}
	return marks
}

// Stream is [Speak] as an iterator: chunks in order, an error yielded once,
// last. Each range runs the synthesis anew.
func Stream(ctx context.Context, b Backend, text string, opts Options) iter.Seq2[Chunk, error] {
	return backend.Seq(ctx, func(ctx context.Context, emit func(Chunk) error) error {
		return Speak(ctx, b, text, opts, emit)
	})
}

// Sentences prepares text for a voice of language lang the way [Speak]
// does: split into sentences with package segment, each normalized (TN)
// where package normalize has rules for the language (kept as written where
// it has none). Blank sentences are dropped.
func Sentences(ctx context.Context, text, lang string) ([]string, error) {
	ss, err := prepare(ctx, text, lang)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.spoken
	}
	return out, nil
}

// sentence is one sentence ready to speak: its spoken text, and for each
// spoken word the input bytes it reads.
type sentence struct {
	spoken string
	words  []spokenWord
}

// spokenWord is a word of sentence.spoken and the byte range of the input
// it comes from (for a word of a normalized region, the whole region:
// "twelve" in "$12.50" reads bytes of "$12.50").
type spokenWord struct {
	text             string
	srcStart, srcEnd int
}

func prepare(ctx context.Context, text, lang string) ([]sentence, error) {
	base := baseLanguage(lang)
	parts, err := segment.Sentences(ctx, text, segment.Options{Language: base})
	if err != nil {
		return nil, err
	}
	var out []sentence
	cursor := 0
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			continue
		}
		a, b, ok := locate(text, cursor, p)
		src := p
		if ok {
			cursor, src = b, text[a:b]
		} else {
			a = -1 // segment changed the text: no byte ranges for this sentence
		}
		s, err := speakable(ctx, src, base, a)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(s.spoken) != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

// locate finds sentence in text at or after from, matching its non-space
// runes in order and skipping white space on both sides; it returns the
// byte range of the match.
func locate(text string, from int, sentence string) (int, int, bool) {
	want := strings.Fields(sentence)
	if len(want) == 0 {
		return 0, 0, false
	}
	first, _ := utf8.DecodeRuneInString(want[0])
	for start := from; start < len(text); {
		i := strings.IndexRune(text[start:], first)
		if i < 0 {
			return 0, 0, false
		}
		at := start + i
		if end, ok := matchFrom(text, at, sentence); ok {
			return at, end, true
		}
		start = at + utf8.RuneLen(first)
	}
	return 0, 0, false
}

func matchFrom(text string, at int, sentence string) (int, bool) {
	i := at
	for _, r := range sentence {
		if unicode.IsSpace(r) {
			continue
		}
		for i < len(text) {
			c, n := utf8.DecodeRuneInString(text[i:])
			if !unicode.IsSpace(c) {
				break
			}
			i += n
		}
		c, n := utf8.DecodeRuneInString(text[i:])
		if i >= len(text) || c != r {
			return 0, false
		}
		i += n
	}
	return i, true
}

// speakable normalizes one sentence (src starts at byte off of the input,
// or off < 0 when unknown) and maps its spoken words back to input bytes.
func speakable(ctx context.Context, src, base string, off int) (sentence, error) {
	spoken, spans := src, []normalize.Span(nil)
	if base != "" && slices.Contains(normalize.Languages(), base) {
		res, err := normalize.Normalize(ctx, src, normalize.Options{Language: base, Mode: normalize.TN, TopK: 1})
		if err != nil {
			return sentence{}, err
		}
		if len(res.Alternatives) > 0 {
			spoken, spans = res.Alternatives[0].Text, res.Alternatives[0].Spans
		}
	}
	s := sentence{spoken: spoken}
	var pieces []piece
	if off >= 0 {
		pieces = mapSpoken(spoken, src, spans)
	}
	for i := 0; i < len(spoken); {
		r, n := utf8.DecodeRuneInString(spoken[i:])
		if unicode.IsSpace(r) {
			i += n
			continue
		}
		j := i
		for j < len(spoken) {
			r, n := utf8.DecodeRuneInString(spoken[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += n
		}
		// The word without the punctuation around it ("time." is "time").
		a, z := i, j
		for a < z {
			r, n := utf8.DecodeRuneInString(spoken[a:])
			if !unicode.IsPunct(r) {
				break
			}
			a += n
		}
		for z > a {
			r, n := utf8.DecodeLastRuneInString(spoken[:z])
			if !unicode.IsPunct(r) {
				break
			}
			z -= n
		}
		i = j
		if a == z {
			continue
		}
		w := spokenWord{text: spoken[a:z], srcStart: -1, srcEnd: -1}
		if pieces != nil {
			w.srcStart, w.srcEnd = off+sourceStart(pieces, a), off+sourceEnd(pieces, z)
		}
		s.words = append(s.words, w)
	}
	return s, nil
}

// piece relates spoken bytes [at, to) of a sentence to source bytes
// [srcStart, srcEnd) of it. An exact piece is the source byte for byte; a
// word that starts or ends inside any other piece (the output of a
// normalized span, or a run of letters and marks that normalize read in
// NFC: "e\u0301" spoken as "é") reads all of its source.
type piece struct {
	at, to, srcStart, srcEnd int
	exact                    bool
}

// mapSpoken splits spoken, the normalized text of the sentence src with the
// changed spans, into pieces that tile both, or returns nil when spoken is
// not src with the spans replaced by their output and the rest in NFC or as
// written (then no word is traced). Package normalize writes the text
// between spans in NFC where it composed the input's letters and marks, so
// that text is the source shifted only for input already in NFC.
func mapSpoken(spoken, src string, spans []normalize.Span) []piece {
	var ps []piece
	at, prev := 0, 0
	for _, sp := range spans {
		if sp.StartByte < prev || sp.EndByte < sp.StartByte || sp.EndByte > len(src) {
			return nil
		}
		var ok bool
		if ps, at, ok = mapGap(ps, spoken, at, src, prev, sp.StartByte); !ok {
			return nil
		}
		if !strings.HasPrefix(spoken[at:], sp.Output) {
			return nil
		}
		ps = append(ps, piece{at, at + len(sp.Output), sp.StartByte, sp.EndByte, false})
		at, prev = at+len(sp.Output), sp.EndByte
	}
	ps, at, ok := mapGap(ps, spoken, at, src, prev, len(src))
	if !ok || at != len(spoken) {
		return nil
	}
	return ps
}

// mapGap appends the pieces of source bytes [from, to), text outside the
// spans, found in spoken at byte at, and returns where it ends in spoken.
// Text already in NFC is one exact piece; otherwise it is read a run at a
// time (a character and the marks that may compose with it, as normalize
// reads them), each run as written or in NFC.
func mapGap(ps []piece, spoken string, at int, src string, from, to int) ([]piece, int, bool) {
	gap := src[from:to]
	if strings.HasPrefix(spoken[at:], gap) {
		return addExact(ps, at, from, len(gap)), at + len(gap), true
	}
	for i := from; i < to; {
		j := i + runeLen(src[i:to])
		for j < to && !norm.NFC.PropertiesString(src[j:to]).BoundaryBefore() {
			j += runeLen(src[j:to])
		}
		run := src[i:j]
		switch rest := spoken[at:]; {
		case strings.HasPrefix(rest, run):
			ps = addExact(ps, at, i, len(run))
			at += len(run)
		case strings.HasPrefix(rest, norm.NFC.String(run)):
			n := len(norm.NFC.String(run))
			ps = append(ps, piece{at, at + n, i, j, false})
			at += n
		default:
			return ps, at, false
		}
		i = j
	}
	return ps, at, true
}

// addExact appends n bytes that are the same in spoken (at at) and in the
// source (at src), joined to the piece before when that is exact and ends
// where they start.
func addExact(ps []piece, at, src, n int) []piece {
	if n == 0 {
		return ps
	}
	if k := len(ps) - 1; k >= 0 && ps[k].exact && ps[k].to == at && ps[k].srcEnd == src {
		ps[k].to, ps[k].srcEnd = at+n, src+n
		return ps
	}
	return append(ps, piece{at, at + n, src, src + n, true})
}

// runeLen is the length of the first rune of s (1 for a byte that is not
// UTF-8); s is not empty.
func runeLen(s string) int {
	_, n := utf8.DecodeRuneInString(s)
	return n
}

// sourceStart maps spoken byte i, the start of a word, to the source: the
// start of the piece it falls in, unless that piece is exact.
func sourceStart(ps []piece, i int) int {
	k := sort.Search(len(ps), func(k int) bool { return ps[k].to > i })
	if k == len(ps) {
		return ps[len(ps)-1].srcEnd
	}
	if p := ps[k]; p.exact {
		return p.srcStart + i - p.at
	}
	return ps[k].srcStart
}

// sourceEnd maps spoken byte j, the end of a word, to the source: the end
// of the piece it falls in, unless that piece is exact.
func sourceEnd(ps []piece, j int) int {
	k := sort.Search(len(ps), func(k int) bool { return ps[k].to >= j })
	if k == len(ps) {
		return ps[len(ps)-1].srcEnd
	}
	if p := ps[k]; p.exact || j == p.at {
		return p.srcStart + j - p.at
	}
	return ps[k].srcEnd
}

// baseLanguage returns the base language subtag of a BCP 47 tag ("en" for
// "en-US"), or "" when it does not parse.
func baseLanguage(tag string) string {
	t, err := language.Parse(tag)
	if err != nil {
		return ""
	}
	b, _ := t.Base()
	return b.String()
}

func unknownVoice(id string) error {
	return sotto.Invalid("bad_request", "voice", "voice %q is not one of this model's voices (GET /v1/audio/voices lists them)", id)
}

func unknownVariant(v string) error {
	return sotto.Invalid("bad_request", "variant", "voice variant %q is not installed", v)
}
