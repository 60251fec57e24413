package mmap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFile(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("weights "), 4096)
	p := filepath.Join(dir, "m.bin")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	b, release, err := File(p)
	if err != nil || !bytes.Equal(b, want) {
		t.Fatalf("File = %d bytes, %v; want the file's %d bytes", len(b), err, len(want))
	}
	if release != nil {
		if err := release(); err != nil {
			t.Errorf("release: %v", err)
		}
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	if _, _, err := File(empty); !errors.Is(err, ErrEmpty) {
		t.Errorf("File(empty) = %v; want ErrEmpty", err)
	}
	if _, _, err := File(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("File(missing) = %v; want not-exist", err)
	}
}
