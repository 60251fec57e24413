package asr

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/decoder"
)

// TestHistories checks which words carry across region boundaries: the
// last two of the regions before, through close regions, with "<s>"
// when they hold fewer, and none after a long pause or with the option
// off.
func TestHistories(t *testing.T) {
	fp := func(text string) *decoder.FirstPass {
		var ws []decoder.Word
		for _, w := range strings.Fields(text) {
			ws = append(ws, decoder.Word{Text: strings.Trim(w, "[]"), Filler: strings.HasPrefix(w, "[")})
		}
		return &decoder.FirstPass{Result: &decoder.Result{Words: ws}}
	}
	regions := [][2]int{{0, 100}, {150, 300}, {320, 400}, {410, 500}, {700, 800}, {850, 900}}
	first := []*decoder.FirstPass{
		fp("[<sil>] so my fellow [<sil>]"),
		fp("americans [++noise++]"),
		fp("[<sil>]"),
		fp("ask not [<sil>]"),
		fp("what"),
		nil,
	}
	want := [][]string{
		nil,                     // the file's first region
		{"my", "fellow"},        // gap 50 frames
		{"fellow", "americans"}, // through the previous region
		{"fellow", "americans"}, // a region of fillers only is skipped
		nil,                     // gap 200 frames
		{"<s>", "what"},         // one word before a long pause
	}
	if got := histories(regions, first, 100); !reflect.DeepEqual(got, want) {
		t.Errorf("histories = %q; want %q", got, want)
	}
	if got := histories(regions, first, 0); got != nil {
		t.Errorf("histories with the option off = %q; want nil", got)
	}
	// A longer allowed pause reaches across the 200-frame gap.
	if got := histories(regions, first, 250)[4]; !reflect.DeepEqual(got, []string{"ask", "not"}) {
		t.Errorf("history of region 4 with 2.5 s = %q; want [ask not]", got)
	}
}

// TestParseRegionHistory checks the option's values: seconds to frames,
// the default, and errors.
func TestParseRegionHistory(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want int
		err  bool
	}{
		{"", int(defaultRegionHistory * 100), false},
		{"0", 0, false},
		{"1", 100, false},
		{"0.75", 75, false},
		{"-1", 0, true},
		{"x", 0, true},
		{"1s", 0, true},
		{"NaN", 0, true},
	} {
		got, err := parseRegionHistory(map[string]string{OptRegionHistory: tc.v})
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("%s %q = %d, %v; want %d (error %v)", OptRegionHistory, tc.v, got, err, tc.want, tc.err)
		}
	}
}

// TestParseTopN checks OptTopN's values and that the second pass's model
// has that many Gaussians (the model's own without the option).
func TestParseTopN(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want int
		err  bool
	}{{"", 0, false}, {"16", 16, false}, {"0", 0, false}, {"-1", 0, true}, {"8x", 0, true}, {"2000", 0, true}} {
		got, err := parseTopN(map[string]string{OptTopN: tc.v})
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("%s %q = %d, %v; want %d (error %v)", OptTopN, tc.v, got, err, tc.want, tc.err)
		}
	}
}
