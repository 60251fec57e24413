// Command sotto-transcribe turns speech in audio or video files into text,
// JSON, SubRip or WebVTT with the pure-Go recognizer of package asr. Run it
// with --help for a tutorial.
package main

import (
	"context"
	"os"

	"github.com/sottolabs/sotto/internal/cli"
)

func main() {
	cli.Main("sotto-transcribe", func(ctx context.Context) error { return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }, exitCode)
}
