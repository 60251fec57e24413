package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sottolabs/sotto/audio"
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
// bytes), the response says so in its X-Sotto-Audio-Truncated header, and
// the server logs a warning that says the file is truncated.
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
	if h := r.header.Get(headerTruncated); !strings.HasPrefix(h, "decoded=6.") || !strings.HasSuffix(h, " declared=11") {
		t.Errorf("%s = %q; want decoded=6.6 declared=11 (seconds)", headerTruncated, h)
	}
	if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "truncated") || !strings.Contains(l, "declared=11") {
		t.Errorf("server log has no truncation warning:\n%s", l)
	}
}

// TestDecodeUploadTruncatedHeader checks the caller-visible side of a
// truncated upload without a model: decodeUpload sets the header with the
// decoded and declared lengths for a cut WAV, and leaves it unset for a
// whole one.
func TestDecodeUploadTruncatedHeader(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	wav := toneWAV(2)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"whole", wav, ""},
		{"cut to 0.5 s", wav[:44+16000], "decoded=0.5 declared=2"},
		{"cut mid-sample", wav[:44+16000+1], "decoded=0.5 declared=2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.wav")
			if err := os.WriteFile(path, c.data, 0o600); err != nil {
				t.Fatal(err)
			}
			w := httptest.NewRecorder()
			r := httptest.NewRequest("POST", pathTranscriptions, nil)
			a, err := s.decodeUpload(w, r, path, audio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := w.Header().Get(headerTruncated); got != c.want {
				t.Errorf("%s = %q; want %q", headerTruncated, got, c.want)
			}
			if c.want != "" && (a.Seconds() < 0.49 || a.Seconds() > 0.51) {
				t.Errorf("decoded %.3f s; want the 0.5 s that are there", a.Seconds())
			}
		})
	}
}
