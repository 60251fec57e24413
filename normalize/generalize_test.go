package normalize_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/normalize/normalizetest"
)

// TestGeneralize runs the project's own generalization set
// (testdata/generalize/<lang>_<mode>.jsonl): cases written in the style of
// the NeMo and WeTextProcessing unit-test files, with other numbers, units,
// currencies and words, to measure the rules on text they were not written
// against. Scoring is the strict one (top_k 1, language and mode only).
// Every case must pass except those listed in testdata/generalize/open.txt
// or in a round's own roundN/open.txt (lang/mode TAB input TAB reason),
// which are reported, and which must still fail (a case fixed is taken off
// the list).
func TestGeneralize(t *testing.T) {
	dir := filepath.Join("testdata", "generalize")
	cases, err := normalizetest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 300 {
		t.Fatalf("generalization set has %d cases; want ≥ 300", len(cases))
	}
	open := readOpen(t, filepath.Join(dir, "open.txt"))
	// Later rounds keep their own list beside their cases.
	for _, round := range []string{"round8"} {
		for id := range readOpen(t, filepath.Join(dir, round, "open.txt")) {
			open[id] = true
		}
	}
	type key struct{ lang, mode, class string }
	pass, total := map[key]int{}, map[key]int{}
	for _, c := range cases {
		res, err := normalizetestNormalize(c)
		got := ""
		if err == nil {
			got = res
		}
		ok := err == nil && c.Correct(got)
		id := c.Lang + "/" + c.Mode + "\t" + c.Input
		for _, k := range []key{{c.Lang, c.Mode, ""}, {c.Lang, c.Mode, c.Class}} {
			total[k]++
			if ok {
				pass[k]++
			}
		}
		switch {
		case !ok && !open[id]:
			t.Errorf("%s/%s/%s %q: got %q (err %v), want %q", c.Lang, c.Mode, c.Class, c.Input, got, err, c.Expected)
		case ok && open[id]:
			t.Errorf("%s/%s %q passes now: take it off open.txt", c.Lang, c.Mode, c.Input)
		}
	}
	keys := make([]key, 0, len(total))
	for k := range total {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return strings.Compare(a.lang+a.mode+"\x00"+a.class, b.lang+b.mode+"\x00"+b.class)
	})
	for _, k := range keys {
		cl := k.class
		if cl == "" {
			cl = "all"
		}
		t.Logf("| %s | %s | %s | %d | %.1f%% |", k.lang, k.mode, cl, total[k], 100*float64(pass[k])/float64(total[k]))
	}
}

// normalizetestNormalize runs c as the strict scoring does: its language
// and mode, the API's defaults, the best answer.
func normalizetestNormalize(c normalizetest.Case) (string, error) {
	res, err := normalize.Normalize(context.Background(), c.Input, c.StrictOptions())
	if err != nil {
		return "", err
	}
	return res.Best(), nil
}

// readOpen reads the open-case list: "lang/mode TAB input TAB reason" lines,
// # comments and blank lines ignored.
func readOpen(t *testing.T, path string) map[string]bool {
	t.Helper()
	m := map[string]bool{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return m
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			t.Fatal(fmt.Errorf("%s: want lang/mode TAB input TAB reason: %q", path, line))
		}
		m[f[0]+"\t"+f[1]] = true
	}
	return m
}
