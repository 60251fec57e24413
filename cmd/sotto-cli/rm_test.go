package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/server"
)

// TestModelsRm imports a model, serves the data directory as serve wires
// it, and deletes the model with models rm: the catalog entry goes, the
// imported file stays, and the refusals of the service reach the user.
func TestModelsRm(t *testing.T) {
	data := t.TempDir()
	ckpt, _ := filepath.Abs("../../llm/testdata/stories260K.bin")
	tok, _ := filepath.Abs("../../llm/testdata/stories260K-tok512.bin")
	e := env(map[string]string{"SOTTO_DATA_DIR": data})
	if err := runModels(context.Background(), []string{"import", "Local/tiny", ckpt, "--tokenizer", tok}, e, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	catalog := filepath.Join(data, models.UserCatalogName)
	m, err := models.New(models.Config{DataDir: data, CatalogFile: catalog, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	loaders.Register(m)
	cm := closableModels{Models: server.ManagedModels(m, server.CatalogExtensions), m: m}
	defer cm.Close()
	srv, err := server.New(server.Config{Models: cm, Logger: slog.New(slog.DiscardHandler), SpoolDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	e = env(map[string]string{"SOTTO_URL": ts.URL})
	if err := runModels(context.Background(), []string{"load", "Local/tiny"}, e, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}

	var out bytes.Buffer
	if err := runModels(context.Background(), []string{"rm", "Local/tiny"}, e, &out, io.Discard); err != nil {
		t.Fatalf("models rm Local/tiny = %v", err)
	}
	if want := "Local/tiny: deleted: unloaded, removed from the catalog; its files outside the data directory are kept\n"; out.String() != want {
		t.Errorf("models rm output %q; want %q", out.String(), want)
	}
	if b, _ := os.ReadFile(catalog); bytes.Contains(b, []byte("Local/tiny")) {
		t.Errorf("catalog after rm still has the model:\n%s", b)
	}
	if _, err := os.Stat(ckpt); err != nil {
		t.Errorf("the imported file after rm: %v", err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"rm", "Local/tiny"}, "HTTP 404 model_not_found"},
		{[]string{"delete", "Sotto/Skylark"}, "HTTP 400 model_builtin"},
		{[]string{"rm", "Sotto/Whisper-tiny"}, "HTTP 400 model_not_downloaded"},
	} {
		err := runModels(context.Background(), tt.args, e, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("models %v = %v; want %q", tt.args, err, tt.want)
		}
	}
	if err := runModels(context.Background(), []string{"rm"}, e, io.Discard, io.Discard); !errors.As(err, new(usageError)) {
		t.Errorf("models rm without MODEL = %v; want a usage error", err)
	}
}
