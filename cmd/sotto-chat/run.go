package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/progress"
	"github.com/sottolabs/sotto/llm"
	"github.com/sottolabs/sotto/llm/gguf"
)

const usageHead = `usage: sotto-chat --model MODEL [flags] [PROMPT...]

sotto-chat sends PROMPT (or standard input, also as "-") to a language model
and prints the reply as it is generated. Without PROMPT and with a terminal on
standard input it chats: each line you type is a turn, the conversation is
kept, and /reset starts over, /exit (or Ctrl-D) leaves.

MODEL is either a model file on this machine, run in this process by Sotto's
pure-Go engine:
  - a GGUF file (llama, mistral, qwen2, qwen3 architectures), or
  - a llama2.c checkpoint with its tokenizer (--tokenizer tokenizer.bin);
or the ID of a model served by a Sotto service (sotto-cli serve), used
through its /v1/chat/completions endpoint (--url, --api-key).

A model file without a chat template (llama2.c checkpoints, base models) is
not a chat model: the prompt is given to it as raw text, and sotto-chat
prints the prompt followed by the model's continuation. Served through a
service, such a model answers with the continuation alone (the service's
reply), so the prompt is not repeated.

Examples:
  sotto-chat --model qwen2.5-0.5b-instruct-q8_0.gguf "Name three rivers."
  sotto-chat --model llm/testdata/stories260K.bin --tokenizer llm/testdata/stories260K-tok512.bin --temperature 0 "Once upon a time"
  sotto-chat --model Sotto/Qwen2.5-0.5B-Instruct          # chat with a served model
  echo "Summarise: ..." | sotto-chat --model model.gguf --max-tokens 200

Exit status: 0 success, 1 the model or the service failed (the reason is
printed), 2 usage error, 130 interrupted (Ctrl-C stops the reply).

`

// usageError is a mistake in the command line (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

type config struct {
	model, tokenizer, system, url, key string
	temperature, topP                  float64
	topK, maxTokens                    int
	seed                               int64
	seedSet                            bool
	prompt                             string
	interactive                        bool
}

func parseArgs(args []string, getenv func(string) string, stdin io.Reader, stdout io.Writer) (*config, error) {
	var c config
	fs := pflag.NewFlagSet("sotto-chat", pflag.ContinueOnError)
	fs.SetOutput(stdout)
	base := getenv("SOTTO_URL")
	if base == "" {
		base = "http://127.0.0.1:1118"
	}
	fs.StringVarP(&c.model, "model", "m", "", "a GGUF file, a llama2.c checkpoint, or a served model ID (required)")
	fs.StringVar(&c.tokenizer, "tokenizer", "", "the tokenizer `FILE` of a llama2.c checkpoint")
	fs.StringVar(&c.system, "system", "", "a system message for the conversation")
	fs.Float64Var(&c.temperature, "temperature", 0.8, "sampling temperature; 0 always takes the most likely token")
	fs.Float64Var(&c.topP, "top-p", 0, "sample from the smallest set of tokens whose probability reaches P (0: off)")
	fs.IntVar(&c.topK, "top-k", 0, "sample from the K most likely tokens (0: off)")
	fs.Int64Var(&c.seed, "seed", 0, "random seed, for a repeatable reply (default: a fixed seed locally, the service's otherwise)")
	fs.IntVarP(&c.maxTokens, "max-tokens", "n", 512, "stop after N generated tokens")
	fs.StringVar(&c.url, "url", base, "Sotto service root URL, for a served model (env SOTTO_URL)")
	fs.StringVar(&c.key, "api-key", getenv("SOTTO_API_KEY"), "API key of the service (env SOTTO_API_KEY)")
	help := fs.BoolP("help", "h", false, "show this help")
	fs.Usage = func() {
		fmt.Fprint(stdout, usageHead)
		fmt.Fprintln(stdout, "Flags:")
		fmt.Fprint(stdout, fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, nil
		}
		return nil, usageError{err.Error()}
	}
	if *help {
		fs.Usage()
		return nil, nil
	}
	c.seedSet = fs.Changed("seed")
	switch {
	case c.model == "":
		return nil, usageError{"--model is required (a model file or a served model ID)"}
	case c.temperature < 0 || c.temperature > 2:
		return nil, usageError{"--temperature must be between 0 and 2"}
	case c.topP < 0 || c.topP > 1:
		return nil, usageError{"--top-p must be between 0 and 1"}
	case c.topK < 0:
		return nil, usageError{"--top-k must not be negative"}
	case c.maxTokens <= 0:
		return nil, usageError{"--max-tokens must be positive"}
	}
	stdinArg := fs.NArg() == 1 && fs.Arg(0) == "-" // "-": the prompt is standard input
	if fs.NArg() > 0 && !stdinArg {
		c.prompt = strings.Join(fs.Args(), " ")
	} else if progress.IsTerminal(stdin) && !stdinArg {
		c.interactive = true
	} else {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, err
		}
		c.prompt = strings.TrimRight(string(b), "\n")
		if strings.TrimSpace(c.prompt) == "" {
			return nil, usageError{"no prompt: give PROMPT arguments or text on standard input"}
		}
	}
	return &c, nil
}

// chatter is one conversation partner: a local engine or a served model.
// Reply streams the reply to msgs through emit.
type chatter interface {
	Reply(ctx context.Context, msgs []llm.Message, emit func(string) error) error
	// Raw reports whether the model continues raw text instead of chatting
	// (no chat template).
	Raw() bool
	Close() error
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, err := parseArgs(args, getenv, stdin, stdout)
	if err != nil || c == nil {
		return err
	}
	ch, err := open(ctx, c)
	if err != nil {
		return err
	}
	defer ch.Close()
	if !c.interactive {
		_, err := reply(ctx, ch, c, nil, c.prompt, stdout)
		return err
	}
	return chat(ctx, ch, c, stdin, stdout, stderr)
}

// open starts the local engine when c.model is a file, else a client of the
// service.
func open(ctx context.Context, c *config) (chatter, error) {
	st, err := os.Stat(c.model)
	switch {
	case err == nil && !st.IsDir():
		return openLocal(ctx, c)
	case err == nil && looksLikePath(c.model):
		return nil, fmt.Errorf("model file %s is a directory; give the model file in it", c.model)
	case looksLikePath(c.model):
		return nil, fmt.Errorf("model file %s: %w", c.model, os.ErrNotExist)
	}
	return newRemote(c), nil
}

// looksLikePath tells a mistyped file name from a model ID: IDs are
// Owner/Name, files usually have an extension or a leading ./ or /.
func looksLikePath(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "~") ||
		strings.HasSuffix(s, ".gguf") || strings.HasSuffix(s, ".bin")
}

// options turns the flags into generation options.
func (c *config) options() llm.Options {
	o := llm.Options{MaxTokens: c.maxTokens, Temperature: c.temperature, TopP: c.topP, TopK: c.topK}
	if c.seedSet {
		s := c.seed
		o.Seed = &s
	}
	return o
}

// reply sends one user turn (after history), prints the reply and returns
// its text. A raw model gets the prompt alone, and the prompt is printed
// before its continuation.
func reply(ctx context.Context, ch chatter, c *config, history []llm.Message, prompt string, stdout io.Writer) (string, error) {
	var msgs []llm.Message
	if ch.Raw() {
		msgs = []llm.Message{{Role: "user", Content: prompt}}
		fmt.Fprint(stdout, prompt)
	} else {
		if c.system != "" {
			msgs = append(msgs, llm.Message{Role: "system", Content: c.system})
		}
		msgs = append(append(msgs, history...), llm.Message{Role: "user", Content: prompt})
	}
	var sb strings.Builder
	err := ch.Reply(ctx, msgs, func(s string) error {
		sb.WriteString(s)
		_, err := io.WriteString(stdout, s)
		return err
	})
	fmt.Fprintln(stdout)
	return sb.String(), err
}

// chat runs the interactive loop: a line a turn, the conversation kept
// (raw models get each line alone).
func chat(ctx context.Context, ch chatter, c *config, stdin io.Reader, stdout, stderr io.Writer) error {
	if ch.Raw() {
		fmt.Fprintln(stderr, "This model has no chat template: each line is continued as raw text, without memory of earlier lines.")
	}
	fmt.Fprintln(stderr, "Type a message and press Enter; /reset forgets the conversation, /exit or Ctrl-D leaves.")
	var history []llm.Message
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64<<10), 4<<20)
	for {
		fmt.Fprint(stderr, "> ")
		if !in.Scan() {
			fmt.Fprintln(stderr)
			return in.Err()
		}
		line := strings.TrimSpace(in.Text())
		switch line {
		case "":
			continue
		case "/exit", "/quit":
			return nil
		case "/reset":
			history = nil
			fmt.Fprintln(stderr, "(conversation forgotten)")
			continue
		}
		text, err := reply(ctx, ch, c, history, line, stdout)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintln(stderr, "sotto-chat:", err)
			continue
		}
		if !ch.Raw() {
			history = append(history, llm.Message{Role: "user", Content: line}, llm.Message{Role: "assistant", Content: text})
		}
	}
}

// local runs a model file in this process.
type local struct {
	b   llm.Backend
	raw bool
	o   llm.Options
}

func openLocal(ctx context.Context, c *config) (*local, error) {
	opts := map[string]string{llm.OptModelFile: c.model}
	if c.tokenizer != "" {
		opts[llm.OptTokenizerFile] = c.tokenizer
	}
	raw, err := rawModel(c.model)
	if err != nil {
		return nil, err
	}
	if c.tokenizer == "" && !isGGUF(c.model) {
		return nil, usageError{fmt.Sprintf("%s is not a GGUF file; a llama2.c checkpoint needs its tokenizer: --tokenizer FILE", c.model)}
	}
	b, err := llm.Open(ctx, "go", backend.Config{Options: opts})
	if err != nil {
		return nil, err
	}
	return &local{b: b, raw: raw, o: c.options()}, nil
}

// rawModel reports whether the model file has no chat template: a
// llama2.c checkpoint never has one; a GGUF file has one in its
// tokenizer.chat_template metadata.
func rawModel(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	f.Close()
	if !isGGUF(path) {
		return true, nil // not GGUF: a llama2.c checkpoint (the engine says if it is neither)
	}
	g, err := gguf.Open(path)
	if err != nil {
		return false, err
	}
	defer g.Close()
	t, _ := g.String("tokenizer.chat_template")
	return strings.TrimSpace(t) == "", nil
}

// isGGUF reports whether the file at path starts with the GGUF magic.
func isGGUF(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	_, err = io.ReadFull(f, magic[:])
	return err == nil && string(magic[:]) == gguf.Magic
}

func (l *local) Raw() bool { return l.raw }

func (l *local) Reply(ctx context.Context, msgs []llm.Message, emit func(string) error) error {
	return l.b.Generate(ctx, msgs, l.o, func(t llm.Token) error { return emit(t.Text) })
}

func (l *local) Close() error { return l.b.Close() }
