package tts

import (
	"context"

	"github.com/sottolabs/sotto/backend"
)

// Options selects voice and delivery. The zero value uses the model's
// first voice at natural speed.
type Options struct {
	Voice    string  // a voice ID such as "builtin:<name>"
	Language string  // BCP 47 tag, or "" to choose automatically
	Speed    float64 // 1 is natural; 0 means 1
	Seed     *int64  // same seed, same result; nil for a fresh result
}

// Chunk is a piece of synthesised audio: mono float32 samples at Rate Hz.
type Chunk struct {
	Samples []float32
	Rate    int
}

// Backend is what a speech driver implements. Synthesize calls emit with
// successive chunks, from the calling goroutine only.
type Backend interface {
	Synthesize(ctx context.Context, text string, opts Options, emit func(Chunk) error) error
	Close() error
}

// Driver is a named way to open a [Backend].
type Driver = backend.Driver[Backend]

var drivers = backend.NewRegistry[Backend]("tts")

// Register makes a speech driver available; call it from init.
func Register(d Driver) { drivers.Register(d) }

// Drivers returns the names of the registered drivers, sorted.
func Drivers() []string { return drivers.Drivers() }

// Open opens the named driver, or the highest-priority one for "".
func Open(ctx context.Context, name string, cfg backend.Config) (Backend, error) {
	return drivers.Open(ctx, name, cfg)
}
