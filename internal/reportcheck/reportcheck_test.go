package reportcheck

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFragments(t *testing.T) {
	dir := t.TempDir()
	src := `package gen

import (
	"fmt"
	"os"
)

func write(w *os.File, n int, name string) {
	fmt.Fprintf(w, "## A heading\n\nSome notes on %d files, 15 %% slower, from "+
		"the run of %s.\n", n, name)
	fmt.Fprintln(w, "A line that Println writes, 100%% literal")
	fmt.Fprintf(w, "| %[1]s before the change | %-8.3f | %[1]s after the change |\n", name, 1.5)
	fmt.Fprintf(os.Stderr, "a message to the console, not the report\n")
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("Closure text before "+name+" and after it.\n")
	_ = fmt.Sprintf("not a write call at all, left out")
}
`
	if err := os.WriteFile(filepath.Join(dir, "gen.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gen_test.go"), []byte("package gen\n// fmt.Fprintln(w, \"in a test file, left out\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Fragments(dir, 8, map[string]bool{"Fprintf": true, "Fprintln": false, "p": true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"## A heading", "Some notes on", "files, 15 % slower, from the run of", "A line that Println writes, 100%% literal", "before the change |", "after the change |", "Closure text before", "and after it."}
	if !slices.Equal(got, want) {
		t.Errorf("Fragments = %q; want %q", got, want)
	}
	report := "## A heading\n\nSome notes on 3 files, 15 % slower, from the run of x.\n| x before the change | 1.500    | x after the change |\nClosure text before x and after it.\n"
	if m := Missing(report, got, "Println"); len(m) != 0 {
		t.Errorf("Missing = %q; want none (the Println line allowed)", m)
	}
	if m := Missing(report[:40], got, "Println"); !slices.Equal(m, []string{"files, 15 % slower, from the run of", "before the change |", "after the change |", "Closure text before", "and after it."}) {
		t.Errorf("Missing on a cut report = %q", m)
	}
}
