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
// # Chat templates
//
// The go driver renders a conversation through the model's chat template
// (the GGUF's tokenizer.chat_template, a Jinja program) with package
// [github.com/sottolabs/sotto/llm/chattemplate]. A template that refuses
// the conversation (raise_exception) fails with an ErrInvalidRequest error.
// A GGUF without a template, or a llama2.c checkpoint, gets the contents
// as raw text.
//
// # Tool calling
//
// [Options.Tools] offers functions to a model whose template renders tools
// ([ToolCaller]; [FileFeatures] reports it as the catalog feature
// tool_calling). The calls the model writes, in its family's syntax
// (Hermes/Qwen <tool_call>, Llama 3.1 JSON, Mistral [TOOL_CALLS]), are not
// emitted as text: [Report.ToolCalls] returns them, with the stop reason
// [StopToolCalls]. Conversations carry earlier calls in
// [Message.ToolCalls] and their results as "tool" messages.
// [Options.ToolChoice] forces a call.
//
// # Structured output
//
// [Options.JSONSchema] constrains the reply to JSON valid against a schema
// by masking, before each token, the tokens the schema's grammar cannot
// take next; forced tool calls work the same way. [CheckJSONSchema] tells
// whether a schema is within the supported subset.
//
// # Related packages
//
// [github.com/sottolabs/sotto/llm/gguf] reads and writes GGUF files,
// [github.com/sottolabs/sotto/llm/tokenizer] holds the
// SentencePiece and byte-level BPE tokenizers, and internal/tensor the
// numeric kernels.
package llm
