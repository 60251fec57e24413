// Command sotto-speaker describes voices: it computes speaker embeddings of
// audio files, compares two recordings, and writes speaker timelines (who
// spoke when) as RTTM or JSON. Run it with --help for a tutorial.
package main

import (
	"context"
	"os"

	"github.com/sottolabs/sotto/internal/cli"
)

func main() {
	cli.Main("sotto-speaker", func(ctx context.Context) error { return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }, exitCode)
}
