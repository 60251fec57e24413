package asr

import (
	"context"
	"iter"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
)

// Options selects how audio is transcribed. The zero value detects the
// language.
type Options struct {
	// Language is a BCP 47 tag, or "" to detect it.
	Language string
	// Words asks for word timestamps.
	Words bool
	// Prompt is text the speech is likely to contain (names, terms, the
	// preceding sentence). A backend that can biases its language model
	// toward the prompt's words; one that cannot ignores it. "" means none.
	Prompt string
	// Streaming says the caller shows each segment as it arrives (a
	// streamed response): a backend that would hold every segment back
	// for a second pass over the whole input (the "go" driver's speaker
	// adaptation) decodes each region as soon as it can instead, trading
	// that pass's gain for text from the start.
	Streaming bool
	// Temperature is the sampling temperature of the first decoding, 0 to
	// 1 (0, the default: the most probable text). A backend that samples
	// starts there (the "whisper" driver: its fallback then rises by its
	// temperature_inc option); one whose search is deterministic answers
	// any other value with a 400 naming temperature.
	Temperature float64
}

// Word is one recognised word with its times in seconds.
type Word struct {
	Word       string  `json:"word"`
	Start      float64 `json:"start"`
	End        float64 `json:"end"`
	Confidence float64 `json:"confidence"`
}

// Segment is one stretch of recognised speech.
type Segment struct {
	ID    int     `json:"id"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Text  string  `json:"text"`
	Words []Word  `json:"words,omitempty"`
	// WordTiming says how Words got their times where a backend has more
	// than one way: the "whisper" driver sets [WordTimingAligned] or
	// [WordTimingTimestamps]; "" for backends whose words come from their
	// own search.
	WordTiming string `json:"word_timing,omitempty"`
	// Language is the BCP 47 tag of the language the backend detected for
	// this segment when Options.Language was "" (the "whisper" driver sets
	// it from the model's language tokens); "" when none was detected.
	Language string `json:"-"`
}

// Transcript is a whole transcription.
type Transcript struct {
	Text     string    `json:"text"`
	Language string    `json:"language,omitempty"`
	Duration float64   `json:"duration"`
	Segments []Segment `json:"segments"`
}

// Backend is what a transcription driver implements. Transcribe calls emit
// for each segment in order, from the calling goroutine only; a non-nil
// error from emit stops the work and is returned.
type Backend interface {
	Transcribe(ctx context.Context, a sotto.Audio, opts Options, emit func(Segment) error) error
	Close() error
}

// Driver is a named way to open a [Backend].
type Driver = backend.Driver[Backend]

var drivers = backend.NewRegistry[Backend]("asr")

// Register makes a transcription driver available; call it from init. It
// panics on an empty name, a nil Open or a duplicate name.
func Register(d Driver) { drivers.Register(d) }

// Drivers returns the names of the registered drivers, sorted.
func Drivers() []string { return drivers.Drivers() }

// Open opens the named driver, or the highest-priority one for "".
func Open(ctx context.Context, name string, cfg backend.Config) (Backend, error) {
	return drivers.Open(ctx, name, cfg)
}

// Segments transcribes a with b and yields segments as they are decided.
// An error is yielded once, last. Each range runs the transcription anew.
func Segments(ctx context.Context, b Backend, a sotto.Audio, opts Options) iter.Seq2[Segment, error] {
	return backend.Seq(ctx, func(ctx context.Context, emit func(Segment) error) error {
		return b.Transcribe(ctx, a, opts, emit)
	})
}

// Transcribe transcribes a with b and collects the whole transcript: the
// segments in order, their texts joined by spaces, the audio's duration in
// seconds, and opts.Language as the language, or when that is "" the
// language the backend detected (the first segment's [Segment.Language]).
// It is [Segments] for callers that want the result at once.
func Transcribe(ctx context.Context, b Backend, a sotto.Audio, opts Options) (*Transcript, error) {
	t := &Transcript{Language: opts.Language, Duration: a.Seconds(), Segments: []Segment{}}
	var text []string
	for s, err := range Segments(ctx, b, a, opts) {
		if err != nil {
			return nil, err
		}
		t.Segments = append(t.Segments, s)
		if t.Language == "" {
			t.Language = s.Language
		}
		if s.Text != "" {
			text = append(text, s.Text)
		}
	}
	t.Text = strings.Join(text, " ")
	return t, nil
}
