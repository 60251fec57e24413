package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/internal/transcript"
	"github.com/sottolabs/sotto/internal/whisper"
	"github.com/sottolabs/sotto/internal/whisper/whispertest"
)

// randomWhisperFile writes the seed-1 random-weight tiny F16 Whisper model
// (internal/whisper's generator, whisper.cpp's for-tests vocabulary and
// filters) into dir and returns its path and SHA-1.
func randomWhisperFile(t *testing.T, dir string) (string, string) {
	t.Helper()
	return whispertest.RandomTiny(t, dir, "ggml-tiny.bin", whisper.FTypeF16, 1)
}

// engineTranscript is what the Whisper engine itself gives for samples with
// the driver's settings of the test entry (greedy, no temperature
// fallback): the segments and their text joined as the API joins it.
func engineTranscript(t *testing.T, path string, samples []float32, lang string) ([]whisper.Segment, string) {
	t.Helper()
	m, err := whisper.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	pool := tensor.NewPool(2)
	defer pool.Close()
	tr, err := whisper.NewTranscriber(m, pool)
	if err != nil {
		t.Fatal(err)
	}
	p := whisper.DefaultParams(whisper.Greedy)
	p.TemperatureInc = 0
	p.Language = lang
	res, err := tr.TranscribeSamples(context.Background(), samples, p)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range res.Segments {
		transcript.AppendText(&b, s.Text)
	}
	return res.Segments, b.String()
}

// TestWhisperEndToEnd runs a Whisper catalog entry through the whole
// gateway: a random-weight tiny GGML file served by a local HTTP server
// (with ranges), a user catalog entry pinning its SHA-1, POST
// /v1/models/download watched to completed, POST /v1/models/load, and
// en_jfk_16k.wav through POST /v1/audio/transcriptions as json and
// verbose_json (language en; the engine's own language detection is
// internal/whisper's to test). The file server cuts the first request off
// halfway, so the download resumes with a range request. Random weights
// give odd text; it must be the text the engine itself returns on the
// file.
func TestWhisperEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the end-to-end Whisper test runs the tiny encoder")
	}
	skipUnderRace(t)
	wav := speechFile(t, "en_jfk_16k.wav")
	dir := t.TempDir()
	file, sum := randomWhisperFile(t, dir)
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	// The first request is cut off halfway, so that the download resumes
	// with a range request.
	var requests, ranged atomic.Int32
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 && r.Header.Get("Range") == "" {
			f, err := os.Open(file)
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			defer f.Close()
			w.Header().Set("Content-Length", strconv.FormatInt(st.Size(), 10))
			w.Header().Set("Accept-Ranges", "bytes")
			w.Header().Set("Last-Modified", st.ModTime().UTC().Format(http.TimeFormat))
			io.CopyN(w, f, st.Size()/2)
			panic(http.ErrAbortHandler)
		}
		if r.Header.Get("Range") != "" {
			ranged.Add(1)
		}
		http.ServeFile(w, r, file)
	}))
	defer files.Close()
	const id = "Test/Whisper-tiny"
	catalog := filepath.Join(dir, "catalog.json")
	doc, _ := json.Marshal(map[string]any{"models": []any{map[string]any{
		"id": id, "object": "model", "created": 1, "owned_by": "test",
		"supported_endpoints": []string{pathTranscriptions}, "features": []string{},
		"execution_location": "local", "default_for": []string{}, "backend": loaders.WhisperBackend,
		"languages": []string{"*"}, "options": map[string]string{"model": "ggml-tiny.bin", "temperature_inc": "0"},
		"files": []any{map[string]any{"name": "ggml-tiny.bin", "url": files.URL + "/ggml-tiny.bin", "size": st.Size(), "sha1": sum}},
	}}})
	if err := os.WriteFile(catalog, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := models.New(models.Config{DataDir: filepath.Join(dir, "data"), CatalogFile: catalog, RetryDelay: 10 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	loaders.Register(m)
	_, ts := newTestServer(t, Config{Models: ManagedModels(m, CatalogExtensions)})

	r := do(t, ts, "POST", "/v1/models/download", jsonBodyString(`{"model":"`+id+`"}`), nil)
	if r.status != 202 {
		t.Fatalf("POST /v1/models/download = %d %s; want 202", r.status, r.body)
	}
	type job struct {
		Model           string  `json:"model"`
		State           string  `json:"state"`
		BytesDownloaded int64   `json:"bytes_downloaded"`
		TotalBytes      int64   `json:"total_bytes"`
		Error           *string `json:"error"`
	}
	var j job
	for hang := time.Now().Add(2 * time.Minute); j.State != "completed"; { // a guard against a hang, not a timing assertion
		if j.State == "failed" || time.Now().After(hang) {
			t.Fatalf("download ended %q (error %v)", j.State, j.Error)
		}
		time.Sleep(20 * time.Millisecond)
		var list struct{ Data []job }
		json.Unmarshal(do(t, ts, "GET", "/v1/models/downloads", nil, nil).body, &list)
		for _, x := range list.Data {
			if x.Model == id {
				j = x
			}
		}
	}
	if j.BytesDownloaded != st.Size() || j.TotalBytes != st.Size() {
		t.Errorf("completed job %+v; want %d bytes", j, st.Size())
	}
	if ranged.Load() == 0 {
		t.Errorf("the download did not resume with a range request (%d requests)", requests.Load())
	}
	if r := do(t, ts, "POST", "/v1/models/load", jsonBodyString(`{"model":"`+id+`"}`), nil); r.status != 200 {
		t.Fatalf("POST /v1/models/load = %d %s", r.status, r.body)
	}

	a, _, err := audio.DecodeFile(context.Background(), testdata.Path(t, "speech", "en_jfk_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := m.Path(id, "ggml-tiny.bin")
	if err != nil {
		t.Fatal(err)
	}

	segs, want := engineTranscript(t, stored, a.Samples, "en")
	r = postTranscription(t, ts, []part{mediaPart(wav), field("model", id), field("language", "en")})
	var js transcript.JSONResult
	if err := json.Unmarshal(r.body, &js); err != nil || r.status != 200 {
		t.Fatalf("json = %d %s", r.status, r.body)
	}
	if js.Text != want || js.Duration != 11 || js.Usage.Seconds != 11 {
		t.Errorf("json = %+v; want text %q (the engine's) and 11 s", js, want)
	}

	r = postTranscription(t, ts, []part{mediaPart(wav), field("model", id), field("response_format", "verbose_json"),
		field("language", "en"), field("timestamp_granularities[]", "segment"), field("timestamp_granularities[]", "word")})
	var v transcript.VerboseResult
	if err := json.Unmarshal(r.body, &v); err != nil || r.status != 200 {
		t.Fatalf("verbose_json = %d %s", r.status, r.body)
	}
	if v.Task != "transcribe" || v.Language != "en" || v.Text != want || v.Duration != 11 || len(v.Segments) != len(segs) {
		t.Fatalf("verbose_json = %s; want the engine's text %q in %d segments", r.body, want, len(segs))
	}
	nw := 0
	for i, s := range v.Segments {
		if s.ID != i || s.Start != float64(segs[i].T0)/100 || s.End != float64(segs[i].T1)/100 || s.Text != strings.TrimSpace(segs[i].Text) {
			t.Errorf("segment %d = %+v; want the engine's %d–%d cs %q", i, s, segs[i].T0, segs[i].T1, segs[i].Text)
		}
		if s.WordTiming != "aligned" && s.WordTiming != "timestamps" {
			t.Errorf("segment %d word_timing %q; want aligned or timestamps", i, s.WordTiming)
		}
		nw += len(strings.Fields(s.Text))
	}
	if len(v.Words) == 0 || len(v.Words) > 2*nw {
		t.Errorf("%d words for %d segment words", len(v.Words), nw)
	}
	t.Logf("verbose_json: %s", r.body)
}
