package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sottolabs/sotto/align"
)

// isTerminal reports whether w (an io.Reader or io.Writer) is a character
// device, such as a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressBar draws an alignment's progress on one line of w. A nil
// *progressBar does nothing.
type progressBar struct {
	w     io.Writer
	total float64 // seconds of audio aligned
	last  int     // last percentage drawn, or -1 before the first
	stage string
	drawn bool
}

const barWidth = 30

// update draws p; it is the Progress callback of align.Options.
func (b *progressBar) update(p align.Progress) {
	if p.Stage != "" {
		if b.drawn {
			io.WriteString(b.w, "\n")
		}
		fmt.Fprintf(b.w, "standard search failed; running the wider search (%s)\n", p.Stage)
		b.stage, b.last, b.drawn = p.Stage, -1, false
		return
	}
	pct := int(max(0, min(1, p.Fraction)) * 100)
	if b.drawn && pct == b.last {
		return
	}
	b.last, b.drawn = pct, true
	n := pct * barWidth / 100
	fmt.Fprintf(b.w, "\raligning [%s%s] %3d%%  %.1f / %.1f s", strings.Repeat("=", n), strings.Repeat(" ", barWidth-n),
		pct, min(p.Seconds, b.total), b.total)
}

// finish ends the progress line.
func (b *progressBar) finish() {
	if b != nil && b.drawn {
		io.WriteString(b.w, "\n")
		b.drawn = false
	}
}
