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
	// The user adds an entry of their own by hand, in their own layout,
	// beside the imported one.
	imported, err := os.ReadFile(catalog)
	if err != nil {
		t.Fatal(err)
	}
	mine := `{"id": "Local/mine", "owned_by": "me", "execution_location": "local", "backend": "llm-go",
     "supported_endpoints": ["/v1/chat/completions"], "features": [], "default_for": [],
     "files": [{"name": "model", "system_path": "` + ckpt + `"}, {"name": "tokenizer", "system_path": "` + tok + `"}],
     "options": {"model": "model", "tokenizer": "tokenizer"}}`
	doc := strings.Replace(string(imported), `"models": [`, `"models": [`+"\n    "+mine+",", 1)
	if err := os.WriteFile(catalog, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
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
	if b, _ := os.ReadFile(catalog); bytes.Contains(b, []byte("Local/tiny")) || !strings.Contains(string(b), mine) {
		t.Errorf("catalog after rm:\n%s\nwant the imported model gone and the user's entry as written", b)
	}
	// The user's own entry: nothing of it is in the data directory, and
	// the file the user wrote is not rewritten.
	before, _ := os.ReadFile(catalog)
	err = runModels(context.Background(), []string{"rm", "Local/mine"}, e, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "HTTP 400 model_not_deletable") || !strings.Contains(err.Error(), "remove its entry from that file") {
		t.Errorf("models rm Local/mine = %v; want model_not_deletable saying to edit the catalog file", err)
	}
	if after, _ := os.ReadFile(catalog); string(after) != string(before) {
		t.Errorf("models rm of the user's entry changed the catalog file:\n%s\nwas:\n%s", after, before)
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
