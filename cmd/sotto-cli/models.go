package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/sottolabs/sotto/internal/progress"
)

const modelsUsage = `Usage: sotto-cli models COMMAND [MODEL] [flags]

Commands:
  list              the catalog: id, whether downloaded, bytes in the data
                    directory (what rm frees), defaults, endpoints
  download MODEL    start a download and show its progress until it ends
                    (Ctrl-C stops watching; the download goes on — cancel stops it)
  cancel MODEL      cancel a running download
  load MODEL        load a downloaded model into memory
  unload MODEL      release a loaded model (refused while a request uses it)
  running           loaded models, runtime state and queues
  rm MODEL          delete a model from this host (also: delete): its downloaded
                    files leave the data directory; a model added by models
                    import also leaves the catalog (its own file is kept).
                    Entries of a catalog file you wrote stay listed: the file
                    is never rewritten. Refused while a request uses it or its
                    download runs; a loaded idle model is unloaded first
  import ID PATH    register a local GGUF file or llama2.c checkpoint (--tokenizer PATH)
                    in the data directory's catalog (see models import --help)

Examples:
  sotto-cli models list
  sotto-cli models download Sotto/Whisper-base.en
  sotto-cli models load Sotto/Lattice-1 --url http://gpu-box:1118
  sotto-cli models running --json

Flags:
`

// client talks to a running service.
type client struct {
	base string
	key  string
	http *http.Client
}

func (c *client) do(ctx context.Context, method, path string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("is the service running at %s? (sotto-cli serve; --url or SOTTO_URL names another): %w", c.base, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 400 {
		var env struct {
			Error struct{ Message, Code string } `json:"error"`
		}
		if json.Unmarshal(data, &env) == nil && env.Error.Message != "" {
			hint := ""
			switch {
			case resp.StatusCode == http.StatusUnauthorized:
				// The service's message speaks of headers; the user of
				// this command sets a flag or a variable.
				hint = " (give the service's key with --api-key or SOTTO_API_KEY)"
			case env.Error.Code == "model_not_downloaded" && strings.Contains(env.Error.Message, "POST /v1/models/download"):
				// The service names its endpoint; this command has its own.
				if m, ok := body.(map[string]string); ok && m["model"] != "" {
					hint = " (from here: sotto-cli models download " + m["model"] + ")"
				}
			case env.Error.Code == "model_not_found" && strings.Contains(env.Error.Message, "GET /v1/models"):
				hint = " (from here: sotto-cli models list)"
			}
			return fmt.Errorf("%s %s: HTTP %d %s: %s%s", method, path, resp.StatusCode, env.Error.Code, env.Error.Message, hint)
		}
		return fmt.Errorf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, strings.TrimSpace(string(data)))
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

type downloadJob struct {
	Model           string  `json:"model"`
	State           string  `json:"state"`
	BytesDownloaded int64   `json:"bytes_downloaded"`
	TotalBytes      int64   `json:"total_bytes"`
	Error           *string `json:"error"`
	XSotto          struct {
		// Retry is set while a failed attempt waits to be retried.
		Retry *struct {
			Failures    int    `json:"failures"`
			LastError   string `json:"last_error"`
			NextAttempt string `json:"next_attempt_at"`
		} `json:"retry"`
	} `json:"x_sotto"`
}

// serviceURL is the default root URL of the service the models commands
// talk to: SOTTO_URL, else the address serve listens on when SOTTO_LISTEN
// sets it (a wildcard host is reached on the loopback address), else the
// headless default.
func serviceURL(getenv func(string) string) string {
	if u := getenv("SOTTO_URL"); u != "" {
		return u
	}
	addr := getenv("SOTTO_LISTEN")
	host, port, err := net.SplitHostPort(addr)
	if addr == "" || err != nil {
		return "http://" + headlessAddr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// serviceRoot turns a --url (or SOTTO_URL) into the service's root URL:
// without a trailing "/" or "/v1", and with "http://" in front of a bare
// host:port (the form SOTTO_LISTEN takes), which Go's client would
// otherwise refuse ("first path segment in URL cannot contain colon").
func serviceRoot(u string) string {
	u = strings.TrimSpace(u)
	if !strings.Contains(u, "://") {
		u = "http://" + u
	}
	return strings.TrimRight(strings.TrimSuffix(strings.TrimRight(u, "/"), "/v1"), "/")
}

func runModels(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "import" {
		return runImport(args[1:], getenv, stdout, stderr) // edits the catalog file; no service needed
	}
	fs := pflag.NewFlagSet("models", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("url", serviceURL(getenv), "service root URL (env SOTTO_URL; else SOTTO_LISTEN's address, as serve uses it)")
	key := fs.String("api-key", getenv("SOTTO_API_KEY"), "API key (env SOTTO_API_KEY)")
	asJSON := fs.Bool("json", false, "print the service's JSON instead of a table")
	interval := fs.Duration("interval", time.Second, "how often download polls progress")
	help := fs.BoolP("help", "h", false, "show this help")
	usageOut := stderr
	fs.Usage = func() { fs.SetOutput(usageOut); fmt.Fprint(usageOut, modelsUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *help {
		usageOut = stdout // asked for: standard output, to page or grep it
		fs.Usage()
		return errHelp
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fs.Usage()
		return usageError{"models: no command given"}
	}
	c := &client{base: serviceRoot(*baseURL), key: *key,
		http: &http.Client{Timeout: 0}}
	cmd, rest := rest[0], rest[1:]
	needModel := func() (string, error) {
		if len(rest) != 1 {
			return "", usageError{fmt.Sprintf("models %s takes one MODEL argument, e.g. Sotto/Lattice-1", cmd)}
		}
		return rest[0], nil
	}
	printJSON := func(v any) error {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	switch cmd {
	case "list":
		var doc struct {
			Data []map[string]any `json:"data"`
		}
		if err := c.do(ctx, "GET", "/v1/models", nil, &doc); err != nil {
			return err
		}
		if *asJSON {
			return printJSON(doc)
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "MODEL\tDOWNLOADED\tON DISK\tDEFAULT FOR\tENDPOINTS")
		for _, m := range doc.Data {
			dl, size := "-", "-"
			if x, ok := m["x_sotto"].(map[string]any); ok {
				if d, ok := x["downloaded"].(bool); ok {
					dl = map[bool]string{true: "yes", false: "no"}[d]
				}
				if n, ok := x["disk_bytes"].(float64); ok && n > 0 {
					size = humanBytes(int64(n)) // what models rm frees
				}
			}
			fmt.Fprintf(tw, "%v\t%s\t%s\t%s\t%s\n", m["id"], dl, size, joinAny(m["default_for"]), joinAny(m["supported_endpoints"]))
		}
		return tw.Flush()
	case "running":
		var raw json.RawMessage
		if err := c.do(ctx, "GET", "/v1/models/running", nil, &raw); err != nil {
			return err
		}
		if *asJSON {
			return printJSON(raw)
		}
		return printRunning(stdout, raw)
	case "load", "unload", "cancel":
		id, err := needModel()
		if err != nil {
			return err
		}
		path := map[string]string{"load": "/v1/models/load", "unload": "/v1/models/unload", "cancel": "/v1/models/download/cancel"}[cmd]
		var res map[string]any
		if err := c.do(ctx, "POST", path, map[string]string{"model": id}, &res); err != nil {
			return err
		}
		if *asJSON {
			return printJSON(res)
		}
		fmt.Fprintf(stdout, "%s: %v\n", id, firstOf(res, "status", "state"))
		return nil
	case "rm", "delete":
		id, err := needModel()
		if err != nil {
			return err
		}
		parts := strings.Split(id, "/")
		for i, p := range parts {
			parts[i] = url.PathEscape(p)
		}
		var res struct {
			ID      string `json:"id"`
			Deleted bool   `json:"deleted"`
			XSotto  struct {
				BytesFreed          int64 `json:"bytes_freed"`
				CatalogEntryRemoved bool  `json:"catalog_entry_removed"`
				Unloaded            bool  `json:"unloaded"`
			} `json:"x_sotto"`
		}
		var raw json.RawMessage
		if err := c.do(ctx, "DELETE", "/v1/models/"+strings.Join(parts, "/"), nil, &raw); err != nil {
			return err
		}
		if *asJSON {
			return printJSON(raw)
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return err
		}
		var what []string
		if res.XSotto.Unloaded {
			what = append(what, "unloaded")
		}
		if res.XSotto.BytesFreed > 0 {
			what = append(what, humanBytes(res.XSotto.BytesFreed)+" freed")
		}
		switch {
		case res.XSotto.CatalogEntryRemoved && res.XSotto.BytesFreed == 0:
			what = append(what, "removed from the catalog; its files outside the data directory are kept")
		case res.XSotto.CatalogEntryRemoved:
			what = append(what, "removed from the catalog")
		default:
			what = append(what, "still in the catalog: sotto-cli models download "+id+" fetches it again")
		}
		fmt.Fprintf(stdout, "%s: deleted: %s\n", id, strings.Join(what, ", "))
		return nil
	case "download":
		id, err := needModel()
		if err != nil {
			return err
		}
		var job downloadJob
		if err := c.do(ctx, "POST", "/v1/models/download", map[string]string{"model": id}, &job); err != nil {
			return err
		}
		return watchDownload(ctx, c, id, job, *interval, stdout)
	default:
		return usageError{fmt.Sprintf("models: unknown command %q: want list, download, cancel, load, unload, running, rm or import", cmd)}
	}
}

// printRunning writes GET /v1/models/running as a table: one row per model
// that is loaded or has a queue (a model in the queues but not loaded is
// loading, or waiting for its load), then the runtime's state.
func printRunning(out io.Writer, raw []byte) error {
	var doc struct {
		Data []struct {
			ID     string `json:"id"`
			Status struct {
				Value string `json:"value"`
			} `json:"status"`
		} `json:"data"`
		Runtime struct {
			State  string `json:"state"`
			Queues map[string]struct {
				Queued    int `json:"queued"`
				Running   int `json:"running"`
				Limit     int `json:"limit"`
				MaxQueued int `json:"max_queued"`
			} `json:"queues"`
		} `json:"runtime"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("models running: the service's answer is not the running list: %w", err)
	}
	status := map[string]string{}
	for _, m := range doc.Data {
		status[m.ID] = m.Status.Value
	}
	ids := make([]string, 0, len(status)+len(doc.Runtime.Queues))
	for id := range status {
		ids = append(ids, id)
	}
	for id := range doc.Runtime.Queues {
		if _, ok := status[id]; !ok {
			ids = append(ids, id)
			status[id] = "loading"
		}
	}
	slices.Sort(ids)
	if len(ids) == 0 {
		fmt.Fprintf(out, "no model loaded (runtime %s); a request or sotto-cli models load MODEL loads one\n", doc.Runtime.State)
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tSTATUS\tRUNNING\tQUEUED\tLIMIT\tMAX QUEUED")
	for _, id := range ids {
		q, ok := doc.Runtime.Queues[id]
		if !ok {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\n", id, status[id])
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\n", id, status[id], q.Running, q.Queued, q.Limit, q.MaxQueued)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "runtime: %s\n", doc.Runtime.State)
	return nil
}

// watchDownload polls the jobs list until the job reaches a terminal state.
// On a terminal it redraws one progress bar in place; to anything else (a
// log file, a pipe, CI) it writes whole lines, one when the state changes and
// one per 10 % of progress, so the output reads line by line.
func watchDownload(ctx context.Context, c *client, id string, job downloadJob, every time.Duration, out io.Writer) error {
	start := time.Now()
	tty := progress.IsTerminal(out)
	var lines lineProgress
	failures := 0 // the failed attempts in a row last reported
	for {
		end := "\n"
		if !tty {
			end = ""
		}
		// A failed attempt waiting to be retried gets a line of its own:
		// the bar alone stood still with nothing said until the job failed.
		if r := job.XSotto.Retry; r != nil && r.Failures != failures {
			failures = r.Failures
			if tty && lines.started {
				fmt.Fprint(out, "\n")
			}
			fmt.Fprintf(out, "%s attempt failed (%d in a row): %s; retrying%s\n", job.Model, r.Failures, r.LastError, retryWhen(r.NextAttempt))
		} else if r == nil {
			failures = 0
		}
		if tty {
			drawProgress(out, job, time.Since(start))
			lines.started = true
		} else {
			lines.write(out, job)
		}
		switch job.State {
		case "completed":
			fmt.Fprintf(out, "%s%s: downloaded\n", end, id)
			return nil
		case "failed", "cancelled":
			fmt.Fprint(out, end)
			if job.Error != nil {
				return fmt.Errorf("%s: download %s: %s", id, job.State, *job.Error)
			}
			return fmt.Errorf("%s: download %s", id, job.State)
		}
		select {
		case <-ctx.Done():
			fmt.Fprintf(out, "%sstopped watching; the download goes on (sotto-cli models cancel %s stops it)\n", end, id)
			return nil
		case <-time.After(every):
		}
		var list struct {
			Data []downloadJob `json:"data"`
		}
		if err := c.do(ctx, "GET", "/v1/models/downloads", nil, &list); err != nil {
			if ctx.Err() != nil {
				continue
			}
			return err
		}
		for _, j := range list.Data {
			if j.Model == id {
				job = j
			}
		}
	}
}

// retryWhen says when the next attempt is due, from its RFC 3339 time.
func retryWhen(next string) string {
	t, err := time.Parse(time.RFC3339, next)
	if err != nil {
		return ""
	}
	if d := time.Until(t).Round(time.Second); d > 0 {
		return " in " + d.String()
	}
	return " now"
}

// lineProgress writes a download's progress as whole lines: the first
// report, each change of state, and each further 10 % of a known total.
type lineProgress struct {
	started bool
	state   string
	tenth   int // the last tenth of the total written
}

func (p *lineProgress) write(out io.Writer, j downloadJob) {
	tenth := -1
	if j.TotalBytes > 0 {
		tenth = int(10 * max(0, min(1, float64(j.BytesDownloaded)/float64(j.TotalBytes))))
	}
	if p.started && j.State == p.state && tenth <= p.tenth {
		return
	}
	p.started, p.state, p.tenth = true, j.State, tenth
	if j.TotalBytes > 0 {
		fmt.Fprintf(out, "%s %s %d%% %s / %s\n", j.Model, j.State, 10*tenth, humanBytes(j.BytesDownloaded), humanBytes(j.TotalBytes))
		return
	}
	fmt.Fprintf(out, "%s %s %s\n", j.Model, j.State, humanBytes(j.BytesDownloaded))
}

func drawProgress(out io.Writer, j downloadJob, elapsed time.Duration) {
	const width = 30
	if j.TotalBytes <= 0 {
		fmt.Fprintf(out, "\r%s %-11s %s", j.Model, j.State, humanBytes(j.BytesDownloaded))
		return
	}
	frac := float64(j.BytesDownloaded) / float64(j.TotalBytes)
	frac = max(0, min(1, frac))
	n := int(frac * width)
	rate := ""
	if s := elapsed.Seconds(); s > 0.5 {
		rate = humanBytes(int64(float64(j.BytesDownloaded)/s)) + "/s"
	}
	fmt.Fprintf(out, "\r%s [%s%s] %5.1f%% %s / %s %s   ", j.Model, strings.Repeat("=", n), strings.Repeat(" ", width-n),
		100*frac, humanBytes(j.BytesDownloaded), humanBytes(j.TotalBytes), rate)
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

func joinAny(v any) string {
	xs, _ := v.([]any)
	parts := make([]string, 0, len(xs))
	for _, x := range xs {
		parts = append(parts, fmt.Sprint(x))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ",")
}

func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return m
}
