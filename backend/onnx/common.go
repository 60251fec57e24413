package onnx

import (
	"errors"
	"os"
	"path/filepath"
)

// ErrUnavailable is returned by every function of a build without ONNX
// Runtime support.
var ErrUnavailable = errors.New("onnx: this build has no ONNX Runtime support (rebuild with CGO_ENABLED=1 -tags onnx)")

// Tensor is a dense tensor in row-major order: float32 values in Data, or,
// for an int64 input (token or phoneme IDs), in Int64 with Data nil.
// Outputs are float32.
type Tensor struct {
	Shape []int64
	Data  []float32
	Int64 []int64
}

// LibraryEnv names the environment variable that points at the ONNX Runtime
// shared library.
const LibraryEnv = "SOTTO_ONNXRUNTIME_LIB"

// FindLibrary returns the ONNX Runtime shared library to open: path when
// non-empty, else $SOTTO_ONNXRUNTIME_LIB, else the first that exists of the
// usual install places. It returns "" when none is found.
func FindLibrary(path string) string {
	if path != "" {
		return path
	}
	if p := os.Getenv(LibraryEnv); p != "" {
		return p
	}
	candidates := []string{
		"/usr/lib/x86_64-linux-gnu/libonnxruntime.so",
		"/usr/local/lib/libonnxruntime.so",
		"/usr/lib/libonnxruntime.so",
	}
	if m, _ := filepath.Glob("/usr/lib/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/libonnxruntime.so*"); len(m) > 0 {
		candidates = append(candidates, m...)
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	return ""
}
