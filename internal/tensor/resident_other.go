//go:build !linux

package tensor

// allocHuge returns n bytes of Go memory (huge pages are requested only on
// Linux).
func allocHuge(n int) ([]byte, func() error, error) {
	return make([]byte, n+64), func() error { return nil }, nil
}

// ReleaseMapped drops the whole pages of b from the resident set on Linux
// (see there); here it does nothing.
func ReleaseMapped(b []byte) {}
