package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/internal/transcript"
	"github.com/sottolabs/sotto/internal/whisper"
	"github.com/sottolabs/sotto/internal/whisper/whispertest"
)

// whisperCatalog writes the seed-1 random-weight tiny F16 Whisper model
// into dir, serves it over HTTP and writes a user catalog with an entry
// "Test/Whisper-tiny" for it (SHA-1 pinned, no temperature fallback). It
// returns the catalog's path; the server stops with the test.
func whisperCatalog(t *testing.T, dir string) string {
	t.Helper()
	file, sum1 := whispertest.RandomTiny(t, dir, "ggml-tiny.bin", whisper.FTypeF16, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, file) }))
	t.Cleanup(srv.Close)
	doc, _ := json.Marshal(map[string]any{"models": []any{map[string]any{
		"id": "Test/Whisper-tiny", "object": "model", "created": 1, "owned_by": "test",
		"supported_endpoints": []string{pathTranscriptions}, "features": []string{},
		"execution_location": "local", "default_for": []string{}, "backend": "whisper",
		"languages": []string{"*"}, "options": map[string]string{"model": "ggml-tiny.bin", "temperature_inc": "0"},
		"files": []any{map[string]any{"name": "ggml-tiny.bin", "url": srv.URL + "/ggml-tiny.bin",
			"sha1": sum1}},
	}}})
	catalog := filepath.Join(dir, "catalog.json")
	if err := os.WriteFile(catalog, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	return catalog
}

// TestWhisperModel transcribes en_jfk_16k.wav with --model naming a
// Whisper catalog entry (a user catalog) that the model store downloaded
// from a local HTTP server: the JSON text must be what the engine itself
// returns for the downloaded file. Before the download the model is
// reported missing, and the Sphinx-only flags are refused.
func TestWhisperModel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the tiny Whisper encoder")
	}
	if raceEnabled {
		t.Skip("-race slows the Whisper encoder about tenfold; this test runs without -race")
	}
	wav := testdata.Path(t, "speech", "en_jfk_16k.wav")
	dir := t.TempDir()
	catalog := whisperCatalog(t, dir)
	data := filepath.Join(dir, "data")
	args := []string{"--model", "Test/Whisper-tiny", "--catalog", catalog, "--data-dir", data, "-q"}

	_, stderr, code := runCmd(t, append(args, wav)...)
	if code != 1 || !strings.Contains(stderr, "not downloaded") {
		t.Errorf("before the download: exit %d, %q; want 1 and not downloaded", code, stderr)
	}
	_, stderr, code = runCmd(t, append(args, "--lm", wav, wav)...)
	if code != 2 || !strings.Contains(stderr, "Sphinx") {
		t.Errorf("--lm with a Whisper model: exit %d, %q; want usage error 2", code, stderr)
	}

	m, err := models.New(models.Config{DataDir: data, CatalogFile: catalog})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Download("Test/Whisper-tiny"); err != nil {
		t.Fatal(err)
	}
	var last models.Job
	for j, err := range m.WatchDownload(context.Background(), "Test/Whisper-tiny") {
		if err != nil {
			t.Fatal(err)
		}
		last = j
	}
	m.Close(context.Background())
	if last.State != models.StateCompleted {
		t.Fatalf("download ended %+v; want completed", last)
	}

	out, stderr, code := runCmd(t, append(args, "-f", "json", "--language", "en", wav)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got transcript.JSONResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}

	// What the engine itself returns for the downloaded file.
	cat, err := models.LoadCatalog(catalog)
	if err != nil {
		t.Fatal(err)
	}
	e, err := cat.Lookup("Test/Whisper-tiny")
	if err != nil {
		t.Fatal(err)
	}
	file, err := models.NewStore(data).Path(e, "ggml-tiny.bin")
	if err != nil {
		t.Fatal(err)
	}
	wm, err := whisper.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer wm.Close()
	pool := tensor.NewPool(2)
	defer pool.Close()
	tr, err := whisper.NewTranscriber(wm, pool)
	if err != nil {
		t.Fatal(err)
	}
	a, _, err := audio.DecodeFile(context.Background(), wav, audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	params := whisper.DefaultParams(whisper.Greedy)
	params.TemperatureInc = 0
	res, err := tr.TranscribeSamples(context.Background(), a.Samples, params)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, s := range res.Segments {
		transcript.AppendText(&want, s.Text)
	}
	if got.Text != want.String() || got.Duration != 11 {
		t.Errorf("sotto-transcribe --model = %+v; want the engine's text %q and 11 s", got, want.String())
	}
}
