// Package mmap maps model files into memory read-only, so that weights are
// paged in by the operating system as they are used and shared between
// processes, instead of being copied onto the heap. The GGUF reader
// (llm/gguf) and the Whisper model reader (internal/whisper) use it.
package mmap

import (
	"errors"
	"fmt"
	"os"
)

// ErrEmpty is returned for a file of zero bytes, which cannot be mapped.
var ErrEmpty = errors.New("empty file")

// File maps path read-only and returns its bytes and a function that
// unmaps them (nil when the bytes were read instead). Where mapping is not
// available (another platform, or a file system that refuses it) the file
// is read into memory. The returned bytes must not be written to, and must
// not be used after release.
func File(path string) (data []byte, release func() error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size == 0 {
		return nil, nil, fmt.Errorf("%s: %w", path, ErrEmpty)
	}
	if int64(int(size)) != size {
		return nil, nil, fmt.Errorf("%s: too large to map", path)
	}
	if b, release, err := mapFile(f, int(size)); err == nil {
		return b, release, nil
	}
	b, err := os.ReadFile(path)
	return b, nil, err
}
