package models

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sottolabs/sotto"
)

// fakeModel is a loaded object that records its Close.
type fakeModel struct {
	id     string
	closed atomic.Bool
}

func (m *fakeModel) Close() error {
	if m.closed.Swap(true) {
		return errors.New("closed twice")
	}
	return nil
}

// loaderLog counts loads and lets a test hold them.
type loaderLog struct {
	mu     sync.Mutex
	loads  int
	models []*fakeModel
	hold   chan struct{} // when non-nil, loads wait for it
	fail   error
}

func (l *loaderLog) load(ctx context.Context, spec LoadSpec) (io.Closer, error) {
	l.mu.Lock()
	l.loads++
	hold, fail := l.hold, l.fail
	l.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if fail != nil {
		return nil, fail
	}
	if spec.Entry.ID == "" || spec.Dir == "" || spec.Config().Model != spec.Entry.ID {
		return nil, errors.New("bad LoadSpec")
	}
	m := &fakeModel{id: spec.Entry.ID}
	l.mu.Lock()
	l.models = append(l.models, m)
	l.mu.Unlock()
	return m, nil
}

func (l *loaderLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.loads
}

// newTestRuntime returns a runtime over the embedded catalog plus
// "Test/Local", a local model with no files (so always downloaded), and
// "Test/Missing", whose file is never downloaded.
func newTestRuntime(t *testing.T, cfg RuntimeConfig) (*Runtime, *loaderLog) {
	t.Helper()
	cat, err := MergeCatalog(DefaultCatalog(), []byte(`{"models": [
	  {"id": "Test/Local", "supported_endpoints": [], "features": [], "default_for": [],
	   "execution_location": "local", "backend": "fake"},
	  {"id": "Test/Other", "supported_endpoints": [], "features": [], "default_for": [],
	   "execution_location": "local", "backend": "fake"},
	  {"id": "Test/Missing", "supported_endpoints": [], "features": [], "default_for": [],
	   "execution_location": "local", "backend": "fake",
	   "files": [{"name": "w.bin", "url": "http://127.0.0.1:1/w.bin"}]}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	store := NewStore(t.TempDir())
	rt := NewRuntime(cat, store, NewDownloader(store, DownloaderConfig{}), cfg)
	l := &loaderLog{}
	rt.RegisterLoader("fake", l.load)
	return rt, l
}

func TestRuntimeLoadUnload(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt, l := newTestRuntime(t, RuntimeConfig{})
		ctx := t.Context()
		res, err := rt.Load(ctx, "Test/Local")
		if want := (LifecycleResult{true, "Test/Local", StatusLoaded}); err != nil || res != want {
			t.Fatalf("Load = %+v, %v; want %+v", res, err, want)
		}
		if _, err := rt.Load(ctx, "Test/Local"); err != nil || l.count() != 1 {
			t.Errorf("second Load = %v with %d loads; want nil and 1 load", err, l.count())
		}
		want := RunningList{
			Object: "list",
			Data:   []RunningModel{{ID: "Test/Local", Status: ModelStatus{Value: StatusLoaded}}},
			Runtime: RuntimeStatus{State: RuntimeRunning, Queues: map[string]QueueStatus{
				"Test/Local": {Queued: 0, Running: 0, Limit: 1, MaxQueued: 16},
			}},
		}
		if diff := cmp.Diff(want, rt.Running()); diff != "" {
			t.Errorf("Running() mismatch (-want +got):\n%s", diff)
		}
		res, err = rt.Unload(ctx, "Test/Local")
		if want := (LifecycleResult{true, "Test/Local", StatusUnloaded}); err != nil || res != want {
			t.Fatalf("Unload = %+v, %v; want %+v", res, err, want)
		}
		if !l.models[0].closed.Load() {
			t.Error("Unload did not Close the loaded object")
		}
		if got := rt.Running(); len(got.Data) != 0 || len(got.Runtime.Queues) != 0 {
			t.Errorf("Running() after unload = %+v; want empty", got)
		}
		// Idempotent.
		if res, err := rt.Unload(ctx, "Test/Local"); err != nil || res.Status != StatusUnloaded {
			t.Errorf("Unload(not loaded) = %+v, %v; want unloaded", res, err)
		}
	})
}

func TestRuntimeErrors(t *testing.T) {
	rt, _ := newTestRuntime(t, RuntimeConfig{})
	ctx := t.Context()
	tests := []struct {
		name string
		call func() error
		code string
		kind error
	}{
		{"load unknown", func() error { _, err := rt.Load(ctx, "Nope/Nope"); return err }, "model_not_found", sotto.ErrNotFound},
		{"acquire unknown", func() error { _, _, err := rt.Acquire(ctx, "Nope/Nope"); return err }, "model_not_found", sotto.ErrNotFound},
		{"unload unknown", func() error { _, err := rt.Unload(ctx, "Nope/Nope"); return err }, "model_not_found", sotto.ErrNotFound},
		{"load builtin", func() error { _, err := rt.Load(ctx, Skylark); return err }, "model_builtin", sotto.ErrInvalidRequest},
		{"unload builtin", func() error { _, err := rt.Unload(ctx, Skylark); return err }, "model_builtin", sotto.ErrInvalidRequest},
		{"acquire builtin", func() error { _, _, err := rt.Acquire(ctx, Skylark); return err }, "model_builtin", sotto.ErrInvalidRequest},
		{"load not downloaded", func() error { _, err := rt.Load(ctx, "Test/Missing"); return err }, "model_not_downloaded", sotto.ErrInvalidRequest},
		{"acquire not downloaded", func() error { _, _, err := rt.Acquire(ctx, "Test/Missing"); return err }, "model_not_downloaded", sotto.ErrInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var se *sotto.Error
			if !errors.As(err, &se) || se.Code != tt.code || !errors.Is(err, tt.kind) || se.Param != "model" {
				t.Errorf("error = %v; want %s (%v) with param model", err, tt.code, tt.kind)
			}
		})
	}
	// A model whose backend has no loader in this build.
	cat, _ := MergeCatalog(nil, []byte(`{"models":[{"id":"Test/NoLoader","supported_endpoints":[],"features":[],"default_for":[],"execution_location":"local","backend":"absent"}]}`))
	rt2 := NewRuntime(cat, NewStore(t.TempDir()), nil, RuntimeConfig{})
	if _, err := rt2.Load(ctx, "Test/NoLoader"); !errors.Is(err, sotto.ErrNotImplemented) {
		t.Errorf("Load(no loader) = %v; want a not-implemented error", err)
	}
	if got := rt2.Running(); len(got.Runtime.Queues) != 0 {
		t.Errorf("failed load left state behind: %+v", got)
	}
}

func TestRuntimeLoadFailureRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt, l := newTestRuntime(t, RuntimeConfig{})
		l.fail = errors.New("out of memory")
		if _, err := rt.Load(t.Context(), "Test/Local"); err == nil || !errors.Is(err, l.fail) {
			t.Fatalf("Load = %v; want the loader's error", err)
		}
		if got := rt.Running(); len(got.Data) != 0 || got.Runtime.State != RuntimeRunning {
			t.Errorf("Running() after failed load = %+v", got)
		}
		l.mu.Lock()
		l.fail = nil
		l.mu.Unlock()
		if _, err := rt.Load(t.Context(), "Test/Local"); err != nil || l.count() != 2 {
			t.Errorf("Load after failure = %v with %d loads; want success on the second load", err, l.count())
		}
	})
}

func TestRuntimeModelSwitch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt, l := newTestRuntime(t, RuntimeConfig{MaxLoaded: 1})
		ctx := context.Background()
		if _, err := rt.Load(ctx, "Test/Local"); err != nil {
			t.Fatal(err)
		}
		// Loading another model unloads the idle one.
		if _, err := rt.Load(ctx, "Test/Other"); err != nil {
			t.Fatal(err)
		}
		if !l.models[0].closed.Load() {
			t.Error("the idle model was not closed to make room")
		}
		running := rt.Running()
		if len(running.Data) != 1 || running.Data[0].ID != "Test/Other" {
			t.Errorf("Running().Data = %+v; want only Test/Other", running.Data)
		}
		// With the loaded model in use, there is no room.
		_, release, err := rt.Acquire(ctx, "Test/Other")
		if err != nil {
			t.Fatal(err)
		}
		_, err = rt.Load(ctx, "Test/Local")
		var se *sotto.Error
		if !errors.As(err, &se) || se.Code != "service_busy" || se.RetryAfter <= 0 {
			t.Errorf("Load with every model in use = %v; want service_busy with RetryAfter", err)
		}
		if l.models[1].closed.Load() {
			t.Error("a model in use was closed")
		}
		release()
		if _, err := rt.Load(ctx, "Test/Local"); err != nil || !l.models[1].closed.Load() {
			t.Errorf("Load after release = %v, Test/Other closed = %v; want the switch", err, l.models[1].closed.Load())
		}
	})
}

func TestRuntimeLoaderPanic(t *testing.T) {
	rt, _ := newTestRuntime(t, RuntimeConfig{})
	rt.RegisterLoader("boom", func(context.Context, LoadSpec) (io.Closer, error) { panic("corrupt mdef") })
	cat, _ := MergeCatalog(rt.catalog, []byte(`{"models":[{"id":"Test/Boom","supported_endpoints":[],"features":[],"default_for":[],"execution_location":"local","backend":"boom"}]}`))
	rt.catalog = cat
	_, _, err := rt.Acquire(t.Context(), "Test/Boom")
	if err == nil || !strings.Contains(err.Error(), "corrupt mdef") {
		t.Errorf("Acquire(panicking loader) = %v; want an error carrying the panic", err)
	}
	if q := rt.Running().Runtime.Queues; len(q) != 0 {
		t.Errorf("queues after a failed load = %+v; want none", q)
	}
}

// TestRuntimeColdLoadOutlivesCaller checks that a caller who goes away
// during a cold load gets its ctx error while the load completes for the
// next caller.
func TestRuntimeColdLoadOutlivesCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt, l := newTestRuntime(t, RuntimeConfig{})
		l.hold = make(chan struct{})
		ctx, cancel := context.WithCancel(context.Background())
		got := make(chan error)
		go func() {
			_, _, err := rt.Acquire(ctx, "Test/Local")
			got <- err
		}()
		synctest.Wait()
		cancel()
		if err := <-got; !errors.Is(err, context.Canceled) {
			t.Fatalf("Acquire = %v; want context.Canceled", err)
		}
		if q := rt.Running().Runtime.Queues["Test/Local"]; q.Running != 0 || rt.Running().Runtime.State != RuntimeLoading {
			t.Errorf("after the caller left: queue %+v, state %s; want no session, still loading", q, rt.Running().Runtime.State)
		}
		close(l.hold)
		synctest.Wait()
		_, release, err := rt.Acquire(context.Background(), "Test/Local")
		if err != nil {
			t.Fatal(err)
		}
		release()
		if l.count() != 1 {
			t.Errorf("loads = %d; want the one cold load", l.count())
		}
	})
}

func TestRuntimeLoadingState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt, l := newTestRuntime(t, RuntimeConfig{})
		l.hold = make(chan struct{})
		done := make(chan error)
		go func() {
			obj, release, err := rt.Acquire(context.Background(), "Test/Local")
			if err == nil {
				if obj.(*fakeModel).id != "Test/Local" {
					err = errors.New("wrong object")
				}
				release()
			}
			done <- err
		}()
		synctest.Wait()
		got := rt.Running()
		if got.Runtime.State != RuntimeLoading || len(got.Data) != 0 {
			t.Errorf("Running() during a cold load = %+v; want state loading, no data", got)
		}
		close(l.hold)
		if err := <-done; err != nil {
			t.Fatalf("Acquire = %v", err)
		}
		got = rt.Running()
		if got.Runtime.State != RuntimeRunning || len(got.Data) != 1 {
			t.Errorf("Running() after the load = %+v; want running with one model", got)
		}
	})
}

func TestRuntimeQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt, l := newTestRuntime(t, RuntimeConfig{MaxRunning: 1, MaxQueued: 1, BusyRetryAfter: 3 * time.Second})
		ctx := context.Background()
		_, release1, err := rt.Acquire(ctx, "Test/Local")
		if err != nil {
			t.Fatal(err)
		}
		// Unload is refused while a session holds the model.
		_, err = rt.Unload(ctx, "Test/Local")
		var se *sotto.Error
		if !errors.As(err, &se) || se.Code != "model_in_use" || se.Param != "model" || !errors.Is(err, sotto.ErrConflict) {
			t.Errorf("Unload(in use) = %v; want 409 model_in_use", err)
		} else if want := "Test/Local is in use by 1 session (0 waiting); finish them and retry"; se.Message != want {
			t.Errorf("Unload(in use) message %q; want %q", se.Message, want)
		}
		second := make(chan error)
		go func() {
			_, release, err := rt.Acquire(ctx, "Test/Local")
			if err == nil {
				release()
			}
			second <- err
		}()
		synctest.Wait() // the second session waits in the queue
		if q := rt.Running().Runtime.Queues["Test/Local"]; q != (QueueStatus{Queued: 1, Running: 1, Limit: 1, MaxQueued: 1}) {
			t.Errorf("queue = %+v; want 1 queued, 1 running", q)
		}
		_, _, err = rt.Acquire(ctx, "Test/Local")
		if !errors.As(err, &se) || se.Code != "service_busy" || se.RetryAfter != 3*time.Second || !errors.Is(err, sotto.ErrUnavailable) {
			t.Errorf("Acquire(queue full) = %v; want 503 service_busy with RetryAfter 3s", err)
		} else if want := "Test/Local is busy: 1 session running and 1 waiting; retry later"; se.Message != want {
			t.Errorf("busy message %q; want %q", se.Message, want)
		}
		release1()
		release1() // idempotent
		if err := <-second; err != nil {
			t.Errorf("queued Acquire = %v; want success", err)
		}
		if q := rt.Running().Runtime.Queues["Test/Local"]; q.Running != 0 || q.Queued != 0 {
			t.Errorf("queue after release = %+v; want empty", q)
		}
		if l.count() != 1 {
			t.Errorf("loads = %d; want 1", l.count())
		}
		if _, err := rt.Unload(ctx, "Test/Local"); err != nil {
			t.Errorf("Unload after release = %v", err)
		}
	})
}

func TestRuntimeQueueCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt, _ := newTestRuntime(t, RuntimeConfig{})
		_, release, err := rt.Acquire(context.Background(), "Test/Local")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		waited := make(chan error)
		go func() {
			_, _, err := rt.Acquire(ctx, "Test/Local")
			waited <- err
		}()
		synctest.Wait()
		cancel()
		if err := <-waited; !errors.Is(err, context.Canceled) {
			t.Errorf("Acquire after cancel = %v; want context.Canceled", err)
		}
		if q := rt.Running().Runtime.Queues["Test/Local"]; q.Queued != 0 || q.Running != 1 {
			t.Errorf("queue = %+v; want the waiter gone", q)
		}
		release()
		if q := rt.Running().Runtime.Queues["Test/Local"]; q.Running != 0 {
			t.Errorf("queue after release = %+v", q)
		}
	})
}

func TestRuntimeKeepAlive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt, l := newTestRuntime(t, RuntimeConfig{KeepAlive: time.Minute})
		_, release, err := rt.Acquire(context.Background(), "Test/Local")
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Minute) // held: no expiry
		synctest.Wait()
		if len(rt.Running().Data) != 1 {
			t.Fatal("model expired while a session held it")
		}
		release()
		time.Sleep(30 * time.Second)
		// A new session restarts the idle clock.
		_, release, _ = rt.Acquire(context.Background(), "Test/Local")
		release()
		time.Sleep(45 * time.Second)
		synctest.Wait()
		if len(rt.Running().Data) != 1 {
			t.Fatal("model expired before its keep-alive since the last session")
		}
		time.Sleep(30 * time.Second)
		synctest.Wait()
		if got := rt.Running(); len(got.Data) != 0 {
			t.Fatalf("Running() after keep-alive = %+v; want empty", got)
		}
		if !l.models[0].closed.Load() || l.count() != 1 {
			t.Errorf("expired model closed = %v, loads = %d", l.models[0].closed.Load(), l.count())
		}
	})
}

func TestRuntimeModelDownloading(t *testing.T) {
	b := newBlob(1<<20, 10)
	d, fs, e := setup(t, b, b.sum)
	fs.set(func(s *fileServer) { s.gate, s.reached = make(chan struct{}), make(chan struct{}) })
	cat, err := MergeCatalog(nil, must(catalogJSON(e)))
	if err != nil {
		t.Fatal(err)
	}
	rt := NewRuntime(cat, d.store, d, RuntimeConfig{DownloadingRetryAfter: 7 * time.Second})
	l := &loaderLog{}
	rt.RegisterLoader("test", l.load)
	if _, err := d.Start(e); err != nil {
		t.Fatal(err)
	}
	<-fs.reached
	_, _, err = rt.Acquire(t.Context(), e.ID)
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "model_downloading" || se.RetryAfter != 7*time.Second {
		t.Errorf("Acquire(downloading) = %v; want 503 model_downloading with RetryAfter 7s", err)
	}
	close(fs.gate)
	wait(t, d, e.ID)
	obj, release, err := rt.Acquire(t.Context(), e.ID)
	if err != nil {
		t.Fatalf("Acquire after download = %v", err)
	}
	release()
	if obj.(*fakeModel).id != e.ID {
		t.Errorf("Acquire returned %v", obj)
	}
	if err := rt.Close(t.Context()); err != nil || !obj.(*fakeModel).closed.Load() {
		t.Errorf("Close = %v; the model must be closed", err)
	}
	if _, _, err := rt.Acquire(t.Context(), e.ID); !errors.Is(err, sotto.ErrUnavailable) {
		t.Errorf("Acquire after Close = %v; want unavailable", err)
	}
}

func catalogJSON(e Entry) ([]byte, error) {
	c := &Catalog{byID: map[string]int{}}
	c.add(e)
	return c.MarshalJSON()
}

func TestRuntimeUnloadWaitsForLoad(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt, l := newTestRuntime(t, RuntimeConfig{})
		l.hold = make(chan struct{})
		loaded, unloaded := make(chan error), make(chan LifecycleResult)
		go func() {
			_, err := rt.Load(context.Background(), "Test/Local")
			loaded <- err
		}()
		synctest.Wait()
		go func() {
			res, err := rt.Unload(context.Background(), "Test/Local")
			if err != nil {
				t.Errorf("Unload = %v", err)
			}
			unloaded <- res
		}()
		synctest.Wait()
		select {
		case res := <-unloaded:
			t.Fatalf("Unload returned %+v during the load", res)
		default:
		}
		close(l.hold)
		if err := <-loaded; err != nil {
			t.Fatalf("Load = %v", err)
		}
		if res := <-unloaded; res.Status != StatusUnloaded || !l.models[0].closed.Load() {
			t.Errorf("Unload = %+v, closed = %v; want unloaded and closed", res, l.models[0].closed.Load())
		}
	})
}

// TestRuntimeInspect: an inspector sees the entry and its files and leaves
// the model unloaded, with no runtime state; Inspect fails as Acquire
// does before loading, and with ErrNotInspectable for a backend without an
// inspector.
func TestRuntimeInspect(t *testing.T) {
	rt, l := newTestRuntime(t, RuntimeConfig{})
	ctx := t.Context()
	if _, err := rt.Inspect(ctx, "Test/Local"); !errors.Is(err, ErrNotInspectable) {
		t.Errorf("Inspect without an inspector = %v; want ErrNotInspectable", err)
	}
	rt.RegisterInspector("fake", func(_ context.Context, spec LoadSpec) (any, error) {
		return spec.Entry.ID + " in " + filepath.Base(spec.Dir), nil
	})
	got, err := rt.Inspect(ctx, "Test/Local")
	if want := "Test/Local in " + filepath.Base(rt.store.Dir("Test/Local")); err != nil || got != want {
		t.Errorf("Inspect = %v, %v; want %q", got, err, want)
	}
	if l.count() != 0 || len(rt.Running().Data) != 0 || len(rt.Running().Runtime.Queues) != 0 {
		t.Errorf("Inspect loaded (%d loads) or left state: %+v", l.count(), rt.Running())
	}
	for id, code := range map[string]string{"Nope/Nope": "model_not_found", "Test/Missing": "model_not_downloaded", Skylark: "model_builtin"} {
		var se *sotto.Error
		if _, err := rt.Inspect(ctx, id); !errors.As(err, &se) || se.Code != code {
			t.Errorf("Inspect(%s) = %v; want %s", id, err, code)
		}
	}
}

// TestLoadSpecRequire: a loaded model resolves another model it uses at
// run time (Sotto/Lattice-1's speaker network) when it needs it, getting
// the error a request for that model would get until it is downloaded.
func TestLoadSpecRequire(t *testing.T) {
	b := newBlob(1<<20, 12)
	d, fs, e := setup(t, b, b.sum)
	fs.set(func(s *fileServer) { s.gate, s.reached = make(chan struct{}), make(chan struct{}) })
	cat, err := MergeCatalog(nil, must(catalogJSON(e)))
	if err != nil {
		t.Fatal(err)
	}
	cat, err = MergeCatalog(cat, []byte(`{"models": [{"id": "Test/User", "supported_endpoints": [], "features": [],
	  "default_for": [], "execution_location": "local", "backend": "user"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rt := NewRuntime(cat, d.store, d, RuntimeConfig{DownloadingRetryAfter: 3 * time.Second})
	defer rt.Close(context.Background())
	var spec LoadSpec
	rt.RegisterLoader("user", func(ctx context.Context, s LoadSpec) (io.Closer, error) {
		spec = s
		return &fakeModel{id: s.Entry.ID}, nil
	})
	_, release, err := rt.Acquire(t.Context(), "Test/User")
	if err != nil {
		t.Fatal(err)
	}
	release()
	if _, err := spec.Require(e.ID); !isCode(err, "model_not_downloaded", sotto.ErrInvalidRequest) {
		t.Errorf("Require(not downloaded) = %v; want model_not_downloaded", err)
	}
	if _, err := spec.Require("Nope/Nope"); !isCode(err, "model_not_found", sotto.ErrNotFound) {
		t.Errorf("Require(unknown) = %v; want model_not_found", err)
	}
	if _, err := d.Start(e); err != nil {
		t.Fatal(err)
	}
	<-fs.reached
	var se *sotto.Error
	if _, err := spec.Require(e.ID); !errors.As(err, &se) || se.Code != "model_downloading" || se.RetryAfter != 3*time.Second {
		t.Errorf("Require(downloading) = %v; want 503 model_downloading with RetryAfter 3s", err)
	}
	close(fs.gate)
	wait(t, d, e.ID)
	got, err := spec.Require(e.ID)
	if err != nil {
		t.Fatalf("Require(downloaded) = %v", err)
	}
	p, err := got.Path(e.Files[0].Name)
	if err != nil || got.Entry.ID != e.ID || got.Paths[e.Files[0].Name] != p {
		t.Errorf("Require(downloaded) = %+v, path %q (%v); want the entry with its file", got, p, err)
	}
	if _, err := (LoadSpec{Entry: Entry{ID: "Test/Bare"}}).Require(e.ID); err == nil {
		t.Error("Require without a runtime succeeded")
	}
}
