package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sottolabs/sotto/internal/models"
)

// TestDownloadThroughAPI downloads a model whose file a real local HTTP
// server serves, through POST /v1/models/download, and polls
// GET /v1/models/downloads until it completes.
func TestDownloadThroughAPI(t *testing.T) {
	payload := make([]byte, 3<<20)
	rand.Read(payload)
	sum := sha256.Sum256(payload)
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "weights.bin", time.Time{}, bytes.NewReader(payload))
	}))
	defer files.Close()

	dir := t.TempDir()
	catalog := filepath.Join(dir, "catalog.json")
	entry := map[string]any{"models": []any{map[string]any{
		"id": "Test/tiny", "object": "model", "created": 1, "owned_by": "test",
		"supported_endpoints": []string{"/v1/audio/alignments"}, "features": []string{},
		"execution_location": "local", "default_for": []string{}, "backend": "test",
		"files": []any{map[string]any{"name": "weights.bin", "url": files.URL + "/weights.bin",
			"size": len(payload), "sha256": hex.EncodeToString(sum[:])}},
	}}}
	b, _ := json.Marshal(entry)
	if err := os.WriteFile(catalog, b, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := models.New(models.Config{DataDir: filepath.Join(dir, "data"), CatalogFile: catalog,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	_, ts := newTestServer(t, Config{Models: ManagedModels(m, CatalogExtensions)})

	r := do(t, ts, "POST", "/v1/models/download", jsonBodyString(`{"model":"Test/tiny"}`), nil)
	var job struct {
		Model           string  `json:"model"`
		State           string  `json:"state"`
		BytesDownloaded int64   `json:"bytes_downloaded"`
		TotalBytes      int64   `json:"total_bytes"`
		Error           *string `json:"error"`
	}
	if err := json.Unmarshal(r.body, &job); err != nil || r.status != 202 || job.Model != "Test/tiny" {
		t.Fatalf("POST /v1/models/download = %d %s; want 202 with the job", r.status, r.body)
	}
	deadline := time.Now().Add(30 * time.Second)
	for job.State != "completed" {
		if job.State == "failed" || time.Now().After(deadline) {
			t.Fatalf("download ended %s (error %v) after %v", job.State, job.Error, time.Since(deadline.Add(-30*time.Second)))
		}
		time.Sleep(20 * time.Millisecond)
		r = do(t, ts, "GET", "/v1/models/downloads", nil, nil)
		var list struct {
			Data []json.RawMessage `json:"data"`
		}
		json.Unmarshal(r.body, &list)
		for _, raw := range list.Data {
			var j = job
			json.Unmarshal(raw, &j)
			if j.Model == "Test/tiny" {
				job = j
			}
		}
	}
	if job.BytesDownloaded != int64(len(payload)) || job.TotalBytes != int64(len(payload)) || job.Error != nil {
		t.Errorf("completed job = %+v; want %d of %d bytes and no error", job, len(payload), len(payload))
	}
	got, err := os.ReadFile(filepath.Join(m.Store.Dir("Test/tiny"), "weights.bin"))
	if err != nil || !bytes.Equal(got, payload) {
		t.Errorf("stored file differs from the served one (err %v)", err)
	}
	r = do(t, ts, "GET", "/v1/models", nil, nil)
	if !bytes.Contains(r.body, []byte(`"downloaded":true`)) {
		t.Errorf("catalog after download does not mark the model downloaded: %s", r.body)
	}
	r = do(t, ts, "POST", "/v1/models/download/cancel", jsonBodyString(`{"model":"Test/tiny"}`), nil)
	if r.status != 400 {
		t.Errorf("cancel after completion = %d %s; want 400 (no active download)", r.status, r.body)
	}
}

// TestDeleteModel deletes models through DELETE /v1/models/{id}, as the
// OpenAI SDK's models.delete sends it: a downloaded model of the user's
// catalog file (downloaded through the API first), refused while a request
// holds it, then deleted with its file left as the user wrote it; a model
// that ships with the binary; an unknown one.
func TestDeleteModel(t *testing.T) {
	payload := make([]byte, 64<<10)
	rand.Read(payload)
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "weights.bin", time.Time{}, bytes.NewReader(payload))
	}))
	defer files.Close()
	dir := t.TempDir()
	catalog := filepath.Join(dir, "catalog.json")
	doc := `{"models": [{"id": "Test/tiny", "supported_endpoints": ["/v1/audio/alignments"], "features": [],
	  "execution_location": "local", "default_for": [], "backend": "test",
	  "files": [{"name": "weights.bin", "url": "` + files.URL + `/weights.bin"}]}]}`
	if err := os.WriteFile(catalog, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := models.New(models.Config{DataDir: filepath.Join(dir, "data"), CatalogFile: catalog,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	m.RegisterLoader("test", func(context.Context, models.LoadSpec) (io.Closer, error) { return io.NopCloser(nil), nil })
	_, ts := newTestServer(t, Config{Models: ManagedModels(m, CatalogExtensions)})

	if r := do(t, ts, "POST", "/v1/models/download", jsonBodyString(`{"model":"Test/tiny"}`), nil); r.status != 202 {
		t.Fatalf("download = %d %s", r.status, r.body)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if j, _ := m.Downloads.Job("Test/tiny"); j.State == models.StateCompleted {
			break
		} else if j.State.Terminal() || time.Now().After(deadline) {
			t.Fatalf("download ended %+v", j)
		}
	}
	// The catalog says what a delete would free.
	var entry struct {
		XSotto struct {
			DiskBytes int64 `json:"disk_bytes"`
		} `json:"x_sotto"`
	}
	if r := do(t, ts, "GET", "/v1/models/Test/tiny", nil, nil); json.Unmarshal(r.body, &entry) != nil || entry.XSotto.DiskBytes < int64(len(payload)) {
		t.Errorf("GET /v1/models/Test/tiny = %s; want x_sotto.disk_bytes of at least %d", r.body, len(payload))
	}
	// A request holds the model: 409, nothing removed.
	_, release, err := m.Acquire(context.Background(), "Test/tiny")
	if err != nil {
		t.Fatal(err)
	}
	r := do(t, ts, "DELETE", "/v1/models/Test%2Ftiny", nil, nil)
	if e := r.envelope(t); r.status != 409 || e.Code != "model_in_use" || e.Param != "model" {
		t.Errorf("DELETE while in use = %d %s; want 409 model_in_use, param model", r.status, r.body)
	}
	release()
	r = do(t, ts, "DELETE", "/v1/models/Test%2Ftiny", nil, nil)
	var res struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Deleted bool   `json:"deleted"`
		XSotto  struct {
			BytesFreed          int64 `json:"bytes_freed"`
			CatalogEntryRemoved bool  `json:"catalog_entry_removed"`
			Unloaded            bool  `json:"unloaded"`
		} `json:"x_sotto"`
	}
	if err := json.Unmarshal(r.body, &res); err != nil || r.status != 200 || res.ID != "Test/tiny" || res.Object != "model" ||
		!res.Deleted || res.XSotto.BytesFreed < int64(len(payload)) || res.XSotto.CatalogEntryRemoved || !res.XSotto.Unloaded {
		t.Errorf("DELETE /v1/models/Test%%2Ftiny = %d %s; want 200 deleted, %d+ bytes freed, entry kept, unloaded",
			r.status, r.body, len(payload))
	}
	if _, err := os.Stat(m.Store.Dir("Test/tiny")); !os.IsNotExist(err) {
		t.Errorf("model directory after DELETE: %v; want gone", err)
	}
	if r := do(t, ts, "GET", "/v1/models/Test/tiny", nil, nil); r.status != 200 || !bytes.Contains(r.body, []byte(`"downloaded":false`)) {
		t.Errorf("GET after DELETE = %d %s; want 200, not downloaded", r.status, r.body)
	}
	if b, _ := os.ReadFile(catalog); string(b) != doc {
		t.Errorf("the user's catalog file after DELETE:\n%s\nwant it as written", b)
	}
	if r := do(t, ts, "GET", "/v1/models/downloads", nil, nil); bytes.Contains(r.body, []byte("Test/tiny")) {
		t.Errorf("downloads after DELETE = %s; want the job gone", r.body)
	}
	for _, tt := range []struct {
		path   string
		status int
		code   string
	}{
		{"/v1/models/Test/tiny", 400, "model_not_downloaded"},
		{"/v1/models/Test/nope", 404, "model_not_found"},
		{"/v1/models/Sotto/Skylark", 400, "model_builtin"},
		{"/v1/models/Sotto/Flite", 400, "model_not_deletable"},
		{"/v1/models/Sotto/Whisper-tiny", 400, "model_not_downloaded"},
	} {
		r := do(t, ts, "DELETE", tt.path, nil, nil)
		if e := r.envelope(t); r.status != tt.status || e.Code != tt.code || e.Param != "model" {
			t.Errorf("DELETE %s = %d %s; want %d %s, param model", tt.path, r.status, r.body, tt.status, tt.code)
		}
	}
}
