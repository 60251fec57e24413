package g2p

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/ from the installed espeak-ng")

// testdataDir returns the shared test data directory: $SOTTO_TESTDATA, or
// ../shared/testdata beside the repository root. It skips t when absent.
func testdataDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("SOTTO_TESTDATA")
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				dir = filepath.Join(d, "..", "shared", "testdata")
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if fi, err := os.Stat(dir); dir == "" || err != nil || !fi.IsDir() {
		t.Skipf("shared test data not found (set SOTTO_TESTDATA); looked at %q", dir)
	}
	return dir
}

func needEspeak(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng not installed (apt-get install espeak-ng)")
	}
}

func needMeCab(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("mecab"); err != nil {
		t.Skip("mecab not installed (apt-get install mecab mecab-ipadic-utf8)")
	}
}
