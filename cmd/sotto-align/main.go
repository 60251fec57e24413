// Command sotto-align finds where each word of a transcript is spoken in an
// audio file (forced alignment) and writes the timings as JSON, SubRip,
// WebVTT or a Praat TextGrid. Run it with --help for a tutorial.
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
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sotto-align:", err)
		code := exitCode(err)
		if code == 2 {
			fmt.Fprintln(os.Stderr, "run sotto-align --help for the usage")
		}
		stop()
		os.Exit(code)
	}
}
