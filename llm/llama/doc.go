// Package llama is Sotto's pure-Go inference engine for llama-family
// language models (Llama 2/3, Mistral, TinyLlama, SmolLM, Qwen2/2.5/3),
// loaded from GGUF files or llama2.c checkpoints:
//
//	import "github.com/sottolabs/sotto/llm/llama"
//
//	b, err := llama.Load("model.gguf", "")
//	if err != nil { ... }
//	defer b.Close()
//	pool := llama.NewPool(0) // GOMAXPROCS goroutines
//	defer pool.Close()
//	s := b.Model.NewState(0, pool)
//	prompt := b.Tokenizer.Encode("Once upon a time", true, false)
//	res, err := llama.Generate(context.Background(), s, b.Tokenizer, prompt, llama.GenerateOptions{MaxTokens: 64},
//		func(text string, id int) error { fmt.Print(text); return nil })
//	fmt.Println(res.Stop, err)
//
// # The forward pass
//
// Each layer is RMSNorm, attention with rotary position embeddings (the
// adjacent-pair layout of GGUF's llama and of llama2.c, or the NeoX
// half-split layout of Qwen), grouped-query attention over a float32
// key/value cache, and a SwiGLU feed-forward block; Qwen2 adds q/k/v biases
// and Qwen3 per-head q/k RMSNorm. Hyperparameters come from the GGUF
// metadata ({arch}.embedding_length, .attention.head_count_kv,
// .rope.freq_base, .attention.key_length, ...). The output matrix is
// output.weight, or the token embedding when the file has none (tied).
//
// Prompts run [MaxBatch] tokens at a time through each weight matrix
// ([Pool.MatMul]), and their attention takes, per key-value head, blocks
// of queries against all keys at once (two matrix products); generation
// runs one token per [State.Forward]. The two agree up to the order of
// float additions.
// Weights stay memory-mapped in their stored type; the kernels live in
// internal/tensor.
//
// # Checked against
//
// The tests check logits of random-weight GGUF files of every tensor type
// against a float64 forward pass, and greedy generations of the stories260K
// llama2.c model (shipped in llm/testdata) against llama2.c's own output.
package llama
