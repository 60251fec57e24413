package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto/align"
)

// interval is one labelled span of a TextGrid tier, in seconds.
type interval struct {
	xmin, xmax float64
	text       string
}

// tier is one interval tier of a TextGrid.
type tier struct {
	name      string
	intervals []interval
}

// writeTextGrid writes res as a Praat TextGrid in the long text format,
// with the interval tiers "words" and "segments". Each tier covers 0 to the
// audio's duration without gaps or overlaps, as Praat requires: the
// stretches between labelled spans are empty intervals. A span that starts
// before the previous one ends is clipped to start there; one left with no
// length is dropped.
func writeTextGrid(w io.Writer, res *align.Alignment) error {
	xmax := res.Duration
	var words, segs []interval
	for _, s := range res.Segments {
		segs = append(segs, interval{s.Start, s.End, s.Text})
		for _, wd := range s.Words {
			words = append(words, interval{wd.Start, wd.End, wd.Word})
		}
	}
	for _, iv := range append(words, segs...) {
		xmax = max(xmax, iv.xmax)
	}
	tiers := []tier{{"words", tile(words, xmax)}, {"segments", tile(segs, xmax)}}

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\n")
	fmt.Fprintf(bw, "xmin = 0 \nxmax = %s \ntiers? <exists> \nsize = %d \nitem []: \n", num(xmax), len(tiers))
	for i, t := range tiers {
		fmt.Fprintf(bw, "    item [%d]:\n", i+1)
		fmt.Fprintf(bw, "        class = \"IntervalTier\" \n        name = %s \n", quote(t.name))
		fmt.Fprintf(bw, "        xmin = 0 \n        xmax = %s \n        intervals: size = %d \n", num(xmax), len(t.intervals))
		for j, iv := range t.intervals {
			fmt.Fprintf(bw, "        intervals [%d]:\n", j+1)
			fmt.Fprintf(bw, "            xmin = %s \n            xmax = %s \n            text = %s \n", num(iv.xmin), num(iv.xmax), quote(iv.text))
		}
	}
	return bw.Flush()
}

// tile returns spans, in order, with empty intervals filling the gaps so
// that the result covers [0, xmax] exactly.
func tile(spans []interval, xmax float64) []interval {
	out := make([]interval, 0, 2*len(spans)+1)
	cur := 0.0
	for _, s := range spans {
		s.xmin = max(s.xmin, cur)
		s.xmax = min(s.xmax, xmax)
		if s.xmax <= s.xmin {
			continue
		}
		if s.xmin > cur {
			out = append(out, interval{cur, s.xmin, ""})
		}
		s.text = oneLine(s.text)
		out = append(out, s)
		cur = s.xmax
	}
	if cur < xmax || len(out) == 0 {
		out = append(out, interval{cur, xmax, ""})
	}
	return out
}

// oneLine replaces line breaks by spaces: a label is one line of text.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// num formats seconds as Praat does: the shortest exact decimal.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// quote writes s as a Praat string literal: double quotes doubled.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
