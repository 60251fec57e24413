package server

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/internal/models"
)

// TestModelNotFoundWording sends an unknown model ID to every endpoint that
// looks one up, through the real model manager: the lifecycle endpoints
// (load, unload, download, cancel, DELETE), GET /v1/models/{id} and an
// endpoint that uses a model. Each answers 404 model_not_found, param
// model, with one wording: the hint that GET /v1/models lists the models,
// or "did you mean" for an ID that differs from a known one only in case.
func TestModelNotFoundWording(t *testing.T) {
	m, err := models.New(models.Config{DataDir: filepath.Join(t.TempDir(), "data"), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	_, ts := newTestServer(t, Config{Models: ManagedModels(m, CatalogExtensions)})
	requests := []struct{ method, path, body string }{
		{"POST", "/v1/models/load", `{"model":%q}`},
		{"POST", "/v1/models/unload", `{"model":%q}`},
		{"POST", "/v1/models/download", `{"model":%q}`},
		{"POST", "/v1/models/download/cancel", `{"model":%q}`},
		{"DELETE", "/v1/models/%s", ""},
		{"GET", "/v1/models/%s", ""},
		{"POST", "/v1/audio/speech", `{"model":%q,"input":"Hello.","voice":"alloy"}`},
	}
	for _, id := range []struct{ id, want string }{
		{"Nope/Nothing", `model "Nope/Nothing" is not in the catalog (GET /v1/models lists the models)`},
		{"sotto/lattice-1", `model "sotto/lattice-1" is not in the catalog; did you mean Sotto/Lattice-1? (GET /v1/models lists the models)`},
	} {
		for _, q := range requests {
			var r resp
			if q.body == "" {
				r = do(t, ts, q.method, fmt.Sprintf(q.path, id.id), nil, nil)
			} else {
				r = do(t, ts, q.method, q.path, jsonBodyString(fmt.Sprintf(q.body, id.id)), nil)
			}
			e := r.envelope(t)
			if r.status != 404 || e.Code != "model_not_found" || e.Param != "model" || e.Message != id.want {
				t.Errorf("%s %s with %s = %d %s; want 404 model_not_found, param model, %q", q.method, q.path, id.id, r.status, r.body, id.want)
			}
		}
	}
}
