package main

import (
	"os"
	"testing"

	"github.com/sottolabs/sotto/internal/reportcheck"
)

// TestReportKeepsFixedText checks that docs/bench/tts.md holds, whole, the
// fixed text this eval writes (headings, the method and scoring paragraphs,
// table headers; reportcheck.Fragments of 30 bytes or more): the report is
// assembled from runs of different sections and edited by hand, and such an
// edit once dropped a clause of the scoring paragraph that explains why a
// row's reference word count can differ by one. A change to the eval's
// prose goes into the report with it (re-run the sections, or splice the
// text in).
func TestReportKeepsFixedText(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/bench/tts.md")
	if err != nil {
		t.Fatal(err)
	}
	frags, err := reportcheck.Fragments(".", 30, map[string]bool{"Fprintf": true, "Fprintln": false})
	if err != nil {
		t.Fatal(err)
	}
	if len(frags) < 20 {
		t.Fatalf("only %d fragments of fixed text found in the eval's source", len(frags))
	}
	// Written only when the human recordings or a tool are missing.
	for _, f := range reportcheck.Missing(string(doc), frags, "comparison skipped", "is not installed") {
		t.Errorf("docs/bench/tts.md lacks the eval's text %q", f)
	}
}
