// Command segbench measures sentence segmentation accuracy on the shared
// segmentation suites and the throughput of sentence mode, and writes a
// markdown report.
//
//	go run ./segment/internal/segbench -out docs/bench/segment.md
//
// The suites are read from $SOTTO_TESTDATA/text/segment (default
// ../shared/testdata relative to the repository root). Each suite is scored
// by exact match of the sentence list (whitespace runs collapsed, as the
// upstream tests strip sentences) and by boundary precision, recall and F1,
// with boundaries placed on the text with all whitespace removed. The same
// figures are given for a naive splitter (a stop character followed by
// whitespace) as a baseline.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/sottolabs/sotto/segment/internal/segeval"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sottolabs/sotto/segment"
)

type testCase struct {
	Lang      string         `json:"lang"`
	Class     string         `json:"class"`
	Input     string         `json:"input"`
	Sentences []string       `json:"sentences"`
	Options   map[string]any `json:"options"`
	Xfail     bool           `json:"xfail"`
}

type tally struct {
	cases, exact, xfail, xfailExact int
	tp, fp, fn                      int
	ntp, nfp, nfn                   int // naive baseline
	nexact                          int
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "segbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("segbench", flag.ContinueOnError)
	out := fl.String("out", "", "write the markdown report to this file (default stdout)")
	data := fl.String("data", "", "segmentation suites (default $SOTTO_TESTDATA/text/segment)")
	verbose := fl.Bool("v", false, "print failing cases")
	suite := fl.String("suite", "", "only suites whose path contains this")
	mb := fl.Float64("mb", 8, "MB of English prose for the throughput run")
	if err := fl.Parse(args); err != nil {
		return err
	}
	dir := *data
	if dir == "" {
		dir = filepath.Join(testdataRoot(), "text", "segment")
	}
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".jsonl") && strings.Contains(p, *suite) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read suites (set SOTTO_TESTDATA): %w", err)
	}
	sort.Strings(files)
	tallies := map[string]*tally{}
	var goldEN, goldOther tally // Golden Rules: pragmatic_segmenter README and pySBD GOLDEN_* lists
	var order []string
	var prose strings.Builder
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		parts := strings.Split(rel, string(filepath.Separator))
		key := parts[0] + " · " + parts[1]
		t := tallies[key]
		if t == nil {
			t = &tally{}
			tallies[key] = t
			order = append(order, key)
		}
		cases, err := readCases(f)
		if err != nil {
			return err
		}
		for _, c := range cases {
			if c.Lang == "en" && strings.HasPrefix(parts[1], "ud_") {
				prose.WriteString(c.Input)
				prose.WriteString("\n\n")
			}
			got, err := segment.Sentences(ctx, c.Input, segment.Options{Language: c.Lang})
			if err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
			naive := naiveSplit(c.Input)
			ok := segeval.Equal(got, c.Sentences)
			if strings.Contains(rel, "pragmatic_segmenter") || strings.Contains(rel, "GOLDEN") {
				g := &goldOther
				if parts[0] == "en" {
					g = &goldEN
				}
				if !c.Xfail {
					g.cases++
					if ok {
						g.exact++
					}
				}
			}
			t.cases++
			if c.Xfail {
				t.xfail++
				if ok {
					t.xfailExact++
				}
			} else if ok {
				t.exact++
			}
			if segeval.Equal(naive, c.Sentences) && !c.Xfail {
				t.nexact++
			}
			tp, fp, fn := segeval.BoundaryCounts(got, c.Sentences)
			t.tp, t.fp, t.fn = t.tp+tp, t.fp+fp, t.fn+fn
			tp, fp, fn = segeval.BoundaryCounts(naive, c.Sentences)
			t.ntp, t.nfp, t.nfn = t.ntp+tp, t.nfp+fp, t.nfn+fn
			if *verbose && !ok {
				fmt.Fprintf(os.Stderr, "FAIL %s [%s]%s\n  in:   %q\n", rel, c.Class, map[bool]string{true: " (xfail)"}[c.Xfail], trunc(c.Input))
				diff(os.Stderr, got, c.Sentences)
			}
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(a, b) })

	var md bytes.Buffer
	fmt.Fprintf(&md, "## Text segmentation (`segment`)\n\n")
	fmt.Fprintf(&md, "Reproduce: `go run ./segment/internal/segbench -out docs/bench/segment.md` (suites from `$SOTTO_TESTDATA/text/segment`, ")
	fmt.Fprintf(&md, "default threshold %.2f, language from each case's `lang`). Measured %s on %s/%s, %d CPUs, %s.\n\n",
		segment.DefaultThreshold, time.Now().UTC().Format("2006-01-02 15:04 MST"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	pud := 1.0
	for _, k := range order {
		if strings.Contains(k, "pud") {
			t := tallies[k]
			_, _, f := prf(t.tp, t.fp, t.fn)
			pud = min(pud, f)
		}
	}
	ewt, ewtMet := "–", false
	if t := tallies["en · ud_english-ewt"]; t != nil {
		p, r, f := prf(t.tp, t.fp, t.fn)
		_, _, nf := prf(t.ntp, t.nfp, t.nfn)
		ewt = fmt.Sprintf("%.3f (P %.3f, R %.3f; naive %.3f)", f, p, r, nf)
		ewtMet = f >= 0.95
	}
	ewtNote := "met"
	if !ewtMet {
		ewtNote = "not met"
	}
	fmt.Fprintf(&md, "Against the goals of issue 4: English Golden Rules **%d/%d** exact (goal 100%%); other Golden Rules **%d/%d = %.1f%%** (goal ≥ 95%%); ",
		goldEN.exact, goldEN.cases, goldOther.exact, goldOther.cases, pct(goldOther.exact, goldOther.cases))
	fmt.Fprintf(&md, "boundary F1 on English EWT **%s** (goal ≥ 0.95, %s; the remaining misses are mostly e-mail signatures, tables and chat lines whose line breaks the treebank's raw text no longer has and that end without a stop); lowest PUD F1 **%.3f** (goal ≥ 0.99). ", ewt, ewtNote, pud)
	fmt.Fprintf(&md, "Golden Rules = the pragmatic_segmenter README lists and pySBD's `GOLDEN_*` lists, non-`xfail` cases; their expected lists assume text cleaning, so they are compared with whitespace collapsed.\n\n")
	fmt.Fprintf(&md, "Exact = the case's whole sentence list matches (whitespace runs collapsed, none between CJK characters; `xfail` cases, marked wrong upstream, are counted apart). ")
	fmt.Fprintf(&md, "Boundary P/R/F1 count sentence ends on the text with whitespace removed. `naive` is the peer baseline: split after `.!?。！？` followed by whitespace (or after CJK stops).\n\n")
	fmt.Fprintf(&md, "| lang · suite | cases | exact | xfail exact | P | R | F1 | naive exact | naive F1 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, k := range order {
		t := tallies[k]
		p, r, f := prf(t.tp, t.fp, t.fn)
		_, _, nf := prf(t.ntp, t.nfp, t.nfn)
		norm := t.cases - t.xfail
		xf := "–"
		if t.xfail > 0 {
			xf = fmt.Sprintf("%d/%d", t.xfailExact, t.xfail)
		}
		fmt.Fprintf(&md, "| %s | %d | %d/%d (%.1f%%) | %s | %.3f | %.3f | **%.3f** | %.1f%% | %.3f |\n",
			k, t.cases, t.exact, norm, pct(t.exact, norm), xf, p, r, f, pct(t.nexact, norm), nf)
	}

	// Throughput on English prose (the UD English documents, repeated).
	text := prose.String()
	if text != "" {
		var big strings.Builder
		for big.Len() < int(*mb*1e6) {
			big.WriteString(text)
		}
		doc := big.String()
		var rates, nrates []float64
		for range 5 {
			start := time.Now()
			if _, err := segment.Sentences(ctx, doc, segment.Options{Language: "en"}); err != nil {
				return err
			}
			rates = append(rates, float64(len(doc))/1e6/time.Since(start).Seconds())
			start = time.Now()
			naiveSplit(doc)
			nrates = append(nrates, float64(len(doc))/1e6/time.Since(start).Seconds())
		}
		fmt.Fprintf(&md, "\nThroughput, sentence mode on English prose (UD English EWT+PUD inputs repeated to %.1f MB, one goroutine, median of 5): **%.1f MB/s** (naive splitter %.1f MB/s).\n",
			float64(len(doc))/1e6, median(rates), median(nrates))
	}
	// Cue mode on timed input: synthetic spoken segments without words.
	var in []segment.Cue
	at := 0.0
	for i := range 5000 {
		text := "This is a fairly long spoken segment, and it goes on for a while before it stops. Then another one follows it."
		if i%3 == 0 {
			text = "short one"
		}
		in = append(in, segment.Cue{Text: text, Start: at, End: at + 4, Speaker: []string{"A", "B"}[i%7/6]})
		at += 4.5
	}
	var cueRates []float64
	for range 5 {
		start := time.Now()
		if _, err := segment.Cues(ctx, in, segment.Options{Length: &segment.Length{MinChars: 12, MaxChars: 42}, Margins: &segment.Margins{Start: 0.2, End: 0.2}}); err != nil {
			return err
		}
		cueRates = append(cueRates, float64(len(in))/time.Since(start).Seconds())
	}
	fmt.Fprintf(&md, "\nCue mode (timed input without words, min 12 / max 42 characters, margins 0.2 s; 5000 synthetic segments, median of 5): **%.0f input segments/s**.\n", median(cueRates))
	fmt.Fprintf(&md, "\nThe machine is shared (2 cores, several engineers), so throughput varies between runs; `go test ./segment -run NONE -bench .` measures the same paths as Go benchmarks.\n")
	if *out == "" {
		_, err := stdout.Write(md.Bytes())
		return err
	}
	return os.WriteFile(*out, md.Bytes(), 0o644)
}

func readCases(path string) ([]testCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []testCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var c testCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

var naiveRE = regexp.MustCompile(`[.!?]+["'”’)\]]*\s+|[。！？]+[」』”）]*`)

// naiveSplit is the baseline: split after a stop followed by whitespace.
func naiveSplit(s string) []string {
	var out []string
	last := 0
	for _, m := range naiveRE.FindAllStringIndex(s, -1) {
		if t := strings.TrimSpace(s[last:m[1]]); t != "" {
			out = append(out, t)
		}
		last = m[1]
	}
	if t := strings.TrimSpace(s[last:]); t != "" {
		out = append(out, t)
	}
	return out
}

func prf(tp, fp, fn int) (p, r, f float64) {
	if tp+fp > 0 {
		p = float64(tp) / float64(tp+fp)
	} else {
		p = 1
	}
	if tp+fn > 0 {
		r = float64(tp) / float64(tp+fn)
	} else {
		r = 1
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func trunc(s string) string {
	if len(s) > 300 {
		k := 300
		for k > 0 && !utf8.RuneStart(s[k]) {
			k-- // do not cut a character in two
		}
		return s[:k] + "…"
	}
	return s
}

func diff(w io.Writer, got, want []string) {
	gi := map[string]bool{}
	for _, g := range got {
		gi[segeval.Norm(g)] = true
	}
	wi := map[string]bool{}
	for _, x := range want {
		wi[segeval.Norm(x)] = true
	}
	for _, x := range want {
		if !gi[segeval.Norm(x)] {
			fmt.Fprintf(w, "  want: %q\n", trunc(x))
		}
	}
	for _, g := range got {
		if !wi[segeval.Norm(g)] {
			fmt.Fprintf(w, "  got:  %q\n", trunc(g))
		}
	}
}

// testdataRoot returns $SOTTO_TESTDATA or ../shared/testdata relative to the
// repository root (the directory holding go.mod).
func testdataRoot() string {
	if d := os.Getenv("SOTTO_TESTDATA"); d != "" {
		return d
	}
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "testdata")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join("..", "shared", "testdata")
		}
		dir = parent
	}
}
