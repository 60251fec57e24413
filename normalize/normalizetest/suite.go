// Package normalizetest measures exact-match accuracy of package normalize on the
// JSONL test suites under SOTTO_TESTDATA/text/normalize (schema in that
// folder's MANIFEST.md), through normalize's public API only.
package normalizetest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sottolabs/sotto/normalize"
)

// Case is one line of a normalization JSONL suite.
type Case struct {
	Lang             string         `json:"lang"`
	Mode             string         `json:"mode"`
	Class            string         `json:"class"`
	Input            string         `json:"input"`
	Expected         string         `json:"expected"`
	Accepted         []string       `json:"accepted"`
	Options          map[string]any `json:"options"`
	Nondeterministic bool           `json:"nondeterministic"`
	// Source is the suite directory below the language ("nemo", "wetext",
	// "nemo_eval") and File the file name; both are filled by Load.
	Source string `json:"-"`
	File   string `json:"-"`
}

// SentenceLevel reports whether the case comes from a sentence-level
// evaluation set rather than a unit-test file.
func (c Case) SentenceLevel() bool { return c.Source == "nemo_eval" }

// NormalizeOptions returns the options the case is run with: its language
// and mode, top_k 8, and the spacing its upstream normalizer asserts. NeMo's
// TN sets conversions off from adjacent punctuation unless
// punct_post_process is on (then it restores the input's spacing), so NeMo
// TN cases without that option run with [normalize.SpacingSeparate].
func (c Case) NormalizeOptions() normalize.Options {
	o := normalize.Options{Language: c.Lang, Mode: normalize.Mode(c.Mode), TopK: 8, Spacing: normalize.SpacingKeep}
	if c.Source == "nemo" && c.Mode == "tn" && c.Options["punct_post_process"] != true {
		o.Spacing = normalize.SpacingSeparate
	}
	return o
}

// Load reads every *.jsonl file below dir (the text/normalize folder).
func Load(dir string) ([]Case, error) {
	var cases []Case
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		src := ""
		for _, p := range parts[:len(parts)-1] {
			if p == "nemo" || p == "nemo_eval" || p == "wetext" {
				src = p
			}
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			if len(strings.TrimSpace(sc.Text())) == 0 {
				continue
			}
			var c Case
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			c.Source, c.File = src, filepath.Base(path)
			cases = append(cases, c)
		}
		return sc.Err()
	})
	return cases, err
}

// Canon collapses white space runs to one space and trims the ends; NeMo's
// normalizer does the same to its output, so comparisons use it on both
// sides.
func Canon(s string) string { return strings.Join(strings.Fields(s), " ") }

// Correct reports whether got matches the expected output or any accepted one.
func (c Case) Correct(got string) bool {
	g := Canon(got)
	if g == Canon(c.Expected) {
		return true
	}
	for _, a := range c.Accepted {
		if g == Canon(a) {
			return true
		}
	}
	return false
}

// Key groups results.
type Key struct{ Lang, Mode, Class string }

// Tally counts cases. Pass counts the best alternative; AnyPass counts a case
// when any of the top 8 alternatives matches (the n-best view NeMo's
// non-deterministic suites use).
type Tally struct{ Pass, AnyPass, Total int }

// AnyPct is the top-8 pass rate in percent.
func (t Tally) AnyPct() float64 {
	if t.Total == 0 {
		return 0
	}
	return 100 * float64(t.AnyPass) / float64(t.Total)
}

// Pct is the pass rate in percent.
func (t Tally) Pct() float64 {
	if t.Total == 0 {
		return 0
	}
	return 100 * float64(t.Pass) / float64(t.Total)
}

// Failure is one wrong answer.
type Failure struct {
	Case Case
	Got  string
	Err  error
}

// Report is the outcome of Run.
type Report struct {
	Unit        map[Key]Tally       // unit-test files, per class
	BySource    map[[3]string]Tally // unit-test files per language, mode and suite (nemo, wetext)
	Sentence    map[string]Tally
	Unsupported map[string]int // cases skipped because the language has no rules
	Failures    []Failure
}

// Run normalizes every case through normalize.Normalize with top_k 8 and
// scores the best alternative (Pass) and any alternative (AnyPass). A
// non-deterministic case (NeMo's normalize_with_audio suite, whose upstream
// test checks an n-best list) passes when any alternative matches.
func Run(ctx context.Context, cases []Case) (*Report, error) {
	r := &Report{Unit: map[Key]Tally{}, BySource: map[[3]string]Tally{}, Sentence: map[string]Tally{}, Unsupported: map[string]int{}}
	supported := map[string]bool{}
	for _, l := range normalize.Languages() {
		supported[l] = true
	}
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !supported[c.Lang] {
			r.Unsupported[c.Lang+"/"+c.Mode]++
			continue
		}
		got := ""
		var err error
		anyOK := c.Input == "" && c.Correct("")
		if c.Input != "" {
			var res *normalize.Result
			res, err = normalize.Normalize(ctx, c.Input, c.NormalizeOptions())
			if err == nil {
				got = res.Best()
				for _, a := range res.Alternatives {
					anyOK = anyOK || c.Correct(a.Text)
				}
			}
		}
		// A non-deterministic case is asserted upstream against the
		// n-best list of NeMo's audio-based normalizer, so any of our
		// ranked alternatives may hit one of its accepted outputs.
		ok := err == nil && (c.Correct(got) || c.Nondeterministic && anyOK)
		add := func(t Tally) Tally {
			t.Total++
			if ok {
				t.Pass++
			}
			if ok || anyOK {
				t.AnyPass++
			}
			return t
		}
		if c.SentenceLevel() {
			k := strings.TrimSuffix(c.File, ".jsonl")
			r.Sentence[k] = add(r.Sentence[k])
		} else {
			k := Key{c.Lang, c.Mode, c.Class}
			r.Unit[k] = add(r.Unit[k])
			ks := [3]string{c.Lang, c.Mode, c.Source}
			r.BySource[ks] = add(r.BySource[ks])
		}
		if !ok {
			r.Failures = append(r.Failures, Failure{c, got, err})
		}
	}
	return r, nil
}

// Totals sums the unit tallies per language and mode.
func (r *Report) Totals() map[[2]string]Tally {
	m := map[[2]string]Tally{}
	for k, t := range r.Unit {
		x := m[[2]string{k.Lang, k.Mode}]
		x.Pass += t.Pass
		x.AnyPass += t.AnyPass
		x.Total += t.Total
		m[[2]string{k.Lang, k.Mode}] = x
	}
	return m
}

// Markdown writes the report as markdown tables.
func (r *Report) Markdown(w io.Writer) {
	tot := r.Totals()
	var lm [][2]string
	for k := range tot {
		lm = append(lm, k)
	}
	slices.SortFunc(lm, func(a, b [2]string) int { return strings.Compare(a[0]+a[1], b[0]+b[1]) })
	fmt.Fprintln(w, "| language | mode | cases | exact match (best) | any of top 8 |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: |")
	for _, k := range lm {
		t := tot[k]
		fmt.Fprintf(w, "| %s | %s | %d | %.1f%% | %.1f%% |\n", k[0], k[1], t.Total, t.Pct(), t.AnyPct())
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Per suite:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| language | mode | suite | cases | exact match (best) | any of top 8 |")
	fmt.Fprintln(w, "| --- | --- | --- | ---: | ---: | ---: |")
	var sk [][3]string
	for k := range r.BySource {
		sk = append(sk, k)
	}
	slices.SortFunc(sk, func(a, b [3]string) int { return strings.Compare(a[0]+a[1]+a[2], b[0]+b[1]+b[2]) })
	for _, k := range sk {
		t := r.BySource[k]
		fmt.Fprintf(w, "| %s | %s | %s | %d | %.1f%% | %.1f%% |\n", k[0], k[1], k[2], t.Total, t.Pct(), t.AnyPct())
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Per class (unit-test files):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| language | mode | class | cases | exact match |")
	fmt.Fprintln(w, "| --- | --- | --- | ---: | ---: |")
	var keys []Key
	for k := range r.Unit {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int {
		return strings.Compare(a.Lang+"\x00"+a.Mode+"\x00"+a.Class, b.Lang+"\x00"+b.Mode+"\x00"+b.Class)
	})
	for _, k := range keys {
		t := r.Unit[k]
		fmt.Fprintf(w, "| %s | %s | %s | %d | %.1f%% |\n", k.Lang, k.Mode, k.Class, t.Total, t.Pct())
	}
	if len(r.Sentence) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Sentence-level evaluation sets (English TN):")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| set | sentences | sentence accuracy (best) | any of top 8 |")
		fmt.Fprintln(w, "| --- | ---: | ---: | ---: |")
		var ss []string
		for k := range r.Sentence {
			ss = append(ss, k)
		}
		slices.Sort(ss)
		for _, k := range ss {
			t := r.Sentence[k]
			fmt.Fprintf(w, "| %s | %d | %.1f%% | %.1f%% |\n", k, t.Total, t.Pct(), t.AnyPct())
		}
	}
	if len(r.Unsupported) > 0 {
		fmt.Fprintln(w)
		var us []string
		for k, n := range r.Unsupported {
			us = append(us, fmt.Sprintf("%s (%d)", k, n))
		}
		slices.Sort(us)
		fmt.Fprintf(w, "Not evaluated (no rules yet): %s.\n", strings.Join(us, ", "))
	}
}
