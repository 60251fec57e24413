// Command chat talks with a local language model in the terminal: each
// line you type is a user turn, and the reply streams out token by token
// through the pure-Go engine (GGUF files, or llama2.c checkpoints with
// their tokenizer).
//
//	go run ./examples/chat -model qwen2.5-0.5b-instruct-q8_0.gguf
//	go run ./examples/chat -model llm/testdata/stories260K.bin -tokenizer llm/testdata/stories260K-tok512.bin
//
// The conversation is kept, so the model sees every earlier turn (up to its
// context length). -temp 0 decodes greedily; an empty line or Ctrl-D ends.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/llm"
)

func main() {
	model := flag.String("model", "", "a GGUF file or a llama2.c checkpoint")
	tok := flag.String("tokenizer", "", "a llama2.c checkpoint's tokenizer.bin")
	system := flag.String("system", "", "a system prompt")
	temp := flag.Float64("temp", 0.7, "sampling temperature (0: greedy)")
	max := flag.Int("max", 512, "the most tokens a reply may have")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: chat -model FILE [-tokenizer FILE] [-system TEXT] [-temp T] [-max N]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *model == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*model, *tok, *system, llm.Options{Temperature: *temp, MaxTokens: *max}); err != nil {
		fmt.Fprintln(os.Stderr, "chat:", err)
		os.Exit(1)
	}
}

func run(model, tok, system string, opts llm.Options) error {
	cfg := backend.Config{Options: map[string]string{llm.OptModelFile: model}}
	if tok != "" {
		cfg.Options[llm.OptTokenizerFile] = tok
	}
	b, err := llm.Open(context.Background(), "go", cfg)
	if err != nil {
		return err
	}
	defer b.Close()
	var msgs []llm.Message
	if system != "" {
		msgs = append(msgs, llm.Message{Role: "system", Content: system})
	}
	in := bufio.NewScanner(os.Stdin)
	for {
		fmt.Print("> ")
		if !in.Scan() || strings.TrimSpace(in.Text()) == "" {
			return in.Err()
		}
		msgs = append(msgs, llm.Message{Role: "user", Content: in.Text()})
		// Ctrl-C stops this reply, not the program.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		var reply strings.Builder
		err := b.Generate(ctx, msgs, opts, func(t llm.Token) error {
			fmt.Print(t.Text)
			reply.WriteString(t.Text)
			return nil
		})
		stop()
		fmt.Println()
		if err != nil && ctx.Err() == nil {
			return err
		}
		msgs = append(msgs, llm.Message{Role: "assistant", Content: reply.String()})
	}
}
