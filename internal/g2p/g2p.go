package g2p

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/sottolabs/sotto"
	"golang.org/x/text/width"
)

// Pronunciation is how one token may be spoken.
type Pronunciation struct {
	// Variants are ARPAbet phone sequences, preferred first, without
	// duplicates. Nil means the token holds no speech sound that the
	// pipeline could read (the aligner decides whether to skip it or fail).
	Variants [][]string
	// Source is "lexicon" when a [Lexicon] gave Variants, else "espeak".
	Source string
	// IPA is the espeak-ng output behind each reading, in reading order.
	IPA []string
	// Fallback lists symbols mapped by articulatory features (see
	// [Mapping.Fallback]).
	Fallback []string
}

// G2P turns tokens into ARPAbet pronunciations. Its fields are set once
// before use; it is then safe for concurrent use by multiple goroutines.
type G2P struct {
	// Phonemizer runs espeak-ng; nil uses a shared one with the defaults.
	Phonemizer *Phonemizer
	// MeCab reads Japanese; nil uses a shared one running "mecab" from PATH.
	MeCab *MeCab
	// Lexicons maps a base language ("en") to a dictionary consulted
	// before espeak-ng, e.g. a [SphinxLexicon] over CMUdict for English.
	Lexicons map[string]Lexicon
	// Alternates adds [Mapping.Alternate] as a further variant of every
	// espeak-ng reading that has one.
	Alternates bool
}

// defaultPhonemizer and defaultMeCab serve a G2P or [Tokenize] call
// without its own, so that their warm processes are shared.
var (
	defaultPhonemizer = sync.OnceValue(func() *Phonemizer { return NewPhonemizer(PhonemizerConfig{}) })
	defaultMeCab      = &MeCab{}
)

// New returns a G2P that runs espeak-ng and mecab from PATH with default
// settings and consults lex (if not nil) for English words first.
func New(lex Lexicon) *G2P {
	g := &G2P{Phonemizer: NewPhonemizer(PhonemizerConfig{}), MeCab: &MeCab{}}
	if lex != nil {
		g.Lexicons = map[string]Lexicon{"en": lex}
	}
	return g
}

// Tokenize is [Tokenize] with g's MeCab.
func (g *G2P) Tokenize(ctx context.Context, text, lang string) ([]Token, error) {
	return Tokenize(ctx, g.MeCab, text, lang)
}

// Pronounce returns one Pronunciation per token, out[i] for toks[i]. Words
// found in the lexicon of their language are taken from it (a typographic
// apostrophe also matches '); all others are
// phonemised by espeak-ng, batched into one process per voice, through the
// token's readings (kana, pinyin) when it has any, and mapped with [MapIPA].
// Every reading of a token becomes a variant. A Japanese token with kanji
// that MeCab could not read gets no variant (espeak-ng would read each
// kanji as the English words "Chinese letter"). Errors: a token whose
// language has no espeak-ng voice gives a 422 *sotto.Error with code
// "language_unsupported" and Param "language"; a missing espeak-ng matches
// [ErrNoEspeak]; cancellation wraps ctx.Err().
func (g *G2P) Pronounce(ctx context.Context, toks []Token) ([]Pronunciation, error) {
	ph := g.Phonemizer
	if ph == nil {
		ph = defaultPhonemizer()
	}
	out := make([]Pronunciation, len(toks))
	routes := map[string]Route{}
	byVoice := map[string][]int{} // voice → token indices, in order
	var voices []string
	for i, t := range toks {
		if lex := g.Lexicons[BaseLanguage(t.Lang)]; lex != nil {
			v, ok := lex.Lookup(t.Text)
			if !ok && strings.ContainsRune(t.Text, '’') {
				v, ok = lex.Lookup(strings.ReplaceAll(t.Text, "’", "'"))
			}
			if ok {
				out[i] = Pronunciation{Variants: v, Source: "lexicon"}
				continue
			}
		}
		if BaseLanguage(t.Lang) == "ja" && len(t.Readings) == 0 && strings.ContainsFunc(t.Text, func(r rune) bool { return ScriptOf(r) == Han }) {
			// espeak-ng cannot read kanji ("Chinese letter"); a morpheme MeCab
			// could not read has no pronunciation rather than a wrong one.
			out[i].Source = "espeak"
			continue
		}
		if b := BaseLanguage(t.Lang); b == "" || b == "und" {
			return nil, sotto.Unsatisfiable("language_unsupported", "language",
				"g2p: cannot tell which language %q is in; pass a language", t.Text)
		}
		r, ok := routes[t.Lang]
		if !ok {
			var err error
			if r, err = ph.Route(ctx, t.Lang); err != nil {
				return nil, err
			}
			routes[t.Lang] = r
		}
		if _, ok := byVoice[r.Voice]; !ok {
			voices = append(voices, r.Voice)
		}
		byVoice[r.Voice] = append(byVoice[r.Voice], i)
		out[i].Source = "espeak"
	}
	for _, voice := range voices {
		idx := byVoice[voice]
		var inputs []string
		var owner []int
		for _, i := range idx {
			rs := toks[i].Readings
			if len(rs) == 0 {
				rs = []string{toks[i].Text}
			}
			for _, s := range rs {
				// Full-width Latin and digits (ＯＫ, ２０) read as ASCII;
				// half-width katakana as full-width.
				inputs = append(inputs, width.Fold.String(s))
				owner = append(owner, i)
			}
		}
		ipa, err := ph.IPA(ctx, voice, inputs)
		if err != nil {
			return nil, err
		}
		for j, s := range ipa {
			i := owner[j]
			m := MapIPA(routes[toks[i].Lang].Lang, s) // the route's base language
			p := &out[i]
			p.IPA = append(p.IPA, s)
			p.Fallback = append(p.Fallback, m.Fallback...)
			add := func(ph []string) {
				if len(ph) > 0 && !slices.ContainsFunc(p.Variants, func(v []string) bool { return slices.Equal(v, ph) }) {
					p.Variants = append(p.Variants, ph)
				}
			}
			add(m.Phones)
			if g.Alternates {
				add(m.Alternate)
			}
		}
	}
	return out, nil
}

// Words is a convenience for one language: it tokenises text as lang and
// pronounces the tokens.
func (g *G2P) Words(ctx context.Context, text, lang string) ([]Token, []Pronunciation, error) {
	toks, err := g.Tokenize(ctx, text, lang)
	if err != nil {
		return nil, nil, err
	}
	p, err := g.Pronounce(ctx, toks)
	if err != nil {
		return nil, nil, err
	}
	return toks, p, nil
}

// Prewarm gets ready to pronounce the given languages (BCP 47 tags) so that
// the first call does not pay for it: it lists espeak-ng's voices, starts a
// warm espeak-ng process for each language's voice and, for Japanese, a
// warm mecab. A long-running program calls it once at start (possibly in
// a goroutine); the processes end after their idle timeout like any other.
// It returns the first error (an unknown language is a 422 *sotto.Error,
// a missing program matches [ErrNoEspeak] or [ErrNoMeCab]) but still
// prepares the other languages.
func (g *G2P) Prewarm(ctx context.Context, langs ...string) error {
	ph := g.Phonemizer
	if ph == nil {
		ph = defaultPhonemizer()
	}
	var first error
	keep := func(err error) {
		if first == nil && err != nil {
			first = err
		}
	}
	for _, l := range langs {
		r, err := ph.Route(ctx, l)
		if err != nil {
			keep(err)
			continue
		}
		keep(ph.prewarm(ctx, r.Voice))
		if r.Input == InputKana {
			m := g.MeCab
			if m == nil {
				m = defaultMeCab
			}
			keep(m.prewarm(ctx))
		}
	}
	return first
}
