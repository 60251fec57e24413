// Command sotto-speak turns text into speech (a WAV file) with the voices
// of flite and espeak-ng. Run it with --help for a tutorial.
package main

import (
	"context"
	"os"

	"github.com/sottolabs/sotto/internal/cli"
)

func main() {
	cli.Main("sotto-speak", func(ctx context.Context) error { return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }, nil)
}
