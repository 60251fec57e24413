package server

import (
	"golang.org/x/text/language"
)

const (
	pathTranscriptions = "/v1/audio/transcriptions"
	pathAlignments     = "/v1/audio/alignments"
	pathSpeech         = "/v1/audio/speech"
)

// languageIn reports whether tag's base language is one of langs. A tag
// without a language of its own ("und", "und-US", "und-Zzzz") is in none:
// x/text would guess one from the region or script.
func languageIn(tag string, langs []string) bool {
	t, err := language.Parse(tag)
	if err != nil {
		return false
	}
	base, conf := t.Base()
	if conf != language.Exact {
		return false
	}
	for _, l := range langs {
		lt, err := language.Parse(l)
		if err != nil {
			continue
		}
		if lb, _ := lt.Base(); lb == base {
			return true
		}
	}
	return false
}
