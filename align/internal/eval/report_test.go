package main

import (
	"os"
	"testing"

	"github.com/sottolabs/sotto/internal/reportcheck"
)

// TestReportKeepsFixedText checks that docs/bench/align.md holds, whole, the
// fixed text the eval writes (the method paragraphs, headings, table
// headers; reportcheck.Fragments of 30 bytes or more), so that a hand edit
// cutting into it fails here. A change to the eval's prose goes into the
// report with it (re-run it, or splice the text in).
func TestReportKeepsFixedText(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/bench/align.md")
	if err != nil {
		t.Fatal(err)
	}
	frags, err := reportcheck.Fragments(".", 30, map[string]bool{"Fprintf": true, "Fprintln": false, "p": true})
	if err != nil {
		t.Fatal(err)
	}
	if len(frags) < 20 {
		t.Fatalf("only %d fragments of fixed text found in the eval's source", len(frags))
	}
	allowed := []string{
		// Written only when the peer or the phonemizer is missing.
		"not found; the peer columns stay empty", "not installed or -peer=false", "was **nil** in this build",
		// The header of the -tsv file, not of the report.
		"ref_start\tref_end",
		// "Long audio (separate run)" is written by hand from a -long run
		// of ours alone beside the previous day's rows, and says so.
		"concatenated in turn (", "aligned once per aligner against the concatenated reference words",
	}
	for _, f := range reportcheck.Missing(string(doc), frags, allowed...) {
		t.Errorf("docs/bench/align.md lacks the eval's text %q", f)
	}
}
