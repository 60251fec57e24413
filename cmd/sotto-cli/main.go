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
	sig, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first Ctrl-C (or SIGTERM) stops gracefully: serve lets in-flight
	// requests finish. Then the default behaviour is back, so a second one
	// ends the program at once instead of being swallowed. The context run
	// sees is cancelled only once that is so: serve's "press Ctrl-C again"
	// follows its cancellation, and a Ctrl-C pressed on that hint must not
	// reach the signal channel (it did when the two ran in either order).
	ctx, cancel := context.WithCancel(context.Background())
	context.AfterFunc(sig, func() { stop(); cancel() })
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	cancel()
	if err != nil {
		if err != errHelp {
			fmt.Fprintln(os.Stderr, "sotto-cli:", err)
			if exitCode(err) == 2 {
				fmt.Fprintln(os.Stderr, usageHint(os.Args[1:]))
			}
		}
		os.Exit(exitCode(err))
	}
}

var _ io.Reader = os.Stdin

// usageHint is the line after a usage error: the help of the command that
// was run (sotto-cli serve --help), or the top-level help.
func usageHint(args []string) string {
	if len(args) > 0 && (args[0] == "serve" || args[0] == "models") {
		cmd := args[0]
		if cmd == "models" && len(args) > 1 && args[1] == "import" {
			cmd = "models import"
		}
		return "run sotto-cli " + cmd + " --help for the usage"
	}
	return "run sotto-cli --help for the usage"
}
