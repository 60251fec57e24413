package main

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

// TestMain lets the test binary serve as the aligner child process.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		if err := runChild(context.Background(), os.Args[1:], os.Stdout); err != nil {
			os.Stderr.WriteString("eval child: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		tokens []string
		words  []string
		want   []int
	}{
		{[]string{"a", "b", "c"}, []string{"A", "b,", "c."}, []int{0, 1, 2}},
		{[]string{"a", "x", "c"}, []string{"a", "c"}, []int{0, -1, 1}},
		{[]string{"uh", "uh", "so"}, []string{"uh", "so"}, []int{0, -1, 1}},
		{[]string{"y'know"}, []string{"Y'know"}, []int{0}},
		{nil, []string{"a"}, []int{}},
	} {
		var words []span
		for _, w := range tc.words {
			words = append(words, span{Label: w})
		}
		if got := match(tc.tokens, words); !cmp.Equal(got, tc.want) {
			t.Errorf("match(%q, %q) = %v; want %v", tc.tokens, tc.words, got, tc.want)
		}
	}
}

func TestWordBoundaries(t *testing.T) {
	r := &recording{Set: setMFA, Tokens: []string{"one", "two", "three"}, Line: []int{0, 0, 0},
		Ref: []span{{0, 0.5, "one"}, {0.5, 1, "two"}, {1.2, 2, "three"}}}
	got := wordBoundaries(r, []span{{0.01, 0.53, "one"}, {0.53, 1.2, "two"}})
	// Errors: 10, 30, 30, 200 ms; "three" missing.
	want := boundaryStats{N: 4, Missing: 1, Within: [3]int{1, 3, 3}, Tol: wordTols, Compared: true}
	if got.N != want.N || got.Missing != want.Missing || got.Within != want.Within {
		t.Errorf("wordBoundaries = %+v; want %+v", got, want)
	}
	if mae := got.MAE(); math.Abs(mae-0.0675) > 1e-9 {
		t.Errorf("MAE = %v; want 0.0675", mae)
	}
	if max := got.MaxAbs; math.Abs(max-0.2) > 1e-9 {
		t.Errorf("MaxAbs = %v; want 0.2", max)
	}
}

func TestLineBoundaries(t *testing.T) {
	r := &recording{Set: setAeneas, Tokens: []string{"a", "b", "c", "d"}, Line: []int{0, 0, 1, 2},
		Ref: []span{{0, 2, "a b"}, {2, 4, "c"}, {4, 6, "d"}}}
	// Pause 1.5–2.5 holds the boundary 2 (error 0); the pause 3.0–3.2 is
	// 0.8 s before the boundary 4.
	words := []span{{0.5, 1, "a"}, {1, 1.5, "b"}, {2.5, 3, "c"}, {3.2, 5, "d"}}
	got := lineBoundaries(r, words)
	if got.N != 2 || got.Within != [3]int{1, 1, 1} || math.Abs(got.MaxAbs-0.8) > 1e-9 {
		t.Errorf("lineBoundaries = %+v; want 2 boundaries, errors 0 and 0.8 s", got)
	}
}

func TestParseCTM(t *testing.T) {
	in := ";; comment\nutt 1 0.00 0.10 <sil> 1.000\nutt 1 0.21 0.11 w0000 1.000\nutt 1 0.33 0.22 w0001(2) 0.9\nutt 1 0.56 0.05 ++NOISE++ 1\nutt 1 0.61 0.10 w0002 1\n"
	got, err := parseCTM(strings.NewReader(in), []int{0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []span{{0.21, 0.33, "0"}, {0.33, 0.56, "1"}, {0.61, 0.72, "1"}}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-9 })); diff != "" {
		t.Errorf("parseCTM (-want +got):\n%s", diff)
	}
	if merged := tokenSpans(got, []string{"he", "was"}); len(merged) != 2 || math.Abs(merged[1].End-0.72) > 1e-9 || merged[1].Label != "was" {
		t.Errorf("tokenSpans = %+v; want two tokens, the second ending at 0.72", merged)
	}
	for _, bad := range []string{"utt 1 0.1 w0000", "utt 1 x 0.1 w0000", "utt 1 0.1 -1 w0000", "utt 1 0.1 0.1 w0009"} {
		if _, err := parseCTM(strings.NewReader(bad), []int{0}); err == nil {
			t.Errorf("parseCTM(%q) = nil error; want one", bad)
		}
	}
}

func FuzzParseCTM(f *testing.F) {
	f.Add("utt 1 0.21 0.11 w0000 1.000\nutt 1 0.33 0.22 w0001(2) 0.9\n")
	f.Add(";; x\nutt 1 1e308 1e308 w0000\n")
	f.Fuzz(func(t *testing.T, s string) {
		words, err := parseCTM(strings.NewReader(s), []int{0, 1})
		if err != nil {
			return
		}
		for _, w := range words {
			if !(w.End >= w.Start) {
				t.Errorf("parseCTM(%q) gave %+v with end before start", s, w)
			}
		}
		tokenSpans(words, []string{"a", "b"})
	})
}

func TestParseTSV(t *testing.T) {
	got, err := parseTSV("x", bufio.NewScanner(strings.NewReader("start_s\tend_s\tlabel\n0.000\t2.680\t1\n2.680\t5.880\tFrom fairest, creatures\n")))
	if err != nil {
		t.Fatal(err)
	}
	want := []span{{0, 2.68, "1"}, {2.68, 5.88, "From fairest, creatures"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseTSV (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"h\n1\t0\tx\n", "h\n0\tx\n", "h\nx\t1\ty\n"} {
		if _, err := parseTSV("x", bufio.NewScanner(strings.NewReader(bad))); err == nil {
			t.Errorf("parseTSV(%q) = nil error; want one", bad)
		}
	}
}

func FuzzParseTSV(f *testing.F) {
	f.Add("start_s\tend_s\tlabel\n0.000\t0.550\tmontreal\n")
	f.Fuzz(func(t *testing.T, s string) {
		spans, err := parseTSV("fuzz", bufio.NewScanner(strings.NewReader(s)))
		if err != nil {
			return
		}
		for _, sp := range spans {
			if !(sp.End >= sp.Start) {
				t.Errorf("parseTSV(%q) gave %+v", s, sp)
			}
		}
	})
}

func TestCheckEnergy(t *testing.T) {
	// 1 s of near-silence with a loud tone from 0.3 to 0.6 s.
	const rate = 16000
	x := make([]float32, rate)
	for i := range x {
		x[i] = 1e-4 * float32(i%7-3)
		if i >= rate*3/10 && i < rate*6/10 {
			x[i] = 0.5 * float32(math.Sin(float64(i)*0.2))
		}
	}
	on := checkEnergy(x, rate, []span{{0.3, 0.45, "a,"}, {0.45, 0.6, "b"}, {0.8, 0.9, "c"}}, nil)
	if on.InSpeech < 0.6 || on.OutSpeech > 0.1 {
		t.Errorf("words on the tone: in %.2f, out %.2f; want most frames in words loud, few in gaps", on.InSpeech, on.OutSpeech)
	}
	off := checkEnergy(x, rate, []span{{0.05, 0.25, "a"}, {0.65, 0.95, "b"}}, nil)
	if off.InSpeech > 0.1 || off.OutSpeech < 0.6 {
		t.Errorf("words off the tone: in %.2f, out %.2f; want the reverse", off.InSpeech, off.OutSpeech)
	}
	if on.Ends != 1 || on.EndsGap != 0 || on.Gaps != 1 || on.GapsAtEnd != 0 {
		t.Errorf("pauses = %+v; want one clause end without a pause and one pause elsewhere", on)
	}
}

// speechDir returns the shared speech data, or skips.
func speechDir(t *testing.T) string {
	t.Helper()
	dir := sharedtestdata.Path(t, "speech")
	sharedtestdata.Path(t, "speech", "en_ps_sense0880.words.tsv") // the reference it scores against
	if _, err := os.Stat(peerModel + "/mdef"); err != nil {
		t.Skipf("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us): %v", err)
	}
	return dir
}

// TestEvalOneFile runs the whole evaluation on one short recording, with
// the peer when it is installed, and checks the report.
func TestEvalOneFile(t *testing.T) {
	dir := speechDir(t)
	c := config{dataDir: dir, only: regexp.MustCompile(`^en_ps_sense0880$`), runs: 1}
	_, err := exec.LookPath(peerBin)
	c.peer = err == nil
	var log bytes.Buffer
	results, err := evaluate(context.Background(), c, &log)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 {
		t.Fatalf("got %d results; want 1", len(results))
	}
	r := results[0]
	if r.oursErr != "" {
		t.Fatalf("ours failed: %s", r.oursErr)
	}
	if s := r.oursStats; s.N != 16 || s.Share(2) < 0.9 {
		t.Errorf("ours: %d boundaries, %.2f within 100 ms; want 16 and at least 0.9 (pocketsphinx reference)", s.N, s.Share(2))
	}
	if r.peakKB <= 0 || len(r.alignS) != 1 || r.alignS[0] <= 0 || len(r.warmS) != 1 || r.warmS[0] <= 0 {
		t.Errorf("ours: peak %d KiB, align times %v, warm %v; want all measured", r.peakKB, r.alignS, r.warmS)
	}
	if c.peer {
		if r.peerErr != "" {
			t.Fatalf("peer failed: %s", r.peerErr)
		}
		if s := r.peerStats; s.N != 16 || s.Share(2) < 0.9 {
			t.Errorf("peer: %d boundaries, %.2f within 100 ms; want 16 and at least 0.9", s.N, s.Share(2))
		}
	}
	var out bytes.Buffer
	if err := writeReport(&out, c, results, []string{"eval", "-only", "^en_ps_sense0880$"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| en_ps_sense0880 | pocketsphinx", "### Speed and memory", "go run ./align/internal/eval -only"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if testing.Verbose() {
		t.Log(out.String())
	}
}
