package segment

import (
	"bufio"
	"context"
	"encoding/json"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// testdataDir returns $SOTTO_TESTDATA, or ../shared/testdata relative to the
// repository root, skipping the test when it does not exist.
func testdataDir(t testing.TB) string {
	return sharedtestdata.Dir(t, "text", "segment")
}

type suiteCase struct {
	Lang      string   `json:"lang"`
	Class     string   `json:"class"`
	Input     string   `json:"input"`
	Sentences []string `json:"sentences"`
	Xfail     bool     `json:"xfail"`
}

func readSuite(t *testing.T, path string) []suiteCase { return readSuiteTB(t, path) }

func readSuiteTB(t testing.TB, path string) []suiteCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []suiteCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var c suiteCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// normSentence collapses whitespace runs to one space and drops those
// between CJK characters, as the upstream tests strip sentences.
func normSentence(s string) string {
	f := strings.Fields(s)
	var b strings.Builder
	for i, w := range f {
		if i > 0 {
			p, _ := runeBefore(f[i-1], len(f[i-1]))
			q, _ := runeAt(w, 0)
			if !(isCJK(p) && isCJK(q)) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(w)
	}
	return b.String()
}

func sentenceEnds(ss []string) map[int]bool {
	m := map[int]bool{}
	n := 0
	for i, s := range ss {
		for _, r := range s {
			if !unicode.IsSpace(r) {
				n++
			}
		}
		if i < len(ss)-1 {
			m[n] = true
		}
	}
	return m
}

// TestSuites checks the accuracy goals on the shared segmentation suites:
// every non-xfail English Golden Rule, and boundary F1 on the treebanks.
// The full per-suite report is made by segment/internal/segbench.
func TestSuites(t *testing.T) {
	dir := filepath.Join(testdataDir(t), "text", "segment")
	tests := []struct {
		file     string
		minExact float64 // fraction of non-xfail cases matching exactly
		minF1    float64
	}{
		{"en/pragmatic_segmenter/golden_rules.jsonl", 1, 1},
		{"en/pysbd/test_english__GOLDEN_EN_RULES_TEST_CASES.jsonl", 1, 1},
		{"de/pragmatic_segmenter/golden_rules.jsonl", 1, 1},
		{"es/pragmatic_segmenter/golden_rules.jsonl", 1, 1},
		{"it/pragmatic_segmenter/golden_rules.jsonl", 1, 1},
		{"ru/pragmatic_segmenter/golden_rules.jsonl", 1, 1},
		{"ja/pragmatic_segmenter/golden_rules.jsonl", 1, 1},
		{"fr/pysbd/test_french__GOLDEN_FR_RULES_TEST_CASES.jsonl", 1, 1},
		{"zh/pysbd/test_chinese__GOLDEN_ZH_RULES_TEST_CASES.jsonl", 1, 1},
		{"en/ud_english-pud/en_pud-ud-test.sentences.jsonl", 0.98, 0.99},
		{"de/ud_german-pud/de_pud-ud-test.sentences.jsonl", 0.98, 0.99},
		{"fr/ud_french-pud/fr_pud-ud-test.sentences.jsonl", 0.97, 0.99},
		{"es/ud_spanish-pud/es_pud-ud-test.sentences.jsonl", 0.96, 0.99},
		{"ru/ud_russian-pud/ru_pud-ud-test.sentences.jsonl", 0.96, 0.99},
		{"zh/ud_chinese-pud/zh_pud-ud-test.sentences.jsonl", 0.97, 0.99},
		{"en/ud_english-ewt/en_ewt-ud-test.sentences.jsonl", 0.7, 0.9},
		{"ja/ud_japanese-gsd/ja_gsd-ud-test.sentences.jsonl", 0.9, 0.98},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			cases := readSuite(t, filepath.Join(dir, tt.file))
			exact, total, tp, fp, fn := 0, 0, 0, 0, 0
			for _, c := range cases {
				got, err := Sentences(ctx, c.Input, Options{Language: c.Lang})
				if err != nil {
					t.Fatal(err)
				}
				ok := len(got) == len(c.Sentences)
				for i := 0; ok && i < len(got); i++ {
					ok = normSentence(got[i]) == normSentence(c.Sentences[i])
				}
				if c.Xfail {
					continue
				}
				total++
				if ok {
					exact++
				} else if tt.minExact == 1 {
					t.Errorf("Sentences(%q) = %q; want %q", c.Input, got, c.Sentences)
				}
				g, w := sentenceEnds(got), sentenceEnds(c.Sentences)
				for k := range g {
					if w[k] {
						tp++
					} else {
						fp++
					}
				}
				for k := range w {
					if !g[k] {
						fn++
					}
				}
			}
			f1 := 1.0
			if tp+fp+fn > 0 {
				f1 = 2 * float64(tp) / float64(2*tp+fp+fn)
			}
			if frac := float64(exact) / float64(max(total, 1)); frac < tt.minExact {
				t.Errorf("exact match %d/%d = %.3f; want at least %.3f", exact, total, frac, tt.minExact)
			}
			if f1 < tt.minF1 {
				t.Errorf("boundary F1 = %.4f; want at least %.3f", f1, tt.minF1)
			}
		})
	}
}
