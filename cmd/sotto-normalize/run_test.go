package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/cli"
	"github.com/sottolabs/sotto/internal/cli/clitest"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"args", []string{"--lang", "en", "It costs $5."}, "", "It costs five dollars.\n"},
		{"--language spelling", []string{"--language", "de", "3 Äpfel"}, "", "drei Äpfel\n"},
		{"stdin itn", []string{"--lang", "en", "--mode", "itn"}, "twenty five kilograms\n", "25 kg\n"},
		{"stdin as -", []string{"-"}, "$5\n", "five dollars\n"},
		{"top-k", []string{"--top-k", "2", "1/2"}, "", "0\tone half\n1\tjanuary second\n"},
		{"classes", []string{"--classes", "cardinal", "$5 and 3"}, "", "$ five and three\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if err := run(context.Background(), tt.args, strings.NewReader(tt.stdin), &out, &errb); err != nil {
				t.Fatalf("run(%q) error %v (stderr %s)", tt.args, err, errb.String())
			}
			if got := out.String(); got != tt.want {
				t.Errorf("run(%q) = %q; want %q", tt.args, got, tt.want)
			}
		})
	}
}

func TestRunJSON(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"--json", "--top-k", "1", "$5"}, strings.NewReader(""), &out, &out); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Task         string `json:"task"`
		Alternatives []struct {
			Text string `json:"text"`
		} `json:"alternatives"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("run --json output %q is not JSON: %v", out.String(), err)
	}
	if res.Task != "normalize" || len(res.Alternatives) != 1 || res.Alternatives[0].Text != "five dollars" {
		t.Errorf("run --json = %+v; want task normalize with one alternative \"five dollars\"", res)
	}
}

func TestRunErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // for a usage error (exit status 2), its start
	}{
		{[]string{"--lang", "tlh", "x"}, ""},
		{[]string{"--lang", "zz", "x"}, "--lang: language tag"},
		{[]string{"--mode", "xx", "x"}, `--mode: mode "xx" is not one of tn, itn`},
		{[]string{"--top-k", "17", "x"}, "--top-k: top_k 17 is outside 1..16"},
		{[]string{"--top-k", "0", "x"}, "--top-k: top_k 0 is outside 1..16"},
		{[]string{"--top-k", "-1"}, "--top-k: top_k -1 is outside 1..16"},
		{[]string{"--classes", "", "x"}, "--classes:"},
		{[]string{"--classes", "money,bogus", "x"}, `--classes: "bogus" is not a class; the classes are cardinal, ordinal`},
		{[]string{"--lang", "zh", "--classes", "roman", "x"}, ""}, // a class zh lacks: 422, exit 1
		{nil, ""},
	} {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, strings.NewReader(""), &out, &out)
		if err == nil {
			t.Errorf("run(%q) = nil error; want an error", tc.args)
			continue
		}
		if usage := errors.As(err, new(cli.UsageError)); usage != (tc.want != "") || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("run(%q) = %v (usage error: %v); want one starting %q, a usage error: %v", tc.args, err, usage, tc.want, tc.want != "")
		}
	}
}

// TestRunBinary: bytes that are not text are refused, not normalized into
// garbage with success.
func TestRunBinary(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), nil, strings.NewReader("RIFF\x24\x00\x00\x00WAVEfmt "), &out, &out)
	if err == nil || !strings.Contains(err.Error(), "standard input is not text") || out.Len() != 0 {
		t.Errorf("binary standard input = %v, %q; want refused with no output", err, out.String())
	}
}

func TestRunHelp(t *testing.T) {
	var out, errOut strings.Builder
	if err := run(context.Background(), []string{"--help"}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("--help: %v", err)
	}
	for _, args := range [][]string{{"-h"}, {"--lang", "de", "--help"}} { // the flag list names -h; -h is --help
		var again strings.Builder
		if err := run(context.Background(), args, strings.NewReader(""), &again, &errOut); err != nil || again.String() != out.String() {
			t.Errorf("%q: %v, %d bytes; want the --help text", args, err, again.Len())
		}
	}
	if !strings.Contains(out.String(), "usage: sotto-normalize") || !strings.Contains(out.String(), "--strict-lang") ||
		!strings.Contains(out.String(), "-h, --help") || errOut.Len() != 0 {
		t.Errorf("--help wrote %d bytes to stdout (usage and flags expected there) and %q to stderr", out.Len(), errOut.String())
	}
}

// TestUnknownFlag: a misspelt flag is a usage error (exit status 2 and
// one line pointing to --help, as every Sotto tool), and nothing else is
// written (no usage text on standard error).
func TestUnknownFlag(t *testing.T) {
	clitest.UnknownFlag(t, func(args []string, stdout, stderr *bytes.Buffer) error {
		return run(context.Background(), args, strings.NewReader(""), stdout, stderr)
	})
}

// TestNoInputOnTerminal: no input and a terminal on standard input is a
// usage error at once (it waited for typing without a word).
func TestNoInputOnTerminal(t *testing.T) {
	clitest.NoInputOnTerminal(t, nil, func(args []string, stdin *os.File, stdout, stderr *bytes.Buffer) error {
		return run(context.Background(), args, stdin, stdout, stderr)
	})
}
