package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
	oresponses "github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// storySchema is what the structured-output tests ask stories260K for.
var storySchema = map[string]any{"type": "object", "properties": map[string]any{
	"hero":  map[string]any{"type": "string", "maxLength": 10},
	"happy": map[string]any{"type": "boolean"},
	"pets":  map[string]any{"type": "array", "items": map[string]any{"enum": []string{"cat", "dog"}}, "maxItems": 2}},
	"required": []string{"hero", "happy", "pets"}}

type story struct {
	Hero  *string  `json:"hero"`
	Happy *bool    `json:"happy"`
	Pets  []string `json:"pets"`
}

func checkStory(t *testing.T, text string) {
	t.Helper()
	var s story
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil || s.Hero == nil || s.Happy == nil || s.Pets == nil || len([]rune(*s.Hero)) > 10 || len(s.Pets) > 2 {
		t.Errorf("output %q does not validate: %v", text, err)
	}
	for _, p := range s.Pets {
		if p != "cat" && p != "dog" {
			t.Errorf("pet %q not in the enum", p)
		}
	}
}

// TestStructuredOutputSDK asks the real stories260K model for JSON through
// both OpenAI protocols, streamed and not: the output always validates.
func TestStructuredOutputSDK(t *testing.T) {
	ts := llmServer(t, Config{})
	c := openaiClient(ts)
	ctx := context.Background()
	params := openai.ChatCompletionNewParams{Model: testLLM, MaxTokens: openai.Int(120), Seed: openai.Int(3),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Once upon a time")},
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: "story", Schema: storySchema, Strict: openai.Bool(true)}}}}
	got, err := c.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got.Choices[0].FinishReason != "stop" {
		t.Errorf("finish %s; want stop", got.Choices[0].FinishReason)
	}
	checkStory(t, got.Choices[0].Message.Content)

	stream := c.Chat.Completions.NewStreaming(ctx, params)
	acc := openai.ChatCompletionAccumulator{}
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	checkStory(t, acc.Choices[0].Message.Content)

	params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}
	got, err = c.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	// Any object: the model may still be writing it at max_tokens (the
	// output is then cut, finish_reason length); ended, it parses.
	var obj map[string]any
	if fr, out := got.Choices[0].FinishReason, got.Choices[0].Message.Content; fr == "stop" && json.Unmarshal([]byte(out), &obj) != nil || fr != "stop" && fr != "length" || out[0] != '{' {
		t.Errorf("json_object output %q (finish %s) is not an object", out, fr)
	}

	rp := oresponses.ResponseNewParams{Model: testLLM, MaxOutputTokens: openai.Int(120), Temperature: openai.Float(0.8),
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("Lily")},
		Text: oresponses.ResponseTextConfigParam{Format: oresponses.ResponseFormatTextConfigUnionParam{
			OfJSONSchema: &oresponses.ResponseFormatTextJSONSchemaConfigParam{Name: "story", Schema: storySchema}}}}
	r, err := c.Responses.New(ctx, rp)
	if err != nil {
		t.Fatal(err)
	}
	checkStory(t, r.OutputText())
	if r.Text.Format.Type != "json_schema" {
		t.Errorf("response text.format %+v; want the request's", r.Text.Format)
	}
	rs := c.Responses.NewStreaming(ctx, rp)
	var text string
	for rs.Next() {
		if ev := rs.Current(); ev.Type == "response.output_text.delta" {
			text += ev.Delta
		}
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	checkStory(t, text)
}

// TestMessagesOutputConfigSDK: output_config.format constrains a Messages
// reply the same way.
func TestMessagesOutputConfigSDK(t *testing.T) {
	ts := llmServer(t, Config{})
	c := anthropicClient(ts)
	params := anthropic.MessageNewParams{Model: testLLM, MaxTokens: 120,
		Messages:     []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Once upon a time"))},
		OutputConfig: anthropic.OutputConfigParam{Format: anthropic.JSONOutputFormatParam{Schema: storySchema}}}
	msg, err := c.Messages.New(context.Background(), params, greedyOpt)
	if err != nil {
		t.Fatal(err)
	}
	if msg.StopReason != "end_turn" {
		t.Errorf("stop_reason %s; want end_turn", msg.StopReason)
	}
	checkStory(t, msg.Content[0].Text)
	acc := accumulated(t, c.Messages.NewStreaming(context.Background(), params))
	checkStory(t, acc.Content[0].Text)
}
