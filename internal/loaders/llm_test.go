package loaders

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/llm"
	"github.com/sottolabs/sotto/llm/llama"
)

// TestLLM opens the llama2.c test model and its GGUF conversion with the
// LLM loader: both tokenize alike (the tokenizer comes from the checkpoint's
// tokenizer.bin, or from the GGUF vocabulary) and generate the same greedy
// text.
func TestLLM(t *testing.T) {
	ckpt, tok := "../../llm/testdata/stories260K.bin", "../../llm/testdata/stories260K-tok512.bin"
	if _, err := os.Stat(ckpt); err != nil {
		t.Skipf("test model absent: %v", err)
	}
	c, err := llama.ReadLlama2C(ckpt, tok)
	if err != nil {
		t.Fatal(err)
	}
	ggufPath := filepath.Join(t.TempDir(), "stories260K.gguf")
	f, err := os.Create(ggufPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteGGUF(f, "stories260K"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run := func(paths map[string]string) ([]int, string) {
		t.Helper()
		obj, err := LLM(ctx, models.LoadSpec{Entry: models.Entry{ID: "Test/stories", Backend: LLMBackend}, Paths: paths})
		if err != nil {
			t.Fatal(err)
		}
		defer obj.Close()
		ids, err := obj.(llm.Tokenizer).Tokenize(ctx, "Once upon a time")
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		err = obj.(llm.Backend).Generate(ctx, []llm.Message{{Role: "user", Content: "Once upon a time"}},
			llm.Options{MaxTokens: 8}, func(tk llm.Token) error { sb.WriteString(tk.Text); return nil })
		if err != nil {
			t.Fatal(err)
		}
		return ids, sb.String()
	}
	ids1, text1 := run(map[string]string{"model": ckpt, "tokenizer": tok})
	ids2, text2 := run(map[string]string{"model": ggufPath})
	if len(ids1) != 4 || !slices.Equal(ids1, ids2) {
		t.Errorf("Tokenize: checkpoint %v, GGUF %v; want the same 4 tokens", ids1, ids2)
	}
	if text1 == "" || text1 != text2 {
		t.Errorf("greedy text: checkpoint %q, GGUF %q; want the same", text1, text2)
	}
	if _, err := LLM(ctx, models.LoadSpec{Entry: models.Entry{ID: "Test/none"}, Paths: map[string]string{}}); err == nil {
		t.Error("LLM without a model file succeeded")
	}
	if _, err := LLM(ctx, models.LoadSpec{Entry: models.Entry{ID: "Test/stories"}, Paths: map[string]string{"model": ckpt}}); err == nil {
		t.Error("LLM of a checkpoint without its tokenizer succeeded")
	}
	// A file that does not read as what it should be (the checkpoint given
	// as its own tokenizer) is a 422 model_files_invalid naming the model,
	// not an unclassified (500) error.
	_, err = LLM(ctx, models.LoadSpec{Entry: models.Entry{ID: "Test/stories"}, Paths: map[string]string{"model": ckpt, "tokenizer": ckpt}})
	var se *sotto.Error
	if !errors.As(err, &se) || !errors.Is(err, sotto.ErrUnsatisfiable) || se.Code != "model_files_invalid" || !strings.Contains(se.Message, "Test/stories") {
		t.Errorf("LLM with a wrong tokenizer file = %v; want 422 model_files_invalid naming the model", err)
	}
}
