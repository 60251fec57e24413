package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/voicelib"
	"github.com/sottolabs/sotto/server"
)

const (
	headlessAddr = "127.0.0.1:1118"
	desktopAddr  = "127.0.0.1:1117"
)

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return server.Version
}

// serveConfig is everything "serve" reads from flags and the environment.
type serveConfig struct {
	listen         string
	listenSrc      string // what gave listen: "--listen" or "SOTTO_LISTEN"
	desktop        bool
	dataDir        string
	catalog        string
	allowedHosts   []string
	allowedOrigins []string
	logLevel       string
	logFormat      string
	apiKey         string
	maxRunning     int
	maxQueued      int
	keepAlive      time.Duration
	bodyIdle       time.Duration
	defaultASR     string
	download       []string
}

func parseServe(args []string, getenv func(string) string, stdout, stderr io.Writer) (serveConfig, error) {
	var c serveConfig
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	envOr := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	// envErrs holds, per flag, why its environment variable could not be
	// read; it counts only when the flag is not given (a flag beats env).
	envErrs := map[string]string{}
	envInt := func(flag, name string, def int) int {
		v := getenv(name)
		if v == "" {
			return def
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			envErrs[flag] = fmt.Sprintf("%s=%q: want a whole number", name, v)
			return def
		}
		return n
	}
	envDuration := func(flag, name string, def time.Duration) time.Duration {
		v := getenv(name)
		if v == "" {
			return def
		}
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			envErrs[flag] = fmt.Sprintf("%s=%q: want a duration with its unit, e.g. 15m, 1h30m or 0", name, v)
			return def
		}
		return d
	}
	envBool := func(flag, name string) bool {
		v := getenv(name)
		if v == "" {
			return false
		}
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			envErrs[flag] = fmt.Sprintf("%s=%q: want 1 or 0 (true or false)", name, v)
		}
		return b
	}
	fs.StringVar(&c.listen, "listen", getenv("SOTTO_LISTEN"),
		"address to listen on, host:port (env SOTTO_LISTEN; default "+headlessAddr+", or "+desktopAddr+" with --desktop)")
	fs.BoolVar(&c.desktop, "desktop", envBool("desktop", "SOTTO_DESKTOP"),
		"serve the desktop gateway: accepts server-local file paths (text_path, file) and streaming\n"+
			"transcription; its API key comes from SOTTO_DESKTOP_API_KEY (env SOTTO_DESKTOP=1)")
	fs.StringVar(&c.dataDir, "data-dir", envOr("SOTTO_DATA_DIR", models.DefaultDataDir(getenv)),
		"directory for downloaded models, upload spooling and state (env SOTTO_DATA_DIR)")
	fs.StringVar(&c.catalog, "catalog", getenv("SOTTO_CATALOG"),
		"JSON file of extra or overriding catalog entries, merged over the built-in catalog (env SOTTO_CATALOG)")
	hosts := fs.String("allowed-hosts", getenv("SOTTO_ALLOWED_HOSTS"),
		"comma-separated Host names accepted besides localhost, 127.0.0.1 and ::1; \"*\" accepts any\n"+
			"(env SOTTO_ALLOWED_HOSTS; a wildcard listen address accepts any host unless this is set)")
	origins := fs.String("allowed-origins", getenv("SOTTO_ALLOWED_ORIGINS"),
		"comma-separated browser origins (scheme://host:port) allowed to call the API; \"*\" allows any\n"+
			"(env SOTTO_ALLOWED_ORIGINS; default: pages served from an allowed host)")
	fs.IntVar(&c.maxRunning, "max-running", envInt("max-running", "SOTTO_MAX_RUNNING", 1),
		"requests that may use one model at once (env SOTTO_MAX_RUNNING)")
	fs.IntVar(&c.maxQueued, "max-queued", envInt("max-queued", "SOTTO_MAX_QUEUED", 16),
		"requests that may wait per model; one more gets 503 service_busy with Retry-After (env SOTTO_MAX_QUEUED)")
	fs.DurationVar(&c.keepAlive, "keep-alive", envDuration("keep-alive", "SOTTO_KEEP_ALIVE", 0),
		"unload a model after this long without requests, e.g. 15m; 0 keeps models loaded (env SOTTO_KEEP_ALIVE)")
	fs.DurationVar(&c.bodyIdle, "body-idle-timeout", envDuration("body-idle-timeout", "SOTTO_BODY_IDLE_TIMEOUT", server.DefaultBodyIdleTimeout),
		"fail a request (408) whose body sends no byte for this long; a slow upload that keeps moving is\n"+
			"never cut; 0 waits forever (env SOTTO_BODY_IDLE_TIMEOUT)")
	fs.StringVar(&c.defaultASR, "default-asr-model", getenv("SOTTO_DEFAULT_ASR_MODEL"),
		"transcription model used when a request names none (env SOTTO_DEFAULT_ASR_MODEL; default: the catalog's\n"+
			"default for /v1/audio/transcriptions)")
	download := fs.String("download", envOr("SOTTO_DOWNLOAD", defaultDownloads),
		"comma-separated catalog models to download at start when files are missing, in the background,\n"+
			"with progress in the log; a failed download is logged and the service runs on. The default is what\n"+
			"the default models need beyond the Debian packages: "+defaultDownloads+", the speaker network\n"+
			"of Sotto/Lattice-1's embeddings (63.5 MB, npm registry). none: download nothing (env SOTTO_DOWNLOAD)")
	fs.StringVar(&c.logLevel, "log-level", envOr("SOTTO_LOG_LEVEL", "info"), "debug, info, warn or error (env SOTTO_LOG_LEVEL)")
	fs.StringVar(&c.logFormat, "log-format", envOr("SOTTO_LOG_FORMAT", "text"), "text or json (env SOTTO_LOG_FORMAT)")
	help := fs.BoolP("help", "h", false, "show this help")
	usageOut := stderr
	fs.Usage = func() {
		fs.SetOutput(usageOut)
		fmt.Fprint(usageOut, `Usage: sotto-cli serve [flags]

Runs the Sotto HTTP API (/v1). Authentication is on when SOTTO_API_KEY (headless)
or SOTTO_DESKTOP_API_KEY (--desktop) holds a key at start-up; clients then send
"Authorization: Bearer KEY" or "x-api-key: KEY". GET /health is always public.
Stop with Ctrl-C: in-flight requests finish first (for up to 30 s); a second
Ctrl-C stops at once. Models the service downloads (POST /v1/models/download,
sotto-cli models download) go to --data-dir; the English models of the Debian
packages (flite, espeak-ng, pocketsphinx-en-us) are used where installed.

Examples:
  sotto-cli serve
  SOTTO_API_KEY=$(openssl rand -hex 16) sotto-cli serve --keep-alive 15m
  sotto-cli serve --listen 0.0.0.0:1118 --allowed-hosts gateway.lan --data-dir /srv/sotto
  sotto-cli serve --desktop
  sotto-cli serve --download none              # offline: fetch nothing at start

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, usageError{err.Error()}
	}
	if *help {
		usageOut = stdout // asked for: standard output, to page or grep it
		fs.Usage()
		return c, errHelp
	}
	if fs.NArg() > 0 {
		return c, usageError{fmt.Sprintf("serve takes no arguments (got %q)", fs.Args())}
	}
	for _, flag := range []string{"desktop", "max-running", "max-queued", "keep-alive", "body-idle-timeout"} {
		if msg, ok := envErrs[flag]; ok && !fs.Changed(flag) {
			return c, usageError{msg}
		}
	}
	if c.listen == "" {
		c.listen = headlessAddr
		if c.desktop {
			c.listen = desktopAddr
		}
	}
	c.listenSrc = "--listen"
	if !fs.Changed("listen") && getenv("SOTTO_LISTEN") != "" {
		c.listenSrc = "SOTTO_LISTEN"
	}
	host, err := checkListen(c.listen)
	if err != nil {
		return c, usageError{fmt.Sprintf("%s %q: %v", c.listenSrc, c.listen, err)}
	}
	if *download != "none" {
		c.download = splitList(*download)
	}
	c.allowedHosts = splitList(*hosts)
	if len(c.allowedHosts) > 0 || !isWildcard(host) {
		c.allowedHosts = append(c.allowedHosts, "localhost", "127.0.0.1", "::1")
		if host != "" && !isWildcard(host) && !slices.Contains(c.allowedHosts, host) {
			c.allowedHosts = append(c.allowedHosts, host)
		}
	}
	c.allowedOrigins = splitList(*origins)
	for _, o := range c.allowedOrigins {
		if err := checkOrigin(o); err != nil {
			src := "--allowed-origins"
			if !fs.Changed("allowed-origins") {
				src = "SOTTO_ALLOWED_ORIGINS"
			}
			return c, usageError{fmt.Sprintf("%s: %v", src, err)}
		}
	}
	keyVar := "SOTTO_API_KEY"
	if c.desktop {
		keyVar = "SOTTO_DESKTOP_API_KEY"
	}
	// HTTP header values lose their surrounding white space, so a key
	// read with a trailing space or newline (an env file) could never be
	// matched: every request was a 401. It is trimmed; a key that is only
	// white space, or holds a control character no header can carry, is
	// refused rather than turning authentication on with a key no client
	// can send (or off, which the user did not ask for).
	c.apiKey = strings.TrimSpace(getenv(keyVar))
	switch {
	case c.apiKey == "" && getenv(keyVar) != "":
		return c, usageError{keyVar + " holds only white space: set a key, or leave it empty to turn authentication off"}
	case strings.ContainsFunc(c.apiKey, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return c, usageError{keyVar + " holds a control character, which no client can send in a header"}
	}
	switch c.logFormat {
	case "text", "json":
	default:
		return c, usageError{fmt.Sprintf("--log-format %q: want text or json", c.logFormat)}
	}
	switch {
	case c.maxRunning < 1:
		return c, usageError{fmt.Sprintf("--max-running %d: must be at least 1", c.maxRunning)}
	case c.maxQueued < 0:
		return c, usageError{fmt.Sprintf("--max-queued %d: must not be negative", c.maxQueued)}
	case c.keepAlive < 0:
		return c, usageError{fmt.Sprintf("--keep-alive %v: must not be negative (0 keeps models loaded)", c.keepAlive)}
	case c.bodyIdle < 0:
		return c, usageError{fmt.Sprintf("--body-idle-timeout %v: must not be negative (0 waits forever)", c.bodyIdle)}
	}
	if _, err := parseLevel(c.logLevel); err != nil {
		return c, usageError{err.Error()}
	}
	return c, nil
}

// checkOrigin reports whether o can match a browser's Origin header: "*",
// or scheme://host[:port] with no path. A browser never sends a bare host,
// so "example.com" would match nothing (and, once any origin is listed,
// the default of pages from an allowed host no longer applies).
func checkOrigin(o string) error {
	if o == "*" {
		return nil
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		strings.TrimRight(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		eg := "https://app.example:8080"
		if !strings.Contains(o, "://") && !strings.ContainsAny(o, "/?#@*") {
			eg = "https://" + o
		}
		return fmt.Errorf("%q is not an origin: want scheme://host[:port] as a browser sends it, e.g. %s", o, eg)
	}
	return nil
}

// checkListen checks a listen address before anything starts, and returns
// its host: host:port with a port of 0 to 65535 (or a service name such
// as http), and a host that is empty, an IP address ([::1] for IPv6) or a
// name. Whether a name resolves, or an address belongs to this machine, is
// known only when listening (see [listenError]).
func checkListen(addr string) (string, error) {
	if _, rest, ok := strings.Cut(addr, "://"); ok {
		return "", fmt.Errorf("want host:port, not a URL (e.g. %s)", strings.TrimRight(rest, "/"))
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if strings.Count(addr, ":") > 1 && !strings.Contains(addr, "[") {
			return "", fmt.Errorf("an IPv6 address needs brackets: [host]:port, e.g. [::1]:1118")
		}
		return "", fmt.Errorf("want host:port, e.g. 127.0.0.1:1118, or :1118 for every interface")
	}
	if port == "" {
		return "", fmt.Errorf("no port: want host:port, e.g. 127.0.0.1:1118")
	}
	if n, err := strconv.ParseUint(port, 10, 64); err == nil {
		if n > 65535 {
			return "", fmt.Errorf("port %d is out of range: want 0 to 65535 (0 picks a free one)", n)
		}
	} else if port[0] >= '0' && port[0] <= '9' || port[0] == '-' || port[0] == '+' {
		return "", fmt.Errorf("port %q is not a number from 0 to 65535", port)
	} else if _, err := net.LookupPort("tcp", port); err != nil {
		return "", fmt.Errorf("port %q is not a number from 0 to 65535, nor a known service name", port)
	}
	if strings.ContainsAny(host, " /?#@[]") {
		return "", fmt.Errorf("host %q is not a host name or an IP address", host)
	}
	if strings.Contains(host, ":") {
		if _, err := netip.ParseAddr(host); err != nil {
			return "", fmt.Errorf("host %q is not an IPv6 address", host)
		}
	}
	return host, nil
}

// listenError says in one line why listening on addr (given by src) failed:
// the address is taken, is not this machine's, names no host, or needs
// privileges. The last three are usage errors (exit status 2).
func listenError(src, addr string, err error) error {
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return fmt.Errorf("%w (another sotto-cli serve, or another program, listens there; --listen or SOTTO_LISTEN picks another address)", err)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return usageError{fmt.Sprintf("%s %q: no network interface of this machine has that address (127.0.0.1 is this machine only; 0.0.0.0 every interface)", src, addr)}
	case errors.As(err, &dnsErr):
		return usageError{fmt.Sprintf("%s %q: host %q does not resolve: want an IP address of this machine or a name of one", src, addr, dnsErr.Name)}
	case errors.Is(err, syscall.EACCES):
		return fmt.Errorf("%s %q: permission denied: ports below 1024 need root (or CAP_NET_BIND_SERVICE); pick a port from 1024", src, addr)
	}
	return err
}

// serveURLs returns the address to log for a listener on the address
// given (the host as the user wrote it, the port the listener has, for
// :0) and the service root to open: http://localhost:PORT when the host is
// a wildcard (0.0.0.0, ::, empty), which Go reports as [::].
func serveURLs(given string, ln net.Addr) (listen, root string) {
	host, _, _ := net.SplitHostPort(given)
	port := ""
	if ta, ok := ln.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
	} else if _, p, err := net.SplitHostPort(ln.String()); err == nil {
		port = p
	}
	listen = net.JoinHostPort(host, port)
	if isWildcard(host) {
		return listen, "http://" + net.JoinHostPort("localhost", port)
	}
	return listen, "http://" + listen
}

func isWildcard(host string) bool {
	return host == "" || host == "0.0.0.0" || host == "::" || host == "[::]"
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("--log-level %q: want debug, info, warn or error", s)
	}
	return l, nil
}

func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c, err := parseServe(args, getenv, stdout, stderr)
	if err != nil {
		return err
	}
	level, _ := parseLevel(c.logLevel)
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(stderr, opts)
	if c.logFormat == "json" {
		h = slog.NewJSONHandler(stderr, opts)
	}
	log := slog.New(h)
	if err := os.MkdirAll(c.dataDir, 0o755); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	// The user catalog of the data directory (sotto-cli models import),
	// unless --catalog names another.
	c.catalog = models.UserCatalog(c.dataDir, c.catalog)
	store, err := openModels(ctx, c, log)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := checkDownloads(store.m, c.download); err != nil {
		return err
	}
	voices, err := voicelib.Open(ctx, filepath.Join(c.dataDir, "voices.db"))
	if err != nil {
		return err
	}
	defer voices.Close()
	srv, err := server.New(server.Config{
		Desktop:        c.desktop,
		APIKey:         c.apiKey,
		AllowedHosts:   c.allowedHosts,
		AllowedOrigins: c.allowedOrigins,
		BodyIdleTimeout: func() time.Duration {
			if c.bodyIdle == 0 {
				return -1 // the server's "off"; its 0 is the default
			}
			return c.bodyIdle
		}(),
		SpoolDir: filepath.Join(c.dataDir, "spool"),
		Models:   store,
		Voices:   voices,
		Logger:   log,
		DataDir:  c.dataDir,
		Getenv:   getenv,

		DefaultTranscriptionModel: c.defaultASR,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		return listenError(c.listenSrc, c.listen, err)
	}
	startDownloads(ctx, store.m, c.download, log)
	mode := "headless"
	if c.desktop {
		mode = "desktop"
	}
	listen, root := serveURLs(c.listen, ln.Addr())
	log.Info("sotto serving", "version", version(), "mode", mode, "listen", listen, "url", root+"/v1",
		"auth", c.apiKey != "", "data_dir", c.dataDir, "allowed_hosts", strings.Join(c.allowedHosts, ","))
	hinted := make(chan struct{})
	stopHint := context.AfterFunc(ctx, func() {
		log.Info("stopping: requests in flight may finish; press Ctrl-C again to stop at once")
		close(hinted)
	})
	err = srv.Serve(ctx, ln)
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	if !stopHint() {
		<-hinted // the hint is being logged: before "stopped", not after it
	}
	log.Info("sotto stopped")
	return err
}

// defaultDownloads is what serve downloads at start unless told otherwise:
// the model the default models need beyond the Debian packages (the speaker
// network Sotto/Lattice-1's embeddings use).
const defaultDownloads = "Sotto/Kaldi-XVector-Callhome"

// checkDownloads fails when the catalog lacks a model --download names.
func checkDownloads(m *models.Manager, ids []string) error {
	for _, id := range ids {
		if _, err := m.Entry(id); err != nil {
			return fmt.Errorf("--download: %w", err)
		}
	}
	return nil
}

// startDownloads starts the downloads --download names (models whose files
// are all on disk complete at once, without a request) and logs each one's
// progress, at most every 10 % or 30 s, and its end. A failed download is
// only logged.
func startDownloads(ctx context.Context, m *models.Manager, ids []string, log *slog.Logger) {
	for _, id := range ids {
		j, err := m.Download(id)
		if err != nil {
			log.Warn("download not started", "model", id, "error", err)
			continue
		}
		if j.State == models.StateCompleted {
			log.Info("model on disk", "model", id)
			continue
		}
		go watchStartDownload(ctx, m, id, log)
	}
}

func watchStartDownload(ctx context.Context, m *models.Manager, id string, log *slog.Logger) {
	log.Info("downloading", "model", id)
	var lastTenth int64 = -1
	var last time.Time
	for j, err := range m.WatchDownload(ctx, id) {
		if err != nil {
			return // the service is stopping; the job stops with it
		}
		switch j.State {
		case models.StateCompleted:
			log.Info("download completed", "model", id, "bytes", j.BytesDownloaded)
			return
		case models.StateFailed, models.StateCancelled:
			msg := ""
			if j.Error != nil {
				msg = *j.Error
			}
			log.Warn("download ended without the model", "model", id, "state", j.State, "error", msg,
				"retry", "POST /v1/models/download or sotto-cli models download "+id)
			return
		}
		if j.TotalBytes > 0 {
			tenth := j.BytesDownloaded * 10 / j.TotalBytes
			if tenth != lastTenth || time.Since(last) >= 30*time.Second {
				lastTenth, last = tenth, time.Now()
				log.Info("downloading", "model", id, "percent", j.BytesDownloaded*100/j.TotalBytes,
					"bytes", j.BytesDownloaded, "total_bytes", j.TotalBytes)
			}
		}
	}
}
