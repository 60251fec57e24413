// Command sotto-transcribe turns speech in audio or video files into text,
// JSON, SubRip or WebVTT with the pure-Go recognizer of package asr. Run it
// with --help for a tutorial.
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
		fmt.Fprintln(os.Stderr, "sotto-transcribe:", err)
		code := exitCode(err)
		if code == 2 {
			fmt.Fprintln(os.Stderr, "run sotto-transcribe --help for the usage")
		}
		stop()
		os.Exit(code)
	}
}
