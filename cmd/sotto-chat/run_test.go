package main

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/llm/gguf"
	"github.com/sottolabs/sotto/server"
)

// The test model: llama2.c's MIT-licensed stories260K (llm/testdata), a
// checkpoint without a chat template, and llama2.c's own greedy output.
func testModel(t *testing.T) (model, tok string) {
	t.Helper()
	model, _ = filepath.Abs("../../llm/testdata/stories260K.bin")
	tok, _ = filepath.Abs("../../llm/testdata/stories260K-tok512.bin")
	if _, err := os.Stat(model); err != nil {
		t.Skipf("test model absent: %v", err)
	}
	return model, tok
}

// reference returns llama2.c's greedy output for prompt.
func reference(t *testing.T, prompt string) string {
	t.Helper()
	f, err := os.Open("../../llm/testdata/stories260K-greedy-reference.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct{ Prompt, Output string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Prompt == prompt {
			return r.Output
		}
	}
	t.Fatalf("no reference for %q", prompt)
	return ""
}

func runCLI(t *testing.T, args []string, env map[string]string, stdin string) (string, string, error) {
	t.Helper()
	var out, errw strings.Builder
	err := run(context.Background(), args, func(k string) string { return env[k] }, strings.NewReader(stdin), &out, &errw)
	return out.String(), errw.String(), err
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no model", []string{"hi"}, "--model is required"},
		{"temperature", []string{"-m", "x", "--temperature", "3", "hi"}, "--temperature"},
		{"top-p", []string{"-m", "x", "--top-p", "1.5", "hi"}, "--top-p"},
		{"top-k", []string{"-m", "x", "--top-k", "-1", "hi"}, "--top-k"},
		{"max tokens", []string{"-m", "x", "-n", "0", "hi"}, "--max-tokens"},
		{"unknown flag", []string{"-m", "x", "--frobnicate"}, "frobnicate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, tc.args, nil, "")
			var u usageError
			if !errorsAs(err, &u) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want a usage error about %q", err, tc.want)
			}
		})
	}
	if _, _, err := runCLI(t, []string{"-m", "x"}, nil, "  \n"); err == nil || !strings.Contains(err.Error(), "no prompt") {
		t.Errorf("empty standard input: err = %v", err)
	}
	// A llama2.c checkpoint without --tokenizer: the flag to add is named.
	model, _ := testModel(t)
	if _, _, err := runCLI(t, []string{"-m", model, "hi"}, nil, ""); !errorsAs(err, new(usageError)) || !strings.Contains(err.Error(), "--tokenizer FILE") {
		t.Errorf("checkpoint without tokenizer: err = %v; want a usage error naming --tokenizer", err)
	}
	if _, _, err := runCLI(t, []string{"-m", "./missing.gguf", "hi"}, nil, ""); err == nil || !strings.Contains(err.Error(), "missing.gguf") {
		t.Errorf("missing model file: err = %v", err)
	}
	if _, _, err := runCLI(t, []string{"-m", model, "--tokenizer", "./missing-tok.bin", "hi"}, nil, ""); err == nil ||
		!strings.Contains(err.Error(), "tokenizer file missing") || !strings.Contains(err.Error(), "missing-tok.bin") {
		t.Errorf("missing tokenizer file: err = %v; want it named the tokenizer (it said model file)", err)
	}
	dir := t.TempDir()
	if _, _, err := runCLI(t, []string{"-m", dir, "hi"}, nil, ""); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory as the model: err = %v; want it called a directory (it said: file does not exist)", err)
	}
}

func TestHelp(t *testing.T) {
	out, _, err := runCLI(t, []string{"--help"}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"usage: sotto-chat", "--tokenizer", "raw text", "Examples:", "-h, --help"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

// A checkpoint without a chat template continues the prompt as raw text:
// the CLI prints the prompt and the continuation, which at temperature 0
// is llama2.c's greedy output.
func TestLocalRawGreedy(t *testing.T) {
	model, tok := testModel(t)
	for _, prompt := range []string{"Once upon a time", "Tom and his dog"} {
		out, _, err := runCLI(t, []string{"--model", model, "--tokenizer", tok, "--temperature", "0", "-n", "40", prompt}, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		out = strings.TrimSuffix(out, "\n")
		ref := reference(t, prompt)
		if len(out) <= len(prompt)+20 || !strings.HasPrefix(ref, out) {
			t.Errorf("%q:\n got %q\nwant a prefix of %q", prompt, out, ref)
		}
	}
}

// Standard input is the prompt when no PROMPT argument is given.
func TestLocalStdinSeed(t *testing.T) {
	model, tok := testModel(t)
	args := []string{"--model", model, "--tokenizer", tok, "--temperature", "1", "--seed", "7", "-n", "30"}
	a, _, err := runCLI(t, args, nil, "Once upon a time\n")
	if err != nil {
		t.Fatal(err)
	}
	// PROMPT "-" is standard input too.
	b, _, err := runCLI(t, append(args, "-"), nil, "Once upon a time\n")
	if err != nil {
		t.Fatal(err)
	}
	if a != b || !strings.HasPrefix(a, "Once upon a time") {
		t.Errorf("same seed, different or wrong output:\n%q\n%q", a, b)
	}
}

// The interactive loop: a line a turn, commands, end of input.
func TestChatLoopRaw(t *testing.T) {
	model, tok := testModel(t)
	c := &config{model: model, tokenizer: tok, temperature: 0, maxTokens: 20}
	ch, err := open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	var out, errw strings.Builder
	in := "Once upon a time\n\n/reset\nTom and his dog\n/exit\nnever read\n"
	if err := chat(context.Background(), ch, c, strings.NewReader(in), &out, &errw); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(reference(t, "Once upon a time"), lines[0]) ||
		!strings.HasPrefix(lines[len(lines)-1], "Tom and his dog") || strings.Contains(out.String(), "never") {
		t.Errorf("chat output:\n%s", out.String())
	}
	if !strings.Contains(errw.String(), "no chat template") || !strings.Contains(errw.String(), "forgotten") {
		t.Errorf("chat messages:\n%s", errw.String())
	}
}

// Against a running service: the served model's streamed reply, and the
// service's errors decoded from its envelope.
func TestRemote(t *testing.T) {
	model, tok := testModel(t)
	cat := map[string]any{"models": []map[string]any{{
		"id": "Test/stories260K", "object": "model", "owned_by": "test", "execution_location": "local",
		"supported_endpoints": []string{"/v1/chat/completions"},
		"backend":             loaders.LLMBackend,
		"options":             map[string]string{"model": "model", "tokenizer": "tokenizer"},
		"files": []map[string]string{{"name": "model", "system_path": model},
			{"name": "tokenizer", "system_path": tok}},
	}}}
	b, _ := json.Marshal(cat)
	catFile := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(catFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := models.New(models.Config{DataDir: t.TempDir(), CatalogFile: catFile, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	loaders.Register(m)
	if _, err := m.Load(context.Background(), "Test/stories260K"); err != nil {
		t.Fatal(err)
	}
	s, err := server.New(server.Config{Models: server.ManagedModels(m, nil), APIKey: "k", DataDir: t.TempDir(),
		SpoolDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	env := map[string]string{"SOTTO_URL": ts.URL + "/v1", "SOTTO_API_KEY": "k"}

	out, _, err := runCLI(t, []string{"--model", "Test/stories260K", "--temperature", "0", "-n", "40", "Once upon a time"}, env, "")
	if err != nil {
		t.Fatal(err)
	}
	// The service continues the prompt; the CLI prints the reply only.
	if ref := reference(t, "Once upon a time"); len(out) < 20 || !strings.HasPrefix(ref, "Once upon a time"+strings.TrimSuffix(out, "\n")) {
		t.Errorf("served reply %q is not llama2.c's continuation %q", out, ref)
	}

	_, _, err = runCLI(t, []string{"--model", "Test/nope", "hi"}, env, "")
	if err == nil || !strings.Contains(err.Error(), "model") || !strings.Contains(err.Error(), "404") {
		t.Errorf("unknown model: err = %v", err)
	}
	env["SOTTO_API_KEY"] = "wrong"
	_, _, err = runCLI(t, []string{"--model", "Test/stories260K", "hi"}, env, "")
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("wrong key: err = %v", err)
	}
}

func errorsAs(err error, target *usageError) bool {
	u, ok := err.(usageError)
	if ok {
		*target = u
	}
	return ok
}

// A GGUF file is a chat model when its metadata holds a chat template; a
// file that is not GGUF is read as a llama2.c checkpoint (no template).
func TestRawModel(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, kv map[string]any) string {
		var w gguf.Writer
		for k, v := range kv {
			w.AddKV(k, v)
		}
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := w.WriteTo(f); err != nil {
			t.Fatal(err)
		}
		return p
	}
	chat := write("chat.gguf", map[string]any{"general.architecture": "llama",
		"tokenizer.chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}"})
	base := write("base.gguf", map[string]any{"general.architecture": "llama"})
	blank := write("blank.gguf", map[string]any{"tokenizer.chat_template": "  "})
	model, _ := testModel(t)
	for _, tc := range []struct {
		path string
		raw  bool
	}{{chat, false}, {base, true}, {blank, true}, {model, true}} {
		raw, err := rawModel(tc.path)
		if err != nil || raw != tc.raw {
			t.Errorf("rawModel(%s) = %v, %v; want %v", filepath.Base(tc.path), raw, err, tc.raw)
		}
	}
}

// TestRemoteBase: --url (or SOTTO_URL) may be a bare host:port, as
// SOTTO_LISTEN is, or end in /v1 (it was refused: "first path segment in
// URL cannot contain colon").
func TestRemoteBase(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:1118/":   "http://127.0.0.1:1118",
		"http://127.0.0.1:1118/v1": "http://127.0.0.1:1118",
		"127.0.0.1:21118":          "http://127.0.0.1:21118",
		"localhost:21118/v1/":      "http://localhost:21118",
	} {
		if got := newRemote(&config{url: in}).base; got != want {
			t.Errorf("newRemote(--url %q).base = %q; want %q", in, got, want)
		}
	}
}
