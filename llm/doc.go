// Package llm runs language models for the generation endpoints (Messages,
// Responses, Chat Completions).
//
//	b, err := llm.Open(ctx, "go", backend.Config{Options: map[string]string{llm.OptModelFile: "model.gguf"}})
//	if err != nil { ... }
//	defer b.Close()
//	err = b.Generate(ctx, []llm.Message{{Role: "user", Content: "Hi"}}, llm.Options{MaxTokens: 64},
//		func(t llm.Token) error { fmt.Print(t.Text); return nil })
//
// # Backends
//
// A language-model [Driver] registers itself from init. The "go" driver,
// registered by this package, runs the pure-Go engine of [github.com/sottolabs/sotto/llm/llama] on
// GGUF files (llama, mistral, qwen2 and qwen3 architectures; F32, F16,
// BF16, Q8_0, Q4_0, Q4_K, Q5_K and Q6_K weights) and on llama2.c
// checkpoints. Its options are [OptModelFile], [OptTokenizerFile] and
// [OptContextLength].
//
// # Related packages
//
// [github.com/sottolabs/sotto/llm/gguf] reads and writes GGUF files,
// [github.com/sottolabs/sotto/llm/tokenizer] holds the
// SentencePiece and byte-level BPE tokenizers, and internal/tensor the
// numeric kernels.
package llm
