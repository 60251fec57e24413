package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

func TestCheckText(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"plain text, naïve café 日本語", ""},
		{"", ""},
		{"RIFF\x24\x00\x00\x00WAVE", "x is not text (a NUL byte at byte 5"},
		{"caf\xe9 au lait", "x is not UTF-8 text (byte 3)"},
		{"\xff\xfeh\x00i\x00", "x is not text (a NUL byte at byte 3"},
	} {
		err := CheckText([]byte(tc.in), "x")
		if (err == nil) != (tc.want == "") || err != nil && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("CheckText(%q) = %v; want %q", tc.in, err, tc.want)
		}
	}
}

func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
	}{
		{"", ""},
		{"-", ""},
		{filepath.Join(dir, "new.srt"), ""},
		{file, ""}, // replaced
		{dir, "-o " + dir + " is a directory"},
		{filepath.Join(dir, "no", "x.srt"), "the directory " + filepath.Join(dir, "no") + " does not exist"},
		{filepath.Join(file, "x.srt"), file + " is not a directory"},
	} {
		err := CheckOutput(tc.path, "-o")
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckOutput(%q) = %v; want %q", tc.path, err, tc.want)
		}
	}
}
