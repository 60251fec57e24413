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
// # Special tokens
//
// Control tokens written in the text (e.g. "<|im_start|>") become tokens
// only when Encode's special argument is true; user-defined tokens (a
// vocabulary's non-special added tokens, such as GPT-NeoX's runs of spaces)
// always do, as in Hugging Face tokenizers and llama.cpp. In a SentencePiece
// vocabulary the text after such a token gets the space prefix, as at the
// start. Phi-3's special tokens swallow the white space after them, as its
// tokenizer configuration says (GGUF files do not record this; the model
// is recognised by general.name, as llama.cpp does).
//
// # Checked against llama.cpp
//
// The tests tokenize llama.cpp's own tokenizer test strings with its
// vocabulary files (testdata/llamacpp: Llama SentencePiece, Phi-3, GPT-2,
// MPT, StarCoder/SmolLM, Refact; Llama 3 and Qwen2 when fetch-bpe.sh has
// built them) and 1272 more strings per vocabulary whose IDs llama.cpp
// produced, and compare the IDs exactly.
//
// A Tokenizer is immutable and safe for concurrent use.
package tokenizer
