package llm

import "context"

// This file holds optional extensions of [Backend], checked by type
// assertion (like driver.Pinger or http.Flusher). A backend that does not
// implement one still works; the server then reports less (see
// server/generation.go).

// Tokenizer is implemented by a [Backend] that exposes its tokenizer.
// Tokenize returns the token IDs of text as the model would read it inside
// a prompt: no beginning-of-sequence token is added and special-token text
// is read as plain text.
type Tokenizer interface {
	Tokenize(ctx context.Context, text string) ([]int, error)
}

// StopReason says why a generation ended.
type StopReason string

// The stop reasons of a [Report].
const (
	StopEnd       StopReason = "stop"          // the model produced an end-of-generation token
	StopSequence  StopReason = "stop_sequence" // one of Options.Stop was generated
	StopLength    StopReason = "length"        // Options.MaxTokens or the context length was reached
	StopToolCalls StopReason = "tool_calls"    // the model called tools (Report.ToolCalls)
)

// Report is what a [Reporter] says about a finished generation.
type Report struct {
	// PromptTokens is the number of tokens of the rendered prompt.
	PromptTokens int
	// OutputTokens is the number of generated tokens, the stop token
	// included.
	OutputTokens int
	// Stop is why the generation ended.
	Stop StopReason
	// StopSequence is the element of Options.Stop that ended it, for
	// StopSequence.
	StopSequence string
	// ToolCalls are the calls the model made (Stop is StopToolCalls). Their
	// text was not emitted; a backend that streams calls emitted them as
	// Token.Call deltas, in this order. A generation that stopped inside
	// a call (cut short by MaxTokens, or the call's syntax broke off after
	// it had been announced) ends with that call, its Arguments the text
	// streamed so far, which is not a complete JSON object; Stop is then
	// the reason it stopped, not StopToolCalls.
	ToolCalls []ToolCall
}

// Reporter is implemented by a [Backend] that reports token usage and the
// stop reason. GenerateReport behaves as Backend.Generate and returns the
// report of the generation when it ends without error.
type Reporter interface {
	GenerateReport(ctx context.Context, msgs []Message, opts Options, emit func(Token) error) (Report, error)
}

// ToolCaller is implemented by a [Backend] that can tell whether its model
// calls tools: SupportsTools reports whether Options.Tools is honoured.
// A backend that does not implement it is assumed not to.
type ToolCaller interface {
	SupportsTools() bool
}

// PromptCounter is implemented by a [Backend] that can count the tokens of
// a prompt before generating: CountPrompt returns the Report.PromptTokens
// that GenerateReport would report for msgs and opts, without running the
// model. A server uses it to state the input tokens at the start of a
// stream (the Messages protocol's message_start).
type PromptCounter interface {
	CountPrompt(ctx context.Context, msgs []Message, opts Options) (int, error)
}
