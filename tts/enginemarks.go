package tts

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/sottolabs/sotto/internal/g2p"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// Word timings from an engine's own phone timings (flite's segments):
// the sentence's spoken words are pronounced with the CMU dictionary that
// Debian's pocketsphinx-en-us ships (espeak-ng for words it lacks), the
// engine's phones are aligned with that phone string by edit distance, and
// each word spans the engine phones aligned with its own. This costs
// microseconds where aligning the audio costs a recognizer pass, and it
// times what the engine meant to say rather than what a recognizer hears.

// Mark sources, reported with each chunk's marks (Chunk.MarksSource).
const (
	MarksEngine    = "engine"    // the engine's own phone timings
	MarksAlignment = "alignment" // forced alignment of the audio (package align)
)

// engineLexicon is the English pronouncer for engine timings, read once.
var engineLexicon = sync.OnceValues(func() (*g2p.G2P, error) {
	f, err := os.Open(sphinx.DefaultDictPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lex, err := g2p.ReadCMUDict(f)
	if err != nil {
		return nil, err
	}
	return g2p.New(lex), nil
})

// maxEngineCells bounds the edit-distance table (engine phones × dictionary
// phones); a longer sentence is timed by alignment instead.
const maxEngineCells = 4 << 20

// engineMarks times the words of the English sentence s from the engine's
// phone timings, offset by the seconds spoken before (not rounded: [Speak]
// rounds when it places the marks). ok is false when the
// words cannot be pronounced or fewer than four in five words get a time;
// the caller then aligns the audio instead.
func (s sentence) engineMarks(ctx context.Context, phones []PhoneTime, offset float64) (marks []Mark, ok bool) {
	lex, err := engineLexicon()
	if err != nil {
		return nil, false
	}
	toks, prons, err := lex.Words(ctx, s.spoken, "en")
	if err != nil || len(toks) == 0 {
		return nil, false
	}
	spans, err := wordSpans(phones, prons)
	if err != nil {
		return nil, false
	}
	next, timed := 0, 0
	for k, sp := range spans {
		if sp.first < 0 {
			continue
		}
		timed++
		w := s.match(toks[k].Text, next)
		if w < 0 {
			continue
		}
		sw := s.words[w]
		next = w + 1
		marks = append(marks, Mark{Word: sw.text, Start: offset + phones[sp.first].Start,
			End: offset + phones[sp.last].End, SourceStartByte: sw.srcStart, SourceEndByte: sw.srcEnd})
	}
	if timed*5 < len(toks)*4 {
		return nil, false
	}
	return marks, true
}

// span is the range of engine phones (indices into the phone list, pauses
// never included) that one word was aligned with; first is -1 for a word
// that got none.
type span struct{ first, last int }

// wordSpans aligns the engine's phones (pauses left out) with the words'
// preferred pronunciations by edit distance (substitution, insertion and
// deletion cost 1) and returns each word's span of engine phones. An engine
// phone aligned with no dictionary phone goes to the word before it (the
// first word when it comes first).
func wordSpans(phones []PhoneTime, prons []g2p.Pronunciation) ([]span, error) {
	var eng []int // indices of the engine's speech phones
	for i, p := range phones {
		if p.Phone != "pau" && p.Phone != "h#" && p.Phone != "" {
			eng = append(eng, i)
		}
	}
	var dict []string
	var owner []int // word of each dictionary phone
	for k, p := range prons {
		if len(p.Variants) == 0 {
			continue
		}
		for _, ph := range p.Variants[0] {
			dict = append(dict, ph)
			owner = append(owner, k)
		}
	}
	n, m := len(eng), len(dict)
	if n == 0 || m == 0 {
		return nil, fmt.Errorf("tts: nothing to align (%d engine phones, %d dictionary phones)", n, m)
	}
	if (n+1)*(m+1) > maxEngineCells {
		return nil, fmt.Errorf("tts: sentence too long for engine timings (%d × %d phones)", n, m)
	}
	// cost[i][j]: aligning the first i engine phones with the first j
	// dictionary phones, in one flat table.
	w := m + 1
	cost := make([]int32, (n+1)*w)
	for j := 1; j <= m; j++ {
		cost[j] = int32(j)
	}
	for i := 1; i <= n; i++ {
		cost[i*w] = int32(i)
		e := arpabet(phones[eng[i-1]].Phone)
		for j := 1; j <= m; j++ {
			sub := cost[(i-1)*w+j-1]
			if e != dict[j-1] {
				sub++
			}
			cost[i*w+j] = min(sub, cost[(i-1)*w+j]+1, cost[i*w+j-1]+1)
		}
	}
	word := make([]int, n) // word of each engine phone, -1 for an insertion
	for i, j := n, m; i > 0; {
		switch {
		case j > 0 && cost[i*w+j] == cost[(i-1)*w+j-1]+boolInt(arpabet(phones[eng[i-1]].Phone) != dict[j-1]):
			word[i-1] = owner[j-1]
			i, j = i-1, j-1
		case cost[i*w+j] == cost[(i-1)*w+j]+1:
			word[i-1] = -1
			i--
		default:
			j--
		}
	}
	for i := range word { // insertions join the word before (or the first word)
		if word[i] < 0 {
			if i > 0 {
				word[i] = word[i-1]
			} else {
				word[i] = owner[0]
			}
		}
	}
	spans := make([]span, len(prons))
	for k := range spans {
		spans[k] = span{-1, -1}
	}
	for i, k := range word {
		if spans[k].first < 0 {
			spans[k].first = eng[i]
		}
		spans[k].last = eng[i]
	}
	return spans, nil
}

// arpabet maps a flite phone to the dictionary's phone set: upper case,
// with flite's reduced vowels folded into the dictionary's ("ax" → "AH",
// "axr" → "ER").
func arpabet(p string) string {
	switch p {
	case "ax":
		return "AH"
	case "axr":
		return "ER"
	}
	return strings.ToUpper(p)
}

func boolInt(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
