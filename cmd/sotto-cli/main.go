// Command sotto-cli runs the Sotto gateway (sotto-cli serve) and manages its
// models through a running service (sotto-cli models ...).
//
// Run "sotto-cli --help" for the commands and "sotto-cli serve --help" for
// the settings of the service.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first Ctrl-C (or SIGTERM) stops gracefully: serve lets in-flight
	// requests finish. Then the default behaviour is back, so a second one
	// ends the program at once instead of being swallowed.
	context.AfterFunc(ctx, stop)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if err != errHelp {
			fmt.Fprintln(os.Stderr, "sotto-cli:", err)
			if exitCode(err) == 2 {
				fmt.Fprintln(os.Stderr, "run sotto-cli --help for the usage")
			}
		}
		os.Exit(exitCode(err))
	}
}

var _ io.Reader = os.Stdin
