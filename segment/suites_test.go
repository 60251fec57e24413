package segment

import (
	"bufio"
	"context"
	"encoding/json"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/segment/internal/segeval"
	"os"
	"path/filepath"
	"testing"
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

	// XfailGuessed marks a generalization case known to fail with the
	// language guessed (too little text to tell the language).
	XfailGuessed bool `json:"xfail_guessed"`
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

// TestSuites checks the accuracy goals on the dev part of the shared
// segmentation suites: every non-xfail English Golden Rule, and boundary F1
// on the treebanks. Sealed cases (segeval.Sealed, a fixed 30 % of every
// suite) are scored and their aggregate logged, but never listed or
// asserted: rules are not tuned on them. The full per-suite report, dev and
// sealed side by side, is made by segment/internal/segbench.
func TestSuites(t *testing.T) {
	dir := filepath.Join(testdataDir(t), "text", "segment")
	tests := []struct {
		file     string
		minExact float64 // fraction of non-xfail dev cases matching exactly
		minF1    float64 // boundary F1 on the dev cases
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
		{"ar/pragmatic_segmenter/golden_rules.jsonl", 1, 1},
		{"ar/pysbd/test_arabic__GOLDEN_AR_RULES_TEST_CASES.jsonl", 1, 1},
		{"en/ud_english-pud/en_pud-ud-test.sentences.jsonl", 0.98, 0.99},
		{"de/ud_german-pud/de_pud-ud-test.sentences.jsonl", 0.98, 0.99},
		{"fr/ud_french-pud/fr_pud-ud-test.sentences.jsonl", 0.97, 0.99},
		{"es/ud_spanish-pud/es_pud-ud-test.sentences.jsonl", 0.96, 0.99},
		{"ru/ud_russian-pud/ru_pud-ud-test.sentences.jsonl", 0.96, 0.99},
		{"zh/ud_chinese-pud/zh_pud-ud-test.sentences.jsonl", 0.97, 0.99},
		{"en/ud_english-ewt/en_ewt-ud-test.sentences.jsonl", 0.78, 0.95},
		{"ja/ud_japanese-gsd/ja_gsd-ud-test.sentences.jsonl", 0.9, 0.98},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			cases := readSuite(t, filepath.Join(dir, tt.file))
			var dev, sealed segeval.Tally
			for _, c := range cases {
				got, err := Sentences(ctx, c.Input, Options{Language: c.Lang})
				if err != nil {
					t.Fatal(err)
				}
				if segeval.Sealed(c.Input) {
					sealed.Add(got, c.Sentences, c.Xfail)
					continue
				}
				if !dev.Add(got, c.Sentences, c.Xfail) && !c.Xfail && tt.minExact == 1 {
					t.Errorf("Sentences(%q) = %q; want %q", c.Input, got, c.Sentences)
				}
			}
			_, _, f1 := dev.PRF()
			if frac := dev.ExactFrac(); frac < tt.minExact {
				t.Errorf("dev exact match %d/%d = %.3f; want at least %.3f", dev.Exact, dev.Cases, frac, tt.minExact)
			}
			if f1 < tt.minF1 {
				t.Errorf("dev boundary F1 = %.4f; want at least %.3f", f1, tt.minF1)
			}
			_, _, sf1 := sealed.PRF()
			t.Logf("dev %d/%d exact, F1 %.4f; sealed %d/%d exact, F1 %.4f",
				dev.Exact, dev.Cases, f1, sealed.Exact, sealed.Cases, sf1)
		})
	}
}
