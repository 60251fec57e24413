// Command sotto-speaker describes voices: it computes speaker embeddings of
// audio files, compares two recordings, and writes speaker timelines (who
// spoke when) as RTTM or JSON. Run it with --help for a tutorial.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sotto-speaker:", err)
		code := exitCode(err)
		if code == 2 {
			fmt.Fprintln(os.Stderr, "run sotto-speaker --help for the usage")
		}
		stop()
		os.Exit(code)
	}
}
