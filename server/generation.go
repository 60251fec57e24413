package server

// The generation endpoints (spec part 1 items 5–6, part 4): Chat
// Completions, Responses and Messages, and /v1/tokenize. Each protocol's
// front end (chat.go, responses.go, messages.go) decodes its own request
// shape, validates it into the one internal request, genRequest, and
// renders the internal result, genResult, and the streamed text back in
// its own response, SSE events and error envelope.
//
// Routing (routeGeneration): the model must be in the catalog (404
// model_not_found) and list the exact path in supported_endpoints (400
// model_capability_unsupported). A local model runs on the model runtime;
// it must have been loaded with POST /v1/models/load first (spec part 4:
// "Local language models must be loaded before generation"), else 400
// model_not_loaded. A remote model (execution_location other than local)
// forwards the request to its upstream (upstream.go).

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/llm"
)

// The generation paths.
const (
	pathChat      = "/v1/chat/completions"
	pathResponses = "/v1/responses"
	pathMessages  = "/v1/messages"
	// pathCountTokens is the Messages protocol's token count; a model
	// serving pathMessages serves it.
	pathCountTokens = "/v1/messages/count_tokens"
	pathTokenize    = "/v1/tokenize"
)

// genRequest is the internal request every front end translates to.
type genRequest struct {
	model  ModelInfo
	msgs   []llm.Message
	opts   llm.Options
	stream bool
	// onCall, when set (by a streaming front end), receives the pieces of
	// the tool calls as the model writes them (see tools_stream.go); the
	// calls are in genResult.toolCalls at the end either way.
	onCall func(llm.ToolCallDelta) error
	// onPrompt, when set, receives the prompt's token count before the
	// first token, when the backend can tell it (an llm.PromptCounter).
	onPrompt func(tokens int)
}

// genResult is what a generation produced.
type genResult struct {
	text         string
	inputTokens  int
	outputTokens int
	stop         llm.StopReason
	stopSequence string
	toolCalls    []llm.ToolCall // the model's calls (stop is llm.StopToolCalls)
}

// generator runs a request, calling delta with each piece of text in order
// (from the calling goroutine). delta's error stops the generation and is
// returned.
type generator func(ctx context.Context, req *genRequest, delta func(string) error) (genResult, error)

// readGenBody reads a generation request body. The route's body limit
// (512 MiB, a 413) applies, not the smaller limit of other JSON endpoints.
func readGenBody(r *http.Request) ([]byte, error) {
	if err := checkJSONType(r, ""); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if isBodyLimit(err) {
			return nil, err
		}
		return nil, bodyReadError("bad_request", r, err)
	}
	return trimBOM(body), nil
}

// peekModel returns the "model" field of a JSON object body.
func peekModel(body []byte) (string, error) {
	var head struct {
		Model json.RawMessage `json:"model"`
	}
	if err := unmarshalStrict(body, &head, false, ""); err != nil {
		return "", err
	}
	if len(head.Model) == 0 || string(head.Model) == "null" {
		return "", nil
	}
	var m string
	if err := json.Unmarshal(head.Model, &m); err != nil {
		return "", sotto.Invalid("bad_request", "model", "field \"model\" must be a string")
	}
	return m, nil
}

// routeGeneration resolves the model of a generation request: it must be
// named, be in the catalog and serve path.
func (s *Server) routeGeneration(body []byte, path string) (ModelInfo, error) {
	id, err := peekModel(body)
	if err != nil {
		return ModelInfo{}, err
	}
	if id == "" {
		return ModelInfo{}, sotto.Invalid("bad_request", "model",
			"field \"model\" is required: a catalog model whose supported_endpoints contain %s", path)
	}
	return s.resolveModel(id, path)
}

// isRemote reports whether m is forwarded to an upstream.
func isRemote(m ModelInfo) bool { return m.ExecutionLocation != "" && m.ExecutionLocation != "local" }

// loadedChecker is implemented by Models that can say whether a model is
// loaded without loading it.
type loadedChecker interface {
	Loaded(id string) bool
}

// acquireLLM holds a loaded local language model for one request. A model
// that is not loaded is refused with 400 model_not_loaded rather than
// loaded on demand: the spec requires local language models to be loaded
// (POST /v1/models/load) before generation.
func (s *Server) acquireLLM(ctx context.Context, m ModelInfo) (llm.Backend, func(), error) {
	if lc, ok := s.models.(loadedChecker); ok && !lc.Loaded(m.ID) {
		return nil, nil, sotto.Invalid("model_not_loaded", "model",
			"model %q is not loaded; load it with POST /v1/models/load {\"model\": %q} first", m.ID, m.ID)
	}
	return acquire[llm.Backend](ctx, s, m.ID, "generate text")
}

// generateLocal runs req on a loaded local model.
func (s *Server) generateLocal(ctx context.Context, req *genRequest, delta func(string) error) (genResult, error) {
	b, release, err := s.acquireLLM(ctx, req.model)
	if err != nil {
		return genResult{}, err
	}
	defer release()
	return runBackend(ctx, b, req, delta)
}

// errStopSequence ends a generation whose text reached a stop sequence.
var errStopSequence = errors.New("stop sequence reached")

// runBackend generates with b. A backend that is an llm.Reporter reports
// usage and the stop reason itself. For any other backend the server
// applies the stop sequences, counts one output token per emitted token,
// estimates the input tokens as the tokens of the messages' contents (when
// the backend is an llm.Tokenizer; else 0) and reports "length" when the
// output reached MaxTokens, "stop" otherwise.
func runBackend(ctx context.Context, b llm.Backend, req *genRequest, delta func(string) error) (genResult, error) {
	var out strings.Builder
	emit := func(t llm.Token) error {
		if t.Call != nil {
			if req.onCall == nil {
				return nil
			}
			return req.onCall(*t.Call)
		}
		out.WriteString(t.Text)
		return delta(t.Text)
	}
	if pc, ok := b.(llm.PromptCounter); ok && req.onPrompt != nil {
		// An error here (a template that rejects the messages) is the
		// generation's own: GenerateReport returns it below.
		if n, err := pc.CountPrompt(ctx, req.msgs, req.opts); err == nil {
			req.onPrompt(n)
		}
	}
	if r, ok := b.(llm.Reporter); ok {
		rep, err := r.GenerateReport(ctx, req.msgs, req.opts, emit)
		if err != nil {
			return genResult{}, err
		}
		return genResult{text: out.String(), inputTokens: rep.PromptTokens, outputTokens: rep.OutputTokens,
			stop: rep.Stop, stopSequence: rep.StopSequence, toolCalls: rep.ToolCalls}, nil
	}
	if len(req.opts.Tools) > 0 {
		// Only a backend that reports can return tool calls.
		return genResult{}, unsupported("tools", "this model has no tool calling")
	}
	if len(req.opts.JSONSchema) > 0 {
		return genResult{}, unsupported("response_format", "this model's backend has no constrained decoding")
	}
	opts := req.opts
	sf := newStopFilter(opts.Stop, delta)
	opts.Stop = nil
	n := 0
	err := b.Generate(ctx, req.msgs, opts, func(t llm.Token) error {
		n++
		return sf.write(t.Text)
	})
	res := genResult{outputTokens: n, stop: llm.StopEnd}
	switch {
	case errors.Is(err, errStopSequence):
		res.stop, res.stopSequence = llm.StopSequence, sf.matched
	case err != nil:
		return genResult{}, err
	default:
		if err := sf.flush(); err != nil {
			return genResult{}, err
		}
		if opts.MaxTokens > 0 && n >= opts.MaxTokens {
			res.stop = llm.StopLength
		}
	}
	res.text = sf.out.String()
	if t, ok := b.(llm.Tokenizer); ok {
		for _, m := range req.msgs {
			ids, err := t.Tokenize(ctx, m.Content)
			if err != nil {
				return genResult{}, err
			}
			res.inputTokens += len(ids)
		}
	}
	return res, nil
}

// stopFilter passes text on to next, holding back any suffix that may be
// the start of a stop sequence, and ends with errStopSequence (the stop
// sequence and what follows it not passed on) when one appears.
type stopFilter struct {
	stops   []string
	next    func(string) error
	pending string
	out     strings.Builder // the text passed on
	matched string
}

func newStopFilter(stops []string, next func(string) error) *stopFilter {
	var ss []string
	for _, s := range stops {
		if s != "" {
			ss = append(ss, s)
		}
	}
	return &stopFilter{stops: ss, next: next}
}

func (f *stopFilter) pass(s string) error {
	if s == "" {
		return nil
	}
	f.out.WriteString(s)
	return f.next(s)
}

func (f *stopFilter) write(s string) error {
	if len(f.stops) == 0 {
		return f.pass(s)
	}
	f.pending += s
	first, which := -1, ""
	for _, st := range f.stops {
		if i := strings.Index(f.pending, st); i >= 0 && (first < 0 || i < first) {
			first, which = i, st
		}
	}
	if first >= 0 {
		f.matched = which
		err := f.pass(f.pending[:first])
		f.pending = ""
		if err != nil {
			return err
		}
		return errStopSequence
	}
	hold := 0
	for _, st := range f.stops {
		for k := min(len(st)-1, len(f.pending)); k > hold; k-- {
			if strings.HasSuffix(f.pending, st[:k]) {
				hold = k
				break
			}
		}
	}
	n := len(f.pending) - hold
	s, f.pending = f.pending[:n], f.pending[n:]
	return f.pass(s)
}

func (f *stopFilter) flush() error {
	s := f.pending
	f.pending = ""
	return f.pass(s)
}

// generate runs req locally or on its upstream.
func (s *Server) generate(ctx context.Context, req *genRequest, r *http.Request, delta func(string) error) (genResult, error) {
	if isRemote(req.model) {

		u, err := s.upstreamFor(req.model)
		if err != nil {
			return genResult{}, err
		}
		return u.generate(ctx, req, r.Header, delta)
	}
	return s.generateLocal(ctx, req, delta)
}

// sampling holds the sampling fields the protocols share; each front end
// fills it from its own field names and extensions.
type sampling struct {
	Temperature       *float64 `json:"temperature"`
	TopP              *float64 `json:"top_p"`
	TopK              *int     `json:"top_k"`
	MinP              *float64 `json:"min_p"`
	RepetitionPenalty *float64 `json:"repetition_penalty"`
	Seed              *int64   `json:"seed"`
}

// options validates the sampling fields into llm.Options. maxTemp is the
// protocol's upper bound of temperature (2 for the OpenAI protocols, 1 for
// Messages).
func (sm sampling) options(maxTemp float64) (llm.Options, error) {
	var o llm.Options
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	if t := sm.Temperature; t != nil {
		if bad(*t) || *t < 0 || *t > maxTemp {
			return o, sotto.Invalid("bad_request", "temperature", "temperature %v is outside 0 to %v", *t, maxTemp)
		}
		o.Temperature = *t
	} else {
		o.Temperature = 1
	}
	if p := sm.TopP; p != nil {
		if bad(*p) || *p < 0 || *p > 1 {
			return o, sotto.Invalid("bad_request", "top_p", "top_p %v is outside 0 to 1", *p)
		}
		if *p < 1 {
			o.TopP = *p
		}
	}
	if k := sm.TopK; k != nil {
		if *k < 0 {
			return o, sotto.Invalid("bad_request", "top_k", "top_k %d is negative", *k)
		}
		o.TopK = *k
	}
	if p := sm.MinP; p != nil {
		if bad(*p) || *p < 0 || *p > 1 {
			return o, sotto.Invalid("bad_request", "min_p", "min_p %v is outside 0 to 1", *p)
		}
		o.MinP = *p
	}
	if p := sm.RepetitionPenalty; p != nil {
		if bad(*p) || *p <= 0 || *p > 10 {
			return o, sotto.Invalid("bad_request", "repetition_penalty", "repetition_penalty %v is outside (0, 10]", *p)
		}
		o.RepeatPenalty = *p
	}
	o.Seed = sm.Seed
	return o, nil
}

// maxTokens validates a token limit field.
func maxTokens(v *int, param string) (int, error) {
	if v == nil {
		return 0, nil
	}
	if *v < 1 {
		return 0, sotto.Invalid("bad_request", param, "%s must be a positive integer, not %d", param, *v)
	}
	return *v, nil
}

// stopList decodes a stop field: a string or an array of strings (at most
// max of them).
func stopList(raw json.RawMessage, param string, max int) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, sotto.Invalid("bad_request", param, "%s must be a string or an array of strings", param)
	}
	if max > 0 && len(many) > max {
		return nil, sotto.Invalid("bad_request", param, "%s has %d sequences; at most %d", param, len(many), max)
	}
	return many, nil
}

// textContent decodes message content: a string, or an array of content
// items of which only text items (type textType, e.g. "text" or
// "input_text") are supported. param locates the content in the request.
func textContent(raw json.RawMessage, param string, textTypes ...string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", sotto.Invalid("bad_request", param, "%s is required", param)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return "", sotto.Invalid("bad_request", param, "%s must be a string or an array of content items", param)
	}
	var sb strings.Builder
	for i, it := range items {
		p := fmt.Sprintf("%s[%d]", param, i)
		var typ string
		if err := json.Unmarshal(it["type"], &typ); err != nil || typ == "" {
			return "", sotto.Invalid("bad_request", p+".type", "%s.type is required", p)
		}
		ok := false
		for _, t := range textTypes {
			ok = ok || t == typ
		}
		if !ok {
			return "", sotto.Invalid("bad_request", p+".type",
				"content item type %q is not supported by this model (text only: %s)", typ, strings.Join(textTypes, ", "))
		}
		var text string
		if err := json.Unmarshal(it["text"], &text); err != nil {
			return "", sotto.Invalid("bad_request", p+".text", "%s.text must be a string", p)
		}
		sb.WriteString(text)
	}
	return sb.String(), nil
}

// unsupported reports a known protocol field the local engine cannot honour
// (tools, non-text output formats …) when it is set to anything but its
// neutral value; the request is refused rather than silently changed.
func unsupported(param, why string) error {
	return sotto.Invalid("unsupported_parameter", param, "%s is not supported by this model: %s", param, why)
}

// isEmptyJSON reports whether raw is absent, null, [] or {}.
func isEmptyJSON(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null" || s == "[]" || s == "{}"
}

// newID returns prefix followed by 24 random hex digits.
func newID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s%x", prefix, b)
}

// genDeltaWriter adapts a front end's per-delta writer so that a client
// that has gone away stops the generation: the write error (or the
// request context's error) is returned to the backend.
func genDelta(ctx context.Context, write func(string) error) func(string) error {
	return func(s string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if s == "" {
			return nil
		}
		if err := write(s); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("%w: writing the stream: %v", context.Canceled, err)
		}
		return nil
	}
}

// generationRoute reads a generation request's body and resolves its model
// for path. A remote model whose upstream speaks proto (the endpoint's own
// protocol; "" for none) gets the request passed through unchanged to
// upstreamPath. done reports that the response has been written: an error,
// or the upstream's answer.
func (s *Server) generationRoute(w http.ResponseWriter, r *http.Request, path, proto, upstreamPath string) (body []byte, m ModelInfo, done bool) {
	body, err := readGenBody(r)
	if err == nil {
		m, err = s.routeGeneration(body, path)
	}
	if err == nil && isRemote(m) && proto != "" {
		var u *upstream
		if u, err = s.upstreamFor(m); err == nil && u.protocol == proto {
			s.passThrough(w, r, u, m, upstreamPath, body)
			return nil, m, true
		}
	}
	if err != nil {
		s.writeError(w, r, err)
		return nil, m, true
	}
	return body, m, false
}
