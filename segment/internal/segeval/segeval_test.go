package segeval

import "testing"

func TestScoring(t *testing.T) {
	if got := Norm(" 今天  天气 很好。 Hello   world "); got != "今天天气很好。 Hello world" {
		t.Errorf("Norm = %q", got)
	}
	if !Equal([]string{"A  b.", "C."}, []string{"A b.", " C."}) || Equal([]string{"A b. C."}, []string{"A b.", "C."}) {
		t.Error("Equal compares normalized sentences one by one")
	}
	tp, fp, fn := BoundaryCounts([]string{"a b.", "c.", "d e."}, []string{"a b. c.", "d e."})
	if tp != 1 || fp != 1 || fn != 0 {
		t.Errorf("BoundaryCounts = %d %d %d; want 1 1 0", tp, fp, fn)
	}
}
