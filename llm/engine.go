package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/llm/chattemplate"
	"github.com/sottolabs/sotto/llm/internal/jsongrammar"
	"github.com/sottolabs/sotto/llm/llama"
	"github.com/sottolabs/sotto/llm/tokenizer"
)

// Options of the "go" driver in backend.Config.Options.
const (
	// OptModelFile is the model: a GGUF file or a llama2.c checkpoint.
	// Without it, the driver opens the only *.gguf file in Config.ModelDir.
	OptModelFile = "model_file"
	// OptTokenizerFile is a llama2.c checkpoint's tokenizer.bin.
	OptTokenizerFile = "tokenizer_file"
	// OptContextLength caps the context in tokens (default: the model's,
	// at most DefaultContextLength). The key/value cache takes
	// 8 × layers × key/value width bytes per token.
	OptContextLength = "context_length"
)

// DefaultContextLength bounds the context of the "go" driver when
// OptContextLength is not set: models trained for 32 K tokens would
// otherwise reserve their whole key/value cache (≈ 800 MB for a 0.5B Qwen)
// up front.
const DefaultContextLength = 4096

func init() {
	Register(Driver{Name: "go", Priority: 10, Open: openGo})
}

// goBackend runs the pure-Go engine. Generations on one backend run one
// at a time (they share the key/value cache).
type goBackend struct {
	b         *llama.Bundle
	tmpl      *chattemplate.Template // nil: no template, or one the renderer cannot parse
	pool      *tensor.Pool
	ctxLen    int
	mu        sync.Mutex
	state     *llama.State
	visible   map[int]string // control tokens shown as text: the tool-call markers
	vocabOnce sync.Once
	vocab     *jsongrammar.Vocab // for constrained decoding, built on first use
}

var (
	_ Backend       = (*goBackend)(nil)
	_ Tokenizer     = (*goBackend)(nil)
	_ Reporter      = (*goBackend)(nil)
	_ ToolCaller    = (*goBackend)(nil)
	_ PromptCounter = (*goBackend)(nil)
)

func openGo(ctx context.Context, cfg backend.Config) (Backend, error) {
	path := cfg.Options[OptModelFile]
	if path == "" {
		if cfg.ModelDir == "" {
			return nil, sotto.Invalid("model_not_configured", "model", "llm: go: no model file (set %s or a model directory)", OptModelFile)
		}
		m, _ := filepath.Glob(filepath.Join(cfg.ModelDir, "*.gguf"))
		if len(m) != 1 {
			return nil, sotto.NotFound("model_not_found", "model", "llm: go: %d GGUF files in %s; want exactly one (or set %s)", len(m), cfg.ModelDir, OptModelFile)
		}
		path = m[0]
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := llama.Load(path, cfg.Options[OptTokenizerFile])
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			what := "model"
			if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Path != path && pe.Path == cfg.Options[OptTokenizerFile] {
				what = "tokenizer"
			}
			return nil, &sotto.Error{Kind: sotto.ErrNotFound, Code: "model_not_found", Param: "model", Message: "llm: go: " + what + " file missing", Err: err}
		}
		return nil, fmt.Errorf("llm: go: %w", err)
	}
	g := &goBackend{b: b, pool: tensor.NewPool(cfg.Threads), ctxLen: min(b.Model.Context, DefaultContextLength)}
	if b.ChatTemplate != "" {
		// A template the renderer cannot parse falls back to the marker
		// guess of renderPrompt.
		g.tmpl, _ = chattemplate.Parse(b.ChatTemplate)
		if g.tmpl != nil {
			g.visible = markerTokens(b.Tokenizer, g.tmpl.ToolFormat())
		}
	}
	if s := cfg.Options[OptContextLength]; s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			g.Close()
			return nil, sotto.Invalid("invalid_option", OptContextLength, "llm: go: %s %q is not a positive integer", OptContextLength, s)
		}
		g.ctxLen = min(n, b.Model.Context)
	}
	return g, nil
}

// Generate renders the conversation as the model's prompt (see
// renderPrompt) and streams the continuation. A prompt that does not fit
// the context fails with an ErrInvalidRequest error, code
// context_length_exceeded.
func (g *goBackend) Generate(ctx context.Context, msgs []Message, opts Options, emit func(Token) error) error {
	_, err := g.GenerateReport(ctx, msgs, opts, emit)
	return err
}

// Tokenize implements [Tokenizer]: the model's tokens for text, without the
// BOS token, control-token text read as plain text.
func (g *goBackend) Tokenize(ctx context.Context, text string) ([]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return g.b.Tokenizer.Encode(text, false, false), nil
}

// GenerateReport implements [Reporter]: Generate, returning the token counts
// and the stop reason.
func (g *goBackend) GenerateReport(ctx context.Context, msgs []Message, opts Options, emit func(Token) error) (Report, error) {
	if len(opts.Tools) > 0 && !g.SupportsTools() {
		return Report{}, sotto.Invalid("unsupported_parameter", "tools", "tools are not supported by this model: its chat template does not render tools")
	}
	if !g.SupportsTools() {
		for _, m := range msgs {
			if m.Role == "tool" || len(m.ToolCalls) > 0 {
				return Report{}, sotto.Invalid("unsupported_parameter", "messages", "tool calls and results are not supported by this model: its chat template does not render tools")
			}
		}
	}
	prompt, err := g.prompt(msgs, opts.Tools)
	if err != nil {
		return Report{}, err
	}
	var constraint *jsongrammar.Constraint
	if len(opts.JSONSchema) > 0 {
		if len(opts.Tools) > 0 {
			return Report{}, sotto.Invalid("unsupported_parameter", "response_format", "a JSON schema together with tools is not supported")
		}
		gr, err := compileSchema(opts.JSONSchema, "response_format")
		if err != nil {
			return Report{}, err
		}
		constraint = jsongrammar.NewConstraint(gr, g.grammarVocab())
	}
	if opts.ToolChoice != "" && opts.ToolChoice != "auto" && len(opts.Tools) > 0 {
		gr, err := forcedCall(g.tmpl, opts.Tools, opts.ToolChoice)
		if err != nil {
			return Report{}, err
		}
		constraint = jsongrammar.NewConstraint(gr, g.grammarVocab())
	}
	var split *chattemplate.Splitter
	shown := emit // the caller's emit, for text the splitter releases at the end
	if len(opts.Tools) > 0 {
		var tools []chattemplate.Tool
		for _, tl := range opts.Tools {
			tools = append(tools, chattemplate.Tool{Name: tl.Name, Description: tl.Description, Parameters: tl.Parameters})
		}
		split = chattemplate.NewSplitter(g.tmpl.ToolFormat(), tools...)
		next := emit
		emit = func(t Token) error {
			if s := split.Write(t.Text); s != "" {
				if err := next(Token{Text: s, ID: t.ID}); err != nil {
					return err
				}
			}
			return emitCalls(split, t.ID, next)
		}
	}
	tok := g.b.Tokenizer
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.state == nil {
		g.state = g.b.Model.NewState(g.ctxLen, g.pool)
	}
	if len(prompt) >= g.state.ContextLen() {
		return Report{PromptTokens: len(prompt)}, sotto.Invalid("context_length_exceeded", "messages", "llm: the prompt has %d tokens; the context holds %d", len(prompt), g.state.ContextLen())
	}
	g.state.Reset()
	o := llama.GenerateOptions{
		SampleOptions: llama.SampleOptions{Temperature: opts.Temperature, TopK: opts.TopK, TopP: opts.TopP,
			MinP: opts.MinP, RepeatPenalty: opts.RepeatPenalty},
		MaxTokens: opts.MaxTokens,
		Stop:      opts.Stop,
	}
	if opts.Seed != nil {
		o.Seed = uint64(*opts.Seed)
	}
	if constraint != nil {
		o.Constrain = constraint
	}
	o.Visible = g.visible
	res, err := llama.Generate(ctx, g.state, tok, prompt, o, func(s string, id int) error { return emit(Token{Text: s, ID: id}) })
	rep := Report{PromptTokens: res.PromptTokens, OutputTokens: res.Tokens, Stop: StopReason(res.Stop), StopSequence: res.StopSequence}
	if err != nil || split == nil {
		return rep, err
	}
	rest, calls := split.Finish()
	if err := emitCalls(split, -1, shown); err != nil {
		return rep, err
	}
	if rest != "" {
		if err := shown(Token{Text: rest, ID: -1}); err != nil {
			return rep, err
		}
	}
	complete := true
	for _, c := range calls {
		rep.ToolCalls = append(rep.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		// A prefix of a JSON object is never valid JSON itself.
		complete = complete && json.Valid(c.Arguments)
	}
	if len(calls) > 0 && complete {
		rep.Stop = StopToolCalls
	}
	return rep, nil
}

// emitCalls emits the call pieces the splitter has read as Token.Call
// deltas; id is the token that completed them (-1: the end).
func emitCalls(split *chattemplate.Splitter, id int, emit func(Token) error) error {
	for _, d := range split.Deltas() {
		if err := emit(Token{ID: id, Call: &ToolCallDelta{Index: d.Index, ID: d.ID, Name: d.Name, Arguments: d.Arguments}}); err != nil {
			return err
		}
	}
	return nil
}

// prompt renders msgs (and tools) as the model's prompt and returns its
// tokens, as GenerateReport reads them.
func (g *goBackend) prompt(msgs []Message, tools []Tool) ([]int, error) {
	var text string
	var err error
	if g.tmpl != nil {
		text, err = renderTemplate(g.tmpl, g.b.Tokenizer, msgs, tools)
	} else {
		text, err = renderPrompt(g.b, msgs)
	}
	if err != nil {
		return nil, err
	}
	tok := g.b.Tokenizer
	// A template that writes bos_token itself (Llama 3) gets no second one.
	addBOS := true
	if tt, ok := tok.(tokenTexter); ok && g.tmpl != nil && tok.BOS() >= 0 && strings.HasPrefix(text, tt.Text(tok.BOS())) {
		addBOS = false
	}
	return tok.Encode(text, addBOS, g.b.ChatTemplate != ""), nil
}

// CountPrompt implements [PromptCounter]: the tokens of the prompt
// GenerateReport would read for msgs and opts, without generating.
func (g *goBackend) CountPrompt(ctx context.Context, msgs []Message, opts Options) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	p, err := g.prompt(msgs, opts.Tools)
	return len(p), err
}

// SupportsTools implements [ToolCaller]: the model's chat template renders
// tools in a tool-call syntax the engine reads (see package chattemplate).
func (g *goBackend) SupportsTools() bool { return g.tmpl != nil && g.tmpl.SupportsTools() }

// tokenTexter is implemented by the tokenizers of package tokenizer.
type tokenTexter interface{ Text(id int) string }

// renderTemplate renders msgs through the model's chat template, ending
// with the header of the assistant's turn.
func renderTemplate(t *chattemplate.Template, tok interface {
	BOS() int
	EOS() int
}, msgs []Message, tools []Tool) (string, error) {
	if len(msgs) == 0 {
		return "", sotto.Invalid("invalid_request", "messages", "llm: no messages")
	}
	in := chattemplate.Input{AddGenerationPrompt: true}
	if tt, ok := tok.(tokenTexter); ok {
		in.BOS, in.EOS = tt.Text(tok.BOS()), tt.Text(tok.EOS())
	}
	for _, m := range msgs {
		cm := chattemplate.Message{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name}
		for _, c := range m.ToolCalls {
			cm.ToolCalls = append(cm.ToolCalls, chattemplate.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		in.Messages = append(in.Messages, cm)
	}
	for _, tl := range tools {
		in.Tools = append(in.Tools, chattemplate.Tool{Name: tl.Name, Description: tl.Description, Parameters: tl.Parameters})
	}
	out, err := t.Render(in)
	if errors.Is(err, chattemplate.ErrRejected) {
		return "", &sotto.Error{Kind: sotto.ErrInvalidRequest, Code: "invalid_request", Param: "messages", Message: "llm: " + err.Error()}
	}
	if err != nil {
		return "", fmt.Errorf("llm: go: rendering the chat template: %w", err)
	}
	return out, nil
}

func (g *goBackend) Close() error {
	g.pool.Close()
	return g.b.Close()
}

// renderPrompt turns messages into prompt text when the model's chat
// template is absent or cannot be parsed (the template itself is rendered
// by renderTemplate). A model without a chat template gets the contents
// joined by newlines (a raw-text prompt). Of the templates that do not
// parse, the two families whose markers are unambiguous are rendered by
// hand (ChatML, used by Qwen and SmolLM; the Llama 3 header format), and
// any other is reported as unsupported.
func renderPrompt(b *llama.Bundle, msgs []Message) (string, error) {
	if len(msgs) == 0 {
		return "", sotto.Invalid("invalid_request", "messages", "llm: no messages")
	}
	t := b.ChatTemplate
	var sb strings.Builder
	switch {
	case t == "":
		for i, m := range msgs {
			if i > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(m.Content)
		}
	case strings.Contains(t, "<|im_start|>"):
		for _, m := range msgs {
			fmt.Fprintf(&sb, "<|im_start|>%s\n%s<|im_end|>\n", m.Role, m.Content)
		}
		sb.WriteString("<|im_start|>assistant\n")
	case strings.Contains(t, "<|start_header_id|>"):
		for _, m := range msgs {
			fmt.Fprintf(&sb, "<|start_header_id|>%s<|end_header_id|>\n\n%s<|eot_id|>", m.Role, strings.TrimSpace(m.Content))
		}
		sb.WriteString("<|start_header_id|>assistant<|end_header_id|>\n\n")
	default:
		return "", &sotto.Error{Kind: sotto.ErrNotImplemented, Code: "capability_unavailable", Param: "model",
			Message: "llm: go: this model's chat template is not supported yet (only ChatML and Llama 3 templates, or models without a template)"}
	}
	return sb.String(), nil
}

// compileSchema compiles a JSON schema for constrained decoding; param
// names it in errors.
func compileSchema(schema json.RawMessage, param string) (*jsongrammar.Grammar, error) {
	gr, err := jsongrammar.Compile(schema)
	if err != nil {
		// A keyword the grammar cannot enforce is unsupported; a schema
		// that is not one (not an object, enum not an array …) is invalid.
		code := "bad_request"
		if errors.Is(err, jsongrammar.ErrUnsupported) {
			code = "unsupported_parameter"
		}
		return nil, &sotto.Error{Kind: sotto.ErrInvalidRequest, Code: code, Param: param, Message: "llm: " + err.Error()}
	}
	return gr, nil
}

// grammarVocab returns the vocabulary prepared for constrained decoding.
func (g *goBackend) grammarVocab() *jsongrammar.Vocab {
	g.vocabOnce.Do(func() { g.vocab = newGrammarVocab(g.b.Tokenizer, g.visible) })
	return g.vocab
}

// newGrammarVocab reads each token's text as it would follow an ordinary
// token (not BOS, which drops SentencePiece's leading space); visible gives
// the text of control tokens the engine shows.
func newGrammarVocab(tok tokenizer.Tokenizer, visible map[int]string) *jsongrammar.Vocab {
	n := tok.Len()
	prev := 0
	for prev < n && (prev == tok.BOS() || tok.IsControl(prev)) {
		prev++
	}
	pieces := make([][]byte, n)
	eog := make([]bool, n)
	for id := range n {
		pieces[id] = tok.Piece(prev, id)
		if v, ok := visible[id]; ok {
			pieces[id] = []byte(v)
		}
		eog[id] = tok.EOG(id)
	}
	return jsongrammar.NewVocab(pieces, eog)
}

// markerTokens finds the control tokens that spell a tool-call marker of
// format f (Mistral's [TOOL_CALLS] and [ARGS], Llama's <|python_tag|>): the
// engine shows them as text, so that the reply can be parsed.
func markerTokens(tok tokenizer.Tokenizer, f chattemplate.Format) map[int]string {
	var m map[int]string
	for _, mk := range f.Markers() {
		ids := tok.Encode(mk, false, true)
		if len(ids) == 1 && tok.IsControl(ids[0]) {
			if m == nil {
				m = map[int]string{}
			}
			m[ids[0]] = mk
		}
	}
	return m
}

// forcedCall compiles the grammar of one call in the template's syntax of
// the tool named choice, or of any tool for "required".
func forcedCall(t *chattemplate.Template, tools []Tool, choice string) (*jsongrammar.Grammar, error) {
	before, between, after, ok := t.CallSyntax()
	if !ok {
		if f := t.ToolFormat(); f != chattemplate.FormatNone {
			// The XML syntax's arguments are not JSON, which the grammar writes.
			return nil, sotto.Invalid("unsupported_parameter", "tool_choice", "forcing a call is not supported in this model's tool-call syntax (%s); use tool_choice auto", f)
		}
		return nil, sotto.Invalid("unsupported_parameter", "tool_choice", "this model's chat template has no tool-call syntax")
	}
	var gt []jsongrammar.Tool
	for _, tl := range tools {
		if choice == "required" || tl.Name == choice {
			gt = append(gt, jsongrammar.Tool{Name: tl.Name, Parameters: tl.Parameters})
		}
	}
	if len(gt) == 0 {
		return nil, sotto.Invalid("bad_request", "tool_choice", "tool_choice names %q, which is not among the tools", choice)
	}
	gr, err := jsongrammar.ToolCall(before, between, after, gt)
	if err != nil {
		return nil, &sotto.Error{Kind: sotto.ErrInvalidRequest, Code: "unsupported_parameter", Param: "tools",
			Message: "llm: forcing a call: " + err.Error()}
	}
	return gr, nil
}
