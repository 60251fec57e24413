package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"
	"github.com/openai/openai-go/v3"
	oresponses "github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/sottolabs/sotto/llm"
	"github.com/sottolabs/sotto/llm/chattemplate"
)

// hermesReply is a reply in the Hermes/Qwen tool-call syntax, as Qwen2.5
// writes it after a line of text.
const hermesReply = "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Zürich\", \"unit\": \"celsius\"}}\n</tool_call>"

// toolModel is a language model that calls tools: when the conversation
// ends with a tool result it answers in text, otherwise it writes
// hermesReply, streamed in small pieces through the Splitter the engine
// uses. It records the requests it saw.
type toolModel struct {
	callOnly bool // reply with the call alone, no text before it
	mu       sync.Mutex
	msgs     [][]llm.Message
	opts     []llm.Options
}

func (m *toolModel) Generate(ctx context.Context, msgs []llm.Message, o llm.Options, emit func(llm.Token) error) error {
	_, err := m.GenerateReport(ctx, msgs, o, emit)
	return err
}

func (m *toolModel) GenerateReport(ctx context.Context, msgs []llm.Message, o llm.Options, emit func(llm.Token) error) (llm.Report, error) {
	m.mu.Lock()
	m.msgs, m.opts = append(m.msgs, msgs), append(m.opts, o)
	m.mu.Unlock()
	if last := msgs[len(msgs)-1]; last.Role == "tool" || len(o.Tools) == 0 {
		if err := emit(llm.Token{Text: "It is 18 degrees."}); err != nil {
			return llm.Report{}, err
		}
		return llm.Report{PromptTokens: 20, OutputTokens: 5, Stop: llm.StopEnd}, nil
	}
	s := chattemplate.NewSplitter(chattemplate.FormatHermes)
	reply := hermesReply
	if m.callOnly {
		reply = reply[strings.Index(reply, "<tool_call>"):]
	}
	for i := 0; i < len(reply); i += 4 {
		if t := s.Write(reply[i:min(i+4, len(reply))]); t != "" {
			if err := emit(llm.Token{Text: t}); err != nil {
				return llm.Report{}, err
			}
		}
	}
	rest, calls := s.Finish()
	if rest != "" {
		emit(llm.Token{Text: rest})
	}
	rep := llm.Report{PromptTokens: 30, OutputTokens: 25, Stop: llm.StopToolCalls}
	for _, c := range calls {
		rep.ToolCalls = append(rep.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return rep, nil
}

func (m *toolModel) SupportsTools() bool { return true }
func (m *toolModel) Close() error        { return nil }

func (m *toolModel) last() ([]llm.Message, llm.Options) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.msgs[len(m.msgs)-1], m.opts[len(m.opts)-1]
}

type toolModels struct {
	emptyModels
	b *toolModel
}

func (m toolModels) Info(id string) (ModelInfo, bool) {
	if id != "Test/tools" {
		return ModelInfo{}, false
	}
	return ModelInfo{ID: id, SupportedEndpoints: []string{pathChat, pathResponses, pathMessages}, ExecutionLocation: "local",
		Features: []string{"tool_calling"}}, true
}

func (m toolModels) Acquire(context.Context, string) (func(), any, error) { return func() {}, m.b, nil }

var weatherSchema = map[string]any{"type": "object", "properties": map[string]any{
	"city": map[string]any{"type": "string"}, "unit": map[string]any{"type": "string", "enum": []string{"celsius", "fahrenheit"}}},
	"required": []string{"city"}}

const wantArgs = `{"city":"Zürich","unit":"celsius"}`

// checkToolResult checks the request the model saw after a tool result:
// the assistant's call and the result, linked by the call's ID.
func checkToolResult(t *testing.T, m *toolModel, callID string) {
	t.Helper()
	msgs, opts := m.last()
	n := len(msgs)
	if n < 3 || msgs[n-2].Role != "assistant" || len(msgs[n-2].ToolCalls) != 1 || msgs[n-1].Role != "tool" {
		t.Fatalf("conversation %+v; want …, assistant call, tool result", msgs)
	}
	c := msgs[n-2].ToolCalls[0]
	if c.ID != callID || c.Name != "get_weather" || string(c.Arguments) != wantArgs {
		t.Errorf("assistant call %+v; want %s get_weather %s", c, callID, wantArgs)
	}
	if r := msgs[n-1]; r.ToolCallID != callID || r.Name != "get_weather" || r.Content != `{"temp": 18}` {
		t.Errorf("tool result %+v", r)
	}
	if len(opts.Tools) != 1 || opts.Tools[0].Name != "get_weather" || !strings.Contains(string(opts.Tools[0].Parameters), `"city"`) {
		t.Errorf("tools %+v", opts.Tools)
	}
}

func TestChatToolCallsSDK(t *testing.T) {
	m := &toolModel{}
	_, ts := newTestServer(t, Config{Models: toolModels{b: m}})
	c := openaiClient(ts)
	ctx := context.Background()
	params := openai.ChatCompletionNewParams{Model: "Test/tools",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Zürich?")},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: "get_weather", Description: openai.String("Current weather"), Parameters: weatherSchema})}}
	got, err := c.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	msg := got.Choices[0].Message
	if got.Choices[0].FinishReason != "tool_calls" || msg.Content != "Let me check." || len(msg.ToolCalls) != 1 {
		t.Fatalf("reply %+v (finish %s); want text and one call", msg, got.Choices[0].FinishReason)
	}
	call := msg.ToolCalls[0]
	if call.Type != "function" || call.Function.Name != "get_weather" || call.Function.Arguments != wantArgs || !strings.HasPrefix(call.ID, "call_") {
		t.Errorf("tool call %+v", call)
	}

	// Streamed: text deltas, then the call.
	stream := c.Chat.Completions.NewStreaming(ctx, params)
	acc := openai.ChatCompletionAccumulator{}
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	sm := acc.Choices[0].Message
	if sm.Content != "Let me check." || len(sm.ToolCalls) != 1 || sm.ToolCalls[0].Function.Arguments != wantArgs ||
		sm.ToolCalls[0].Function.Name != "get_weather" || acc.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("streamed %+v (finish %s)", sm, acc.Choices[0].FinishReason)
	}

	// The result goes back as a tool message.
	params.Messages = append(params.Messages, msg.ToParam(), openai.ToolMessage(`{"temp": 18}`, call.ID))
	got, err = c.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got.Choices[0].Message.Content != "It is 18 degrees." || got.Choices[0].FinishReason != "stop" {
		t.Errorf("answer %+v", got.Choices[0])
	}
	checkToolResult(t, m, call.ID)

	// tool_choice none leaves the tools out.
	params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("none")}
	params.Messages = params.Messages[:1]
	if _, err := c.Chat.Completions.New(ctx, params); err != nil {
		t.Fatal(err)
	}
	if _, opts := m.last(); len(opts.Tools) != 0 {
		t.Errorf("tool_choice none: tools %+v reached the model", opts.Tools)
	}
}

func TestResponsesToolCallsSDK(t *testing.T) {
	m := &toolModel{}
	_, ts := newTestServer(t, Config{Models: toolModels{b: m}, DataDir: t.TempDir()})
	c := openaiClient(ts)
	ctx := context.Background()
	params := oresponses.ResponseNewParams{Model: "Test/tools",
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("Weather in Zürich?")},
		Tools: []oresponses.ToolUnionParam{{OfFunction: &oresponses.FunctionToolParam{Name: "get_weather",
			Parameters: weatherSchema, Strict: openai.Bool(false)}}}}
	got, err := c.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Output) != 2 || got.Output[0].Type != "message" || got.OutputText() != "Let me check." || got.Output[1].Type != "function_call" {
		t.Fatalf("output %+v; want a message and a function_call", got.Output)
	}
	fc := got.Output[1].AsFunctionCall()
	if fc.Name != "get_weather" || fc.Arguments != wantArgs || !strings.HasPrefix(fc.CallID, "call_") || !strings.HasPrefix(fc.ID, "fc_") {
		t.Errorf("function call %+v", fc)
	}

	// Streamed: the same items, the call's arguments in a delta.
	stream := c.Responses.NewStreaming(ctx, params)
	var args, text string
	var done oresponses.Response
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "response.function_call_arguments.delta":
			args += ev.Delta
		case "response.output_text.delta":
			text += ev.Delta
		case "response.completed":
			done = ev.Response
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if args != wantArgs || text != "Let me check." || len(done.Output) != 2 || done.Output[1].AsFunctionCall().Name != "get_weather" {
		t.Errorf("streamed text %q args %q output %+v", text, args, done.Output)
	}

	// The result continues the stored response.
	out := oresponses.ResponseInputItemParamOfFunctionCallOutput(`{"temp": 18}`)
	out.OfFunctionCallOutput.CallID = openai.String(fc.CallID)
	next, err := c.Responses.New(ctx, oresponses.ResponseNewParams{Model: "Test/tools", PreviousResponseID: openai.String(got.ID),
		Input: oresponses.ResponseNewParamsInputUnion{OfInputItemList: oresponses.ResponseInputParam{out}}, Tools: params.Tools})
	if err != nil {
		t.Fatal(err)
	}
	if next.OutputText() != "It is 18 degrees." {
		t.Errorf("answer %q", next.OutputText())
	}
	checkToolResult(t, m, fc.CallID)

	// The same conversation given whole, without the store.
	call := oresponses.ResponseInputItemParamOfFunctionCall(fc.Arguments, fc.CallID, fc.Name)
	if _, err := c.Responses.New(ctx, oresponses.ResponseNewParams{Model: "Test/tools", Tools: params.Tools,
		Input: oresponses.ResponseNewParamsInputUnion{OfInputItemList: oresponses.ResponseInputParam{
			oresponses.ResponseInputItemParamOfMessage("Weather in Zürich?", oresponses.EasyInputMessageRoleUser), call, out}}}); err != nil {
		t.Fatal(err)
	}
	checkToolResult(t, m, fc.CallID)
}

func TestMessagesToolUseSDK(t *testing.T) {
	m := &toolModel{}
	_, ts := newTestServer(t, Config{Models: toolModels{b: m}})
	c := anthropicClient(ts)
	ctx := context.Background()
	params := anthropic.MessageNewParams{Model: "Test/tools", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather in Zürich?"))},
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "get_weather",
			InputSchema: anthropic.ToolInputSchemaParam{Properties: weatherSchema["properties"], Required: []string{"city"}}}}}}
	got, err := c.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got.StopReason != "tool_use" || len(got.Content) != 2 || got.Content[0].Text != "Let me check." || got.Content[1].Type != "tool_use" {
		t.Fatalf("message %+v; want text and tool_use", got)
	}
	tu := got.Content[1].AsToolUse()
	if tu.Name != "get_weather" || string(tu.Input) != wantArgs || !strings.HasPrefix(tu.ID, "toolu_") {
		t.Errorf("tool_use %+v", tu)
	}

	acc := accumulated(t, c.Messages.NewStreaming(ctx, params))
	if acc.StopReason != "tool_use" || len(acc.Content) != 2 || acc.Content[0].Text != "Let me check." {
		t.Fatalf("streamed %+v", acc)
	}
	var in map[string]string
	if stu := acc.Content[1].AsToolUse(); json.Unmarshal(stu.Input, &in) != nil || in["city"] != "Zürich" || stu.Name != "get_weather" {
		t.Errorf("streamed tool_use %+v", stu)
	}

	params.Messages = append(params.Messages, got.ToParam(),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock(tu.ID, `{"temp": 18}`, false)))
	next, err := c.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if next.StopReason != "end_turn" || next.Content[0].Text != "It is 18 degrees." {
		t.Errorf("answer %+v", next)
	}
	checkToolResult(t, m, tu.ID)
}

// TestToolChoiceForcing: each protocol's way of forcing a call reaches the
// model as llm.Options.ToolChoice.
func TestToolChoiceForcing(t *testing.T) {
	m := &toolModel{}
	_, ts := newTestServer(t, Config{Models: toolModels{b: m}})
	chatTools := []any{map[string]any{"type": "function", "function": map[string]any{"name": "get_weather", "parameters": weatherSchema}}}
	respTools := []any{map[string]any{"type": "function", "name": "get_weather", "parameters": weatherSchema}}
	msgTools := []any{map[string]any{"name": "get_weather", "input_schema": weatherSchema}}
	msgs := []any{map[string]any{"role": "user", "content": "Weather?"}}
	for _, c := range []struct {
		path string
		body map[string]any
		want string
	}{
		{pathChat, map[string]any{"messages": msgs, "tools": chatTools, "tool_choice": "required"}, "required"},
		{pathChat, map[string]any{"messages": msgs, "tools": chatTools, "tool_choice": map[string]any{"type": "function", "function": map[string]any{"name": "get_weather"}}}, "get_weather"},
		{pathChat, map[string]any{"messages": msgs, "tools": chatTools, "tool_choice": "auto"}, ""},
		{pathResponses, map[string]any{"input": "Weather?", "tools": respTools, "tool_choice": "required"}, "required"},
		{pathResponses, map[string]any{"input": "Weather?", "tools": respTools, "tool_choice": map[string]any{"type": "function", "name": "get_weather"}}, "get_weather"},
		{pathMessages, map[string]any{"max_tokens": 50, "messages": msgs, "tools": msgTools, "tool_choice": map[string]any{"type": "any"}}, "required"},
		{pathMessages, map[string]any{"max_tokens": 50, "messages": msgs, "tools": msgTools, "tool_choice": map[string]any{"type": "tool", "name": "get_weather"}}, "get_weather"},
	} {
		c.body["model"] = "Test/tools"
		b, _ := json.Marshal(c.body)
		r := do(t, ts, "POST", c.path, strings.NewReader(string(b)), nil)
		if r.status != 200 {
			t.Errorf("%s %s = %d %s", c.path, b, r.status, r.body)
			continue
		}
		if _, opts := m.last(); opts.ToolChoice != c.want || len(opts.Tools) != 1 {
			t.Errorf("%s %s: ToolChoice %q, %d tools; want %q", c.path, b, opts.ToolChoice, len(opts.Tools), c.want)
		}
	}
}

// TestCallOnlyReplies: a reply that is only a call has no text part in
// any protocol, streamed or not.
func TestCallOnlyReplies(t *testing.T) {
	m := &toolModel{callOnly: true}
	_, ts := newTestServer(t, Config{Models: toolModels{b: m}})
	ctx := context.Background()
	oc := openaiClient(ts)
	cp := openai.ChatCompletionNewParams{Model: "Test/tools",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Zürich?")},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: "get_weather", Parameters: weatherSchema})}}
	got, err := oc.Chat.Completions.New(ctx, cp)
	if err != nil {
		t.Fatal(err)
	}
	if raw := got.Choices[0].Message.JSON.Content.Raw(); raw != "null" || len(got.Choices[0].Message.ToolCalls) != 1 {
		t.Errorf("chat: content %s, %d calls; want null and one call", raw, len(got.Choices[0].Message.ToolCalls))
	}
	rp := oresponses.ResponseNewParams{Model: "Test/tools", Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("Weather?")},
		Tools: []oresponses.ToolUnionParam{{OfFunction: &oresponses.FunctionToolParam{Name: "get_weather", Parameters: weatherSchema, Strict: openai.Bool(false)}}}}
	stream := oc.Responses.NewStreaming(ctx, rp)
	var done oresponses.Response
	added := 0
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "response.output_item.added":
			added++
			if ev.OutputIndex != 0 || ev.Item.Type != "function_call" {
				t.Errorf("responses: item added at %d of type %s; want the call at 0", ev.OutputIndex, ev.Item.Type)
			}
		case "response.completed":
			done = ev.Response
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if added != 1 || len(done.Output) != 1 || done.Output[0].Type != "function_call" {
		t.Errorf("responses: %d items added, output %d items; want the call alone", added, len(done.Output))
	}
	ac := anthropicClient(ts)
	acc := accumulated(t, ac.Messages.NewStreaming(ctx, anthropic.MessageNewParams{Model: "Test/tools", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather?"))},
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "get_weather",
			InputSchema: anthropic.ToolInputSchemaParam{Properties: weatherSchema["properties"]}}}}}))
	if len(acc.Content) != 1 || acc.Content[0].Type != "tool_use" || acc.StopReason != "tool_use" {
		t.Errorf("messages: content %+v; want one tool_use block", acc.Content)
	}
}

// TestRemoteToolCalls runs tool calls through a gateway whose model is
// remote, on an upstream of each protocol, from each front end: requests
// and replies are translated both ways.
func TestRemoteToolCalls(t *testing.T) {
	m := &toolModel{}
	_, up := newTestServer(t, Config{Models: toolModels{b: m}})
	remote := func(id, proto string) map[string]any {
		return map[string]any{"id": id, "object": "model", "owned_by": "test", "execution_location": "remote",
			"base_url": up.URL + "/v1", "supported_endpoints": []string{pathChat, pathResponses, pathMessages},
			"options": map[string]string{"protocol": proto, "upstream_model": "Test/tools"}}
	}
	gw := llmServer(t, Config{}, remote("Remote/chat", protoChat), remote("Remote/messages", protoMessages))
	ctx := context.Background()
	oc, ac := openaiClient(gw), anthropicClient(gw)
	for _, id := range []string{"Remote/chat", "Remote/messages"} {
		// Responses is always translated.
		rp := oresponses.ResponseNewParams{Model: id, Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("Weather in Zürich?")},
			Tools: []oresponses.ToolUnionParam{{OfFunction: &oresponses.FunctionToolParam{Name: "get_weather", Parameters: weatherSchema, Strict: openai.Bool(false)}}}}
		r, err := oc.Responses.New(ctx, rp)
		if err != nil {
			t.Fatalf("%s responses: %v", id, err)
		}
		if len(r.Output) != 2 || r.Output[1].Type != "function_call" || r.Output[1].AsFunctionCall().Arguments != wantArgs {
			t.Fatalf("%s responses output %+v", id, r.Output)
		}
		fc := r.Output[1].AsFunctionCall()
		out := oresponses.ResponseInputItemParamOfFunctionCallOutput(`{"temp": 18}`)
		out.OfFunctionCallOutput.CallID = openai.String(fc.CallID)
		next, err := oc.Responses.New(ctx, oresponses.ResponseNewParams{Model: id, PreviousResponseID: openai.String(r.ID),
			Input: oresponses.ResponseNewParamsInputUnion{OfInputItemList: oresponses.ResponseInputParam{out}}, Tools: rp.Tools})
		if err != nil {
			t.Fatalf("%s responses with the result: %v", id, err)
		}
		if next.OutputText() != "It is 18 degrees." {
			t.Errorf("%s: answer %q", id, next.OutputText())
		}
		checkToolResult(t, m, fc.CallID)
	}
	// Chat Completions front end on the Messages upstream, and the reverse.
	cc, err := oc.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "Remote/messages",
		Messages:   []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather?")},
		Tools:      []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "get_weather", Parameters: weatherSchema})},
		ToolChoice: openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("required")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cc.Choices[0].Message.ToolCalls) != 1 || cc.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("chat via messages: %+v", cc.Choices[0])
	}
	if _, opts := m.last(); opts.ToolChoice != "required" {
		t.Errorf("tool choice reached the upstream as %q", opts.ToolChoice)
	}
	msg, err := ac.Messages.New(ctx, anthropic.MessageNewParams{Model: "Remote/chat", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather?"))},
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "get_weather",
			InputSchema: anthropic.ToolInputSchemaParam{Properties: weatherSchema["properties"]}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if msg.StopReason != "tool_use" || len(msg.Content) != 2 || msg.Content[1].AsToolUse().Name != "get_weather" {
		t.Errorf("messages via chat: %+v", msg.Content)
	}

	// A JSON schema reaches a Chat Completions upstream as response_format;
	// a Messages upstream has no such field: 400.
	sp := oresponses.ResponseNewParams{Model: "Remote/chat", Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("x")},
		Text: oresponses.ResponseTextConfigParam{Format: oresponses.ResponseFormatTextConfigUnionParam{
			OfJSONSchema: &oresponses.ResponseFormatTextJSONSchemaConfigParam{Name: "s", Schema: weatherSchema}}}}
	if _, err := oc.Responses.New(ctx, sp); err != nil {
		t.Fatal(err)
	}
	if _, opts := m.last(); !strings.Contains(string(opts.JSONSchema), `"city"`) {
		t.Errorf("schema reached the upstream as %s", opts.JSONSchema)
	}
	m.opts = nil
	sp.Model = "Remote/messages"
	if _, err := oc.Responses.New(ctx, sp); err != nil {
		t.Fatal(err)
	}
	if _, opts := m.last(); !strings.Contains(string(opts.JSONSchema), `"city"`) {
		t.Errorf("schema reached the Messages upstream as %s", opts.JSONSchema)
	}
	var apiErr *openai.Error
	sp.Text.Format.OfJSONSchema.Schema = map[string]any{"type": "string", "pattern": "^a"}
	if _, err := oc.Responses.New(ctx, sp); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Code != "unsupported_parameter" {
		t.Errorf("schema with pattern: %v; want 400 unsupported_parameter", err)
	}
}

// accumulated reads an SDK Messages stream to its end and returns the
// message the SDK's own accumulator builds from its events.
func accumulated(t *testing.T, stream *ssestream.Stream[anthropic.MessageStreamEventUnion]) anthropic.Message {
	t.Helper()
	var m anthropic.Message
	for stream.Next() {
		if err := m.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}
