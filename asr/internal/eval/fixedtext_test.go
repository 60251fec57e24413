package main

import (
	"os"
	"testing"

	"github.com/sottolabs/sotto/internal/reportcheck"
)

// TestReportKeepsFixedText checks that docs/bench/asr.md holds, whole, the
// fixed text the eval writes (headings, table headers, the lead and every
// sentence written in Fprint calls; reportcheck.Fragments of 30 bytes or
// more), beside TestReportHoldsNotes, which checks the named notes and
// their order: a hand edit cutting into any of it fails here. A change to the eval's prose goes into the report
// with it (re-run the eval, or splice the text in).
func TestReportKeepsFixedText(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/bench/asr.md")
	if err != nil {
		t.Fatal(err)
	}
	frags, err := reportcheck.Fragments(".", 30, map[string]bool{"Fprintf": true, "Fprintln": false})
	if err != nil {
		t.Fatal(err)
	}
	if len(frags) < 10 {
		t.Fatalf("only %d fragments of fixed text found in the eval's source", len(frags))
	}
	// The error analysis (analysis.go) goes to the -analysis file, not
	// to the report.
	allowed := []string{"are not in the pronouncing dictionary", "share of errors", "five recordings with most errors"}
	for _, f := range reportcheck.Missing(string(doc), frags, allowed...) {
		t.Errorf("docs/bench/asr.md lacks the eval's text %q", f)
	}
}
