package normalize_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/normalize/normalizetest"
)

// floors are the exact-match rates (percent, unit-test files) the rules must
// keep on the shared suites; raise them as the rules improve.
var floors = map[[2]string]float64{
	{"en", "tn"}: 93, {"en", "itn"}: 97.5,
	{"de", "tn"}: 95, {"de", "itn"}: 99,
	{"es", "tn"}: 94.5, {"es", "itn"}: 95,
	{"fr", "tn"}: 97, {"fr", "itn"}: 95,
	{"zh", "tn"}: 86, {"zh", "itn"}: 70,
	{"pt", "tn"}: 80, {"pt", "itn"}: 76,
}

// sourceFloors are floors for one suite of a language and mode (percent).
var sourceFloors = map[[3]string]float64{
	{"en", "tn", "nemo"}: 98,
}

func TestSuites(t *testing.T) {
	dir := filepath.Join(testdata(t), "text", "normalize")
	cases, err := normalizetest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Skipf("no normalization suites under %s", dir)
	}
	var unit []normalizetest.Case
	for _, c := range cases {
		if !c.SentenceLevel() {
			unit = append(unit, c)
		}
	}
	rep, err := normalizetest.Run(context.Background(), unit)
	if err != nil {
		t.Fatal(err)
	}
	for k, floor := range sourceFloors {
		got := rep.BySource[k]
		t.Logf("%s/%s/%s: %d/%d = %.1f%%", k[0], k[1], k[2], got.Pass, got.Total, got.Pct())
		if got.Total == 0 || got.Pct() < floor {
			t.Errorf("suite %s/%s/%s accuracy = %.1f%% of %d cases; want ≥ %.1f%%", k[0], k[1], k[2], got.Pct(), got.Total, floor)
		}
	}
	tot := rep.Totals()
	for k, floor := range floors {
		got := tot[k]
		if got.Total == 0 {
			t.Errorf("suite %s/%s: no cases evaluated", k[0], k[1])
			continue
		}
		t.Logf("%s/%s: %d/%d = %.1f%%", k[0], k[1], got.Pass, got.Total, got.Pct())
		if got.Pct() < floor {
			t.Errorf("suite %s/%s accuracy = %.1f%%; want ≥ %.1f%%", k[0], k[1], got.Pct(), floor)
			n := 0
			for _, f := range rep.Failures {
				if f.Case.Lang == k[0] && f.Case.Mode == k[1] && n < 20 {
					t.Logf("  %s %q → %q; want %q", f.Case.Class, f.Case.Input, f.Got, strings.TrimSpace(f.Case.Expected))
					n++
				}
			}
		}
	}
}
