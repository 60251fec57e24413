package align

import (
	"context"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
)

// Search efforts.
const (
	EffortStandard = "standard"
	EffortExtended = "extended"
	EffortAuto     = "auto"
)

// Options selects how a transcript is aligned. The zero value aligns with
// the default model, detects the language, runs the standard search and
// does not normalize the transcript (set TextNormalization to
// [DefaultTextNormalization] for the API's default).
type Options struct {
	// Model is the catalog ID, e.g. "Sotto/Lattice-2" (the default).
	Model string
	// Language is a BCP 47 tag, "und" to skip detection, or "" to detect.
	Language string
	// Start and End select a window of the audio in seconds; both zero
	// means the whole audio, End zero alone means to its end. Timestamps
	// stay relative to the full audio.
	Start, End float64
	// SearchEffort is EffortStandard (or ""), EffortExtended or EffortAuto.
	SearchEffort string
	// ProtectedTerms align as one word each.
	ProtectedTerms []string
	// StrictEnds says the transcript covers the audio (or the window) from
	// its start to its end. By default it need not: speech, music or noise
	// before the first word and after the last is matched by a loop of any
	// phones instead of stretching the first and last words over it, so a
	// transcript of part of a recording is placed where it was said. The
	// loop costs about a tenth more time; StrictEnds turns it off. Audio
	// longer than the streaming threshold (15 minutes) is aligned in
	// anchored chunks without the loop.
	StrictEnds bool
	// TextNormalization controls TN of the transcript before alignment.
	TextNormalization TextNormalization
	// Sentences controls how words are grouped into segments.
	Sentences SentenceOptions
	// Progress, when non-nil, is called from the aligning goroutine with
	// the share of the current search done (0 to 1) and, once, with the
	// stage "extended_search" when an auto search widens.
	Progress func(p Progress)
}

// SentenceOptions groups aligned words into segments.
type SentenceOptions struct {
	// Lengths turns on length constraints (MinChars, MaxChars).
	Lengths            bool
	MinChars, MaxChars int
	// StartMargin and EndMargin pad segment times in seconds.
	StartMargin, EndMargin float64
	// Disabled returns one segment per alignment instead of sentences.
	Disabled bool
}

// Progress is one progress report of an alignment.
type Progress struct {
	// Stage is "" for ordinary progress, or "extended_search" when an auto
	// search starts its wider second attempt (progress restarts from 0) or,
	// on the streaming path, first searches a poorly matched chunk again
	// with the extended beam (progress continues).
	Stage string
	// Fraction of the current search done, 0 to 1.
	Fraction float64
	// Seconds of audio processed in the current search.
	Seconds float64
}

// Word is one aligned word; times are in seconds of the original audio.
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

// Alignment is the result of an alignment, shaped as the spec's alignment
// result.
type Alignment struct {
	Task                 string    `json:"task"`
	Duration             float64   `json:"duration"`
	Language             string    `json:"language,omitempty"`
	LanguageCandidates   []string  `json:"language_candidates,omitempty"`
	Text                 string    `json:"text"`
	Segments             []Segment `json:"segments"`
	NormalizationRegions []Region  `json:"normalization_regions,omitempty"`
	SearchEffortUsed     string    `json:"search_effort_used,omitempty"`
	SearchRetried        bool      `json:"search_retried,omitempty"`
	Usage                Usage     `json:"usage"`
}

// Failure reasons, search paths and limits of [Failure].
const (
	ReasonNoPath           = "no_path"
	ReasonNoWords          = "no_words"
	ReasonCollapsed        = "collapsed"
	ReasonSearchIncomplete = "search_incomplete"

	PathWholeAudio = "whole_audio"
	PathStreaming  = "streaming"

	LimitNone             = "none"
	LimitBudget           = "budget"
	LimitGraphSize        = "graph_size"
	LimitEstimateOverflow = "estimate_overflow"
	LimitStreaming        = "streaming"
)

// Failure describes why an alignment failed. It is the Detail of the
// *sotto.Error (codes "alignment_failed", "alignment_search_budget_exceeded")
// that a failed alignment returns, and the error.alignment object on the
// wire.
type Failure struct {
	Reason              string `json:"reason"`
	SearchEffortUsed    string `json:"search_effort_used,omitempty"`
	SearchPath          string `json:"search_path,omitempty"`
	SearchLimit         string `json:"search_limit,omitempty"`
	RetryRecommended    bool   `json:"retry_recommended"`
	EstimatedExtraBytes int64  `json:"estimated_extra_bytes,omitempty"`
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
