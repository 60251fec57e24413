package tensor

import "unsafe"

// CopyToMemory copies the data of the given matrices into one block of
// anonymous memory and points each matrix at its copy; it returns the
// function that frees the block (after which the matrices must not be
// used). Nil entries are skipped.
//
// On Linux the block is backed by transparent huge pages where the kernel
// allows it (madvise): a matrix-vector product streams every weight once,
// and with 4 KiB pages of a memory-mapped file a large part of its time
// goes to address-translation misses. Measured on a 0.5B Q8_0 model,
// generation ran 1.6× faster per CPU-second from huge pages than from the
// file mapping. Elsewhere the block is ordinary Go memory.
//
// If the block cannot be allocated the matrices are left as they were and
// the error is returned.
func CopyToMemory(mats []*Matrix) (release func() error, err error) {
	const align = 64 // cache line; keeps float32 data aligned too
	total := 0
	for _, m := range mats {
		if m != nil {
			total += (len(m.Data) + align - 1) &^ (align - 1)
		}
	}
	buf, release, err := allocHuge(total)
	if err != nil {
		return nil, err
	}
	off := 0
	if len(buf) > 0 {
		off = int(-uintptrOf(buf) & (align - 1))
	}
	for _, m := range mats {
		if m == nil {
			continue
		}
		n := copy(buf[off:], m.Data)
		m.Data = buf[off : off+n : off+n]
		off += (n + align - 1) &^ (align - 1)
	}
	return release, nil
}

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
