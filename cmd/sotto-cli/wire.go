package main

import (
	"context"
	"io"
	"log/slog"
	"path"
	"time"

	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/server"
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
	m, err := models.New(models.Config{DataDir: c.dataDir, CatalogFile: c.catalog, Logger: log})
	if err != nil {
		return closableModels{}, err
	}
	for _, name := range []string{"lattice-1", "lattice-2"} {
		m.RegisterLoader(name, alignLoader)
	}
	return closableModels{Models: server.ManagedModels(m, server.CatalogExtensions), m: m}, nil
}

// alignLoader opens the alignment backend on a model's files: the acoustic
// model directory and the pronouncing dictionary.
func alignLoader(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	cfg := spec.Config()
	if cfg.Options == nil {
		cfg.Options = map[string]string{}
	}
	if p, ok := spec.Paths["en-us/mdef"]; ok {
		cfg.Options[align.OptAcousticDir] = path.Dir(p)
	}
	if p, ok := spec.Paths["cmudict-en-us.dict"]; ok {
		cfg.Options[align.OptDict] = p
	}
	return align.Open(ctx, "", cfg)
}
