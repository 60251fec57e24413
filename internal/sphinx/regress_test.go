package sphinx

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// formatAlignment renders word and phone segments (frames) one per line.
func formatAlignment(a *Alignment) string {
	var b strings.Builder
	for wi, w := range a.Words {
		fmt.Fprintf(&b, "%d\t%d\t%s\n", w.Start, w.End, w.Label)
		for _, p := range a.Phones {
			if p.Parent == wi {
				fmt.Fprintf(&b, "\t%d\t%d\t%s\n", p.Start, p.End, p.Label)
			}
		}
	}
	return b.String()
}

// TestAlignRegression pins the engine's own word and phone boundaries on
// two files, so a change to the front end, scoring or search that moves any
// boundary shows up. Refresh with: go test -run TestAlignRegression -update
func TestAlignRegression(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		// Other architectures fuse multiply-adds, which may move a boundary
		// by a frame where two paths tie to within rounding.
		t.Skipf("golden boundaries were recorded on amd64, not %s", runtime.GOARCH)
	}
	m := loadTestModel(t)
	for _, base := range []string{"en_ps_sense0880", "en_jfk"} {
		t.Run(base, func(t *testing.T) {
			x := readWAVFloat(t, speechFile(t, base+"_16k.wav"))
			a, err := m.Align(t.Context(), x, readText(t, base), AlignOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := formatAlignment(a)
			path := filepath.Join("testdata", base+".align.golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("Align(%s) boundaries changed (-want +got):\n%s", base, diff)
			}
		})
	}
}
