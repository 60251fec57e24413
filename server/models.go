package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/tts"
)

// ModelInfo is what the server needs to know of a catalog entry to route a
// request.
type ModelInfo struct {
	ID                 string
	SupportedEndpoints []string
	DefaultFor         []string
	ExecutionLocation  string
	Backend            string
	Languages          []string
	Features           []string
	// Dir is where the model's files are, when it is downloaded.
	Dir string
	// BaseURL is the upstream of a remote model; Options are its catalog
	// options (see upstream.go).
	BaseURL string
	Options map[string]string
}

// Serves reports whether the model serves the API path.
func (m ModelInfo) Serves(path string) bool { return slices.Contains(m.SupportedEndpoints, path) }

// Models is the model catalog, download manager and runtime the server
// puts behind /v1/models. internal/models implements it.
type Models interface {
	// Catalog returns the wire form of every catalog entry, in order.
	Catalog() []any
	// Info returns the routing view of one model.
	Info(id string) (ModelInfo, bool)
	// Infos returns the routing view of every model, in catalog order.
	Infos() []ModelInfo
	// StartDownload starts (or reports) the download of a model.
	StartDownload(ctx context.Context, id string) (any, error)
	// Downloads lists the download jobs.
	Downloads() []any
	// CancelDownload asks an active download to stop.
	CancelDownload(ctx context.Context, id string) (any, error)
	// Load loads a downloaded model.
	Load(ctx context.Context, id string) (any, error)
	// Unload releases a loaded model.
	Unload(ctx context.Context, id string) (any, error)
	// Running returns the running-models document.
	Running() any
	// Acquire holds a model for one request, loading it if needed and
	// waiting in its bounded queue; release must be called when done.
	Acquire(ctx context.Context, id string) (release func(), loaded any, err error)
}

// ModelDeleter is implemented by [Models] that can delete a model from the
// host (DELETE /v1/models/{id}); internal/models does. Delete returns the
// object OpenAI clients expect, {"id", "object": "model", "deleted": true},
// or a *sotto.Error: 404 model_not_found, 400 for a model that ships with
// the binary, 409 model_in_use or download_active.
type ModelDeleter interface {
	Delete(ctx context.Context, id string) (any, error)
}

// VoiceLister is implemented by [Models] that can list a speech model's
// voices without loading it (ManagedModels can): GET /v1/audio/voices then
// neither loads every speech model nor waits in their queues. Without it
// the handler acquires each model and asks the loaded backend.
type VoiceLister interface {
	// Voices lists the builtin voices of speech model id; it fails as
	// Acquire would when the model cannot run here.
	Voices(ctx context.Context, id string) ([]tts.Voice, error)
}

// emptyModels is the catalog of a server configured without models.
type emptyModels struct{}

func (emptyModels) Catalog() []any                { return []any{} }
func (emptyModels) Info(string) (ModelInfo, bool) { return ModelInfo{}, false }
func (emptyModels) Infos() []ModelInfo            { return nil }
func (emptyModels) StartDownload(_ context.Context, id string) (any, error) {
	return nil, unknownModel(id)
}
func (emptyModels) Downloads() []any { return []any{} }
func (emptyModels) CancelDownload(_ context.Context, id string) (any, error) {
	return nil, unknownModel(id)
}
func (emptyModels) Load(_ context.Context, id string) (any, error)   { return nil, unknownModel(id) }
func (emptyModels) Unload(_ context.Context, id string) (any, error) { return nil, unknownModel(id) }
func (emptyModels) Running() any {
	return map[string]any{"object": "list", "data": []any{}, "runtime": map[string]any{"state": "running", "queues": map[string]any{}}}
}
func (emptyModels) Acquire(_ context.Context, id string) (func(), any, error) {
	return nil, nil, unknownModel(id)
}
func (emptyModels) Delete(_ context.Context, id string) (any, error) { return nil, unknownModel(id) }

// unknownModel is the 404 model_not_found for an ID no model has, worded as
// the catalog words it for the lifecycle endpoints (models.NotInCatalog).
func unknownModel(id string) error { return models.NotInCatalog(id, nil) }

// unknownModel is the 404 for an ID s's catalog lacks, with "did you mean"
// for an ID that differs from a known one only in case.
func (s *Server) unknownModel(id string) error {
	infos := s.models.Infos()
	ids := make([]string, len(infos))
	for i, m := range infos {
		ids[i] = m.ID
	}
	return models.NotInCatalog(id, ids)
}

// resolveModel picks the model for an endpoint: the named one, which must
// exist (404) and serve the path (400 model_capability_unsupported), or the
// catalog's default for the path.
func (s *Server) resolveModel(id, path string) (ModelInfo, error) {
	if id == "" {
		for _, m := range s.models.Infos() {
			if slices.Contains(m.DefaultFor, path) && m.Serves(path) {
				return m, nil
			}
		}
		for _, m := range s.models.Infos() {
			if m.Serves(path) {
				return m, nil
			}
		}
		return ModelInfo{}, sotto.NotImplemented("capability_unavailable",
			"no model in this build's catalog serves %s", path)
	}
	m, ok := s.models.Info(id)
	if !ok {
		return m, s.unknownModel(id)
	}
	if !m.Serves(path) {
		return m, sotto.Invalid("model_capability_unsupported", "model",
			"model %q does not serve %s (its supported_endpoints: %v)", id, path, m.SupportedEndpoints)
	}
	return m, nil
}

type modelRequest struct {
	Model *string `json:"model"`
}

// readModelID reads {"model": "..."} and requires the field.
func readModelID(r *http.Request) (string, error) {
	var req modelRequest
	if err := decodeJSON(r, &req, false, ""); err != nil {
		return "", err
	}
	if req.Model == nil || *req.Model == "" {
		return "", sotto.Invalid("bad_request", "model", "field \"model\" is required: a catalog model ID")
	}
	return *req.Model, nil
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": s.models.Catalog()})
}

// handleGetModel returns one catalog entry (GET /v1/models/{id}), the
// object GET /v1/models lists for it, as OpenAI-compatible clients
// retrieve a model. IDs contain a slash (Sotto/Lattice-2), so the path's
// rest is the ID. An unknown ID is 404 model_not_found.
func (s *Server) handleGetModel(w http.ResponseWriter, r *http.Request) {
	if s.exactRoute(w, r) { // GET /v1/models/load
		return
	}
	id := r.PathValue("id")
	if id == "" {
		s.writeError(w, r, missingModelID(r))
		return
	}
	for _, e := range s.models.Catalog() {
		b, err := json.Marshal(e)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		var head struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(b, &head) == nil && head.ID == id {
			writeJSON(w, http.StatusOK, e) // as the list writes it, with its newline
			return
		}
	}
	s.writeError(w, r, s.unknownModel(id)) // as the catalog's lookup answers load and delete
}

// missingModelID is the 404 for /v1/models/ with no model ID after the
// slash (the {id...} routes match it with an empty ID).
func missingModelID(r *http.Request) error {
	list := ""
	if r.Method == http.MethodGet {
		list = "; GET /v1/models lists the catalog"
	}
	return sotto.NotFound("route_not_found", "", "%s %s names no model: put its ID after the slash (%s /v1/models/Sotto/Lattice-1)%s",
		r.Method, r.URL.Path, r.Method, list)
}

// handleDeleteModel deletes a model from the host (DELETE /v1/models/{id}),
// as OpenAI clients' models.delete calls it: the model's files leave the
// data directory and a model the user imported leaves the catalog; the
// answer is {"id", "object": "model", "deleted": true, "x_sotto": {...}}.
// The spec is silent on deleting; see [ModelDeleter] for the errors.
func (s *Server) handleDeleteModel(w http.ResponseWriter, r *http.Request) {
	if s.exactRoute(w, r) { // DELETE /v1/models/running
		return
	}
	id := r.PathValue("id")
	if id == "" {
		s.writeError(w, r, missingModelID(r))
		return
	}
	d, ok := s.models.(ModelDeleter)
	if !ok {
		s.writeError(w, r, sotto.NotImplemented("capability_unavailable",
			"this server's model store cannot delete models"))
		return
	}
	res, err := d.Delete(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) handleDownloads(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": s.models.Downloads()})
}

// modelAction is one of the POST {"model": id} lifecycle endpoints.
func (s *Server) modelAction(status int, act func(context.Context, string) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := readModelID(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		res, err := act(r.Context(), id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, status, res)
	}
}

func (s *Server) handleRunning(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.models.Running())
}

// acquire holds model id for one request (loading it if needed, see
// [Models.Acquire]) and returns it as the capability backend B with the
// function that releases it. A model loaded as something else is a 501
// capability_unavailable: "model X does not <what> in this build".
func acquire[B any](ctx context.Context, s *Server, id, what string) (B, func(), error) {
	var zero B
	release, loaded, err := s.models.Acquire(ctx, id)
	if err != nil {
		return zero, nil, err
	}
	b, ok := loaded.(B)
	if !ok {
		release()
		return zero, nil, sotto.NotImplemented("capability_unavailable", "model %s does not %s in this build", id, what)
	}
	return b, release, nil
}
