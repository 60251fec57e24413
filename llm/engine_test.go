package llm

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/llm/llama"
)

func openStories(t *testing.T, opts map[string]string) Backend {
	t.Helper()
	o := map[string]string{
		OptModelFile:     filepath.Join("testdata", "stories260K.bin"),
		OptTokenizerFile: filepath.Join("testdata", "stories260K-tok512.bin"),
	}
	for k, v := range opts {
		o[k] = v
	}
	b, err := Open(context.Background(), "go", backend.Config{Options: o, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func TestGoDriverGenerate(t *testing.T) {
	b := openStories(t, nil)
	var sb strings.Builder
	err := b.Generate(context.Background(), []Message{{Role: "user", Content: "Once upon a time"}}, Options{MaxTokens: 12},
		func(tk Token) error { sb.WriteString(tk.Text); return nil })
	// llama2.c's greedy continuation of this prompt.
	ref := ", there was a little girl named Lily. She loved to play outside in the park."
	if err != nil || !strings.HasPrefix(ref, sb.String()) || len(sb.String()) < 30 {
		t.Errorf("Generate = %q, %v; want a prefix of %q", sb.String(), err, ref)
	}
}

func TestGoDriverErrors(t *testing.T) {
	b := openStories(t, map[string]string{OptContextLength: "16"})
	long := strings.Repeat("Once upon a time ", 10)
	err := b.Generate(context.Background(), []Message{{Role: "user", Content: long}}, Options{}, func(Token) error { return nil })
	var se *sotto.Error
	if !errors.Is(err, sotto.ErrInvalidRequest) || !errors.As(err, &se) || se.Code != "context_length_exceeded" {
		t.Errorf("Generate(long prompt) = %v; want context_length_exceeded", err)
	}
	if _, err := Open(context.Background(), "go", backend.Config{Options: map[string]string{OptModelFile: "testdata/missing.gguf"}}); !errors.Is(err, sotto.ErrNotFound) {
		t.Errorf("Open(missing file) = %v; want ErrNotFound", err)
	}
	if _, err := Open(context.Background(), "go", backend.Config{}); !errors.Is(err, sotto.ErrInvalidRequest) {
		t.Errorf("Open(no model) = %v; want ErrInvalidRequest", err)
	}
	stop := errors.New("stop")
	if err := b.Generate(context.Background(), []Message{{Content: "Hi"}}, Options{}, func(Token) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("Generate with failing emit = %v; want its error", err)
	}
}

func TestRenderPrompt(t *testing.T) {
	msgs := []Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "Hi"}}
	for _, c := range []struct {
		template, want string
		err            error
	}{
		{"", "Be brief.\nHi", nil},
		{"{% for m in messages %}<|im_start|>{{ m.role }}...", "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", nil},
		{"{{ '<|start_header_id|>' }}", "<|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n", nil},
		{"[INST] {{ content }} [/INST]", "", sotto.ErrNotImplemented},
	} {
		got, err := renderPrompt(&llama.Bundle{ChatTemplate: c.template}, msgs)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("renderPrompt(%q) = %q, %v; want %q, %v", c.template, got, err, c.want, c.err)
		}
	}
}

func TestGoDriverReportAndTokenize(t *testing.T) {
	b := openStories(t, nil)
	r, ok := b.(Reporter)
	if !ok {
		t.Fatal("the go backend is not a Reporter")
	}
	rep, err := r.GenerateReport(context.Background(), []Message{{Role: "user", Content: "Once upon a time"}}, Options{MaxTokens: 7}, func(Token) error { return nil })
	// BOS and four prompt pieces (see the llama.cpp golden file).
	if err != nil || rep.PromptTokens != 5 || rep.OutputTokens != 7 || rep.Stop != StopLength || rep.ToolCalls != nil {
		t.Errorf("GenerateReport = %+v, %v; want 5 prompt tokens, 7 output tokens, length", rep, err)
	}
	rep, err = r.GenerateReport(context.Background(), []Message{{Content: "Once upon a time"}}, Options{Stop: []string{"girl"}}, func(Token) error { return nil })
	if err != nil || rep.Stop != StopSequence || rep.StopSequence != "girl" {
		t.Errorf("GenerateReport(stop girl) = %+v, %v", rep, err)
	}
	ids, err := b.(Tokenizer).Tokenize(context.Background(), "Once upon a time")
	if err != nil || !slices.Equal(ids, []int{403, 407, 261, 378}) {
		t.Errorf("Tokenize = %v, %v; want [403 407 261 378]", ids, err)
	}
}
