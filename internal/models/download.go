package models

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"iter"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sottolabs/sotto"
)

// JobState is the state of a download job.
//
//	downloading ──finish──▶ completed
//	     │      ──error───▶ failed      (error set; a new POST restarts it)
//	     └─cancel─▶ cancelling ──▶ cancelled   (or completed, when the last
//	                                             file was already committed)
type JobState string

// Download job states. Completed, Cancelled and Failed are terminal.
const (
	StateDownloading JobState = "downloading"
	StateCancelling  JobState = "cancelling"
	StateCompleted   JobState = "completed"
	StateCancelled   JobState = "cancelled"
	StateFailed      JobState = "failed"
)

// Terminal reports whether no further transition follows s.
func (s JobState) Terminal() bool {
	return s == StateCompleted || s == StateCancelled || s == StateFailed
}

// Job is a snapshot of a download job, in the spec's wire form.
type Job struct {
	Model string   `json:"model"`
	State JobState `json:"state"`
	// BytesDownloaded counts the bytes on disk of the model's downloadable
	// files, partial files included.
	BytesDownloaded int64 `json:"bytes_downloaded"`
	// TotalBytes is the sum of the files' sizes, or 0 while any size is
	// unknown. A completed job has BytesDownloaded == TotalBytes.
	TotalBytes int64 `json:"total_bytes"`
	// Error is set when State is failed.
	Error *string `json:"error"`
	// XSotto carries what the spec's shape has no field for: while an
	// attempt has failed and the next one waits, "retry" says why.
	XSotto *JobExtra `json:"x_sotto,omitempty"`
}

// JobExtra is the x_sotto object of a [Job].
type JobExtra struct {
	Retry *JobRetry `json:"retry,omitempty"`
}

// JobRetry describes a download that failed an attempt and will try again
// (State stays downloading): the failures in a row, the last one's error,
// and when the next attempt starts.
type JobRetry struct {
	Failures    int       `json:"failures"`
	LastError   string    `json:"last_error"`
	NextAttempt time.Time `json:"next_attempt_at"`
}

// CancelResult is the answer to a cancel request.
type CancelResult struct {
	Model string   `json:"model"`
	State JobState `json:"state"`
}

// errCancelRequested is the cancellation cause of a job cancelled by
// [Downloader.Cancel]; anything else (shutdown) also ends a job cancelled.
var errCancelRequested = errors.New("download cancelled")

// errShutdown is the cancellation cause of a job stopped by
// [Downloader.Close]: it ends cancelled, but its partial files are kept, so
// that the next download of the model resumes them (as after a crash).
var errShutdown = errors.New("download stopped: the downloader was closed")

// errStalled ends an attempt that received no bytes for the stall timeout.
var errStalled = errors.New("no data received within the stall timeout")

// permanentError marks an attempt failure that retrying cannot fix.
type permanentError struct{ error }

func (e permanentError) Unwrap() error { return e.error }

// job is the mutable state behind a [Job]; the Downloader's mutex guards it.
type job struct {
	model    string
	state    JobState
	err      string
	have     []int64   // bytes on disk per downloadable file
	size     []int64   // expected bytes per file, -1 while unknown
	retry    *JobRetry // the last failed attempt while the next one waits
	cancel   context.CancelCauseFunc
	changed  chan struct{} // closed and replaced on every change
	finished chan struct{} // closed when the job reaches a terminal state
}

func (j *job) snapshot() Job {
	s := Job{Model: j.model, State: j.state}
	known := true
	for i := range j.have {
		s.BytesDownloaded += j.have[i]
		if j.size[i] < 0 {
			known = false
		} else {
			s.TotalBytes += j.size[i]
		}
	}
	if !known {
		s.TotalBytes = 0
	}
	if j.err != "" {
		e := j.err
		s.Error = &e
	}
	if j.retry != nil && j.state == StateDownloading {
		r := *j.retry
		s.XSotto = &JobExtra{Retry: &r}
	}
	return s
}

// setRetry records a failed attempt of j (nil: an attempt succeeded).
func (d *Downloader) setRetry(j *job, r *JobRetry) {
	d.mu.Lock()
	j.retry = r
	j.notify()
	d.mu.Unlock()
}

func (j *job) notify() {
	close(j.changed)
	j.changed = make(chan struct{})
}

// DownloaderConfig configures a [Downloader]. The zero value of every field
// selects the documented default.
type DownloaderConfig struct {
	// Client performs the requests. Nil means a client with a 30 s connect
	// timeout, a 15 s TLS handshake timeout, a 60 s response-header timeout,
	// proxies from the environment and no overall timeout, so a long body
	// is never cut off.
	Client *http.Client
	// UserAgent is sent with every request; "" means "sotto-models/1 (+https://github.com/sottolabs/sotto)".
	UserAgent string
	// Retries bounds the consecutive failed attempts per file that made no
	// new progress; 0 means 5, negative means no retry.
	Retries int
	// RetryDelay is the first back-off between attempts, doubled each time
	// up to 30 s; 0 means 1 s.
	RetryDelay time.Duration
	// StallTimeout ends an attempt (which is then retried) that receives no
	// body bytes for this long; 0 means 2 min.
	StallTimeout time.Duration
	// Logger receives one line per attempt failure and per job end; nil
	// discards.
	Logger *slog.Logger
}

// Downloader runs background download jobs into a [Store], at most one job
// per model. It is safe for concurrent use by multiple goroutines.
type Downloader struct {
	store *Store
	cfg   DownloaderConfig
	log   *slog.Logger

	mu     sync.Mutex
	jobs   map[string]*job
	closed bool
	wg     sync.WaitGroup
}

// DefaultUserAgent is the User-Agent of downloads unless configured.
const DefaultUserAgent = "sotto-models/1 (+https://github.com/sottolabs/sotto)"

// NewDownloader returns a downloader writing into store.
func NewDownloader(store *Store, cfg DownloaderConfig) *Downloader {
	if cfg.Client == nil {
		cfg.Client = DefaultHTTPClient()
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.Retries == 0 {
		cfg.Retries = 5
	} else if cfg.Retries < 0 {
		cfg.Retries = 0
	}
	if cfg.RetryDelay <= 0 {
		cfg.RetryDelay = time.Second
	}
	if cfg.StallTimeout <= 0 {
		cfg.StallTimeout = 2 * time.Minute
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Downloader{store: store, cfg: cfg, log: log, jobs: map[string]*job{}}
}

// DefaultHTTPClient returns the client used when none is configured: time
// limits on connecting, the TLS handshake and the response headers, none on
// the body.
func DefaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = 15 * time.Second
	t.ResponseHeaderTimeout = 60 * time.Second
	t.ExpectContinueTimeout = time.Second
	return &http.Client{Transport: t}
}

// Start starts downloading the required files of e in the background and
// returns the job's first snapshot:
//   - a job already downloading is returned as it is;
//   - a job still cancelling gives a 503-kind error "download_cancelling"
//     with a RetryAfter of 1 s (it restarts once the job is cancelled);
//   - a model whose files are all present gives a completed job at once,
//     without any request;
//   - a model that needs a system file that is not installed gives a job
//     that is failed at once, its error naming the Debian package;
//   - otherwise (no job, or a completed, failed or cancelled one) a new job
//     starts, resuming any partial files.
//
// Builtin models give a 400-kind "model_builtin" error, remote models a
// 400-kind "model_remote" error, both with param "model".
func (d *Downloader) Start(e Entry) (Job, error) {
	if err := lifecycleAllowed(e); err != nil {
		return Job{}, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return Job{}, sotto.Unavailable("service_busy", 0, "models: the downloader is shut down")
	}
	if j := d.jobs[e.ID]; j != nil {
		switch j.state {
		case StateDownloading:
			return j.snapshot(), nil
		case StateCancelling:
			return Job{}, sotto.Unavailable("download_cancelling", time.Second,
				"the download of %s is being cancelled; retry when its state is cancelled", e.ID)
		}
	}
	files := e.DownloadFiles()
	m := d.store.readMarker(e.ID)
	j := &job{model: e.ID, state: StateDownloading, changed: make(chan struct{}), finished: make(chan struct{})}
	var missingSystem, packages []string
	var todo []File
	var slots []int // progress slot of each todo file
	for _, f := range files {
		ok, size := d.store.fileState(e.ID, f, m)
		switch {
		case f.SystemPath != "":
			if !ok {
				missingSystem = append(missingSystem, f.SystemPath)
				if f.Package != "" && !slices.Contains(packages, f.Package) {
					packages = append(packages, f.Package)
				}
			}
		case ok:
			j.have = append(j.have, size)
			j.size = append(j.size, size)
		default:
			slots = append(slots, len(j.have))
			j.have = append(j.have, partialSize(d.store, e.ID, f))
			j.size = append(j.size, cmpSize(f.Size))
			todo = append(todo, f)
		}
	}
	if len(missingSystem) > 0 {
		j.state = StateFailed
		j.err = fmt.Sprintf("models: %s needs system files that a download cannot provide: %s",
			e.ID, strings.Join(missingSystem, ", "))
		if len(packages) > 0 {
			j.err += fmt.Sprintf("; install them with: apt-get install %s", strings.Join(packages, " "))
		}
		close(j.finished)
		d.jobs[e.ID] = j
		return j.snapshot(), nil
	}
	if len(todo) == 0 {
		j.state = StateCompleted
		close(j.finished)
		d.jobs[e.ID] = j
		return j.snapshot(), nil
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	j.cancel = cancel
	d.jobs[e.ID] = j
	d.wg.Add(1)
	go d.run(ctx, j, e, todo, slots)
	// The accepted job as the spec's state table gives it (part 3): nothing
	// downloaded and the total unknown yet; GET /v1/models/downloads shows
	// the sizes and the bytes a resumed download already has.
	return Job{Model: e.ID, State: StateDownloading}, nil
}

func cmpSize(n int64) int64 {
	if n > 0 {
		return n
	}
	return -1
}

func partialSize(s *Store, id string, f File) int64 {
	fi, err := os.Stat(filepath.Join(s.Dir(id), filepath.FromSlash(f.Name)) + partSuffix)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// Cancel asks the active job of model id to stop and returns at once with
// state cancelling; the job then ends cancelled (its partial files are
// deleted) — or completed, when cancellation came after the last file was
// committed. Cancelling a job that is already cancelling returns the same
// result. A model without an active job gives a 400-kind error
// "download_not_active" with param "model".
func (d *Downloader) Cancel(e Entry) (CancelResult, error) {
	if err := lifecycleAllowed(e); err != nil {
		return CancelResult{}, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	j := d.jobs[e.ID]
	if j == nil || j.state.Terminal() {
		return CancelResult{}, sotto.Invalid("download_not_active", "model", "no download of %s is active", e.ID)
	}
	if j.state == StateDownloading {
		j.state = StateCancelling
		j.cancel(errCancelRequested)
		j.notify()
	}
	return CancelResult{Model: e.ID, State: j.state}, nil
}

// Jobs returns a snapshot of every job, sorted by model. A job stays listed
// after it ends, until a new Start for its model replaces it.
func (d *Downloader) Jobs() []Job {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Job, 0, len(d.jobs))
	for _, j := range d.jobs {
		out = append(out, j.snapshot())
	}
	slices.SortFunc(out, func(a, b Job) int { return strings.Compare(a.Model, b.Model) })
	return out
}

// Job returns a snapshot of the job of model id and whether there is one.
func (d *Downloader) Job(id string) (Job, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	j := d.jobs[id]
	if j == nil {
		return Job{}, false
	}
	return j.snapshot(), true
}

// Active reports whether model id is downloading or cancelling.
func (d *Downloader) Active(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	j := d.jobs[id]
	return j != nil && !j.state.Terminal()
}

// Watch returns a single-use iterator over the snapshots of the job of
// model id: the current one first, then one per change (changes that happen
// between two steps are coalesced), ending after a terminal state. It yields
// a 400-kind "download_not_active" error when there is no job, and ctx's
// error, last, when ctx is done first.
func (d *Downloader) Watch(ctx context.Context, id string) iter.Seq2[Job, error] {
	return func(yield func(Job, error) bool) {
		d.mu.Lock()
		j := d.jobs[id]
		d.mu.Unlock()
		if j == nil {
			yield(Job{}, sotto.Invalid("download_not_active", "model", "no download of %s exists", id))
			return
		}
		for {
			d.mu.Lock()
			snap, ch := j.snapshot(), j.changed
			d.mu.Unlock()
			if !yield(snap, nil) || snap.State.Terminal() {
				return
			}
			select {
			case <-ch:
			case <-ctx.Done():
				yield(Job{}, ctx.Err())
				return
			}
		}
	}
}

// Close cancels every active job and waits until they have ended or ctx is
// done. Unlike [Downloader.Cancel], it keeps the jobs' partial files: a
// server stopped with Ctrl-C resumes them on the next download. Start
// fails after Close.
func (d *Downloader) Close(ctx context.Context) error {
	d.mu.Lock()
	d.closed = true
	for _, j := range d.jobs {
		if j.state == StateDownloading {
			j.state = StateCancelling
			j.cancel(errShutdown)
			j.notify()
		}
	}
	d.mu.Unlock()
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run downloads todo, whose progress slots in j are slots, and sets the
// terminal state.
func (d *Downloader) run(ctx context.Context, j *job, e Entry, todo []File, slots []int) {
	defer d.wg.Done()
	d.probeSizes(ctx, j, todo, slots)
	var err error
	for i, f := range todo {
		if err = d.fetch(ctx, j, e, slots[i], f); err != nil {
			break
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case err == nil:
		j.state = StateCompleted
		for i := range j.size { // the last file's size may have been unknown
			j.size[i] = j.have[i]
		}
	case j.state == StateCancelling || errors.Is(err, context.Canceled):
		j.state = StateCancelled
		if context.Cause(ctx) != errShutdown {
			for _, f := range todo {
				d.store.removePartial(e.ID, f)
			}
			for _, i := range slots {
				j.have[i] = 0
			}
		}
	default:
		j.state = StateFailed
		j.err = err.Error()
	}
	d.log.Info("models: download finished", "model", e.ID, "state", j.state, "error", j.err)
	j.cancel(nil)
	j.notify()
	close(j.finished)
}

// probeSizes asks the server, with HEAD, for the length of each file whose
// size is not in the catalog, so that total_bytes is known from the start
// of a job rather than only when its last file starts. A failed probe
// leaves the size unknown; the GET sets it later.
func (d *Downloader) probeSizes(ctx context.Context, j *job, todo []File, slots []int) {
	for k, f := range todo {
		d.mu.Lock()
		known := j.size[slots[k]] >= 0
		d.mu.Unlock()
		if known {
			continue
		}
		hctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		req, err := http.NewRequestWithContext(hctx, http.MethodHead, f.URL, nil)
		if err != nil {
			cancel()
			continue
		}
		req.Header.Set("User-Agent", d.cfg.UserAgent)
		req.Header.Set("Accept-Encoding", "identity")
		resp, err := d.cfg.Client.Do(req)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK && resp.ContentLength > 0 {
			d.mu.Lock()
			if j.size[slots[k]] < 0 {
				j.size[slots[k]] = resp.ContentLength
				j.notify()
			}
			d.mu.Unlock()
		}
	}
}

func (d *Downloader) progress(j *job, i int, have, size int64) {
	d.mu.Lock()
	j.have[i] = have
	if size >= 0 {
		j.size[i] = size
	}
	j.notify()
	d.mu.Unlock()
}

// partMeta holds the validators of a partial download, for If-Range.
type partMeta struct {
	URL          string `json:"url"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
}

// fetch downloads one file with resuming retries, verifies it and commits
// it to the store.
func (d *Downloader) fetch(ctx context.Context, j *job, e Entry, i int, f File) error {
	dir := d.store.Dir(e.ID)
	final := filepath.Join(dir, filepath.FromSlash(f.Name))
	part := final + partSuffix
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fmt.Errorf("models: %s: %w", e.ID, err)
	}
	meta := readPartMeta(part)
	if meta.URL != f.URL {
		os.Remove(part)
		meta = partMeta{URL: f.URL}
	}
	var high int64 = -1 // most bytes ever on disk; progress beyond it resets the retry budget
	failures := 0
	hs := newRunningHash()
	for {
		n, err := d.attempt(ctx, j, i, f, part, &meta, hs)
		if err == nil {
			if failures > 0 {
				d.setRetry(j, nil)
			}
			break
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		var perm permanentError
		if errors.As(err, &perm) {
			return fmt.Errorf("models: %s: %s: %w", e.ID, f.Name, err)
		}
		if n > high {
			high = n
			failures = 0
		}
		failures++
		if failures > d.cfg.Retries {
			return fmt.Errorf("models: %s: %s: giving up after %d attempts: %w", e.ID, f.Name, failures, err)
		}
		delay := d.cfg.RetryDelay << min(failures-1, 16)
		delay = min(delay, 30*time.Second)
		d.log.Warn("models: download attempt failed; retrying", "model", e.ID, "file", f.Name,
			"bytes", n, "delay", delay, "error", err)
		d.setRetry(j, &JobRetry{Failures: failures, LastError: fmt.Sprintf("%s: %v", f.Name, err),
			NextAttempt: time.Now().Add(delay).UTC().Truncate(time.Second)})
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return context.Cause(ctx)
		}
	}
	sum, size, err := hs.sum(ctx, part)
	if err != nil {
		return fmt.Errorf("models: %s: %s: %w", e.ID, f.Name, err)
	}
	for _, c := range []struct{ name, got, want string }{{"sha256", sum.sha256, f.SHA256}, {"sha1", sum.sha1, f.SHA1}} {
		if c.want != "" && c.got != c.want {
			os.Remove(part)
			os.Remove(final + metaSuffix)
			d.progress(j, i, 0, -1)
			return fmt.Errorf("models: %s: %s: %s mismatch: downloaded %s, catalog says %s (the partial file was deleted)",
				e.ID, f.Name, c.name, c.got, c.want)
		}
	}
	if f.Size > 0 && size != f.Size {
		os.Remove(part)
		os.Remove(final + metaSuffix)
		d.progress(j, i, 0, -1)
		return fmt.Errorf("models: %s: %s: size mismatch: downloaded %d bytes, catalog says %d", e.ID, f.Name, size, f.Size)
	}
	if f.Extract != "" {
		err = extractTarGz(ctx, part, final, f.Members)
	} else {
		err = os.Rename(part, final)
	}
	if err != nil {
		return fmt.Errorf("models: %s: %s: %w", e.ID, f.Name, err)
	}
	os.Remove(part)
	os.Remove(final + metaSuffix)
	d.progress(j, i, size, size)
	return d.store.record(e.ID, f.Name, markerRecord{
		URL: f.URL, Size: size, SHA256: sum.sha256, SHA1: sum.sha1, Verified: f.SHA256 != "" || f.SHA1 != "", Time: time.Now().UTC(),
	})
}

func readPartMeta(part string) partMeta {
	var m partMeta
	data, err := os.ReadFile(strings.TrimSuffix(part, partSuffix) + metaSuffix)
	if err == nil {
		json.Unmarshal(data, &m)
	}
	return m
}

func writePartMeta(part string, m partMeta) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return os.WriteFile(strings.TrimSuffix(part, partSuffix)+metaSuffix, data, 0o644)
}

// attempt makes one request for the rest of the file and appends the body
// to part. It returns the bytes on disk afterwards. Errors that retrying
// cannot fix are permanentError.
func (d *Downloader) attempt(ctx context.Context, j *job, i int, f File, part string, meta *partMeta, hs *runningHash) (int64, error) {
	var offset int64
	if fi, err := os.Stat(part); err == nil {
		offset = fi.Size()
	}
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(actx, http.MethodGet, f.URL, nil)
	if err != nil {
		return offset, permanentError{err}
	}
	req.Header.Set("User-Agent", d.cfg.UserAgent)
	req.Header.Set("Accept-Encoding", "identity") // byte ranges of the file itself
	if offset > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", offset))
		if meta.ETag != "" && !strings.HasPrefix(meta.ETag, "W/") {
			req.Header.Set("If-Range", meta.ETag)
		} else if meta.LastModified != "" {
			req.Header.Set("If-Range", meta.LastModified)
		}
	}
	resp, err := d.cfg.Client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = redactURL(ue.URL) // job errors reach API clients and logs
		}
		return offset, err
	}
	defer resp.Body.Close()

	total := int64(-1) // size of the whole file, when known
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	newMeta := false // a 200: the validators of a new .part are written once its size is accepted
	switch {
	case resp.StatusCode == http.StatusOK:
		offset = 0
		flags |= os.O_TRUNC
		if resp.ContentLength >= 0 {
			total = resp.ContentLength
		}
		meta.ETag, meta.LastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
		newMeta = true
	case resp.StatusCode == http.StatusPartialContent && offset > 0:
		start, _, whole, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != offset {
			os.Remove(part)
			return 0, fmt.Errorf("server answered range %q to a request from byte %d; restarting the file",
				resp.Header.Get("Content-Range"), offset)
		}
		total = whole
		if total < 0 && resp.ContentLength >= 0 {
			total = offset + resp.ContentLength
		}
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && offset > 0:
		_, _, whole, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if ok && whole == offset {
			d.progress(j, i, offset, offset)
			return offset, nil // the partial file is already complete; sum hashes it
		}
		os.Remove(part)
		return 0, fmt.Errorf("server refused the range from byte %d; restarting the file", offset)
	case resp.StatusCode == http.StatusRequestTimeout, resp.StatusCode == http.StatusTooManyRequests,
		resp.StatusCode >= 500:
		return offset, fmt.Errorf("GET %s: %s", redactURL(f.URL), resp.Status)
	default:
		return offset, permanentError{fmt.Errorf("GET %s: %s", redactURL(f.URL), resp.Status)}
	}
	if f.Size > 0 && total >= 0 && total != f.Size {
		return offset, permanentError{fmt.Errorf("server reports %d bytes; the catalog says %d", total, f.Size)}
	}
	if newMeta {
		// Not before the size check: a refused file left a .part.meta
		// without its .part in the model's directory.
		if err := writePartMeta(part, *meta); err != nil {
			return offset, err
		}
	}
	d.progress(j, i, offset, total)

	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return offset, permanentError{err}
	}
	if err := hs.catchUp(ctx, part, offset); err != nil {
		out.Close()
		return offset, err
	}
	stall := time.AfterFunc(d.cfg.StallTimeout, func() { cancel(errStalled) })
	defer stall.Stop()
	have := offset
	buf := make([]byte, 256<<10)
	var copyErr error
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			stall.Reset(d.cfg.StallTimeout)
			if _, werr := out.Write(buf[:n]); werr != nil {
				copyErr = permanentError{werr}
				break
			}
			hs.write(buf[:n])
			have += int64(n)
			d.progress(j, i, have, total)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			if c := context.Cause(actx); c == errStalled {
				rerr = errStalled
			}
			copyErr = rerr
			break
		}
	}
	d.progress(j, i, have, total)
	if err := out.Sync(); err != nil && copyErr == nil {
		copyErr = err
	}
	if err := out.Close(); err != nil && copyErr == nil {
		copyErr = err
	}
	if copyErr != nil {
		return have, copyErr
	}
	if total >= 0 && have != total {
		return have, fmt.Errorf("body ended at byte %d of %d", have, total)
	}
	return have, nil
}

// parseContentRange parses "bytes start-end/total" or "bytes */total"; a
// total of "*" gives -1.
func parseContentRange(s string) (start, end, total int64, ok bool) {
	rest, found := strings.CutPrefix(s, "bytes ")
	if !found {
		return 0, 0, 0, false
	}
	rng, tot, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, 0, false
	}
	total = -1
	if tot != "*" {
		t, err := strconv.ParseInt(tot, 10, 64)
		if err != nil || t < 0 {
			return 0, 0, 0, false
		}
		total = t
	}
	if rng == "*" {
		return -1, -1, total, total >= 0
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, 0, false
	}
	start, err1 := strconv.ParseInt(a, 10, 64)
	end, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || start < 0 || end < start || (total >= 0 && end >= total) {
		return 0, 0, 0, false
	}
	return start, end, total, true
}

// redactURL drops the query and user info, which may carry tokens.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(invalid URL)"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment = nil, "", false, ""
	return u.String()
}

// digests are the hex digests of a downloaded file: SHA-256 (recorded for
// every file) and SHA-1 (which some upstreams publish, e.g. whisper.cpp's
// model table).
type digests struct{ sha256, sha1 string }

// runningHash is the SHA-256 and SHA-1 of the first n bytes of a partial
// file, computed while they are written so the finished file need not be
// read again.
type runningHash struct {
	h256, h1 hash.Hash
	n        int64
}

func newRunningHash() *runningHash { return &runningHash{h256: sha256.New(), h1: sha1.New()} }

func (hs *runningHash) write(b []byte) {
	hs.h256.Write(b)
	hs.h1.Write(b)
	hs.n += int64(len(b))
}

func (hs *runningHash) Write(b []byte) (int, error) { hs.write(b); return len(b), nil }

func (hs *runningHash) digests() digests {
	return digests{hex.EncodeToString(hs.h256.Sum(nil)), hex.EncodeToString(hs.h1.Sum(nil))}
}

// catchUp makes hs cover exactly the first offset bytes of the file at p,
// re-reading them when the hash does not (a resumed or restarted file).
func (hs *runningHash) catchUp(ctx context.Context, p string, offset int64) error {
	if hs.n == offset {
		return nil
	}
	hs.h256.Reset()
	hs.h1.Reset()
	hs.n = 0
	if offset == 0 {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := copyCtx(ctx, hs, io.LimitReader(f, offset))
	if err == nil && n != offset {
		err = fmt.Errorf("partial file shorter than %d bytes", offset)
	}
	return err
}

// sum returns the digests and size of the finished file at p, from the
// running hash when it covers the whole file.
func (hs *runningHash) sum(ctx context.Context, p string) (digests, int64, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return digests{}, 0, err
	}
	if hs.n == fi.Size() {
		return hs.digests(), hs.n, nil
	}
	return hashFile(ctx, p)
}

// copyCtx copies src to dst in 1 MiB chunks, checking ctx between them.
func copyCtx(ctx context.Context, dst io.Writer, src io.Reader) (int64, error) {
	buf := make([]byte, 1<<20)
	var n int64
	for {
		if ctx.Err() != nil {
			return n, context.Cause(ctx)
		}
		k, err := src.Read(buf)
		if k > 0 {
			dst.Write(buf[:k])
			n += int64(k)
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// hashFile returns the digests and size of the file at p.
func hashFile(ctx context.Context, p string) (digests, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return digests{}, 0, err
	}
	defer f.Close()
	hs := newRunningHash()
	n, err := copyCtx(ctx, hs, f)
	if err != nil {
		return digests{}, 0, err
	}
	return hs.digests(), n, nil
}

// maxExtractBytes bounds what one archive may unpack to (a decompression
// bomb guard).
const maxExtractBytes = 64 << 30

// extractTarGz unpacks the archive at src into the directory dst, replacing
// it. It unpacks into a temporary sibling first and renames it into place,
// so dst is either complete or absent. Entries that would leave dst,
// symbolic and hard links, and device files are rejected or skipped. With
// members (File.Members) only those regular files are unpacked, each under
// its base name, and a member the archive lacks is an error.
func extractTarGz(ctx context.Context, src, dst string, members []string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	gz, err := gzip.NewReader(in)
	if err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	defer gz.Close()
	tmp, err := os.MkdirTemp(filepath.Dir(dst), ".extract-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	tr := tar.NewReader(gz)
	var written int64
	want := map[string]bool{} // members not yet unpacked
	for _, m := range members {
		want[m] = true
	}
	for {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("unpack: %w", err)
		}
		name := path.Clean(strings.TrimPrefix(hdr.Name, "./"))
		if name == "." {
			continue
		}
		if path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") || strings.Contains(name, "\\") {
			return fmt.Errorf("unpack: entry %q leaves the directory", hdr.Name)
		}
		target := filepath.Join(tmp, filepath.FromSlash(name))
		if len(members) > 0 {
			if !want[name] || hdr.Typeflag != tar.TypeReg {
				continue
			}
			delete(want, name)
			target = filepath.Join(tmp, path.Base(name))
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			written += hdr.Size
			if written > maxExtractBytes {
				return fmt.Errorf("unpack: archive expands beyond %d bytes", int64(maxExtractBytes))
			}
			mode := os.FileMode(0o644)
			if hdr.Mode&0o111 != 0 {
				mode = 0o755
			}
			out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
			if err != nil {
				return err
			}
			_, err = io.Copy(out, io.LimitReader(tr, hdr.Size))
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("unpack %s: %w", name, err)
			}
		default:
			// Links, devices and FIFOs are not model data; skip them.
		}
	}
	for _, m := range members {
		if want[m] {
			return fmt.Errorf("unpack: the archive has no file %q", m)
		}
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// lifecycleAllowed rejects the models that have no download, load or
// unload lifecycle.
func lifecycleAllowed(e Entry) error {
	if e.Builtin {
		return sotto.Invalid("model_builtin", "model",
			"%s is built in: it is always available and has no download, load or unload lifecycle", e.ID)
	}
	if e.ExecutionLocation == Remote {
		return sotto.Invalid("model_remote", "model",
			"%s runs remotely: it has no download, load or unload lifecycle", e.ID)
	}
	return nil
}
