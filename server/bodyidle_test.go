package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// rawRequest opens a connection to ts and writes head (request line and
// headers, with their final blank line). The caller writes the body.
func rawRequest(t *testing.T, addr, head string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// A bound on the whole exchange, so that a server that never answers
	// fails the test instead of hanging it; not an assertion on timing.
	c.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	return c
}

// readRawResponse reads one response from c and its envelope.
func readRawResponse(t *testing.T, c net.Conn, method string) (*http.Response, envelopeBody) {
	t.Helper()
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, &http.Request{Method: method})
	if err != nil {
		t.Fatalf("reading the response: %v", err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatalf("reading the response body: %v", err)
	}
	var e envelope
	json.Unmarshal(b, &e)
	if res.StatusCode != 200 && e.Error.Code == "" {
		t.Errorf("status %d with body %q: not the error envelope", res.StatusCode, b)
	}
	// After an error the server closes the connection: what follows on it
	// is nothing, not a wait for the rest of the stalled body.
	if res.Close {
		if rest, err := io.ReadAll(br); err != nil || len(rest) != 0 {
			t.Errorf("after the response: %q, %v; want the connection closed", rest, err)
		}
	}
	return res, e.Error
}

// TestBodyIdleTimeout: a client that sends part of a body and stalls gets
// 408 request_timeout once no byte has come for the idle timeout, on a
// JSON endpoint, a multipart upload route and a chunked generation body.
func TestBodyIdleTimeout(t *testing.T) {
	const idle = 300 * time.Millisecond
	_, ts := newTestServer(t, Config{BodyIdleTimeout: idle})
	addr := ts.Listener.Addr().String()
	const boundary = "b0undary"
	cases := []struct {
		name, head, part string
	}{
		{"json", "POST /v1/text/segmentations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n",
			`{"text": "Half of a body`},
		{"multipart", "POST /v1/audio/transcriptions HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=" + boundary +
			"\r\nContent-Length: 100000\r\n\r\n",
			"--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n" +
				"Content-Type: audio/wav\r\n\r\nRIFF" + strings.Repeat("\x00", 2000)},
		{"chunked", "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
			"10\r\n{\"model\": \"Sott\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := rawRequest(t, addr, tc.head)
			start := time.Now()
			if _, err := io.WriteString(c, tc.part); err != nil {
				t.Fatal(err)
			}
			res, e := readRawResponse(t, c, "POST")
			if res.StatusCode != http.StatusRequestTimeout || e.Code != "request_timeout" || e.Type != "invalid_request_error" ||
				!strings.Contains(e.Message, "no byte of the request body arrived for 300ms") {
				t.Errorf("stalled body: %d %+v; want 408 request_timeout", res.StatusCode, e)
			}
			if !res.Close {
				t.Error("the 408 does not close the connection")
			}
			if d := time.Since(start); d < idle {
				t.Errorf("answered after %v, before the %v idle timeout", d, idle)
			}
		})
	}
}

// TestBodyIdleTimeoutSlowUpload: a body that arrives slowly but without a
// pause as long as the idle timeout is read to its end, however long it
// takes in all.
func TestBodyIdleTimeoutSlowUpload(t *testing.T) {
	const idle = time.Second
	_, ts := newTestServer(t, Config{BodyIdleTimeout: idle})
	body := `{"text": "It is late. The trains have stopped. We walk home.", "language": "en"}`
	const pieces = 30
	c := rawRequest(t, ts.Listener.Addr().String(), fmt.Sprintf(
		"POST /v1/text/segmentations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body)))
	start := time.Now()
	step := (len(body) + pieces - 1) / pieces
	for i := 0; i < len(body); i += step {
		time.Sleep(50 * time.Millisecond)
		if _, err := io.WriteString(c, body[i:min(i+step, len(body))]); err != nil {
			t.Fatal(err)
		}
	}
	res, e := readRawResponse(t, c, "POST")
	if res.StatusCode != 200 {
		t.Fatalf("slow upload: %d %+v; want 200", res.StatusCode, e)
	}
	if d := time.Since(start); d <= idle {
		t.Fatalf("the upload took %v, not longer than the %v idle timeout: the test shows nothing", d, idle)
	}
}

// TestBodyIdleTimeoutOff: a negative timeout turns the limit off, and the
// default is DefaultBodyIdleTimeout.
func TestBodyIdleTimeoutOff(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	if s.cfg.BodyIdleTimeout != DefaultBodyIdleTimeout {
		t.Errorf("default BodyIdleTimeout = %v; want %v", s.cfg.BodyIdleTimeout, DefaultBodyIdleTimeout)
	}
	_, ts := newTestServer(t, Config{BodyIdleTimeout: -1})
	c := rawRequest(t, ts.Listener.Addr().String(),
		"POST /v1/text/segmentations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n")
	io.WriteString(c, `{"text": `)
	c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil || !isTimeout(err) {
		t.Fatalf("with the limit off, the server answered a stalled body (%d bytes, %v)", n, err)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestBodyIdleTimeoutAfterBody: once the body is read, a handler that works
// longer than the idle timeout is not cancelled, even when it reads again
// after the end (as decoders do). net/http reads the connection in the
// background after the body's end and cancels the request when that read
// fails, so no read deadline may be set then.
func TestBodyIdleTimeoutAfterBody(t *testing.T) {
	const idle = 200 * time.Millisecond
	s, _ := newTestServer(t, Config{BodyIdleTimeout: idle})
	h := s.middleware(true, false, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if n, err := r.Body.Read(make([]byte, 8)); n != 0 || err != io.EOF {
			t.Errorf("a read after the end = %d, %v; want 0, EOF", n, err)
		}
		select {
		case <-r.Context().Done():
			t.Errorf("the request was cancelled after its body was read: %v", context.Cause(r.Context()))
		case <-time.After(3 * idle):
		}
		w.Write(b)
	}))
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	res, err := ts.Client().Post(ts.URL, "text/plain", strings.NewReader("some body"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(b) != "some body" {
		t.Errorf("%d %q; want 200 and the body echoed", res.StatusCode, b)
	}
}

// TestBodyIdleTimeoutUnreadRest: a request refused before its body was read
// to the end gets its answer even when the client stalls: net/http reads
// the rest of a small body before it answers (to reuse the connection),
// and that read waits no longer than the idle timeout either.
func TestBodyIdleTimeoutUnreadRest(t *testing.T) {
	_, ts := newTestServer(t, Config{BodyIdleTimeout: 300 * time.Millisecond})
	const boundary = "b0undary"
	part := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n\r\nRIFF\r\n"
	c := rawRequest(t, ts.Listener.Addr().String(), "POST /v1/audio/transcriptions HTTP/1.1\r\nHost: x\r\n"+
		"Content-Type: multipart/form-data; boundary="+boundary+"\r\nContent-Length: 5000\r\n\r\n")
	if _, err := io.WriteString(c, part+part); err != nil { // the file twice: refused at the second
		t.Fatal(err)
	}
	res, e := readRawResponse(t, c, "POST")
	if res.StatusCode != 400 || e.Param != "file" || !strings.Contains(e.Message, "more than once") {
		t.Errorf("%d %+v; want the 400 for the file sent twice", res.StatusCode, e)
	}
}

// TestBodyIdleTimeoutStreamUnreadRest: a handler that parses a multipart
// form to its final boundary and then streams, while the client stalls
// before the last bytes its Content-Length declares (an epilogue after the
// final boundary). net/http reads such a rest (up to 256 KiB) when the
// handler writes its header, on the connection without a deadline, so the
// stream never started and the handler was held until the client left. The
// rest is now read with the idle deadline first: the stream arrives, and
// the connection closes after it.
func TestBodyIdleTimeoutStreamUnreadRest(t *testing.T) {
	const idle = 300 * time.Millisecond
	s, _ := newTestServer(t, Config{BodyIdleTimeout: idle})
	events := make(chan error, 2) // one a case; never blocks a handler
	h := s.middleware(true, true, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := parseMultipart(r, t.TempDir())
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		defer f.Close()
		sse := newSSE(w)
		for i := range 3 {
			if err := sse.event("tick", map[string]int{"n": i}); err != nil {
				events <- err
				return
			}
		}
		events <- nil
	}))
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	const boundary = "b0undary"
	form := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"stream\"\r\n\r\ntrue\r\n--" + boundary + "--\r\n"
	for _, tc := range []struct{ name, head string }{
		{"length", fmt.Sprintf("Content-Length: %d\r\n", len(form)+10)},
		{"chunked", "Transfer-Encoding: chunked\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := rawRequest(t, ts.Listener.Addr().String(), "POST / HTTP/1.1\r\nHost: x\r\n"+
				"Content-Type: multipart/form-data; boundary="+boundary+"\r\n"+tc.head+"\r\n")
			body := form
			if tc.name == "chunked" {
				body = fmt.Sprintf("%x\r\n%s\r\n", len(form), form) // and no last chunk
			}
			if _, err := io.WriteString(c, body); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(c)
			res, err := http.ReadResponse(br, &http.Request{Method: "POST"})
			if err != nil {
				t.Fatalf("reading the response: %v", err)
			}
			b, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatalf("reading the stream: %v", err)
			}
			if res.StatusCode != 200 || strings.Count(string(b), "event: tick") != 3 {
				t.Errorf("%d %q; want 200 and three events", res.StatusCode, b)
			}
			if err := <-events; err != nil {
				t.Errorf("the handler's stream failed: %v", err)
			}
			if !res.Close {
				t.Error("the response does not close the connection, whose request body never ended")
			}
		})
	}
}

// TestBodyIdleTimeoutExpectContinue: a request that waits for "100
// Continue" and is refused before its body is read gets the refusal
// alone: reading the rest before the response (what the idle deadline
// bounds) would ask the client for a body nobody reads, and wait for it.
func TestBodyIdleTimeoutExpectContinue(t *testing.T) {
	_, ts := newTestServer(t, Config{BodyIdleTimeout: 30 * time.Second})
	c := rawRequest(t, ts.Listener.Addr().String(), "POST /v1/audio/transcriptions HTTP/1.1\r\nHost: x\r\n"+
		"Content-Type: text/plain\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
	res, e := readRawResponse(t, c, "POST")
	if res.StatusCode != 400 || !strings.Contains(e.Message, "multipart/form-data") {
		t.Errorf("%d %+v; want the 400 for the content type, with no 100 Continue before it", res.StatusCode, e)
	}
}
