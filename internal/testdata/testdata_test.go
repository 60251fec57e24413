package testdata

import (
	"os"
	"path/filepath"
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
