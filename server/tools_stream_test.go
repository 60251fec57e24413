package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
	oresponses "github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/sottolabs/sotto/llm"
	"github.com/sottolabs/sotto/llm/chattemplate"
)

// xmlReply is hermesReply in the XML parameter syntax of Qwen3-Coder and
// Qwen3.6.
const xmlReply = "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nZürich\n</parameter>\n<parameter=unit>\ncelsius\n</parameter>\n</function>\n</tool_call>"

// streamModel writes a reply with a tool call in a given format, a few
// bytes per token, through the Splitter as the Go engine does: text as
// Token.Text, the call as Token.Call deltas while it is written. With a
// gate, it stops after announcing the call until the client has seen it
// (closing the gate), which proves the call streams before the reply
// ends.
type streamModel struct {
	format chattemplate.Format
	reply  string
	gate   chan struct{}
}

func (m *streamModel) Generate(ctx context.Context, msgs []llm.Message, o llm.Options, emit func(llm.Token) error) error {
	_, err := m.GenerateReport(ctx, msgs, o, emit)
	return err
}

func (m *streamModel) GenerateReport(ctx context.Context, msgs []llm.Message, o llm.Options, emit func(llm.Token) error) (llm.Report, error) {
	var tools []chattemplate.Tool
	for _, t := range o.Tools {
		tools = append(tools, chattemplate.Tool{Name: t.Name, Parameters: t.Parameters})
	}
	s := chattemplate.NewSplitter(m.format, tools...)
	announced := false
	deltas := func() error {
		for _, d := range s.Deltas() {
			if err := emit(llm.Token{Call: &llm.ToolCallDelta{Index: d.Index, ID: d.ID, Name: d.Name, Arguments: d.Arguments}}); err != nil {
				return err
			}
			if d.Name != "" && !announced && m.gate != nil {
				announced = true
				select {
				case <-m.gate:
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(10 * time.Second): // a guard against a hang, not a measurement
					return errors.New("the client did not see the call while the model was writing it")
				}
			}
		}
		return nil
	}
	for i := 0; i < len(m.reply); i += 3 {
		if t := s.Write(m.reply[i:min(i+3, len(m.reply))]); t != "" {
			if err := emit(llm.Token{Text: t}); err != nil {
				return llm.Report{}, err
			}
		}
		if err := deltas(); err != nil {
			return llm.Report{}, err
		}
	}
	rest, calls := s.Finish()
	if err := deltas(); err != nil {
		return llm.Report{}, err
	}
	if rest != "" {
		if err := emit(llm.Token{Text: rest}); err != nil {
			return llm.Report{}, err
		}
	}
	// As the engine: a reply cut inside a call stopped at the token limit.
	rep := llm.Report{PromptTokens: 30, OutputTokens: 40, Stop: llm.StopToolCalls}
	for _, c := range calls {
		rep.ToolCalls = append(rep.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		if !json.Valid(c.Arguments) {
			rep.Stop = llm.StopLength
		}
	}
	return rep, nil
}

func (m *streamModel) SupportsTools() bool { return true }
func (m *streamModel) Close() error        { return nil }

type streamModels struct {
	emptyModels
	b *streamModel
}

func (m streamModels) Info(id string) (ModelInfo, bool) { return toolModels{}.Info(id) }
func (m streamModels) Acquire(context.Context, string) (func(), any, error) {
	return func() {}, m.b, nil
}

// sseRead reads a stream's events as they arrive, calling fn with each
// event's name ("" for data-only events) and data.
func sseRead(t *testing.T, resp *http.Response, fn func(name string, data []byte)) {
	t.Helper()
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	name := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			fn(name, []byte(strings.TrimPrefix(line, "data: ")))
			name = ""
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestStreamedToolCalls streams a reply with a call (Hermes JSON and XML
// syntax) through each protocol with a plain client that reassembles the
// call from the protocol's pieces. The model waits after announcing the
// call until the client has seen it: the call streams while it is being
// written, not at the end.
func TestStreamedToolCalls(t *testing.T) {
	tools := map[string]string{
		pathChat:      `[{"type":"function","function":{"name":"get_weather","parameters":` + mustJSON(weatherSchema) + `}}]`,
		pathResponses: `[{"type":"function","name":"get_weather","parameters":` + mustJSON(weatherSchema) + `}]`,
		pathMessages:  `[{"name":"get_weather","input_schema":` + mustJSON(weatherSchema) + `}]`,
	}
	for _, f := range []struct {
		format chattemplate.Format
		reply  string
	}{{chattemplate.FormatHermes, hermesReply}, {chattemplate.FormatXML, xmlReply}} {
		for _, path := range []string{pathChat, pathResponses, pathMessages} {
			t.Run(f.format.String()+path, func(t *testing.T) {
				m := &streamModel{format: f.format, reply: f.reply, gate: make(chan struct{})}
				_, ts := newTestServer(t, Config{Models: streamModels{b: m}})
				body := `{"model":"Test/tools","stream":true,"tools":` + tools[path]
				if path == pathResponses {
					body += `,"input":"Weather in Zürich?"}`
				} else {
					body += `,"max_tokens":100,"messages":[{"role":"user","content":"Weather in Zürich?"}]}`
				}
				req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("anthropic-version", "2023-06-01")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				var text, id, name, args strings.Builder
				seen := func() {
					select {
					case <-m.gate:
					default:
						close(m.gate)
					}
				}
				var final string // the call's arguments in the closing event or object
				sseRead(t, resp, func(ev string, data []byte) {
					if string(data) == "[DONE]" {
						return
					}
					var e map[string]any
					if err := json.Unmarshal(data, &e); err != nil {
						t.Fatalf("event %s: %v", data, err)
					}
					switch path {
					case pathChat:
						for _, ch := range e["choices"].([]any) {
							d, _ := ch.(map[string]any)["delta"].(map[string]any)
							if c, ok := d["content"].(string); ok {
								text.WriteString(c)
							}
							calls, _ := d["tool_calls"].([]any)
							for _, c := range calls {
								c := c.(map[string]any)
								if c["index"].(float64) != 0 {
									t.Errorf("tool call index %v", c["index"])
								}
								if s, ok := c["id"].(string); ok {
									id.WriteString(s)
									seen()
								}
								fn := c["function"].(map[string]any)
								if s, ok := fn["name"].(string); ok {
									name.WriteString(s)
								}
								args.WriteString(fn["arguments"].(string))
							}
						}
					case pathResponses:
						switch ev {
						case "response.output_text.delta":
							text.WriteString(e["delta"].(string))
						case "response.output_item.added":
							if it := e["item"].(map[string]any); it["type"] == "function_call" {
								id.WriteString(it["call_id"].(string))
								name.WriteString(it["name"].(string))
								seen()
							}
						case "response.function_call_arguments.delta":
							args.WriteString(e["delta"].(string))
						case "response.completed":
							out := e["response"].(map[string]any)["output"].([]any)
							last := out[len(out)-1].(map[string]any)
							if last["call_id"] != id.String() {
								t.Errorf("completed call_id %v; streamed %s", last["call_id"], id.String())
							}
							final = last["arguments"].(string)
						}
					case pathMessages:
						switch ev {
						case "content_block_start":
							if b := e["content_block"].(map[string]any); b["type"] == "tool_use" {
								id.WriteString(b["id"].(string))
								name.WriteString(b["name"].(string))
								seen()
							}
						case "content_block_delta":
							d := e["delta"].(map[string]any)
							switch d["type"] {
							case "text_delta":
								text.WriteString(d["text"].(string))
							case "input_json_delta":
								args.WriteString(d["partial_json"].(string))
							}
						case "message_delta":
							final = args.String()
							if r := e["delta"].(map[string]any)["stop_reason"]; r != "tool_use" {
								t.Errorf("stop_reason %v", r)
							}
						}
					}
				})
				if path == pathChat {
					final = args.String()
				}
				if text.String() != "Let me check." || name.String() != "get_weather" || args.String() != wantArgs || id.Len() == 0 || final != wantArgs {
					t.Errorf("reassembled text %q, call %s %s(%s), final %s; want %q, get_weather(%s)", text.String(), id.String(), name.String(), args.String(), final, "Let me check.", wantArgs)
				}
			})
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestStreamedToolCallsSDK reassembles streamed calls with the official
// SDKs' own accumulators (Chat Completions, Messages) and events
// (Responses), on a model that writes the XML syntax.
func TestStreamedToolCallsSDK(t *testing.T) {
	m := &streamModel{format: chattemplate.FormatXML, reply: xmlReply}
	_, ts := newTestServer(t, Config{Models: streamModels{b: m}})
	ctx := context.Background()
	oc, ac := openaiClient(ts), anthropicClient(ts)

	cs := oc.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{Model: "Test/tools",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Zürich?")},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: "get_weather", Parameters: weatherSchema})}})
	acc := openai.ChatCompletionAccumulator{}
	for cs.Next() {
		acc.AddChunk(cs.Current())
	}
	if err := cs.Err(); err != nil {
		t.Fatal(err)
	}
	msg := acc.Choices[0].Message
	if msg.Content != "Let me check." || len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Arguments != wantArgs ||
		msg.ToolCalls[0].Function.Name != "get_weather" || !strings.HasPrefix(msg.ToolCalls[0].ID, "call_") || acc.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("chat: accumulated %+v (finish %s)", msg, acc.Choices[0].FinishReason)
	}

	rs := oc.Responses.NewStreaming(ctx, oresponses.ResponseNewParams{Model: "Test/tools",
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("Weather in Zürich?")},
		Tools: []oresponses.ToolUnionParam{{OfFunction: &oresponses.FunctionToolParam{Name: "get_weather", Parameters: weatherSchema, Strict: openai.Bool(false)}}}})
	var deltas, done string
	var completed oresponses.Response
	for rs.Next() {
		switch ev := rs.Current(); ev.Type {
		case "response.function_call_arguments.delta":
			deltas += ev.Delta
		case "response.function_call_arguments.done":
			done = ev.Arguments
		case "response.completed":
			completed = ev.Response
		}
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	if deltas != wantArgs || done != wantArgs || len(completed.Output) != 2 || completed.Output[1].AsFunctionCall().Arguments != wantArgs ||
		completed.OutputText() != "Let me check." {
		t.Errorf("responses: deltas %s, done %s, completed %+v", deltas, done, completed.Output)
	}

	am := accumulated(t, ac.Messages.NewStreaming(ctx, anthropic.MessageNewParams{Model: "Test/tools", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather in Zürich?"))},
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "get_weather",
			InputSchema: anthropic.ToolInputSchemaParam{Properties: weatherSchema["properties"]}}}}}))
	if am.StopReason != "tool_use" || len(am.Content) != 2 || am.Content[0].Text != "Let me check." {
		t.Fatalf("messages: accumulated %+v", am)
	}
	var in bytes.Buffer
	if tu := am.Content[1].AsToolUse(); json.Compact(&in, tu.Input) != nil || in.String() != wantArgs || tu.Name != "get_weather" || !strings.HasPrefix(tu.ID, "toolu_") {
		t.Errorf("messages: tool_use %+v", tu)
	}
}

// TestStreamedToolCallsRemote streams calls through a gateway whose
// models are remote, translated between the protocols: the upstream's
// call pieces are passed on as they arrive, and reassemble to the call.
func TestStreamedToolCallsRemote(t *testing.T) {
	m := &streamModel{format: chattemplate.FormatXML, reply: xmlReply}
	_, up := newTestServer(t, Config{Models: streamModels{b: m}})
	remote := func(id, proto string) map[string]any {
		return map[string]any{"id": id, "object": "model", "owned_by": "test", "execution_location": "remote",
			"base_url": up.URL + "/v1", "supported_endpoints": []string{pathChat, pathResponses, pathMessages},
			"options": map[string]string{"protocol": proto, "upstream_model": "Test/tools"}}
	}
	gw := llmServer(t, Config{}, remote("Remote/chat", protoChat), remote("Remote/messages", protoMessages))
	ctx := context.Background()
	oc, ac := openaiClient(gw), anthropicClient(gw)

	cs := oc.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{Model: "Remote/messages",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Zürich?")},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: "get_weather", Parameters: weatherSchema})}})
	acc := openai.ChatCompletionAccumulator{}
	pieces := 0
	for cs.Next() {
		ch := cs.Current()
		if len(ch.Choices) > 0 && len(ch.Choices[0].Delta.ToolCalls) > 0 {
			pieces++
		}
		acc.AddChunk(ch)
	}
	if err := cs.Err(); err != nil {
		t.Fatal(err)
	}
	// The upstream writes the call in several pieces; the gateway passes
	// each on rather than the call whole.
	if msg := acc.Choices[0].Message; len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Arguments != wantArgs ||
		!strings.HasPrefix(msg.ToolCalls[0].ID, "toolu_") || pieces < 3 {
		t.Errorf("chat via messages: %+v in %d pieces", msg, pieces)
	}

	for _, id := range []string{"Remote/chat", "Remote/messages"} {
		rs := oc.Responses.NewStreaming(ctx, oresponses.ResponseNewParams{Model: id,
			Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("Weather in Zürich?")},
			Tools: []oresponses.ToolUnionParam{{OfFunction: &oresponses.FunctionToolParam{Name: "get_weather", Parameters: weatherSchema, Strict: openai.Bool(false)}}}})
		var deltas string
		n := 0
		var completed oresponses.Response
		for rs.Next() {
			switch ev := rs.Current(); ev.Type {
			case "response.function_call_arguments.delta":
				deltas += ev.Delta
				n++
			case "response.completed":
				completed = ev.Response
			}
		}
		if err := rs.Err(); err != nil {
			t.Fatal(err)
		}
		if deltas != wantArgs || n < 2 || len(completed.Output) != 2 || completed.Output[1].AsFunctionCall().Arguments != wantArgs {
			t.Errorf("responses via %s: deltas %s in %d pieces, completed %+v", id, deltas, n, completed.Output)
		}
	}

	am := accumulated(t, ac.Messages.NewStreaming(ctx, anthropic.MessageNewParams{Model: "Remote/chat", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather in Zürich?"))},
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "get_weather",
			InputSchema: anthropic.ToolInputSchemaParam{Properties: weatherSchema["properties"]}}}}}))
	var in bytes.Buffer
	if len(am.Content) != 2 || json.Compact(&in, am.Content[1].AsToolUse().Input) != nil || in.String() != wantArgs ||
		!strings.HasPrefix(am.Content[1].AsToolUse().ID, "call_") {
		t.Errorf("messages via chat: %+v", am.Content)
	}
}

// TestToolCallCutShort: a reply cut by the token limit inside a call's
// arguments. Chat Completions gives the arguments as written (finish
// length), Responses an incomplete function_call item (streamed or not), Messages no
// tool_use block (it has no object to give) and max_tokens.
func TestToolCallCutShort(t *testing.T) {
	cut := xmlReply[:strings.Index(xmlReply, "</parameter>\n<parameter=unit>")]
	m := &streamModel{format: chattemplate.FormatXML, reply: cut}
	_, ts := newTestServer(t, Config{Models: streamModels{b: m}})
	post := func(path, body string) map[string]any {
		req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("anthropic-version", "2023-06-01")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: status %d, %v", path, resp.StatusCode, err)
		}
		return v
	}
	tool := mustJSON(weatherSchema)
	const partial = `{"city":"Zürich` // the string is not closed yet
	chat := post(pathChat, `{"model":"Test/tools","messages":[{"role":"user","content":"Weather?"}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":`+tool+`}}]}`)
	ch := chat["choices"].([]any)[0].(map[string]any)
	calls, _ := ch["message"].(map[string]any)["tool_calls"].([]any)
	if ch["finish_reason"] != "length" || len(calls) != 1 || calls[0].(map[string]any)["function"].(map[string]any)["arguments"] != partial {
		t.Errorf("chat: %v", ch)
	}
	ro := post(pathResponses, `{"model":"Test/tools","input":"Weather?","tools":[{"type":"function","name":"get_weather","parameters":`+tool+`}]}`)
	if out := ro["output"].([]any); ro["status"] != "incomplete" || len(out) != 2 || out[1].(map[string]any)["status"] != "incomplete" ||
		out[1].(map[string]any)["arguments"] != partial {
		t.Errorf("responses: %v", ro)
	}
	msg := post(pathMessages, `{"model":"Test/tools","max_tokens":50,"messages":[{"role":"user","content":"Weather?"}],"tools":[{"name":"get_weather","input_schema":`+tool+`}]}`)
	if content := msg["content"].([]any); msg["stop_reason"] != "max_tokens" || len(content) != 1 || content[0].(map[string]any)["type"] != "text" {
		t.Errorf("messages: %v", msg)
	}

	body := `{"model":"Test/tools","stream":true,"input":"Weather?","tools":[{"type":"function","name":"get_weather","parameters":` + tool + `}]}`
	req, _ := http.NewRequest("POST", ts.URL+pathResponses, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var itemDone map[string]any
	terminal := ""
	sseRead(t, resp, func(ev string, data []byte) {
		var e map[string]any
		_ = json.Unmarshal(data, &e)
		switch ev {
		case "response.output_item.done":
			itemDone = e["item"].(map[string]any)
		case "response.completed", "response.incomplete":
			terminal = ev
		}
	})
	if terminal != "response.incomplete" || itemDone["type"] != "function_call" || itemDone["status"] != "incomplete" || itemDone["arguments"] != partial {
		t.Errorf("responses: ended with %s, last item %v", terminal, itemDone)
	}
}
