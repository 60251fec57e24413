package server

import (
	"net/http"
	"strconv"
	"time"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
)

// headerTruncated is the response header that tells the caller its upload
// was cut off before the length its header declares, and the request used
// the part that is there (docs/api.md, "Truncated uploads").
const headerTruncated = "X-Sotto-Audio-Truncated"

// decodeUpload decodes an uploaded audio file (audio.DecodeFile). When the
// file was cut off before the length its header declares, the request goes
// on with the audio that is there, as ffmpeg would decode it: the response
// carries headerTruncated ("decoded=6.599 declared=11"; "declared=unknown"
// when the header gave no length) so the caller can see why a result is
// short, and the server logs a warning for the operator.
func (s *Server) decodeUpload(w http.ResponseWriter, r *http.Request, path string, opts audio.Options) (sotto.Audio, error) {
	a, info, err := audio.DecodeFile(r.Context(), path, opts)
	if err == nil && info.Truncated {
		s.log.Warn("audio file is truncated; using the part that is there", "id", requestID(r.Context()),
			"path", r.URL.Path, "decoded", info.Duration, "declared", info.Declared, "format", info.Format)
		w.Header().Set(headerTruncated, truncationValue(info))
	}
	return a, err
}

// truncationValue is the headerTruncated value for a truncated file: the
// decoded and declared lengths in seconds, rounded to the millisecond as
// the response bodies round times ("decoded=6.599 declared=11").
func truncationValue(info audio.Info) string {
	declared := "unknown"
	if info.Declared > 0 {
		declared = seconds(info.Declared)
	}
	return "decoded=" + seconds(info.Duration) + " declared=" + declared
}

// seconds formats d in seconds rounded to the millisecond, without
// trailing zeros.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Round(time.Millisecond).Seconds(), 'f', -1, 64)
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
