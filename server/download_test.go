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
