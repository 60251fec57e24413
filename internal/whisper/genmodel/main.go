// Command genmodel writes a GGML Whisper model with seeded random weights
// and the real shape, mel filters and vocabulary of a whisper.cpp model
// file (typically one of whisper.cpp's models/for-tests-ggml-*.bin, which
// hold everything but the weights). The same flags give the same bytes on
// every machine, so the files need not be committed:
//
//	go run ./internal/whisper/genmodel -from for-tests-ggml-tiny.bin -type q5_0 -seed 1 -o tiny-q5_0.bin
//
// Types: f32, f16, q8_0, q5_0, q5_1, q4_0.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sottolabs/sotto/internal/whisper"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "genmodel:", err)
		os.Exit(1)
	}
}

var ftypes = map[string]whisper.FType{
	"f32": whisper.FTypeF32, "f16": whisper.FTypeF16, "q8_0": whisper.FTypeQ8_0,
	"q5_0": whisper.FTypeQ5_0, "q5_1": whisper.FTypeQ5_1, "q4_0": whisper.FTypeQ4_0,
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("genmodel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "model file giving shape, mel filters and vocabulary")
	typ := fs.String("type", "f16", "weight type: f32, f16, q8_0, q5_0, q5_1, q4_0")
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("o", "", "output file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ft, ok := ftypes[*typ]
	if !ok || *from == "" || *out == "" {
		fs.Usage()
		return fmt.Errorf("need -from, -o and a known -type")
	}
	return whisper.GenerateFile(ctx, *from, *out, ft, *seed)
}
