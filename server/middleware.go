package server

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
)

type ctxKey int

const requestIDKey ctxKey = 0

// requestID returns the ID given to the request by the middleware.
func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// statusRecorder remembers the status and size of a response for the access
// log. It forwards Flush and Unwrap so streaming handlers keep working.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	// beforeHeader, when set, runs once before the response header goes
	// to the underlying writer (first WriteHeader, Write or Flush).
	beforeHeader func()
}

func (r *statusRecorder) startResponse() {
	if f := r.beforeHeader; f != nil {
		r.beforeHeader = nil
		f()
	}
}

func (r *statusRecorder) WriteHeader(code int) {
	if code >= 200 { // an informational header is not the response's
		r.startResponse()
	}
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(p []byte) (int, error) {
	r.startResponse()
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(p)
	r.bytes += int64(n)
	return n, err
}

// FlushError flushes the underlying writer (http.ResponseController finds
// it before Unwrap), after beforeHeader: a flush sends the header.
func (r *statusRecorder) FlushError() error {
	r.startResponse()
	return http.NewResponseController(r.ResponseWriter).Flush()
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// middleware wraps every route: request ID, panic recovery, access log,
// host and origin checks, authentication and the body-size limit, in that
// order. route tells whether the path is public.
func (s *Server) middleware(public bool, limitBody bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 64 || strings.ContainsFunc(id, func(c rune) bool { return c < 0x21 || c > 0x7e }) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		r = r.WithContext(context.WithValue(r.Context(), requestIDKey, id))
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("panic serving request", "id", id, "method", r.Method, "path", r.URL.Path,
					"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if rec.status == 0 {
					s.writeError(rec, r, fmt.Errorf("panic: %v", p))
				}
			}
			s.log.Info("request", "id", id, "method", r.Method, "path", r.URL.Path, "status", rec.status,
				"bytes", rec.bytes, "duration", time.Since(start).Round(time.Microsecond))
		}()
		if err := s.checkHostOrigin(r); err != nil {
			s.writeError(rec, r, err)
			return
		}
		if s.allowOrigin(rec, r) {
			return // CORS preflight answered
		}
		if !public {
			if err := s.authenticate(r); err != nil {
				s.writeError(rec, r, err)
				return
			}
		}
		if err := checkContentEncoding(r); err != nil {
			s.writeError(rec, r, err)
			return
		}
		if s.cfg.BodyIdleTimeout > 0 && r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
			if b := newIdleBody(rec, r.Body, r.ContentLength, s.cfg.BodyIdleTimeout); b != nil {
				b.expect = strings.EqualFold(r.Header.Get("Expect"), "100-continue")
				r.Body = b
				rec.beforeHeader = b.drain
				defer b.handlerDone()
			}
		}
		if limitBody {
			if r.ContentLength > s.cfg.MaxBodyBytes {
				// Answer before reading: the client may be about to send gigabytes.
				s.writeError(rec, r, sotto.TooLarge("request_too_large", "",
					"request body of %d bytes exceeds the limit of %d MiB", r.ContentLength, s.cfg.MaxBodyBytes>>20))
				return
			}
			r.Body = http.MaxBytesReader(rec, r.Body, s.cfg.MaxBodyBytes)
		}
		next.ServeHTTP(rec, r)
	})
}

// checkContentEncoding refuses a request body in a content coding (gzip,
// br …): the handlers read bodies as sent, and a compressed JSON body would
// otherwise be answered "must be a JSON object", a compressed upload as an
// undecodable file.
func checkContentEncoding(r *http.Request) error {
	ce := strings.TrimSpace(r.Header.Get("Content-Encoding"))
	if ce == "" || strings.EqualFold(ce, "identity") || r.ContentLength == 0 {
		return nil
	}
	return sotto.Invalid("bad_request", "", "request bodies in Content-Encoding %q are not accepted; send the body uncompressed", ce)
}

// authenticate accepts "Authorization: Bearer KEY" or "x-api-key: KEY". With
// no key configured, authentication is off.
func (s *Server) authenticate(r *http.Request) error {
	if s.cfg.APIKey == "" {
		return nil
	}
	key := r.Header.Get("x-api-key")
	if key == "" {
		if h := r.Header.Get("Authorization"); h != "" {
			scheme, token, ok := strings.Cut(h, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") {
				return &sotto.Error{Kind: sotto.ErrUnauthorized, Code: "invalid_api_key",
					Message: "the Authorization header must read \"Bearer <API key>\""}
			}
			key = strings.TrimSpace(token)
		}
	}
	if key == "" {
		return &sotto.Error{Kind: sotto.ErrUnauthorized, Code: "missing_api_key",
			Message: "an API key is required: send \"Authorization: Bearer <key>\" or \"x-api-key: <key>\""}
	}
	if subtle.ConstantTimeCompare([]byte(key), []byte(s.cfg.APIKey)) != 1 {
		return &sotto.Error{Kind: sotto.ErrUnauthorized, Code: "invalid_api_key", Message: "the API key is not valid"}
	}
	return nil
}

// checkHostOrigin refuses requests whose Host is not an allowed host (a
// defence against DNS rebinding) and browser requests from origins that are
// not allowed.
func (s *Server) checkHostOrigin(r *http.Request) error {
	if !s.hostAllowed(r.Host) {
		return &sotto.Error{Kind: sotto.ErrForbidden, Code: "host_not_allowed",
			Message: fmt.Sprintf("host %q is not allowed; start the service with --allowed-hosts to permit it", r.Host)}
	}
	if o := r.Header.Get("Origin"); o != "" && !s.originAllowed(o) {
		return &sotto.Error{Kind: sotto.ErrForbidden, Code: "origin_not_allowed",
			Message: fmt.Sprintf("origin %q is not allowed; start the service with --allowed-origins to permit it", o)}
	}
	return nil
}

func (s *Server) hostAllowed(hostport string) bool {
	if len(s.cfg.AllowedHosts) == 0 {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	for _, a := range s.cfg.AllowedHosts {
		if a == "*" || strings.EqualFold(a, host) {
			return true
		}
		if strings.HasPrefix(a, "*.") && strings.HasSuffix(host, a[1:]) {
			return true
		}
	}
	return false
}

// originAllowed accepts an origin listed in AllowedOrigins, or, when that is
// empty, any origin whose host is an allowed host (a page served from this
// machine).
func (s *Server) originAllowed(origin string) bool {
	for _, a := range s.cfg.AllowedOrigins {
		if a == "*" || strings.EqualFold(strings.TrimRight(a, "/"), strings.TrimRight(origin, "/")) {
			return true
		}
	}
	if len(s.cfg.AllowedOrigins) > 0 {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return s.hostAllowed(u.Host) && len(s.cfg.AllowedHosts) > 0
}

// allowOrigin adds CORS headers for an allowed Origin and answers a
// preflight request. It reports whether the request was fully answered.
func (s *Server) allowOrigin(w http.ResponseWriter, r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", o)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Expose-Headers", "X-Request-Id, Retry-After, "+headerTruncated+", X-Sotto-Voice, X-Sotto-Voice-Design, X-Sotto-Clone")
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		// DELETE and PATCH serve the voice library and stored responses.
		h.Set("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS")
		h.Set("Access-Control-Allow-Headers", corsAllowHeaders(r.Header.Values("Access-Control-Request-Headers")))
		h.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	return false
}

// corsAllowHeaders lists the request headers a preflight allows: the ones the
// API reads, and whatever else the browser asks for (the OpenAI and Anthropic
// client libraries add their own, such as x-stainless-os or
// openai-organization). The origin is already allowed, and the API key, not
// the header list, guards the API, so a header the page asks for is allowed
// when it is a well-formed header name.
func corsAllowHeaders(requested []string) string {
	names := []string{"Authorization", "x-api-key", "Content-Type", "progress", "anthropic-version", "anthropic-beta"}
	seen := map[string]bool{}
	for _, n := range names {
		seen[strings.ToLower(n)] = true
	}
	for _, v := range requested {
		for _, n := range strings.Split(v, ",") {
			n = strings.TrimSpace(n)
			if n == "" || seen[strings.ToLower(n)] || !isHeaderName(n) {
				continue
			}
			seen[strings.ToLower(n)] = true
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// isHeaderName reports whether n is an HTTP header name (an RFC 9110 token).
func isHeaderName(n string) bool {
	if n == "" || len(n) > 100 {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// BodyIdleError is the error of a request body read when no byte arrived
// for Idle: the client stalled mid-upload. It is answered 408
// request_timeout.
type BodyIdleError struct{ Idle time.Duration }

func (e *BodyIdleError) Error() string {
	return fmt.Sprintf("no byte of the request body arrived for %v; the request was abandoned", e.Idle)
}

// idleBody is a request body whose every Read must deliver within idle. It
// sets the connection's read deadline before each Read and clears it after,
// so the deadline measures silence, never the length of an upload, and none
// is left behind for net/http's own reads of the connection while the
// handler runs (the rest of a body the handler left unread is read when the
// response starts; a failed read there cancels the request).
type idleBody struct {
	io.ReadCloser
	w        http.ResponseWriter
	rc       *http.ResponseController
	idle     time.Duration
	length   int64 // the declared Content-Length, -1 when unknown (chunked)
	read     int64 // bytes read so far
	expect   bool  // the client waits for "100 Continue" before sending
	eof      bool  // the body was read to its end
	timedOut bool
}

// newIdleBody wraps body of the declared length (-1: unknown), or returns
// nil when w's connection has no read deadlines (a test's
// ResponseRecorder).
func newIdleBody(w http.ResponseWriter, body io.ReadCloser, length int64, idle time.Duration) *idleBody {
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Time{}); err != nil {
		return nil
	}
	return &idleBody{ReadCloser: body, w: w, rc: rc, idle: idle, length: length}
}

// maxDrain is how much of a body's unread rest net/http reads when the
// response starts (its maxPostHandlerReadBytes), to reuse the connection;
// a longer declared rest it does not read, and closes the connection.
const maxDrain = 256 << 10

// drain runs before the response header is written. net/http then reads
// what the handler left of the body (up to maxDrain) on the connection
// without any deadline: a client that stalls before the last bytes it
// declared (the end of a multipart body, an epilogue after its final
// boundary, the last chunk) would hold a handler that streams, or writes
// more than a buffer, in its first write for as long as the client stays.
// drain reads that rest first, through the idle deadline; when it does not
// reach the end (the client stalled, or the rest is longer than net/http
// would read) the connection closes after the response and net/http's own
// read fails at once on the expired deadline.
func (b *idleBody) drain() {
	if b.eof || b.timedOut || b.length >= 0 && b.length-b.read >= maxDrain {
		return
	}
	if b.expect && b.read == 0 {
		// Nothing asked for the body yet: a read would send "100
		// Continue" and have the client upload what nobody reads.
		// net/http closes the connection after the response instead.
		return
	}
	_, err := io.CopyN(io.Discard, b, maxDrain+1)
	if err == io.EOF || b.timedOut {
		return // ended, or the deadline stays expired (Read's case)
	}
	// More than net/http reads, or another read error: whatever is left
	// must not be read as the next request.
	b.w.Header().Set("Connection", "close")
	_ = b.rc.SetReadDeadline(time.Now())
}

func (b *idleBody) Read(p []byte) (int, error) {
	switch {
	case b.timedOut:
		return 0, &BodyIdleError{b.idle}
	case b.eof:
		// net/http now reads the connection in the background (to see
		// the client go away); a deadline set here would end that read.
		return 0, io.EOF
	}
	_ = b.rc.SetReadDeadline(time.Now().Add(b.idle))
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		// The deadline stays expired: net/http reads what is left of the
		// body after the handler (to reuse the connection) and must not
		// wait for this client either; the connection closes after the
		// 408.
		b.timedOut = true
		b.w.Header().Set("Connection", "close")
		return n, &BodyIdleError{b.idle}
	}
	_ = b.rc.SetReadDeadline(time.Time{})
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// handlerDone bounds net/http's read of an unread rest of the body after
// the handler returned (up to 256 KiB, to reuse the connection) by the same
// idle time. Before EOF nothing else reads the connection, and net/http
// resets the deadline before it reads the next request.
func (b *idleBody) handlerDone() {
	if !b.eof && !b.timedOut {
		_ = b.rc.SetReadDeadline(time.Now().Add(b.idle))
	}
}
