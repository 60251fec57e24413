package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	usage := errors.New("bad flag")
	exitCode := func(err error) int {
		if err == usage {
			return 2
		}
		return 1
	}
	canceled := fmt.Errorf("transcribe: %w", context.Canceled)
	for _, tc := range []struct {
		name        string
		err         error
		interrupted bool
		code        int
		out         string
	}{
		{"failure", errors.New("no such file"), false, 1, "tool: no such file\n"},
		{"usage", usage, false, 2, "tool: bad flag\nrun tool --help for the usage\n"},
		// A UsageError is status 2 whatever the tool's mapping says.
		{"UsageError", fmt.Errorf("parse: %w", Usagef("unknown flag: %s", "--x")), false, 2, "tool: parse: unknown flag: --x\nrun tool --help for the usage\n"},
		// Ctrl-C: one plain line and the shell's status, not "context canceled".
		{"interrupt", canceled, true, Interrupted, "tool: interrupted\n"},
		// A cancellation the signal did not cause is an ordinary failure.
		{"canceled without signal", canceled, false, 1, "tool: transcribe: context canceled\n"},
	} {
		var b strings.Builder
		if code := report(&b, "tool", tc.err, tc.interrupted, exitCode); code != tc.code || b.String() != tc.out {
			t.Errorf("%s: report = %d, %q; want %d, %q", tc.name, code, b.String(), tc.code, tc.out)
		}
		if tc.name == "UsageError" {
			b.Reset()
			if code := report(&b, "tool", tc.err, false, nil); code != 2 {
				t.Errorf("UsageError without an exit-code mapping: status %d; want 2", code)
			}
		}
	}
}
