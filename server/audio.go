package server

import (
	"net/http"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
)

// decodeUpload decodes an uploaded audio file (audio.DecodeFile) and logs a
// warning when the file was cut off before the length its header declares:
// the request goes on with the audio that is there, as ffmpeg would decode
// it, and the operator can see why a result is short.
func (s *Server) decodeUpload(r *http.Request, path string, opts audio.Options) (sotto.Audio, error) {
	a, info, err := audio.DecodeFile(r.Context(), path, opts)
	if err == nil && info.Truncated {
		s.log.Warn("audio file is truncated; using the part that is there", "id", requestID(r.Context()),
			"path", r.URL.Path, "decoded", info.Duration, "declared", info.Declared, "format", info.Format)
	}
	return a, err
}

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
