// Package tokenizer turns text into the token IDs of a language model and
// back, from the vocabulary stored in a GGUF file (or a llama2.c
// tokenizer.bin):
//
//	import (
//		"github.com/sottolabs/sotto/llm/gguf"
//		"github.com/sottolabs/sotto/llm/tokenizer"
//	)
//
//	f, err := gguf.Open("model.gguf")
//	if err != nil { ... }
//	defer f.Close()
//	tok, err := tokenizer.FromGGUF(f)
//	if err != nil { ... }
//	ids := tok.Encode("Hello world", true, false) // with BOS, no control tokens
//	fmt.Println(ids, tok.Decode(ids))
//
// Two kinds are implemented: [SentencePiece] (tokenizer.ggml.model "llama":
// Llama 1/2, Mistral, TinyLlama; merges by piece score, byte fallback) and
// [BPE] (tokenizer.ggml.model "gpt2": Llama 3, Qwen2/2.5/3, SmolLM; ranked
// merges over bytes mapped to printable characters, after a pre-tokenizer
// chosen by tokenizer.ggml.pre).
//
// A Tokenizer is immutable and safe for concurrent use.
package tokenizer
