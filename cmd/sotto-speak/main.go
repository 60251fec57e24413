// Command sotto-speak turns text into speech (a WAV file) with the voices
// of flite and espeak-ng. Run it with --help for a tutorial.
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
		fmt.Fprintln(os.Stderr, "sotto-speak:", err)
		stop()
		os.Exit(1)
	}
}
