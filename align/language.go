package align

import (
	"context"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto/internal/g2p"
)

// resolveLanguage picks the language for pronunciation and normalization
// and the candidates reported: "und" routes word by word (by script) and
// reports none; "" detects the language from the transcript (script and
// function-word statistics), preferred first; a tag is used as given.
func resolveLanguage(lang, text string) (string, []string) {
	switch lang {
	case "und":
		return "und", nil
	case "":
		// Runners-up are reported when they are real alternatives: at
		// least 0.1 and 40 % of the best score (a few words of English
		// also read as Polish or Danish at a fifth of its score).
		var out []string
		cs := g2p.Candidates(text)
		for _, c := range cs {
			if len(out) == 3 || (len(out) > 0 && (c.Score < 0.1 || c.Score < 0.4*cs[0].Score)) {
				break
			}
			out = append(out, c.Lang)
		}
		if len(out) == 0 {
			return "en", []string{"en"}
		}
		return out[0], out
	}
	if t, err := language.Parse(lang); err == nil {
		lang = t.String()
	}
	return lang, []string{lang}
}

// Phonemize gives the pronunciation of one word through espeak-ng (MeCab
// for Japanese, pinyin for Chinese) in the acoustic model's phone names,
// the route the aligner takes for words its dictionary lacks and for every
// non-English word. Tools that build a peer's dictionary use it to give
// the peer the same pronunciations.
var Phonemize = phonemizeWord

// wordG2P pronounces single words for Phonemize (no dictionary: the
// caller looks words up in its own first).
var wordG2P = g2p.New(nil)

// phonemizeWord pronounces one word; several tokens (a word the tokenizer
// splits) are concatenated.
func phonemizeWord(ctx context.Context, lang, word string) ([]string, error) {
	toks, err := g2p.Tokenize(ctx, mecab, word, lang)
	if err != nil {
		return nil, tokenizeError(err)
	}
	prons, err := wordG2P.Pronounce(ctx, toks)
	if err != nil {
		return nil, tokenizeError(err)
	}
	var out []string
	for _, p := range prons {
		if len(p.Variants) > 0 {
			out = append(out, p.Variants[0]...)
		}
	}
	return out, nil
}
