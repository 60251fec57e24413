package models

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sottolabs/sotto"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func TestDefaultCatalog(t *testing.T) {
	c := DefaultCatalog()
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate() = %v; want nil", err)
	}
	var ids []string
	for _, e := range c.Entries() {
		ids = append(ids, e.ID)
		if e.ExecutionLocation != Local {
			t.Errorf("%s: execution_location = %q; want %q", e.ID, e.ExecutionLocation, Local)
		}
	}
	if want := []string{Skylark, Lattice2, Lattice1, "Sotto/Flite", "Sotto/eSpeak"}; !slices.Equal(ids[:min(len(ids), len(want))], want) {
		t.Errorf("IDs = %v; want %v", ids, want)
	}
	defaults := []struct{ endpoint, want string }{
		{"/v1/audio/alignments", Lattice2},
		{"/v1/speaker/similarity", Lattice1},
		{"/v1/speaker/embeddings", Lattice1},
		{"/v1/text/normalizations", Skylark},
		{"/v1/text/segmentations", Skylark},
	}
	for _, d := range defaults {
		e, ok := c.DefaultFor(d.endpoint)
		if !ok || e.ID != d.want {
			t.Errorf("DefaultFor(%q) = %q, %v; want %q", d.endpoint, e.ID, ok, d.want)
		}
	}
	l1, err := c.Lookup(Lattice1)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "en-US", "zh", "de-DE"} {
		if !l1.CoversLanguage(lang) {
			t.Errorf("Lattice-1 CoversLanguage(%q) = false; want true", lang)
		}
	}
	for _, lang := range []string{"fr", "und", "eng"} {
		if l1.CoversLanguage(lang) {
			t.Errorf("Lattice-1 CoversLanguage(%q) = true; want false", lang)
		}
	}
	l2, _ := c.Lookup(Lattice2)
	if !l2.CoversLanguage("und") || !l2.Supports("/v1/audio/alignments") {
		t.Errorf("Lattice-2 must cover und and support alignments: %+v", l2)
	}
}

// TestDefaultOptionsNameFiles checks that every option of the embedded
// catalog names a file of its model or a path inside one of its archives,
// or (Sotto/Lattice-1's speaker_network) another model of the catalog.
func TestDefaultOptionsNameFiles(t *testing.T) {
	c := DefaultCatalog()
	for _, e := range c.Entries() {
		for k, v := range e.Options {
			_, err := c.Lookup(v)
			found := err == nil && v != e.ID
			for _, f := range e.Files {
				if v == f.Name || (f.Extract != "" && strings.HasPrefix(v, f.Name+"/")) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: option %s = %q names no file", e.ID, k, v)
			}
		}
	}
}

func TestLookupUnknown(t *testing.T) {
	_, err := DefaultCatalog().Lookup("Sotto/Nope")
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "model_not_found" || se.Param != "model" || !errors.Is(err, sotto.ErrNotFound) {
		t.Fatalf("Lookup(unknown) = %v; want 404 model_not_found param model", err)
	}
	if strings.Contains(err.Error(), "did you mean") {
		t.Errorf("Lookup(Sotto/Nope) = %v; want no suggestion", err)
	}
	// The ID with the wrong case is still unknown, but named.
	_, err = DefaultCatalog().Lookup("sotto/lattice-2")
	if !errors.Is(err, sotto.ErrNotFound) || !strings.Contains(err.Error(), "did you mean Sotto/Lattice-2?") {
		t.Errorf("Lookup(sotto/lattice-2) = %v; want model_not_found suggesting Sotto/Lattice-2", err)
	}
}

// TestWireGolden pins the GET /v1/models data array of the embedded catalog.
func TestWireGolden(t *testing.T) {
	got, err := json.MarshalIndent(DefaultCatalog().Models(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "models.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("Models() JSON mismatch (-want +got):\n%s", diff)
	}
	// Every spec field is present, and the backend-only fields are not.
	var list []map[string]any
	if err := json.Unmarshal(got, &list); err != nil {
		t.Fatal(err)
	}
	for _, m := range list {
		for _, k := range []string{"id", "object", "created", "owned_by", "supported_endpoints", "features", "execution_location", "default_for"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%v: field %q missing", m["id"], k)
			}
		}
		for _, k := range []string{"files", "backend", "languages"} {
			if _, ok := m[k]; ok {
				t.Errorf("%v: internal field %q on the wire", m["id"], k)
			}
		}
	}
}

func TestWireCopiesXSotto(t *testing.T) {
	e := Entry{ID: "A/b", XSotto: map[string]any{"k": 1}}
	w := e.Wire()
	w.XSotto["normalization"] = "table"
	if _, ok := e.XSotto["normalization"]; ok {
		t.Error("Wire().XSotto aliases the entry's map")
	}
	if w.Features == nil || w.DefaultFor == nil || w.SupportedEndpoints == nil || w.Object != "model" {
		t.Errorf("Wire() = %+v; want non-nil slices and object model", w)
	}
}

func TestUserCatalog(t *testing.T) {
	user := `{"models": [
	  {"id": "Sotto/Lattice-1", "features": ["tool_calling"]},
	  {"id": "Acme/Remote-LLM", "created": 1, "owned_by": "acme",
	   "supported_endpoints": ["/v1/responses", "/v1/messages"], "features": ["reasoning"],
	   "execution_location": "remote", "default_for": ["/v1/responses"],
	   "base_url": "https://llm.example.com/v1"}
	]}`
	p := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(p, []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCatalog(p)
	if err != nil {
		t.Fatalf("LoadCatalog = %v", err)
	}
	r, err := c.Lookup("Acme/Remote-LLM")
	if err != nil {
		t.Fatal(err)
	}
	if r.Object != "model" || r.ExecutionLocation != Remote || r.BaseURL != "https://llm.example.com/v1" {
		t.Errorf("added entry = %+v", r)
	}
	l1, _ := c.Lookup(Lattice1)
	base, _ := DefaultCatalog().Lookup(Lattice1)
	if !slices.Equal(l1.Features, []string{"tool_calling"}) {
		t.Errorf("overridden features = %v; want [tool_calling]", l1.Features)
	}
	base.Features = l1.Features
	if diff := cmp.Diff(base, l1); diff != "" {
		t.Errorf("override changed other fields (-want +got):\n%s", diff)
	}
	if n, want := len(c.Entries()), len(DefaultCatalog().Entries())+1; n != want {
		t.Errorf("len(Entries()) = %d; want %d (the defaults and one added)", n, want)
	}
}

func TestCatalogErrors(t *testing.T) {
	local := `"object":"model","created":1,"owned_by":"x","supported_endpoints":["/v1/a"],"features":[],"execution_location":"local","default_for":[],"backend":"b"`
	tests := []struct {
		name, doc, want string
	}{
		{"unknown top-level field", `{"models": [], "extra": 1}`, "unknown field"},
		{"unknown entry field", `{"models": [{"id":"A/b",` + local + `,"colour":"red"}]}`, "unknown field"},
		{"unknown file field", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"http://h/f","md5":"x"}]}]}`, "unknown field"},
		{"override unknown field", `{"models": [{"id":"Sotto/Lattice-1","colour":"red"}]}`, "unknown field"},
		{"trailing data", `{"models": []} {}`, "trailing"},
		{"not an object", `{"models": [3]}`, "not an object"},
		{"missing id", `{"models": [{` + local + `}]}`, "id"},
		{"bad id", `{"models": [{"id":"nope",` + local + `}]}`, "Owner/Name"},
		{"duplicate default", `{"models": [{"id":"A/b",` + strings.Replace(local, `"default_for":[]`, `"default_for":["/v1/audio/alignments"]`, 1) + `,"supported_endpoints":["/v1/audio/alignments"]}]}`, "both claim"},
		{"bad location", `{"models": [{"id":"A/b",` + strings.Replace(local, `"local"`, `"moon"`, 1) + `}]}`, "execution_location"},
		{"remote without url", `{"models": [{"id":"A/b",` + strings.Replace(local, `"local"`, `"remote"`, 1) + `}]}`, "base_url"},
		{"file escapes", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"../f","url":"http://h/f"}]}]}`, "clean relative"},
		{"file both sources", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"http://h/f","system_path":"/f"}]}]}`, "exclusive"},
		{"file no source", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f"}]}]}`, "required"},
		{"bad sha", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"http://h/f","sha256":"abc"}]}]}`, "sha256"},
		{"ftp url", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"ftp://h/f"}]}]}`, "http"},
		{"reserved suffix", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f.part","url":"http://h/f"}]}]}`, "reserved"},
		{"dup file", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"http://h/f"},{"name":"f","url":"http://h/g"}]}]}`, "duplicate"},
		{"default not supported", `{"models": [{"id":"A/b",` + strings.Replace(local, `"default_for":[]`, `"default_for":["/v1/z"]`, 1) + `}]}`, "supported_endpoints"},
		{"builtin with files", `{"models": [{"id":"A/b",` + local + `,"builtin":true,"files":[{"name":"f","url":"http://h/f"}]}]}`, "builtin"},
		{"bad extract", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"http://h/f","extract":"zip"}]}]}`, "extract"},
		{"members without archive", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"http://h/f","members":["a/x"]}]}]}`, "only for archives"},
		{"member escapes", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"http://h/f","extract":"tar.gz","members":["../x"]}]}]}`, "clean relative"},
		{"members share a base", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"http://h/f","extract":"tar.gz","members":["a/x","b/x"]}]}]}`, "base name"},
		{"hidden member", `{"models": [{"id":"A/b",` + local + `,"files":[{"name":"f","url":"http://h/f","extract":"tar.gz","members":["a/.x"]}]}]}`, "hidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := MergeCatalog(DefaultCatalog(), []byte(tt.doc))
			if err == nil {
				t.Fatalf("MergeCatalog(%s) = nil error; want one", tt.doc)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("MergeCatalog error = %q; want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestCatalogRoundTrip(t *testing.T) {
	user, err := os.ReadFile(filepath.Join("testdata", "user_catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*Catalog{
		"default": DefaultCatalog(),
		"merged":  must(MergeCatalog(DefaultCatalog(), user)),
	} {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseCatalog(data)
			if err != nil {
				t.Fatalf("ParseCatalog(Marshal(c)) = %v", err)
			}
			if diff := cmp.Diff(c.Entries(), back.Entries()); diff != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func FuzzParseCatalog(f *testing.F) {
	f.Add(defaultCatalogJSON)
	if data, err := os.ReadFile(filepath.Join("testdata", "user_catalog.json")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"models":[{"id":"A/b","execution_location":"remote","base_url":"http://x"}]}`))
	f.Add([]byte(`{"models":[{"id":"Sotto/Lattice-1","files":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, base := range []*Catalog{nil, DefaultCatalog()} {
			c, err := MergeCatalog(base, data)
			if err != nil {
				continue
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("accepted catalog fails Validate: %v", err)
			}
			out, err := json.Marshal(c)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			back, err := ParseCatalog(out)
			if err != nil {
				t.Fatalf("ParseCatalog(Marshal(c)) = %v\n%s", err, out)
			}
			if diff := cmp.Diff(c.Entries(), back.Entries()); diff != "" {
				t.Fatalf("round trip mismatch (-want +got):\n%s", diff)
			}
			again, _ := json.Marshal(back)
			if !bytes.Equal(out, again) {
				t.Fatalf("second Marshal differs:\n%s\n%s", out, again)
			}
			for _, m := range c.Models() {
				if _, err := json.Marshal(m); err != nil {
					t.Fatalf("Marshal(wire %s): %v", m.ID, err)
				}
			}
		}
	})
}

func TestLanguagePacks(t *testing.T) {
	e, err := DefaultCatalog().Lookup("Sotto/Lattice-1")
	if err != nil {
		t.Fatal(err)
	}
	var packs, required int
	for _, f := range e.Files {
		if f.Pack {
			packs++
		}
	}
	for _, f := range e.RequiredFiles() {
		if f.Pack || f.Optional {
			t.Errorf("RequiredFiles includes %s (pack %v, optional %v)", f.Name, f.Pack, f.Optional)
		}
		required++
	}
	dl := e.DownloadFiles()
	if packs != 2 || len(dl) != required+packs {
		t.Errorf("Lattice-1: %d packs, %d required, %d fetched by a download; want 2 packs (zh, de) fetched besides the required files", packs, required, len(dl))
	}
	bad := Entry{ID: "T/x", Object: "model", ExecutionLocation: Local, Files: []File{{Name: "p", Pack: true, SystemPath: "/x"}}}
	if err := bad.Validate(); err == nil {
		t.Error("a pack without a url validated")
	}
}
