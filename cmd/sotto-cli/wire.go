package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/server"
	"github.com/sottolabs/sotto/tts"
)

// closableModels is the server's view of the models plus shutdown.
type closableModels struct {
	server.Models
	m *models.Manager
}

// Close stops downloads and unloads models, waiting up to 10 s.
func (c closableModels) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.m.Close(ctx)
}

// openModels builds the model manager for serve and wires the capability
// packages' loaders and catalog extensions into it.
func openModels(ctx context.Context, c serveConfig, log *slog.Logger) (closableModels, error) {
	m, err := models.New(models.Config{DataDir: c.dataDir, CatalogFile: c.catalog, Logger: log,
		MaxRunning: c.maxRunning, MaxQueued: queued(c.maxQueued), KeepAlive: c.keepAlive})
	if err != nil {
		return closableModels{}, err
	}
	loaders.Register(m)
	return closableModels{Models: server.ManagedModels(m, server.CatalogExtensions), m: m}, nil
}

// queued maps the --max-queued flag (0 = nobody waits) to models.Config,
// whose zero value means the default.
func queued(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// Loaded reports whether model id is loaded, for the generation endpoints
// (which refuse local language models that are not).
func (c closableModels) Loaded(id string) bool {
	if l, ok := c.Models.(interface{ Loaded(string) bool }); ok {
		return l.Loaded(id)
	}
	return true
}

// Delete deletes model id from the host (DELETE /v1/models/{id}); the
// server finds it by type assertion, which the embedded interface hides.
func (c closableModels) Delete(ctx context.Context, id string) (any, error) {
	if d, ok := c.Models.(server.ModelDeleter); ok {
		return d.Delete(ctx, id)
	}
	return nil, fmt.Errorf("sotto-cli: the model store cannot delete models")
}

// Voices lists a speech model's voices without loading it (GET
// /v1/audio/voices); the server finds it by type assertion, which the
// embedded interface hides.
func (c closableModels) Voices(ctx context.Context, id string) ([]tts.Voice, error) {
	if vl, ok := c.Models.(server.VoiceLister); ok {
		return vl.Voices(ctx, id)
	}
	return nil, fmt.Errorf("sotto-cli: the model store cannot list voices")
}
