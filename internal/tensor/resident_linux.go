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

// ReleaseMapped drops the whole pages of b from the process's resident set
// (madvise MADV_DONTNEED), for the source of a CopyToMemory. In a read-only
// shared file mapping reading the pages again faults them back in from the
// file, so nothing is lost; in any other memory they read as zeros
// afterwards, so the caller must own every whole page of b and not read it
// again. Errors are ignored: the advice only saves memory.
func ReleaseMapped(b []byte) {
	const page = 4096
	if len(b) == 0 {
		return
	}
	p := uintptrOf(b)
	lo := (p + page - 1) &^ (page - 1)
	hi := (p + uintptr(len(b))) &^ (page - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(b[lo-p:hi-p], 4) // MADV_DONTNEED
}
