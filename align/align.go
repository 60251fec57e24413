package align

import (
	"context"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
)

// Options selects how a transcript is aligned. The zero value aligns with
// the default model and language detection.
type Options struct {
	// Model is the catalog ID, e.g. "Sotto/Lattice-2" (the default).
	Model string
	// Language is a BCP 47 tag, "und" to skip detection, or "" to detect.
	Language string
	// Start and End select a window of the audio in seconds; both zero
	// means the whole audio. Timestamps stay relative to the full audio.
	Start, End float64
	// SearchEffort is "standard" (or ""), "extended" or "auto".
	SearchEffort string
	// ProtectedTerms align as one word each.
	ProtectedTerms []string
}

// Word is one aligned word; times are in seconds.
type Word struct {
	Word  string  `json:"word"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Score float64 `json:"score"`
}

// Segment is one sentence-like span of aligned words.
type Segment struct {
	ID      int     `json:"id"`
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	Text    string  `json:"text"`
	Speaker *string `json:"speaker"`
	Words   []Word  `json:"words,omitempty"`
}

// Usage reports the audio processed.
type Usage struct {
	Type    string  `json:"type"`
	Seconds float64 `json:"seconds"`
}

// Alignment is the result of [Align], shaped as the spec's alignment result.
type Alignment struct {
	Task               string    `json:"task"`
	Duration           float64   `json:"duration"`
	Language           string    `json:"language,omitempty"`
	LanguageCandidates []string  `json:"language_candidates,omitempty"`
	Text               string    `json:"text"`
	Segments           []Segment `json:"segments"`
	SearchEffortUsed   string    `json:"search_effort_used,omitempty"`
	SearchRetried      bool      `json:"search_retried,omitempty"`
	Usage              Usage     `json:"usage"`
}

// Backend is what an alignment driver implements.
type Backend interface {
	Align(ctx context.Context, a sotto.Audio, transcript string, opts Options) (*Alignment, error)
	Close() error
}

// Driver is a named way to open a [Backend].
type Driver = backend.Driver[Backend]

var drivers = backend.NewRegistry[Backend]("align")

// Register makes an alignment driver available; call it from init. It
// panics on an empty name, a nil Open or a duplicate name.
func Register(d Driver) { drivers.Register(d) }

// Drivers returns the names of the registered drivers, sorted.
func Drivers() []string { return drivers.Drivers() }

// Open opens the named driver, or the highest-priority one for "".
func Open(ctx context.Context, name string, cfg backend.Config) (Backend, error) {
	return drivers.Open(ctx, name, cfg)
}
