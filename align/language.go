package align

import "context"

// resolveLanguage picks the language for pronunciation and normalization.
func resolveLanguage(lang, text string) (string, []string) {
	switch lang {
	case "und":
		return "und", nil
	case "":
		return "en", []string{"en"}
	}
	return lang, []string{lang}
}

// Phonemize, when set, gives the pronunciation of a word the dictionary
// lacks, in the acoustic model's phone names (the g2p package sets it).
var Phonemize func(ctx context.Context, lang, word string) ([]string, error)
