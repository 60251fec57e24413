// Package clitest holds checks that every Sotto command-line tool's tests
// share.
package clitest

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/cli"
)

// UnknownFlag runs a tool with a misspelt flag and checks that it is a
// usage error (so [cli.Main] exits with status 2 and one line pointing to
// --help) naming the flag, with nothing else written to either stream.
func UnknownFlag(t *testing.T, run func(args []string, stdout, stderr *bytes.Buffer) error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run([]string{"--bogus", "x"}, &out, &errOut)
	if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), "--bogus") {
		t.Errorf("run(--bogus) = %v; want a cli.UsageError naming the flag", err)
	}
	if out.Len()+errOut.Len() > 0 {
		t.Errorf("run(--bogus) wrote %q and %q; want nothing", out.String(), errOut.String())
	}
}
