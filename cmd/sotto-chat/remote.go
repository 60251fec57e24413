package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/sottolabs/sotto/internal/sse"
	"github.com/sottolabs/sotto/llm"
)

// remote chats with a model served by a Sotto service through its Chat
// Completions endpoint, streamed.
type remote struct {
	base, key, model string
	c                *config
	http             *http.Client
}

func newRemote(c *config) *remote {
	base := strings.TrimSpace(c.url)
	if !strings.Contains(base, "://") {
		base = "http://" + base // a bare host:port, as SOTTO_LISTEN gives it
	}
	base = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(base, "/"), "/v1"), "/")
	return &remote{base: base, key: c.key, model: c.model, c: c, http: &http.Client{}}
}

// Raw is false: the service renders the model's template (a model without
// one gets the messages' contents as raw text there).
func (r *remote) Raw() bool { return false }

func (r *remote) Close() error { return nil }

// chatRequest is the part of a Chat Completions request sotto-chat sends.
type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Stream      bool          `json:"stream"`
	MaxTokens   int           `json:"max_completion_tokens,omitempty"`
	Temperature float64       `json:"temperature"`
	TopP        float64       `json:"top_p,omitempty"`
	Seed        *int64        `json:"seed,omitempty"`
}

func (r *remote) Reply(ctx context.Context, msgs []llm.Message, emit func(string) error) error {
	o := r.c.options()
	req := chatRequest{Model: r.model, Messages: lowerRoles(msgs), Stream: true, MaxTokens: o.MaxTokens,
		Temperature: o.Temperature, TopP: o.TopP, Seed: o.Seed}
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, r.base+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		return err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "text/event-stream")
	if r.key != "" {
		hr.Header.Set("Authorization", "Bearer "+r.key)
	}
	resp, err := r.http.Do(hr)
	if err != nil {
		return fmt.Errorf("cannot reach the Sotto service at %s (start it with sotto-cli serve, or give a model file): %w", r.base, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return serviceError(resp)
	}
	return sse.Read(resp.Body, func(_, data string) error {
		if data == "[DONE]" {
			return sse.ErrDone
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
			Error *envelope `json:"error"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return fmt.Errorf("the service sent a malformed event: %w", err)
		}
		if chunk.Error != nil {
			return chunk.Error
		}
		for _, c := range chunk.Choices {
			if c.Delta.Content != "" {
				if err := emit(c.Delta.Content); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// chatMessage is a Chat Completions message of text.
type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// lowerRoles turns the conversation into Chat Completions messages.
func lowerRoles(msgs []llm.Message) []chatMessage {
	out := make([]chatMessage, len(msgs))
	for i, m := range msgs {
		out[i] = chatMessage{Role: strings.ToLower(m.Role), Content: m.Content}
	}
	return out
}

// envelope is the error object of the service's error responses.
type envelope struct {
	Message string `json:"message"`
	Code    string `json:"code"`
	Param   string `json:"param"`
}

func (e *envelope) Error() string {
	s := e.Message
	if e.Code != "" {
		s += " (" + e.Code
		if e.Param != "" {
			s += ", param " + e.Param
		}
		s += ")"
	}
	return s
}

func serviceError(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var env struct {
		Error *envelope `json:"error"`
	}
	if json.Unmarshal(b, &env) == nil && env.Error != nil && env.Error.Message != "" {
		return fmt.Errorf("service: %s: %w", resp.Status, env.Error)
	}
	return fmt.Errorf("service: %s: %s", resp.Status, strings.TrimSpace(string(b)))
}
