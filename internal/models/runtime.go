package models

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
)

// LoadSpec is what a [Loader] gets: the catalog entry and where its files
// are.
type LoadSpec struct {
	Entry Entry
	// Dir is the model's store directory, <data>/models/<sanitised id>.
	Dir string
	// Paths maps each File.Name of the entry that is on disk to its
	// absolute path (system files to their system path).
	Paths map[string]string

	store *Store
	rt    *Runtime
}

// Require resolves another catalog model that this one uses at run time
// (Sotto/Lattice-1's embeddings use the speaker network
// Sotto/Kaldi-XVector-Callhome): its LoadSpec when its files are on disk,
// else the error a request naming it would get: 503-kind
// model_downloading while its download runs, 400-kind model_not_downloaded
// (param "model") when files are missing, 404-kind model_not_found when the
// catalog lacks it. Call it when the other model is needed, not only at
// load: it may be downloaded while this model is loaded.
func (s LoadSpec) Require(id string) (LoadSpec, error) {
	if s.rt == nil {
		return LoadSpec{}, fmt.Errorf("models: %s: no runtime to resolve %s", s.Entry.ID, id)
	}
	e, err := s.rt.ready(id, true)
	if err != nil {
		return LoadSpec{}, err
	}
	return s.rt.spec(e), nil
}

// Path resolves a file of the entry, or a path inside one of its unpacked
// archives, to an absolute path, as [Store.Path] does. Catalog options name
// files this way: for Sotto/Lattice-1, Options["mdef.de"] is the mdef file
// of the German acoustic model, whose directory holds the whole model.
func (s LoadSpec) Path(name string) (string, error) {
	if s.store == nil {
		if p, ok := s.Paths[name]; ok {
			return p, nil
		}
		return "", fmt.Errorf("models: %s: no file %q", s.Entry.ID, name)
	}
	return s.store.Path(s.Entry, name)
}

// Config returns the backend configuration for spec: ModelDir (the store
// directory), Model and the entry's Options. System files live outside
// ModelDir; resolve them with [LoadSpec.Path].
func (s LoadSpec) Config() backend.Config {
	return backend.Config{ModelDir: s.Dir, Model: s.Entry.ID, Options: maps.Clone(s.Entry.Options)}
}

// Loader turns a downloaded model into a usable object, typically a
// capability backend (align.Backend, speaker.Backend …), which sessions
// obtain from [Runtime.Acquire] and type-assert. Close releases its memory.
// The ctx is cancelled only when the runtime shuts down, not when the
// request that caused a cold load goes away.
type Loader func(ctx context.Context, spec LoadSpec) (io.Closer, error)

// Status values of a model in [RunningList].
const (
	StatusLoaded   = "loaded"
	StatusUnloaded = "unloaded"
)

// Runtime states of [RuntimeStatus].
const (
	RuntimeRunning = "running"
	RuntimeLoading = "loading"
)

// LifecycleResult is the result of a load or unload request.
type LifecycleResult struct {
	Success bool   `json:"success"`
	Model   string `json:"model"`
	Status  string `json:"status"` // StatusLoaded or StatusUnloaded
}

// RunningList is the body of GET /v1/models/running.
type RunningList struct {
	Object  string         `json:"object"` // "list"
	Data    []RunningModel `json:"data"`
	Runtime RuntimeStatus  `json:"runtime"`
}

// RunningModel is one loaded model.
type RunningModel struct {
	ID     string      `json:"id"`
	Status ModelStatus `json:"status"`
}

// ModelStatus is the status object of a running model.
type ModelStatus struct {
	Value string `json:"value"` // StatusLoaded
}

// RuntimeStatus is the "runtime" object of [RunningList].
type RuntimeStatus struct {
	// State is RuntimeLoading while any cold load runs, else RuntimeRunning.
	State string `json:"state"`
	// Queues has one entry per model that is loaded, loading, or has
	// sessions or waiters, keyed by model ID.
	Queues map[string]QueueStatus `json:"queues"`
}

// QueueStatus is the session queue of one model.
type QueueStatus struct {
	// Queued counts the requests waiting for a session slot.
	Queued int `json:"queued"`
	// Running counts the sessions that hold the model now.
	Running int `json:"running"`
	// Limit is the most sessions that may hold the model at once.
	Limit int `json:"limit"`
	// MaxQueued is the most requests that may wait; one more gets
	// service_busy.
	MaxQueued int `json:"max_queued"`
}

// RuntimeConfig configures a [Runtime]. The zero value of every field
// selects the documented default.
type RuntimeConfig struct {
	// MaxRunning is the number of sessions that may use one model at once;
	// 0 means 1.
	MaxRunning int
	// MaxQueued is the number of sessions that may wait per model; 0 means
	// 16, negative means none may wait.
	MaxQueued int
	// KeepAlive unloads a model that has had no session for this long; 0
	// keeps models loaded until Unload.
	KeepAlive time.Duration
	// MaxLoaded is the most models loaded or loading at once; 0 means no
	// limit. A cold load beyond it first unloads the least recently used
	// models that no session holds (a model switch); when every loaded
	// model is in use, the load fails with 503 service_busy.
	MaxLoaded int
	// BusyRetryAfter is the Retry-After of service_busy; 0 means 1 s.
	BusyRetryAfter time.Duration
	// DownloadingRetryAfter is the Retry-After of model_downloading; 0
	// means 5 s.
	DownloadingRetryAfter time.Duration
	// Logger receives load, unload and expiry events; nil discards.
	Logger *slog.Logger
}

// Runtime is the pool of loaded models: it loads a model on demand,
// ref-counts the sessions using it, queues requests beyond its parallelism
// in a bounded FIFO, refuses to unload it while a session holds it and
// optionally unloads it when idle. It is safe for concurrent use by multiple
// goroutines.
type Runtime struct {
	catalog   *Catalog
	store     *Store
	downloads *Downloader
	cfg       RuntimeConfig
	log       *slog.Logger

	mu         sync.Mutex
	loaders    map[string]Loader
	inspectors map[string]Inspector
	runners    map[string]*runner
	closed     bool
}

// runner is the runtime state of one model; Runtime.mu guards it. A runner
// is in Runtime.runners while it is loaded, loading, or has sessions or
// waiters.
type runner struct {
	id      string
	obj     io.Closer // non-nil once loaded
	op      *loadOp   // non-nil while loading
	running int
	waiters []*waiter
	idle    *time.Timer
	gen     uint64    // bumped whenever the idle timer is stopped
	used    time.Time // when the model was last loaded or released
}

type loadOp struct {
	done   chan struct{}
	err    error
	cancel context.CancelFunc
}

type waiter struct {
	ready   chan struct{}
	granted bool
}

// NewRuntime returns a runtime over the given catalog, store and
// downloader (which tells whether a model is being downloaded).
func NewRuntime(catalog *Catalog, store *Store, downloads *Downloader, cfg RuntimeConfig) *Runtime {
	if cfg.MaxRunning <= 0 {
		cfg.MaxRunning = 1
	}
	if cfg.MaxQueued == 0 {
		cfg.MaxQueued = 16
	} else if cfg.MaxQueued < 0 {
		cfg.MaxQueued = 0
	}
	if cfg.BusyRetryAfter <= 0 {
		cfg.BusyRetryAfter = time.Second
	}
	if cfg.DownloadingRetryAfter <= 0 {
		cfg.DownloadingRetryAfter = 5 * time.Second
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runtime{
		catalog: catalog, store: store, downloads: downloads, cfg: cfg, log: log,
		loaders: map[string]Loader{}, inspectors: map[string]Inspector{}, runners: map[string]*runner{},
	}
}

// RegisterLoader makes l the loader of every model whose Entry.Backend is
// name. It panics on an empty name, a nil loader or a second loader for the
// same name: these are wiring mistakes found at start-up.
func (r *Runtime) RegisterLoader(name string, l Loader) {
	if name == "" || l == nil {
		panic("models: RegisterLoader with empty name or nil loader")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.loaders[name]; dup {
		panic("models: RegisterLoader called twice for backend " + name)
	}
	r.loaders[name] = l
}

// Inspector reads what a model offers (a speech model's voices, say) from
// its catalog entry and files without loading it: no weights are read, no
// memory is held after it returns, and the model's runtime state (loaded,
// queues, idle timers) is not touched.
type Inspector func(ctx context.Context, spec LoadSpec) (any, error)

// ErrNotInspectable is the error of [Runtime.Inspect] for a model whose
// backend has no [Inspector].
var ErrNotInspectable = errors.New("models: no inspector for this backend")

// RegisterInspector makes f the inspector of every model whose
// Entry.Backend is name. It panics on an empty name, a nil inspector or a
// second one for the same name, as [Runtime.RegisterLoader] does.
func (r *Runtime) RegisterInspector(name string, f Inspector) {
	if name == "" || f == nil {
		panic("models: RegisterInspector with empty name or nil inspector")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.inspectors[name]; dup {
		panic("models: RegisterInspector called twice for backend " + name)
	}
	r.inspectors[name] = f
}

// Inspect runs the inspector of model id's backend on its entry and files.
// It fails as [Runtime.Acquire] would before loading (model_not_found,
// model_downloading, model_not_downloaded …), and with
// [ErrNotInspectable] when the backend has no inspector.
func (r *Runtime) Inspect(ctx context.Context, id string) (any, error) {
	e, err := r.ready(id, true)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	f := r.inspectors[e.Backend]
	r.mu.Unlock()
	if f == nil {
		return nil, fmt.Errorf("%w %q (%s)", ErrNotInspectable, e.Backend, id)
	}
	return f(ctx, r.spec(e))
}

// spec is the LoadSpec of entry e.
func (r *Runtime) spec(e Entry) LoadSpec {
	return LoadSpec{Entry: e, Dir: r.store.Dir(e.ID), Paths: r.store.Paths(e), store: r.store, rt: r}
}

// ready returns the entry of id if it may be loaded: a 404-kind
// model_not_found for an unknown ID, 400-kind model_builtin or model_remote
// for models without lifecycle, 503-kind model_downloading (with
// RetryAfter) while a download job is active and 400-kind
// model_not_downloaded when files are missing.
func (r *Runtime) ready(id string, checkFiles bool) (Entry, error) {
	e, err := r.catalog.Lookup(id)
	if err != nil {
		return e, err
	}
	if err := lifecycleAllowed(e); err != nil {
		return e, err
	}
	if !checkFiles {
		return e, nil
	}
	if r.downloads != nil && r.downloads.Active(id) {
		return e, sotto.Unavailable("model_downloading", r.cfg.DownloadingRetryAfter,
			"%s is still being downloaded; retry when the download has completed", id)
	}
	if missing := r.store.Missing(e); len(missing) > 0 {
		var names, packages []string
		for _, f := range missing {
			names = append(names, f.Name)
			if f.Package != "" && !slices.Contains(packages, f.Package) {
				packages = append(packages, f.Package)
			}
		}
		how := "download it with POST /v1/models/download"
		if len(packages) > 0 {
			how = "install its system files with apt-get install " + strings.Join(packages, " ") +
				" (then POST /v1/models/download for any remaining files)"
		}
		return e, sotto.Invalid("model_not_downloaded", "model",
			"%s is not downloaded (missing %s); %s", id, strings.Join(names, ", "), how)
	}
	return e, nil
}

// isLoaded reports whether id is loaded now, so the file check can be
// skipped.
func (r *Runtime) isLoaded(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	rn := r.runners[id]
	return rn != nil && rn.obj != nil
}

func (r *Runtime) runnerLocked(id string) *runner {
	rn := r.runners[id]
	if rn == nil {
		rn = &runner{id: id}
		r.runners[id] = rn
	}
	return rn
}

// Acquire starts a session on model id and returns its loaded object and
// a release func that ends the session; release is idempotent and must be
// called. Acquire loads the model first when it is not loaded (a cold
// load). When the model's MaxRunning sessions are taken the call waits in a
// FIFO queue of at most MaxQueued entries, until a slot frees or ctx is
// done (then it returns ctx's error). Errors:
//   - 404-kind model_not_found, 400-kind model_builtin or model_remote
//     (param "model");
//   - 503-kind model_downloading while the model is downloaded, and
//     service_busy when the queue is full or, under MaxLoaded, when no
//     idle model can be unloaded to make room, both with RetryAfter;
//   - 400-kind model_not_downloaded when files are missing;
//   - the loader's error when the cold load fails (the next Acquire
//     retries it).
func (r *Runtime) Acquire(ctx context.Context, id string) (io.Closer, func(), error) {
	e, err := r.ready(id, !r.isLoaded(id))
	if err != nil {
		return nil, nil, err
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, nil, errClosed()
	}
	rn := r.runnerLocked(id)
	r.stopIdleLocked(rn)
	switch {
	case rn.running < r.cfg.MaxRunning && len(rn.waiters) == 0:
		rn.running++
	case len(rn.waiters) >= r.cfg.MaxQueued:
		q := len(rn.waiters)
		r.maybeIdleLocked(rn)
		r.mu.Unlock()
		return nil, nil, sotto.Unavailable("service_busy", r.cfg.BusyRetryAfter,
			"%s is busy: %s running and %d waiting; retry later", id, plural(r.cfg.MaxRunning, "session"), q)
	default:
		w := &waiter{ready: make(chan struct{})}
		rn.waiters = append(rn.waiters, w)
		r.mu.Unlock()
		select {
		case <-w.ready:
		case <-ctx.Done():
			r.mu.Lock()
			if w.granted {
				r.releaseLocked(rn)
			} else {
				rn.waiters = slices.DeleteFunc(rn.waiters, func(x *waiter) bool { return x == w })
				r.maybeIdleLocked(rn)
			}
			r.mu.Unlock()
			return nil, nil, fmt.Errorf("models: waiting for %s: %w", id, ctx.Err())
		}
		r.mu.Lock()
	}
	obj, err := r.ensureLoadedLocked(ctx, rn, e)
	if err != nil {
		r.releaseLocked(rn)
		r.mu.Unlock()
		return nil, nil, err
	}
	r.mu.Unlock()
	release := sync.OnceFunc(func() {
		r.mu.Lock()
		r.releaseLocked(rn)
		r.mu.Unlock()
	})
	return obj, release, nil
}

// ensureLoadedLocked returns the loaded object of rn, starting a load or
// joining the one in progress. It is called with r.mu held, and returns
// with it held, releasing it while waiting.
func (r *Runtime) ensureLoadedLocked(ctx context.Context, rn *runner, e Entry) (io.Closer, error) {
	if rn.obj != nil {
		return rn.obj, nil
	}
	op := rn.op
	if op == nil {
		// Checked again under the lock: a Delete since ready ran may have
		// removed the entry or the files (Delete holds r.mu while it does).
		if _, err := r.catalog.Lookup(e.ID); err != nil {
			return nil, err
		}
		if len(r.store.Missing(e)) > 0 {
			return nil, sotto.Invalid("model_not_downloaded", "model",
				"%s is not downloaded (its files were just deleted); download it with POST /v1/models/download", e.ID)
		}
		l := r.loaders[e.Backend]
		if l == nil {
			return nil, sotto.NotImplemented("backend_unavailable",
				"models: no loader for backend %q of %s in this build", e.Backend, e.ID)
		}
		victims, err := r.makeRoomLocked(rn)
		if err != nil {
			return nil, err
		}
		lctx, cancel := context.WithCancel(context.Background())
		op = &loadOp{done: make(chan struct{}), cancel: cancel}
		rn.op = op
		spec := r.spec(e)
		go r.load(lctx, rn, op, l, spec, victims)
	}
	r.mu.Unlock()
	select {
	case <-op.done:
		r.mu.Lock()
	case <-ctx.Done():
		r.mu.Lock()
		return nil, fmt.Errorf("models: loading %s: %w", e.ID, ctx.Err())
	}
	if op.err != nil {
		return nil, op.err
	}
	return rn.obj, nil
}

// makeRoomLocked unloads idle models, least recently used first, until a
// load of rn fits under MaxLoaded, or unloads none and fails with
// service_busy when too few are idle. It returns the objects to close,
// which the load closes outside the lock before it starts.
func (r *Runtime) makeRoomLocked(rn *runner) ([]io.Closer, error) {
	if r.cfg.MaxLoaded <= 0 {
		return nil, nil
	}
	count := 0
	var idle []*runner
	for _, o := range r.runners {
		if o == rn || (o.obj == nil && o.op == nil) {
			continue
		}
		count++
		if o.obj != nil && o.op == nil && o.running == 0 && len(o.waiters) == 0 {
			idle = append(idle, o)
		}
	}
	need := count - r.cfg.MaxLoaded + 1
	if need <= 0 {
		return nil, nil
	}
	if len(idle) < need {
		return nil, sotto.Unavailable("service_busy", r.cfg.BusyRetryAfter,
			"cannot load %s: %d models are loaded and %d of them in use (max %d); retry later",
			rn.id, count, count-len(idle), r.cfg.MaxLoaded)
	}
	slices.SortFunc(idle, func(a, b *runner) int { return a.used.Compare(b.used) })
	victims := make([]io.Closer, 0, need)
	for _, o := range idle[:need] {
		r.stopIdleLocked(o)
		victims = append(victims, o.obj)
		o.obj = nil
		delete(r.runners, o.id)
		r.log.Info("models: unloading to make room", "model", o.id, "for", rn.id)
	}
	return victims, nil
}

// load runs a cold load outside the lock and publishes its result. It
// first closes the models unloaded to make room for it.
func (r *Runtime) load(ctx context.Context, rn *runner, op *loadOp, l Loader, spec LoadSpec, victims []io.Closer) {
	defer op.cancel()
	for _, v := range victims {
		if err := v.Close(); err != nil {
			r.log.Error("models: close while switching models", "error", err)
		}
	}
	start := time.Now()
	r.log.Info("models: loading", "model", rn.id)
	obj, err := safeLoad(ctx, l, spec)
	if err == nil && obj == nil {
		err = fmt.Errorf("models: loader %q returned no object for %s", spec.Entry.Backend, rn.id)
	}
	r.mu.Lock()
	closed := r.closed
	rn.op = nil
	if err != nil {
		op.err = fmt.Errorf("models: load %s: %w", rn.id, err)
		r.log.Error("models: load failed", "model", rn.id, "error", err)
	} else if closed {
		op.err = errClosed()
	} else {
		rn.obj = obj
		rn.used = time.Now()
		r.log.Info("models: loaded", "model", rn.id, "duration", time.Since(start))
	}
	close(op.done)
	r.maybeIdleLocked(rn)
	r.mu.Unlock()
	if err == nil && closed {
		obj.Close()
	}
}

// safeLoad runs l, turning a panic (say, on a corrupt model file) into an
// error so that one bad model cannot take the server down.
func safeLoad(ctx context.Context, l Loader, spec LoadSpec) (obj io.Closer, err error) {
	defer func() {
		if p := recover(); p != nil {
			obj, err = nil, fmt.Errorf("loader %q panicked: %v", spec.Entry.Backend, p)
		}
	}()
	return l(ctx, spec)
}

// releaseLocked ends one session of rn: the slot passes to the first
// waiter, or is freed.
func (r *Runtime) releaseLocked(rn *runner) {
	if len(rn.waiters) > 0 {
		w := rn.waiters[0]
		rn.waiters = rn.waiters[1:]
		w.granted = true
		close(w.ready)
		return
	}
	rn.running--
	rn.used = time.Now()
	r.maybeIdleLocked(rn)
}

// maybeIdleLocked forgets an unloaded runner nobody uses, and starts the
// keep-alive timer of a loaded one.
func (r *Runtime) maybeIdleLocked(rn *runner) {
	if rn.running > 0 || len(rn.waiters) > 0 || rn.op != nil {
		return
	}
	if rn.obj == nil {
		if r.runners[rn.id] == rn {
			delete(r.runners, rn.id)
		}
		return
	}
	if r.cfg.KeepAlive > 0 && rn.idle == nil && !r.closed {
		gen := rn.gen
		rn.idle = time.AfterFunc(r.cfg.KeepAlive, func() { r.expire(rn, gen) })
	}
}

func (r *Runtime) stopIdleLocked(rn *runner) {
	rn.gen++
	if rn.idle != nil {
		rn.idle.Stop()
		rn.idle = nil
	}
}

// expire unloads rn after its keep-alive, unless it was used since.
func (r *Runtime) expire(rn *runner, gen uint64) {
	r.mu.Lock()
	if r.runners[rn.id] != rn || rn.gen != gen || rn.running > 0 || len(rn.waiters) > 0 || rn.obj == nil {
		r.mu.Unlock()
		return
	}
	obj := rn.obj
	rn.obj, rn.idle = nil, nil
	delete(r.runners, rn.id)
	r.mu.Unlock()
	r.log.Info("models: unloading idle model", "model", rn.id, "keep_alive", r.cfg.KeepAlive)
	if err := obj.Close(); err != nil {
		r.log.Error("models: close after keep-alive", "model", rn.id, "error", err)
	}
}

// Load loads model id, or waits for the load in progress, and returns the
// result {success, model, status: "loaded"}. Loading a loaded model
// succeeds at once. If ctx is done first, Load returns ctx's error and the
// load goes on in the background. Errors are those of [Runtime.Acquire];
// service_busy comes only from MaxLoaded.
func (r *Runtime) Load(ctx context.Context, id string) (LifecycleResult, error) {
	e, err := r.ready(id, !r.isLoaded(id))
	if err != nil {
		return LifecycleResult{}, err
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return LifecycleResult{}, errClosed()
	}
	rn := r.runnerLocked(id)
	_, err = r.ensureLoadedLocked(ctx, rn, e)
	r.maybeIdleLocked(rn)
	r.mu.Unlock()
	if err != nil {
		return LifecycleResult{}, err
	}
	return LifecycleResult{Success: true, Model: id, Status: StatusLoaded}, nil
}

// Unload releases model id: it closes the loaded object and drops every
// reference to it; downloaded files stay. Unloading a model that is not
// loaded succeeds too (idempotent), and a load in progress is waited for
// first. While a session holds the model or requests wait for it, Unload
// is refused with a 409-kind *sotto.Error code "model_in_use", param
// "model": finish the sessions and retry. Builtin and remote models give
// model_builtin and model_remote, unknown ones model_not_found. An error
// from the object's Close is returned after the model was removed.
func (r *Runtime) Unload(ctx context.Context, id string) (LifecycleResult, error) {
	if _, err := r.ready(id, false); err != nil {
		return LifecycleResult{}, err
	}
	r.mu.Lock()
	for {
		rn := r.runners[id]
		if rn == nil {
			r.mu.Unlock()
			return LifecycleResult{Success: true, Model: id, Status: StatusUnloaded}, nil
		}
		if rn.running > 0 || len(rn.waiters) > 0 {
			n, q := rn.running, len(rn.waiters)
			r.mu.Unlock()
			return LifecycleResult{}, sotto.Conflict("model_in_use", "model",
				"%s is in use by %s (%d waiting); finish them and retry", id, plural(n, "session"), q)
		}
		if op := rn.op; op != nil {
			r.mu.Unlock()
			select {
			case <-op.done:
			case <-ctx.Done():
				return LifecycleResult{}, fmt.Errorf("models: unload %s: waiting for its load: %w", id, ctx.Err())
			}
			r.mu.Lock()
			continue
		}
		r.stopIdleLocked(rn)
		obj := rn.obj
		rn.obj = nil
		delete(r.runners, id)
		r.mu.Unlock()
		r.log.Info("models: unloading", "model", id)
		if err := obj.Close(); err != nil {
			return LifecycleResult{}, fmt.Errorf("models: unload %s: close: %w", id, err)
		}
		return LifecycleResult{Success: true, Model: id, Status: StatusUnloaded}, nil
	}
}

// Running returns the loaded models, sorted by ID, and the runtime state
// and queues, for GET /v1/models/running. A model being loaded is not in
// Data yet; it appears in Runtime.Queues and makes Runtime.State
// "loading".
func (r *Runtime) Running() RunningList {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := RunningList{
		Object:  "list",
		Data:    []RunningModel{},
		Runtime: RuntimeStatus{State: RuntimeRunning, Queues: map[string]QueueStatus{}},
	}
	for _, id := range slices.Sorted(maps.Keys(r.runners)) {
		rn := r.runners[id]
		if rn.obj != nil {
			out.Data = append(out.Data, RunningModel{ID: id, Status: ModelStatus{Value: StatusLoaded}})
		}
		if rn.op != nil {
			out.Runtime.State = RuntimeLoading
		}
		out.Runtime.Queues[id] = QueueStatus{
			Queued: len(rn.waiters), Running: rn.running, Limit: r.cfg.MaxRunning, MaxQueued: r.cfg.MaxQueued,
		}
	}
	return out
}

// Close cancels loads in progress, waits for them (or ctx) and closes
// every loaded model. Call it after the sessions have ended (after the
// HTTP server's Shutdown); later calls of Acquire and Load fail.
func (r *Runtime) Close(ctx context.Context) error {
	r.mu.Lock()
	r.closed = true
	var ops []*loadOp
	for _, rn := range r.runners {
		if rn.op != nil {
			rn.op.cancel()
			ops = append(ops, rn.op)
		}
	}
	r.mu.Unlock()
	for _, op := range ops {
		select {
		case <-op.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	r.mu.Lock()
	var objs []io.Closer
	for id, rn := range r.runners {
		r.stopIdleLocked(rn)
		if rn.obj != nil {
			objs = append(objs, rn.obj)
			rn.obj = nil
		}
		delete(r.runners, id)
	}
	r.mu.Unlock()
	var errs []error
	for _, o := range objs {
		errs = append(errs, o.Close())
	}
	return errors.Join(errs...)
}

func errClosed() error {
	return sotto.Unavailable("service_busy", 0, "models: the runtime is shut down")
}

// plural writes n and noun, with an s unless n is 1 ("1 session", "2 sessions").
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
