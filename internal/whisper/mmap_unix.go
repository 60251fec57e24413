//go:build unix

package whisper

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps path read-only, falling back to reading it when mapping
// fails (e.g. on file systems that do not support it).
func mapFile(path string) ([]byte, func() error, error) {
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
		return nil, nil, fmt.Errorf("%s: %w: empty file", path, ErrFormat)
	}
	if int64(int(size)) != size {
		return nil, nil, fmt.Errorf("%s: too large to map", path)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		b, err := os.ReadFile(path)
		return b, nil, err
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
