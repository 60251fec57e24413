package server

import (
	"golang.org/x/text/language"
)

const (
	pathTranscriptions = "/v1/audio/transcriptions"
	pathAlignments     = "/v1/audio/alignments"
	pathSpeech         = "/v1/audio/speech"
)

// languageIn reports whether tag's base language is one of langs.
func languageIn(tag string, langs []string) bool {
	t, err := language.Parse(tag)
	if err != nil {
		return false
	}
	base, _ := t.Base()
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
