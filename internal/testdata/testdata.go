// Package testdata finds the shared real test data (speech, text, models)
// that lives outside the repository, for the tests, benchmarks and
// evaluation programs across the module.
//
// The directory is $SOTTO_TESTDATA, or ../shared/testdata relative to the
// repository root (the directory holding go.mod). `make testdata` fetches
// the parts that can be rebuilt from their public sources
// (scripts/testdata.sh).
//
// Tests and benchmarks call [Dir] or [Path], which skip with one line naming
// the missing path and how to get it:
//
//	func TestSuites(t *testing.T) {
//		dir := testdata.Dir(t, "text", "normalize") // skips when absent
//		...
//	}
//
// Programs (the eval commands behind `make eval-*`) call [Lookup], whose
// error says the same thing, and stop with it. Code that only gains from the
// data (extra fuzz seeds, longer word lists) uses [Lookup] and carries on
// without it.
package testdata

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Env is the environment variable naming the shared test data directory.
const Env = "SOTTO_TESTDATA"

// ErrAbsent is matched (with errors.Is) by the errors of [Lookup] when the
// data is not there.
var ErrAbsent = errors.New("shared test data absent")

// Root returns the shared test data directory, whether or not it exists:
// $SOTTO_TESTDATA when set, else ../shared/testdata beside the repository
// root found from the working directory.
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

// Lookup returns the path of elem below [Root] when it exists. Otherwise the
// error, which matches [ErrAbsent], is one line naming the missing path and
// how to get the data.
func Lookup(elem ...string) (string, error) {
	p := filepath.Join(append([]string{Root()}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", &absentError{path: p}
		}
		return "", fmt.Errorf("shared test data %s: %w", p, err)
	}
	return p, nil
}

type absentError struct{ path string }

func (e *absentError) Error() string {
	return fmt.Sprintf("shared test data absent: %s (set %s, or run `make testdata`)", e.path, Env)
}

func (e *absentError) Is(target error) bool { return target == ErrAbsent }

// Dir returns the shared test data directory ([Root]), skipping tb when it,
// or the subdirectory named by sub, does not exist.
func Dir(tb testing.TB, sub ...string) string {
	tb.Helper()
	if _, err := Lookup(sub...); err != nil {
		tb.Skip(err)
	}
	return Root()
}

// Path returns the path of a file or directory below the shared test data
// directory, skipping tb when it does not exist.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	p, err := Lookup(elem...)
	if err != nil {
		tb.Skip(err)
	}
	return p
}
