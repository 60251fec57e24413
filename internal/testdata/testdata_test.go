package testdata

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRootFromEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(Env, dir)
	if got := Root(); got != dir {
		t.Errorf("Root() = %q; want %q from $%s", got, dir, Env)
	}
	os.WriteFile(filepath.Join(dir, "x.txt"), nil, 0o644)
	if got := Path(t, "x.txt"); got != filepath.Join(dir, "x.txt") {
		t.Errorf("Path(x.txt) = %q", got)
	}
}

func TestRootFindsModule(t *testing.T) {
	t.Setenv(Env, "")
	if got := Root(); filepath.Base(got) != "testdata" || filepath.Base(filepath.Dir(got)) != "shared" {
		t.Errorf("Root() = %q; want …/shared/testdata beside the repository", got)
	}
}

func TestAbsentSkipsWithOneLine(t *testing.T) {
	t.Setenv(Env, filepath.Join(t.TempDir(), "nowhere"))
	_, err := Lookup("speech", "en_jfk_16k.wav")
	if !errors.Is(err, ErrAbsent) {
		t.Fatalf("Lookup of a missing file: err = %v; want ErrAbsent", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "make testdata") || !strings.Contains(msg, Env) {
		t.Errorf("Lookup error = %q; want one line naming %s and make testdata", msg, Env)
	}
	for name, call := range map[string]func(testing.TB){
		"Dir":  func(tb testing.TB) { Dir(tb, "speech") },
		"Path": func(tb testing.TB) { Path(tb, "speech", "x.wav") },
	} {
		// A subtest that skips reports Skipped; one that returned normally would not.
		var skipped bool
		t.Run(name, func(t *testing.T) {
			defer func() { skipped = t.Skipped() }()
			call(t)
		})
		if !skipped {
			t.Errorf("%s with absent data did not skip", name)
		}
	}
}
