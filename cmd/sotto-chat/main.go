// Command sotto-chat talks to a language model: a one-shot prompt or an
// interactive chat, with a local model file (GGUF or a llama2.c checkpoint)
// or with a model served by a running Sotto service. Run it with --help for
// a tutorial.
package main

import (
	"context"
	"errors"
	"os"

	"github.com/sottolabs/sotto/internal/cli"
)

func main() {
	cli.Main("sotto-chat", func(ctx context.Context) error {
		return run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	}, func(err error) int {
		var u usageError
		if errors.As(err, &u) {
			return 2
		}
		return 1
	})
}
