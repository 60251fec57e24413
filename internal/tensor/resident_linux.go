package tensor

import (
	"fmt"
	"syscall"
)

// allocHuge maps n bytes (plus alignment slack) of anonymous memory,
// asking for transparent huge pages, aligned to 2 MiB.
func allocHuge(n int) ([]byte, func() error, error) {
	const huge = 2 << 20
	if n == 0 {
		return nil, func() error { return nil }, nil
	}
	size := (n + huge - 1) &^ (huge - 1)
	m, err := syscall.Mmap(-1, 0, size+huge, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil, fmt.Errorf("tensor: mapping %d bytes for weights: %w", size, err)
	}
	start := 0
	if r := uintptrOf(m) % huge; r != 0 {
		start = int(huge - r)
	}
	buf := m[start : start+size]
	// Advice only: without huge pages the copy still works.
	_ = syscall.Madvise(buf, 14) // MADV_HUGEPAGE
	return buf[:n], func() error { return syscall.Munmap(m) }, nil
}
