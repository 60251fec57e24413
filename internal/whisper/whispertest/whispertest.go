// Package whispertest gives tests a real-shaped Whisper model without
// downloading one: whisper.cpp's weightless tiny file (vocabulary and mel
// filters, internal/whisper/testdata) and the seeded random-weight model
// written from it — the model internal/whisper's golden files were recorded
// from with whisper.cpp.
package whispertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sottolabs/sotto/internal/whisper"
)

// ForTestsTiny returns whisper.cpp's models/for-tests-ggml-tiny.bin (MIT),
// kept gzipped in internal/whisper/testdata.
func ForTestsTiny(tb testing.TB) []byte {
	tb.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("whispertest: cannot locate the package source")
	}
	gz, err := os.ReadFile(filepath.Join(filepath.Dir(self), "..", "testdata", "for-tests-ggml-tiny.bin.gz"))
	if err != nil {
		tb.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// RandomTiny writes the random-weight tiny model of the given type and seed
// (seed 1, F16 is the goldens' model) to dir/name and returns its path and
// hex SHA-1 (for a catalog entry that pins it).
func RandomTiny(tb testing.TB, dir, name string, ft whisper.FType, seed uint64) (path, sha1hex string) {
	tb.Helper()
	src := filepath.Join(dir, ".for-tests-ggml-tiny.bin")
	if err := os.WriteFile(src, ForTestsTiny(tb), 0o644); err != nil {
		tb.Fatal(err)
	}
	defer os.Remove(src)
	path = filepath.Join(dir, name)
	if err := whisper.GenerateFile(context.Background(), src, path, ft, seed); err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	sum := sha1.Sum(data)
	return path, hex.EncodeToString(sum[:])
}
