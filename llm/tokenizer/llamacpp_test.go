package tokenizer

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/llm/gguf"
)

// llamaCppVocabs are the vocabulary-only GGUF files of llama.cpp's
// tokenizer tests in testdata/llamacpp (see the README there). The
// llama-bpe and qwen2 files are built by testdata/llamacpp/fetch-bpe.sh and
// skipped when absent.
var llamaCppVocabs = []string{
	"llama-bpe", // byte-level BPE, Llama 3 expression, ignore_merges
	"qwen2",     // byte-level BPE, Qwen2 expression (digits one by one)
	"llama-spm", // SentencePiece, Llama 1/2, TinyLlama, Mistral v0.1 layout
	"phi-3",     // SentencePiece, Phi-3 (Llama 2 pieces plus chat tokens)
	"gpt-2",     // byte-level BPE, GPT-2 expression
	"mpt",       // byte-level BPE, GPT-2 expression (GPT-NeoX vocabulary)
	"starcoder", // byte-level BPE, digits alone then GPT-2 (SmolLM's expressions)
	"refact",    // byte-level BPE, the same expressions as starcoder
}

// openLlamaCppVocab builds the tokenizer of testdata/llamacpp's vocabulary
// name through FromGGUF, as the engine does, and returns the file's path.
func openLlamaCppVocab(t *testing.T, name string) (string, Tokenizer) {
	t.Helper()
	base := filepath.Join("testdata", "llamacpp", "ggml-vocab-"+name+".gguf")
	if _, err := os.Stat(base); errors.Is(err, fs.ErrNotExist) && (name == "llama-bpe" || name == "qwen2") {
		t.Skipf("%s absent: run testdata/llamacpp/fetch-bpe.sh", base)
	}
	f, err := gguf.Open(base)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tok, err := FromGGUF(f)
	if err != nil {
		t.Fatalf("FromGGUF: %v", err)
	}
	return base, tok
}

// readLlamaCppCases reads a .inp/.out pair the way llama.cpp's
// tests/test-tokenizer-0.cpp does: inputs separated by
// "\n__ggml_vocab_test__\n", one line of space-separated token IDs each.
func readLlamaCppCases(t *testing.T, base string) (inputs []string, want [][]int) {
	t.Helper()
	inp, err := os.ReadFile(base + ".inp")
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(base + ".out")
	if err != nil {
		t.Fatal(err)
	}
	const sep = "\n__ggml_vocab_test__\n"
	for s := string(inp); len(s) > 0; {
		i := strings.Index(s, sep)
		if i < 0 {
			inputs = append(inputs, s)
			break
		}
		inputs = append(inputs, s[:i])
		s = s[i+len(sep):]
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(inputs) {
		t.Fatalf("%s: %d inputs, %d output lines", base, len(inputs), len(lines))
	}
	for _, l := range lines {
		var ids []int
		for f := range strings.FieldsSeq(l) {
			id, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s.out: %v", base, err)
			}
			ids = append(ids, id)
		}
		want = append(want, ids)
	}
	return inputs, want
}

// TestLlamaCppVocabs tokenizes llama.cpp's test strings with tokenizers
// built from its vocabulary files (through FromGGUF, as the engine does) and
// compares with the token IDs llama.cpp's tests expect. Like
// test-tokenizer-0, it adds no BOS and parses no special tokens.
func TestLlamaCppVocabs(t *testing.T) {
	for _, name := range llamaCppVocabs {
		t.Run(name, func(t *testing.T) {
			base, tok := openLlamaCppVocab(t, name)
			inputs, want := readLlamaCppCases(t, base)
			exact := 0
			for i, s := range inputs {
				got := tok.Encode(s, false, false)
				if slices.Equal(got, want[i]) {
					exact++
				} else {
					t.Errorf("Encode(%q) = %v; want %v", s, got, want[i])
				}
				if dec := tok.Decode(want[i]); dec != s {
					t.Errorf("Decode(%v) = %q; want %q", want[i], dec, s)
				}
			}
			t.Logf("%s: %d/%d exact", name, exact, len(inputs))
		})
	}
}

// TestSentencePieceSpecialPrefix checks that text right after a control
// token gets the space prefix, as at the start of the input (llama.cpp's
// SPM tokenizer encodes each stretch between special tokens as if it began
// the text).
func TestSentencePieceSpecialPrefix(t *testing.T) {
	f, err := gguf.Open(filepath.Join("testdata", "llamacpp", "ggml-vocab-llama-spm.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tok, err := FromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	once := tok.Encode("Once", false, false)
	for _, c := range []struct {
		text string
		want []int
	}{
		{"<s>Once", append([]int{1}, once...)},
		{"Once</s><s>Once", slices.Concat(once, []int{2, 1}, once)},
	} {
		if got := tok.Encode(c.text, false, true); !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q) = %v; want %v", c.text, got, c.want)
		}
	}
	if len(once) != 1 || tok.(*SentencePiece).Text(once[0]) != "▁Once" {
		t.Errorf("Encode(%q) = %v; want the single piece ▁Once", "Once", once)
	}
}

// TestLlamaCppExtra compares with llama.cpp's token IDs recorded by
// testdata/llamacpp/record-extra.mjs: the strings of extra.txt (chat
// prompts with each family's control tokens, many scripts, code, white
// space), 300 seeded random strings and 300 of code points from all of
// Unicode, each without and with special-token parsing; and
// Decode(Encode(s)) == s wherever llama.cpp's detokenizer gives s back.
func TestLlamaCppExtra(t *testing.T) {
	for _, name := range llamaCppVocabs {
		t.Run(name, func(t *testing.T) {
			_, tok := openLlamaCppVocab(t, name)
			b, err := os.ReadFile(filepath.Join("testdata", "llamacpp", "extra-"+name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			// llama.cpp turns every token spelt like an end-of-turn marker
			// into a control token whatever its type in the file
			// (src/llama-vocab.cpp, "</s> // paddleocr"): Qwen2's ordinary
			// piece "</s>" and Phi-3's non-special added token "</s>". We
			// keep the file's types, as the models' own tokenizers do, so
			// texts with such a token are expected to differ.
			var v *vocab
			switch x := tok.(type) {
			case *SentencePiece:
				v = &x.vocab
			case *BPE:
				v = &x.vocab
			}
			var overridden []string
			for _, t := range []string{"</s>"} {
				if id, ok := v.ids[t]; ok && v.typ(id) != typeControl {
					overridden = append(overridden, t)
				}
			}
			n, exact, failed, skipped, apart := 0, 0, 0, 0, 0
			for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
				var c struct {
					Text      string
					Special   bool
					IDs       []int
					Roundtrip bool
				}
				if err := json.Unmarshal([]byte(line), &c); err != nil {
					t.Fatal(err)
				}
				got := tok.Encode(c.Text, false, c.Special)
				if slices.ContainsFunc(overridden, func(t string) bool { return strings.Contains(c.Text, t) }) {
					skipped++
					if !slices.Equal(got, c.IDs) {
						apart++
					}
					continue
				}
				n++
				// Where llama.cpp's detokenizer gives the text back, ours
				// must too (texts with control tokens aside: Decode leaves
				// them out).
				if !c.Special && c.Roundtrip {
					if dec := tok.Decode(got); dec != c.Text {
						t.Errorf("Decode(Encode(%q)) = %q", c.Text, dec)
					}
				}
				if slices.Equal(got, c.IDs) {
					exact++
				} else if failed++; failed <= 10 {
					t.Errorf("Encode(%q, special %v) = %v; want %v", c.Text, c.Special, got, c.IDs)
				}
			}
			t.Logf("%s: %d/%d exact; %d more not compared (llama.cpp's end-of-turn override), %d of them different", name, exact, n, skipped, apart)
		})
	}
}

// TestEOGTokens checks which tokens end generation: the EOS token, and
// control tokens that end a turn (Phi-3's <|end|>), not others.
func TestEOGTokens(t *testing.T) {
	for _, c := range []struct {
		vocab, token string
		want         bool
	}{
		{"llama-spm", "</s>", true},
		{"llama-spm", "<s>", false},
		{"phi-3", "<|end|>", true},
		{"phi-3", "<|endoftext|>", true},
		{"phi-3", "<|user|>", false},
		{"phi-3", "<|assistant|>", false},
		{"gpt-2", "<|endoftext|>", true},
	} {
		_, tok := openLlamaCppVocab(t, c.vocab)
		id := tok.Encode(c.token, false, true)
		if len(id) != 1 {
			t.Fatalf("%s: Encode(%q) = %v; want one token", c.vocab, c.token, id)
		}
		if got := tok.EOG(id[0]); got != c.want {
			t.Errorf("%s: EOG(%q) = %v; want %v", c.vocab, c.token, got, c.want)
		}
	}
}
