package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/llm"
)

const importUsage = `Usage: sotto-cli models import ID PATH [--tokenizer PATH] [flags]

Registers a local language model file in the user catalog of the data
directory (<data-dir>/catalog.json, or --catalog), as a downloaded local model
that serves /v1/chat/completions, /v1/responses, /v1/messages and /v1/tokenize.
PATH is a GGUF file, or a llama2.c checkpoint whose tokenizer.bin is given
with --tokenizer. The files stay where they are (the catalog records their
absolute paths). ID has the form Owner/Name and is not a built-in model's
(such as Sotto/Flite). Importing an ID again replaces its entry. A running
server reads the catalog at start-up: restart it, then load the model
(sotto-cli models load ID). The entry is marked "imported": sotto-cli models
rm ID takes it out of the catalog file again (entries you wrote yourself it
never rewrites).

Examples:
  sotto-cli models import Local/Qwen2.5-0.5B ~/models/qwen2.5-0.5b-instruct-q8_0.gguf
  sotto-cli models import Local/stories260K llm/testdata/stories260K.bin --tokenizer llm/testdata/stories260K-tok512.bin

Flags:
`

// generationEndpoints are the paths an imported language model serves.
var generationEndpoints = []string{"/v1/chat/completions", "/v1/responses", "/v1/messages", "/v1/tokenize"}

func runImport(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("models import", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", envOrDefault(getenv, "SOTTO_DATA_DIR", models.DefaultDataDir(getenv)),
		"the data directory whose user catalog receives the model (env SOTTO_DATA_DIR)")
	catalog := fs.String("catalog", getenv("SOTTO_CATALOG"),
		"the user catalog file to edit instead of <data-dir>/"+models.UserCatalogName+" (env SOTTO_CATALOG)")
	tok := fs.String("tokenizer", "", "the tokenizer.bin of a llama2.c checkpoint")
	ctxLen := fs.Int("context-length", 0, "cap the context at this many tokens (0: the model's)")
	help := fs.BoolP("help", "h", false, "show this help")
	usageOut := stderr
	fs.Usage = func() { fs.SetOutput(usageOut); fmt.Fprint(usageOut, importUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *help {
		usageOut = stdout // asked for: standard output, to page or grep it
		fs.Usage()
		return errHelp
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return usageError{"models import takes ID and PATH"}
	}
	if *ctxLen < 0 {
		return usageError{"--context-length must not be negative"}
	}
	id, path := fs.Arg(0), fs.Arg(1)
	if e, err := models.DefaultCatalog().Lookup(id); err == nil {
		// The user catalog replaces an entry of the same ID: importing
		// over Sotto/Flite would turn the default speech model into a
		// language model after the next restart.
		return usageError{fmt.Sprintf("%s is a built-in catalog model (serving %s); import under another ID, e.g. Local/%s",
			id, strings.Join(e.SupportedEndpoints, ", "), id[strings.IndexByte(id, '/')+1:])}
	}
	files := []models.File{}
	opts := map[string]string{loaders.OptLLMModel: "model"}
	for _, f := range []struct{ name, path string }{{"model", path}, {"tokenizer", *tok}} {
		if f.path == "" {
			continue
		}
		abs, err := filepath.Abs(f.path)
		if err != nil {
			return err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return fmt.Errorf("models import: %w", err)
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("models import: %s is not a regular file", abs)
		}
		files = append(files, models.File{Name: f.name, SystemPath: abs})
	}
	if *tok != "" {
		opts[loaders.OptLLMTokenizer] = "tokenizer"
	}
	if *ctxLen > 0 {
		opts["context_length"] = fmt.Sprint(*ctxLen)
	}
	if !isGGUF(path) && *tok == "" {
		return usageError{fmt.Sprintf("%s is not a GGUF file; a llama2.c checkpoint needs --tokenizer PATH", path)}
	}
	// Features come from the model: tool_calling when its chat template
	// renders tools.
	features, err := llm.FileFeatures(path)
	if err != nil {
		return err
	}
	entry := models.Entry{ID: id, Object: "model", OwnedBy: "user", SupportedEndpoints: generationEndpoints,
		Features: features, ExecutionLocation: models.Local, DefaultFor: []string{}, Backend: loaders.LLMBackend,
		Files: files, Options: opts, Imported: true}
	if fi, err := os.Stat(path); err == nil {
		entry.Created = fi.ModTime().Unix()
	}
	file := *catalog
	if file == "" {
		file = filepath.Join(*dataDir, models.UserCatalogName)
	}
	if err := addToCatalog(file, entry); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: imported into %s (restart the server, then: sotto-cli models load %s)\n", id, file, id)
	return nil
}

// addToCatalog writes e into the catalog file (created if absent),
// replacing an entry of the same ID, after checking that the result merges
// with the embedded catalog. Every other byte of the file stays as it was
// (models.CatalogWithEntry), so entries written by hand keep their layout.
// The file is replaced atomically, keeping its permissions.
func addToCatalog(file string, e models.Entry) error {
	data, err := os.ReadFile(file)
	mode := os.FileMode(0o644)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		if fi, err := os.Stat(file); err == nil {
			mode = fi.Mode().Perm()
		}
	}
	out, err := models.CatalogWithEntry(data, e)
	if err != nil {
		return fmt.Errorf("models import: %s: %w", file, err)
	}
	if _, err := models.MergeCatalog(models.DefaultCatalog(), out); err != nil {
		return fmt.Errorf("models import: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".catalog-*")
	if err != nil {
		return err
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	if _, err := tmp.Write(out); err == nil {
		err = tmp.Chmod(mode)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// isGGUF reports whether the file starts with the GGUF magic.
func isGGUF(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 4)
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == "GGUF"
}

func envOrDefault(getenv func(string) string, name, def string) string {
	if v := strings.TrimSpace(getenv(name)); v != "" {
		return v
	}
	return def
}
