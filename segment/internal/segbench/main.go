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
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sottolabs/sotto/internal/holdout"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/segment"
	"github.com/sottolabs/sotto/segment/internal/segeval"
)

type testCase struct {
	Lang      string         `json:"lang"`
	Class     string         `json:"class"`
	Input     string         `json:"input"`
	Sentences []string       `json:"sentences"`
	Options   map[string]any `json:"options"`
	Xfail     bool           `json:"xfail"`
}

// tally holds one suite's figures, split into the dev part (rules may be
// tuned on it) and the sealed part (never listed, never tuned on).
type tally struct {
	dev, sealed segeval.Tally
	naive       segeval.Tally // naive baseline, dev part
}

func (t *tally) part(sealed bool) *segeval.Tally {
	if sealed {
		return &t.sealed
	}
	return &t.dev
}

// Headline is the summary the goals are stated in, for one part.
type Headline struct {
	GoldenEN    float64 `json:"golden_en"`    // % of English Golden Rules cases passed
	GoldenOther float64 `json:"golden_other"` // % of other languages' Golden Rules cases passed
	EWT         float64 `json:"ewt_f1"`       // boundary F1, English EWT
	PUDMin      float64 `json:"pud_min_f1"`   // lowest boundary F1 of the PUD treebanks
	PUD         float64 `json:"pud_f1"`       // pooled boundary F1 of the PUD treebanks
	PySBD       float64 `json:"pysbd_exact"`  // % exact, all pySBD suites pooled
	PySBDF1     float64 `json:"pysbd_f1"`     // boundary F1, all pySBD suites pooled
	Segtok      float64 `json:"segtok_f1"`    // boundary F1, segtok
	Syntok      float64 `json:"syntok_f1"`    // boundary F1, syntok
	Treebanks   float64 `json:"treebanks_f1"` // pooled boundary F1 of all UD treebanks
	GoldenCases [2]int  `json:"golden_cases"` // English and other Golden Rules case counts

	// The same figures with the language guessed (no lang given), as the
	// HTTP endpoint runs; zero in files written before they were measured.
	GuessGoldenEN    float64 `json:"guess_golden_en,omitempty"`
	GuessGoldenOther float64 `json:"guess_golden_other,omitempty"`
	GuessEWT         float64 `json:"guess_ewt_f1,omitempty"`
	GuessPUD         float64 `json:"guess_pud_f1,omitempty"`
}

// Figures is the headline of both parts, as written by -json and read by -before.
type Figures struct {
	Note   string   `json:"note"`
	Dev    Headline `json:"dev"`
	Sealed Headline `json:"sealed"`
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
	verbose := fl.Bool("v", false, "print failing dev cases (sealed cases are never listed)")
	misses := fl.Bool("misses", false, "print each missed (FN) and invented (FP) boundary of the dev cases in context, one a line")
	suite := fl.String("suite", "", "only suites whose path contains this")
	mb := fl.Float64("mb", 8, "MB of English prose for the throughput run")
	jsonOut := fl.String("json", "", "also write the headline figures (dev and sealed) as JSON to this file")
	genDir := fl.String("gen", filepath.Join("segment", "testdata"), "folder of the generalization sets (generalize*.jsonl)")
	abbrevFile := fl.String("abbrev", filepath.Join("segment", "data", "abbreviations.tsv"), "the segmenter's abbreviation table, counted per language in the report")
	before := fl.String("before", "", "headline figures (a -json file) to print beside today's as \"before\"")
	if err := fl.Parse(args); err != nil {
		return err
	}
	dir := *data
	if dir == "" {
		dir = filepath.Join(testdata.Root(), "text", "segment")
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
	// Golden Rules: pragmatic_segmenter README and pySBD GOLDEN_* lists; pooled groups.
	var goldEN, goldOther, pysbd, segtok, syntok, pud, banks tally
	// The same groups with the language guessed by the segmenter, as the
	// HTTP endpoint (which has no language field) runs it.
	var gGoldEN, gGoldOther, gEWT, gPUD tally
	ewtMisses := missClasses{}
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
		var groups []*tally
		switch {
		case parts[1] == "pysbd":
			groups = append(groups, &pysbd)
		case parts[1] == "segtok":
			groups = append(groups, &segtok)
		case parts[1] == "syntok":
			groups = append(groups, &syntok)
		case strings.HasPrefix(parts[1], "ud_"):
			groups = append(groups, &banks)
			if strings.Contains(parts[1], "pud") {
				groups = append(groups, &pud)
			}
		}
		if strings.Contains(rel, "pragmatic_segmenter") || strings.Contains(rel, "GOLDEN") {
			if parts[0] == "en" {
				groups = append(groups, &goldEN)
			} else {
				groups = append(groups, &goldOther)
			}
		}
		var guessGroups []*tally
		switch {
		case strings.Contains(rel, "pragmatic_segmenter") || strings.Contains(rel, "GOLDEN"):
			guessGroups = append(guessGroups, map[bool]*tally{true: &gGoldEN, false: &gGoldOther}[parts[0] == "en"])
		case parts[1] == "ud_english-ewt":
			guessGroups = append(guessGroups, &gEWT)
		case strings.HasPrefix(parts[1], "ud_") && strings.Contains(parts[1], "pud"):
			guessGroups = append(guessGroups, &gPUD)
		}
		for _, c := range cases {
			if len(guessGroups) > 0 {
				got, err := segment.Sentences(ctx, c.Input, segment.Options{})
				if err != nil {
					return fmt.Errorf("%s: %w", rel, err)
				}
				for _, g := range guessGroups {
					g.part(segeval.Sealed(c.Input)).Add(got, c.Sentences, c.Xfail)
				}
			}
			if c.Lang == "en" && strings.HasPrefix(parts[1], "ud_") {
				prose.WriteString(c.Input)
				prose.WriteString("\n\n")
			}
			got, err := segment.Sentences(ctx, c.Input, segment.Options{Language: c.Lang})
			if err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
			sealed := segeval.Sealed(c.Input)
			ok := t.part(sealed).Add(got, c.Sentences, c.Xfail)
			for _, g := range groups {
				g.part(sealed).Add(got, c.Sentences, c.Xfail)
			}
			if sealed {
				continue // never listed, never compared with the baseline
			}
			t.naive.Add(naiveSplit(c.Input), c.Sentences, c.Xfail)
			if *misses && !ok {
				printMisses(os.Stderr, rel, c.Input, got, c.Sentences)
			}
			if parts[1] == "ud_english-ewt" {
				ewtMisses.add(c.Input, got, c.Sentences)
			}
			if *verbose && !ok {
				fmt.Fprintf(os.Stderr, "FAIL %s [%s]%s\n  in:   %q\n", rel, c.Class, map[bool]string{true: " (xfail)"}[c.Xfail], trunc(c.Input))
				diff(os.Stderr, got, c.Sentences)
			}
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(a, b) })

	head := func(sealed bool) Headline {
		f1 := func(t *tally) float64 { _, _, f := t.part(sealed).PRF(); return f }
		h := Headline{
			GoldenEN:    100 * goldEN.part(sealed).ExactFrac(),
			GoldenOther: 100 * goldOther.part(sealed).ExactFrac(),
			PUD:         f1(&pud),
			PySBD:       100 * pysbd.part(sealed).ExactFrac(),
			PySBDF1:     f1(&pysbd),
			Segtok:      f1(&segtok),
			Syntok:      f1(&syntok),
			Treebanks:   f1(&banks),
			GoldenCases: [2]int{goldEN.part(sealed).Cases, goldOther.part(sealed).Cases},

			GuessGoldenEN:    100 * gGoldEN.part(sealed).ExactFrac(),
			GuessGoldenOther: 100 * gGoldOther.part(sealed).ExactFrac(),
			GuessEWT:         f1(&gEWT),
			GuessPUD:         f1(&gPUD),
			PUDMin:           1,
		}
		for _, k := range order {
			if strings.Contains(k, "pud") {
				h.PUDMin = min(h.PUDMin, f1(tallies[k]))
			}
		}
		if t := tallies["en · ud_english-ewt"]; t != nil {
			h.EWT = f1(t)
		}
		return h
	}
	now := Figures{Dev: head(false), Sealed: head(true)}
	var prev *Figures
	if *before != "" {
		b, err := os.ReadFile(*before)
		if err != nil {
			return err
		}
		prev = new(Figures)
		if err := json.Unmarshal(b, prev); err != nil {
			return fmt.Errorf("%s: %w", *before, err)
		}
	}

	var md bytes.Buffer
	fmt.Fprintf(&md, "## Text segmentation (`segment`)\n\n")
	fmt.Fprintf(&md, "Reproduce: `go run ./segment/internal/segbench -out docs/bench/segment.md -before docs/bench/segment-before.json` (suites from `$SOTTO_TESTDATA/text/segment`, ")
	fmt.Fprintf(&md, "default threshold %.2f, language from each case's `lang`). Measured %s on %s/%s, %d CPUs, %s.\n\n",
		segment.DefaultThreshold, time.Now().UTC().Format("2006-01-02 15:04 MST"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(&md, "**Dev and sealed.** A fixed %d %% of every suite is *sealed* (`internal/holdout`: FNV-1a of the case input, modulo 100): ", holdout.Percent)
	fmt.Fprintf(&md, "those cases are scored here but never listed (`-v` prints dev failures only) and no rule is tuned on them. ")
	fmt.Fprintf(&md, "The sealed figures estimate how the rules fare on text nobody tuned them on.\n\n")
	fmt.Fprintf(&md, "Goals (issue 10, measured on unseen cases): Golden Rules 100 %% English and ≥ 95 %% others, EWT boundary F1 ≥ 0.96, PUD ≥ 0.99.\n\n")
	if prev != nil {
		fmt.Fprintf(&md, "| figure | before: dev | before: sealed | now: dev | now: sealed |\n|---|---:|---:|---:|---:|\n")
	} else {
		fmt.Fprintf(&md, "| figure | dev | sealed |\n|---|---:|---:|\n")
	}
	row := func(name string, get func(Headline) float64, format string) {
		fmt.Fprintf(&md, "| %s |", name)
		if prev != nil {
			for _, h := range []Headline{prev.Dev, prev.Sealed} {
				if v := get(h); v != 0 {
					fmt.Fprintf(&md, " "+format+" |", v)
				} else {
					fmt.Fprintf(&md, " – |") // not measured then
				}
			}
		}
		fmt.Fprintf(&md, " **"+format+"** | **"+format+"** |\n", get(now.Dev), get(now.Sealed))
	}
	row(fmt.Sprintf("Golden Rules en, %% of cases (dev %d, sealed %d)", now.Dev.GoldenCases[0], now.Sealed.GoldenCases[0]), func(h Headline) float64 { return h.GoldenEN }, "%.1f %%")
	row(fmt.Sprintf("Golden Rules others, %% of cases (dev %d, sealed %d)", now.Dev.GoldenCases[1], now.Sealed.GoldenCases[1]), func(h Headline) float64 { return h.GoldenOther }, "%.1f %%")
	row("EWT boundary F1", func(h Headline) float64 { return h.EWT }, "%.4f")
	row("PUD boundary F1, lowest language", func(h Headline) float64 { return h.PUDMin }, "%.4f")
	row("PUD boundary F1, pooled", func(h Headline) float64 { return h.PUD }, "%.4f")
	row("pySBD (all lists), % exact", func(h Headline) float64 { return h.PySBD }, "%.1f %%")
	row("pySBD (all lists), boundary F1", func(h Headline) float64 { return h.PySBDF1 }, "%.4f")
	row("segtok boundary F1", func(h Headline) float64 { return h.Segtok }, "%.4f")
	row("syntok boundary F1", func(h Headline) float64 { return h.Syntok }, "%.4f")
	row("UD treebanks pooled boundary F1", func(h Headline) float64 { return h.Treebanks }, "%.4f")
	row("Golden Rules en, language guessed, % of cases", func(h Headline) float64 { return h.GuessGoldenEN }, "%.1f %%")
	row("Golden Rules others, language guessed, % of cases", func(h Headline) float64 { return h.GuessGoldenOther }, "%.1f %%")
	row("EWT boundary F1, language guessed", func(h Headline) float64 { return h.GuessEWT }, "%.4f")
	row("PUD boundary F1 pooled, language guessed", func(h Headline) float64 { return h.GuessPUD }, "%.4f")
	if prev != nil && prev.Note != "" {
		fmt.Fprintf(&md, "\nBefore = %s\n", prev.Note)
	}
	fmt.Fprintf(&md, "\n*Language guessed* = the same cases segmented without their `lang`, the segmenter guessing the language from the text, as `POST /v1/text/segmentations` (which has no language field) runs them; every other figure passes each case's `lang`.\n")
	fmt.Fprintf(&md, "\nGolden Rules = the pragmatic_segmenter README lists and pySBD's `GOLDEN_*` lists, non-`xfail` cases; their expected lists assume text cleaning, so they are compared with whitespace collapsed.\n\n")
	fmt.Fprintf(&md, "Exact = the case's whole sentence list matches (whitespace runs collapsed, none between CJK characters; `xfail` cases, marked wrong upstream, are left out of exact and counted in F1). ")
	fmt.Fprintf(&md, "Boundary F1 counts sentence ends on the text with whitespace removed. `naive` is the peer baseline on the dev part: split after `.!?。！？` followed by whitespace (or after CJK stops).\n\n")
	fmt.Fprintf(&md, "| lang · suite | dev exact | sealed exact | dev P | dev R | dev F1 | sealed F1 | naive dev F1 |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	cell := func(t segeval.Tally) string {
		if t.Cases == 0 {
			return "–"
		}
		return fmt.Sprintf("%d/%d (%.1f%%)", t.Exact, t.Cases, 100*t.ExactFrac())
	}
	f1cell := func(t segeval.Tally) string {
		if t.Cases+t.Xfail == 0 {
			return "–"
		}
		_, _, f := t.PRF()
		return fmt.Sprintf("%.3f", f)
	}
	for _, k := range order {
		t := tallies[k]
		p, r, _ := t.dev.PRF()
		fmt.Fprintf(&md, "| %s | %s | %s | %.3f | %.3f | **%s** | **%s** | %s |\n",
			k, cell(t.dev), cell(t.sealed), p, r, f1cell(t.dev), f1cell(t.sealed), f1cell(t.naive))
	}
	ewtMisses.write(&md, "EWT dev")
	if len(ewtMisses) > 0 {
		fmt.Fprintf(&md, "\nWhat the EWT dev errors are (round 3, counted from `-misses`): of the boundaries missed after a word with no stop, about half come before a lower-case word (forum and review text run on without stops or capitals: \"so sorry to have to cancel | that deal is\", \"depends on the computer | if the computer\") and half before a capital (line breaks lost in mail headers, signatures, job ads and bylines: \"Job Title: Attorney | Location: Houston\", \"The Detroit News | Deb Price | When\"). Neither has a mark on the characters: a capital after a lower-case word is a name or a title as often, and EWT itself joins the same shapes elsewhere (\"Phone: … Fax: …\" stays one sentence, \"Job ID: … Job Title: …\" is split). A colon before a capital is a boundary 13 times in the dev part and not 17 times (\"among them: | Umir Hussain\" split, \"a few months ago: Fahim Ahmad\" not), so no colon rule was added. Measured classes that did carry a rule: an ellipsis written against a clause before \"I\" (EWT dev: ellipsis + capital is a boundary 5 times of 6; the rule held \"I\" back for the Golden Rules' spaced \". . . I\"). Tried and left out: a single \"!\" after a lower-case word before a lower-case word (EWT dev splits there 20 times of 21 and F1 rose to 0.9678, but pySBD's literary text lost F1 (0.9162 → 0.9139) and it contradicts the tested \"alas! the door\"). pySBD's English dev misses are mostly its conventions against UD's: several exclamations inside one quotation kept as one sentence (\"\\\"The Queen! The Queen!\\\" and\"), dotted leaders of a table of contents, letters spaced out (\"W A RN I NG\"). segtok's are abbreviations no table lists before a lower-case word (\"the med. staff\", \"an inf. of\", \"capital lett. that\"), which EWT dev counters (a period before a lower-case word is a boundary there 47 times of 56), and a month (\"13. Jän. 2006\"), which the month table now has with other missing abbreviations (Mrz., mrt., fev., mai.).\n")
	}
	if err := generalization(ctx, &md, *genDir); err != nil {
		return err
	}
	if err := abbrevSection(&md, *abbrevFile); err != nil {
		return err
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
	// Subtitle layout: one long aligned segment (a transcript aligned
	// without sentence splitting), default limits.
	var sb strings.Builder
	var ws []segment.Word
	at = 0
	for i := range 20000 {
		w := [...]string{"the", "river", "runs,", "slowly", "towards", "an", "old", "harbour.", "Then"}[i%9]
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(w)
		ws = append(ws, segment.Word{Word: strings.Trim(w, ",."), Start: at, End: at + 0.3})
		at += 0.35
	}
	long := []segment.Cue{{Text: sb.String(), Start: 0, End: at, Words: ws}}
	var subRates []float64
	for range 5 {
		start := time.Now()
		if _, err := segment.Subtitles(ctx, long, segment.DefaultSubtitleOptions()); err != nil {
			return err
		}
		subRates = append(subRates, float64(len(ws))/time.Since(start).Seconds())
	}
	fmt.Fprintf(&md, "\nSubtitle layout (`segment.Subtitles`, 42 columns, 2 lines, 7 s; one aligned segment of 20000 words, %.0f minutes of speech, median of 5): **%.0f words/s**.\n", at/60, median(subRates))
	fmt.Fprintf(&md, "\nThe machine is shared (2 cores, several engineers), so throughput varies between runs; `go test ./segment -run NONE -bench .` measures the same paths as Go benchmarks.\n")
	if *jsonOut != "" {
		b, err := json.MarshalIndent(now, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if *out == "" {
		_, err := stdout.Write(md.Bytes())
		return err
	}
	old, err := os.ReadFile(*out)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	return os.WriteFile(*out, keepHandWritten(md.Bytes(), old), 0o644)
}

// handMarker starts the hand-written part at the end of the report file,
// which a new run keeps (sections measured by other tools, such as
// scripts/text-api-check.py's "Through the API").
const handMarker = "<!-- hand-written below: segbench -out keeps everything from this line on -->"

// keepHandWritten appends to the new report the part of the old one that
// begins with handMarker, if any.
func keepHandWritten(report, old []byte) []byte {
	i := bytes.Index(old, []byte(handMarker))
	if i < 0 {
		return report
	}
	out := append(bytes.TrimRight(report, "\n"), "\n\n"...)
	return append(out, old[i:]...)
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

// printMisses writes one line per boundary that got and want disagree on:
// FN (missed) or FP (invented), with the text around it and "⏐" at the
// boundary, so the misses can be sorted into classes.
func printMisses(w io.Writer, rel, input string, got, want []string) {
	g, wt := segeval.Ends(got), segeval.Ends(want)
	// offs[k] = byte offset in input just after the k-th non-space rune.
	offs := []int{0}
	for i, r := range input {
		if !unicode.IsSpace(r) {
			offs = append(offs, i+utf8.RuneLen(r))
		}
	}
	show := func(kind string, k int) {
		if k >= len(offs) {
			return
		}
		at := offs[k]
		lo, hi := max(0, at-60), min(len(input), at+40)
		for lo > 0 && !utf8.RuneStart(input[lo]) {
			lo--
		}
		for hi < len(input) && !utf8.RuneStart(input[hi]) {
			hi++
		}
		gap := "none" // the white space at the boundary
		if j := at + len(input[at:]) - len(strings.TrimLeftFunc(input[at:], unicode.IsSpace)); j > at {
			switch n := strings.Count(input[at:j], "\n"); {
			case n == 0:
				gap = "space"
			case n == 1:
				gap = "newline"
			default:
				gap = "blank"
			}
		}
		ctx := strings.Join(strings.Fields(input[lo:at]), " ") + "⏐" + strings.Join(strings.Fields(input[at:hi]), " ")
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", kind, gap, rel, ctx)
	}
	var ks []int
	for k := range wt {
		if !g[k] {
			ks = append(ks, k)
		}
	}
	sort.Ints(ks)
	for _, k := range ks {
		show("FN", k)
	}
	ks = ks[:0]
	for k := range g {
		if !wt[k] {
			ks = append(ks, k)
		}
	}
	sort.Ints(ks)
	for _, k := range ks {
		show("FP", k)
	}
}

// firstRun records each generalization set's score the first time it was
// run, before any rule was changed for it: cases passed with the language
// given and guessed. They are history, not measured again; they estimate
// how the rules of the day fared on text written without looking at them.
var firstRun = map[string][3]int{ // cases, given, guessed
	"generalize.jsonl":  {150, 145, 135},
	"generalize2.jsonl": {111, 107, 104},
	"generalize3.jsonl": {84, 82, 82},
	"generalize4.jsonl": {84, 80, 80},
	"generalize5.jsonl": {32, 27, 27}, // of 34 first run: two datelines dropped as ambiguous (EWT splits after one)
	"generalize6.jsonl": {32, 25, 23},
	"generalize7.jsonl": {166, 157, 152},
	"generalize8.jsonl": {81, 77, 78},
	"generalize9.jsonl": {161, 153, 152},
	// round 4 (issue 10 task E), first run at 319fc3f's rules
	"generalize10.jsonl": {496, 467, 464},
	// round 4's check set, written after round 4's fixes (at d42130f)
	"generalize11.jsonl": {99, 91, 91},
}

// round4FirstRun is round 4's first run per language (given · guessed).
const round4FirstRun = "am 18/18 · 18/18, ar 17/20 · 17/20, bg 18/20 · 19/20, da 19/20 · 19/20, de 21/22 · 21/22, el 17/20 · 17/20, en 46/46 · 46/46, es 20/21 · 19/21, fa 16/17 · 16/17, fr 21/21 · 21/21, hi 18/20 · 18/20, hy 17/18 · 17/18, it 20/21 · 20/21, ja 17/20 · 17/20, kk 18/18 · 18/18, mr 9/10 · 9/10, my 14/15 · 14/15, nl 20/20 · 17/20, pl 19/20 · 19/20, pt 20/20 · 20/20, ru 20/21 · 20/21, sk 12/12 · 12/12, sv 18/20 · 18/20, ur 14/16 · 14/16, zh 18/20 · 18/20"

// generalization scores the generalization sets (segment/testdata/
// generalize*.jsonl: sentences written for the purpose, not taken from any
// suite) with each case's language given and guessed, per set and per
// language, and writes the section to md.
func generalization(ctx context.Context, md *bytes.Buffer, dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "generalize*.jsonl"))
	if err != nil || len(files) == 0 {
		return err
	}
	// In the order the sets were written: generalize.jsonl, 2, …, 10.
	setNumber := func(f string) int {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "generalize"), ".jsonl"))
		if err != nil {
			return 1
		}
		return n
	}
	slices.SortFunc(files, func(a, b string) int { return cmp.Compare(setNumber(a), setNumber(b)) })
	type count struct{ cases, given, guessed int }
	perFile := map[string]*count{}
	perLang := map[string]*count{}
	var langs []string
	for _, f := range files {
		cases, err := readCases(f)
		if err != nil {
			return err
		}
		fc := &count{}
		perFile[filepath.Base(f)] = fc
		for _, c := range cases {
			lc := perLang[c.Lang]
			if lc == nil {
				lc = &count{}
				perLang[c.Lang] = lc
				langs = append(langs, c.Lang)
			}
			fc.cases++
			lc.cases++
			for _, lang := range []string{c.Lang, ""} {
				got, err := segment.Sentences(ctx, c.Input, segment.Options{Language: lang})
				if err != nil {
					return err
				}
				if !slices.Equal(got, c.Sentences) {
					continue
				}
				if lang == "" {
					fc.guessed++
					lc.guessed++
				} else {
					fc.given++
					lc.given++
				}
			}
		}
	}
	pct := func(n, d int) string { return fmt.Sprintf("%d/%d (%.1f %%)", n, d, 100*float64(n)/float64(d)) }
	fmt.Fprintf(md, "\n**Generalization sets** (`segment/testdata/generalize*.jsonl`, run by `TestGeneralize`): sentences written for this purpose, none taken from a suite, ")
	fmt.Fprintf(md, "in every language the Golden Rules cover and the package claims, the way real text in each is written (abbreviations, ordinals with periods, initials, numbered lists and bullets, ")
	fmt.Fprintf(md, "quotations and brackets after a stop, ellipses, addresses and file names, decimals and times, sentences run together, numbered references, the stops of other scripts). ")
	fmt.Fprintf(md, "Each set was run once before any rule was changed for it (*first run*: the rules of the day on text they had never seen); every failure was then fixed by a general rule with its own table test. ")
	fmt.Fprintf(md, "Exact match of the sentence list, with the language given and guessed (as the endpoint runs).\n\n")
	fmt.Fprintf(md, "| set | first run: given | first run: guessed | now: given | now: guessed |\n|---|---:|---:|---:|---:|\n")
	var tot, totFirst count
	for _, f := range files {
		b := filepath.Base(f)
		c, fr := perFile[b], firstRun[b]
		first := [2]string{"–", "–"}
		if fr[0] > 0 {
			first = [2]string{pct(fr[1], fr[0]), pct(fr[2], fr[0])}
		}
		fmt.Fprintf(md, "| %s | %s | %s | **%s** | **%s** |\n", b, first[0], first[1], pct(c.given, c.cases), pct(c.guessed, c.cases))
		tot.cases += c.cases
		tot.given += c.given
		tot.guessed += c.guessed
		if fr[0] > 0 {
			totFirst.cases += fr[0]
			totFirst.given += fr[1]
			totFirst.guessed += fr[2]
		}
	}
	fmt.Fprintf(md, "| all | %s | %s | **%s** | **%s** |\n", pct(totFirst.given, totFirst.cases), pct(totFirst.guessed, totFirst.cases), pct(tot.given, tot.cases), pct(tot.guessed, tot.cases))
	fmt.Fprintf(md, "\nSets 7 and 8 are round 2 (written after the first six were passed, for the kinds those covered thinly: abbreviations of titles, units, months and references; quotations and brackets after a stop; ellipses; lists inline and one per line; dates, money and decimals; URLs, e-mail, file and version names; glued sentences; sentence-final abbreviations; headings; mail greetings and sign-offs). ")
	fmt.Fprintf(md, "Set 9 is round 3 (161 cases in 32 languages, written after sets 1–8 were passed and weighted to what real text has and the suites show thinly: forum and review posts, mails run onto one line with greeting and sign-off, lists and bullets of many glyphs and numbering styles, quotes and parentheses, abbreviations and numbered references in other languages, URLs, e-mail addresses and handles, ellipses, emoticons and emoji). Its first run (153/161 given, 152/161 guessed) missed: a time zone after \"p.m.\" (\"3 p.m. ET\"), emoji after a stop, \"aprox.\" ending a sentence after an amount, Dutch street and chapter abbreviations before a house or chapter number, Hungarian \"du.\" before an hour, Swedish \"dvs.\" with the language guessed as English; two cases of mine contradicted the suites' conventions and were corrected to them (EWT splits a sign-off from the name, \"Cheers,\" | \"Dana\"; the Golden Rules split at the Arabic comma, also in a greeting). Each gap was fixed by a general rule with its own table test (`TestRuleRound3*`). ")
	fmt.Fprintf(md, "One case is marked `xfail` and counted as a failure: a Chinese ellipsis inside a sentence (\"我想……算了吧。\"), written like the Golden Rules' sentence-ending \"……\" before a new clause; no rule on the characters alone tells them apart.\n")
	fmt.Fprintf(md, "\n*Round 4* (set 10, issue 10 task E): 496 cases in 25 languages, every language of the Golden Rules lists and of the suites' folders and Bulgarian, Portuguese and Swedish (about 40 English, 10–22 in each other language), each aimed at one phenomenon: abbreviations of the language with titles and units, dates and ordinals with dots, numbered references, quotes and brackets around sentence ends, ellipses, lists and bullets, URLs and e-mail, initials, times, the scripts' own stops, sentences glued after digits. They were written before any rule change and checked by script against every suite input and the earlier sets (eight repeats of earlier sets were rewritten before the first run). ")
	fmt.Fprintf(md, "First run (rules of 319fc3f): 467/496 given (94.2 %%), 464/496 guessed (93.5 %%); per language given · guessed: %s. ", round4FirstRun)
	fmt.Fprintf(md, "It missed: sentences glued after a score or range (\"terminó 3-1.Los\", in six languages) and in scripts without case (\"افتاد.همه\", \"घडले.सगळे\"), and the Armenian full stop glued to the next word; item numbers of Chinese (\"一、\", \"（1）\") and item numbers whose period is the script's full stop (Urdu \"1۔\", Burmese \"၁။\"); numbered references and units (German \"Satz 1. Weitere\", Greek \"άρθ. 5\", a reference abbreviation after a number as a unit, \"5 т. Машина\", Bulgarian \"ок. 20\" and \"7.45 ч. Бъдете\", Greek \"8 μ.μ. Ελάτε\"), Swedish \"Bl.a. Per\" (the Swedish table had 9 entries), Polish \"2024 r. Proszę\", \"Ver. 2.1\" in Japanese, Devanagari initials and dotted units (\"ए. पी. जे.\", \"5 कि.मी. दौड़ता\"), an Urdu colon before a quotation typed with reversed marks, a Japanese sentence in brackets (\"（詳しくは後述。）まずは\"), and with the language guessed short Dutch and Spanish text. ")
	fmt.Fprintf(md, "Each gap was fixed by a general rule or by table rows, with a table test (`TestRuleRound4*`; every segbench dev figure stayed as it was at each step). One case of mine was corrected to the suites' convention (Arabic \"سنة 1955 م. ودفن\" is split: the Golden Rules begin an Arabic sentence with و after a stop, \"أخرى. وليس\"); two are marked `xfail`, ellipses inside a sentence written as the suites' sentence-ending ones (Japanese \"え…そうなんですか\" against the Japanese suite's \"ですね...当選して\"; Arabic \"لا أعرف... ربما\", with no case to tell); one is `xfail_guessed` (Swedish \"Bl.a. Per\": a guessed document may mix languages, so other languages' starters count, and Italian \"per\" is one). Those three are what remains open. ")
	fmt.Fprintf(md, "Set 11 is round 4's check: 99 new cases in the same 25 languages, written after round 4's fixes and before any further change, on the phenomena those fixes cover, to see whether they are rules rather than cases. Its first run was 91/99 given and guessed; it missed a range of per-cents glued to the next sentence (\"55-60%%.Officials\", \"3-4 %%.Nadie\"), German dates read as a numbered list (\"Am 1. Januar … Ab dem 2. Januar\", split before \"2.\"), a Persian two-letter verb glued (\"شد.همه\"), a Hindi unit before a word (\"2 ली. चाहिए\"), a Swedish street (\"Storg. 5\") and the Greek era before a verb (\"π.Χ. Σώζεται\"). The first four were fixed by rules (`TestRuleRound4Check`); the last two are marked `xfail`: no table or rule tells them from a sentence end (\"Göteborg. 5 personer\" ends one; \"Σώζεται\" is no frequent starter).\n")
	slices.Sort(langs)
	fmt.Fprintf(md, "\nNow, per language (all sets; given · guessed):")
	for i, l := range langs {
		c := perLang[l]
		sep := ","
		if i == len(langs)-1 {
			sep = "."
		}
		fmt.Fprintf(md, " %s %d/%d · %d/%d%s", l, c.given, c.cases, c.guessed, c.cases, sep)
	}
	fmt.Fprintf(md, "\n")
	return nil
}

// missClasses counts the boundaries a suite's dev cases miss (FN) and
// invent (FP) by what precedes them: a stop, a colon, a comma or
// semicolon, a bracket, a dash, a digit, a word (no punctuation at all).
type missClasses map[string][2]int

func (m missClasses) add(input string, got, want []string) {
	g, w := segeval.Ends(got), segeval.Ends(want)
	var runes []rune // the non-space runes of input
	for _, r := range input {
		if !unicode.IsSpace(r) {
			runes = append(runes, r)
		}
	}
	class := func(k int) string {
		if k <= 0 || k > len(runes) {
			return "other"
		}
		switch r := runes[k-1]; {
		case strings.ContainsRune(".!?…", r):
			return "after a stop"
		case r == ':':
			return "after a colon"
		case r == ',' || r == ';':
			return "after a comma or semicolon"
		case strings.ContainsRune(")]}\"'”’»", r):
			return "after a bracket or quote"
		case r == '-' || r == '–' || r == '—' || r == '=':
			return "after a dash or rule"
		case unicode.IsDigit(r):
			return "after a digit, no stop"
		case unicode.IsLetter(r):
			return "after a word, no stop"
		}
		return "other"
	}
	for k := range w {
		if !g[k] {
			c := m[class(k)]
			c[0]++
			m[class(k)] = c
		}
	}
	for k := range g {
		if !w[k] {
			c := m[class(k)]
			c[1]++
			m[class(k)] = c
		}
	}
}

func (m missClasses) write(md *bytes.Buffer, name string) {
	if len(m) == 0 {
		return
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := m[keys[i]], m[keys[j]]
		if a[0]+a[1] != b[0]+b[1] {
			return a[0]+a[1] > b[0]+b[1]
		}
		return keys[i] < keys[j]
	})
	fmt.Fprintf(md, "\n**%s boundary errors by class** (what precedes the boundary; `-misses` lists each in context):\n\n| class | missed (FN) | invented (FP) |\n|---|---:|---:|\n", name)
	for _, k := range keys {
		fmt.Fprintf(md, "| %s | %d | %d |\n", k, m[k][0], m[k][1])
	}
}

// abbrevSection writes the entries per language of the segmenter's
// abbreviation table (segment/data/abbreviations.tsv): the hand-written
// ones (the tables before the lists of pragmatic_segmenter and pySBD were
// taken), the taken ones in use, and the taken ones kept only as a record.
func abbrevSection(md *bytes.Buffer, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("abbreviation table: %w", err)
	}
	type count struct{ hand, taken, word, letter, prefix, form int }
	counts := map[string]*count{}
	var langs []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, "\t")
		if line == "" || line[0] == '#' || len(f) != 4 {
			continue
		}
		c := counts[f[0]]
		if c == nil {
			c = &count{}
			counts[f[0]] = c
			langs = append(langs, f[0])
		}
		switch used := f[1] == "title" || f[1] == "plain" || f[1] == "num" || f[1] == "lower"; {
		case used && f[3] == "hand":
			c.hand++
		case used:
			c.taken++
		case f[1] == "word":
			c.word++
		case f[1] == "letter":
			c.letter++
		case f[1] == "prefix":
			c.prefix++
		case f[1] == "form":
			c.form++
		}
	}
	sort.Strings(langs)
	fmt.Fprintf(md, "\n**Abbreviation lists per language** (`segment/data/abbreviations.tsv`, issue 10 task F). The hand-written tables (before) are completed by the per-language lists of pragmatic_segmenter and pySBD (MIT; facts re-entered, see NOTICE) for every language those lists cover. A taken entry is used only where the hand-written tables lack it, for its own language, and binds as those lists' rule binds it: before a lower-case word, a digit or a caseless script, not before a capital (their prepositive entries also before a capital, as plain abbreviations), and not when written in capitals (acronyms: \"NATO.\" ends a sentence). Entries kept as a record but not used, by rule and not case by case: ordinary words of the language (the segmenter's own starter and function words, the language's Debian word list, or for ru, sk and kk the hunspell dictionary's inflected stems; an entry without a vowel is never taken for a word), single letters (left to the rules for initials), Spanish word-forming prefixes (its prepositive list), and forms no single token can match (several words, brackets, digits, Roman numerals). The first run with the taken entries as plain abbreviations (binding before any capital but a sentence starter) cost one generalization case (\"2.º izq. Llame al timbre\": an address abbreviation ending a sentence), which is why they bind only as their own lists' rule does.\n\n")
	fmt.Fprintf(md, "| lang | before (hand-written) | taken, used | after | taken, not used: word / letter / prefix / form |\n|---|---:|---:|---:|---|\n")
	var th, tt int
	for _, l := range langs {
		c := counts[l]
		th += c.hand
		tt += c.taken
		name := l
		if l == "*" {
			name = "shared (every language)"
		}
		fmt.Fprintf(md, "| %s | %d | %d | %d | %d / %d / %d / %d |\n", name, c.hand, c.taken, c.hand+c.taken, c.word, c.letter, c.prefix, c.form)
	}
	fmt.Fprintf(md, "| all | %d | %d | %d | |\n", th, tt, th+tt)
	fmt.Fprintf(md, "\nFigures with the taken lists against the same rules without them (commit 047c85c): every dev and sealed figure of this report is unchanged, dev / sealed: Golden Rules en 100 / 100 %%, others 100 / 100 %%, EWT F1 0.9672 / 0.9656, PUD pooled 0.9957 / 0.9969 (lowest language 0.9919 / 0.9956), pySBD 89.6 / 92.8 %% exact, UD treebanks 0.9873 / 0.9889, segtok 0.9355 / 1.0000, syntok 0.9630 / 1.0000, with the language given and guessed; the generalization sets too. No visible case changed either way, so the suites show no gain; the lists are there for unseen text, and on the suites they cost no boundary (`TestTakenAbbreviations` has a case per language that rests on them). The lists of el, fa, hy, ur, hi, mr, am, my, ja and zh in those projects are their English common list, which the shared entries cover, so nothing was taken for them. Throughput at this change: 12.1 MB/s before and after (sentence mode, English prose, as below).\n")
	return nil
}
