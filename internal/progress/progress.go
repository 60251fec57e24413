// Package progress draws the one-line progress bar of the command-line
// tools (sotto-align, sotto-transcribe) on a terminal:
//
//	bar := progress.New(os.Stderr, "transcribing", a.Seconds())
//	bar.Update(0.5, 5.5) // \rtranscribing [===============               ]  50%  5.5 / 11.0 s
//	bar.Finish()
//
// A nil *Bar does nothing, so callers create one only when stderr is a
// terminal ([IsTerminal]) or the user asked for it. A Bar is not safe for
// concurrent use.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// IsTerminal reports whether v (an io.Reader or io.Writer) is a terminal.
// /dev/null and other character devices are not: a standard input from
// /dev/null is empty input, not someone typing, and a standard output to
// it is a redirection.
func IsTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && isTTY(f)
}

// Width is the number of cells between the brackets of the bar.
const Width = 30

// Bar draws a task's progress over seconds of media on one line of a
// writer, redrawing it in place with a carriage return.
type Bar struct {
	w     io.Writer
	verb  string  // "aligning", "transcribing"
	total float64 // seconds of media the task covers
	last  int     // last percentage drawn
	drawn bool    // a bar is on the current line
}

// New returns a bar that writes to w, labelled verb, for a task over total
// seconds of media.
func New(w io.Writer, verb string, total float64) *Bar {
	return &Bar{w: w, verb: verb, total: total, last: -1}
}

// Update draws the bar at fraction (clamped to [0, 1]) with seconds of the
// total done. It redraws only when the whole percentage changes.
func (b *Bar) Update(fraction, seconds float64) {
	if b == nil {
		return
	}
	pct := int(max(0, min(1, fraction)) * 100)
	if b.drawn && pct == b.last {
		return
	}
	b.last, b.drawn = pct, true
	n := pct * Width / 100
	fmt.Fprintf(b.w, "\r%s [%s%s] %3d%%  %.1f / %.1f s", b.verb, strings.Repeat("=", n), strings.Repeat(" ", Width-n),
		pct, max(0, min(seconds, b.total)), b.total)
}

// Note ends the bar's line, writes msg on a line of its own, and lets the
// next Update start a fresh bar (progress may restart from 0 after it).
func (b *Bar) Note(msg string) {
	if b == nil {
		return
	}
	b.Finish()
	fmt.Fprintln(b.w, msg)
	b.last = -1
}

// Finish ends the bar's line, if one is drawn.
func (b *Bar) Finish() {
	if b != nil && b.drawn {
		io.WriteString(b.w, "\n")
		b.drawn = false
	}
}
