package normalize

import (
	"context"

	"github.com/sottolabs/sotto/backend"
)

// Backend is a normalization implementation. The package's own rule-based
// normalizer ([Normalize]) is registered as the "go" driver; a model-based
// normalizer would register itself the same way, from its init, under its
// own name, and [Capabilities] would then describe what it adds.
type Backend interface {
	Normalize(ctx context.Context, text string, opts Options) (*Result, error)
	Close() error
}

// Driver is a named way to open a [Backend].
type Driver = backend.Driver[Backend]

var drivers = backend.NewRegistry[Backend]("normalize")

// Register makes a normalization driver available; call it from init. It
// panics on an empty name, a nil Open or a duplicate name.
func Register(d Driver) { drivers.Register(d) }

// Drivers returns the names of the registered drivers, sorted.
func Drivers() []string { return drivers.Drivers() }

// Open opens the named driver, or the highest-priority one for "".
func Open(ctx context.Context, name string, cfg backend.Config) (Backend, error) {
	return drivers.Open(ctx, name, cfg)
}

// rulesBackend is the rule-based normalizer as a Backend.
type rulesBackend struct{}

var _ Backend = rulesBackend{}

func (rulesBackend) Normalize(ctx context.Context, text string, opts Options) (*Result, error) {
	return Normalize(ctx, text, opts)
}

func (rulesBackend) Close() error { return nil }

func init() {
	Register(Driver{Name: "go", Open: func(context.Context, backend.Config) (Backend, error) { return rulesBackend{}, nil }})
}
