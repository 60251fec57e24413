// Command hf2gguf writes a vocabulary-only GGUF file from a Hugging Face
// tokenizer.json of a byte-level BPE model, with the tokenizer.ggml.* keys
// llama.cpp's converter writes for such a vocabulary: tokens by ID, token
// types (added tokens marked special, or written like "<|...|>", are
// control tokens; other added tokens user-defined), merges as "a b" lines
// and the pre-tokenizer name given on the command line.
//
// Usage: go run ./llm/tokenizer/testdata/llamacpp/hf2gguf -pre qwen2 tokenizer.json out.gguf
//
// It stands in for llama.cpp's ggml-vocab-llama-bpe.gguf and
// ggml-vocab-qwen2.gguf, which are too large for the snapshot this project
// could copy; see fetch-bpe.sh.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/sottolabs/sotto/llm/gguf"
)

type tokenizerJSON struct {
	AddedTokens []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
		Special bool   `json:"special"`
	} `json:"added_tokens"`
	Model struct {
		Type   string            `json:"type"`
		Vocab  map[string]int    `json:"vocab"`
		Merges []json.RawMessage `json:"merges"`
	} `json:"model"`
}

func main() {
	pre := flag.String("pre", "", "tokenizer.ggml.pre value (llama-bpe, qwen2, ...)")
	bos := flag.String("bos", "", "text of the BOS token, if any")
	eos := flag.String("eos", "", "text of the EOS token")
	flag.Parse()
	if flag.NArg() != 2 || *pre == "" {
		fmt.Fprintln(os.Stderr, "usage: hf2gguf -pre NAME [-bos TEXT] [-eos TEXT] tokenizer.json out.gguf")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *pre, *bos, *eos); err != nil {
		fmt.Fprintln(os.Stderr, "hf2gguf:", err)
		os.Exit(1)
	}
}

func run(in, out, pre, bos, eos string) error {
	b, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var tj tokenizerJSON
	if err := json.Unmarshal(b, &tj); err != nil {
		return err
	}
	if tj.Model.Type != "BPE" {
		return fmt.Errorf("model type %q, want BPE", tj.Model.Type)
	}
	n := 0
	for _, id := range tj.Model.Vocab {
		n = max(n, id+1)
	}
	for _, a := range tj.AddedTokens {
		n = max(n, a.ID+1)
	}
	tokens := make([]string, n)
	types := make([]int32, n)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("[PAD%d]", i)
		types[i] = 5 // unused
	}
	for t, id := range tj.Model.Vocab {
		tokens[id], types[id] = t, 1 // normal
	}
	for _, a := range tj.AddedTokens {
		tokens[a.ID] = a.Content
		if a.Special || strings.HasPrefix(a.Content, "<|") && strings.HasSuffix(a.Content, "|>") {
			types[a.ID] = 3 // control
		} else {
			types[a.ID] = 4 // user-defined
		}
	}
	merges := make([]string, 0, len(tj.Model.Merges))
	for _, m := range tj.Model.Merges {
		var s string
		if json.Unmarshal(m, &s) == nil {
			merges = append(merges, s)
			continue
		}
		var pair []string
		if err := json.Unmarshal(m, &pair); err != nil || len(pair) != 2 {
			return fmt.Errorf("merge %s: want \"a b\" or [\"a\", \"b\"]", m)
		}
		merges = append(merges, pair[0]+" "+pair[1])
	}
	w := &gguf.Writer{}
	w.AddKV("general.architecture", "llama")
	w.AddKV("tokenizer.ggml.model", "gpt2")
	w.AddKV("tokenizer.ggml.pre", pre)
	w.AddKV("tokenizer.ggml.tokens", tokens)
	w.AddKV("tokenizer.ggml.token_type", types)
	w.AddKV("tokenizer.ggml.merges", merges)
	for _, kv := range [][2]string{{"tokenizer.ggml.bos_token_id", bos}, {"tokenizer.ggml.eos_token_id", eos}} {
		key, text := kv[0], kv[1]
		if text == "" {
			continue
		}
		id := -1
		for i, t := range tokens {
			if t == text {
				id = i
				break
			}
		}
		if id < 0 {
			return fmt.Errorf("no token %q", text)
		}
		w.AddKV(key, uint32(id))
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if _, err := w.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
