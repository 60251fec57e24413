package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/llm"
)

// TestModelsImport imports the llama2.c test model into a data directory's
// catalog, loads it through the runtime and its loader, and generates.
func TestModelsImport(t *testing.T) {
	ckpt, _ := filepath.Abs("../../llm/testdata/stories260K.bin")
	tok, _ := filepath.Abs("../../llm/testdata/stories260K-tok512.bin")
	if _, err := os.Stat(ckpt); err != nil {
		t.Skipf("test model absent: %v", err)
	}
	data := t.TempDir()
	var out, errOut bytes.Buffer
	imp := func(args ...string) error {
		return runImport(append(args, "--data-dir", data), env(nil), &out, &errOut)
	}
	if err := imp("Test/stories", ckpt); exitCode(err) != 2 || !strings.Contains(err.Error(), "--tokenizer") {
		t.Errorf("import of a checkpoint without --tokenizer = %v; want a usage error naming --tokenizer", err)
	}
	if err := imp("bad id", ckpt, "--tokenizer", tok); err == nil {
		t.Error("import with an ID that is not Owner/Name succeeded")
	}
	// A built-in ID would be replaced by the import (Sotto/Flite, the
	// default speech model, turned into a language model).
	if err := imp("Sotto/Flite", ckpt, "--tokenizer", tok); exitCode(err) != 2 || !strings.Contains(err.Error(), "Local/Flite") {
		t.Errorf("import under a built-in ID = %v; want a usage error suggesting Local/Flite", err)
	}
	if _, err := os.Stat(filepath.Join(data, models.UserCatalogName)); err == nil {
		t.Error("the refused import wrote the catalog")
	}
	if err := imp("Test/stories", filepath.Join(data, "missing.bin"), "--tokenizer", tok); err == nil {
		t.Error("import of a missing file succeeded")
	}
	// The user's own entry, in the user's layout, stays byte for byte
	// through imports (the file was re-marshalled whole).
	mine := "{\"models\": [\n  {\"id\": \"Mine/remote\", \"execution_location\": \"remote\", \"base_url\": \"http://127.0.0.1:9/v1\",\n   \"supported_endpoints\": [\"/v1/chat/completions\"], \"features\": [], \"default_for\": []}\n]}\n"
	catalogFile := filepath.Join(data, models.UserCatalogName)
	if err := os.WriteFile(catalogFile, []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 { // importing again replaces the entry
		if err := imp("Test/stories", ckpt, "--tokenizer", tok); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := os.ReadFile(catalogFile)
	if cut := strings.Index(string(after), "\n  {\"id\": \"Mine/remote\""); !strings.HasPrefix(string(after), mine[:len(mine)-4]+",\n    {") ||
		cut < 0 || !strings.HasSuffix(string(after), "\n]}\n") {
		t.Errorf("catalog after two imports:\n%s\nwant the user's entry as written, then the import", after)
	}
	if fi, err := os.Stat(catalogFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("catalog file mode after import: %v, %v; want 0600 kept", fi.Mode(), err)
	}
	cat, err := models.LoadCatalog(filepath.Join(data, models.UserCatalogName))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range cat.Entries() {
		if e.ID == "Test/stories" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("catalog has %d Test/stories entries; want 1", n)
	}
	m, err := models.New(models.Config{DataDir: data, CatalogFile: filepath.Join(data, models.UserCatalogName)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	loaders.Register(m)
	obj, release, err := m.Acquire(context.Background(), "Test/stories")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	b := obj.(llm.Backend)
	var text strings.Builder
	if err := b.Generate(context.Background(), []llm.Message{{Role: "user", Content: "Once upon a time"}},
		llm.Options{MaxTokens: 5}, func(tk llm.Token) error { text.WriteString(tk.Text); return nil }); err != nil {
		t.Fatal(err)
	}
	if text.Len() == 0 {
		t.Error("the imported model generated nothing")
	}
	ids, err := obj.(llm.Tokenizer).Tokenize(context.Background(), "Once upon a time")
	if err != nil || len(ids) != 4 {
		t.Errorf("Tokenize = %v, %v; want 4 tokens", ids, err)
	}
}
