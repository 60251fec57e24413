package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/audio"

	"github.com/sottolabs/sotto/internal/cli"
	"github.com/sottolabs/sotto/internal/cli/clitest"
)

func TestSpeakToFile(t *testing.T) {
	if _, err := exec.LookPath("flite"); err != nil {
		t.Skip("flite is not installed (make deps installs it)")
	}
	out := filepath.Join(t.TempDir(), "x.wav")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-o", out, "--voice", "builtin:slt", "It is 3:30 pm."}, strings.NewReader(""), &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	a, info, err := audio.Decode(context.Background(), bytes.NewReader(b), audio.Options{})
	if err != nil || info.SampleRate != 16000 || a.Seconds() < 1 {
		t.Fatalf("output: %v, %d Hz, %.2f s; want a WAV of over a second at 16000 Hz", err, info.SampleRate, a.Seconds())
	}
	// TEXT "-" is standard input: the same speech.
	err = run(context.Background(), []string{"-o", out, "--voice", "builtin:slt", "-"}, strings.NewReader("It is 3:30 pm.\n"), &stdout, &stderr)
	if b2, _ := os.ReadFile(out); err != nil || !bytes.Equal(b2, b) {
		t.Errorf("text \"-\" from standard input: %v, %d bytes; want the same %d bytes", err, len(b2), len(b))
	}
}

// TestSpeakRedirect: "sotto-speak Hi > hi.wav" writes the WAV to the
// redirected standard output, not to speech.wav beside an empty hi.wav.
func TestSpeakRedirect(t *testing.T) {
	if _, err := exec.LookPath("flite"); err != nil {
		t.Skip("flite is not installed (make deps installs it)")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	f, err := os.Create(filepath.Join(dir, "hi.wav"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := run(context.Background(), []string{"Hi there."}, strings.NewReader(""), f, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(f.Name())
	if a, _, err := audio.Decode(context.Background(), bytes.NewReader(b), audio.Options{}); err != nil || a.Seconds() < 0.3 {
		t.Errorf("redirected output: %d bytes, %v; want the WAV", len(b), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "speech.wav")); err == nil {
		t.Error("speech.wav was written although standard output was redirected")
	}
}

// TestSpeakScript: text in a non-Latin script without --language is
// spoken by espeak-ng in its language, not as silence by English flite.
func TestSpeakScript(t *testing.T) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng is not installed (make deps installs it)")
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"-o", "-", "Москва — столица России."}, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "language ru") {
		t.Errorf("stderr %q; want the language it chose (ru)", stderr.String())
	}
	if a, _, err := audio.Decode(context.Background(), bytes.NewReader(stdout.Bytes()), audio.Options{}); err != nil || a.Seconds() < 1 {
		t.Errorf("Russian text: %v; want over a second of speech", err)
	}
}

func TestSpeakMarks(t *testing.T) {
	if _, err := exec.LookPath("flite"); err != nil {
		t.Skip("flite is not installed (make deps installs it)")
	}
	if _, err := os.Stat("/usr/share/pocketsphinx/model/en-us/en-us/mdef"); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	dir := t.TempDir()
	vtt := filepath.Join(dir, "w.vtt")
	err := run(context.Background(), []string{"-o", filepath.Join(dir, "x.wav"), "--marks", vtt, "Good morning, it is 3:30 pm."},
		strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(vtt)
	for _, want := range []string{"WEBVTT", "\nmorning\n", "\nthirty\n", " --> "} {
		if !strings.Contains(string(b), want) {
			t.Errorf("marks file lacks %q:\n%s", want, b)
		}
	}
}

func TestSpeakErrors(t *testing.T) {
	if _, err := exec.LookPath("flite"); err != nil {
		t.Skip("flite is not installed (make deps installs it)")
	}
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool // a usage error: exit status 2
	}{
		{[]string{"-o", "-"}, "no text", false},
		{[]string{"-o", "-", "😀 ... —"}, "nothing to speak", false},
		{[]string{"--voice", "builtin:nonesuch", "-o", "-", "Hi."}, `--voice "builtin:nonesuch" is not one of the flite voices`, true},
		{[]string{"--language", "de", "--engine", "flite", "-o", "-", "Hallo."}, `no flite voice speaks "de" (sotto-speak --list-voices --engine flite`, false},
		{[]string{"--speed", "5", "-o", "-", "Hi."}, "--speed 5 is out of range", true},
		{[]string{"--speed", "0", "-o", "-", "Hi."}, "--speed 0 is out of range", true},
		{[]string{"--engine", "festival", "-o", "-", "Hi."}, `--engine "festival": want flite or espeak-ng`, true},
		{[]string{"-o", os.TempDir(), "Hi."}, "--output " + os.TempDir() + " is a directory", false},
		{[]string{"--marks", os.TempDir(), "-o", "-", "Hi."}, "--marks " + os.TempDir() + " is a directory", false},
		{[]string{"-o", "-", "Hi \xff."}, "the text is not UTF-8 text (byte 3)", false},
	} {
		err := run(context.Background(), tc.args, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, new(cli.UsageError)) != tc.usage {
			t.Errorf("run(%q) = %v; want an error containing %q, a usage error: %v", tc.args, err, tc.want, tc.usage)
		}
	}
	var help bytes.Buffer
	if err := run(context.Background(), []string{"--help"}, nil, &help, &bytes.Buffer{}); err != nil || !strings.Contains(help.String(), "Examples:") || !strings.Contains(help.String(), "-h, --help") {
		t.Errorf("--help = %v, %q", err, help.String())
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

// TestNoInputOnTerminal: no TEXT and a terminal on standard input is a
// usage error at once (it waited for typing without a word).
func TestNoInputOnTerminal(t *testing.T) {
	clitest.NoInputOnTerminal(t, []string{"-o", "-"}, func(args []string, stdin *os.File, stdout, stderr *bytes.Buffer) error {
		return run(context.Background(), args, stdin, stdout, stderr)
	})
}
