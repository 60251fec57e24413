package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sottolabs/sotto/internal/models"
)

// testModels returns the real model manager over the embedded catalog and
// a temporary data directory.
func testModels(t *testing.T) Models {
	t.Helper()
	m, err := models.New(models.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		m.Close(ctx)
	})
	return ManagedModels(m, CatalogExtensions)
}

func TestModelsEndpoints(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	r := do(t, ts, "GET", "/v1/models", nil, nil)
	var list struct {
		Object string
		Data   []struct {
			ID                 string         `json:"id"`
			Object             string         `json:"object"`
			SupportedEndpoints []string       `json:"supported_endpoints"`
			DefaultFor         []string       `json:"default_for"`
			ExecutionLocation  string         `json:"execution_location"`
			XSotto             map[string]any `json:"x_sotto"`
		}
	}
	if err := json.Unmarshal(r.body, &list); err != nil || r.status != 200 || list.Object != "list" {
		t.Fatalf("GET /v1/models = %d %s", r.status, r.body)
	}
	ids := map[string]bool{}
	for _, m := range list.Data {
		ids[m.ID] = true
		if m.Object != "model" || m.ExecutionLocation != "local" {
			t.Errorf("%s: object %q location %q; want model, local", m.ID, m.Object, m.ExecutionLocation)
		}
	}
	for _, id := range []string{"Sotto/Skylark", "Sotto/Lattice-1", "Sotto/Lattice-2"} {
		if !ids[id] {
			t.Errorf("catalog lacks %s", id)
		}
	}
	for _, tt := range []struct {
		path string
		body string
		want int
		code string
	}{
		{"/v1/models/download", `{"model":"Sotto/none"}`, 404, "model_not_found"},
		{"/v1/models/load", `{"model":"Sotto/none"}`, 404, "model_not_found"},
		{"/v1/models/unload", `{"model":"Sotto/none"}`, 404, "model_not_found"},
		{"/v1/models/download/cancel", `{"model":"Sotto/none"}`, 404, "model_not_found"},
		{"/v1/models/download", `{}`, 400, "bad_request"},
		{"/v1/models/download/cancel", `{"model":"Sotto/Skylark"}`, 400, ""},
		{"/v1/models/load", `{"model":"Sotto/Skylark"}`, 400, ""},
		{"/v1/models/download/cancel", `{"model":"Sotto/Lattice-2"}`, 400, "download_not_active"},
	} {
		r := do(t, ts, "POST", tt.path, jsonBodyString(tt.body), nil)
		if r.status != tt.want || (tt.code != "" && r.envelope(t).Code != tt.code) {
			t.Errorf("POST %s %s = %d %s; want %d %s", tt.path, tt.body, r.status, r.body, tt.want, tt.code)
		}
	}
	r = do(t, ts, "GET", "/v1/models/running", nil, nil)
	var run struct {
		Object  string
		Data    []any
		Runtime struct {
			State  string
			Queues map[string]any
		}
	}
	if err := json.Unmarshal(r.body, &run); err != nil || run.Object != "list" || run.Runtime.State != "running" || run.Runtime.Queues == nil {
		t.Errorf("GET /v1/models/running = %d %s", r.status, r.body)
	}
	r = do(t, ts, "GET", "/v1/models/downloads", nil, nil)
	if r.status != 200 {
		t.Errorf("GET /v1/models/downloads = %d", r.status)
	}
}

// TestGetModel: GET /v1/models/{id} (OpenAI clients' models.retrieve) is
// the entry GET /v1/models lists, the slash in the ID included; the fixed
// paths under /v1/models keep their own handlers.
func TestGetModel(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	var list struct{ Data []json.RawMessage }
	if err := json.Unmarshal(do(t, ts, "GET", "/v1/models", nil, nil).body, &list); err != nil {
		t.Fatal(err)
	}
	var want json.RawMessage
	for _, e := range list.Data {
		var h struct{ ID string }
		if json.Unmarshal(e, &h) == nil && h.ID == "Sotto/Lattice-2" {
			want = e
		}
	}
	r := do(t, ts, "GET", "/v1/models/Sotto/Lattice-2", nil, nil)
	// Byte for byte the listed entry, and a newline as every JSON answer
	// ends (curl's output ran into the next command's).
	if r.status != 200 || string(r.body) != string(want)+"\n" {
		t.Errorf("GET /v1/models/Sotto/Lattice-2 = %d %s; want 200 %s", r.status, r.body, want)
	}
	// SDKs percent-encode the ID's slash.
	if r := do(t, ts, "GET", "/v1/models/Sotto%2FLattice-2", nil, nil); r.status != 200 || !strings.Contains(string(r.body), `"id":"Sotto/Lattice-2"`) {
		t.Errorf("GET /v1/models/Sotto%%2FLattice-2 = %d %s; want the entry", r.status, r.body)
	}
	r = do(t, ts, "GET", "/v1/models/Sotto/none", nil, nil)
	if e := r.envelope(t); r.status != 404 || e.Code != "model_not_found" || e.Param != "model" {
		t.Errorf("unknown model: %d %s; want 404 model_not_found, param model", r.status, r.body)
	}
	r = do(t, ts, "GET", "/v1/models/sotto/lattice-2", nil, nil)
	if e := r.envelope(t); r.status != 404 || e.Code != "model_not_found" || !strings.Contains(e.Message, "did you mean Sotto/Lattice-2?") {
		t.Errorf("model ID in the wrong case: %d %s; want 404 model_not_found suggesting Sotto/Lattice-2", r.status, r.body)
	}
	if r := do(t, ts, "GET", "/v1/models/running", nil, nil); r.status != 200 || !strings.Contains(string(r.body), `"runtime"`) {
		t.Errorf("GET /v1/models/running = %d %s", r.status, r.body)
	}
	// No ID after the slash: a 404 that says so, not `model "" is not in
	// the catalog`; GET points at the list.
	for _, c := range []struct{ method, hint string }{{"GET", "GET /v1/models lists"}, {"DELETE", "DELETE /v1/models/Sotto/"}} {
		r := do(t, ts, c.method, "/v1/models/", nil, nil)
		if e := r.envelope(t); r.status != 404 || e.Code != "route_not_found" || !strings.Contains(e.Message, "names no model") ||
			!strings.Contains(e.Message, c.hint) || strings.Contains(e.Message, `""`) {
			t.Errorf("%s /v1/models/ = %d %s; want 404 route_not_found saying the ID is missing", c.method, r.status, r.body)
		}
	}
}
