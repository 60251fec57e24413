package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/sottolabs/sotto/internal/voicelib"
)

// DefaultMaxBodyBytes is the spec's request body limit (part 8): 512 MiB.
const DefaultMaxBodyBytes = 512 << 20

// DefaultBodyIdleTimeout is how long a request body may go without a byte
// arriving before the request fails (408): see Config.BodyIdleTimeout.
const DefaultBodyIdleTimeout = 60 * time.Second

// Config configures a [Server]. The zero value serves the headless listener
// with authentication off, every host allowed and no models; [New] fills in
// the documented defaults.
type Config struct {
	// Desktop selects the desktop gateway listener, which accepts the
	// desktop-only inputs of spec part 1.3 (server-local file paths,
	// streaming transcription). The headless listener refuses them.
	Desktop bool
	// APIKey, when non-empty, is required on every authenticated route as
	// "Authorization: Bearer KEY" or "x-api-key: KEY".
	APIKey string
	// AllowedHosts lists the Host header values (without port) accepted;
	// "*" allows any, "*.example.com" a domain. Empty allows any host.
	AllowedHosts []string
	// AllowedOrigins lists browser origins (scheme://host[:port]) accepted;
	// empty allows origins whose host is an allowed host.
	AllowedOrigins []string
	// MaxBodyBytes is the request body limit; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// BodyIdleTimeout bounds the wait for the next byte of a request body:
	// a client that sends part of a body and goes silent for this long gets
	// 408 request_timeout and its request is cancelled. The deadline is
	// renewed by every read, so a slow upload that keeps moving is never
	// cut. 0 means DefaultBodyIdleTimeout; negative turns the limit off.
	BodyIdleTimeout time.Duration
	// SpoolDir receives uploaded files while a request runs; "" means
	// os.TempDir().
	SpoolDir string
	// Models is the model catalog and runtime. Nil serves an empty catalog.
	Models Models
	// Voices is the voice library of saved user:<uuid> voices. Nil serves
	// builtin voices only; the library endpoints then answer 501.
	Voices *voicelib.Library
	// DefaultTranscriptionModel is the model of a transcription request
	// that names none; it must be in Models' catalog and serve
	// /v1/audio/transcriptions. "" means the catalog's default_for entry
	// (or else the first model that serves the path).
	DefaultTranscriptionModel string
	// Logger receives access and error logs; nil means slog.Default().
	Logger *slog.Logger
	// ShutdownTimeout bounds how long Serve waits for in-flight requests
	// after its context is cancelled; 0 means 30 s.
	ShutdownTimeout time.Duration
	// DataDir holds the server's state: stored Responses (for
	// previous_response_id) in DataDir/responses. "" keeps them in memory.
	DataDir string
	// Getenv looks up the environment variables that remote catalog
	// entries name for their upstream API keys (option api_key_env); nil
	// looks up none.
	Getenv func(string) string
	// UpstreamClient sends the requests of remote models; nil means a
	// client without an overall timeout (streams may run long).
	UpstreamClient *http.Client
}

// Server is the /v1 HTTP gateway. It is safe for concurrent use.
type Server struct {
	cfg    Config
	log    *slog.Logger
	models Models
	mux    *http.ServeMux

	uncleanPath http.Handler // answers paths ServeMux would redirect (//v1/models)

	responses      *responseStore // stored Responses (generation)
	upstreamClient *http.Client   // remote models' upstreams
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.BodyIdleTimeout == 0 {
		cfg.BodyIdleTimeout = DefaultBodyIdleTimeout
	}
	if cfg.SpoolDir == "" {
		cfg.SpoolDir = os.TempDir()
	}
	if err := os.MkdirAll(cfg.SpoolDir, 0o700); err != nil {
		return nil, fmt.Errorf("server: spool directory: %w", err)
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = 30 * time.Second
	}
	s := &Server{cfg: cfg, log: cfg.Logger, models: cfg.Models,
		responses: newResponseStore(cfg.DataDir), upstreamClient: cfg.UpstreamClient}
	if s.upstreamClient == nil {
		s.upstreamClient = &http.Client{}
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.models == nil {
		s.models = emptyModels{}
	}
	if id := cfg.DefaultTranscriptionModel; id != "" {
		if _, err := s.resolveModel(id, pathTranscriptions); err != nil {
			return nil, fmt.Errorf("server: default transcription model: %w", err)
		}
	}
	s.mux = http.NewServeMux()
	routes := s.routes()
	registered := map[string]bool{}
	for _, rt := range routes {
		registered[rt.Method+" "+rt.Path] = true
	}
	noRoute := s.middleware(true, false, http.HandlerFunc(s.handleNoRoute))
	for _, rt := range routes {
		s.mux.Handle(rt.Method+" "+rt.Path, s.middleware(rt.Public, rt.LimitBody, rt.Handler))
		// A pattern ending in "/{x...}" makes ServeMux redirect the bare
		// prefix to prefix+"/" (DELETE /v1/models → 301, which clients
		// follow as GET /v1/models/); the bare prefix gets 404 or 405.
		if i := strings.LastIndex(rt.Path, "/{"); i > 0 && strings.HasSuffix(rt.Path, "...}") &&
			!registered[rt.Method+" "+rt.Path[:i]] {
			registered[rt.Method+" "+rt.Path[:i]] = true
			s.mux.Handle(rt.Method+" "+rt.Path[:i], noRoute)
		}
	}
	s.mux.Handle("/", s.middleware(true, false, http.HandlerFunc(s.handleNoRoute)))
	s.uncleanPath = s.middleware(true, false, http.HandlerFunc(s.handleUncleanPath))
	return s, nil
}

// ServeHTTP serves one request. A path that is not in canonical form
// (//v1/models: a base URL ending in "/" joined to a path that starts with
// one; /v1/./models) is answered 404 in the API's envelope naming the path
// meant, where ServeMux would redirect with an HTML body that a JSON client
// cannot read and may follow with another method.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		if p := r.URL.EscapedPath(); cleanPath(p) != p {
			s.uncleanPath.ServeHTTP(w, r)
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// cleanPath is the canonical form of an URL path as ServeMux makes it:
// no empty, "." or ".." segments, and a trailing slash kept.
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np
}

// handleUncleanPath answers a path that is not in canonical form: 404
// route_not_found, suggesting the canonical path when a route serves it
// with the request's method.
func (s *Server) handleUncleanPath(w http.ResponseWriter, r *http.Request) {
	meant := cleanPath(r.URL.Path)
	const why = "the path has an empty, \".\" or \"..\" segment (\"//\" comes from a base URL that ends in \"/\" joined to a path that starts with one)"
	msg := fmt.Sprintf("no route for %s %s: %s; GET /v1/openapi.json lists the API", r.Method, r.URL.Path, why)
	alt := ""
	for _, rt := range s.routes() {
		if rt.Method == r.Method && pathMatches(rt.Path, meant) {
			alt = meant
			break
		}
	}
	if alt == "" {
		alt = s.baseURLSlip(r.Method, meant)
	}
	if alt != "" {
		msg = fmt.Sprintf("no route for %s %s; did you mean %s? (%s)", r.Method, r.URL.Path, alt, why)
	}
	writeJSON(w, http.StatusNotFound, envelope{envelopeBody{Message: msg, Type: "invalid_request_error", Code: "route_not_found"}})
}

// Serve accepts connections on ln until ctx is cancelled, then stops
// accepting, lets in-flight requests finish (up to ShutdownTimeout) and
// returns nil. Any other failure of the listener is returned.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down: waiting for in-flight requests", "timeout", s.cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx)
	if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	if errors.Is(err, context.DeadlineExceeded) {
		hs.Close()
		return fmt.Errorf("server: stopped with requests still running after the %v shutdown timeout (they were cut off)",
			s.cfg.ShutdownTimeout)
	}
	if err != nil {
		return fmt.Errorf("server: shutdown: %w", err)
	}
	return nil
}

// pathMatches reports whether path matches a route pattern of net/http's
// ServeMux: "{name}" stands for one non-empty segment, a final
// "{name...}" for the rest of the path.
func pathMatches(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	for i, p := range ps {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "...}") {
			return i < len(xs) && strings.Join(xs[i:], "") != ""
		}
		if i >= len(xs) {
			return false
		}
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			if xs[i] == "" {
				return false
			}
		} else if p != xs[i] {
			return false
		}
	}
	return len(ps) == len(xs)
}

// handleNoRoute answers a path that no route serves with a JSON 404, or a
// known path with the wrong method with 405 and an Allow header.
func (s *Server) handleNoRoute(w http.ResponseWriter, r *http.Request) {
	var allow []string
	// A path without wildcards (/v1/models/running) is served by its own
	// routes only, not by the wildcard routes it also matches
	// (/v1/models/{id...}), as in handlePreflight and exactRoute.
	exact := slices.ContainsFunc(s.routes(), func(rt route) bool { return rt.Path == r.URL.Path })
	for _, rt := range s.routes() {
		if exact && rt.Path != r.URL.Path {
			continue
		}
		if pathMatches(rt.Path, r.URL.Path) && rt.Method != "OPTIONS" && !slices.Contains(allow, rt.Method) {
			allow = append(allow, rt.Method)
		}
	}
	if len(allow) > 0 {
		methodNotAllowed(w, r, allow)
		return
	}
	msg := fmt.Sprintf("no route for %s %s; GET /v1/openapi.json lists the API", r.Method, r.URL.Path)
	if alt := s.baseURLSlip(r.Method, r.URL.Path); alt != "" {
		msg = fmt.Sprintf("no route for %s %s; did you mean %s? (a client's base URL ends in /v1 for the OpenAI client libraries, without it for the Anthropic ones)",
			r.Method, r.URL.Path, alt)
	}
	writeJSON(w, http.StatusNotFound, envelope{envelopeBody{Message: msg, Type: "invalid_request_error", Code: "route_not_found"}})
}

// baseURLSlip returns the path a client most likely meant when path is a
// route's path without its /v1 prefix (/chat/completions: a base URL
// without /v1) or with it twice (/v1/v1/messages: /v1 added to a base
// URL the client library extends itself), or "" when it is neither.
func (s *Server) baseURLSlip(method, path string) string {
	var alt string
	switch {
	case strings.HasPrefix(path, "/v1/v1/"):
		alt = strings.TrimPrefix(path, "/v1")
	case !strings.HasPrefix(path, "/v1/") && path != "/health":
		alt = "/v1" + path
	default:
		return ""
	}
	for _, rt := range s.routes() {
		if rt.Method == method && pathMatches(rt.Path, alt) {
			return alt
		}
	}
	return ""
}

// methodNotAllowed answers 405 with an Allow header listing allow.
func methodNotAllowed(w http.ResponseWriter, r *http.Request, allow []string) {
	w.Header().Set("Allow", strings.Join(allow, ", "))
	b := envelopeBody{
		Message: fmt.Sprintf("%s does not accept %s; use %s", r.URL.Path, r.Method, strings.Join(allow, " or ")),
		Type:    "invalid_request_error", Code: "method_not_allowed"}
	if r.URL.Path == pathMessages || r.URL.Path == pathCountTokens {
		writeJSON(w, http.StatusMethodNotAllowed, messagesEnvelope(b)) // that protocol's envelope, as writeError
		return
	}
	writeJSON(w, http.StatusMethodNotAllowed, envelope{b})
}

// exactRoute answers 405 when the request's path is that of a route
// without wildcards (POST /v1/models/load) and it reached a wildcard route
// with another method (GET /v1/models/{id...}), which would otherwise take
// "load" for a model ID. It reports whether it answered.
func (s *Server) exactRoute(w http.ResponseWriter, r *http.Request) bool {
	var allow []string
	for _, rt := range s.routes() {
		if rt.Path == r.URL.Path && rt.Method != r.Method && rt.Method != "OPTIONS" && !slices.Contains(allow, rt.Method) {
			allow = append(allow, rt.Method)
		}
	}
	if len(allow) == 0 {
		return false
	}
	methodNotAllowed(w, r, allow)
	return true
}
