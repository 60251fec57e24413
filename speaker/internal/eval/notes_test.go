package main

import (
	"os"
	"strings"
	"testing"
)

// TestReportKeepsMethodNotes checks that docs/bench/speaker.md holds the
// method notes whole, as the eval writes them: the report is long, and an
// edit by hand once cut 44 lines of them out without anyone noticing. A
// change to methodNotes goes into the report with it (re-run the eval, or
// splice the notes in between "## Method and why" and the first table).
func TestReportKeepsMethodNotes(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/bench/speaker.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), methodNotes+"## trials.txt") {
		t.Fatal("docs/bench/speaker.md does not hold methodNotes whole, followed by the first table")
	}
}
