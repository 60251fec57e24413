package main

import (
	"fmt"
	"io"

	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/internal/progress"
)

// isTerminal reports whether w (an io.Reader or io.Writer) is a character
// device, such as a terminal.
func isTerminal(w any) bool { return progress.IsTerminal(w) }

// progressBar draws an alignment's progress on one line of w. A nil
// *progressBar does nothing.
type progressBar struct{ bar *progress.Bar }

func newProgressBar(w io.Writer, total float64) *progressBar {
	return &progressBar{bar: progress.New(w, "aligning", total)}
}

// update draws p; it is the Progress callback of align.Options.
func (b *progressBar) update(p align.Progress) {
	if p.Stage != "" {
		b.bar.Note(fmt.Sprintf("standard search failed; running the wider search (%s)", p.Stage))
		return
	}
	b.bar.Update(p.Fraction, p.Seconds)
}

// finish ends the progress line.
func (b *progressBar) finish() {
	if b != nil {
		b.bar.Finish()
	}
}
