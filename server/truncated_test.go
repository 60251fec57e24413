package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a log sink that tests read while the server writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestTranscriptionTruncatedWAV sends the first 60 % of the JFK recording
// with its header unchanged, as a recorder that crashed leaves a file: the
// part that is there is transcribed (it used to be a 400 naming the missing
// bytes) and the server logs a warning that says the file is truncated.
func TestTranscriptionTruncatedWAV(t *testing.T) {
	skipUnderRace(t)
	var logs lockedBuffer
	ts, wav := asrServerLog(t, false, slog.New(slog.NewTextHandler(&logs, nil)))
	r := postTranscription(t, ts, []part{mediaPart(wav[:len(wav)*6/10]), field("response_format", "verbose_json")})
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	var v struct {
		Text     string  `json:"text"`
		Duration float64 `json:"duration"`
	}
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatal(err)
	}
	if v.Duration < 6 || v.Duration > 7 {
		t.Errorf("duration %.2f s; want the 6.6 s that are there (the header declares 11 s)", v.Duration)
	}
	if !strings.Contains(strings.ToLower(v.Text), "americans") {
		t.Errorf("text %q; want the first half of the recording", v.Text)
	}
	if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "truncated") || !strings.Contains(l, "declared=11") {
		t.Errorf("server log has no truncation warning:\n%s", l)
	}
}
