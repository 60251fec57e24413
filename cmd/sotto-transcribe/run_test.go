package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/internal/testdata"
)

func runCmd(t testing.TB, args ...string) (string, string, int) {
	t.Helper()
	return runCmdIn(t, "", args...)
}

// runCmdIn runs the command with stdin as its standard input.
func runCmdIn(t testing.TB, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	if err != nil {
		errb.WriteString(err.Error())
	}
	return out.String(), errb.String(), exitCode(err)
}

func TestUsageErrors(t *testing.T) {
	lm := filepath.Join(t.TempDir(), "x.arpa")
	os.WriteFile(lm, []byte("\\data\\\n"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "missing the audio"},
		{[]string{"--format", "xml", "a.wav"}, "--format"},
		{[]string{"--granularity", "word", "a.wav"}, "needs --format verbose_json"},
		{[]string{"-f", "srt", "--granularity", "word", "a.wav"}, "needs --format verbose_json"},
		{[]string{"-f", "verbose_json", "--granularity", "phone", "a.wav"}, "want word or segment"},
		{[]string{"-o", "x.txt", "--out-dir", "d", "a.wav"}, "not both"},
		{[]string{"-o", "x.txt", "a.wav", "b.wav"}, "--out takes one input"},
		{[]string{"-f", "vtt", "a.wav", "b.wav"}, "need --out-dir"},
		{[]string{"--model", "Nope/Nothing", "a.wav"}, `--model "Nope/Nothing" is not in the catalog (sotto-cli models list shows the models)`},
		{[]string{"--model", "sotto/lattice-asr", "a.wav"}, "not in the catalog; did you mean Sotto/Lattice-ASR? (sotto-cli models list"},
		{[]string{"--model", "Sotto/Lattice-2", "a.wav"}, "does not transcribe"},
		{[]string{"--language", "!!", "a.wav"}, "not a language tag"},
		{[]string{"--lm", filepath.Join(t.TempDir(), "missing.arpa"), "a.wav"}, "not a readable file"},
		{[]string{"--lm", filepath.Dir(lm), "a.wav"}, "not a readable file"},
		{[]string{"--audio-track", "-1", "a.wav"}, "--audio-track"},
		{[]string{"--audio-channel", "left", "a.wav"}, "--audio-channel"},
		{[]string{"--no-such-flag", "a.wav"}, "unknown flag"},
		{[]string{"-", "a.wav", "-"}, "standard input (\"-\") is given 2 times"},
	} {
		_, stderr, code := runCmd(t, tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("sotto-transcribe %q = exit %d, %q; want exit 2 mentioning %q", tt.args, code, stderr, tt.want)
		}
	}
}

func TestHelp(t *testing.T) {
	out, _, code := runCmd(t, "--help")
	for _, want := range []string{"usage: sotto-transcribe", "Examples:", "verbose_json", "--lm", "--prompt", "--granularity", "Exit status"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	if code != 0 {
		t.Errorf("--help exit %d; want 0", code)
	}
}

func TestBackendConfig(t *testing.T) {
	c, err := parseArgs([]string{"--lm", "testdata/none", "a.wav"}, &bytes.Buffer{})
	if err == nil {
		t.Fatalf("a missing --lm file was accepted: %+v", c)
	}
	lm := filepath.Join(t.TempDir(), "d.arpa")
	os.WriteFile(lm, []byte("\\data\\\n"), 0o644)
	c, err = parseArgs([]string{"--lm", lm, "--dict", "/x/dict", "--prompt", "etcd", "-f", "srt", "a.wav"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := c.backendConfig()
	if cfg.Options[asr.OptLM] != lm || cfg.Options[asr.OptDict] != "/x/dict" || len(cfg.Options) != 2 {
		t.Errorf("backendConfig().Options = %v; want lm and dict only", cfg.Options)
	}
	if c.opts.Prompt != "etcd" || !c.opts.Words {
		t.Errorf("asr.Options = %+v; want the prompt, and words for subtitles", c.opts)
	}
}

// recognizer skips t unless this build has a transcription driver, the
// Debian model and the shared recordings; it returns the JFK recording.
// TestOutputChecked: an --out that cannot be written is refused before the
// recognizer runs (it failed after the whole transcription).
func TestOutputChecked(t *testing.T) {
	dir := t.TempDir()
	for path, want := range map[string]string{
		dir:                               "--out " + dir + " is a directory",
		filepath.Join(dir, "no", "x.srt"): "the directory " + filepath.Join(dir, "no") + " does not exist",
	} {
		_, stderr, code := runCmd(t, "-o", path, "missing-input.wav")
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("-o %s = exit %d, %q; want exit 1 saying %q (before the input is opened)", path, code, stderr, want)
		}
	}
}

func recognizer(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the end-to-end test runs the recognizer")
	}
	wav := testdata.Path(t, "speech", "en_jfk_16k.wav")
	if len(asr.Drivers()) == 0 {
		t.Skip("no transcription driver in this build (package asr registers none)")
	}
	if _, err := os.Stat("/usr/share/pocketsphinx/model/en-us/en-us/mdef"); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	return wav
}

func TestTranscribeJFK(t *testing.T) {
	if raceEnabled {
		t.Skip("-race slows the recognizer about tenfold; this test runs without -race")
	}
	wav := recognizer(t)
	out, stderr, code := runCmd(t, "-f", "verbose_json", "--granularity", "word,segment", "--progress", wav)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Task, Language, Text string
		Duration             float64
		Segments             []struct{ Start, End float64 }
		Words                []struct{ Word string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if res.Task != "transcribe" || res.Duration < 10.9 || len(res.Segments) == 0 || len(res.Words) < 15 {
		t.Errorf("verbose_json = %+v", res)
	}
	// Wiring, not accuracy (the asr package measures that): the speech got
	// through when the text has words of the recording.
	found := 0
	for _, w := range []string{"and", "so", "my", "fellow", "americans", "ask", "not", "what", "your", "country", "can", "do", "for", "you"} {
		if slices.Contains(strings.Fields(strings.ToLower(res.Text)), w) {
			found++
		}
	}
	if found < 3 || len(strings.Fields(res.Text)) < 8 {
		t.Errorf("text %q has %d words of the recording; want a transcript of it", res.Text, found)
	}
	if !strings.Contains(stderr, "transcribing [") || !strings.Contains(stderr, "100%") {
		t.Errorf("--progress drew %q; want a bar reaching 100%%", stderr)
	}
	dir := t.TempDir()
	a2 := testdata.Path(t, "speech", "en_arctic_aew_a0002_16k.wav")
	a3 := testdata.Path(t, "speech", "en_arctic_aew_a0003_16k.wav")
	if _, stderr, code := runCmd(t, "-f", "srt", "--out-dir", dir, "-q", a2, a3); code != 0 {
		t.Fatalf("srt --out-dir: exit %d %s", code, stderr)
	}
	out, stderr, code = runCmd(t, "-f", "diarized_json", "--progress", a2)
	if !strings.Contains(stderr, "100%  4.0 / 4.0 s\nfinding who spoke when (a second pass over the audio)...\n") {
		t.Errorf("diarized_json --progress drew %q; want the bar, then a line saying what the second pass is", stderr)
	}
	var d struct {
		Speakers []string
		Segments []struct{ Speaker *string }
	}
	if err := json.Unmarshal([]byte(out), &d); code != 0 || err != nil || len(d.Speakers) == 0 || len(d.Segments) == 0 {
		t.Fatalf("diarized_json: exit %d %s %q", code, stderr, out)
	}
	for i, s := range d.Segments {
		if s.Speaker == nil || !slices.Contains(d.Speakers, *s.Speaker) {
			t.Errorf("diarized segment %d speaker %v; want one of %v", i, s.Speaker, d.Speakers)
		}
	}
	for _, name := range []string{"en_arctic_aew_a0002_16k.srt", "en_arctic_aew_a0003_16k.srt"} {
		srt, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.HasPrefix(string(srt), "1\n00:00:0") {
			t.Errorf("%s = %q, %v", name, srt, err)
		}
	}
}

// TestTranscribeStdin: FILE "-" is standard input, transcribed as the
// same file named; with --out-dir its output is stdin.txt. An empty
// standard input is the empty file's error.
func TestTranscribeStdin(t *testing.T) {
	if raceEnabled {
		t.Skip("-race slows the recognizer about tenfold; this test runs without -race")
	}
	recognizer(t)
	wav := testdata.Path(t, "speech", "en_arctic_aew_a0002_16k.wav")
	data, err := os.ReadFile(wav)
	if err != nil {
		t.Fatal(err)
	}
	want, stderr, code := runCmd(t, "-q", wav)
	if code != 0 || strings.TrimSpace(want) == "" {
		t.Fatalf("the file: exit %d %q %s", code, want, stderr)
	}
	if got, stderr, code := runCmdIn(t, string(data), "-q", "-"); code != 0 || got != want {
		t.Errorf("standard input: exit %d %q %s; want %q as for the file", code, got, stderr, want)
	}
	dir := t.TempDir()
	if _, stderr, code := runCmdIn(t, string(data), "-q", "--out-dir", dir, "-"); code != 0 {
		t.Fatalf("--out-dir with -: exit %d %s", code, stderr)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "stdin.txt")); err != nil || string(got) != want {
		t.Errorf("stdin.txt = %q, %v; want %q", got, err, want)
	}
	if _, stderr, code := runCmdIn(t, "", "-q", "-"); code != 1 || !strings.Contains(stderr, "the file is empty") {
		t.Errorf("empty standard input: exit %d %q; want 1 and the empty file's error", code, stderr)
	}
}

// TestTranscribeDomainLM: --lm reaches the recognizer. With a unigram ARPA
// model over the words of the recording, every word of the transcript
// comes from that vocabulary.
func TestTranscribeDomainLM(t *testing.T) {
	wav := recognizer(t)
	vocab := strings.Fields("americans and ask can country do fellow for my not so what you your")
	p := fmt.Sprintf("%.4f", math.Log10(1/float64(len(vocab)+1)))
	arpa := "\\data\\\nngram 1=" + strconv.Itoa(len(vocab)+2) + "\n\n\\1-grams:\n-99 <s>\n" + p + " </s>\n"
	for _, w := range vocab {
		arpa += p + " " + w + "\n"
	}
	arpa += "\n\\end\\\n"
	lm := filepath.Join(t.TempDir(), "jfk.arpa")
	if err := os.WriteFile(lm, []byte(arpa), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCmd(t, "--lm", lm, wav)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	words := strings.Fields(out)
	if len(words) < 8 {
		t.Errorf("--lm transcript %q is too short", out)
	}
	for _, w := range words {
		if !slices.Contains(vocab, w) {
			t.Errorf("--lm transcript %q has %q, outside the language model's vocabulary", out, w)
		}
	}
}

// TestDataDirCatalog: as serve, sotto-transcribe reads the user catalog of
// its data directory (it looked only at --catalog, so a model listed there
// was "not in the catalog"), and a model that is not downloaded names the
// command that downloads it.
func TestDataDirCatalog(t *testing.T) {
	dir := t.TempDir()
	cat := `{"models": [{"id": "Test/ASR", "supported_endpoints": ["/v1/audio/transcriptions"], "features": [],
	  "execution_location": "local", "default_for": [], "backend": "whisper",
	  "files": [{"name": "m.bin", "url": "http://127.0.0.1:9/m.bin"}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "catalog.json"), []byte(cat), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SOTTO_CATALOG", "")
	_, stderr, code := runCmd(t, "--data-dir", dir, "--model", "Test/ASR", "a.wav")
	if want := "sotto-cli models download Test/ASR"; code != 1 || !strings.Contains(stderr, "not downloaded") || !strings.Contains(stderr, want) {
		t.Errorf("sotto-transcribe --data-dir D --model Test/ASR = exit %d, %q; want exit 1, not downloaded, %q", code, stderr, want)
	}
}

// TestAudioErrorsNameFlags: the decoder's errors about the track and the
// channel name this command's flags, not the API's fields.
func TestAudioErrorsNameFlags(t *testing.T) {
	wav := recognizer(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--audio-track", "2", wav}, "--audio-track 2 is out of range: the WAV file has 1 audio track"},
		{[]string{"--audio-channel", "3", wav}, "--audio-channel 3 is out of range: the track has 1 channel(s)"},
	} {
		_, stderr, code := runCmd(t, append([]string{"-q"}, tc.args...)...)
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "audio_") {
			t.Errorf("%q: exit %d %q; want exit 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestBadInputNamed: an input the decoder refuses is named in the message
// (the decoder's own "audio: the file is empty" says not which file).
func TestBadInputNamed(t *testing.T) {
	recognizer(t)
	empty := filepath.Join(t.TempDir(), "empty.wav")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCmd(t, empty)
	if want := empty + ": audio: the file is empty"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("empty input: exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
}
