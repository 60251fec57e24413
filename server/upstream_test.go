package server

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An upstream whose stream ends before its protocol's terminal event
// ([DONE] for Chat Completions, message_stop for Messages) has failed
// midway: a translated request reports 503 upstream_error instead of
// returning the text received so far as if it were complete.
func TestRemoteUpstreamTruncated(t *testing.T) {
	up := llmServer(t, Config{})
	cut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, up.URL+r.URL.Path, r.Body)
		req.Header = r.Header.Clone()
		resp, err := up.Client().Do(req)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() { // copy the stream up to its terminal event
			line := sc.Text()
			if strings.Contains(line, "[DONE]") || strings.Contains(line, "message_stop") {
				return
			}
			io.WriteString(w, line+"\n")
		}
	}))
	t.Cleanup(cut.Close)
	remote := func(id, proto string) map[string]any {
		return map[string]any{"id": id, "object": "model", "owned_by": "test", "execution_location": "remote",
			"base_url": cut.URL + "/v1", "supported_endpoints": []string{pathChat, pathMessages},
			"options": map[string]string{"protocol": proto, "upstream_model": testLLM, "api_key_env": "UPSTREAM_KEY"}}
	}
	gw := llmServer(t, Config{Getenv: func(k string) string {
		if k == "UPSTREAM_KEY" {
			return testKey
		}
		return ""
	}}, remote("Remote/chat", protoChat), remote("Remote/messages", protoMessages))
	for _, tc := range []struct{ model, path, body string }{
		// The client's protocol differs from the upstream's, so the
		// stream is read and translated.
		{"Remote/chat", pathMessages, `{"model":"Remote/chat","max_tokens":8,"messages":[{"role":"user","content":"` + prompt + `"}]}`},
		{"Remote/messages", pathChat, `{"model":"Remote/messages","max_completion_tokens":8,"messages":[{"role":"user","content":"` + prompt + `"}]}`},
	} {
		req, _ := http.NewRequest(http.MethodPost, gw.URL+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Authorization", "Bearer "+testKey)
		req.Header.Set("x-api-key", testKey)
		req.Header.Set("anthropic-version", "2023-06-01")
		req.Header.Set("Content-Type", "application/json")
		resp, err := gw.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || !bytes.Contains(b, []byte("upstream_error")) ||
			!strings.Contains(string(b), "terminal event") {
			t.Errorf("%s on %s, stream cut before its end: %d %s; want 503 upstream_error", tc.path, tc.model, resp.StatusCode, b)
		}
	}
}

// POST /v1/messages/count_tokens on a remote model: a Messages upstream
// gets it passed through (model replaced by upstream_model) and answers
// with its own count; a Chat Completions upstream has none (501).
func TestRemoteCountTokens(t *testing.T) {
	up := llmServer(t, Config{})
	remote := func(id, proto string) map[string]any {
		return map[string]any{"id": id, "object": "model", "owned_by": "test", "execution_location": "remote",
			"base_url": up.URL + "/v1", "supported_endpoints": []string{pathChat, pathMessages},
			"options": map[string]string{"protocol": proto, "upstream_model": testLLM, "api_key_env": "UPSTREAM_KEY"}}
	}
	gw := llmServer(t, Config{Getenv: func(k string) string {
		if k == "UPSTREAM_KEY" {
			return testKey
		}
		return ""
	}}, remote("Remote/chat", protoChat), remote("Remote/messages", protoMessages))
	auth := map[string]string{"Authorization": "Bearer " + testKey}
	body := func(model string) io.Reader {
		return strings.NewReader(`{"model":"` + model + `","messages":[{"role":"user","content":"` + prompt + `"}]}`)
	}
	want := do(t, up, "POST", pathCountTokens, body(testLLM), auth)
	got := do(t, gw, "POST", pathCountTokens, body("Remote/messages"), auth)
	if want.status != 200 || got.status != 200 || !bytes.Equal(bytes.TrimSpace(got.body), bytes.TrimSpace(want.body)) {
		t.Errorf("count_tokens through a Messages upstream = %d %s; the upstream says %d %s", got.status, got.body, want.status, want.body)
	}
	if r := do(t, gw, "POST", pathCountTokens, body("Remote/chat"), auth); r.status != 501 || !strings.Contains(string(r.body), `"type":"error"`) {
		t.Errorf("count_tokens through a Chat Completions upstream = %d %s; want 501 in the Messages envelope", r.status, r.body)
	}
}
