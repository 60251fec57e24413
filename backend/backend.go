package backend

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
)

// Config is what a driver is opened with. The zero value is valid: a driver
// then uses its built-in defaults (for example the Debian model paths).
type Config struct {
	// ModelDir is the directory holding the model's files, when the model
	// was downloaded or found on disk.
	ModelDir string
	// Model is the catalog ID of the model being opened, e.g. "Sotto/Lattice-1".
	Model string
	// Threads bounds the goroutines a backend may use; 0 means GOMAXPROCS.
	Threads int
	// Options carries driver-specific settings from the catalog entry.
	Options map[string]string
}

// Driver describes one backend implementation of capability B.
type Driver[B any] struct {
	// Name selects the driver: "go", "onnx", "cuda" ...
	Name string
	// Priority orders drivers when no name is given; higher wins.
	Priority int
	// Open creates a backend. Heavy work (reading models) belongs here, not
	// in init.
	Open func(ctx context.Context, cfg Config) (B, error)
}

// BuildTags are the build tags that add native drivers to some
// capability (see the Makefile's test-native target). Asking for a driver
// of one of these names in a build without it says how to rebuild.
var BuildTags = []string{"onnx"}

// Registry is the set of drivers of one capability. It is safe for
// concurrent use by multiple goroutines.
type Registry[B any] struct {
	capability string
	mu         sync.RWMutex
	drivers    map[string]Driver[B]
}

// NewRegistry returns an empty registry for the named capability; the name
// prefixes its error messages.
func NewRegistry[B any](capability string) *Registry[B] {
	return &Registry[B]{capability: capability, drivers: map[string]Driver[B]{}}
}

// Register makes a driver available. It panics on an empty name, a nil Open
// or a duplicate name, like sql.Register: these are programming errors found
// at start-up.
func (r *Registry[B]) Register(d Driver[B]) {
	if d.Name == "" {
		panic(r.capability + ": Register driver with empty name")
	}
	if d.Open == nil {
		panic(r.capability + ": Register driver " + d.Name + " with nil Open")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.drivers[d.Name]; dup {
		panic(r.capability + ": Register called twice for driver " + d.Name)
	}
	r.drivers[d.Name] = d
}

// Drivers returns the names of the registered drivers, sorted.
func (r *Registry[B]) Drivers() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.drivers))
	for n := range r.drivers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the driver called name, or, for "", the one with the highest
// priority (ties broken by name).
func (r *Registry[B]) Lookup(name string) (Driver[B], error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if name != "" {
		d, ok := r.drivers[name]
		if !ok {
			if slices.Contains(BuildTags, name) {
				return d, fmt.Errorf("%s: backend %q is not in this build (compiled in: %s; rebuild with CGO_ENABLED=1 -tags %s)",
					r.capability, name, r.listLocked(), name)
			}
			// A misspelt name is not a missing build tag: no rebuild hint.
			return d, fmt.Errorf("%s: unknown backend %q (compiled in: %s)", r.capability, name, r.listLocked())
		}
		return d, nil
	}
	var best Driver[B]
	found := false
	for _, d := range r.drivers {
		if !found || d.Priority > best.Priority || (d.Priority == best.Priority && d.Name < best.Name) {
			best, found = d, true
		}
	}
	if !found {
		return best, fmt.Errorf("%s: no backend compiled in", r.capability)
	}
	return best, nil
}

func (r *Registry[B]) listLocked() string {
	names := make([]string, 0, len(r.drivers))
	for n := range r.drivers {
		names = append(names, n)
	}
	slices.SortFunc(names, cmp.Compare)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Open opens the named driver ("" selects by priority) with cfg.
func (r *Registry[B]) Open(ctx context.Context, name string, cfg Config) (B, error) {
	d, err := r.Lookup(name)
	if err != nil {
		var zero B
		return zero, err
	}
	return d.Open(ctx, cfg)
}

// Seq adapts a push-style producer to an iterator. run is called once when
// iteration starts; every value it emits is yielded. When the consumer stops
// early, emit returns errStop to run, which must then return. An error from
// run is yielded once, last, with a zero value. The sequence is single-use in
// the sense that each range re-runs the producer.
func Seq[T any](ctx context.Context, run func(ctx context.Context, emit func(T) error) error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		stopped := false
		err := run(ctx, func(v T) error {
			if !yield(v, nil) {
				stopped = true
				return errStop
			}
			return nil
		})
		if stopped {
			return
		}
		if err != nil {
			var zero T
			yield(zero, err)
		}
	}
}

type stopError struct{}

func (stopError) Error() string { return "backend: consumer stopped iteration" }

var errStop error = stopError{}
