package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sottolabs/sotto"
)

const testKey = "test-key-123"

// newTestServer returns a server with the test catalog behind an httptest
// listener.
func newTestServer(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.SpoolDir == "" {
		cfg.SpoolDir = t.TempDir()
	}
	if cfg.Models == nil {
		cfg.Models = testModels(t)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) envelope(t *testing.T) envelopeBody {
	t.Helper()
	var env envelope
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("body %q is not an error envelope: %v", r.body, err)
	}
	if env.Error.Message == "" || env.Error.Type == "" || env.Error.Code == "" {
		t.Fatalf("envelope %s lacks message, type or code", r.body)
	}
	return env.Error
}

func do(t *testing.T, ts *httptest.Server, method, path string, body io.Reader, hdr map[string]string) resp {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{res.StatusCode, res.Header, b}
}

func jsonBody(v any) io.Reader {
	b, _ := json.Marshal(v)
	return bytes.NewReader(b)
}

func TestAuthMatrix(t *testing.T) {
	for _, desktop := range []bool{false, true} {
		t.Run(fmt.Sprintf("desktop=%v", desktop), func(t *testing.T) {
			s, ts := newTestServer(t, Config{APIKey: testKey, Desktop: desktop})
			for _, rt := range s.routes() {
				if rt.Method == "OPTIONS" {
					continue
				}
				name := rt.Method + " " + rt.Path
				send := func(h map[string]string) resp {
					var body io.Reader
					if rt.Method == "POST" {
						body = strings.NewReader("{}")
						h["Content-Type"] = "application/json"
					}
					return do(t, ts, rt.Method, rt.Path, body, h)
				}
				if rt.Public {
					if r := send(map[string]string{}); r.status != http.StatusOK {
						t.Errorf("%s without key = %d; want 200 (public)", name, r.status)
					}
					continue
				}
				r := send(map[string]string{})
				if r.status != 401 || r.envelope(t).Code != "missing_api_key" {
					t.Errorf("%s without key = %d %s; want 401 missing_api_key", name, r.status, r.body)
				}
				for _, h := range []map[string]string{{"Authorization": "Bearer wrong"}, {"x-api-key": "wrong"}, {"Authorization": "Basic " + testKey}} {
					r := send(h)
					if r.status != 401 || r.envelope(t).Code != "invalid_api_key" {
						t.Errorf("%s with %v = %d %s; want 401 invalid_api_key", name, h, r.status, r.body)
					}
				}
				a := send(map[string]string{"Authorization": "Bearer " + testKey})
				b := send(map[string]string{"x-api-key": testKey})
				if a.status == 401 || b.status == 401 || a.status != b.status {
					t.Errorf("%s with the right key: Bearer %d, x-api-key %d; want the same non-401", name, a.status, b.status)
				}
			}
		})
	}
}

func TestAuthOff(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	if r := do(t, ts, "GET", "/v1/models", nil, nil); r.status != 200 {
		t.Errorf("GET /v1/models with auth off = %d; want 200", r.status)
	}
}

func TestHostAndOrigin(t *testing.T) {
	_, ts := newTestServer(t, Config{APIKey: testKey, AllowedHosts: []string{"localhost", "127.0.0.1", "::1"}})
	auth := "Bearer " + testKey
	tests := []struct {
		name   string
		hdr    map[string]string
		status int
		code   string
	}{
		{"loopback", map[string]string{"Authorization": auth}, 200, ""},
		{"localhost host", map[string]string{"Authorization": auth, "Host": "localhost:1118"}, 200, ""},
		{"rebinding host", map[string]string{"Authorization": auth, "Host": "evil.example:1118"}, 403, "host_not_allowed"},
		{"rebinding host before auth", map[string]string{"Host": "evil.example"}, 403, "host_not_allowed"},
		{"foreign origin", map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, 403, "origin_not_allowed"},
		{"local origin", map[string]string{"Authorization": auth, "Origin": "http://localhost:3000"}, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, ts, "GET", "/v1/models", nil, tt.hdr)
			if r.status != tt.status {
				t.Fatalf("GET /v1/models %v = %d %s; want %d", tt.hdr, r.status, r.body, tt.status)
			}
			if tt.code != "" && r.envelope(t).Code != tt.code {
				t.Errorf("code = %s; want %s", r.envelope(t).Code, tt.code)
			}
			if o := tt.hdr["Origin"]; o != "" && tt.status == 200 && r.header.Get("Access-Control-Allow-Origin") != o {
				t.Errorf("Access-Control-Allow-Origin = %q; want %q", r.header.Get("Access-Control-Allow-Origin"), o)
			}
		})
	}
	r := do(t, ts, "OPTIONS", "/v1/audio/alignments", nil, map[string]string{
		"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"})
	if r.status != 204 || !strings.Contains(r.header.Get("Access-Control-Allow-Headers"), "x-api-key") {
		t.Errorf("preflight = %d %v; want 204 allowing x-api-key", r.status, r.header)
	}
	// A browser page using the OpenAI client library deletes a saved voice:
	// the preflight allows DELETE and the library's own headers.
	r = do(t, ts, "OPTIONS", "/v1/audio/voices/user:x", nil, map[string]string{
		"Origin": "http://localhost:3000", "Access-Control-Request-Method": "DELETE",
		"Access-Control-Request-Headers": "authorization, x-stainless-os,openai-organization, bad header"})
	allowH := r.header.Get("Access-Control-Allow-Headers")
	if r.status != 204 || !strings.Contains(r.header.Get("Access-Control-Allow-Methods"), "DELETE") ||
		!strings.Contains(r.header.Get("Access-Control-Allow-Methods"), "PATCH") ||
		!strings.Contains(allowH, "x-stainless-os") || !strings.Contains(allowH, "openai-organization") ||
		strings.Contains(allowH, "bad header") || strings.Count(strings.ToLower(allowH), "authorization") != 1 {
		t.Errorf("preflight for DELETE = %d %v; want 204 allowing DELETE, PATCH and the requested headers", r.status, r.header)
	}
}

func TestErrorFor(t *testing.T) {
	tests := []struct {
		err         error
		status      int
		code, param string
	}{
		{sotto.Invalid("bad_request", "search_effort", "x"), 400, "bad_request", "search_effort"},
		{sotto.Invalid("normalization_invalid_request", "language", "x"), 400, "normalization_invalid_request", "language"},
		{sotto.Invalid("asr_language_unsupported", "language", "x"), 400, "asr_language_unsupported", "language"},
		{sotto.Invalid("model_capability_unsupported", "model", "x"), 400, "model_capability_unsupported", "model"},
		{sotto.Invalid("clone_recipe_requires_saved_voice", "clone_recipe", "x"), 400, "clone_recipe_requires_saved_voice", "clone_recipe"},
		{sotto.Invalid("conflicting_speech_instructions", "instructions", "x"), 400, "conflicting_speech_instructions", "instructions"},
		{&sotto.Error{Kind: sotto.ErrUnauthorized, Code: "missing_api_key"}, 401, "missing_api_key", ""},
		{&sotto.Error{Kind: sotto.ErrForbidden, Code: "host_not_allowed"}, 403, "host_not_allowed", ""},
		{sotto.NotFound("model_not_found", "model", "x"), 404, "model_not_found", "model"},
		{sotto.Conflict("model_in_use", "model", "x"), 409, "model_in_use", "model"},
		{sotto.TooLarge("", "", "x"), 413, "request_too_large", ""},
		{&http.MaxBytesError{Limit: 512 << 20}, 413, "request_too_large", ""},
		{sotto.Unsatisfiable("normalization_language_unsupported", "language", "x"), 422, "normalization_language_unsupported", "language"},
		{sotto.Unsatisfiable("normalization_class_unsupported", "classes", "x"), 422, "normalization_class_unsupported", "classes"},
		{sotto.Unsatisfiable("language_unsupported", "language", "x"), 422, "language_unsupported", "language"},
		{sotto.Unsatisfiable("alignment_failed", "", "x"), 422, "alignment_failed", ""},
		{sotto.Unsatisfiable("alignment_search_budget_exceeded", "", "x"), 422, "alignment_search_budget_exceeded", ""},
		{sotto.Unavailable("model_downloading", time.Second, "x"), 503, "model_downloading", ""},
		{sotto.Unavailable("service_busy", time.Second, "x"), 503, "service_busy", ""},
		{sotto.NotImplemented("capability_unavailable", "x"), 501, "capability_unavailable", ""},
		{fmt.Errorf("wrapped: %w", sotto.NotFound("model_not_found", "model", "x")), 404, "model_not_found", "model"},
		{context.DeadlineExceeded, 504, "timeout", ""},
		{context.Canceled, StatusClientClosedRequest, "request_cancelled", ""},
		{errors.New("disk on fire at /secret/path"), 500, "internal_error", ""},
	}
	for _, tt := range tests {
		got := errorFor(tt.err)
		if got.status != tt.status || got.body.Error.Code != tt.code || got.body.Error.Param != tt.param {
			t.Errorf("errorFor(%v) = %d %s %q; want %d %s %q", tt.err, got.status, got.body.Error.Code,
				got.body.Error.Param, tt.status, tt.code, tt.param)
		}
		if got.body.Error.Type == "" || got.body.Error.Message == "" {
			t.Errorf("errorFor(%v) envelope lacks type or message: %+v", tt.err, got.body)
		}
	}
	if m := errorFor(errors.New("disk on fire at /secret/path")).body.Error.Message; strings.Contains(m, "secret") {
		t.Errorf("500 message %q leaks the internal error", m)
	}
}

func TestWriteErrorRetryAfterAndDetail(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/v1/models", nil)
	s.writeError(rec, req, sotto.Unavailable("service_busy", 1500*time.Millisecond, "busy"))
	if rec.Code != 503 || rec.Header().Get("Retry-After") != "2" {
		t.Errorf("503 = %d Retry-After %q; want 503 and 2", rec.Code, rec.Header().Get("Retry-After"))
	}
	rec = httptest.NewRecorder()
	detail := map[string]any{"reason": "no_path", "retry_recommended": true}
	s.writeError(rec, req, &sotto.Error{Kind: sotto.ErrUnsatisfiable, Code: "alignment_failed", Message: "m", Detail: detail})
	var env struct {
		Error struct {
			Alignment map[string]any `json:"alignment"`
		} `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Error.Alignment["reason"] != "no_path" {
		t.Errorf("alignment detail = %s; want error.alignment.reason no_path", rec.Body)
	}
	rec = httptest.NewRecorder()
	s.writeError(rec, req, context.Canceled)
	if rec.Body.Len() != 0 {
		t.Errorf("cancelled request wrote %q; want nothing", rec.Body)
	}
}

// TestTooLargeBeforeBody sends only headers declaring 600 MiB and expects
// the 413 without the body ever being sent.
func TestTooLargeBeforeBody(t *testing.T) {
	s, ts := newTestServer(t, Config{APIKey: testKey})
	for _, rt := range s.routes() {
		// The other JSON endpoints have a smaller limit (maxJSONBody),
		// also answered before the body is read.
		size := int64(600 << 20)
		if !rt.LimitBody {
			// (The voice routes answer 501 first here: no voice library.)
			if rt.Body != "json" || strings.HasPrefix(rt.Path, "/v1/audio/voices") {
				continue
			}
			size = maxJSONBody + 1
		}
		t.Run(rt.Method+" "+rt.Path, func(t *testing.T) {
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"+
				"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"a", rt.Method, rt.Path, testKey, size)
			conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no response before the body was sent: %v", err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != 413 || !strings.Contains(string(b), "request_too_large") {
				t.Errorf("%s %s with %d bytes declared = %d %s; want 413 request_too_large", rt.Method, rt.Path, size, res.StatusCode, b)
			}
		})
	}
}

// TestTooLargeChunked streams a body without Content-Length past a small
// limit.
func TestTooLargeChunked(t *testing.T) {
	_, ts := newTestServer(t, Config{MaxBodyBytes: 1 << 20})
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "big.wav")
	fw.Write(make([]byte, 2<<20))
	mw.Close()
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(func() error { _, err := io.Copy(pw, &buf); return err }()) }()
	r := do(t, ts, "POST", "/v1/audio/transcriptions", pr, map[string]string{"Content-Type": mw.FormDataContentType()})
	if r.status != 413 || r.envelope(t).Code != "request_too_large" {
		t.Errorf("chunked 2 MiB over a 1 MiB limit = %d %s; want 413", r.status, r.body)
	}
}

func TestNoRoute(t *testing.T) {
	_, ts := newTestServer(t, Config{APIKey: testKey})
	if r := do(t, ts, "GET", "/v1/nothing-here", nil, nil); r.status != 404 || r.envelope(t).Code != "route_not_found" {
		t.Errorf("unknown path = %d %s; want 404 route_not_found", r.status, r.body)
	}
	r := do(t, ts, "DELETE", "/v1/models", nil, nil)
	if r.status != 405 || r.header.Get("Allow") != "GET" || r.envelope(t).Code != "method_not_allowed" {
		t.Errorf("DELETE /v1/models = %d Allow %q %s; want 405 Allow GET", r.status, r.header.Get("Allow"), r.body)
	}
	// Paths of routes with wildcards: the methods of every route whose
	// pattern matches; an extra segment is no route.
	for _, tt := range []struct{ method, path, allow string }{
		{"POST", "/v1/models/Sotto/Skylark", "GET, DELETE"},
		{"PUT", "/v1/responses/resp_ab", "GET, DELETE"},
		{"POST", "/v1/responses/resp_ab/input_items", "GET"},
		{"POST", "/v1/audio/voices/v1", "GET, PATCH, DELETE"},
		// The fixed routes under /v1/models are not model IDs of the
		// {id...} routes ("model \"load\" is not in the catalog").
		{"GET", "/v1/models/load", "POST"},
		{"GET", "/v1/models/download/cancel", "POST"},
		{"DELETE", "/v1/models/running", "GET"},
		{"DELETE", "/v1/models/download", "POST"},
		// Nor when no route serves the method at all (it said "use GET or
		// DELETE", and DELETE was then refused).
		{"POST", "/v1/models/running", "GET"},
		{"PUT", "/v1/models/downloads", "GET"},
		{"PATCH", "/v1/models/load", "POST"},
	} {
		// With the key: the wildcard routes authenticate before they answer.
		r := do(t, ts, tt.method, tt.path, nil, map[string]string{"Authorization": "Bearer " + testKey})
		if r.status != 405 || r.header.Get("Allow") != tt.allow || r.envelope(t).Code != "method_not_allowed" {
			t.Errorf("%s %s = %d Allow %q %s; want 405 Allow %s", tt.method, tt.path, r.status, r.header.Get("Allow"), r.body, tt.allow)
		}
		if want := "; use " + strings.ReplaceAll(tt.allow, ", ", " or "); !strings.HasSuffix(r.envelope(t).Message, want) {
			t.Errorf("%s %s: message %q; want it to end %q", tt.method, tt.path, r.envelope(t).Message, want)
		}
	}
	if r := do(t, ts, "GET", "/v1/responses/resp_ab/input_items/x", nil, nil); r.status != 404 || r.envelope(t).Code != "route_not_found" {
		t.Errorf("extra segment = %d %s; want 404 route_not_found", r.status, r.body)
	}
	// A base URL without /v1, or with it where the client library adds
	// it: the 404 names the path meant.
	for path, want := range map[string]string{"/chat/completions": "/v1/chat/completions", "/v1/v1/messages": "/v1/messages",
		"/models/Sotto/Skylark": "", "/audio/speech": "/v1/audio/speech", "/v1/v1/nope": ""} {
		method := "POST"
		if strings.HasPrefix(path, "/models") {
			method = "GET"
			want = "/v1/models/Sotto/Skylark"
		}
		r := do(t, ts, method, path, nil, map[string]string{"Authorization": "Bearer " + testKey})
		e := r.envelope(t)
		if r.status != 404 || e.Code != "route_not_found" || (want != "") != strings.Contains(e.Message, "did you mean "+want+"?") {
			t.Errorf("%s %s = %d %s; want 404 route_not_found suggesting %q", method, path, r.status, r.body, want)
		}
	}
	// A path ServeMux would redirect to its clean form (a 307 with an
	// HTML body, which the client here would follow) is a 404 in the
	// envelope naming the path meant; a request ID and the headers of
	// every answer come with it.
	for _, c := range []struct{ method, path, want string }{
		{"GET", "//v1/models", "/v1/models"},
		{"POST", "//v1/chat/completions", "/v1/chat/completions"},
		{"GET", "/v1//models/Sotto/Skylark", "/v1/models/Sotto/Skylark"},
		{"GET", "/v1/./health", "/v1/health"},
		{"POST", "//chat/completions", "/v1/chat/completions"}, // no /v1 either
		{"DELETE", "//v1/models", ""},                          // no DELETE /v1/models
		{"GET", "//v1/nope", ""},
	} {
		r := do(t, ts, c.method, c.path, nil, map[string]string{"Authorization": "Bearer " + testKey})
		e := r.envelope(t)
		if r.status != 404 || e.Code != "route_not_found" || r.header.Get("X-Request-Id") == "" ||
			(c.want != "") != strings.Contains(e.Message, "did you mean "+c.want+"?") {
			t.Errorf("%s %s = %d %s; want 404 route_not_found suggesting %q", c.method, c.path, r.status, r.body, c.want)
		}
	}
	// The Messages paths answer in that protocol's envelope, 405 too.
	for _, path := range []string{"/v1/messages", "/v1/messages/count_tokens"} {
		r := do(t, ts, "GET", path, nil, map[string]string{"x-api-key": testKey})
		var m struct {
			Type  string `json:"type"`
			Error struct{ Type, Code string }
		}
		if json.Unmarshal(r.body, &m) != nil || r.status != 405 || m.Type != "error" || m.Error.Code != "method_not_allowed" {
			t.Errorf("GET %s = %d %s; want 405 in the Messages envelope", path, r.status, r.body)
		}
	}
}

// OPTIONS without an Origin (a client asking what a path serves) names
// the path's own methods, not one list for every path.
func TestOptionsAllow(t *testing.T) {
	_, ts := newTestServer(t, Config{APIKey: testKey})
	for _, tt := range []struct{ path, allow string }{
		{"/v1/models", "GET, HEAD, OPTIONS"},
		{"/v1/audio/speech", "POST, OPTIONS"},
		{"/v1/models/Sotto/Skylark", "GET, HEAD, DELETE, OPTIONS"},
		{"/v1/models/load", "POST, OPTIONS"},
		{"/v1/audio/voices/user:x", "GET, HEAD, PATCH, DELETE, OPTIONS"},
		{"/health", "GET, HEAD, OPTIONS"},
	} {
		r := do(t, ts, "OPTIONS", tt.path, nil, nil)
		if r.status != 204 || r.header.Get("Allow") != tt.allow {
			t.Errorf("OPTIONS %s = %d Allow %q; want 204 Allow %q", tt.path, r.status, r.header.Get("Allow"), tt.allow)
		}
	}
	if r := do(t, ts, "OPTIONS", "/v1/nothing-here", nil, nil); r.status != 404 || r.envelope(t).Code != "route_not_found" {
		t.Errorf("OPTIONS unknown path = %d %s; want 404 route_not_found", r.status, r.body)
	}
}

// A compressed body is refused saying so (it was "must be a JSON object"),
// and a JSON body that starts with a UTF-8 byte order mark is read.
func TestBodyEncoding(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	a := make([]float64, 256)
	for i := range a {
		a[i] = float64(i%5) - 2
	}
	js, _ := json.Marshal(map[string]any{"embedding_a": a, "embedding_b": a})
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(js)
	zw.Close()
	for _, path := range []string{"/v1/speaker/similarity", "/v1/chat/completions", "/v1/audio/transcriptions"} {
		r := do(t, ts, "POST", path, bytes.NewReader(gz.Bytes()), map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"})
		if r.status != 400 || !strings.Contains(r.envelope(t).Message, "Content-Encoding \"gzip\"") {
			t.Errorf("POST %s gzip = %d %s; want 400 naming the Content-Encoding", path, r.status, r.body)
		}
	}
	r := do(t, ts, "POST", "/v1/speaker/similarity", bytes.NewReader(js), map[string]string{"Content-Encoding": "identity"})
	if r.status != 200 {
		t.Errorf("Content-Encoding identity = %d %s; want 200", r.status, r.body)
	}
	for _, path := range []string{"/v1/speaker/similarity", "/v1/text/normalizations", "/v1/text/segmentations"} {
		body := js
		if path != "/v1/speaker/similarity" {
			body = []byte(`{"text":"It costs $5. Done.","language":"en"}`)
		}
		r := do(t, ts, "POST", path, bytes.NewReader(append([]byte("\xef\xbb\xbf"), body...)), map[string]string{"Content-Type": "application/json"})
		if r.status != 200 {
			t.Errorf("POST %s with a byte order mark = %d %s; want 200", path, r.status, r.body)
		}
	}
	// The generation endpoints read their body themselves: past the mark
	// the request is routed (no model named is the error, not the body).
	r = do(t, ts, "POST", "/v1/chat/completions", strings.NewReader("\xef\xbb\xbf{\"messages\":[]}"), nil)
	if r.status != 400 || r.envelope(t).Param != "model" {
		t.Errorf("chat with a byte order mark = %d %s; want 400 param model", r.status, r.body)
	}
}

func TestPathMatches(t *testing.T) {
	for _, tt := range []struct {
		pattern, path string
		want          bool
	}{
		{"/v1/models", "/v1/models", true},
		{"/v1/models", "/v1/models/", false},
		{"/v1/models/{id...}", "/v1/models/Sotto/Skylark", true},
		{"/v1/models/{id...}", "/v1/models/", false},
		{"/v1/models/{id...}", "/v1/models", false},
		{"/v1/responses/{id}", "/v1/responses/resp_1", true},
		{"/v1/responses/{id}", "/v1/responses/", false},
		{"/v1/responses/{id}", "/v1/responses/a/b", false},
		{"/v1/responses/{id}/input_items", "/v1/responses/a/input_items", true},
		{"/v1/responses/{id}/input_items", "/v1/responses/a/items", false},
	} {
		if got := pathMatches(tt.pattern, tt.path); got != tt.want {
			t.Errorf("pathMatches(%q, %q) = %v; want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

func TestJSONErrors(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	tests := []struct {
		path, body, ctype string
		param             string
	}{
		{"/v1/models/load", `{"model": 42}`, "application/json", "model"},
		{"/v1/models/load", `{}`, "application/json", "model"},
		{"/v1/models/load", `[1,2]`, "application/json", ""},
		{"/v1/models/load", `{"model": "x"`, "application/json", ""},
		{"/v1/models/load", ``, "application/json", ""},
		{"/v1/models/load", `{"model":"a"} {"model":"b"}`, "application/json", ""},
		{"/v1/models/load", `model=x`, "application/x-www-form-urlencoded", ""},
		{"/v1/speaker/similarity", `{}`, "application/json", "embedding_a"},
		{"/v1/speaker/similarity", `{"embedding_a": [1], "embedding_b": [1]}`, "application/json", "embedding_a"},
		{"/v1/speaker/similarity", `{"embedding_a": "x"}`, "application/json", "embedding_a"},
		{"/v1/speaker/similarity", `{"bogus": 1}`, "application/json", "bogus"},
		// A null element is not 0 (it was read as 0 and compared).
		{"/v1/speaker/similarity", `{"embedding_a": [` + strings.Repeat("1,", 255) + `null], "embedding_b": [` + strings.Repeat("1,", 255) + `1]}`, "application/json", "embedding_a"},
		{"/v1/audio/alignments", `{"text": "hello"}`, "application/json", ""},
		{"/v1/audio/transcriptions", `{"language": "en"}`, "application/json", ""},
	}
	for _, tt := range tests {
		r := do(t, ts, "POST", tt.path, strings.NewReader(tt.body), map[string]string{"Content-Type": tt.ctype})
		if r.status != 400 {
			t.Errorf("POST %s %q = %d %s; want 400", tt.path, tt.body, r.status, r.body)
			continue
		}
		if e := r.envelope(t); e.Param != tt.param {
			t.Errorf("POST %s %q param = %q; want %q", tt.path, tt.body, e.Param, tt.param)
		}
	}
}

// A normalization request with a field of the wrong JSON type is named in
// JSON terms with the endpoint's code (the normalize package's decoder said
// "cannot unmarshal number into Go struct field Request.text of type
// string").
func TestNormalizationTypeErrors(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	for _, tt := range []struct{ body, param, msg string }{
		{`{"text":5,"language":"en"}`, "text", `field "text" must be a string, not a JSON number`},
		{`{"text":"x","language":["en"]}`, "language", `field "language" must be a string, not a JSON array`},
		{`{"text":"x","language":"en","mode":true}`, "mode", `field "mode" must be a string, not a JSON bool`},
		{`{"text":"x","language":"en","classes":"money"}`, "classes", `field "classes" must be an array, not a JSON string`},
		{`{"text":"x","language":"en","classes":[5]}`, "classes", `field "classes" must be an array whose elements are each a string; one is a JSON number`},
		{`{"text":"x","language":"en","bogus":1}`, "bogus", `unknown field "bogus"`},
	} {
		r := do(t, ts, "POST", "/v1/text/normalizations", strings.NewReader(tt.body), nil)
		if r.status != 400 {
			t.Errorf("%s = %d %s; want 400", tt.body, r.status, r.body)
			continue
		}
		if e := r.envelope(t); e.Code != "normalization_invalid_request" || e.Param != tt.param || e.Message != tt.msg {
			t.Errorf("%s = %s param %q %q; want normalization_invalid_request param %q %q", tt.body, e.Code, e.Param, e.Message, tt.param, tt.msg)
		}
	}
	// top_k keeps the normalize package's own check (2.5 and "3" name it).
	r := do(t, ts, "POST", "/v1/text/normalizations", strings.NewReader(`{"text":"x","language":"en","top_k":"3"}`), nil)
	if r.status != 400 || r.envelope(t).Param != "top_k" {
		t.Errorf("top_k \"3\" = %d %s; want 400 param top_k", r.status, r.body)
	}
}

func TestSimilarityEndpoint(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	a := make([]float64, 256)
	b := make([]float64, 256)
	for i := range a {
		a[i] = float64(i%3) - 1
		b[i] = -a[i]
	}
	b[0] = 0.5
	r := do(t, ts, "POST", "/v1/speaker/similarity", jsonBody(map[string]any{"embedding_a": a, "embedding_b": a}), nil)
	var res struct {
		Object, Model string
		Similarity    float64
	}
	if err := json.Unmarshal(r.body, &res); err != nil || r.status != 200 || res.Object != "speaker_similarity" ||
		res.Model != "Sotto/Lattice-1" || res.Similarity < 0.999999 {
		t.Errorf("identical = %d %s; want 200 speaker_similarity Sotto/Lattice-1 1", r.status, r.body)
	}
	r = do(t, ts, "POST", "/v1/speaker/similarity", jsonBody(map[string]any{"embedding_a": a, "embedding_b": a, "model": "Sotto/Nope"}), nil)
	if r.status != 404 || r.envelope(t).Param != "model" {
		t.Errorf("unknown model = %d %s; want 404 param model", r.status, r.body)
	}
	r = do(t, ts, "POST", "/v1/speaker/similarity", jsonBody(map[string]any{"embedding_a": a, "embedding_b": a, "model": "Sotto/Skylark"}), nil)
	if r.status != 400 || r.envelope(t).Code != "model_capability_unsupported" {
		t.Errorf("Skylark = %d %s; want 400 model_capability_unsupported", r.status, r.body)
	}
}

func TestGenerationRouting(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	tests := []struct {
		path   string
		body   any
		status int
		code   string
	}{
		{"/v1/messages", map[string]any{"max_tokens": 8}, 400, "bad_request"},
		{"/v1/messages", map[string]any{"model": "Sotto/none", "max_tokens": 8}, 404, "model_not_found"},
		{"/v1/responses", map[string]any{"model": "Sotto/Skylark", "input": "hi"}, 400, "model_capability_unsupported"},
		{"/v1/chat/completions", map[string]any{"model": "Sotto/Lattice-2"}, 400, "model_capability_unsupported"},
	}
	for _, tt := range tests {
		r := do(t, ts, "POST", tt.path, jsonBody(tt.body), nil)
		var got struct {
			Error struct{ Code, Param string } `json:"error"`
		}
		json.Unmarshal(r.body, &got)
		if r.status != tt.status || got.Error.Code != tt.code || got.Error.Param != "model" {
			t.Errorf("POST %s %v = %d %s; want %d %s param model", tt.path, tt.body, r.status, r.body, tt.status, tt.code)
		}
	}
	r := do(t, ts, "POST", "/v1/messages", jsonBody(map[string]any{"model": "Sotto/none"}), nil)
	var msg map[string]any
	if json.Unmarshal(r.body, &msg) != nil || msg["type"] != "error" {
		t.Errorf("/v1/messages error body %s; want the Messages envelope {type: error, error: {...}}", r.body)
	}
}

func TestTranscriptionValidation(t *testing.T) {
	for _, desktop := range []bool{false, true} {
		_, ts := newTestServer(t, Config{Desktop: desktop})
		tests := []struct {
			name   string
			fields [][2]string
			file   bool
			code   string
			param  string
		}{
			{"no file", nil, false, "bad_request", "file"},
			{"xml", [][2]string{{"response_format", "xml"}}, true, "bad_request", "response_format"},
			{"granularity with json", [][2]string{{"timestamp_granularities[]", "word"}}, true, "bad_request", "timestamp_granularities[]"},
			{"granularity with text", [][2]string{{"response_format", "text"}, {"timestamp_granularities[]", "segment"}}, true, "bad_request", "timestamp_granularities[]"},
			{"klingon", [][2]string{{"language", "tlh"}}, true, "asr_language_unsupported", "language"},
			{"stream verbose", [][2]string{{"stream", "true"}, {"response_format", "verbose_json"}}, true, "bad_request", "stream"},
			{"conflicting repeats", [][2]string{{"response_format", "json"}, {"response_format", "text"}}, true, "bad_request", "response_format"},
		}
		if !desktop {
			tests = append(tests, struct {
				name   string
				fields [][2]string
				file   bool
				code   string
				param  string
			}{"headless stream", [][2]string{{"stream", "true"}}, true, "bad_request", "stream"})
		}
		for _, tt := range tests {
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			for _, f := range tt.fields {
				mw.WriteField(f[0], f[1])
			}
			if tt.file {
				fw, _ := mw.CreateFormFile("file", "a.wav")
				fw.Write([]byte("RIFF"))
			}
			mw.Close()
			r := do(t, ts, "POST", "/v1/audio/transcriptions", &buf, map[string]string{"Content-Type": mw.FormDataContentType()})
			if r.status != 400 {
				t.Errorf("desktop=%v %s = %d %s; want 400", desktop, tt.name, r.status, r.body)
				continue
			}
			if e := r.envelope(t); e.Code != tt.code || e.Param != tt.param {
				t.Errorf("desktop=%v %s = %s %s; want %s %s", desktop, tt.name, e.Code, e.Param, tt.code, tt.param)
			}
		}
	}
}

// TestGracefulShutdown cancels Serve while a request is in flight; the
// request must still get its response and Serve must return nil.
func TestGracefulShutdown(t *testing.T) {
	s, err := New(Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SpoolDir: t.TempDir(), Models: testModels(t)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()

	pr, pw := io.Pipe()
	got := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("POST", "http://"+ln.Addr().String()+"/v1/speaker/similarity", pr)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- -1
			return
		}
		res.Body.Close()
		got <- res.StatusCode
	}()
	pw.Write([]byte(`{"embedding_a": [`)) // the request is now in flight
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		t.Fatalf("Serve returned %v while a request was in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	pw.Write([]byte(`1]}`))
	pw.Close()
	if st := <-got; st != 400 {
		t.Errorf("in-flight request status = %d; want its 400 answer", st)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve = %v; want nil after graceful shutdown", err)
	}
}

// TestShutdownTimeout: a request still running when the shutdown timeout
// ends is cut off, and Serve says so in words (it said "server: shutdown:
// context deadline exceeded").
func TestShutdownTimeout(t *testing.T) {
	s, err := New(Config{Logger: slog.New(slog.DiscardHandler), SpoolDir: t.TempDir(), Models: testModels(t),
		ShutdownTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	pr, pw := io.Pipe()
	defer pw.Close()
	sent := make(chan struct{})
	go func() {
		req, _ := http.NewRequest("POST", "http://"+ln.Addr().String()+"/v1/speaker/similarity", pr)
		req.Header.Set("Content-Type", "application/json")
		close(sent)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	<-sent
	pw.Write([]byte(`{"embedding_a": [`)) // in flight, and never finished
	time.Sleep(50 * time.Millisecond)     // as in TestGracefulShutdown: the server has read it
	cancel()
	err = <-done
	if err == nil || !strings.Contains(err.Error(), "still running after the 50ms shutdown timeout") {
		t.Errorf("Serve = %v; want the requests cut off at the shutdown timeout named", err)
	}
}

func TestRequestID(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	r := do(t, ts, "GET", "/health", nil, map[string]string{"X-Request-Id": "abc-123"})
	if r.header.Get("X-Request-Id") != "abc-123" {
		t.Errorf("X-Request-Id = %q; want the client's abc-123", r.header.Get("X-Request-Id"))
	}
	r = do(t, ts, "GET", "/health", nil, map[string]string{"X-Request-Id": strings.Repeat("x", 100)})
	if id := r.header.Get("X-Request-Id"); len(id) != 16 {
		t.Errorf("X-Request-Id = %q; want a generated 16-hex ID for an unusable one", id)
	}
}
