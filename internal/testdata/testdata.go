// Package testdata finds the shared real test data (speech, text, models)
// that lives outside the repository, for tests across the module.
//
// The directory is $SOTTO_TESTDATA, or ../shared/testdata relative to the
// repository root (the directory holding go.mod). Tests call [Dir] or
// [Path], which skip the test with a clear message when the data is absent.
package testdata

import (
	"os"
	"path/filepath"
	"testing"
)

// Env is the environment variable naming the shared test data directory.
const Env = "SOTTO_TESTDATA"

// Root returns the shared test data directory, whether or not it exists.
func Root() string {
	if d := os.Getenv(Env); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "testdata")
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(d), "shared", "testdata")
		}
		if filepath.Dir(d) == d {
			return filepath.Join("..", "shared", "testdata")
		}
	}
}

// Dir returns the shared test data directory, skipping tb when it (or the
// named subdirectory, when sub is given) does not exist.
func Dir(tb testing.TB, sub ...string) string {
	tb.Helper()
	root := Root()
	p := filepath.Join(append([]string{root}, sub...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared test data %s not found (set %s to the testdata directory): %v", p, Env, err)
	}
	return root
}

// Path returns the path of a file below the shared test data directory,
// skipping tb when it does not exist.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{Root()}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared test file %s not found (set %s to the testdata directory): %v", p, Env, err)
	}
	return p
}
