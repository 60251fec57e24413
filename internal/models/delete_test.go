package models

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sottolabs/sotto"
)

// deleteFixture is a Manager whose user catalog adds Test/Dl (one
// downloadable file, put on disk by the fixture as a download would),
// Test/Imported (a file outside the data directory, as models import
// writes it, marked imported) and Test/Other, both of the user's own hand
// but Test/Imported; a fake loader serves backend "fake".
type deleteFixture struct {
	m        *Manager
	catalog  string // the user catalog file
	imported string // the imported model's file
	loader   *loaderLog
}

const deleteCatalog = `{"models": [
  {"id": "Test/Dl", "supported_endpoints": [], "features": [], "default_for": [],
   "execution_location": "local", "backend": "fake",
   "files": [{"name": "w.bin", "url": "URL/w.bin"}, {"name": "sub/x.bin", "url": "URL/x.bin"}]},
  {"id": "Test/Imported", "supported_endpoints": [], "features": [], "default_for": [],
   "execution_location": "local", "backend": "fake", "owned_by": "user", "imported": true,
   "files": [{"name": "model", "system_path": "IMPORTED"}]},
  {"id": "Test/Other", "supported_endpoints": [], "features": [], "default_for": [],
   "execution_location": "local", "backend": "fake"}
]}`

func newDeleteFixture(t *testing.T, url string) *deleteFixture {
	t.Helper()
	dir := t.TempDir()
	f := &deleteFixture{catalog: filepath.Join(dir, "catalog.json"), imported: filepath.Join(dir, "my.gguf"),
		loader: &loaderLog{}}
	if url == "" {
		url = "http://127.0.0.1:9"
	}
	if err := os.WriteFile(f.imported, []byte("GGUF weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	cat := strings.ReplaceAll(strings.ReplaceAll(deleteCatalog, "URL", url), "IMPORTED", f.imported)
	if err := os.WriteFile(f.catalog, []byte(cat), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := New(Config{DataDir: filepath.Join(dir, "data"), CatalogFile: f.catalog, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	m.RegisterLoader("fake", f.loader.load)
	t.Cleanup(func() { m.Close(context.Background()) })
	f.m = m
	return f
}

// put writes a file of model id into the store and records it as a
// verified download would.
func (f *deleteFixture) put(t *testing.T, id, name string, data []byte) {
	t.Helper()
	e, err := f.m.Catalog.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(f.m.Store.Dir(id), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range e.Files {
		if file.Name == name {
			if err := f.m.Store.record(id, name, markerRecord{URL: file.URL, Size: int64(len(data))}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func wantCode(t *testing.T, what string, err error, kind error, code string) {
	t.Helper()
	var se *sotto.Error
	if !errors.As(err, &se) || !errors.Is(err, kind) || se.Code != code || se.Param != "model" {
		t.Fatalf("%s = %v; want a %v error with code %s, param model", what, err, kind, code)
	}
}

// A model of the user's own catalog file loses its downloaded files and
// stays listed, not downloaded; the file the user wrote is not touched.
func TestDeleteDownloaded(t *testing.T) {
	f := newDeleteFixture(t, "")
	before, _ := os.ReadFile(f.catalog)
	f.put(t, "Test/Dl", "w.bin", make([]byte, 1000))
	f.put(t, "Test/Dl", "sub/x.bin", make([]byte, 24))
	e, _ := f.m.Catalog.Lookup("Test/Dl")
	if !f.m.Store.Downloaded(e) {
		t.Fatal("fixture: Test/Dl is not downloaded")
	}
	ctx := context.Background()
	res, err := f.m.Delete(ctx, "Test/Dl")
	if err != nil {
		t.Fatalf("Delete(Test/Dl) = %v", err)
	}
	// 1024 bytes of files plus the marker.
	if !res.Deleted || res.ID != "Test/Dl" || res.Object != "model" || res.XSotto.BytesFreed < 1024 ||
		res.XSotto.CatalogEntryRemoved || res.XSotto.Unloaded {
		t.Errorf("Delete(Test/Dl) = %+v; want deleted, 1024+ bytes freed, entry kept, not unloaded", res)
	}
	if _, err := os.Stat(f.m.Store.Dir("Test/Dl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("model directory after Delete: %v; want it gone", err)
	}
	left, _ := os.ReadDir(f.m.Store.Root())
	if len(left) != 0 {
		t.Errorf("store root after Delete holds %v; want nothing", left)
	}
	if e, err := f.m.Catalog.Lookup("Test/Dl"); err != nil || f.m.Store.Downloaded(e) {
		t.Errorf("after Delete: Lookup %v, downloaded %v; want listed, not downloaded", err, f.m.Store.Downloaded(e))
	}
	if after, _ := os.ReadFile(f.catalog); string(after) != string(before) {
		t.Errorf("the user's catalog file after Delete:\n%s\nwant it as written:\n%s", after, before)
	}
	_, err = f.m.Delete(ctx, "Test/Dl")
	wantCode(t, "second Delete(Test/Dl)", err, sotto.ErrInvalidRequest, "model_not_downloaded")
	// Nothing of Test/Other is ever in the data directory: the error says
	// where its entry is.
	_, err = f.m.Delete(ctx, "Test/Other")
	wantCode(t, "Delete(Test/Other)", err, sotto.ErrInvalidRequest, "model_not_deletable")
	if !strings.Contains(err.Error(), f.catalog) {
		t.Errorf("Delete(Test/Other) = %v; want the catalog file named", err)
	}
}

// An imported model leaves the catalog file it was imported into, cut out
// of it with its separator; every other byte stays as written.
func TestDeleteImportedCatalogBytes(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"middle", `{"models": [ {"id": "A/a"},` + "\n" + `  {"id":"Test/Imported", "imported": true} ,{"id": "B/b"}], "x": 1}`,
			`{"models": [ {"id": "A/a"},` + "\n" + `  {"id": "B/b"}], "x": 1}`},
		{"first", "{\"models\":[\n  {\"id\":\"Test/Imported\"},\n  {\"id\":\"A/a\"}\n]}\n", "{\"models\":[\n  {\"id\":\"A/a\"}\n]}\n"},
		{"last", "{\"models\":[\n  {\"id\":\"A/a\"},\n  {\"id\":\"Test/Imported\"}\n]}\n", "{\"models\":[\n  {\"id\":\"A/a\"}\n]}\n"},
		{"only", "{\"models\": [\n  {\"id\": \"Test/Imported\"}\n]}", "{\"models\": [\n  \n]}"},
		{"absent", `{"models": [{"id": "A/a"}]}`, `{"models": [{"id": "A/a"}]}`},
		{"key order", `{"x": {"models": [{"id": "Test/Imported"}]}, "models": [{"id": "Test/Imported", "files": [{"name": "[,]"}]}, {"id": "A/a"}]}`,
			`{"x": {"models": [{"id": "Test/Imported"}]}, "models": [{"id": "A/a"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "catalog.json")
			if err := os.WriteFile(file, []byte(tc.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := removeFromCatalogFile(file, "Test/Imported"); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(file); string(got) != tc.want {
				t.Errorf("after removal:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
	for _, bad := range []string{`{"models": [`, `[]`, `{"models": {}}`} {
		file := filepath.Join(t.TempDir(), "catalog.json")
		os.WriteFile(file, []byte(bad), 0o644)
		if err := removeFromCatalogFile(file, "Test/Imported"); err == nil {
			t.Errorf("removal from %q succeeded; want an error", bad)
		}
	}
}

func TestDeleteImportedKeepsItsFile(t *testing.T) {
	f := newDeleteFixture(t, "")
	ctx := context.Background()
	if _, err := f.m.Load(ctx, "Test/Imported"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(f.catalog)
	res, err := f.m.Delete(ctx, "Test/Imported")
	if err != nil || !res.Deleted || !res.XSotto.CatalogEntryRemoved || !res.XSotto.Unloaded || res.XSotto.BytesFreed != 0 {
		t.Fatalf("Delete(Test/Imported) = %+v, %v; want deleted, unloaded, entry removed, nothing freed", res, err)
	}
	after, _ := os.ReadFile(f.catalog)
	i := strings.Index(string(before), `  {"id": "Test/Imported"`)
	j := strings.Index(string(before), `  {"id": "Test/Other"`)
	if want := string(before[:i]) + string(before[j:]); string(after) != want {
		t.Errorf("catalog file after Delete:\n%s\nwant the imported entry cut out of it:\n%s", after, want)
	}
	if _, err := LoadCatalog(f.catalog); err != nil {
		t.Errorf("the rewritten catalog does not load: %v", err)
	}
	if fi, err := os.Stat(f.catalog); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("catalog file mode after Delete: %v %v; want 0600 kept", fi.Mode(), err)
	}
	if !f.loader.models[0].closed.Load() {
		t.Error("the loaded model was not closed")
	}
	if len(f.m.Running().Data) != 0 {
		t.Errorf("Running after Delete = %+v; want none", f.m.Running().Data)
	}
	if _, err := os.Stat(f.imported); err != nil {
		t.Errorf("the imported file outside the data directory: %v; want it kept", err)
	}
	_, _, err = f.m.Acquire(ctx, "Test/Imported")
	wantCode(t, "Acquire after Delete", err, sotto.ErrNotFound, "model_not_found")
}

func TestDeleteShippedModels(t *testing.T) {
	f := newDeleteFixture(t, "")
	ctx := context.Background()
	_, err := f.m.Delete(ctx, Skylark)
	wantCode(t, "Delete(Skylark)", err, sotto.ErrInvalidRequest, "model_builtin")
	_, err = f.m.Delete(ctx, "Sotto/Flite")
	wantCode(t, "Delete(Sotto/Flite)", err, sotto.ErrInvalidRequest, "model_not_deletable")
	if !strings.Contains(err.Error(), "flite") {
		t.Errorf("Delete(Sotto/Flite) = %v; want the Debian package named", err)
	}
	_, err = f.m.Delete(ctx, "Sotto/Whisper-base")
	wantCode(t, "Delete(not downloaded Whisper-base)", err, sotto.ErrInvalidRequest, "model_not_downloaded")
	_, err = f.m.Delete(ctx, "Nobody/Nothing")
	wantCode(t, "Delete(unknown)", err, sotto.ErrNotFound, "model_not_found")

	// A downloaded model of the built-in catalog loses its files (a partial
	// one included) and stays listed.
	f.put(t, "Sotto/Whisper-base", "ggml-base.bin", []byte("weights"))
	os.WriteFile(filepath.Join(f.m.Store.Dir("Sotto/Whisper-base"), "ggml-base.bin"+partSuffix), []byte("x"), 0o644)
	res, err := f.m.Delete(ctx, "Sotto/Whisper-base")
	if err != nil || res.XSotto.CatalogEntryRemoved || res.XSotto.BytesFreed < 8 {
		t.Fatalf("Delete(Sotto/Whisper-base) = %+v, %v; want deleted, entry kept, 8+ bytes freed", res, err)
	}
	e, err := f.m.Catalog.Lookup("Sotto/Whisper-base")
	if err != nil || f.m.Store.Downloaded(e) {
		t.Errorf("after Delete: Lookup %v, downloaded %v; want listed, not downloaded", err, f.m.Store.Downloaded(e))
	}
	data, _ := os.ReadFile(f.catalog)
	if !strings.Contains(string(data), "Test/Dl") {
		t.Errorf("deleting a built-in catalog model changed the user catalog:\n%s", data)
	}
}

func TestDeleteInUse(t *testing.T) {
	f := newDeleteFixture(t, "")
	f.put(t, "Test/Dl", "w.bin", []byte("w"))
	f.put(t, "Test/Dl", "sub/x.bin", []byte("x"))
	ctx := context.Background()
	_, release, err := f.m.Acquire(ctx, "Test/Dl")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.m.Delete(ctx, "Test/Dl")
	wantCode(t, "Delete while a request holds it", err, sotto.ErrConflict, "model_in_use")
	if _, err := os.Stat(f.m.Store.Dir("Test/Dl")); err != nil {
		t.Errorf("a refused Delete touched the files: %v", err)
	}
	release()
	res, err := f.m.Delete(ctx, "Test/Dl")
	if err != nil || !res.XSotto.Unloaded {
		t.Fatalf("Delete after release = %+v, %v; want deleted and unloaded", res, err)
	}
}

func TestDeleteWhileLoading(t *testing.T) {
	f := newDeleteFixture(t, "")
	f.loader.hold = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := f.m.Load(ctx, "Test/Imported"); done <- err }()
	for f.m.Running().Runtime.State != RuntimeLoading {
		time.Sleep(time.Millisecond)
	}
	_, err := f.m.Delete(context.Background(), "Test/Imported")
	wantCode(t, "Delete while loading", err, sotto.ErrConflict, "model_in_use")
	close(f.loader.hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	cancel()
}

func TestDeleteWhileDownloading(t *testing.T) {
	started := make(chan struct{}, 1)
	block := make(chan struct{})
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		w.WriteHeader(200)
		w.Write([]byte("01234"))
		w.(http.Flusher).Flush()
		select {
		case started <- struct{}{}:
		default:
		}
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer files.Close()
	defer close(block)
	f := newDeleteFixture(t, files.URL)
	e, _ := f.m.Catalog.Lookup("Test/Dl")
	if _, err := f.m.Downloads.Start(e); err != nil {
		t.Fatal(err)
	}
	<-started
	_, err := f.m.Delete(context.Background(), "Test/Dl")
	wantCode(t, "Delete while downloading", err, sotto.ErrConflict, "download_active")
	if _, err := f.m.CancelDownload("Test/Dl"); err != nil {
		t.Fatal(err)
	}
	for f.m.Downloads.Active("Test/Dl") {
		time.Sleep(time.Millisecond)
	}
	f.put(t, "Test/Dl", "w.bin", []byte("w")) // a file of an earlier download
	if _, err := f.m.Delete(context.Background(), "Test/Dl"); err != nil {
		t.Fatalf("Delete after the cancel = %v", err)
	}
	if _, ok := f.m.Downloads.Job("Test/Dl"); ok {
		t.Error("the download job of the deleted model is still listed")
	}
}

// An earlier Delete that stopped between the rename and the removal left a
// directory aside; the next Delete removes it.
func TestDeleteSweepsLeftovers(t *testing.T) {
	f := newDeleteFixture(t, "")
	old := filepath.Join(f.m.Store.Root(), trashPrefix+"Test--Gone-123")
	if err := os.MkdirAll(filepath.Join(old, "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.put(t, "Test/Dl", "w.bin", []byte("w"))
	if _, err := f.m.Delete(context.Background(), "Test/Dl"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("leftover %s after Delete: %v; want removed", old, err)
	}
}

// A catalog file that cannot be rewritten (here: edited by hand into
// invalid JSON since the start) leaves the imported model as it was.
func TestDeleteCatalogWriteFails(t *testing.T) {
	f := newDeleteFixture(t, "")
	if err := os.WriteFile(f.catalog, []byte(`{"models": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Delete(context.Background(), "Test/Imported"); err == nil {
		t.Fatal("Delete with an unreadable catalog file succeeded")
	}
	if _, err := f.m.Catalog.Lookup("Test/Imported"); err != nil {
		t.Errorf("after the failed Delete: %v; want the entry kept", err)
	}
	if b, _ := os.ReadFile(f.catalog); string(b) != `{"models": [` {
		t.Errorf("the catalog file after the failed Delete: %q", b)
	}
}

var _ io.Closer = (*fakeModel)(nil)

// Two deletions of one imported model at once: one deletes it, the other
// finds it gone.
func TestDeleteConcurrent(t *testing.T) {
	f := newDeleteFixture(t, "")
	errs := make(chan error, 2)
	for range 2 {
		go func() { _, err := f.m.Delete(context.Background(), "Test/Imported"); errs <- err }()
	}
	e1, e2 := <-errs, <-errs
	if (e1 == nil) == (e2 == nil) {
		t.Fatalf("two concurrent Deletes = %v, %v; want one success and one model_not_found", e1, e2)
	}
	wantCode(t, "the losing Delete", errors.Join(e1, e2), sotto.ErrNotFound, "model_not_found")
}

// Two deletions of different models at once each count their own bytes:
// one's sweep of old trash leaves the other's directory alone until it has
// been measured.
func TestDeleteConcurrentSizes(t *testing.T) {
	f := newDeleteFixture(t, "")
	f.put(t, "Test/Dl", "w.bin", make([]byte, 5000))
	f.put(t, "Sotto/Whisper-base", "ggml-base.bin", make([]byte, 7000))
	type result struct {
		res DeleteResult
		err error
	}
	out := make(chan result, 2)
	for _, id := range []string{"Test/Dl", "Sotto/Whisper-base"} {
		go func() { r, err := f.m.Delete(context.Background(), id); out <- result{r, err} }()
	}
	for range 2 {
		r := <-out
		want := map[string]int64{"Test/Dl": 5000, "Sotto/Whisper-base": 7000}[r.res.ID]
		if r.err != nil || r.res.XSotto.BytesFreed < want {
			t.Errorf("concurrent Delete = %+v, %v; want %d+ bytes freed", r.res, r.err, want)
		}
	}
	if left, _ := os.ReadDir(f.m.Store.Root()); len(left) != 0 {
		t.Errorf("store root after both Deletes holds %v; want nothing", left)
	}
}

// TestCatalogWithEntry: an entry goes into a catalog document in place of
// the one of its ID or after the last, and every other byte stays as the
// user wrote it.
func TestCatalogWithEntry(t *testing.T) {
	e := Entry{ID: "Local/x", Object: "model", Imported: true}
	raw, _ := json.MarshalIndent(e, "    ", "  ")
	r := string(raw)
	for _, tc := range []struct{ name, doc, want string }{
		{"append", "{\"models\": [\n  {\"id\": \"A/a\",   \"x_sotto\": {}}\n]}\n",
			"{\"models\": [\n  {\"id\": \"A/a\",   \"x_sotto\": {}},\n    " + r + "\n]}\n"},
		{"replace", `{"models": [{"id": "A/a"}, {"id": "Local/x", "old": 1}, {"id": "B/b"}]}`,
			`{"models": [{"id": "A/a"}, ` + r + `, {"id": "B/b"}]}`},
		{"empty array", `{"models": []}`, "{\"models\": [\n    " + r + "\n  ]}"},
		{"no models", `{"note": "mine"}`, "{\n  \"models\": [\n    " + r + "\n  ],\"note\": \"mine\"}"},
		{"empty object", `{}`, "{\n  \"models\": [\n    " + r + "\n  ]}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CatalogWithEntry([]byte(tc.doc), e)
			if err != nil || string(got) != tc.want {
				t.Errorf("CatalogWithEntry = %v\n%s\nwant:\n%s", err, got, tc.want)
			}
			if !json.Valid(got) {
				t.Errorf("the result is not JSON:\n%s", got)
			}
		})
	}
	got, err := CatalogWithEntry(nil, e)
	var doc struct{ Models []Entry }
	if err != nil || json.Unmarshal(got, &doc) != nil || len(doc.Models) != 1 || !doc.Models[0].Imported {
		t.Errorf("CatalogWithEntry(nothing) = %s, %v; want a document of the entry", got, err)
	}
	for _, bad := range []string{`{"models": [`, `[]`, `{"models": 3}`} {
		if _, err := CatalogWithEntry([]byte(bad), e); err == nil {
			t.Errorf("CatalogWithEntry(%q) succeeded; want an error", bad)
		}
	}
}
