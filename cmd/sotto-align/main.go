// Command sotto-align finds where each word of a transcript is spoken in an
// audio file (forced alignment) and writes the timings as JSON, SubRip,
// WebVTT or a Praat TextGrid. Run it with --help for a tutorial.
package main

import (
	"context"
	"os"

	"github.com/sottolabs/sotto/internal/cli"
)

func main() {
	cli.Main("sotto-align", func(ctx context.Context) error { return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }, exitCode)
}
