package llm

import (
	"context"
	"encoding/json"

	"github.com/sottolabs/sotto/backend"
)

// Message is one turn of a conversation. Its JSON form is a Chat
// Completions message without tool calls (the tool fields are left out
// when empty).
type Message struct {
	Role    string `json:"role"` // "system", "user", "assistant" or "tool"
	Content string `json:"content"`
	// ToolCalls are the calls an assistant turn made.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID and Name identify the call a "tool" turn answers (the
	// result is Content).
	ToolCallID string `json:"tool_call_id,omitempty"`
	Name       string `json:"name,omitempty"`
}

// ToolCall is one function call written by the model.
type ToolCall struct {
	// ID identifies the call (the server assigns one when the model gives
	// none).
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is a JSON object.
	Arguments json.RawMessage `json:"arguments"`
}

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments (nil: none).
	Parameters json.RawMessage
}

// Options bounds a generation. The zero value decodes greedily up to the
// model's context length.
type Options struct {
	// MaxTokens caps the generated tokens (0: until the model stops or the
	// context is full).
	MaxTokens int
	// Temperature divides the logits before sampling; 0 means greedy.
	Temperature float64
	// Seed makes sampling repeatable; nil means a fixed default seed.
	Seed *int64
	// TopK, TopP and MinP restrict sampling to the most likely tokens (0:
	// off); see the engine's documentation in llm/llama.
	TopK int
	TopP float64
	MinP float64
	// RepeatPenalty > 1 discourages recently generated tokens (0 or 1: off).
	RepeatPenalty float64
	// Stop ends generation before any of these strings.
	Stop []string
	// Tools are offered to the model; the calls it writes are reported in
	// Report.ToolCalls instead of being emitted as text. A backend whose
	// model cannot call tools (see [ToolCaller]) refuses them with an
	// ErrInvalidRequest error, code unsupported_parameter.
	Tools []Tool
	// ToolChoice forces a tool call: "required" (a call of any of Tools)
	// or the name of one of Tools. "" or "auto" leaves the choice to the
	// model. A forced call is written by constrained decoding in the
	// template's tool-call syntax, with arguments valid against the tool's
	// parameters schema (see [CheckJSONSchema] for the subset).
	ToolChoice string
	// JSONSchema, when set, constrains the output to JSON that validates
	// against this schema (grammar-constrained decoding: the reply always
	// parses and validates, unless it is cut short by MaxTokens, a stop
	// sequence or the context length). See [CheckJSONSchema] for the
	// supported subset; it cannot be combined with Tools.
	JSONSchema json.RawMessage
}

// CheckJSONSchema reports whether schema can constrain a generation
// (Options.JSONSchema): nil, or an ErrInvalidRequest error, code
// unsupported_parameter, that names what is not supported (keywords such
// as pattern or minimum, which constrained decoding does not enforce).
// param names the schema's field in the caller's request.
func CheckJSONSchema(schema json.RawMessage, param string) error {
	_, err := compileSchema(schema, param)
	return err
}

// Token is one generated piece of text, or a piece of a tool call.
type Token struct {
	Text string
	ID   int
	// Call, when not nil, is a piece of a tool call (see Options.Tools)
	// read from the output as the model writes it; Text is then empty.
	// A backend that reads calls only at the end never sets it and
	// reports the calls in Report.ToolCalls alone.
	Call *ToolCallDelta
}

// ToolCallDelta is a piece of a tool call streamed as the model writes
// it: the call's first delta names it as soon as the name is known, the
// following ones carry the rest of its arguments. Report.ToolCalls[Index]
// is the call when the generation ends; its Arguments are the Arguments
// of the call's deltas joined in order.
type ToolCallDelta struct {
	// Index is the call's position in Report.ToolCalls, from 0.
	Index int
	// ID and Name are set in the call's first delta only (ID when the
	// model wrote one before the arguments; the server assigns one
	// otherwise).
	ID, Name string
	// Arguments is the next piece of the arguments' JSON text.
	Arguments string
}

// Backend is what a language-model driver implements. Generate calls emit
// for each token, from the calling goroutine only.
type Backend interface {
	Generate(ctx context.Context, msgs []Message, opts Options, emit func(Token) error) error
	Close() error
}

// Driver is a named way to open a [Backend].
type Driver = backend.Driver[Backend]

var drivers = backend.NewRegistry[Backend]("llm")

// Register makes a language-model driver available; call it from init.
func Register(d Driver) { drivers.Register(d) }

// Drivers returns the names of the registered drivers, sorted.
func Drivers() []string { return drivers.Drivers() }

// Open opens the named driver, or the highest-priority one for "".
func Open(ctx context.Context, name string, cfg backend.Config) (Backend, error) {
	return drivers.Open(ctx, name, cfg)
}
