package holdout

import (
	"fmt"
	"testing"
)

// The split is fixed: these inputs must stay on their side forever, or every
// figure reported against the sealed part loses its meaning.
func TestSplitIsFixed(t *testing.T) {
	for in, want := range map[string]string{
		"$12.50":             "sealed",
		"1st":                "sealed",
		"Dr. Smith arrived.": "sealed",
		"3:30 pm":            "dev",
		"twenty three":       "dev",
		"ein":                "dev",
	} {
		if got := Part(in); got != want {
			t.Errorf("Part(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestShare(t *testing.T) {
	n := 0
	const total = 100000
	for i := range total {
		if Sealed(fmt.Sprintf("case %d", i)) {
			n++
		}
	}
	if n < total*28/100 || n > total*32/100 {
		t.Fatalf("sealed %d of %d, want about %d%%", n, total, Percent)
	}
}
