package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/server"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParseServe(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		env    map[string]string
		listen string
		key    string
		hosts  int
	}{
		// localhost, 127.0.0.1, ::1, and the listen host when it is none of them.
		{"headless default", nil, map[string]string{"SOTTO_API_KEY": "k"}, "127.0.0.1:1118", "k", 3},
		{"desktop default", []string{"--desktop"}, map[string]string{"SOTTO_API_KEY": "k", "SOTTO_DESKTOP_API_KEY": "d"}, "127.0.0.1:1117", "d", 3},
		{"env listen", nil, map[string]string{"SOTTO_LISTEN": "127.0.0.1:9999"}, "127.0.0.1:9999", "", 3},
		{"flag beats env", []string{"--listen", "localhost:1"}, map[string]string{"SOTTO_LISTEN": "127.0.0.1:9999"}, "localhost:1", "", 3},
		{"LAN address", []string{"--listen", "192.168.1.5:1118"}, nil, "192.168.1.5:1118", "", 4},
		{"wildcard accepts any host", []string{"--listen", "0.0.0.0:1118"}, nil, "0.0.0.0:1118", "", 0},
		{"extra hosts", []string{"--allowed-hosts", "gw.local, *.lan"}, nil, "127.0.0.1:1118", "", 5},
		// Headers lose surrounding white space: a key from an env file
		// with a trailing newline could never be sent (every request 401).
		{"key trimmed", nil, map[string]string{"SOTTO_API_KEY": " k1\n"}, "127.0.0.1:1118", "k1", 3},
		{"desktop key trimmed", []string{"--desktop"}, map[string]string{"SOTTO_DESKTOP_API_KEY": "d \t"}, "127.0.0.1:1117", "d", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseServe(tt.args, env(tt.env), io.Discard, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if c.listen != tt.listen || c.apiKey != tt.key || len(c.allowedHosts) != tt.hosts {
				t.Errorf("parseServe(%v) = listen %q key %q hosts %v; want %q %q %d hosts", tt.args, c.listen, c.apiKey, c.allowedHosts, tt.listen, tt.key, tt.hosts)
			}
		})
	}
	for _, bad := range [][]string{{"--listen", "nope"}, {"--log-format", "xml"}, {"--log-level", "loud"}, {"extra"}, {"--max-running", "0"}, {"--bogus"}} {
		if _, err := parseServe(bad, env(nil), io.Discard, io.Discard); !errors.As(err, new(usageError)) {
			t.Errorf("parseServe(%v) = %v; want a usage error", bad, err)
		}
	}
	// An environment variable that cannot be read is a usage error naming
	// it (it was ignored: SOTTO_MAX_RUNNING=abc ran with 1, SOTTO_DESKTOP=yes
	// served headless); a flag given on the command line overrides it.
	for _, tt := range []struct {
		env  map[string]string
		args []string
		want string // in the message; "" for no error
	}{
		{map[string]string{"SOTTO_MAX_RUNNING": "abc"}, nil, "SOTTO_MAX_RUNNING"},
		{map[string]string{"SOTTO_MAX_QUEUED": "1.5"}, nil, "SOTTO_MAX_QUEUED"},
		{map[string]string{"SOTTO_KEEP_ALIVE": "15"}, nil, "SOTTO_KEEP_ALIVE"},
		{map[string]string{"SOTTO_DESKTOP": "yes"}, nil, "SOTTO_DESKTOP"},
		{map[string]string{"SOTTO_ALLOWED_ORIGINS": "example.com"}, nil, "https://example.com"},
		{map[string]string{"SOTTO_ALLOWED_ORIGINS": "https://a.example/app"}, nil, "not an origin"},
		{map[string]string{"SOTTO_MAX_RUNNING": "abc"}, []string{"--max-running", "2"}, ""},
		{map[string]string{"SOTTO_KEEP_ALIVE": "15"}, []string{"--keep-alive", "15m"}, ""},
		{map[string]string{"SOTTO_BODY_IDLE_TIMEOUT": "30"}, nil, "SOTTO_BODY_IDLE_TIMEOUT"},
		{map[string]string{"SOTTO_BODY_IDLE_TIMEOUT": "30s"}, nil, ""},
		{nil, []string{"--body-idle-timeout", "-1s"}, "--body-idle-timeout -1s"},
		{nil, []string{"--body-idle-timeout", "0"}, ""},
		{map[string]string{"SOTTO_DESKTOP": "TRUE", "SOTTO_MAX_QUEUED": " 4 "}, nil, ""},
		{map[string]string{"SOTTO_ALLOWED_ORIGINS": "https://a.example, http://localhost:3000/, *"}, nil, ""},
		{nil, []string{"--max-queued", "-1"}, "--max-queued -1"},
		{map[string]string{"SOTTO_API_KEY": "  "}, nil, "SOTTO_API_KEY holds only white space"},
		{map[string]string{"SOTTO_DESKTOP_API_KEY": "\n"}, []string{"--desktop"}, "SOTTO_DESKTOP_API_KEY holds only white space"},
		{map[string]string{"SOTTO_API_KEY": "a\x00b"}, nil, "control character"},
		{map[string]string{"SOTTO_DESKTOP_API_KEY": "  "}, nil, ""}, // not the headless listener's key
	} {
		_, err := parseServe(tt.args, env(tt.env), io.Discard, io.Discard)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("parseServe(%v) with %v = %v; want no error", tt.args, tt.env, err)
		case tt.want != "" && (!errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("parseServe(%v) with %v = %v; want a usage error naming %s", tt.args, tt.env, err, tt.want)
		}
	}
	for _, tt := range []struct {
		env  map[string]string
		args []string
		want time.Duration
	}{
		{nil, nil, server.DefaultBodyIdleTimeout},
		{map[string]string{"SOTTO_BODY_IDLE_TIMEOUT": "2m"}, nil, 2 * time.Minute},
		{map[string]string{"SOTTO_BODY_IDLE_TIMEOUT": "2m"}, []string{"--body-idle-timeout", "5s"}, 5 * time.Second},
	} {
		if c, err := parseServe(tt.args, env(tt.env), io.Discard, io.Discard); err != nil || c.bodyIdle != tt.want {
			t.Errorf("parseServe(%v) with %v: body idle timeout %v, %v; want %v", tt.args, tt.env, c.bodyIdle, err, tt.want)
		}
	}
	c, err := parseServe(nil, env(map[string]string{"SOTTO_DESKTOP": "TRUE", "SOTTO_MAX_QUEUED": " 4 "}), io.Discard, io.Discard)
	if err != nil || !c.desktop || c.maxQueued != 4 {
		t.Errorf("SOTTO_DESKTOP=TRUE SOTTO_MAX_QUEUED=' 4 ': desktop %v, max-queued %d, %v; want true, 4", c.desktop, c.maxQueued, err)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"serve", "--help"}, {"models", "--help"}} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), args, nil, &out, &errOut)
		if !errors.Is(err, errHelp) || exitCode(err) != 0 || out.Len()+errOut.Len() == 0 {
			t.Errorf("run(%v) = %v; want help printed and exit 0", args, err)
		}
	}
	// Help that was asked for goes to standard output ("sotto-cli serve
	// --help | less" showed nothing: it went to standard error).
	for _, args := range [][]string{{"serve", "--help"}, {"models", "--help"}, {"models", "import", "--help"}} {
		var out, errOut bytes.Buffer
		run(context.Background(), args, nil, &out, &errOut)
		if !strings.Contains(out.String(), "Usage: sotto-cli") || errOut.Len() != 0 {
			t.Errorf("run(%v): stdout %.60q, stderr %.60q; want the help on standard output only", args, out.String(), errOut.String())
		}
	}
	// "sotto-cli help serve" is serve's help, as git and go answer it.
	for _, cmd := range []string{"serve", "models"} {
		var out bytes.Buffer
		err := run(context.Background(), []string{"help", cmd}, nil, &out, &out)
		if want := "Usage: sotto-cli " + cmd; !errors.Is(err, errHelp) || !strings.Contains(out.String(), want) {
			t.Errorf("run(help %s) = %v, %.80q; want %q", cmd, err, out.String(), want)
		}
	}
	// models import --help shows the Owner/Name form of ID by example.
	var importHelp bytes.Buffer
	run(context.Background(), []string{"models", "import", "--help"}, nil, &importHelp, &importHelp)
	if !strings.Contains(importHelp.String(), "Examples:") || !strings.Contains(importHelp.String(), "sotto-cli models import Local/") {
		t.Errorf("models import --help lacks examples:\n%s", importHelp.String())
	}
	// An unknown command is one line naming the commands, not the whole
	// usage text.
	for _, args := range [][]string{{"frobnicate"}, {"models", "frobnicate"}} {
		var errOut bytes.Buffer
		err := run(context.Background(), args, nil, io.Discard, &errOut)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), `unknown command "frobnicate": want `) || errOut.Len() != 0 {
			t.Errorf("run(%q) = %v (exit %d), wrote %q; want exit 2, one message naming the commands, nothing else", args, err, exitCode(err), errOut.String())
		}
	}
}

func TestModelsCommands(t *testing.T) {
	m, err := models.New(models.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	// A stand-in for the Flite voice, so that running has a model to show.
	m.RegisterLoader("flite", func(context.Context, models.LoadSpec) (io.Closer, error) { return io.NopCloser(nil), nil })
	srv, err := server.New(server.Config{APIKey: "k", Models: server.ManagedModels(m, server.CatalogExtensions),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SpoolDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	e := env(map[string]string{"SOTTO_URL": ts.URL, "SOTTO_API_KEY": "k"})
	var out bytes.Buffer
	if err := runModels(context.Background(), []string{"list"}, e, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"MODEL", "Sotto/Skylark", "Sotto/Lattice-2", "/v1/audio/alignments"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("models list output lacks %q:\n%s", want, out.String())
		}
	}
	// running prints a table by default, as list does; --json the service's JSON.
	out.Reset()
	if err := runModels(context.Background(), []string{"running"}, e, &out, io.Discard); err != nil || !strings.HasPrefix(out.String(), "no model loaded (runtime running)") {
		t.Errorf("models running = %v, %s", err, out.String())
	}
	out.Reset()
	if err := runModels(context.Background(), []string{"load", "Sotto/Flite"}, e, &out, io.Discard); err != nil {
		t.Fatalf("models load Sotto/Flite = %v, %s", err, out.String())
	}
	out.Reset()
	if err := runModels(context.Background(), []string{"running"}, e, &out, io.Discard); err != nil ||
		!strings.HasPrefix(out.String(), "MODEL ") || !strings.Contains(out.String(), "\nSotto/Flite  loaded ") {
		t.Errorf("models running after a load = %v, %s", err, out.String())
	}
	out.Reset()
	if err := runModels(context.Background(), []string{"running", "--json"}, e, &out, io.Discard); err != nil || !strings.Contains(out.String(), `"runtime"`) || !strings.Contains(out.String(), `"Sotto/Flite"`) {
		t.Errorf("models running --json = %v, %s", err, out.String())
	}
	err = runModels(context.Background(), []string{"load", "Sotto/Nope"}, e, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "model_not_found") || !strings.HasSuffix(err.Error(), "(GET /v1/models lists the models) (from here: sotto-cli models list)") {
		t.Errorf("models load Sotto/Nope = %v; want the service's model_not_found and the command that lists the models", err)
	}
	// The service's advice names its endpoint; the command adds its own.
	err = runModels(context.Background(), []string{"load", "Sotto/Whisper-tiny"}, e, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "model_not_downloaded") || !strings.HasSuffix(err.Error(), "(from here: sotto-cli models download Sotto/Whisper-tiny)") {
		t.Errorf("models load Sotto/Whisper-tiny = %v; want model_not_downloaded and the command that downloads it", err)
	}
	// Without SOTTO_URL, the address SOTTO_LISTEN gives serve is where the
	// service is.
	out.Reset()
	listen := strings.TrimPrefix(ts.URL, "http://")
	if err := runModels(context.Background(), []string{"running", "--json"}, env(map[string]string{"SOTTO_LISTEN": listen, "SOTTO_API_KEY": "k"}), &out, io.Discard); err != nil || !strings.Contains(out.String(), `"runtime"`) {
		t.Errorf("models running with SOTTO_LISTEN=%s = %v, %s", listen, err, out.String())
	}
	err = runModels(context.Background(), []string{"list"}, env(map[string]string{"SOTTO_URL": ts.URL}), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "--api-key or SOTTO_API_KEY") {
		t.Errorf("models list without key = %v; want HTTP 401 saying how to give the key", err)
	}
	if err := runModels(context.Background(), []string{"load"}, e, io.Discard, io.Discard); !errors.As(err, new(usageError)) {
		t.Errorf("models load without MODEL = %v; want a usage error", err)
	}
}

// TestPrintRunning: the running table has a row per loaded or queued model
// (queued but not loaded reads "loading"), sorted, and the runtime's state.
func TestPrintRunning(t *testing.T) {
	raw := `{"object":"list","data":[{"id":"Sotto/Whisper-base.en","status":{"value":"loaded"}},{"id":"Sotto/Flite","status":{"value":"loaded"}}],
"runtime":{"state":"loading","queues":{"Sotto/Whisper-base.en":{"queued":2,"running":1,"limit":1,"max_queued":8},
"Sotto/Lattice-1":{"queued":1,"running":0,"limit":1,"max_queued":8}}}}`
	var b bytes.Buffer
	if err := printRunning(&b, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	want := `MODEL                  STATUS   RUNNING  QUEUED  LIMIT  MAX QUEUED
Sotto/Flite            loaded   -        -       -      -
Sotto/Lattice-1        loading  0        1       1      8
Sotto/Whisper-base.en  loaded   1        2       1      8
runtime: loading
`
	if b.String() != want {
		t.Errorf("printRunning =\n%s\nwant\n%s", b.String(), want)
	}
	if err := printRunning(io.Discard, []byte(`[1,2]`)); err == nil {
		t.Error("printRunning of a JSON array: no error")
	}
}

func TestDrawProgress(t *testing.T) {
	var b bytes.Buffer
	drawProgress(&b, downloadJob{Model: "M", State: "downloading", BytesDownloaded: 512 << 10, TotalBytes: 1 << 20}, 0)
	if !strings.Contains(b.String(), "50.0%") || !strings.Contains(b.String(), "512.0 KiB / 1.0 MiB") {
		t.Errorf("progress line %q", b.String())
	}
}

func TestServiceRoot(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:1118":      "http://127.0.0.1:1118",
		"http://127.0.0.1:1118/v1/":  "http://127.0.0.1:1118",
		"https://h.example/sotto/v1": "https://h.example/sotto",
		"127.0.0.1:21118":            "http://127.0.0.1:21118",
		"localhost:21118/v1":         "http://localhost:21118",
	} {
		if got := serviceRoot(in); got != want {
			t.Errorf("serviceRoot(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestServiceURL(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "http://127.0.0.1:1118"},
		{map[string]string{"SOTTO_URL": "http://h:1/v1"}, "http://h:1/v1"},
		{map[string]string{"SOTTO_URL": "http://h:1", "SOTTO_LISTEN": "127.0.0.1:9"}, "http://h:1"},
		{map[string]string{"SOTTO_LISTEN": "127.0.0.1:21118"}, "http://127.0.0.1:21118"},
		{map[string]string{"SOTTO_LISTEN": "0.0.0.0:8080"}, "http://127.0.0.1:8080"},
		{map[string]string{"SOTTO_LISTEN": ":8080"}, "http://127.0.0.1:8080"},
		{map[string]string{"SOTTO_LISTEN": "[::1]:8080"}, "http://[::1]:8080"},
		{map[string]string{"SOTTO_LISTEN": "nonsense"}, "http://127.0.0.1:1118"},
	} {
		if got := serviceURL(env(tc.env)); got != tc.want {
			t.Errorf("serviceURL(%v) = %q; want %q", tc.env, got, tc.want)
		}
	}
}

// TestServeAddressInUse: an address another program listens on is one
// line saying what to do about it.
func TestServeAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = run(context.Background(), []string{"serve", "--listen", ln.Addr().String(), "--data-dir", t.TempDir(), "--download", "none"}, nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "address already in use") || !strings.Contains(err.Error(), "--listen or SOTTO_LISTEN picks another address") {
		t.Errorf("serve on a taken address = %v; want the error and what to do", err)
	}
}

// TestListenAddress: a bad --listen (or SOTTO_LISTEN) is one line naming
// what is wrong and exit status 2, before anything starts.
func TestListenAddress(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--listen", ":80000"}, nil, `--listen ":80000": port 80000 is out of range: want 0 to 65535`},
		{[]string{"--listen", "127.0.0.1:-1"}, nil, `port "-1" is not a number`},
		{[]string{"--listen", "127.0.0.1:8o8o"}, nil, `port "8o8o" is not a number`},
		{[]string{"--listen", "127.0.0.1:nosuchservice"}, nil, `nor a known service name`},
		{[]string{"--listen", "127.0.0.1:"}, nil, `no port`},
		{[]string{"--listen", "::1:8080"}, nil, `an IPv6 address needs brackets`},
		{[]string{"--listen", "localhost"}, nil, `want host:port`},
		{[]string{"--listen", "[::g]:8080"}, nil, `host "::g" is not an IPv6 address`},
		{[]string{"--listen", "http://localhost:8080"}, nil, `want host:port`},
		{nil, map[string]string{"SOTTO_LISTEN": ":99999"}, `SOTTO_LISTEN ":99999": port 99999 is out of range`},
	} {
		_, err := parseServe(tc.args, env(tc.env), io.Discard, io.Discard)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("parseServe(%q, %v) = %v (exit %d); want one line with %q, exit 2", tc.args, tc.env, err, exitCode(err), tc.want)
		}
	}
	for _, ok := range []string{"127.0.0.1:0", ":0", "[::1]:0", "localhost:http", "0.0.0.0:65535", "[fe80::1%eth0]:1118"} {
		if _, err := parseServe([]string{"--listen", ok}, env(nil), io.Discard, io.Discard); err != nil {
			t.Errorf("parseServe(--listen %s) = %v", ok, err)
		}
	}
	// An address no interface of this machine has is found when
	// listening: still one line and a usage error (TEST-NET-1, RFC 5737).
	err := run(context.Background(), []string{"serve", "--listen", "192.0.2.1:0", "--data-dir", t.TempDir(), "--download", "none"}, nil, io.Discard, io.Discard)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), `--listen "192.0.2.1:0": no network interface of this machine has that address`) {
		t.Errorf("serve --listen 192.0.2.1:0 = %v (exit %d); want a usage error naming the address", err, exitCode(err))
	}
}

// TestServeURLs: the log names the address as given (with the port the
// listener got) and a URL to open: localhost for a wildcard host.
func TestServeURLs(t *testing.T) {
	for _, tc := range []struct {
		given      string
		addr       net.Addr
		listen, to string
	}{
		{"0.0.0.0:1118", &net.TCPAddr{IP: net.IPv6zero, Port: 1118}, "0.0.0.0:1118", "http://localhost:1118"},
		{":0", &net.TCPAddr{IP: net.IPv6zero, Port: 40123}, ":40123", "http://localhost:40123"},
		{"[::]:8080", &net.TCPAddr{IP: net.IPv6zero, Port: 8080}, "[::]:8080", "http://localhost:8080"},
		{"127.0.0.1:1118", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1118}, "127.0.0.1:1118", "http://127.0.0.1:1118"},
		{"localhost:1118", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1118}, "localhost:1118", "http://localhost:1118"},
		{"[::1]:1118", &net.TCPAddr{IP: net.IPv6loopback, Port: 1118}, "[::1]:1118", "http://[::1]:1118"},
	} {
		listen, to := serveURLs(tc.given, tc.addr)
		if listen != tc.listen || to != tc.to {
			t.Errorf("serveURLs(%q, %v) = %q, %q; want %q, %q", tc.given, tc.addr, listen, to, tc.listen, tc.to)
		}
	}
}

// TestUsageHint: after a usage error, the help of the command that was run.
func TestUsageHint(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--listen", ":80000"}, "run sotto-cli serve --help for the usage"},
		{[]string{"models", "load"}, "run sotto-cli models --help for the usage"},
		{[]string{"models", "import", "x"}, "run sotto-cli models import --help for the usage"},
		{[]string{"frobnicate"}, "run sotto-cli --help for the usage"},
		{nil, "run sotto-cli --help for the usage"},
	} {
		if got := usageHint(tc.args); got != tc.want {
			t.Errorf("usageHint(%q) = %q; want %q", tc.args, got, tc.want)
		}
	}
}

// TestServeStopLog: stopped by its context (Ctrl-C), serve logs the
// stopping hint before "sotto stopped", never after it (the hint ran in
// its own goroutine and could come last).
func TestServeStopLog(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--data-dir", t.TempDir(), "--download", "none"}, nil, io.Discard, &logs)
	}()
	for !strings.Contains(logs.String(), "sotto serving") {
		select {
		case err := <-done:
			t.Fatalf("serve ended before serving: %v\n%s", err, logs.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	hint, stopped := strings.Index(out, "stopping: requests in flight"), strings.Index(out, "sotto stopped")
	if hint < 0 || stopped < 0 || hint > stopped {
		t.Errorf("serve's log:\n%s\nwant the stopping hint, then \"sotto stopped\"", out)
	}
}
