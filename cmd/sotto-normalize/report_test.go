package main

import (
	"os"
	"testing"

	"github.com/sottolabs/sotto/internal/reportcheck"
)

// TestReportKeepsFixedText checks that docs/bench/normalize.md holds, whole,
// the fixed text --report writes (the method paragraph, headings, table
// headers; reportcheck.Fragments of 30 bytes or more), so that a hand edit
// cutting into it fails here. A change to report.go's prose goes into the
// report with it (re-run --report).
func TestReportKeepsFixedText(t *testing.T) {
	doc, err := os.ReadFile("../../docs/bench/normalize.md")
	if err != nil {
		t.Fatal(err)
	}
	frags, err := reportcheck.Fragments(".", 30, map[string]bool{"Fprintf": true, "Fprintln": false})
	if err != nil {
		t.Fatal(err)
	}
	if len(frags) < 8 {
		t.Fatalf("only %d fragments of fixed text found in the command's source", len(frags))
	}
	for _, f := range reportcheck.Missing(string(doc), frags) {
		t.Errorf("docs/bench/normalize.md lacks --report's text %q", f)
	}
}
