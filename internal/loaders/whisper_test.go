package loaders

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/whisper"
)

// TestWhisperCatalog checks the catalog's GGML Whisper entries: served by
// this loader, one file each from whisper.cpp's Hugging Face repository
// with a SHA-1, English-only exactly when the name says .en, none a
// default.
func TestWhisperCatalog(t *testing.T) {
	var n int
	for _, e := range models.DefaultCatalog().Entries() {
		if e.Backend != WhisperBackend {
			continue
		}
		n++
		name := strings.TrimPrefix(e.ID, "Sotto/Whisper-")
		file := "ggml-" + name + ".bin"
		if len(e.Files) != 1 || e.Files[0].Name != file || e.Options["model"] != file ||
			e.Files[0].URL != "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/"+file || len(e.Files[0].SHA1) != 40 {
			t.Errorf("%s: files %+v, options %v; want one %s from ggerganov/whisper.cpp with a SHA-1", e.ID, e.Files, e.Options, file)
		}
		langs := strings.Join(e.Languages, ",")
		if strings.HasSuffix(name, ".en") != (langs == "en") || !strings.HasSuffix(name, ".en") && langs != "*" {
			t.Errorf("%s: languages %q", e.ID, langs)
		}
		if len(e.DefaultFor) != 0 {
			t.Errorf("%s: default for %v; the Sphinx recognizer stays the default", e.ID, e.DefaultFor)
		}
	}
	if n != 12 {
		t.Errorf("%d Whisper entries; want 12", n)
	}
}

// TestWhisperLoaderErrors checks that the loader resolves the file named
// by the entry and passes the driver's options through.
func TestWhisperLoaderErrors(t *testing.T) {
	ctx := context.Background()
	entry := models.Entry{ID: "Sotto/Whisper-x", Backend: WhisperBackend,
		Options: map[string]string{"model": "ggml-x.bin"}, Files: []models.File{{Name: "ggml-x.bin"}}}
	if _, err := Whisper(ctx, models.LoadSpec{Entry: entry, Paths: map[string]string{}}); err == nil ||
		!strings.Contains(err.Error(), "not on disk") {
		t.Errorf("Whisper(file missing) = %v; want not on disk", err)
	}
	p := filepath.Join(t.TempDir(), "ggml-x.bin")
	if err := os.WriteFile(p, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := models.LoadSpec{Entry: entry, Paths: map[string]string{"ggml-x.bin": p}}
	spec.Entry.Options = map[string]string{"model": "ggml-x.bin", asr.OptBeamSize: "99"}
	if _, err := Whisper(ctx, spec); err == nil || !strings.Contains(err.Error(), asr.OptBeamSize) {
		t.Errorf("Whisper(beam_size 99) = %v; want the driver's option error", err)
	}
	spec.Entry.Options = nil // the only file
	if _, err := Whisper(ctx, spec); !errors.Is(err, whisper.ErrFormat) {
		t.Errorf("Whisper(not a model) = %v; want whisper.ErrFormat", err)
	}
}
