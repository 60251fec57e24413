package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeDownload: serve --download fetches a catalog model from its URL
// (a local file server here) in the background, logging its progress and
// end, and the file lands in the data directory; a model the catalog lacks
// stops serve before it listens.
func TestServeDownload(t *testing.T) {
	blob := make([]byte, 300<<10)
	for i := range blob {
		blob[i] = byte(i * 7)
	}
	sum := sha256.Sum256(blob)
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "w.bin", time.Time{}, strings.NewReader(string(blob)))
	}))
	defer files.Close()
	data := t.TempDir()
	catalog := filepath.Join(t.TempDir(), "catalog.json")
	doc := fmt.Sprintf(`{"models": [{"id": "Test/Blob", "supported_endpoints": [], "features": [], "default_for": [],
	  "execution_location": "local", "backend": "none",
	  "files": [{"name": "w.bin", "url": %q, "sha256": %q, "size": %d}]}]}`,
		files.URL+"/w.bin", hex.EncodeToString(sum[:]), len(blob))
	if err := os.WriteFile(catalog, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	serve := func(ctx context.Context, logs io.Writer, model string) error {
		return run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--data-dir", data, "--catalog", catalog,
			"--download", model}, nil, io.Discard, logs)
	}
	err := serve(context.Background(), io.Discard, "Test/Nope")
	if err == nil || !strings.Contains(err.Error(), "--download") || !strings.Contains(err.Error(), "Test/Nope") {
		t.Errorf("serve --download Test/Nope = %v; want an error naming the flag and the model", err)
	}
	for _, want := range []string{"download completed", "model on disk"} { // the second start finds it
		ctx, cancel := context.WithCancel(context.Background())
		var logs syncBuffer
		done := make(chan error, 1)
		go func() { done <- serve(ctx, &logs, "Test/Blob") }()
		deadline := time.After(time.Minute)
		for !strings.Contains(logs.String(), want) {
			select {
			case err := <-done:
				t.Fatalf("serve ended: %v\n%s", err, logs.String())
			case <-deadline:
				t.Fatalf("no %q in serve's log:\n%s", want, logs.String())
			case <-time.After(10 * time.Millisecond):
			}
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(logs.String(), "model=Test/Blob") {
			t.Errorf("the log does not name the model:\n%s", logs.String())
		}
	}
	matches, _ := filepath.Glob(filepath.Join(data, "models", "*", "w.bin"))
	if len(matches) != 1 {
		t.Fatalf("downloaded file: %v; want one w.bin in the data directory", matches)
	}
	if got, err := os.ReadFile(matches[0]); err != nil || string(got) != string(blob) {
		t.Errorf("downloaded file differs from the served one (%v)", err)
	}
}

// TestParseServeDownload: serve fetches the speaker network unless told
// otherwise; the flag beats SOTTO_DOWNLOAD, and none fetches nothing.
func TestParseServeDownload(t *testing.T) {
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, defaultDownloads},
		{[]string{"--download", "none"}, nil, ""},
		{[]string{"--download", ""}, nil, ""},
		{nil, map[string]string{"SOTTO_DOWNLOAD": "none"}, ""},
		{nil, map[string]string{"SOTTO_DOWNLOAD": "A/a, B/b"}, "A/a,B/b"},
		{[]string{"--download", "C/c"}, map[string]string{"SOTTO_DOWNLOAD": "A/a"}, "C/c"},
	} {
		c, err := parseServe(tt.args, env(tt.env), io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(c.download, ","); got != tt.want {
			t.Errorf("parseServe(%q, %v): download %q; want %q", tt.args, tt.env, got, tt.want)
		}
	}
}
