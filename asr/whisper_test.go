package asr

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/internal/whisper"
)

// randomWhisperDir writes the seed-1 random-weight tiny F16 model (the one
// internal/whisper's golden files were recorded from) as ggml-tiny.bin in
// a temporary directory.
func randomWhisperDir(t *testing.T) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "internal", "whisper", "testdata", "for-tests-ggml-tiny.bin.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "for-tests.bin")
	if err := os.WriteFile(src, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := whisper.GenerateFile(context.Background(), src, filepath.Join(dir, "ggml-tiny.bin"), whisper.FTypeF16, 1); err != nil {
		t.Fatal(err)
	}
	os.Remove(src)
	return dir
}

// TestWhisperDriver transcribes en_jfk_16k.wav with the random-weight tiny
// model through the "whisper" driver, without temperature fallback, and
// expects whisper.cpp's result for that model (internal/whisper's golden
// run "timestamps"): one segment from 0.10 s to 18.54 s holding token
// 43631.
func TestWhisperDriver(t *testing.T) {
	if testing.Short() {
		t.Skip("skip: the tiny Whisper encoder takes seconds")
	}
	a, _, err := audio.DecodeFile(context.Background(), testdata.Path(t, "speech", "en_jfk_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := randomWhisperDir(t)
	b, err := Open(context.Background(), "whisper", backend.Config{ModelDir: dir, Threads: 2,
		Options: map[string]string{OptTemperatureInc: "0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	m, err := whisper.Open(filepath.Join(dir, "ggml-tiny.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	tr, err := Transcribe(context.Background(), b, a, Options{Language: "en-US"})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(m.Vocab[43631]))
	if len(tr.Segments) != 1 || tr.Segments[0].Start != 0.10 || tr.Segments[0].End != 18.54 || tr.Segments[0].Text != want {
		t.Errorf("Transcribe = %+v; want one segment 0.10–18.54 %q", tr.Segments, want)
	}
	var se *sotto.Error
	if _, err := Transcribe(context.Background(), b, a, Options{Language: "xx"}); !errors.As(err, &se) || se.Code != "asr_language_unsupported" {
		t.Errorf("Transcribe(language xx) = %v; want asr_language_unsupported", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Transcribe(ctx, b, a, Options{Language: "en"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Transcribe(cancelled) = %v; want context.Canceled", err)
	}
}

// TestWhisperDriverOptions checks the driver's refusals: no model, bad
// option values.
func TestWhisperDriverOptions(t *testing.T) {
	ctx := context.Background()
	if _, err := Open(ctx, "whisper", backend.Config{}); err == nil {
		t.Error("Open without a model succeeded")
	}
	if _, err := Open(ctx, "whisper", backend.Config{ModelDir: t.TempDir()}); err == nil {
		t.Error("Open of an empty directory succeeded")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ggml-x.bin"), []byte("not a model"), 0o644)
	for _, o := range []map[string]string{{OptBeamSize: "0"}, {OptBeamSize: "x"}, {OptTemperatureInc: "2"}} {
		if _, err := Open(ctx, "whisper", backend.Config{ModelDir: dir, Options: o}); err == nil {
			t.Errorf("Open with %v succeeded", o)
		}
	}
	if _, err := Open(ctx, "whisper", backend.Config{ModelDir: dir}); !errors.Is(err, whisper.ErrFormat) {
		t.Errorf("Open of a malformed file = %v; want whisper.ErrFormat", err)
	}
	for tag, want := range map[string]string{"": "", "en-US": "en", "de_AT": "de", "ZH": "zh", "haw": "haw"} {
		if got := whisperLanguage(tag); got != want {
			t.Errorf("whisperLanguage(%q) = %q; want %q", tag, got, want)
		}
	}
}
