package llm

import (
	"context"

	"github.com/sottolabs/sotto/backend"
)

// Message is one turn of a conversation.
type Message struct {
	Role    string
	Content string
}

// Options bounds a generation. The zero value uses the model's limits.
type Options struct {
	MaxTokens   int
	Temperature float64
	Seed        *int64
}

// Token is one generated piece of text.
type Token struct {
	Text string
	ID   int
}

// Backend is what a language-model driver implements. Generate calls emit
// for each token, from the calling goroutine only.
type Backend interface {
	Generate(ctx context.Context, msgs []Message, opts Options, emit func(Token) error) error
	Close() error
}

// Driver is a named way to open a [Backend].
type Driver = backend.Driver[Backend]

var drivers = backend.NewRegistry[Backend]("llm")

// Register makes a language-model driver available; call it from init.
func Register(d Driver) { drivers.Register(d) }

// Drivers returns the names of the registered drivers, sorted.
func Drivers() []string { return drivers.Drivers() }

// Open opens the named driver, or the highest-priority one for "".
func Open(ctx context.Context, name string, cfg backend.Config) (Backend, error) {
	return drivers.Open(ctx, name, cfg)
}
