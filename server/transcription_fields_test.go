package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/asr"
)

// The fields, formats, stream framing and limits of POST
// /v1/audio/transcriptions (spec parts 4, 7 and 8; issue 12) that need no
// recognizer: a scripted asr.Backend stands in for the model, so each
// field's effect on what reaches the backend and on the body is checked
// exactly. transcription_e2e_test.go runs the same route on the real
// recognizer.

// scriptedASR is an asr.Backend that emits fixed segments and then,
// optionally, fails; it records the options it was called with.
type scriptedASR struct {
	segs []asr.Segment
	fail error // returned after the segments; nil for none
	mu   sync.Mutex
	opts []asr.Options
}

var _ asr.Backend = (*scriptedASR)(nil)

func (b *scriptedASR) Transcribe(ctx context.Context, a sotto.Audio, opts asr.Options, emit func(asr.Segment) error) error {
	b.mu.Lock()
	b.opts = append(b.opts, opts)
	b.mu.Unlock()
	for _, s := range b.segs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(s); err != nil {
			return err
		}
	}
	return b.fail
}

func (b *scriptedASR) Close() error { return nil }

// lastOptions returns the options of the latest call.
func (b *scriptedASR) lastOptions(t *testing.T) asr.Options {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.opts) == 0 {
		t.Fatal("the backend was not called")
	}
	return b.opts[len(b.opts)-1]
}

// scriptedModels is the transcription test catalog whose Test/ASR-En
// acquires the scripted backend instead of loading a model.
type scriptedModels struct {
	Models
	b *scriptedASR
}

func (m scriptedModels) Acquire(ctx context.Context, id string) (func(), any, error) {
	if id == "Test/ASR-En" {
		return func() {}, m.b, nil
	}
	return m.Models.Acquire(ctx, id)
}

// twoSegments is what the scripted backend says about any audio: two
// segments with words.
var twoSegments = []asr.Segment{
	{ID: 0, Start: 0.25, End: 1.5, Text: "hello there", Words: []asr.Word{
		{Word: "hello", Start: 0.25, End: 0.8, Confidence: 0.9}, {Word: "there", Start: 0.8, End: 1.5, Confidence: 0.75}}},
	{ID: 1, Start: 2, End: 2.875, Text: "general kenobi", Words: []asr.Word{
		{Word: "general", Start: 2, End: 2.5, Confidence: 0.5}, {Word: "kenobi", Start: 2.5, End: 2.875, Confidence: 0.25}}},
}

func scriptedServer(t *testing.T, desktop bool, b *scriptedASR) *httptestServer {
	t.Helper()
	_, ts := newTestServer(t, Config{Desktop: desktop, Models: scriptedModels{transcriptionModels(t), b},
		DefaultTranscriptionModel: "Test/ASR-En"})
	return ts
}

// TestTranscriptionFieldsReachBackend: each accepted value of each field
// arrives at the recognizer as the spec means it (language canonical, "auto"
// detecting; prompt as given; word times asked for exactly when an output
// needs them), on both listeners.
func TestTranscriptionFieldsReachBackend(t *testing.T) {
	for _, desktop := range []bool{false, true} {
		b := &scriptedASR{segs: twoSegments}
		ts := scriptedServer(t, desktop, b)
		for _, tt := range []struct {
			name  string
			parts []part
			want  asr.Options
		}{
			{"defaults", nil, asr.Options{}},
			{"language en", []part{field("language", "en")}, asr.Options{Language: "en"}},
			{"language canonical", []part{field("language", "EN-us")}, asr.Options{Language: "en-US"}},
			{"language auto detects", []part{field("language", "auto")}, asr.Options{}},
			{"prompt", []part{field("prompt", "Kenobi, général")}, asr.Options{Prompt: "Kenobi, général"}},
			{"model named", []part{field("model", "Test/ASR-En")}, asr.Options{}},
			{"temperature 0", []part{field("temperature", "0")}, asr.Options{}},
			{"temperature 0.0 spaced", []part{field("temperature", " 0.0 ")}, asr.Options{}},
			{"temperature 0.4 (for a sampling backend)", []part{field("temperature", "0.4")}, asr.Options{Temperature: 0.4}},
			{"stream false", []part{field("stream", "false")}, asr.Options{}},
			{"audio_track 0", []part{field("audio_track", "0")}, asr.Options{}},
			{"audio_channel mix", []part{field("audio_channel", "mix")}, asr.Options{}},
			{"audio_channel 0", []part{field("audio_channel", "0")}, asr.Options{}},
			{"verbose_json", []part{field("response_format", "verbose_json")}, asr.Options{}},
			{"verbose_json segments", []part{field("response_format", "verbose_json"), field("timestamp_granularities[]", "segment")}, asr.Options{}},
			{"verbose_json words", []part{field("response_format", "verbose_json"), field("timestamp_granularities[]", "word")}, asr.Options{Words: true}},
			{"granularities without brackets", []part{field("response_format", "verbose_json"), field("timestamp_granularities", "word")}, asr.Options{Words: true}},
			{"srt needs word times", []part{field("response_format", "srt")}, asr.Options{Words: true}},
			{"vtt needs word times", []part{field("response_format", "vtt")}, asr.Options{Words: true}},
			{"text", []part{field("response_format", "text")}, asr.Options{}},
		} {
			name := fmt.Sprintf("desktop=%v/%s", desktop, tt.name)
			r := postTranscription(t, ts, append([]part{mediaPart(toneWAV(0.5))}, tt.parts...))
			if r.status != 200 {
				t.Errorf("%s: POST = %d %s; want 200", name, r.status, r.body)
				continue
			}
			if got := b.lastOptions(t); got != tt.want {
				t.Errorf("%s: backend options %+v; want %+v", name, got, tt.want)
			}
		}
	}
}

// TestTranscriptionFormatBodies: every response_format's status, media
// type and body for the same scripted segments, with the granularity rules
// of verbose_json (segments by default, words only when asked for words
// only, both when both).
func TestTranscriptionFormatBodies(t *testing.T) {
	ts := scriptedServer(t, false, &scriptedASR{segs: twoSegments})
	const dur = 0.5 // toneWAV(0.5)
	usage := map[string]any{"type": "duration", "seconds": dur}
	for _, tt := range []struct {
		name   string
		parts  []part
		ct     string
		want   any    // the JSON body, for JSON formats
		prefix string // the start of the body, for the others
	}{
		{"json", nil, "application/json",
			map[string]any{"text": "hello there general kenobi", "duration": dur, "usage": usage}, ""},
		{"json explicit", []part{field("response_format", "json")}, "application/json",
			map[string]any{"text": "hello there general kenobi", "duration": dur, "usage": usage}, ""},
		{"verbose_json", []part{field("response_format", "verbose_json"), field("language", "en")}, "application/json",
			map[string]any{"task": "transcribe", "language": "en", "duration": dur, "text": "hello there general kenobi", "usage": usage,
				"segments": []any{
					map[string]any{"id": 0.0, "start": 0.25, "end": 1.5, "text": "hello there"},
					map[string]any{"id": 1.0, "start": 2.0, "end": 2.875, "text": "general kenobi"}}}, ""},
		{"verbose_json words only, model language", []part{field("response_format", "verbose_json"), field("timestamp_granularities[]", "word")}, "application/json",
			map[string]any{"task": "transcribe", "language": "en", "duration": dur, "text": "hello there general kenobi", "usage": usage,
				"words": []any{
					map[string]any{"word": "hello", "start": 0.25, "end": 0.8, "confidence": 0.9},
					map[string]any{"word": "there", "start": 0.8, "end": 1.5, "confidence": 0.75},
					map[string]any{"word": "general", "start": 2.0, "end": 2.5, "confidence": 0.5},
					map[string]any{"word": "kenobi", "start": 2.5, "end": 2.875, "confidence": 0.25}}}, ""},
		{"verbose_json both", []part{field("response_format", "verbose_json"), field("timestamp_granularities[]", "segment"),
			field("timestamp_granularities[]", "word")}, "application/json", nil, ""},
		{"text", []part{field("response_format", "text")}, "text/plain", nil, "hello there general kenobi\n"},
		{"srt", []part{field("response_format", "srt")}, "application/x-subrip", nil, "1\n00:00:00,250 --> "},
		{"vtt", []part{field("response_format", "vtt")}, "text/vtt", nil, "WEBVTT\n\n00:00:00.250 --> "},
	} {
		r := postTranscription(t, ts, append([]part{mediaPart(toneWAV(dur))}, tt.parts...))
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), tt.ct) {
			t.Errorf("%s: POST = %d %s %s; want 200 %s", tt.name, r.status, r.header.Get("Content-Type"), r.body, tt.ct)
			continue
		}
		if tt.ct != "application/json" {
			if !bytes.HasPrefix(r.body, []byte(tt.prefix)) || !bytes.Contains(r.body, []byte("kenobi")) {
				t.Errorf("%s: body %q; want it to start %q and hold the text", tt.name, r.body, tt.prefix)
			}
			continue
		}
		var got map[string]any
		if err := json.Unmarshal(r.body, &got); err != nil {
			t.Fatalf("%s: body %s: %v", tt.name, r.body, err)
		}
		if tt.want == nil { // both granularities: segments and words
			if s, _ := got["segments"].([]any); len(s) != 2 {
				t.Errorf("%s: segments %v; want 2", tt.name, got["segments"])
			}
			if w, _ := got["words"].([]any); len(w) != 4 {
				t.Errorf("%s: words %v; want 4", tt.name, got["words"])
			}
			continue
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(tt.want)
		if !bytes.Equal(gb, wb) {
			t.Errorf("%s: body\n%s\nwant\n%s", tt.name, gb, wb)
		}
	}
}

// streamEvents posts a stream=true request and parses the SSE answer with
// parseSSE (a client that reads "event:"/"data:" lines); it returns the
// status, the media type, the events, and the body of a non-stream answer.
func streamEvents(t *testing.T, ts *httptestServer, parts []part) (int, string, []sseEvent, []byte) {
	t.Helper()
	body, ct := transcriptionForm(append(parts, field("stream", "true")))
	req, _ := http.NewRequest("POST", ts.URL+"/v1/audio/transcriptions", body)
	req.Header.Set("Content-Type", ct)
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Type") != "text/event-stream" {
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		return res.StatusCode, res.Header.Get("Content-Type"), nil, b.Bytes()
	}
	return res.StatusCode, "text/event-stream", parseSSE(t, res.Body), nil
}

// TestTranscriptionStreamEvents: on the desktop listener stream=true
// answers SSE in OpenAI's transcription event shape: one
// transcript.text.delta per segment with text (the second and later
// starting with a space), then transcript.text.done with the whole text
// (equal to the json answer's), the duration and the usage. A failure after
// the first delta ends the stream with an "error" event carrying the error
// envelope; one before any text is an ordinary error answer.
func TestTranscriptionStreamEvents(t *testing.T) {
	b := &scriptedASR{segs: twoSegments}
	ts := scriptedServer(t, true, b)
	r := postTranscription(t, ts, []part{mediaPart(toneWAV(0.5))})
	var j struct{ Text string }
	if err := json.Unmarshal(r.body, &j); err != nil || r.status != 200 {
		t.Fatalf("json = %d %s", r.status, r.body)
	}

	status, _, events, _ := streamEvents(t, ts, []part{mediaPart(toneWAV(0.5)), field("language", "en")})
	if status != 200 {
		t.Fatalf("stream = %d; want 200", status)
	}
	want := []sseEvent{
		{"transcript.text.delta", map[string]any{"type": "transcript.text.delta", "delta": "hello there"}},
		{"transcript.text.delta", map[string]any{"type": "transcript.text.delta", "delta": " general kenobi"}},
		{"transcript.text.done", map[string]any{"type": "transcript.text.done", "text": j.Text, "duration": 0.5,
			"usage": map[string]any{"type": "duration", "seconds": 0.5}}},
	}
	if got, w := fmt.Sprint(events), fmt.Sprint(want); got != w {
		t.Errorf("stream events\n%s\nwant\n%s", got, w)
	}
	if o := b.lastOptions(t); o != (asr.Options{Language: "en", Streaming: true}) {
		t.Errorf("stream backend options %+v; want language en, streaming", o)
	}

	busy := sotto.Unavailable("service_busy", time.Second, "the recognizer's queue is full")
	b.fail = busy
	status, _, events, _ = streamEvents(t, ts, []part{mediaPart(toneWAV(0.5))})
	if status != 200 || len(events) != 3 || events[1].name != "transcript.text.delta" || events[2].name != "error" {
		t.Fatalf("stream failing after the text = %d %v; want 200, two deltas and an error event", status, events)
	}
	e, _ := events[2].data["error"].(map[string]any)
	if events[2].data["type"] != "error" || e["code"] != "service_busy" || e["message"] == "" {
		t.Errorf("error event %v; want type error and the service_busy envelope", events[2].data)
	}

	b.segs, b.fail = nil, busy
	status, ct, events, body := streamEvents(t, ts, []part{mediaPart(toneWAV(0.5))})
	if status != 503 || ct != "application/json" || events != nil || !bytes.Contains(body, []byte(`"service_busy"`)) {
		t.Errorf("stream failing before any text = %d %s %s; want 503 with the service_busy envelope", status, ct, body)
	}

	b.segs, b.fail = []asr.Segment{{Text: ""}}, nil
	status, _, events, _ = streamEvents(t, ts, []part{mediaPart(toneWAV(0.5))})
	if status != 200 || len(events) != 1 || events[0].name != "transcript.text.done" || events[0].data["text"] != "" {
		t.Errorf("stream of silence = %d %v; want one transcript.text.done with empty text", status, events)
	}
}

// TestTranscriptionMoreErrors adds to TestTranscriptionErrors the field
// refusals it does not list, each with its status, code and param.
func TestTranscriptionMoreErrors(t *testing.T) {
	tone := toneWAV(0.5)
	type tc struct {
		name   string
		parts  []part
		status int
		code   string
		param  string
	}
	common := []tc{
		{"granularity with vtt", []part{mediaPart(tone), field("response_format", "vtt"), field("timestamp_granularities[]", "segment")}, 400, "bad_request", "timestamp_granularities[]"},
		{"granularity with explicit json", []part{mediaPart(tone), field("response_format", "json"), field("timestamp_granularities[]", "segment")}, 400, "bad_request", "timestamp_granularities[]"},
		{"unknown granularity, unbracketed name", []part{mediaPart(tone), field("response_format", "verbose_json"), field("timestamp_granularities", "char")}, 400, "bad_request", "timestamp_granularities[]"},
		{"format in capitals", []part{mediaPart(tone), field("response_format", "JSON")}, 400, "bad_request", "response_format"},
		{"temperature negative", []part{mediaPart(tone), field("temperature", "-0.5")}, 400, "bad_request", "temperature"},
		{"temperature above 1", []part{mediaPart(tone), field("temperature", "1.5")}, 400, "bad_request", "temperature"},
		{"temperature NaN", []part{mediaPart(tone), field("temperature", "NaN")}, 400, "bad_request", "temperature"},
		{"conflicting languages", []part{mediaPart(tone), field("language", "en"), field("language", "de")}, 400, "bad_request", "language"},
		{"conflicting streams", []part{mediaPart(tone), field("stream", "false"), field("stream", "true")}, 400, "bad_request", "stream"},
		{"speech model", []part{mediaPart(tone), field("model", "Sotto/Flite")}, 400, "model_capability_unsupported", "model"},
		{"empty file", []part{mediaPart([]byte{})}, 400, "", "file"},
		{"text file", []part{mediaPart([]byte("hello there, general kenobi\n"))}, 400, "", "file"},
		// OpenAI's fields without a use here: unsupported_parameter, not unknown.
		{"chunking_strategy object, as the SDK sends it", []part{mediaPart(tone), field("chunking_strategy[type]", "server_vad"), field("chunking_strategy[threshold]", "0.5")}, 400, "unsupported_parameter", "chunking_strategy"},
		{"chunking_strategy JSON", []part{mediaPart(tone), field("chunking_strategy", `{"type":"server_vad"}`)}, 400, "unsupported_parameter", "chunking_strategy"},
		{"include logprobs", []part{mediaPart(tone), field("include[]", "logprobs")}, 400, "unsupported_parameter", "include[]"},
		{"known speaker names", []part{mediaPart(tone), field("known_speaker_names[]", "agent")}, 400, "unsupported_parameter", "known_speaker_names[]"},
		{"misspelt field", []part{mediaPart(tone), field("chunking", "auto")}, 400, "bad_request", "chunking"},
	}
	desktop := []tc{
		{"stream with srt", []part{mediaPart(tone), field("stream", "true"), field("response_format", "srt")}, 400, "bad_request", "stream"},
		{"stream with vtt", []part{mediaPart(tone), field("stream", "true"), field("response_format", "vtt")}, 400, "bad_request", "stream"},
		{"stream with diarized_json", []part{mediaPart(tone), field("stream", "true"), field("response_format", "diarized_json")}, 400, "bad_request", "stream"},
		{"stream with json and a granularity", []part{mediaPart(tone), field("stream", "true"), field("timestamp_granularities[]", "segment")}, 400, "bad_request", "timestamp_granularities[]"},
	}
	headless := []tc{
		{"stream=True on headless", []part{mediaPart(tone), field("stream", "True")}, 400, "bad_request", "stream"},
		{"stream with verbose_json on headless", []part{mediaPart(tone), field("stream", "true"), field("response_format", "verbose_json")}, 400, "bad_request", "stream"},
	}
	for _, listener := range []string{"headless", "desktop"} {
		ts := scriptedServer(t, listener == "desktop", &scriptedASR{segs: twoSegments})
		tests := append(append([]tc(nil), common...), headless...)
		if listener == "desktop" {
			tests = append(append([]tc(nil), common...), desktop...)
		}
		for _, tt := range tests {
			r := postTranscription(t, ts, tt.parts)
			if r.status != tt.status {
				t.Errorf("%s/%s: POST = %d %s; want %d", listener, tt.name, r.status, r.body, tt.status)
				continue
			}
			e := r.envelope(t)
			if (tt.code != "" && e.Code != tt.code) || e.Param != tt.param {
				t.Errorf("%s/%s: POST = code %q param %q (%s); want code %q param %q", listener, tt.name, e.Code, e.Param, e.Message, tt.code, tt.param)
			}
		}
	}
	// chunking_strategy auto is what the recognizer does anyway.
	ts := scriptedServer(t, false, &scriptedASR{segs: twoSegments})
	if r := postTranscription(t, ts, []part{mediaPart(tone), field("chunking_strategy", "auto")}); r.status != 200 {
		t.Errorf("chunking_strategy=auto: POST = %d %s; want 200", r.status, r.body)
	}
	// A body that is not multipart.
	_, ts = newTestServer(t, Config{Models: transcriptionModels(t)})
	r := do(t, ts, "POST", "/v1/audio/transcriptions", strings.NewReader(`{"model":"Test/ASR-En"}`), map[string]string{"Content-Type": "application/json"})
	if e := r.envelope(t); r.status != 400 || e.Code != "bad_request" {
		t.Errorf("JSON body = %d %s; want 400 bad_request", r.status, r.body)
	}
}

// TestTranscriptionBodyLimit: the default limit is the spec's 512 MiB, and
// the limit is exact: a body of exactly the limit is read (and refused for
// its content), one byte more is a 413 request_too_large, declared or
// streamed.
func TestTranscriptionBodyLimit(t *testing.T) {
	s, _ := newTestServer(t, Config{Models: transcriptionModels(t)})
	if s.cfg.MaxBodyBytes != 512<<20 {
		t.Errorf("default MaxBodyBytes = %d; want 512 MiB", s.cfg.MaxBodyBytes)
	}
	const limit = 64 << 10
	_, ts := newTestServer(t, Config{MaxBodyBytes: limit, Models: transcriptionModels(t)})
	// A form whose size is exactly n bytes: the file part is padded.
	form := func(n int) (*bytes.Buffer, string) {
		empty, _ := transcriptionForm([]part{mediaPart([]byte{})})
		body, ct := transcriptionForm([]part{mediaPart(bytes.Repeat([]byte{'x'}, n-empty.Len()))})
		if body.Len() != n {
			t.Fatalf("form of %d bytes; want %d", body.Len(), n)
		}
		return body, ct
	}
	for _, tt := range []struct {
		size    int
		chunked bool
		status  int
	}{
		{limit, false, 400}, {limit + 1, false, 413},
		{limit, true, 400}, {limit + 1, true, 413},
	} {
		body, ct := form(tt.size)
		var rd io.Reader = body
		if tt.chunked {
			rd = struct{ *bytes.Buffer }{body} // hides the length: sent chunked
		}
		r := do(t, ts, "POST", "/v1/audio/transcriptions", rd, map[string]string{"Content-Type": ct})
		e := r.envelope(t)
		if r.status != tt.status || (tt.status == 413 && e.Code != "request_too_large") || (tt.status == 400 && e.Param != "file") {
			t.Errorf("body of %d bytes (chunked %v) = %d %s; want %d", tt.size, tt.chunked, r.status, r.body, tt.status)
		}
	}
}

// TestTranscriptionGranularityRules checks the rule table directly: which
// formats take granularities, and what stream needs, on both listeners.
func TestTranscriptionGranularityRules(t *testing.T) {
	m := transcriptionModels(t)
	formats := []string{"json", "verbose_json", "text", "srt", "vtt", "diarized_json"}
	for _, desktop := range []bool{false, true} {
		s := &Server{cfg: Config{Desktop: desktop}, models: m}
		for _, format := range formats {
			for _, gran := range []string{"", "word", "segment"} {
				for _, stream := range []string{"", "false", "true"} {
					fm := &form{values: map[string][]string{"model": {"Test/ASR-En"}, "response_format": {format}},
						files: map[string]*spooled{"file": {path: "x"}}}
					if gran != "" {
						fm.values["timestamp_granularities[]"] = []string{gran}
					}
					if stream != "" {
						fm.values["stream"] = []string{stream}
					}
					structured := format == "verbose_json" || format == "diarized_json"
					ok := (gran == "" || structured) && (stream != "true" || desktop && format == "json" && gran == "")
					_, err := s.parseTranscriptionRequest(fm)
					name := fmt.Sprintf("desktop=%v format=%s gran=%q stream=%q", desktop, format, gran, stream)
					if ok != (err == nil) {
						t.Errorf("%s: parse = %v; want accepted %v", name, err, ok)
						continue
					}
					var se *sotto.Error
					if err != nil && (!errors.As(err, &se) || !errors.Is(err, sotto.ErrInvalidRequest) || se.Param == "") {
						t.Errorf("%s: refusal %v is not a 400 naming a param", name, err)
					}
				}
			}
		}
	}
}

// A tag without a language of its own is no model's language: x/text's
// guess from its region or script ("und-US" → en) must not let it through.
func TestLanguageInUndetermined(t *testing.T) {
	for _, tc := range []struct {
		tag  string
		want bool
	}{
		{"en", true}, {"en-GB", true}, {"EN-us", true}, {"de", false},
		{"und", false}, {"und-US", false}, {"und-Zzzz", false}, {"und-Latn", false}, {"xx-invalid-", false},
	} {
		if got := languageIn(tc.tag, []string{"en"}); got != tc.want {
			t.Errorf("languageIn(%q, [en]) = %v; want %v", tc.tag, got, tc.want)
		}
	}
}
