// Package cli holds what every Sotto command-line tool's main does the same
// way: run the command with a context that Ctrl-C cancels, and turn its
// error into a message and an exit status.
package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

// Main runs run with a context cancelled by an interrupt (Ctrl-C). When run
// fails, Main prints "NAME: error" to standard error and exits with
// exitCode(err), or 1 when exitCode is nil; for status 2 (a usage error) it
// adds a line pointing to NAME --help. Main returns only when run succeeds.
func Main(name string, run func(ctx context.Context) error, exitCode func(error) int) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx)
	stop()
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, name+":", err)
	code := 1
	if exitCode != nil {
		code = exitCode(err)
	}
	if code == 2 {
		fmt.Fprintf(os.Stderr, "run %s --help for the usage\n", name)
	}
	os.Exit(code)
}
