// Package clitest holds checks that every Sotto command-line tool's tests
// share.
package clitest

import (
	"bytes"
	"errors"
	"os"
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

// NoInputOnTerminal runs a tool given no input, with a terminal (a
// pseudo-terminal) as standard input, and checks that it is a usage error
// saying so at once, instead of waiting silently for typing. args is the
// command line without input. It skips where no pseudo-terminal opens.
func NoInputOnTerminal(t *testing.T, args []string, run func(args []string, stdin *os.File, stdout, stderr *bytes.Buffer) error) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer pty.Close()
	var out, errOut bytes.Buffer
	// Were it read, the terminal would block the test: nothing is typed.
	err = run(args, pty, &out, &errOut)
	if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), `"-" reads what you type`) {
		t.Errorf("run(%q) with a terminal on standard input = %v; want a usage error pointing to \"-\"", args, err)
	}
}
