package llama

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/llm/gguf"
	"github.com/sottolabs/sotto/llm/tokenizer"
)

type greedyCase struct {
	Prompt string `json:"prompt"`
	Steps  int    `json:"steps"`
	Output string `json:"output"`
}

func readCases(t *testing.T, path string) []greedyCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []greedyCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c greedyCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

func argmax(x []float32) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// runC reproduces llama2.c's run.c generate loop: steps positions from BOS,
// prompt tokens forced, greedy sampling, each token after BOS printed with
// its safe_printf rule (lone bytes that are neither printable nor space are
// dropped), stopping early at BOS.
func runC(t *testing.T, m *Model, tok tokenizer.Tokenizer, prompt string, steps int) (string, []int) {
	t.Helper()
	pool := tensor.NewPool(2)
	defer pool.Close()
	s := m.NewState(0, pool)
	steps = min(steps, s.ContextLen())
	seq := tok.Encode(prompt, true, false)
	var out bytes.Buffer
	ctx := context.Background()
	logits, err := s.Forward(ctx, seq)
	if err != nil {
		t.Fatal(err)
	}
	for len(seq) <= steps {
		next := argmax(logits)
		if next == 1 {
			break
		}
		seq = append(seq, next)
		if len(seq) <= steps {
			if logits, err = s.Forward(ctx, []int{next}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := 1; i < len(seq); i++ {
		p := tok.Piece(seq[i-1], seq[i])
		if len(p) == 1 && !(p[0] >= 0x20 && p[0] < 0x7f || p[0] == ' ' || (p[0] >= '\t' && p[0] <= '\r')) {
			continue
		}
		out.Write(p)
	}
	return out.String(), seq
}

func stories(t *testing.T) *Llama2C {
	t.Helper()
	c, err := ReadLlama2C(filepath.Join("..", "testdata", "stories260K.bin"), filepath.Join("..", "testdata", "stories260K-tok512.bin"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestStories260KGreedy(t *testing.T) {
	c := stories(t)
	m, err := c.Model()
	if err != nil {
		t.Fatal(err)
	}
	tok := c.Tokenizer()
	for _, tc := range readCases(t, filepath.Join("..", "testdata", "stories260K-greedy-reference.jsonl")) {
		got, _ := runC(t, m, tok, tc.Prompt, tc.Steps)
		if got != tc.Output {
			t.Errorf("greedy(%q) =\n%q\nwant\n%q", tc.Prompt, got, tc.Output)
		}
	}
}

// TestLlama2CToGGUF converts the checkpoint to GGUF and checks that the
// GGUF path generates the same tokens.
func TestLlama2CToGGUF(t *testing.T) {
	c := stories(t)
	p := writeGGUF(t, c)
	g, err := LoadGGUF(p)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	f, _ := gguf.Open(p)
	defer f.Close()
	gtok, err := tokenizer.FromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := c.Model()
	for _, prompt := range []string{"Once upon a time", "Tom and his dog", "  two spaces, ünïcode ☃\nnewline"} {
		a, sa := runC(t, m, c.Tokenizer(), prompt, 100)
		b, sb := runC(t, g, gtok, prompt, 100)
		if a != b || !slicesEqual(sa, sb) {
			t.Errorf("prompt %q: llama2.c path %q (%v)\nGGUF path %q (%v)", prompt, a, sa, b, sb)
		}
	}
}

// writeGGUF converts the checkpoint to a GGUF file in a temporary
// directory and returns its path.
func writeGGUF(t *testing.T, c *Llama2C) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stories260K.gguf")
	fw, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteGGUF(fw, "stories260K"); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAidreamsGreedy runs the shared (unlicensed, not shipped) aidreams260K
// model against its llama2.c reference.
func TestAidreamsGreedy(t *testing.T) {
	dir := filepath.Join(sharedModels(t))
	c, err := ReadLlama2C(filepath.Join(dir, "aidreams260K.bin"), filepath.Join(dir, "tok512.bin"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Model()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range readCases(t, filepath.Join(dir, "greedy-reference.jsonl")) {
		got, _ := runC(t, m, c.Tokenizer(), tc.Prompt, tc.Steps)
		if got != tc.Output {
			t.Errorf("greedy(%q) =\n%q\nwant\n%q", tc.Prompt, got, tc.Output)
		}
	}
}

// TestLlamaCppGolden runs stories260K converted to GGUF through the GGUF
// path and compares prompt tokens and greedy tokens with llama.cpp's on the
// same GGUF file (recorded by llm/testdata/llamacpp-greedy.mjs).
func TestLlamaCppGolden(t *testing.T) {
	c := stories(t)
	p := filepath.Join(t.TempDir(), "stories260K.gguf")
	fw, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteGGUF(fw, "stories260K"); err != nil {
		t.Fatal(err)
	}
	fw.Close()
	b, err := Load(p, "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	f, err := os.Open(filepath.Join("..", "testdata", "stories260K-llamacpp-greedy.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var g struct {
			Prompt       string `json:"prompt"`
			Steps        int    `json:"steps"`
			PromptTokens []int  `json:"prompt_tokens"`
			Tokens       []int  `json:"tokens"`
			Output       string `json:"output"`
		}
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		n++
		got, seq := runC(t, b.Model, b.Tokenizer, g.Prompt, g.Steps)
		np := len(g.PromptTokens)
		if !slicesEqual(seq[:min(np, len(seq))], g.PromptTokens) {
			t.Errorf("prompt %q: tokens %v; llama.cpp %v", g.Prompt, seq[:min(np, len(seq))], g.PromptTokens)
			continue
		}
		if !slicesEqual(seq[np:], g.Tokens) {
			t.Errorf("prompt %q: generated %v\nllama.cpp %v", g.Prompt, seq[np:], g.Tokens)
		}
		if got != g.Output {
			t.Errorf("prompt %q: text %q\nllama.cpp %q", g.Prompt, got, g.Output)
		}
	}
	if n == 0 {
		t.Fatal("no golden cases")
	}
}

// FuzzParseLlama2C feeds arbitrary bytes to the checkpoint and tokenizer
// parsers: they fail cleanly or give weights that match their header.
func FuzzParseLlama2C(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "stories260K.bin"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b[:28+4*64*8])
	f.Add(b[:28])
	tb, _ := os.ReadFile(filepath.Join("..", "testdata", "stories260K-tok512.bin"))
	f.Add(tb[:200])
	f.Fuzz(func(t *testing.T, data []byte) {
		if c, err := parseLlama2C(data); err == nil {
			if len(c.Embed) != c.Vocab*c.Dim || len(c.OutNorm) != c.Dim {
				t.Fatalf("parsed %d embeddings and %d norms for %+v", len(c.Embed), len(c.OutNorm), c.Config)
			}
			if _, err := c.Model(); err != nil {
				t.Fatalf("Model of a parsed checkpoint: %v", err)
			}
		}
		if tokens, scores, err := parseLlama2CTokenizer(data, 16); err == nil && (len(tokens) != 16 || len(scores) != 16) {
			t.Fatalf("tokenizer: %d tokens, %d scores; want 16", len(tokens), len(scores))
		}
	})
}

// TestLlama2CStopsAtBOS checks that a llama2.c model's generation ends when
// it writes BOS, as llama2.c's run.c does (its training texts are
// separated by BOS; EOS never occurs), on both the checkpoint's tokenizer
// and the GGUF file it converts to.
func TestLlama2CStopsAtBOS(t *testing.T) {
	c := stories(t)
	if tok := c.Tokenizer(); !tok.EOG(1) || !tok.EOG(2) || tok.EOG(0) || tok.EOG(3) {
		t.Errorf("checkpoint tokenizer: EOG(0..3) = %v %v %v %v; want false true true false", tok.EOG(0), tok.EOG(1), tok.EOG(2), tok.EOG(3))
	}
	p := writeGGUF(t, c)
	for _, path := range []string{p, filepath.Join("..", "testdata", "stories260K.bin")} {
		tp := ""
		if path != p {
			tp = filepath.Join("..", "testdata", "stories260K-tok512.bin")
		}
		b, err := Load(path, tp)
		if err != nil {
			t.Fatal(err)
		}
		if !b.Tokenizer.EOG(1) || !b.Tokenizer.EOG(2) {
			t.Errorf("Load(%s): EOG(1) %v, EOG(2) %v; want both", filepath.Base(path), b.Tokenizer.EOG(1), b.Tokenizer.EOG(2))
		}
		b.Close()
	}
}
