package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sottolabs/sotto/internal/cli"
	"github.com/sottolabs/sotto/internal/cli/clitest"
)

func TestRun(t *testing.T) {
	transcript := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(transcript, []byte(`{"segments": [
		{"text": "Hello there, welcome to the show.", "start": 0, "end": 2.1, "speaker": "A"},
		{"text": "Thanks for having me. It is great to be here.", "start": 2.3, "end": 5.0, "speaker": "B"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(t.TempDir(), "long.json")
	longText := "Había una vez, en un pueblo pequeño junto al río, una mujer que cada mañana cruzaba el puente con una cesta de pan para repartirla entre los vecinos."
	if err := os.WriteFile(long, []byte(`{"segments": [{"text": "`+longText+`", "start": 0, "end": 12}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"lines from stdin", []string{"-f", "lines"}, "Hi there. Mr. Smith left.", "Hi there.\nMr. Smith left.\n"},
		{"text flag json", []string{"--text", "One. Two."}, "", `"segments": [`},
		{"paragraphs", []string{"-f", "lines", "--paragraph-threshold", "0.5", "--text", "A. B.\n\nC."}, "", "A. B.\n\nC.\n"},
		{"srt", []string{"-f", "srt", transcript}, "", "1\n00:00:00,000 --> 00:00:02,100\nHello there, welcome to the show.\n\n2\n00:00:02,300 --> "},
		{"vtt cues", []string{"-f", "vtt", "--max-chars", "24", transcript}, "", "WEBVTT\n\n00:00:00.000 --> 00:00:00.795\n<v A>Hello there,\n\n"},
		{"json timed", []string{transcript}, "", `"speaker": "B"`},
		{"srt wrapped by default", []string{"-f", "srt", long}, "", "1\n00:00:00,000 --> 00:00:06,121\nHabía una vez, en un pueblo pequeño\njunto al río, una mujer que cada mañana\n\n2\n00:00:06,121 --> 00:00:12,000\ncruzaba el puente con una cesta de pan\npara repartirla entre los vecinos.\n\n"},
		{"srt one line", []string{"-f", "srt", "--max-line-chars", "0", "--max-cue-seconds", "0", long}, "", "1\n00:00:00,000 --> 00:00:12,000\n" + longText + "\n\n"},
		{"json keeps the sentence whole", []string{long}, "", `"text": "` + longText + `"`},
		{"bracket that is not JSON is text", []string{"-f", "lines"}, "[Applause] Thank you. Bye.", "[Applause] Thank you.\nBye.\n"},
		{"empty segments array, words", []string{"-f", "srt"}, `{"text": "hi", "segments": [], "words": [{"word": "hi", "start": 0, "end": 1}]}`, "1\n00:00:00,000 --> 00:00:01,000\nhi\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if err := run(context.Background(), tt.args, strings.NewReader(tt.stdin), &out, &errOut); err != nil {
				t.Fatalf("run(%q) error: %v (%s)", tt.args, err, errOut.String())
			}
			if got := out.String(); !strings.Contains(got, tt.want) {
				t.Errorf("run(%q) = %q; want it to contain %q", tt.args, got, tt.want)
			}
		})
	}
}

func TestRunJSONShape(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"--text", "One. Two."}, nil, &out, &out); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Task     string           `json:"task"`
		Segments []map[string]any `json:"segments"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Task != "segment" || len(res.Segments) != 2 || len(res.Segments[0]) != 1 {
		t.Errorf("run(--text) = %s; want task segment and two text-only items", out.String())
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		args  []string
		usage bool // a usage error (exit status 2), found before any input is read
	}{
		{[]string{"-f", "srt", "--text", "Plain text has no times."}, false},
		{[]string{"--threshold", "2", "--text", "x"}, true},
		{[]string{"-f", "yaml", "--text", "x"}, true},
		{[]string{"-f", "yaml"}, true},
		{[]string{"--input", "xml"}, true},
		{[]string{"--language", "klingon", "--text", "x"}, true},
		{[]string{"--text", "x", "a.txt"}, true},
		{[]string{"a.txt", "b.txt"}, true},
		{[]string{"--text", "   "}, false},
		{[]string{"/nonexistent/file.txt"}, false},
		{[]string{"--input", "json", "--text", "not json"}, false},
		{[]string{"--max-lines", "-1", "--text", "x"}, true},
		{[]string{"--max-cue-seconds", "-2", "--text", "x"}, true},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		// Standard input fails if read: a usage error comes before it.
		err := run(context.Background(), tt.args, iotest.ErrReader(errors.New("standard input read")), &out, &out)
		if err == nil {
			t.Errorf("run(%q) = nil error; want an error", tt.args)
		} else if usage := errors.As(err, new(cli.UsageError)); usage != tt.usage {
			t.Errorf("run(%q) = %v, a usage error: %v; want %v", tt.args, err, usage, tt.usage)
		}
	}
	// Bytes that are not text (an audio file) are refused, not segmented.
	bin := filepath.Join(t.TempDir(), "a.wav")
	os.WriteFile(bin, []byte("RIFF\x24\x00\x00\x00WAVEfmt "), 0o644)
	var binOut bytes.Buffer
	if err := run(context.Background(), []string{bin}, strings.NewReader(""), &binOut, &binOut); err == nil ||
		!strings.Contains(err.Error(), bin+" is not text") || binOut.Len() != 0 {
		t.Errorf("an audio file = %v, %q; want refused with no output", err, binOut.String())
	}
	// A JSON transcript that does not parse is reported under --input auto
	// (it was segmented as prose, its JSON source in the output).
	for _, stdin := range []string{
		`{"segments": [{"text": "a", "start": 2, "end": 1}]}`,
		`{"words": [{"word": "a", "start": -5, "end": 1e308}]}`,
		`[]`,
	} {
		var out bytes.Buffer
		err := run(context.Background(), nil, strings.NewReader(stdin), &out, &out)
		if err == nil || out.Len() > 0 {
			t.Errorf("run(stdin %s) = %v, %q; want the transcript's error and no output", stdin, err, out.String())
		}
	}
}

// --help shows no internal sentinel as a default (it said "(default -1)"
// for --paragraph-threshold).
func TestHelpDefaults(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"--help"}, nil, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	if errOut.Len() != 0 {
		t.Errorf("--help wrote %q to standard error; want the help on standard output only", errOut.String())
	}
	if !strings.Contains(help, "-h, --help") {
		t.Errorf("--help does not list -h, --help:\n%s", help)
	}
	if !strings.Contains(help, "--paragraph-threshold") || strings.Contains(help, "(default -1)") {
		t.Errorf("--help:\n%s\nwant --paragraph-threshold without a -1 default", help)
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
