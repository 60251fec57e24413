package g2p

import (
	"strings"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// Lexicon is a pronunciation dictionary. Lookup returns the pronunciations
// of word, each a sequence of ARPAbet phones (see [Phones]), preferred
// first, and whether the word was found. Implementations must be safe for
// concurrent use and the caller must not modify the returned slices.
type Lexicon interface {
	Lookup(word string) ([][]string, bool)
}

// MapLexicon is a Lexicon held in a map from lower-case word to
// pronunciations; Lookup lower-cases its argument.
type MapLexicon map[string][][]string

// Lookup implements [Lexicon].
func (m MapLexicon) Lookup(word string) ([][]string, bool) {
	p, ok := m[strings.ToLower(word)]
	return p, ok && len(p) > 0
}

// SphinxLexicon is a Lexicon over a dictionary loaded by the sphinx package
// (the CMU pronouncing dictionary of the en-us model). It is read-only and
// safe for concurrent use.
type SphinxLexicon struct {
	dict  *sphinx.Dict
	names []string
}

// NewSphinxLexicon wraps d, whose phone ids are those of the model
// definition m (both as sphinx.Load returns them in Model.Dict and
// Model.Mdef).
func NewSphinxLexicon(d *sphinx.Dict, m *sphinx.Mdef) *SphinxLexicon {
	return &SphinxLexicon{dict: d, names: m.CIName}
}

// Lookup implements [Lexicon]: the exact spelling first, then lower case.
// Filler (noise) words are not pronunciations and are reported missing.
func (l *SphinxLexicon) Lookup(word string) ([][]string, bool) {
	if l.dict.IsFiller(word) {
		return nil, false
	}
	ids := l.dict.Lookup(word)
	if len(ids) == 0 {
		return nil, false
	}
	out := make([][]string, 0, len(ids))
	for _, v := range ids {
		p := make([]string, len(v))
		for i, id := range v {
			if int(id) < 0 || int(id) >= len(l.names) {
				return nil, false
			}
			p[i] = l.names[id]
		}
		out = append(out, p)
	}
	return out, true
}
