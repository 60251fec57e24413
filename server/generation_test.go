package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	oresponses "github.com/openai/openai-go/v3/responses"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/sse"
	"github.com/sottolabs/sotto/llm"
)

// The test model: llama2.c's MIT-licensed stories260K, shipped in
// llm/testdata. It has no chat template, so a prompt is the messages'
// contents joined by newlines.
const testLLM = "Test/stories260K"

func llmFiles(t *testing.T) (model, tok string) {
	t.Helper()
	model, _ = filepath.Abs("../llm/testdata/stories260K.bin")
	tok, _ = filepath.Abs("../llm/testdata/stories260K-tok512.bin")
	if _, err := os.Stat(model); err != nil {
		t.Skipf("test model absent: %v", err)
	}
	return model, tok
}

// llmCatalog writes a user catalog holding the test model (and extra
// entries) and returns its path.
func llmCatalog(t *testing.T, extra ...map[string]any) string {
	t.Helper()
	model, tok := llmFiles(t)
	entries := []map[string]any{{
		"id": testLLM, "object": "model", "owned_by": "test", "execution_location": "local",
		"supported_endpoints": []string{pathChat, pathResponses, pathMessages, pathTokenize},
		"backend":             loaders.LLMBackend,
		"options":             map[string]string{"model": "model", "tokenizer": "tokenizer"},
		"files": []map[string]string{{"name": "model", "system_path": model},
			{"name": "tokenizer", "system_path": tok}},
	}}
	b, err := json.Marshal(map[string]any{"models": append(entries, extra...)})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// llmServer serves the test model (loaded) with the real catalog, runtime
// and loaders, with API key testKey.
func llmServer(t *testing.T, cfg Config, extra ...map[string]any) *httptest.Server {
	t.Helper()
	m, err := models.New(models.Config{DataDir: t.TempDir(), CatalogFile: llmCatalog(t, extra...),
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	loaders.Register(m)
	if _, err := m.Load(context.Background(), testLLM); err != nil {
		t.Fatal(err)
	}
	cfg.Models = ManagedModels(m, nil)
	cfg.APIKey = testKey
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	_, ts := newTestServer(t, cfg)
	return ts
}

// greedy is what the engine itself generates for one user message, the
// reference the endpoints must reproduce (temperature 0 is greedy).
func greedy(t *testing.T, prompt string, n int) string {
	t.Helper()
	model, tok := llmFiles(t)
	b, err := llm.Open(context.Background(), "go", backend.Config{Options: map[string]string{
		llm.OptModelFile: model, llm.OptTokenizerFile: tok}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var sb strings.Builder
	err = b.Generate(context.Background(), []llm.Message{{Role: "user", Content: prompt}},
		llm.Options{MaxTokens: n}, func(tk llm.Token) error { sb.WriteString(tk.Text); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

func openaiClient(ts *httptest.Server) openai.Client {
	return openai.NewClient(option.WithBaseURL(ts.URL+"/v1"), option.WithAPIKey(testKey), option.WithMaxRetries(0),
		option.WithHTTPClient(ts.Client()))
}

func anthropicClient(ts *httptest.Server) anthropic.Client {
	return anthropic.NewClient(aoption.WithBaseURL(ts.URL), aoption.WithAPIKey(testKey), aoption.WithMaxRetries(0),
		aoption.WithHTTPClient(ts.Client()))
}

const prompt = "Once upon a time"

// greedyOpt asks a Messages request for temperature 0 (greedy decoding);
// this SDK version has no temperature field.
var greedyOpt = aoption.WithJSONSet("temperature", 0)

func TestOpenAIChatSDK(t *testing.T) {
	ts := llmServer(t, Config{})
	want := greedy(t, prompt, 12)
	c := openaiClient(ts)
	ctx := context.Background()
	params := openai.ChatCompletionNewParams{Model: testLLM, MaxTokens: openai.Int(12), Temperature: openai.Float(0),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)}}
	got, err := c.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Choices) != 1 || got.Choices[0].Message.Content != want || got.Choices[0].FinishReason != "length" {
		t.Errorf("chat completion = %+v; want text %q, finish length", got.Choices, want)
	}
	if got.Object != "chat.completion" || got.Usage.CompletionTokens != 12 || got.Usage.PromptTokens <= 0 ||
		got.Usage.TotalTokens != got.Usage.PromptTokens+12 || !strings.HasPrefix(got.ID, "chatcmpl-") {
		t.Errorf("chat completion id %q object %q usage %+v", got.ID, got.Object, got.Usage)
	}

	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	stream := c.Chat.Completions.NewStreaming(ctx, params)
	acc := openai.ChatCompletionAccumulator{}
	chunks := 0
	for stream.Next() {
		ch := stream.Current()
		acc.AddChunk(ch)
		if ch.Object != "chat.completion.chunk" {
			t.Errorf("chunk object %q", ch.Object)
		}
		chunks++
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if acc.Choices[0].Message.Content != want || acc.Choices[0].FinishReason != "length" || acc.Usage.CompletionTokens != 12 {
		t.Errorf("streamed = %q (%s, usage %+v); want %q, length", acc.Choices[0].Message.Content,
			acc.Choices[0].FinishReason, acc.Usage, want)
	}
	if chunks < 4 {
		t.Errorf("%d chunks; want a role chunk, text chunks, a finish chunk and a usage chunk", chunks)
	}

	// An error decoded by the SDK.
	_, err = c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: testLLM, Temperature: openai.Float(3),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)}})
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Param != "temperature" || apiErr.Type != "invalid_request_error" {
		t.Errorf("temperature 3: err = %v; want a 400 with param temperature", err)
	}
	_, err = c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "Test/none",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)}})
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Code != "model_not_found" {
		t.Errorf("unknown model: err = %v; want 404 model_not_found", err)
	}
}

func TestOpenAIResponsesSDK(t *testing.T) {
	dataDir := t.TempDir()
	ts := llmServer(t, Config{DataDir: dataDir})
	want := greedy(t, prompt, 10)
	c := openaiClient(ts)
	ctx := context.Background()
	params := oresponses.ResponseNewParams{Model: testLLM, MaxOutputTokens: openai.Int(10), Temperature: openai.Float(0),
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String(prompt)}}
	got, err := c.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got.OutputText() != want || got.Status != "incomplete" || got.IncompleteDetails.Reason != "max_output_tokens" ||
		got.Usage.OutputTokens != 10 || got.Object != "response" {
		t.Errorf("response = %q status %q (%+v) usage %+v; want %q, incomplete", got.OutputText(), got.Status,
			got.IncompleteDetails, got.Usage, want)
	}
	if _, err := os.Stat(filepath.Join(dataDir, "responses", got.ID+".json")); err != nil {
		t.Errorf("stored response: %v", err)
	}

	// previous_response_id continues the stored conversation: the prompt
	// now holds the first input and output too.
	next, err := c.Responses.New(ctx, oresponses.ResponseNewParams{Model: testLLM, MaxOutputTokens: openai.Int(4),
		Temperature: openai.Float(0), PreviousResponseID: openai.String(got.ID),
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("The end")}})
	if err != nil {
		t.Fatal(err)
	}
	if next.PreviousResponseID != got.ID || next.Usage.InputTokens <= got.Usage.InputTokens {
		t.Errorf("continuation: previous %q, input tokens %d (first %d); want more input", next.PreviousResponseID,
			next.Usage.InputTokens, got.Usage.InputTokens)
	}
	_, err = c.Responses.New(ctx, oresponses.ResponseNewParams{Model: testLLM, PreviousResponseID: openai.String("resp_00"),
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("x")}})
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Param != "previous_response_id" {
		t.Errorf("unknown previous_response_id: err = %v; want 400 with that param", err)
	}

	stream := c.Responses.NewStreaming(ctx, params)
	var types []string
	var text strings.Builder
	for stream.Next() {
		ev := stream.Current()
		types = append(types, ev.Type)
		if ev.Type == "response.output_text.delta" {
			text.WriteString(ev.Delta)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	wantTypes := []string{"response.created", "response.in_progress", "response.output_item.added",
		"response.content_part.added", "response.output_text.delta"}
	for i, w := range wantTypes {
		if i >= len(types) || types[i] != w {
			t.Fatalf("events %v; want them to start with %v", types, wantTypes)
		}
	}
	tail := types[len(types)-4:]
	if strings.Join(tail, " ") != "response.output_text.done response.content_part.done response.output_item.done response.incomplete" {
		t.Errorf("events end with %v", tail)
	}
	if text.String() != want {
		t.Errorf("streamed text %q; want %q", text.String(), want)
	}
}

func TestResponsesCompletedWhenModelStops(t *testing.T) {
	ts := llmServer(t, Config{})
	// A stop sequence ends the text before max_output_tokens: status
	// completed, terminal event response.completed.
	full := greedy(t, prompt, 20)
	i := strings.Index(full, " a")
	if i < 0 {
		t.Skipf("greedy text %q has no \" a\"", full)
	}
	body := map[string]any{"model": testLLM, "input": prompt, "max_output_tokens": 20, "temperature": 0,
		"stop": []string{" a"}, "stream": true}
	r := do(t, ts, "POST", pathResponses, jsonBody(body), map[string]string{"Authorization": "Bearer " + testKey})
	events := parseGenSSE(t, string(r.body))
	last := events[len(events)-1]
	if last.name != "response.completed" {
		t.Fatalf("last event %q; want response.completed", last.name)
	}
	var ev struct {
		Response struct {
			Status string
			Output []struct{ Content []struct{ Text string } }
		}
	}
	json.Unmarshal([]byte(last.data), &ev)
	if ev.Response.Status != "completed" || ev.Response.Output[0].Content[0].Text != full[:i] {
		t.Errorf("completed response %s; want text %q", last.data, full[:i])
	}
}

func TestAnthropicMessagesSDK(t *testing.T) {
	ts := llmServer(t, Config{})
	want := greedy(t, prompt, 9)
	c := anthropicClient(ts)
	ctx := context.Background()
	params := anthropic.MessageNewParams{Model: testLLM, MaxTokens: 9,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}}
	got, err := c.Messages.New(ctx, params, greedyOpt)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Content) != 1 || got.Content[0].Text != want || got.StopReason != "max_tokens" ||
		got.Usage.OutputTokens != 9 || got.Usage.InputTokens <= 0 || got.Role != "assistant" {
		t.Errorf("message = %+v; want %q, max_tokens", got, want)
	}

	stream := c.Messages.NewStreaming(ctx, params, greedyOpt)
	var msg anthropic.Message
	var types []string
	startInput := int64(-1)
	for stream.Next() {
		ev := stream.Current()
		types = append(types, ev.Type)
		if ev.Type == "message_start" {
			startInput = ev.Message.Usage.InputTokens
		}
		if err := msg.Accumulate(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 1 || msg.Content[0].Text != want || msg.StopReason != "max_tokens" || msg.Usage.OutputTokens != 9 {
		t.Errorf("streamed message = %+v; want %q", msg, want)
	}
	// Anthropic clients read the input tokens from message_start.
	if startInput != got.Usage.InputTokens || msg.Usage.InputTokens != got.Usage.InputTokens {
		t.Errorf("streamed input_tokens: message_start %d, accumulated %d; want %d", startInput, msg.Usage.InputTokens, got.Usage.InputTokens)
	}
	if types[0] != "message_start" || types[1] != "content_block_start" || types[len(types)-1] != "message_stop" ||
		types[len(types)-2] != "message_delta" || types[len(types)-3] != "content_block_stop" {
		t.Errorf("events %v", types)
	}

	// A stop sequence: stop_reason stop_sequence, the text before it.
	i := strings.Index(want, " a")
	if i > 0 {
		p := params
		p.StopSequences = []string{" a"}
		got, err := c.Messages.New(ctx, p, greedyOpt)
		if err != nil {
			t.Fatal(err)
		}
		if got.StopReason != "stop_sequence" || got.StopSequence != " a" || got.Content[0].Text != want[:i] {
			t.Errorf("stop sequence: %+v; want %q", got, want[:i])
		}
	}

	_, err = c.Messages.New(ctx, anthropic.MessageNewParams{Model: "Test/none", MaxTokens: 4,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}})
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Type() != "not_found_error" {
		t.Errorf("unknown model: err = %v; want 404 not_found_error", err)
	}
	_, err = c.Messages.New(ctx, anthropic.MessageNewParams{Model: testLLM, MaxTokens: 4,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}},
		aoption.WithJSONSet("temperature", 1.5))
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Type() != "invalid_request_error" {
		t.Errorf("temperature 1.5: err = %v; want 400 invalid_request_error", err)
	}
}

// genEvent is one parsed Server-Sent Event.
type genEvent struct{ name, data string }

func parseGenSSE(t *testing.T, body string) []genEvent {
	t.Helper()
	var out []genEvent
	err := sse.Read(strings.NewReader(body), func(name, data string) error {
		out = append(out, genEvent{name, data})
		return nil
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("SSE body %q: %v", body, err)
	}
	return out
}

func TestGenerationValidation(t *testing.T) {
	ts := llmServer(t, Config{})
	msgs := []map[string]any{{"role": "user", "content": "hi"}}
	cases := []struct {
		path   string
		body   map[string]any
		status int
		code   string
		param  string
	}{
		{pathChat, map[string]any{"messages": msgs}, 400, "bad_request", "model"},
		{pathChat, map[string]any{"model": 5, "messages": msgs}, 400, "bad_request", "model"},
		{pathChat, map[string]any{"model": "Sotto/Lattice-2", "messages": msgs}, 400, "model_capability_unsupported", "model"},
		{pathChat, map[string]any{"model": testLLM}, 400, "bad_request", "messages"},
		{pathChat, map[string]any{"model": testLLM, "messages": []any{}}, 400, "bad_request", "messages"},
		{pathChat, map[string]any{"model": testLLM, "messages": []any{map[string]any{"role": "robot", "content": "x"}}}, 400, "bad_request", "messages[0].role"},
		{pathChat, map[string]any{"model": testLLM, "messages": []any{map[string]any{"role": "user"}}}, 400, "bad_request", "messages[0].content"},
		{pathChat, map[string]any{"model": testLLM, "messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "image_url"}}}}}, 400, "bad_request", "messages[0].content[0].type"},
		{pathChat, map[string]any{"model": testLLM, "messages": []any{map[string]any{"role": "user", "content": "x", "colour": 1}}}, 400, "bad_request", "messages[0].colour"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "temperature": -1}, 400, "bad_request", "temperature"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "top_p": 1.5}, 400, "bad_request", "top_p"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "top_k": -1}, 400, "bad_request", "top_k"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "min_p": 2}, 400, "bad_request", "min_p"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "repetition_penalty": 0}, 400, "bad_request", "repetition_penalty"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "max_tokens": 0}, 400, "bad_request", "max_tokens"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "max_completion_tokens": -3}, 400, "bad_request", "max_completion_tokens"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "stop": []string{"a", "b", "c", "d", "e"}}, 400, "bad_request", "stop"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "stop": 3}, 400, "bad_request", "stop"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "n": 2}, 400, "unsupported_parameter", "n"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "reasoning_effort": "low"}, 400, "unsupported_parameter", "reasoning_effort"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "modalities": []string{"text", "audio"}}, 400, "unsupported_parameter", "modalities"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "audio": map[string]any{"voice": "alloy", "format": "wav"}}, 400, "unsupported_parameter", "audio"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "prediction": map[string]any{"type": "content", "content": "x"}}, 400, "unsupported_parameter", "prediction"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "web_search_options": map[string]any{"search_context_size": "low"}}, 400, "unsupported_parameter", "web_search_options"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "functions": []any{map[string]any{"name": "f"}}}, 400, "unsupported_parameter", "functions"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "function_call": "auto"}, 400, "unsupported_parameter", "function_call"},
		// stories260K has no chat template: no tool calling (the backend refuses).
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "f"}}}}, 400, "unsupported_parameter", "tools"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "tools": []any{map[string]any{"type": "function"}}}, 400, "bad_request", "tools[0].function"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "f g"}}}}, 400, "bad_request", "tools[0].function.name"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "tool_choice": "required"}, 400, "bad_request", "tool_choice"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "f"}}}, "tool_choice": map[string]any{"type": "function", "function": map[string]any{"name": "g"}}}, 400, "bad_request", "tool_choice.function.name"},
		{pathChat, map[string]any{"model": testLLM, "messages": []any{map[string]any{"role": "tool", "content": "x"}}}, 400, "bad_request", "messages[0].tool_call_id"},
		{pathChat, map[string]any{"model": testLLM, "messages": []any{map[string]any{"role": "tool", "content": "x", "tool_call_id": "c1"}}}, 400, "unsupported_parameter", "messages"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "x", "schema": map[string]any{"type": "string", "pattern": "^a"}}}}, 400, "unsupported_parameter", "response_format.json_schema.schema"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "response_format": map[string]any{"type": "xml"}}, 400, "bad_request", "response_format.type"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "frequency_penalty": 0.5}, 400, "unsupported_parameter", "frequency_penalty"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "logprobs": true}, 400, "unsupported_parameter", "logprobs"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "wibble": true}, 400, "bad_request", "wibble"},
		{pathChat, map[string]any{"model": "Test/none", "messages": msgs}, 404, "model_not_found", "model"},
		// An element that is not an object is named by its index.
		{pathChat, map[string]any{"model": testLLM, "messages": []any{nil}}, 400, "bad_request", "messages[0]"},
		{pathChat, map[string]any{"model": testLLM, "messages": []any{map[string]any{"role": "user", "content": "x"}, "hi"}}, 400, "bad_request", "messages[1]"},
		{pathResponses, map[string]any{"model": testLLM, "input": []any{5}}, 400, "bad_request", "input[0]"},
		{pathChat, map[string]any{"model": testLLM, "messages": msgs, "tools": []any{nil}}, 400, "bad_request", "tools[0].type"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "tools": []any{map[string]any{"name": "f"}}}, 400, "bad_request", "tools[0].type"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": []any{nil}}, 400, "bad_request", "messages[0]"},
		{pathResponses, map[string]any{"model": testLLM}, 400, "bad_request", "input"},
		{pathResponses, map[string]any{"input": "x"}, 400, "bad_request", "model"},
		{pathResponses, map[string]any{"model": testLLM, "input": []any{}}, 400, "bad_request", "input"},
		{pathResponses, map[string]any{"model": testLLM, "input": 7}, 400, "bad_request", "input"},
		{pathResponses, map[string]any{"model": testLLM, "input": []any{map[string]any{"type": "function_call_output"}}}, 400, "bad_request", "input[0].call_id"},
		{pathResponses, map[string]any{"model": testLLM, "input": []any{map[string]any{"type": "function_call", "call_id": "c", "name": "f", "arguments": "[1]"}}}, 400, "bad_request", "input[0].arguments"},
		{pathResponses, map[string]any{"model": testLLM, "input": []any{map[string]any{"type": "web_search_call"}}}, 400, "unsupported_parameter", "input[0].type"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "tools": []any{map[string]any{"type": "function", "name": "f"}}}, 400, "unsupported_parameter", "tools"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "tools": []any{map[string]any{"type": "web_search"}}}, 400, "unsupported_parameter", "tools[0].type"},
		{pathResponses, map[string]any{"model": testLLM, "input": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "input_image"}}}}}, 400, "bad_request", "input[0].content[0].type"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "max_output_tokens": 0}, 400, "bad_request", "max_output_tokens"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "temperature": 2.5}, 400, "bad_request", "temperature"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "previous_response_id": "../etc/passwd"}, 400, "previous_response_not_found", "previous_response_id"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "text": map[string]any{"format": map[string]any{"type": "json_schema", "name": "x", "schema": map[string]any{"type": "integer", "minimum": 3}}}}, 400, "unsupported_parameter", "text.format.schema"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "reasoning": map[string]any{"effort": "high"}}, 400, "unsupported_parameter", "reasoning"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "reasoning": map[string]any{"effort": nil, "summary": "auto"}}, 400, "unsupported_parameter", "reasoning"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "background": true}, 400, "unsupported_parameter", "background"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "conversation": "conv_1"}, 400, "unsupported_parameter", "conversation"},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "prompt": map[string]any{"id": "pmpt_1"}}, 400, "unsupported_parameter", "prompt"},
		{pathMessages, map[string]any{"model": testLLM, "messages": msgs}, 400, "bad_request", "max_tokens"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4}, 400, "bad_request", "messages"},
		{pathMessages, map[string]any{"max_tokens": 4, "messages": msgs}, 400, "bad_request", "model"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 0, "messages": msgs}, 400, "bad_request", "max_tokens"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": []any{map[string]any{"role": "system", "content": "x"}}}, 400, "bad_request", "messages[0].role"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": msgs, "temperature": 1.5}, 400, "bad_request", "temperature"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": msgs, "thinking": map[string]any{"type": "enabled"}}, 400, "unsupported_parameter", "thinking"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": msgs, "system": 5}, 400, "bad_request", "system"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": msgs, "tools": []any{map[string]any{"name": "f", "input_schema": map[string]any{"type": "object"}}}}, 400, "unsupported_parameter", "tools"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": msgs, "tools": []any{map[string]any{"name": "f"}}}, 400, "bad_request", "tools[0].input_schema"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": msgs, "tool_choice": map[string]any{"type": "any"}}, 400, "bad_request", "tool_choice"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": msgs, "output_config": map[string]any{"effort": "high"}}, 400, "unsupported_parameter", "output_config.effort"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": msgs, "output_config": map[string]any{"format": map[string]any{"type": "json_schema", "schema": map[string]any{"type": "string", "pattern": "x"}}}}, 400, "unsupported_parameter", "output_config.format.schema"},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result"}}}}}, 400, "bad_request", "messages[0].content[0].tool_use_id"},
		{pathMessages, map[string]any{"model": "Test/none", "max_tokens": 4, "messages": msgs}, 404, "model_not_found", "model"},
		{pathTokenize, map[string]any{"model": testLLM}, 400, "bad_request", "text"},
		{pathTokenize, map[string]any{"model": testLLM, "text": "a", "messages": msgs}, 400, "bad_request", "messages"},
		{pathTokenize, map[string]any{"text": "a"}, 400, "bad_request", "model"},
	}
	for _, c := range cases {
		b, _ := json.Marshal(c.body)
		r := do(t, ts, "POST", c.path, strings.NewReader(string(b)), map[string]string{"Authorization": "Bearer " + testKey})
		var code, param, typ string
		if c.path == pathMessages {
			var env struct {
				Type  string
				Error struct{ Type, Code, Param, Message string }
			}
			json.Unmarshal(r.body, &env)
			code, param, typ = env.Error.Code, env.Error.Param, env.Type
			if typ != "error" || env.Error.Type == "" || env.Error.Message == "" {
				t.Errorf("%s %s: body %s is not the Messages envelope", c.path, b, r.body)
			}
		} else {
			e := r.envelope(t)
			code, param = e.Code, e.Param
		}
		if r.status != c.status || code != c.code || param != c.param {
			t.Errorf("POST %s %s = %d %s (param %q); want %d %s (param %q)", c.path, b, r.status, code, param,
				c.status, c.code, c.param)
		}
	}
}

// The known fields OpenAI clients send with their neutral values are
// accepted (they were "unknown field" 400s), and so are the identifiers
// that do not change the output.
func TestGenerationNeutralFields(t *testing.T) {
	ts := llmServer(t, Config{})
	msgs := []any{map[string]any{"role": "user", "content": "Once"}}
	cases := []struct {
		path string
		body map[string]any
	}{
		{pathChat, map[string]any{"messages": msgs, "modalities": []string{"text"}, "prediction": nil, "audio": nil,
			"web_search_options": nil, "functions": []any{}, "function_call": nil, "reasoning_effort": "",
			"prompt_cache_key": "k", "safety_identifier": "s", "verbosity": "medium"}},
		{pathResponses, map[string]any{"input": "Once", "background": false, "conversation": nil, "prompt": nil,
			"max_tool_calls": 3, "prompt_cache_key": "k", "safety_identifier": "s",
			"stream_options": map[string]any{"include_obfuscation": false}}},
		// No reasoning asked for: SDK defaults (every field null) and
		// effort "none".
		{pathResponses, map[string]any{"input": "Once", "reasoning": map[string]any{"effort": nil, "summary": nil}}},
		{pathResponses, map[string]any{"input": "Once", "reasoning": map[string]any{"effort": "none"}}},
		{pathChat, map[string]any{"messages": msgs, "reasoning_effort": "none"}},
	}
	for _, c := range cases {
		c.body["model"] = testLLM
		c.body["max_tokens"] = 2
		if c.path == pathResponses {
			delete(c.body, "max_tokens")
			c.body["max_output_tokens"] = 2
		}
		b, _ := json.Marshal(c.body)
		r := do(t, ts, "POST", c.path, strings.NewReader(string(b)), map[string]string{"Authorization": "Bearer " + testKey})
		if r.status != 200 {
			t.Errorf("%s %s: %d %s; want 200", c.path, b, r.status, r.body)
		}
	}
}

// The Messages envelope names param only where a field is at fault, as
// the other envelope does (it said "param": "" for a missing API key).
func TestMessagesEnvelopeParam(t *testing.T) {
	ts := llmServer(t, Config{})
	r := do(t, ts, "POST", pathMessages, strings.NewReader(`{}`), nil)
	var env struct {
		Type  string
		Error map[string]any
	}
	if err := json.Unmarshal(r.body, &env); err != nil || r.status != 401 || env.Type != "error" {
		t.Fatalf("no API key: %d %s; want 401 in the Messages envelope", r.status, r.body)
	}
	if _, ok := env.Error["param"]; ok {
		t.Errorf("no API key: body %s has a param; want none", r.body)
	}
	r = do(t, ts, "POST", pathMessages, strings.NewReader(`{"max_tokens":4}`), map[string]string{"Authorization": "Bearer " + testKey})
	if err := json.Unmarshal(r.body, &env); err != nil || env.Error["param"] != "model" {
		t.Errorf("no model: %d %s; want param model", r.status, r.body)
	}
}

func TestTokenize(t *testing.T) {
	ts := llmServer(t, Config{})
	auth := map[string]string{"Authorization": "Bearer " + testKey}
	r := do(t, ts, "POST", pathTokenize, jsonBody(map[string]any{"model": testLLM, "text": prompt}), auth)
	var got tokenizeResult
	if err := json.Unmarshal(r.body, &got); err != nil || r.status != 200 {
		t.Fatalf("tokenize = %d %s", r.status, r.body)
	}
	// stories260K's vocabulary: "Once" " upon" " a" " time" (llama2.c's
	// tokenizer, checked against run.c's encode).
	if got.Count != len(got.Tokens) || got.Count != 4 || got.Object != "tokens" || got.Model != testLLM {
		t.Errorf("tokenize %q = %+v", prompt, got)
	}
	r = do(t, ts, "POST", pathTokenize, jsonBody(map[string]any{"model": testLLM, "messages": []any{
		map[string]any{"role": "user", "content": prompt}, map[string]any{"role": "user", "content": prompt}}}), auth)
	var two tokenizeResult
	json.Unmarshal(r.body, &two)
	if two.Count != 2*got.Count {
		t.Errorf("tokenize of two messages = %d tokens; want %d", two.Count, 2*got.Count)
	}
}

func TestLocalModelNotLoaded(t *testing.T) {
	m, err := models.New(models.Config{DataDir: t.TempDir(), CatalogFile: llmCatalog(t), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	loaders.Register(m)
	_, ts := newTestServer(t, Config{Models: ManagedModels(m, nil)})
	r := do(t, ts, "POST", pathMessages, jsonBody(map[string]any{"model": testLLM, "max_tokens": 4,
		"messages": []any{map[string]any{"role": "user", "content": "x"}}}), nil)
	if !strings.Contains(string(r.body), "model_not_loaded") || r.status != 400 {
		t.Errorf("not loaded: %d %s; want 400 model_not_loaded", r.status, r.body)
	}
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{pathChat, map[string]any{"model": testLLM, "messages": []any{map[string]any{"role": "user", "content": "x"}}, "stream": true}},
		{pathResponses, map[string]any{"model": testLLM, "input": "x", "stream": true}},
		{pathMessages, map[string]any{"model": testLLM, "max_tokens": 4, "stream": true,
			"messages": []any{map[string]any{"role": "user", "content": "x"}}}},
	} {
		r := do(t, ts, "POST", c.path, jsonBody(c.body), nil)
		if r.status != 400 || !strings.Contains(string(r.body), "model_not_loaded") || r.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s stream, model not loaded: %d %s %s; want a plain 400 model_not_loaded", c.path, r.status,
				r.header.Get("Content-Type"), r.body)
		}
	}
	if len(m.Running().Data) != 0 {
		t.Error("a refused request loaded the model")
	}
}

// TestSSEFraming checks the wire framing of the three streams: Chat
// Completions data-only events ending with [DONE]; named events for
// Responses and Messages whose data "type" is the event name.
func TestSSEFraming(t *testing.T) {
	ts := llmServer(t, Config{})
	auth := map[string]string{"Authorization": "Bearer " + testKey}
	msgs := []any{map[string]any{"role": "user", "content": prompt}}
	r := do(t, ts, "POST", pathChat, jsonBody(map[string]any{"model": testLLM, "messages": msgs, "max_tokens": 3, "stream": true}), auth)
	if ct := r.header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("chat stream Content-Type %q", ct)
	}
	if !strings.HasSuffix(string(r.body), "data: [DONE]\n\n") || strings.Contains(string(r.body), "event:") {
		t.Errorf("chat stream framing: %q", r.body)
	}
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{pathResponses, map[string]any{"model": testLLM, "input": prompt, "max_output_tokens": 3, "stream": true}},
		{pathMessages, map[string]any{"model": testLLM, "messages": msgs, "max_tokens": 3, "stream": true}},
	} {
		r := do(t, ts, "POST", c.path, jsonBody(c.body), auth)
		for _, ev := range parseGenSSE(t, string(r.body)) {
			var d struct{ Type string }
			if err := json.Unmarshal([]byte(ev.data), &d); err != nil || d.Type != ev.name {
				t.Errorf("%s: event %q has data type %q", c.path, ev.name, d.Type)
			}
		}
	}
}

// TestRemoteUpstream puts a second Sotto server, serving the test model,
// behind remote catalog entries of both protocols: requests in the
// upstream's protocol pass through, the others are translated, streams
// included, and the greedy text arrives unchanged.
func TestRemoteUpstream(t *testing.T) {
	up := llmServer(t, Config{})
	var seen []http.Header
	spy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Header.Clone())
		r.URL.Scheme, r.URL.Host = "", ""
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, up.URL+r.URL.Path, r.Body)
		req.Header = r.Header.Clone()
		resp, err := up.Client().Do(req)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(flushWriter{w}, resp.Body)
	}))
	t.Cleanup(spy.Close)
	remote := func(id, proto string) map[string]any {
		return map[string]any{"id": id, "object": "model", "owned_by": "test", "execution_location": "remote",
			"base_url": spy.URL + "/v1", "supported_endpoints": []string{pathChat, pathResponses, pathMessages, pathTokenize},
			"options": map[string]string{"protocol": proto, "upstream_model": testLLM, "api_key_env": "UPSTREAM_KEY"}}
	}
	missing := remote("Remote/missing", protoChat)
	missing["options"] = map[string]string{"upstream_model": "Test/none", "api_key_env": "UPSTREAM_KEY"}
	gw := llmServer(t, Config{Getenv: func(k string) string {
		if k == "UPSTREAM_KEY" {
			return testKey
		}
		return ""
	}}, remote("Remote/chat", protoChat), remote("Remote/messages", protoMessages), missing)
	want := greedy(t, prompt, 8)
	ctx := context.Background()
	oc, ac := openaiClient(gw), anthropicClient(gw)
	for _, id := range []string{"Remote/chat", "Remote/messages"} {
		seen = nil
		cc, err := oc.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: id, MaxTokens: openai.Int(8),
			Temperature: openai.Float(0), Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)}})
		if err != nil {
			t.Fatalf("%s chat: %v", id, err)
		}
		if cc.Choices[0].Message.Content != want || cc.Choices[0].FinishReason != "length" {
			t.Errorf("%s chat = %q (%s); want %q", id, cc.Choices[0].Message.Content, cc.Choices[0].FinishReason, want)
		}
		msg, err := ac.Messages.New(ctx, anthropic.MessageNewParams{Model: id, MaxTokens: 8,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}},
			greedyOpt, aoption.WithHeader("anthropic-beta", "test-beta-1"))
		if err != nil {
			t.Fatalf("%s messages: %v", id, err)
		}
		if msg.Content[0].Text != want || msg.StopReason != "max_tokens" || msg.Usage.OutputTokens != 8 {
			t.Errorf("%s messages = %+v; want %q", id, msg, want)
		}
		stream := ac.Messages.NewStreaming(ctx, anthropic.MessageNewParams{Model: id, MaxTokens: 8,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}}, greedyOpt)
		var acc anthropic.Message
		startInput := int64(-1)
		for stream.Next() {
			ev := stream.Current()
			if ev.Type == "message_start" {
				startInput = ev.Message.Usage.InputTokens
			}
			acc.Accumulate(ev)
		}
		if err := stream.Err(); err != nil || len(acc.Content) == 0 || acc.Content[0].Text != want {
			t.Errorf("%s messages stream = %+v, %v; want %q", id, acc.Content, err, want)
		}
		// A Messages upstream states the input tokens in its message_start;
		// the gateway's message_start passes them on.
		if id == "Remote/messages" && (startInput <= 0 || startInput != msg.Usage.InputTokens) {
			t.Errorf("%s messages stream: message_start input_tokens %d; want %d", id, startInput, msg.Usage.InputTokens)
		}
		rs := oc.Responses.NewStreaming(ctx, oresponses.ResponseNewParams{Model: id, MaxOutputTokens: openai.Int(8),
			Temperature: openai.Float(0), Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String(prompt)}})
		var text strings.Builder
		last := ""
		for rs.Next() {
			ev := rs.Current()
			last = ev.Type
			if ev.Type == "response.output_text.delta" {
				text.WriteString(ev.Delta)
			}
		}
		if err := rs.Err(); err != nil || text.String() != want || last != "response.incomplete" {
			t.Errorf("%s responses stream = %q ending %s, %v; want %q", id, text.String(), last, err, want)
		}
		for _, h := range seen {
			if id == "Remote/messages" && (h.Get("x-api-key") != testKey || h.Get("anthropic-version") == "") {
				t.Errorf("%s: upstream got x-api-key %q, anthropic-version %q", id, h.Get("x-api-key"), h.Get("anthropic-version"))
			}
			if id == "Remote/chat" && h.Get("Authorization") != "Bearer "+testKey {
				t.Errorf("%s: upstream got Authorization %q", id, h.Get("Authorization"))
			}
		}
		beta := false
		for _, h := range seen {
			beta = beta || h.Get("anthropic-beta") == "test-beta-1"
		}
		if !beta {
			t.Errorf("%s: anthropic-beta was not forwarded", id)
		}
	}
	// An upstream error comes back in the client's protocol.
	_, err := ac.Messages.New(ctx, anthropic.MessageNewParams{Model: "Remote/missing", MaxTokens: 8,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}})
	var aerr *anthropic.Error
	if !errors.As(err, &aerr) || aerr.StatusCode != 404 || aerr.Type() != "not_found_error" {
		t.Errorf("a model the upstream lacks, translated: %v; want 404 not_found_error", err)
	}
	_, err = oc.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "Remote/missing",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)}})
	var oerr *openai.Error
	if !errors.As(err, &oerr) || oerr.StatusCode != 404 || oerr.Code != "model_not_found" {
		t.Errorf("a model the upstream lacks, passed through: %v; want 404 model_not_found", err)
	}
}

type flushWriter struct{ w http.ResponseWriter }

func (f flushWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	http.NewResponseController(f.w).Flush()
	return n, err
}

// endless is a language model that generates until its context is
// cancelled, then reports how it ended.
type endless struct{ done chan error }

func (e *endless) Generate(ctx context.Context, _ []llm.Message, _ llm.Options, emit func(llm.Token) error) error {
	for {
		if err := ctx.Err(); err != nil {
			e.done <- err
			return err
		}
		if err := emit(llm.Token{Text: "la ", ID: 1}); err != nil {
			e.done <- err
			return err
		}
	}
}

func (e *endless) Close() error { return nil }

type endlessModels struct {
	emptyModels
	b *endless
}

func (m endlessModels) Info(id string) (ModelInfo, bool) {
	if id != "Test/endless" {
		return ModelInfo{}, false
	}
	return ModelInfo{ID: id, SupportedEndpoints: []string{pathChat, pathResponses, pathMessages}, ExecutionLocation: "local"}, true
}

func (m endlessModels) Acquire(context.Context, string) (func(), any, error) {
	return func() {}, m.b, nil
}

// TestClientDisconnectStopsGeneration reads the first event of each
// protocol's stream, hangs up, and waits for the backend to end with the
// request's cancellation.
func TestClientDisconnectStopsGeneration(t *testing.T) {
	b := &endless{done: make(chan error, 1)}
	_, ts := newTestServer(t, Config{Models: endlessModels{b: b}})
	msgs := []any{map[string]any{"role": "user", "content": "sing"}}
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{pathChat, map[string]any{"model": "Test/endless", "messages": msgs, "stream": true}},
		{pathResponses, map[string]any{"model": "Test/endless", "input": "sing", "stream": true}},
		{pathMessages, map[string]any{"model": "Test/endless", "messages": msgs, "max_tokens": 1 << 30, "stream": true}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		bb, _ := json.Marshal(c.body)
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+c.path, strings.NewReader(string(bb)))
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(resp.Body)
		if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, "data:") && !strings.Contains(line, "event:") {
			t.Fatalf("%s: first line %q, %v", c.path, line, err)
		}
		cancel()
		resp.Body.Close()
		select {
		case err := <-b.done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: generation ended with %v; want context.Canceled", c.path, err)
			}
		case <-time.After(30 * time.Second): // a hang guard, not a timing assertion
			t.Fatalf("%s: generation did not stop after the client went away", c.path)
		}
	}
}

func TestStopFilter(t *testing.T) {
	cases := []struct {
		stops  []string
		pieces []string
		want   string
		hit    string
	}{
		{nil, []string{"ab", "cd"}, "abcd", ""},
		{[]string{"cd"}, []string{"ab", "c", "d", "ef"}, "ab", "cd"},
		{[]string{"cd"}, []string{"abc", "e"}, "abce", ""},
		{[]string{"xyz", "b"}, []string{"aaxy", "b"}, "aaxy", "b"},
		{[]string{"\n\n"}, []string{"one\n", "\ntwo"}, "one", "\n\n"},
	}
	for _, c := range cases {
		var got strings.Builder
		f := newStopFilter(c.stops, func(s string) error { got.WriteString(s); return nil })
		var err error
		for _, p := range c.pieces {
			if err = f.write(p); err != nil {
				break
			}
		}
		if err == nil {
			err = f.flush()
		}
		if got.String() != c.want || f.matched != c.hit || (c.hit != "") != errors.Is(err, errStopSequence) {
			t.Errorf("stopFilter(%q, %q) = %q (hit %q, %v); want %q (hit %q)", c.stops, c.pieces, got.String(), f.matched, err, c.want, c.hit)
		}
	}
}

// TestContextLengthAndBodyLimit: a prompt longer than the model's context
// is a 400 context_length_exceeded; a chunked body past the limit a 413.
func TestContextLengthAndBodyLimit(t *testing.T) {
	model, tok := llmFiles(t)
	tiny := map[string]any{"id": "Test/tiny-context", "object": "model", "owned_by": "test", "execution_location": "local",
		"supported_endpoints": []string{pathChat, pathMessages, pathResponses}, "backend": loaders.LLMBackend,
		"options": map[string]string{"model": "model", "tokenizer": "tokenizer", llm.OptContextLength: "8"},
		"files":   []map[string]string{{"name": "model", "system_path": model}, {"name": "tokenizer", "system_path": tok}}}
	m, err := models.New(models.Config{DataDir: t.TempDir(), CatalogFile: llmCatalog(t, tiny), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	loaders.Register(m)
	if _, err := m.Load(context.Background(), "Test/tiny-context"); err != nil {
		t.Fatal(err)
	}
	_, ts := newTestServer(t, Config{Models: ManagedModels(m, nil), MaxBodyBytes: 1 << 20})
	long := strings.Repeat("Once upon a time ", 10)
	r := do(t, ts, "POST", pathChat, jsonBody(map[string]any{"model": "Test/tiny-context",
		"messages": []any{map[string]any{"role": "user", "content": long}}}), nil)
	if e := r.envelope(t); r.status != 400 || e.Code != "context_length_exceeded" || e.Param != "messages" {
		t.Errorf("long prompt = %d %s; want 400 context_length_exceeded, param messages", r.status, r.body)
	}
	// Responses holds the conversation in input: the param names it,
	// streamed (the error comes before the stream opens) or not; with
	// truncation auto too, when one turn alone is too long.
	for _, stream := range []bool{false, true} {
		for _, trunc := range []string{"disabled", "auto"} {
			r = do(t, ts, "POST", pathResponses, jsonBody(map[string]any{"model": "Test/tiny-context", "input": long,
				"stream": stream, "truncation": trunc}), nil)
			if e := r.envelope(t); r.status != 400 || e.Code != "context_length_exceeded" || e.Param != "input" {
				t.Errorf("long Responses input (stream %v, truncation %s) = %d %s; want 400 context_length_exceeded, param input", stream, trunc, r.status, r.body)
			}
		}
	}
	// truncation auto drops the oldest turns (after the system turn) until
	// the prompt fits; disabled refuses it.
	turns := []any{map[string]any{"role": "system", "content": "Hi"}, map[string]any{"role": "user", "content": long},
		map[string]any{"role": "assistant", "content": "Once upon"}, map[string]any{"role": "user", "content": "Once"}}
	for _, stream := range []bool{false, true} {
		r = do(t, ts, "POST", pathResponses, jsonBody(map[string]any{"model": "Test/tiny-context", "input": turns,
			"max_output_tokens": 1, "truncation": "auto", "stream": stream}), nil)
		if r.status != 200 || !strings.Contains(string(r.body), `"truncation":"auto"`) || strings.Contains(string(r.body), `"error":{`) {
			t.Errorf("truncation auto (stream %v) = %d %s; want 200 with the oldest turns dropped", stream, r.status, r.body)
		}
	}
	r = do(t, ts, "POST", pathResponses, jsonBody(map[string]any{"model": "Test/tiny-context", "input": turns, "max_output_tokens": 1}), nil)
	if e := r.envelope(t); r.status != 400 || e.Code != "context_length_exceeded" {
		t.Errorf("truncation disabled = %d %s; want 400 context_length_exceeded", r.status, r.body)
	}
	r = do(t, ts, "POST", pathResponses, jsonBody(map[string]any{"model": "Test/tiny-context", "input": "x", "truncation": "middle"}), nil)
	if e := r.envelope(t); r.status != 400 || e.Param != "truncation" {
		t.Errorf("truncation middle = %d %s; want 400 param truncation", r.status, r.body)
	}
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(`{"model": "Test/tiny-context", "messages": [{"role": "user", "content": "`))
		pw.Write([]byte(strings.Repeat("a", 2<<20)))
		pw.Close()
	}()
	r = do(t, ts, "POST", pathMessages, pr, nil)
	if r.status != 413 || !strings.Contains(string(r.body), "request_too_large") || !strings.Contains(string(r.body), `"type":"error"`) {
		t.Errorf("chunked 2 MiB over a 1 MiB limit = %d %s; want 413 in the Messages envelope", r.status, r.body)
	}
}

// FuzzGenerationRequests feeds arbitrary bodies to the three protocol
// parsers: each returns a request or a 400-kind *sotto.Error, never panics,
// and a request it accepts has messages and valid sampling options.
func FuzzGenerationRequests(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":4,"stop":["x"],"temperature":0.5}`,
		`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"max_tokens":4,"system":"s"}`,
		`{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}],"instructions":"be brief"}`,
		`{"model":"m","input":"hi","previous_response_id":"resp_00","top_k":3,"min_p":0.1}`,
		`{"model":"m","messages":[{"role":"assistant"}],"n":1,"tools":[]}`,
		`{"messages":7}`, `[]`, `{`,
		`{"model":"m","messages":[{"role":"user","content":"w"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},{"role":"tool","tool_call_id":"c","content":"r"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}],"tool_choice":{"type":"function","function":{"name":"f"}},"response_format":{"type":"json_schema","json_schema":{"name":"n","schema":{"type":"object","properties":{"a":{"enum":[1,2]}}}}}}`,
		`{"model":"m","input":[{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"r"}],"tools":[{"type":"function","name":"f"}],"tool_choice":"required","text":{"format":{"type":"json_object"}}}`,
		`{"model":"m","max_tokens":4,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"r"}]}],"tools":[{"name":"f","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"f"}}`,
	} {
		f.Add([]byte(s))
	}
	store := newResponseStore("")
	m := ModelInfo{ID: "m"}
	f.Fuzz(func(t *testing.T, body []byte) {
		check := func(req *genRequest, err error) {
			if err != nil {
				var se *sotto.Error
				if !errors.As(err, &se) || !errors.Is(err, sotto.ErrInvalidRequest) {
					t.Fatalf("error %v is not a 400-kind *sotto.Error", err)
				}
				return
			}
			if len(req.msgs) == 0 || req.opts.Temperature < 0 || req.opts.TopP < 0 || req.opts.TopP > 1 || req.opts.MaxTokens < 0 {
				t.Fatalf("accepted request %+v", req)
			}
		}
		req, _, err := parseChat(body, m)
		check(req, err)
		req, _, _, err = parseResponses(body, m, store)
		check(req, err)
		req, err = parseMessages(body, m)
		check(req, err)
	})
}

// FuzzReadSSE writes arbitrary event names and data with the server's SSE
// writer and reads them back with sse.Read.
func FuzzReadSSE(f *testing.F) {
	f.Add("message_start", `{"a":1}`)
	f.Add("", "[DONE]")
	f.Fuzz(func(t *testing.T, name, data string) {
		if strings.ContainsAny(name, "\r\n") || name == "" || !utf8.ValidString(name) {
			name = "ev"
		}
		if !utf8.ValidString(data) {
			t.Skip() // JSON replaces invalid UTF-8
		}
		rec := httptest.NewRecorder()
		sw := newSSE(rec)
		if err := sw.event(name, data); err != nil {
			t.Skip()
		}
		if err := sw.raw([]byte("[DONE]")); err != nil {
			t.Fatal(err)
		}
		var got []genEvent
		if err := sse.Read(rec.Body, func(n, d string) error { got = append(got, genEvent{n, d}); return nil }); err != nil {
			t.Fatal(err)
		}
		var back string
		if len(got) != 2 || got[0].name != name || json.Unmarshal([]byte(got[0].data), &back) != nil || back != data ||
			got[1] != (genEvent{"", "[DONE]"}) {
			t.Fatalf("event(%q, %q) read back as %q", name, data, got)
		}
	})
}

// TestMessagesCountTokens: the Anthropic SDK's Messages.CountTokens gets the
// input_tokens a Messages request with the same body reports; errors come
// in the Messages envelope.
func TestMessagesCountTokens(t *testing.T) {
	ts := llmServer(t, Config{})
	c := anthropicClient(ts)
	ctx := context.Background()
	system := []anthropic.TextBlockParam{{Text: "Tell a story."}}
	msgs := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}
	got, err := c.Messages.New(ctx, anthropic.MessageNewParams{Model: testLLM, MaxTokens: 2, System: system, Messages: msgs}, greedyOpt)
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.Messages.CountTokens(ctx, anthropic.MessageCountTokensParams{Model: testLLM, System: anthropic.MessageCountTokensParamsSystemUnion{OfTextBlockArray: system}, Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	if n.InputTokens != got.Usage.InputTokens || n.InputTokens <= 4 {
		t.Errorf("count_tokens = %d; the message reported %d input tokens", n.InputTokens, got.Usage.InputTokens)
	}
	auth := map[string]string{"Authorization": "Bearer " + testKey}
	for _, tc := range []struct {
		body         string
		status       int
		param, field string
	}{
		{`{"model":"` + testLLM + `"}`, 400, "messages", ""},
		{`{"model":"nope","messages":[{"role":"user","content":"x"}]}`, 404, "model", ""},
		{`{"model":"` + testLLM + `","messages":[{"role":"robot","content":"x"}]}`, 400, "messages[0].role", ""},
	} {
		r := do(t, ts, "POST", pathCountTokens, strings.NewReader(tc.body), auth)
		var env struct {
			Type  string
			Error map[string]any
		}
		if err := json.Unmarshal(r.body, &env); err != nil || r.status != tc.status || env.Type != "error" || env.Error["param"] != tc.param {
			t.Errorf("%s: %d %s; want %d in the Messages envelope, param %s", tc.body, r.status, r.body, tc.status, tc.param)
		}
	}
}
