package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeptNotes checks that a regenerated report keeps the hand-written
// part of the old one whole, from the marker on, and that a new report
// gets the marker alone.
func TestKeptNotes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "asr.md")
	if got, want := keptNotes(path), "\n"+keptMarker+"\n"; got != want {
		t.Errorf("new report: %q, want %q", got, want)
	}
	hand := keptMarker + "\n\n## Measured by hand\n\n- a note with a | pipe and ## a heading sign\n\n## What remains\n\nlast line without a newline"
	if err := os.WriteFile(path, []byte("# generated\n\n| a | b |\n|---|---|\n\n## Notes\n\n- generated note\n\n"+hand), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := keptNotes(path), "\n"+hand; got != want {
		t.Errorf("kept %q, want %q", got, want)
	}
}

// TestReportHoldsNotes checks docs/bench/asr.md against the notes the eval
// writes: the generated notes stand whole, in order, in front of the one
// marker of the hand-written part. It fails when a note's text in this
// file changed and the report was not regenerated, or when a hand edit cut
// into the generated part.
func TestReportHoldsNotes(t *testing.T) {
	b, err := os.ReadFile("../../../docs/bench/asr.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if n := strings.Count(doc, keptMarker); n != 1 {
		t.Fatalf("docs/bench/asr.md holds the hand-written part's marker %d times, want 1", n)
	}
	gen := doc[:strings.Index(doc, keptMarker)]
	if !strings.Contains(gen, adaptNote) {
		t.Error("docs/bench/asr.md does not hold adaptNote whole")
	}
	if !strings.Contains(gen, latticeNote+sweepNote+lm2Note) {
		t.Error("docs/bench/asr.md does not hold latticeNote, sweepNote and lm2Note whole, in that order")
	}
}
