package g2p

import (
	"flag"
	"os/exec"
	"testing"

	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/ from the installed espeak-ng")

// testdataDir returns the shared test data directory: $SOTTO_TESTDATA, or
// ../shared/testdata beside the repository root. It skips t when the
// subdirectory sub of it is absent.
func testdataDir(t testing.TB, sub ...string) string {
	t.Helper()
	return sharedtestdata.Dir(t, sub...)
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
