package g2p

import (
	"flag"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
	"os/exec"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/ from the installed espeak-ng")

// testdataDir returns the shared test data directory: $SOTTO_TESTDATA, or
// ../shared/testdata beside the repository root. It skips t when absent.
func testdataDir(t testing.TB) string {
	return sharedtestdata.Dir(t)
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
