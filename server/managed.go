package server

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/sottolabs/sotto/tts"

	"github.com/sottolabs/sotto/normalize"

	"github.com/sottolabs/sotto/internal/models"
)

// ManagedModels adapts a *models.Manager to the [Models] the server needs.
// extend, when non-nil, may add keys to a model's x_sotto object (the
// server uses it for Skylark's normalization table); it is called on every
// GET /v1/models with a map the caller may modify.
func ManagedModels(m *models.Manager, extend func(id string, x map[string]any)) Models {
	return &managed{m: m, extend: extend}
}

type managed struct {
	m      *models.Manager
	extend func(id string, x map[string]any)
}

func (a *managed) Catalog() []any {
	entries := a.m.Catalog.Entries()
	out := make([]any, len(entries))
	for i, e := range entries {
		w := e.Wire()
		x := maps.Clone(w.XSotto)
		if x == nil {
			x = map[string]any{}
		}
		if !e.Builtin {
			x["downloaded"] = a.m.Store.Downloaded(e)
			if n := a.m.Store.DiskBytes(e.ID); n > 0 {
				x["disk_bytes"] = n // what DELETE /v1/models/{id} would free
			}
		} else {
			x["builtin"] = true
		}
		if len(e.Languages) > 0 {
			x["languages"] = e.Languages
		}
		if a.extend != nil {
			a.extend(e.ID, x)
		}
		w.XSotto = x
		out[i] = w
	}
	return out
}

func info(e models.Entry) ModelInfo {
	return ModelInfo{ID: e.ID, SupportedEndpoints: e.SupportedEndpoints, DefaultFor: e.DefaultFor,
		ExecutionLocation: e.ExecutionLocation, Backend: e.Backend, Languages: e.Languages, Features: e.Features,
		BaseURL: e.BaseURL, Options: e.Options}
}

// Loaded reports whether model id is loaded now (the generation endpoints
// refuse local language models that are not).
func (a *managed) Loaded(id string) bool {
	for _, m := range a.m.Running().Data {
		if m.ID == id {
			return true
		}
	}
	return false
}

func (a *managed) Info(id string) (ModelInfo, bool) {
	e, err := a.m.Entry(id)
	if err != nil {
		return ModelInfo{}, false
	}
	return info(e), true
}

func (a *managed) Infos() []ModelInfo {
	entries := a.m.Catalog.Entries()
	out := make([]ModelInfo, len(entries))
	for i, e := range entries {
		out[i] = info(e)
	}
	return out
}

func (a *managed) StartDownload(_ context.Context, id string) (any, error) { return a.m.Download(id) }

func (a *managed) Downloads() []any {
	jobs := a.m.DownloadJobs()
	out := make([]any, len(jobs))
	for i, j := range jobs {
		out[i] = j
	}
	return out
}

func (a *managed) CancelDownload(_ context.Context, id string) (any, error) {
	return a.m.CancelDownload(id)
}

func (a *managed) Load(ctx context.Context, id string) (any, error)   { return a.m.Load(ctx, id) }
func (a *managed) Unload(ctx context.Context, id string) (any, error) { return a.m.Unload(ctx, id) }
func (a *managed) Running() any                                       { return a.m.Running() }

// Delete deletes model id from the host; see [models.Manager.Delete].
func (a *managed) Delete(ctx context.Context, id string) (any, error) { return a.m.Delete(ctx, id) }

func (a *managed) Acquire(ctx context.Context, id string) (func(), any, error) {
	obj, release, err := a.m.Acquire(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return release, obj, nil
}

// Voices lists the voices of speech model id with its backend's inspector
// (see [models.Runtime.Inspect]), without loading it; a backend without
// one is acquired as a request would and its loaded backend asked.
func (a *managed) Voices(ctx context.Context, id string) ([]tts.Voice, error) {
	v, err := a.m.Inspect(ctx, id)
	if errors.Is(err, models.ErrNotInspectable) {
		obj, release, err := a.m.Acquire(ctx, id)
		if err != nil {
			return nil, err
		}
		defer release()
		if l, ok := obj.(tts.Lister); ok {
			return l.Voices(), nil
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	vs, ok := v.([]tts.Voice)
	if !ok {
		return nil, fmt.Errorf("server: the inspector of %s gave %T, not voices", id, v)
	}
	return vs, nil
}

// CatalogExtensions adds the capability tables of built-in packages to the
// x_sotto object of their catalog entries: Sotto/Skylark gets
// "normalization", the languages and per-mode classes of the normalize
// package.
func CatalogExtensions(id string, x map[string]any) {
	if id == normalize.ModelID {
		x["normalization"] = normalize.Capabilities()
	}
}
