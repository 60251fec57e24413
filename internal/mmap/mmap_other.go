//go:build !unix

package mmap

import (
	"errors"
	"os"
)

// mapFile always fails here: File then reads the file.
func mapFile(*os.File, int) ([]byte, func() error, error) {
	return nil, nil, errors.New("mmap: not supported on this platform")
}
