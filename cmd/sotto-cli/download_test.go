package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestWatchDownloadLines checks the output of models download to a writer
// that is not a terminal: whole lines, one per state change and per 10 % of
// progress, no carriage returns, and nothing repeated while nothing moves.
func TestWatchDownloadLines(t *testing.T) {
	// The service's successive answers to GET /v1/models/downloads.
	steps := []struct {
		state     string
		done, tot int64
	}{
		{"downloading", 0, 0},
		{"downloading", 0, 1000},
		{"downloading", 50, 1000},  // still 0 %: no line
		{"downloading", 250, 1000}, // 20 %
		{"downloading", 260, 1000}, // no line
		{"downloading", 990, 1000}, // 90 %
		{"completed", 1000, 1000},
	}
	n := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := steps[min(n, len(steps)-1)]
		n++
		fmt.Fprintf(w, `{"object":"list","data":[{"model":"Other/x","state":"downloading","bytes_downloaded":1,"total_bytes":2,"error":null},`+
			`{"model":"M/m","state":%q,"bytes_downloaded":%d,"total_bytes":%d,"error":null}]}`, s.state, s.done, s.tot)
	}))
	defer ts.Close()
	c := &client{base: ts.URL, http: ts.Client()}
	var out bytes.Buffer
	err := watchDownload(context.Background(), c, "M/m", downloadJob{Model: "M/m", State: "downloading"}, 0, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"M/m downloading 0 B",
		"M/m downloading 0% 0 B / 1000 B",
		"M/m downloading 20% 250 B / 1000 B",
		"M/m downloading 90% 990 B / 1000 B",
		"M/m completed 100% 1000 B / 1000 B",
		"M/m: downloaded",
		"",
	}, "\n")
	if out.String() != want {
		t.Errorf("output:\n%q\nwant:\n%q", out.String(), want)
	}
}

// TestWatchDownloadFailedLines: a failed job ends the watch with its error,
// after one line that names the state.
func TestWatchDownloadFailedLines(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"object":"list","data":[{"model":"M/m","state":"failed","bytes_downloaded":0,"total_bytes":0,"error":"no such host"}]}`)
	}))
	defer ts.Close()
	var out bytes.Buffer
	err := watchDownload(context.Background(), &client{base: ts.URL, http: ts.Client()}, "M/m",
		downloadJob{Model: "M/m", State: "downloading"}, 0, &out)
	if err == nil || !strings.Contains(err.Error(), "no such host") {
		t.Errorf("error %v; want the job's error", err)
	}
	if want := "M/m downloading 0 B\nM/m failed 0 B\n"; out.String() != want {
		t.Errorf("output %q; want %q", out.String(), want)
	}
}

// TestWatchDownloadRetryLines: while an attempt waits to be retried (the
// job's x_sotto.retry), a line says why, once per failed attempt; the
// progress line alone stood still without a word until the job failed.
func TestWatchDownloadRetryLines(t *testing.T) {
	retry := func(n int) string {
		return fmt.Sprintf(`,"x_sotto":{"retry":{"failures":%d,"last_error":"model: GET http://h/m.bin: 503 Service Unavailable","next_attempt_at":"2000-01-01T00:00:00Z"}}`, n)
	}
	steps := []string{
		`"state":"downloading","bytes_downloaded":0,"total_bytes":100,"error":null` + retry(1),
		`"state":"downloading","bytes_downloaded":0,"total_bytes":100,"error":null` + retry(1), // same attempt: no line
		`"state":"downloading","bytes_downloaded":0,"total_bytes":100,"error":null` + retry(2),
		`"state":"downloading","bytes_downloaded":50,"total_bytes":100,"error":null`,
		`"state":"completed","bytes_downloaded":100,"total_bytes":100,"error":null`,
	}
	n := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := steps[min(n, len(steps)-1)]
		n++
		fmt.Fprintf(w, `{"object":"list","data":[{"model":"M/m",%s}]}`, s)
	}))
	defer ts.Close()
	var out bytes.Buffer
	err := watchDownload(context.Background(), &client{base: ts.URL, http: ts.Client()}, "M/m",
		downloadJob{Model: "M/m", State: "downloading"}, 0, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"M/m downloading 0 B",
		"M/m attempt failed (1 in a row): model: GET http://h/m.bin: 503 Service Unavailable; retrying now",
		"M/m downloading 0% 0 B / 100 B",
		"M/m attempt failed (2 in a row): model: GET http://h/m.bin: 503 Service Unavailable; retrying now",
		"M/m downloading 50% 50 B / 100 B",
		"M/m completed 100% 100 B / 100 B",
		"M/m: downloaded",
		"",
	}, "\n")
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
