package tensor

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/internal/mmap"
)

// TestReleaseMapped checks that pages of a file mapping dropped from the
// resident set read back as the file's bytes.
func TestReleaseMapped(t *testing.T) {
	want := make([]byte, 5*4096+100)
	for i := range want {
		want[i] = byte(i*7 + i/4096)
	}
	path := filepath.Join(t.TempDir(), "w.bin")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	b, release, err := mmap.File(path)
	if err != nil {
		t.Fatal(err)
	}
	if release == nil {
		t.Skip("file system refuses mmap; nothing to release")
	}
	defer release()
	if !bytes.Equal(b, want) {
		t.Fatal("mapping differs from the file")
	}
	ReleaseMapped(b[50 : len(b)-30])
	if !bytes.Equal(b, want) {
		t.Error("pages dropped from the mapping read back differently")
	}
}
