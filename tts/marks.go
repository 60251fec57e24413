package tts

import (
	"context"
	"math"
	"strings"
	"unicode"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
)

// Mark tells when a word is spoken: the spoken word, its start and end in
// seconds from the start of the speech, and the byte range of the input
// text it reads ("twelve", "dollars" … all read the bytes of "$12.50").
// SourceStartByte and SourceEndByte are -1 when the word cannot be traced
// to the input.
type Mark struct {
	Word            string  `json:"word"`
	Start           float64 `json:"start"`
	End             float64 `json:"end"`
	SourceStartByte int     `json:"source_start_byte"`
	SourceEndByte   int     `json:"source_end_byte"`
}

// engineTimes times the words of s in its synthesized audio c from the
// engine's own phone timings, where the engine gives them for English; ok
// is false when it does not or they cannot be mapped to the words (the
// caller then aligns the audio: [sentence.marks]).
func (s sentence) engineTimes(ctx context.Context, c Chunk, lang string) ([]Mark, bool) {
	if len(c.Phones) == 0 || (lang != "en" && lang != "") {
		return nil, false
	}
	return s.engineMarks(ctx, c.Phones, 0)
}

// marks times the words of s in its synthesized audio c by forced
// alignment (package align's default model: English on the CMU Sphinx
// model, other languages through espeak-ng phonemes), offset by the
// seconds spoken before (not rounded: [Speak] rounds when it places them).
// The search widens by itself when the standard beam finds no path (short
// sentences with long pauses around them need it). A sentence the aligner cannot align gets no marks:
// the audio is still delivered.
func (s sentence) marks(ctx context.Context, c Chunk, lang string, offset float64) []Mark {
	samples := c.Samples
	if c.Rate != sotto.SampleRate {
		var err error
		if samples, err = audio.Resample(nil, c.Samples, c.Rate, sotto.SampleRate); err != nil {
			return nil
		}
	}
	if lang == "" {
		lang = "und"
	}
	res, err := align.Align(ctx, sotto.Audio{Samples: samples, SampleRate: sotto.SampleRate}, s.spoken,
		align.Options{Language: lang, SearchEffort: align.EffortAuto, Sentences: align.SentenceOptions{Disabled: true}})
	if err != nil {
		return nil
	}
	var out []Mark
	next := 0 // the first spoken word not yet matched
	for _, seg := range res.Segments {
		for _, w := range seg.Words {
			k := s.match(w.Word, next)
			if k < 0 {
				continue
			}
			sw := s.words[k]
			next = k + 1
			out = append(out, Mark{Word: sw.text, Start: offset + w.Start, End: offset + w.End,
				SourceStartByte: sw.srcStart, SourceEndByte: sw.srcEnd})
		}
	}
	return out
}

// match returns the index of the spoken word at or after from (within a
// few words) that an aligned word stands for, or -1.
func (s sentence) match(aligned string, from int) int {
	a := fold(aligned)
	if a == "" {
		return -1
	}
	for k := from; k < len(s.words) && k < from+4; k++ {
		if w := fold(s.words[k].text); w == a || strings.Contains(w, a) {
			return k
		}
	}
	return -1
}

// fold keeps the lower-cased letters and digits of s.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
