package main

import (
	"os"
	"testing"

	"github.com/sottolabs/sotto/internal/reportcheck"
)

// TestReportKeepsFixedText checks that docs/bench/segment.md holds, whole,
// the fixed text segbench writes (headings, method paragraphs, the rounds'
// notes, table headers; reportcheck.Fragments of 30 bytes or more): the
// report is long and keeps hand-written sections between runs, and a hand
// edit cutting into the generated text would otherwise go unnoticed. A
// change to segbench's prose goes into the report with it (re-run it).
func TestReportKeepsFixedText(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/bench/segment.md")
	if err != nil {
		t.Fatal(err)
	}
	frags, err := reportcheck.Fragments(".", 30, map[string]bool{"Fprintf": true, "Fprintln": false, "write": true, "WriteString": false})
	if err != nil {
		t.Fatal(err)
	}
	if len(frags) < 20 {
		t.Fatalf("only %d fragments of fixed text found in segbench's source", len(frags))
	}
	for _, f := range reportcheck.Missing(string(doc), frags) {
		t.Errorf("docs/bench/segment.md lacks segbench's text %q", f)
	}
}
