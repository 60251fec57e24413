package normalizetest

import (
	"context"
	"testing"
)

// TestRunStrictAsTheAPI checks that strict scoring counts what the HTTP API
// would answer: an empty input is refused there (400, the spec's text is
// non-empty), so it is wrong here even when the suite expects "".
func TestRunStrictAsTheAPI(t *testing.T) {
	cases := []Case{
		{Lang: "en", Mode: "tn", Class: "word", Input: "", Expected: ""},
		{Lang: "en", Mode: "tn", Class: "cardinal", Input: "5", Expected: "five"},
		{Lang: "en", Mode: "itn", Class: "cardinal", Input: "twenty five", Expected: "25"},
		{Lang: "en", Mode: "tn", Class: "cardinal", Input: "7", Expected: "six"},
	}
	r, err := RunStrict(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"word": {0, 1}, "cardinal": {2, 3}}
	for class, pt := range want {
		var pass, total int
		for k, v := range r.Tally {
			if k.Class == class {
				pass += v.Pass
				total += v.Total
			}
		}
		if pass != pt[0] || total != pt[1] {
			t.Errorf("class %s: %d of %d right; want %d of %d", class, pass, total, pt[0], pt[1])
		}
	}
	for _, f := range r.Failures {
		if f.Case.Input == "" && f.Err == nil {
			t.Errorf("empty input failed without the API's error")
		}
	}
}
