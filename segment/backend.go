package segment

import (
	"context"

	"github.com/sottolabs/sotto/backend"
)

// Backend is a segmentation implementation. The package's own rule-based
// segmenter (the functions [Text] and [Cues]) is registered as the "go"
// driver; a model-based segmenter would register itself the same way, from
// its init, under its own name.
type Backend interface {
	// Text splits plain text into sentences, paragraphs or cues.
	Text(ctx context.Context, text string, opts Options) (*Result, error)
	// Cues re-segments timed input.
	Cues(ctx context.Context, in []Cue, opts Options) ([]Cue, error)
	Close() error
}

// Driver is a named way to open a [Backend].
type Driver = backend.Driver[Backend]

var drivers = backend.NewRegistry[Backend]("segment")

// Register makes a segmentation driver available; call it from init. It
// panics on an empty name, a nil Open or a duplicate name.
func Register(d Driver) { drivers.Register(d) }

// Drivers returns the names of the registered drivers, sorted.
func Drivers() []string { return drivers.Drivers() }

// Open opens the named driver, or the highest-priority one for "".
func Open(ctx context.Context, name string, cfg backend.Config) (Backend, error) {
	return drivers.Open(ctx, name, cfg)
}

// rules is the rule-based segmenter as a Backend.
type rules struct{}

var _ Backend = rules{}

func (rules) Text(ctx context.Context, text string, opts Options) (*Result, error) {
	return Text(ctx, text, opts)
}

func (rules) Cues(ctx context.Context, in []Cue, opts Options) ([]Cue, error) {
	return Cues(ctx, in, opts)
}

func (rules) Close() error { return nil }

func init() {
	Register(Driver{Name: "go", Open: func(context.Context, backend.Config) (Backend, error) { return rules{}, nil }})
}
