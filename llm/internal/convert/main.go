// Command convert writes a llama2.c checkpoint and its tokenizer as a GGUF
// file (architecture llama, SentencePiece vocabulary, float32 tensors):
//
//	go run ./llm/internal/convert -tokenizer tok512.bin stories260K.bin stories260K.gguf
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sottolabs/sotto/llm/llama"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	tok := fs.String("tokenizer", "", "llama2.c tokenizer.bin (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 || *tok == "" {
		return fmt.Errorf("usage: convert -tokenizer TOKENIZER.bin CHECKPOINT.bin OUT.gguf")
	}
	c, err := llama.ReadLlama2C(fs.Arg(0), *tok)
	if err != nil {
		return err
	}
	f, err := os.Create(fs.Arg(1))
	if err != nil {
		return err
	}
	name := strings.TrimSuffix(filepath.Base(fs.Arg(0)), filepath.Ext(fs.Arg(0)))
	if err := c.WriteGGUF(f, name); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
