package normalize

import (
	"strings"
	"unicode"

	"github.com/sottolabs/sotto/internal/nfc"
)

// This file holds what Normalize does to the shape of the input before the
// rules see it: the text is read in Unicode NFC (readForm), and each line,
// without the white space around it, is matched alone (lines).

// readForm returns the text the rules read: text with every run of
// characters that compose with each other (a letter and the marks after
// it) in Unicode NFC, so that decomposed input ("fünf" written u + U+0308,
// as macOS file names and some editors give it) reads as composed input. A
// run holding a character NFC would replace by another is kept as written:
// the composition exclusions such as Devanagari ढ़ (U+095D, NFC ढ + nukta)
// and singletons such as the ångström sign U+212B. The suites write those
// letters as they come (NeMo's Hindi expects "टॉफ़िज़" with U+095B kept), and
// the rules read both spellings.
//
// When text is already in that form readForm returns it and a nil map; else
// the map relates the bytes of the two.
func readForm(text string) (string, *offsetMap) {
	read, runs := nfc.Read(text)
	if runs == nil {
		return text, nil
	}
	return read, &offsetMap{runs: runs}
}

// offsetMap relates the read form of an input to the input: runs are the
// runs that differ, in order; outside them the two are byte for byte the
// same, shifted.
type offsetMap struct {
	runs []nfc.Run
}

// start maps a read-form offset x, the start of a span, to the input. When x
// falls inside a changed run, the span is widened to the run's start and
// pre is the read-form text it gained.
func (m *offsetMap) start(read string, x int) (orig int, pre string) {
	orig, r := nfc.Floor(m.runs, x)
	return orig, read[r:x]
}

// end maps a read-form offset y, the end of a span, to the input, widening
// the span to the end of a changed run it ends inside (post is the read-form
// text gained).
func (m *offsetMap) end(read string, y int) (orig int, post string) {
	orig, r := nfc.Ceil(m.runs, y)
	return orig, read[y:r]
}

// restore rewrites the spans of alts, found in read (the read form of
// text), as ranges of text. A span that ends or starts inside a changed run
// is widened to the whole run, its output gaining the run's other read-form
// text; two spans widened into the same run become one.
func (m *offsetMap) restore(alts []Alternative, read, text string) {
	for a := range alts {
		spans := alts[a].Spans
		out := spans[:0]
		core, readEnd := "", 0 // the last span's output without its widening at the end, and its read-form end
		for _, sp := range spans {
			s, pre := m.start(read, sp.StartByte)
			e, post := m.end(read, sp.EndByte)
			if n := len(out); n > 0 && out[n-1].EndByte > s {
				prev := &out[n-1]
				core += read[readEnd:sp.StartByte] + sp.Output
				readEnd = sp.EndByte
				prev.EndByte, prev.Output, prev.Source = e, core+post, text[prev.StartByte:e]
				continue
			}
			core, readEnd = pre+sp.Output, sp.EndByte
			sp.StartByte, sp.EndByte, sp.Output, sp.Source = s, e, core+post, text[s:e]
			out = append(out, sp)
		}
		alts[a].Spans = out
	}
}

// lines calls f with the byte range of each line of text that holds more
// than white space, without the white space around it. A line break is a
// hard boundary: no reading runs across one.
func lines(text string, f func(start, end int) error) error {
	for start := 0; start < len(text); {
		end, next := lineEnd(text, start)
		l := strings.TrimLeftFunc(text[start:end], unicode.IsSpace)
		if core := strings.TrimRightFunc(l, unicode.IsSpace); core != "" {
			a := end - len(l)
			if err := f(a, a+len(core)); err != nil {
				return err
			}
		}
		start = next
	}
	return nil
}

// lineEnd returns the end of the line starting at byte i of text and the
// start of the next one. The line breaks are LF, CR, VT, FF, NEL, U+2028 and
// U+2029 (the mandatory breaks of UAX #14; CRLF is a CR ending a line and an
// LF ending an empty one), found byte by byte: NEL is C2 85 in UTF-8, U+2028
// and U+2029 are E2 80 A8 and A9.
func lineEnd(text string, i int) (end, next int) {
	for ; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\n' || c == '\r' || c == '\v' || c == '\f':
			return i, i + 1
		case c == 0xc2 && i+1 < len(text) && text[i+1] == 0x85:
			return i, i + 2
		case c == 0xe2 && i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xa8 || text[i+2] == 0xa9):
			return i, i + 3
		}
	}
	return len(text), len(text)
}
