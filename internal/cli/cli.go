// Package cli holds what every Sotto command-line tool's main does the same
// way: run the command with a context that Ctrl-C cancels, and turn its
// error into a message and an exit status.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// UsageError marks a mistake on the command line: [Main] exits with
// status 2 for it, whatever the tool's own exit-code mapping says, and
// points to NAME --help.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// Usagef returns a [UsageError] with a formatted message.
func Usagef(format string, args ...any) error { return UsageError{fmt.Errorf(format, args...)} }

// Interrupted is the exit status of a tool stopped by Ctrl-C or SIGTERM
// (128 + SIGINT, as shells report it).
const Interrupted = 130

// Main runs run with a context cancelled by an interrupt (Ctrl-C) or
// SIGTERM. When run fails, Main prints "NAME: error" to standard error and
// exits with 2 for a [UsageError], else exitCode(err), or 1 when exitCode
// is nil; for status 2 (a usage error) it adds a line pointing to NAME
// --help. A run stopped by the
// signal prints "NAME: interrupted" and exits with [Interrupted]. Main
// returns only when run succeeds.
func Main(name string, run func(ctx context.Context) error, exitCode func(error) int) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err == nil {
		return
	}
	os.Exit(report(os.Stderr, name, err, ctx.Err() != nil, exitCode))
}

// report writes the message for err to w and returns the exit status;
// interrupted says the signal cancelled the run's context.
func report(w io.Writer, name string, err error, interrupted bool, exitCode func(error) int) int {
	if interrupted && errors.Is(err, context.Canceled) {
		fmt.Fprintln(w, name+": interrupted")
		return Interrupted
	}
	fmt.Fprintln(w, name+":", err)
	code := 1
	switch {
	case errors.As(err, new(UsageError)):
		code = 2
	case exitCode != nil:
		code = exitCode(err)
	}
	if code == 2 {
		fmt.Fprintf(w, "run %s --help for the usage\n", name)
	}
	return code
}
