package align

import (
	"context"
	"fmt"
	"sync"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
)

// DefaultModel is the catalog ID of the model [Align] serves: the Debian
// CMU Sphinx English acoustic model, other languages through espeak-ng
// phonemes.
const DefaultModel = "Sotto/Lattice-2"

// Align locates the words of transcript in a with the default backend, as
// [http.Get] uses [http.DefaultClient]. The default backend is the
// highest-priority registered driver (the pure-Go "go" driver unless a
// native one is compiled in), opened for [DefaultModel] with an otherwise
// zero [backend.Config] on the first call and shared by every later call for
// the life of the process; it is never closed. A program that needs another model, its own
// [backend.Config] or to release the model calls [Open] and uses the
// returned [Backend] instead.
//
// Opening reads the acoustic model (tens of milliseconds to a second) and
// is done once: concurrent first calls wait for the one that opens it, each
// until its own ctx is done. An open that fails (the model is not
// installed, or the opening call's ctx was cancelled) is not remembered: the
// next call tries again.
//
// opts.Model must be "" or [DefaultModel]; another model returns a
// [*sotto.Error] of kind [sotto.ErrInvalidRequest] with Param "model".
// Errors of the alignment itself are those of [Backend.Align]. Align is
// safe for concurrent use by multiple goroutines.
func Align(ctx context.Context, a sotto.Audio, transcript string, opts Options) (*Alignment, error) {
	if opts.Model != "" && opts.Model != DefaultModel {
		return nil, sotto.Invalid("bad_request", "model",
			"align: Align serves %s; open %s with align.Open and its backend.Config", DefaultModel, opts.Model)
	}
	b, err := defaultBackend.get(ctx)
	if err != nil {
		return nil, err
	}
	return b.Align(ctx, a, transcript, opts)
}

// defaultBackend is the backend behind [Align].
var defaultBackend = lazyBackend{open: func(ctx context.Context) (Backend, error) {
	return Open(ctx, "", backend.Config{Model: DefaultModel})
}}

// lazyBackend opens a backend on first use and keeps it; unlike sync.Once
// it forgets a failed open, and a caller waiting for another's open stops
// when its own ctx is done.
type lazyBackend struct {
	open func(ctx context.Context) (Backend, error)

	mu      sync.Mutex
	b       Backend
	opening chan struct{} // non-nil while an open is under way; closed when it ends
}

func (l *lazyBackend) get(ctx context.Context) (Backend, error) {
	for {
		l.mu.Lock()
		if l.b != nil {
			b := l.b
			l.mu.Unlock()
			return b, nil
		}
		if wait := l.opening; wait != nil {
			l.mu.Unlock()
			select {
			case <-wait:
				continue // opened, or failed: look again
			case <-ctx.Done():
				return nil, fmt.Errorf("align: waiting for the default backend to open: %w", ctx.Err())
			}
		}
		done := make(chan struct{})
		l.opening = done
		l.mu.Unlock()

		b, err := l.open(ctx)

		l.mu.Lock()
		if err == nil {
			l.b = b
		}
		l.opening = nil
		close(done)
		l.mu.Unlock()
		return b, err
	}
}
