package transcript

import (
	"math"
	"strings"

	"github.com/sottolabs/sotto/asr"
)

// DiarizedSegment is one segment of diarized_json: a stretch of one
// speaker's speech. Speaker is null when no turn of the timeline lies at
// or near it.
type DiarizedSegment struct {
	ID      int     `json:"id"`
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	Text    string  `json:"text"`
	Speaker *string `json:"speaker"`
}

// DiarizedWord is one word of diarized_json.
type DiarizedWord struct {
	VerboseWord
	Speaker *string `json:"speaker"`
}

// DiarizedResult is the body of response_format diarized_json: the
// verbose result with a speaker on every segment and word, and the
// speakers in order of first appearance.
type DiarizedResult struct {
	Task     string            `json:"task"` // "transcribe"
	Language string            `json:"language,omitempty"`
	Duration float64           `json:"duration"`
	Text     string            `json:"text"`
	Speakers []string          `json:"speakers"`
	Segments []DiarizedSegment `json:"segments,omitzero"`
	Words    []DiarizedWord    `json:"words,omitzero"`
	Usage    Usage             `json:"usage"`
}

// nearTurn is how far (seconds) a word or segment outside every turn may
// be from the nearest turn and still take its speaker.
const nearTurn = 1.0

// speakerAt returns the speaker of the span [start, end]: the speaker of
// the turn that overlaps it most, else of the nearest turn within
// [nearTurn], else "".
func (r *Result) speakerAt(start, end float64) string {
	best, bestOver := "", 0.0
	near, nearGap := "", nearTurn
	for _, t := range r.Turns {
		if over := min(end, t.End) - max(start, t.Start); over > bestOver {
			best, bestOver = t.Speaker, over
		}
		if gap := max(t.Start-end, start-t.End, 0); gap < nearGap || (near == "" && gap <= nearGap) {
			near, nearGap = t.Speaker, gap
		}
	}
	if best != "" {
		return best
	}
	return near
}

func speakerPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Diarized returns the diarized_json body of r, or [ErrDiarization] when r
// has no timeline. Each word takes the speaker of the turn it overlaps
// most (or of a turn within a second); a recognised segment whose words
// change speaker is split there, so every segment has one speaker. A
// segment without words takes the speaker that overlaps it most.
// Granularities work as for [Result.Verbose].
func (r *Result) Diarized(g Granularities) (DiarizedResult, error) {
	if r.Turns == nil {
		return DiarizedResult{}, ErrDiarization
	}
	if !g.Words && !g.Segments {
		g.Segments = true
	}
	d := DiarizedResult{Task: "transcribe", Language: r.Language, Duration: ms(r.Duration), Text: r.Text(),
		Speakers: []string{}, Usage: r.usage()}
	seen := map[string]bool{}
	note := func(sp string) *string {
		if sp != "" && !seen[sp] {
			seen[sp] = true
			d.Speakers = append(d.Speakers, sp)
		}
		return speakerPtr(sp)
	}
	if g.Segments {
		d.Segments = []DiarizedSegment{}
	}
	for _, s := range r.Segments {
		if strings.TrimSpace(s.Text) == "" && len(s.Words) == 0 {
			continue
		}
		for _, part := range r.splitBySpeaker(s) {
			sp := note(part.speaker)
			if g.Segments {
				d.Segments = append(d.Segments, DiarizedSegment{ID: len(d.Segments), Start: ms(part.start), End: ms(part.end),
					Text: part.text, Speaker: sp})
			}
			if g.Words {
				for i, w := range part.words {
					d.Words = append(d.Words, DiarizedWord{VerboseWord: VerboseWord{Word: w.Word, Start: ms(w.Start),
						End: ms(w.End), Confidence: math.Round(w.Confidence*1e4) / 1e4}, Speaker: speakerPtr(part.wordSpeakers[i])})
				}
			}
		}
	}
	if g.Words && d.Words == nil {
		d.Words = []DiarizedWord{}
	}
	return d, nil
}

// speakerPart is a run of one speaker's words within a segment.
type speakerPart struct {
	start, end   float64
	text         string
	speaker      string
	words        []asr.Word
	wordSpeakers []string
}

// splitBySpeaker cuts s where the speaker of its words changes. A segment
// of one speaker keeps its own times and text.
func (r *Result) splitBySpeaker(s asr.Segment) []speakerPart {
	text := strings.TrimSpace(s.Text)
	if len(s.Words) == 0 {
		return []speakerPart{{start: s.Start, end: s.End, text: text, speaker: r.speakerAt(s.Start, s.End)}}
	}
	var parts []speakerPart
	for _, w := range s.Words {
		sp := r.speakerAt(w.Start, w.End)
		n := len(parts)
		if n == 0 || parts[n-1].speaker != sp {
			parts = append(parts, speakerPart{start: w.Start, speaker: sp})
			n++
		}
		p := &parts[n-1]
		p.end = w.End
		p.words = append(p.words, w)
		p.wordSpeakers = append(p.wordSpeakers, sp)
	}
	if len(parts) == 1 {
		parts[0].start, parts[0].end, parts[0].text = s.Start, s.End, text
		return parts
	}
	for i := range parts {
		var b strings.Builder
		for _, w := range parts[i].words {
			AppendText(&b, w.Word)
		}
		parts[i].text = b.String()
	}
	return parts
}
