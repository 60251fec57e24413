// Command sotto-normalize converts text between written and spoken form with
// package normalize.
//
//	sotto-normalize --lang en 'It costs $5 on 1/2.'
//	echo 'five dollars' | sotto-normalize --lang en --mode itn
//	sotto-normalize --eval ../shared/testdata/text/normalize --failures 20   # accuracy, with failing cases
//	sotto-normalize --report ../shared/testdata/text/normalize > docs/bench/normalize.md
//	sotto-normalize --capabilities   # languages and classes per mode, as JSON
package main

import (
	"context"
	"os"

	"github.com/sottolabs/sotto/internal/cli"
)

func main() {
	cli.Main("sotto-normalize", func(ctx context.Context) error { return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }, nil)
}
