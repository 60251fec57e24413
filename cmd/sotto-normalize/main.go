// Command sotto-normalize converts text between written and spoken form with
// package normalize.
//
//	sotto-normalize --lang en 'It costs $5 on 1/2.'
//	echo 'five dollars' | sotto-normalize --lang en --mode itn
//	sotto-normalize --eval ../shared/testdata/text/normalize   # accuracy report
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sotto-normalize:", err)
		os.Exit(1)
	}
}

var _ io.Reader = os.Stdin
