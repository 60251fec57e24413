package align

import (
	"context"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/g2p"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// maxVariants bounds the pronunciations of one token handed to the search.
const maxVariants = 4

var g2ps sync.Map // *sphinx.Model → *g2p.G2P

// g2pFor returns the grapheme-to-phoneme converter for a model: its
// dictionary first for English, espeak-ng for everything else.
func g2pFor(m *sphinx.Model) *g2p.G2P {
	if g, ok := g2ps.Load(m); ok {
		return g.(*g2p.G2P)
	}
	g, _ := g2ps.LoadOrStore(m, g2p.New(g2p.NewSphinxLexicon(m.Dict, m.Mdef)))
	return g.(*g2p.G2P)
}

// pronounceTokens resolves the pronunciations of every token in one batch
// (one espeak-ng process per voice) and stores them in Token.Prons. A
// protected term's pronunciations are those of its parts concatenated. A
// token nothing can pronounce is a 422 language_unsupported naming it.
func pronounceTokens(ctx context.Context, g *g2p.G2P, toks []token) error {
	var batch []g2p.Token
	type ref struct{ tok, part int }
	var refs []ref
	for i, tk := range toks {
		for j, p := range tk.Parts {
			gt := g2p.Token{Text: p, Lang: tk.Lang}
			if r, _ := utf8.DecodeRuneInString(p); r != utf8.RuneError {
				gt.Script = g2p.ScriptOf(r)
			}
			if j < len(tk.Readings) {
				gt.Readings = tk.Readings[j]
			}
			batch = append(batch, gt)
			refs = append(refs, ref{i, j})
		}
	}
	prons, err := g.Pronounce(ctx, batch)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return tokenizeError(err)
	}
	parts := make([][][][]string, len(toks)) // token → part → variants
	for i := range toks {
		parts[i] = make([][][]string, len(toks[i].Parts))
	}
	for k, p := range prons {
		parts[refs[k].tok][refs[k].part] = p.Variants
	}
	for i := range toks {
		combined := [][]string{nil}
		for j, vs := range parts[i] {
			if len(vs) == 0 {
				return sotto.Unsatisfiable("language_unsupported", "text",
					"align: no pronunciation for %q (language %s)", toks[i].Parts[j], orUnd(toks[i].Lang))
			}
			var next [][]string
			for _, c := range combined {
				for _, v := range vs {
					if len(next) < maxVariants {
						next = append(next, append(append([]string(nil), c...), v...))
					}
				}
			}
			combined = next
		}
		toks[i].Prons = combined
	}
	return nil
}

func orUnd(lang string) string {
	if lang == "" {
		return "und"
	}
	return lang
}

// lexiconText renders the tokens' pronunciations as a CMU dictionary with
// one entry per token, labelled w0000, w0001 …, and returns the labels.
func lexiconText(toks []token) (string, []string) {
	var b strings.Builder
	labels := make([]string, len(toks))
	for i, tk := range toks {
		labels[i] = label(i)
		for v, p := range tk.Prons {
			b.WriteString(labels[i])
			if v > 0 {
				b.WriteString("(")
				b.WriteString(itoa(v + 1))
				b.WriteString(")")
			}
			for _, ph := range p {
				b.WriteByte(' ')
				b.WriteString(ph)
			}
			b.WriteByte('\n')
		}
	}
	return b.String(), labels
}

func label(i int) string {
	s := itoa(i)
	for len(s) < 4 {
		s = "0" + s
	}
	return "w" + s
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

// maxSegmentRunes bounds the dictionary words tried when segmenting
// Chinese text (idioms and names in the pack dictionary are longer than
// two characters, but not this long).
const maxSegmentRunes = 16

// pronounceFromDict resolves every token from the dictionary of a language
// pack's model, for the pack's language: Chinese text is segmented into
// dictionary words, longest match first from the left; other languages look
// each word up as written, then lower-cased. A word the dictionary lacks is
// a 422 out_of_vocabulary listing every such word (the pack's phone set is
// not espeak-ng's, so there is no g2p fallback).
func pronounceFromDict(m *sphinx.Model, lang string, toks []token) error {
	var missing []string
	seen := map[string]bool{}
	miss := func(w string) {
		if !seen[w] {
			seen[w] = true
			missing = append(missing, w)
		}
	}
	names := func(p []int16) []string {
		out := make([]string, len(p))
		for i, ph := range p {
			out[i] = m.Mdef.CIName[ph]
		}
		return out
	}
	for i := range toks {
		combined := [][]string{nil}
		ok := true
		for _, part := range toks[i].Parts {
			words := []string{part}
			if lang == "zh" {
				var bad string
				if words, bad = segmentLongest(m.Dict, part); bad != "" {
					miss(bad)
					ok = false
					continue
				}
			} else if m.Dict.Lookup(part) == nil {
				miss(part)
				ok = false
				continue
			}
			for _, w := range words {
				var next [][]string
				for _, c := range combined {
					for _, v := range m.Dict.Lookup(w) {
						if len(next) < maxVariants {
							next = append(next, append(append([]string(nil), c...), names(v)...))
						}
					}
				}
				combined = next
			}
		}
		if ok {
			toks[i].Prons = combined
		}
	}
	if len(missing) == 0 {
		return nil
	}
	shown := missing
	if len(shown) > 20 {
		shown = shown[:20]
	}
	e := sotto.Unsatisfiable("out_of_vocabulary", "text",
		"align: %d word(s) are not in the %s pack dictionary: %s", len(missing), lang, strings.Join(shown, " "))
	e.Detail = map[string]any{"language": lang, "words": missing}
	return e
}

// segmentLongest splits s into words of d, taking at each position the
// longest dictionary word (up to maxSegmentRunes runes). It returns the
// words, or the first character no dictionary word starts with.
func segmentLongest(d *sphinx.Dict, s string) ([]string, string) {
	r := []rune(s)
	var out []string
	for i := 0; i < len(r); {
		j := min(len(r), i+maxSegmentRunes)
		for ; j > i; j-- {
			if d.Lookup(string(r[i:j])) != nil {
				break
			}
		}
		if j == i {
			return nil, string(r[i])
		}
		out = append(out, string(r[i:j]))
		i = j
	}
	return out, ""
}
