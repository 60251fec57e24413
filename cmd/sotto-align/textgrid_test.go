package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sottolabs/sotto/align"
)

// parseTextGrid reads a Praat TextGrid in the long text format with
// interval tiers, checking what Praat checks: the header, the declared
// sizes, and intervals that tile each tier from xmin to xmax.
func parseTextGrid(data []byte) ([]tier, float64, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	var lines []string
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	pos := 0
	next := func() (string, error) {
		if pos >= len(lines) {
			return "", fmt.Errorf("unexpected end of file")
		}
		pos++
		return lines[pos-1], nil
	}
	field := func(key string) (string, error) {
		l, err := next()
		if err != nil {
			return "", err
		}
		k, v, ok := strings.Cut(l, " = ")
		if !ok || k != key {
			return "", fmt.Errorf("line %d: %q; want %s = …", pos, l, key)
		}
		return strings.TrimSpace(v), nil
	}
	number := func(key string) (float64, error) {
		v, err := field(key)
		if err != nil {
			return 0, err
		}
		return strconv.ParseFloat(v, 64)
	}
	str := func(key string) (string, error) {
		v, err := field(key)
		if err != nil {
			return "", err
		}
		if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
			return "", fmt.Errorf("line %d: %s is not a string: %s", pos, key, v)
		}
		inner := v[1 : len(v)-1]
		if strings.Count(inner, `"`)%2 != 0 || strings.Contains(strings.ReplaceAll(inner, `""`, ""), `"`) {
			return "", fmt.Errorf("line %d: bad quoting in %s", pos, v)
		}
		return strings.ReplaceAll(inner, `""`, `"`), nil
	}
	expect := func(want string) error {
		l, err := next()
		if err == nil && l != want {
			err = fmt.Errorf("line %d: %q; want %q", pos, l, want)
		}
		return err
	}
	if ft, err := str("File type"); err != nil || ft != "ooTextFile" {
		return nil, 0, fmt.Errorf("file type %q: %v", ft, err)
	}
	if oc, err := str("Object class"); err != nil || oc != "TextGrid" {
		return nil, 0, fmt.Errorf("object class %q: %v", oc, err)
	}
	xmin, err := number("xmin")
	if err != nil {
		return nil, 0, err
	}
	xmax, err := number("xmax")
	if err != nil {
		return nil, 0, err
	}
	if err := expect("tiers? <exists>"); err != nil {
		return nil, 0, err
	}
	n, err := number("size")
	if err != nil {
		return nil, 0, err
	}
	if err := expect("item []:"); err != nil {
		return nil, 0, err
	}
	var tiers []tier
	for i := range int(n) {
		if err := expect(fmt.Sprintf("item [%d]:", i+1)); err != nil {
			return nil, 0, err
		}
		if c, err := str("class"); err != nil || c != "IntervalTier" {
			return nil, 0, fmt.Errorf("tier %d class %q: %v", i+1, c, err)
		}
		var t tier
		if t.name, err = str("name"); err != nil {
			return nil, 0, err
		}
		tmin, err := number("xmin")
		if err != nil {
			return nil, 0, err
		}
		tmax, err := number("xmax")
		if err != nil {
			return nil, 0, err
		}
		m, err := number("intervals: size")
		if err != nil {
			return nil, 0, err
		}
		cur := tmin
		for j := range int(m) {
			if err := expect(fmt.Sprintf("intervals [%d]:", j+1)); err != nil {
				return nil, 0, err
			}
			var iv interval
			if iv.xmin, err = number("xmin"); err != nil {
				return nil, 0, err
			}
			if iv.xmax, err = number("xmax"); err != nil {
				return nil, 0, err
			}
			if iv.text, err = str("text"); err != nil {
				return nil, 0, err
			}
			if iv.xmin != cur || iv.xmax <= iv.xmin {
				return nil, 0, fmt.Errorf("tier %q interval %d [%v, %v] does not continue at %v", t.name, j+1, iv.xmin, iv.xmax, cur)
			}
			cur = iv.xmax
			t.intervals = append(t.intervals, iv)
		}
		if cur != tmax || tmin != xmin || tmax != xmax {
			return nil, 0, fmt.Errorf("tier %q covers [%v, %v]; want [%v, %v]", t.name, tmin, cur, xmin, xmax)
		}
		tiers = append(tiers, t)
	}
	if pos != len(lines) {
		return nil, 0, fmt.Errorf("line %d: trailing %q", pos+1, lines[pos])
	}
	return tiers, xmax, nil
}

// labelled returns the non-empty intervals of t.
func labelled(t tier) []interval {
	var out []interval
	for _, iv := range t.intervals {
		if iv.text != "" {
			out = append(out, iv)
		}
	}
	return out
}

func TestWriteTextGrid(t *testing.T) {
	res := &align.Alignment{Duration: 3, Segments: []align.Segment{
		{Start: 0.2, End: 1.4, Text: `He said "hi".`, Words: []align.Word{
			{Word: "He", Start: 0.2, End: 0.5}, {Word: "said", Start: 0.5, End: 0.9}, {Word: `"hi".`, Start: 1.1, End: 1.4}}},
		// Overlaps the previous segment and word; a zero-length word is dropped.
		{Start: 1.3, End: 3.2, Text: "Two\nlines", Words: []align.Word{
			{Word: "Two", Start: 1.35, End: 2}, {Word: "gone", Start: 2, End: 2}, {Word: "lines", Start: 2.5, End: 3.2}}},
	}}
	var buf bytes.Buffer
	if err := writeTextGrid(&buf, res); err != nil {
		t.Fatal(err)
	}
	tiers, xmax, err := parseTextGrid(buf.Bytes())
	if err != nil {
		t.Fatalf("parseTextGrid: %v\n%s", err, buf.String())
	}
	if xmax != 3.2 {
		t.Errorf("xmax = %v; want 3.2 (the latest end)", xmax)
	}
	want := []tier{
		{"words", []interval{{0, 0.2, ""}, {0.2, 0.5, "He"}, {0.5, 0.9, "said"}, {0.9, 1.1, ""}, {1.1, 1.4, `"hi".`},
			{1.4, 2, "Two"}, {2, 2.5, ""}, {2.5, 3.2, "lines"}}},
		{"segments", []interval{{0, 0.2, ""}, {0.2, 1.4, `He said "hi".`}, {1.4, 3.2, "Two lines"}}},
	}
	if diff := cmp.Diff(want, tiers, cmp.AllowUnexported(tier{}, interval{})); diff != "" {
		t.Errorf("parseTextGrid(writeTextGrid(…)) mismatch (-want +got):\n%s", diff)
	}
}

func TestWriteTextGridEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := writeTextGrid(&buf, &align.Alignment{Duration: 1.5}); err != nil {
		t.Fatal(err)
	}
	tiers, _, err := parseTextGrid(buf.Bytes())
	if err != nil {
		t.Fatalf("parseTextGrid: %v\n%s", err, buf.String())
	}
	for _, tr := range tiers {
		if got := tr.intervals; len(got) != 1 || got[0] != (interval{0, 1.5, ""}) {
			t.Errorf("tier %q = %v; want one empty interval [0, 1.5]", tr.name, got)
		}
	}
}

// FuzzTextGrid writes arbitrary labels and times and parses them back: the
// file must stay valid and keep every label that has a length.
func FuzzTextGrid(f *testing.F) {
	f.Add("montreal", `forced "aligner"`, 0.0, 0.55, 0.91, 1.36)
	f.Add("a\nb", "", 1.0, 0.5, 0.5, 0.2)
	f.Add(`""`, "x = y", -1.0, 1e-9, 2.0, 1e5)
	f.Fuzz(func(t *testing.T, w1, w2 string, a, b, c, d float64) {
		for _, x := range []float64{a, b, c, d} {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e6 {
				t.Skip()
			}
		}
		res := &align.Alignment{Duration: math.Abs(d), Segments: []align.Segment{{Start: a, End: c, Text: w1 + " " + w2,
			Words: []align.Word{{Word: w1, Start: a, End: b}, {Word: w2, Start: b, End: c}}}}}
		var buf bytes.Buffer
		if err := writeTextGrid(&buf, res); err != nil {
			t.Fatal(err)
		}
		tiers, _, err := parseTextGrid(buf.Bytes())
		if err != nil {
			t.Fatalf("parseTextGrid(writeTextGrid(%q, %q, %v, %v, %v, %v)): %v\n%s", w1, w2, a, b, c, d, err, buf.String())
		}
		if len(tiers) != 2 {
			t.Fatalf("got %d tiers; want 2", len(tiers))
		}
		for _, iv := range labelled(tiers[0]) {
			if iv.text != oneLine(w1) && iv.text != oneLine(w2) {
				t.Errorf("word label %q; want %q or %q", iv.text, oneLine(w1), oneLine(w2))
			}
		}
	})
}
