package transcript

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/segment"
)

// Format is a response_format of the transcription endpoint.
type Format string

// The response formats.
const (
	JSON         Format = "json"
	VerboseJSON  Format = "verbose_json"
	Text         Format = "text"
	SRT          Format = "srt"
	VTT          Format = "vtt"
	DiarizedJSON Format = "diarized_json"
)

// Formats lists every format, in the order the documentation gives them.
var Formats = []Format{JSON, VerboseJSON, Text, SRT, VTT, DiarizedJSON}

// ParseFormat returns the format named s; "" is [JSON]. Any other name is a
// 400-kind *sotto.Error with param "response_format".
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return JSON, nil
	}
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", sotto.Invalid("bad_request", "response_format",
		"response_format %q is not one of json, verbose_json, text, srt, vtt, diarized_json", s)
}

// ContentType is the media type of a response in format f.
func (f Format) ContentType() string {
	switch f {
	case Text:
		return "text/plain; charset=utf-8"
	case SRT:
		return "application/x-subrip; charset=utf-8"
	case VTT:
		return "text/vtt; charset=utf-8"
	}
	return "application/json"
}

// Structured reports whether f is verbose_json or diarized_json, the
// formats that carry timestamps and so accept granularities.
func (f Format) Structured() bool { return f == VerboseJSON || f == DiarizedJSON }

// ErrDiarization is the error of diarized_json when no speaker timeline
// was made (no model of the build makes one): a 422-kind *sotto.Error with
// code "diarization_unsupported" and param "response_format";
// errors.Is(err, sotto.ErrUnsatisfiable) matches it.
var ErrDiarization = sotto.Unsatisfiable("diarization_unsupported", "response_format",
	"response_format diarized_json needs a speaker timeline model (one serving /v1/speaker/timelines), "+
		"which this build's catalog lacks; use verbose_json (segments without speakers)")

// Granularities are the timestamp granularities of verbose output
// (OpenAI's timestamp_granularities[]). The zero value means segments.
type Granularities struct {
	Words    bool // a top-level "words" array
	Segments bool // a "segments" array
}

// Result is a finished transcription.
type Result struct {
	// Segments are the recognised segments in time order.
	Segments []asr.Segment
	// Language is the BCP 47 tag of the speech, or "" when unknown.
	Language string
	// Duration is the length of the media in seconds.
	Duration float64
	// Turns is the speaker timeline of the media (who spoke when, in time
	// order) for diarized_json; nil when no diarization ran, empty when it
	// found no speech.
	Turns []Turn
}

// Turn is a stretch of speech by one speaker, in seconds.
type Turn struct {
	Start, End float64
	Speaker    string
}

// Text joins the segments' texts with single spaces (none between two
// Chinese or Japanese characters) and trims white space.
func (r *Result) Text() string {
	var b strings.Builder
	for _, s := range r.Segments {
		AppendText(&b, s.Text)
	}
	return b.String()
}

// AppendText appends one segment's text to b as [Result.Text] joins it, and
// returns what it appended (the delta of a stream).
func AppendText(b *strings.Builder, text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return ""
	}
	if b.Len() > 0 {
		last, _ := utf8.DecodeLastRuneInString(b.String())
		first, _ := utf8.DecodeRuneInString(text)
		if !noSpace(last) || !noSpace(first) {
			text = " " + text
		}
	}
	b.WriteString(text)
	return text
}

// noSpace reports whether r belongs to a script written without spaces
// between words.
func noSpace(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer)
}

// Usage is the usage object of a result: the seconds of media transcribed.
type Usage struct {
	Type    string  `json:"type"` // "duration"
	Seconds float64 `json:"seconds"`
}

// JSONResult is the body of response_format json.
type JSONResult struct {
	Text     string  `json:"text"`
	Duration float64 `json:"duration"`
	Usage    Usage   `json:"usage"`
}

// VerboseSegment is one segment of verbose_json.
type VerboseSegment struct {
	ID    int     `json:"id"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Text  string  `json:"text"`
	// WordTiming is the recognizer's asr.Segment.WordTiming: how the
	// segment's words were timed, where the recognizer has more than one
	// way ("aligned", "timestamps").
	WordTiming string `json:"word_timing,omitempty"`
}

// VerboseWord is one word of verbose_json; Confidence is in [0, 1].
type VerboseWord struct {
	Word       string  `json:"word"`
	Start      float64 `json:"start"`
	End        float64 `json:"end"`
	Confidence float64 `json:"confidence"`
}

// VerboseResult is the body of response_format verbose_json. Segments and
// Words are present as the granularities ask.
type VerboseResult struct {
	Task     string           `json:"task"` // "transcribe"
	Language string           `json:"language,omitempty"`
	Duration float64          `json:"duration"`
	Text     string           `json:"text"`
	Segments []VerboseSegment `json:"segments,omitzero"`
	Words    []VerboseWord    `json:"words,omitzero"`
	Usage    Usage            `json:"usage"`
}

// ms rounds seconds to the millisecond.
func ms(x float64) float64 { return math.Round(x*1000) / 1000 }

func (r *Result) usage() Usage { return Usage{Type: "duration", Seconds: ms(r.Duration)} }

// JSON returns the json body of r.
func (r *Result) JSON() JSONResult {
	return JSONResult{Text: r.Text(), Duration: ms(r.Duration), Usage: r.usage()}
}

// Verbose returns the verbose_json body of r. With neither granularity it
// holds segments; with words only, words only. A result without segments
// has an empty segments array rather than none.
func (r *Result) Verbose(g Granularities) VerboseResult {
	if !g.Words && !g.Segments {
		g.Segments = true
	}
	v := VerboseResult{Task: "transcribe", Language: r.Language, Duration: ms(r.Duration), Text: r.Text(), Usage: r.usage()}
	if g.Segments {
		v.Segments = make([]VerboseSegment, 0, len(r.Segments))
	}
	for _, s := range r.Segments {
		if g.Segments {
			v.Segments = append(v.Segments, VerboseSegment{ID: len(v.Segments), Start: ms(s.Start), End: ms(s.End),
				Text: strings.TrimSpace(s.Text), WordTiming: s.WordTiming})
		}
		if g.Words {
			for _, w := range s.Words {
				v.Words = append(v.Words, VerboseWord{Word: w.Word, Start: ms(w.Start), End: ms(w.End),
					Confidence: math.Round(w.Confidence*1e4) / 1e4})
			}
		}
	}
	if g.Words && v.Words == nil {
		v.Words = []VerboseWord{}
	}
	return v
}

// Cues builds subtitle cues from r's segments with package segment. The
// segments are first cut into cues of at most two lines' worth of text
// ([segment.Cues] with a length of 12 to 84 characters: at sentence stops
// where the text has them, at pauses of over about 1.2 s, and otherwise at
// the best-scored word gap, where pauses between words count), then laid
// out as subtitles ([segment.Subtitles] with
// [segment.DefaultSubtitleOptions]: lines of at most 42 columns, two lines
// and 7 s a cue). Times come from the words when the segments carry them.
// Speaker is "" on every cue.
func (r *Result) Cues(ctx context.Context) ([]segment.Cue, error) {
	in := make([]segment.Cue, 0, len(r.Segments))
	for _, s := range r.Segments {
		if strings.TrimSpace(s.Text) == "" {
			continue
		}
		c := segment.Cue{Text: strings.TrimSpace(s.Text), Start: s.Start, End: max(s.End, s.Start)}
		for _, w := range s.Words {
			conf := w.Confidence
			c.Words = append(c.Words, segment.Word{Word: w.Word, Start: w.Start, End: max(w.End, w.Start), Score: &conf})
		}
		in = append(in, c)
	}
	if len(in) == 0 {
		return []segment.Cue{}, nil
	}
	opts := segment.DefaultSubtitleOptions()
	opts.Language = r.Language
	cues, err := segment.Cues(ctx, in, segment.Options{Language: r.Language, MediaEnd: r.Duration,
		Length: &segment.Length{MinChars: segment.DefaultMinChars, MaxChars: opts.MaxLineChars * opts.MaxLines}})
	if err != nil {
		return nil, err
	}
	return segment.Subtitles(ctx, cues, opts)
}

// Write writes r to w in format f. diarized_json without r.Turns returns
// [ErrDiarization] and writes nothing; cancellation of ctx (while cues are
// built) returns ctx.Err().
func Write(ctx context.Context, w io.Writer, f Format, r *Result, g Granularities) error {
	switch f {
	case JSON:
		return encode(w, r.JSON())
	case VerboseJSON:
		return encode(w, r.Verbose(g))
	case Text:
		_, err := io.WriteString(w, r.Text()+"\n")
		return err
	case SRT, VTT:
		cues, err := r.Cues(ctx)
		if err != nil {
			return err
		}
		if f == SRT {
			return segment.WriteSRT(w, cues)
		}
		return segment.WriteVTT(w, cues)
	case DiarizedJSON:
		d, err := r.Diarized(g)
		if err != nil {
			return err
		}
		return encode(w, d)
	}
	_, err := ParseFormat(string(f))
	return err
}

func encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
