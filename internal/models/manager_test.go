package models

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sottolabs/sotto"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"ok", Config{DataDir: "/tmp/x"}, ""},
		{"no data dir", Config{}, "DataDir"},
		{"negative keep-alive", Config{DataDir: "d", KeepAlive: -time.Second}, "KeepAlive"},
		{"negative delay", Config{DataDir: "d", RetryDelay: -1}, "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Validate() = %v; want error containing %q", err, tt.want)
			}
		})
	}
	if _, err := New(Config{DataDir: t.TempDir(), CatalogFile: filepath.Join(t.TempDir(), "absent.json")}); err == nil {
		t.Error("New with a missing catalog file = nil error")
	}
}

// TestManagerEndToEnd downloads a model from a local server, loads it
// through a loader that reads its file, and shuts down.
func TestManagerEndToEnd(t *testing.T) {
	b := newBlob(512<<10, 11)
	fs := &fileServer{t: t, data: b.data, etag: `"e2e"`}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	dir := t.TempDir()
	catalog := filepath.Join(dir, "catalog.json")
	doc := fmt.Sprintf(`{"models": [{"id": "Test/Weights", "supported_endpoints": ["/v1/audio/alignments"],
	  "features": [], "default_for": [], "execution_location": "local", "backend": "weights",
	  "files": [{"name": "w.bin", "url": %q, "sha256": %q, "size": %d}]}]}`, srv.URL+"/w.bin", b.sum, len(b.data))
	if err := os.WriteFile(catalog, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := New(Config{DataDir: dir, CatalogFile: catalog, HTTPClient: srv.Client(), RetryDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	m.RegisterLoader("weights", func(ctx context.Context, spec LoadSpec) (io.Closer, error) {
		data, err := os.ReadFile(spec.Paths["w.bin"])
		if err != nil {
			return nil, err
		}
		if len(data) != len(b.data) {
			return nil, errors.New("short weights")
		}
		return &fakeModel{id: spec.Entry.ID}, nil
	})
	ctx := t.Context()
	if _, err := m.Load(ctx, "Test/Weights"); !isCode(err, "model_not_downloaded", sotto.ErrInvalidRequest) {
		t.Fatalf("Load before download = %v; want model_not_downloaded", err)
	} else if !strings.Contains(err.Error(), "POST /v1/models/download") {
		t.Errorf("model_not_downloaded message %q does not say how to download", err)
	}
	if _, err := m.Download("Nope/Nope"); !isCode(err, "model_not_found", sotto.ErrNotFound) {
		t.Errorf("Download(unknown) = %v; want model_not_found", err)
	}
	if _, err := m.CancelDownload("Test/Weights"); !isCode(err, "download_not_active", sotto.ErrInvalidRequest) {
		t.Errorf("CancelDownload(no job) = %v; want download_not_active", err)
	}
	j, err := m.Download("Test/Weights")
	if err != nil || j.State != StateDownloading {
		t.Fatalf("Download = %+v, %v", j, err)
	}
	var end Job
	for s, err := range m.WatchDownload(ctx, "Test/Weights") {
		if err != nil {
			t.Fatal(err)
		}
		end = s
	}
	if end.State != StateCompleted || end.BytesDownloaded != int64(len(b.data)) {
		t.Fatalf("final job = %+v", end)
	}
	if jobs := m.DownloadJobs(); len(jobs) != 1 || jobs[0] != end {
		t.Errorf("DownloadJobs() = %+v; want [%+v]", jobs, end)
	}
	p, err := m.Path("Test/Weights", "w.bin")
	if err != nil || p != filepath.Join(dir, "models", "Test--Weights", "w.bin") {
		t.Errorf("Path = %q, %v", p, err)
	}
	res, err := m.Load(ctx, "Test/Weights")
	if err != nil || res.Status != StatusLoaded {
		t.Fatalf("Load = %+v, %v", res, err)
	}
	obj, release, err := m.Acquire(ctx, "Test/Weights")
	if err != nil {
		t.Fatal(err)
	}
	release()
	if err := m.Close(ctx); err != nil {
		t.Fatalf("Close = %v", err)
	}
	if !obj.(*fakeModel).closed.Load() {
		t.Error("Close did not unload the model")
	}
	if _, err := m.Download("Test/Weights"); err == nil {
		t.Error("Download after Close = nil error")
	}
}

// TestManagerCloseCancelsDownloads checks that shutdown ends active jobs.
func TestManagerCloseCancelsDownloads(t *testing.T) {
	b := newBlob(1<<20, 12)
	d, fs, e := setup(t, b, b.sum)
	fs.set(func(s *fileServer) { s.gate, s.reached = make(chan struct{}), make(chan struct{}) })
	d.Start(e)
	<-fs.reached
	if err := d.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if j, _ := d.Job(e.ID); j.State != StateCancelled {
		t.Errorf("job after Close = %+v; want cancelled", j)
	}
}

func TestSanitizeID(t *testing.T) {
	tests := map[string]string{
		"Sotto/Lattice-1": "Sotto--Lattice-1",
		"a b/c":           "a_b--c",
		"../x":            "_..--x",
		"":                "_",
	}
	for in, want := range tests {
		if got := SanitizeID(in); got != want {
			t.Errorf("SanitizeID(%q) = %q; want %q", in, got, want)
		}
	}
}
