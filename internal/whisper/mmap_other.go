//go:build !unix

package whisper

import "os"

// mapFile reads the whole file: this platform has no mapping here.
func mapFile(path string) ([]byte, func() error, error) {
	b, err := os.ReadFile(path)
	return b, nil, err
}
