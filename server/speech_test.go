package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/sphinx"
	"github.com/sottolabs/sotto/internal/voicelib"
	"github.com/sottolabs/sotto/tts"
)

// speechServer serves the default catalog with the real speech loaders
// (flite and espeak-ng run as programs).
func speechServer(t *testing.T, desktop bool) *httptestServer {
	t.Helper()
	ts, _ := speechServerManager(t, desktop)
	return ts
}

// speechServerManager is speechServer with its model manager.
func speechServerManager(t *testing.T, desktop bool) (*httptestServer, *models.Manager) {
	t.Helper()
	for _, p := range []string{"flite", "espeak-ng"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (make deps installs it)", p)
		}
	}
	m, err := models.New(models.Config{DataDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	loaders.Register(m)
	lib, err := voicelib.Open(context.Background(), filepath.Join(t.TempDir(), "voices.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	_, ts := newTestServer(t, Config{Desktop: desktop, Models: ManagedModels(m, CatalogExtensions), Voices: lib, Logger: testLogger(t)})
	return ts, m
}

func postSpeech(t *testing.T, ts *httptestServer, body map[string]any) resp {
	t.Helper()
	return do(t, ts, "POST", "/v1/audio/speech", jsonBody(body), map[string]string{"Content-Type": "application/json"})
}

func TestSpeechValidation(t *testing.T) {
	ts := speechServer(t, false)
	base := func(over map[string]any) map[string]any {
		b := map[string]any{"model": "Sotto/Flite", "voice": "builtin:auto", "input": "Hello there."}
		for k, v := range over {
			if v == nil {
				delete(b, k)
			} else {
				b[k] = v
			}
		}
		return b
	}
	for _, tc := range []struct {
		name   string
		over   map[string]any
		status int
		code   string
		param  string
	}{
		{"no model", map[string]any{"model": nil}, 400, "bad_request", "model"},
		{"unknown model", map[string]any{"model": "Sotto/Nope"}, 404, "model_not_found", "model"},
		{"alignment model", map[string]any{"model": "Sotto/Lattice-2"}, 400, "model_capability_unsupported", "model"},
		{"no voice", map[string]any{"voice": nil}, 400, "bad_request", "voice"},
		{"unknown voice", map[string]any{"voice": "builtin:nonesuch"}, 400, "bad_request", "voice"},
		{"unknown user voice", map[string]any{"voice": "user:3f1c0d8e-6a0b-4f7e-9a41-2c9a4b8e7d10"}, 404, "voice_not_found", "voice"},
		{"no input", map[string]any{"input": nil}, 400, "bad_request", "input"},
		{"empty input", map[string]any{"input": "  "}, 400, "bad_request", "input"},
		{"input and segments", map[string]any{"segments": []any{map[string]any{"input": "x"}}}, 400, "bad_request", "input"},
		{"empty segments", map[string]any{"input": nil, "segments": []any{}}, 400, "bad_request", "segments"},
		{"segment without input", map[string]any{"input": nil, "segments": []any{map[string]any{"voice": "builtin:rms"}}}, 400, "bad_request", "segments[0].input"},
		{"temperature low", map[string]any{"temperature": 0.05}, 400, "bad_request", "temperature"},
		{"temperature high", map[string]any{"temperature": 2.5}, 400, "bad_request", "temperature"},
		{"top_p low", map[string]any{"top_p": 0.05}, 400, "bad_request", "top_p"},
		{"top_p high", map[string]any{"top_p": 1.5}, 400, "bad_request", "top_p"},
		{"top_k 0", map[string]any{"top_k": 0}, 400, "bad_request", "top_k"},
		{"top_k 101", map[string]any{"top_k": 101}, 400, "bad_request", "top_k"},
		{"repetition_penalty", map[string]any{"repetition_penalty": 0.5}, 400, "bad_request", "repetition_penalty"},
		{"speed", map[string]any{"speed": 10}, 400, "bad_request", "speed"},
		{"segment speed", map[string]any{"input": nil, "segments": []any{map[string]any{"input": "x", "speed": 0.1}}}, 400, "bad_request", "segments[0].speed"},
		{"inference_steps", map[string]any{"inference_steps": 0}, 400, "bad_request", "inference_steps"},
		{"style_instruction", map[string]any{"style_instruction": "cheerful"}, 400, "bad_request", "style_instruction"},
		{"disable_style with instructions", map[string]any{"disable_style": true, "instructions": "Cheerful."}, 400, "conflicting_speech_instructions", "disable_style"},
		{"segment disable_style with instructions", map[string]any{"input": nil, "segments": []any{map[string]any{"input": "x", "disable_style": true, "instructions": "Whisper."}}}, 400, "conflicting_speech_instructions", "segments[0].disable_style"},
		{"instructions with a specific voice", map[string]any{"instructions": "Cheerful."}, 400, "bad_request", "instructions"},
		{"design without instructions", map[string]any{"voice": "builtin:design"}, 400, "bad_request", "instructions"},
		{"response_format mp3", map[string]any{"response_format": "mp3"}, 400, "bad_request", "response_format"},
		{"stream_format", map[string]any{"stream_format": "bogus"}, 400, "bad_request", "stream_format"},
		{"headless sample_rate", map[string]any{"sample_rate": 16000}, 400, "bad_request", "sample_rate"},
		{"clone_recipe", map[string]any{"clone_recipe": "controllable"}, 400, "clone_recipe_requires_clone", "clone_recipe"},
		{"clone_recipe value", map[string]any{"clone_recipe": "best"}, 400, "bad_request", "clone_recipe"},
		{"bad tag", map[string]any{"language": "!!not a tag"}, 400, "bad_request", "language"},
		{"language outside the model", map[string]any{"language": "tlh"}, 422, "language_unsupported", "language"},
		{"German on the English model", map[string]any{"language": "de"}, 422, "language_unsupported", "language"},
		{"unknown field", map[string]any{"volume": 3}, 400, "bad_request", "volume"},
		{"nothing to speak", map[string]any{"input": "😀 ... !"}, 400, "bad_request", "input"},
		{"text too long for a WAV", map[string]any{"input": strings.Repeat("Hello there. ", 6000)}, 400, "bad_request", "input"},
		{"segments too long for a WAV", map[string]any{"input": nil, "segments": []any{map[string]any{"input": strings.Repeat("Hi. ", 9000)}, map[string]any{"input": strings.Repeat("Hi. ", 9000)}}}, 400, "bad_request", "segments"},
		{"text too long even for SSE", map[string]any{"stream_format": "sse", "input": strings.Repeat("Hello there. ", 90000)}, 400, "bad_request", "input"},
		{"segments with nothing to speak", map[string]any{"input": nil, "segments": []any{map[string]any{"input": "..."}, map[string]any{"input": "—"}}}, 400, "bad_request", "segments"},
		{"Japanese text on the English model", map[string]any{"input": "東京は日本の首都です。"}, 422, "language_unsupported", "input"},
		{"Japanese segment on the English model", map[string]any{"input": nil, "segments": []any{map[string]any{"input": "Hello."}, map[string]any{"input": "東京は日本の首都です。"}}}, 422, "language_unsupported", "segments[1].input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := postSpeech(t, ts, base(tc.over))
			if r.status != tc.status {
				t.Fatalf("status = %d (%s); want %d", r.status, r.body, tc.status)
			}
			e := r.envelope(t)
			if e.Code != tc.code || e.Param != tc.param {
				t.Errorf("code, param = %q, %q; want %q, %q (%s)", e.Code, e.Param, tc.code, tc.param, e.Message)
			}
		})
	}
}

// wavOf checks that b is a WAV file and returns its samples and rate.
func wavOf(t *testing.T, b []byte) ([]float32, int) {
	t.Helper()
	a, info, err := audio.Decode(context.Background(), bytes.NewReader(b), audio.Options{})
	if err != nil {
		t.Fatalf("response is not a WAV file: %v", err)
	}
	return a.Samples, info.SampleRate
}

func TestSpeechWAV(t *testing.T) {
	ts := speechServer(t, false)
	r := postSpeech(t, ts, map[string]any{"model": "Sotto/Flite", "voice": "builtin:auto", "input": "It costs $12.50. See you at 3:30 pm.", "seed": 7})
	if r.status != 200 || r.header.Get("Content-Type") != "audio/wav" {
		t.Fatalf("status %d, %s: %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	s, rate := wavOf(t, r.body)
	if rate != 16000 || len(s) < 16000 {
		t.Fatalf("WAV of %d samples at %d Hz; want over a second at 16000 Hz", len(s), rate)
	}
	again := postSpeech(t, ts, map[string]any{"model": "Sotto/Flite", "voice": "builtin:auto", "input": "It costs $12.50. See you at 3:30 pm.", "seed": 7})
	if !bytes.Equal(again.body, r.body) {
		t.Error("the same request and seed gave different bytes")
	}
	// Segments inherit the voice; a segment may change it (the 8 kHz voice
	// is resampled to the first segment's rate).
	seg := postSpeech(t, ts, map[string]any{"model": "Sotto/Flite", "voice": "builtin:slt", "segments": []any{
		map[string]any{"input": "First part."}, map[string]any{"input": "Second part.", "voice": "builtin:kal", "speed": 1.5}}})
	if seg.status != 200 {
		t.Fatalf("segments: %d %s", seg.status, seg.body)
	}
	if _, rate := wavOf(t, seg.body); rate != 16000 {
		t.Errorf("segments WAV at %d Hz; want the first voice's 16000", rate)
	}
	if v := seg.header.Get("X-Sotto-Voice"); v != "builtin:slt" {
		t.Errorf("X-Sotto-Voice = %q; want builtin:slt", v)
	}
	// builtin:design reports what it applied.
	d := postSpeech(t, ts, map[string]any{"model": "Sotto/Flite", "voice": "builtin:design", "input": "Hello.", "instructions": "A slow female voice."})
	var design struct {
		Voice   string   `json:"voice"`
		Speed   float64  `json:"speed"`
		Applied []string `json:"applied"`
	}
	if d.status != 200 || json.Unmarshal([]byte(d.header.Get("X-Sotto-Voice-Design")), &design) != nil {
		t.Fatalf("design: %d %s, header %q", d.status, d.body, d.header.Get("X-Sotto-Voice-Design"))
	}
	if design.Voice != "builtin:slt" || design.Speed != 0.8 {
		t.Errorf("design = %+v; want slt at speed 0.8", design)
	}
	// Without a language, builtin:auto speaks the text's language: German
	// text on espeak-ng gets its German voice, English text its default.
	for _, c := range [][2]string{{"Der Zug fährt heute um acht Uhr ab, und wir sind noch nicht da.", "builtin:de"}, {"The train leaves at eight.", "builtin:en-us"}} {
		r := postSpeech(t, ts, map[string]any{"model": "Sotto/eSpeak", "voice": "builtin:auto", "input": c[0]})
		if r.status != 200 || r.header.Get("X-Sotto-Voice") != c[1] {
			t.Errorf("builtin:auto on %q: %d, voice %q; want %s", c[0], r.status, r.header.Get("X-Sotto-Voice"), c[1])
		}
	}
	// English text with a few words another language shares stays with
	// the English model's voice rather than failing.
	if r := postSpeech(t, ts, map[string]any{"model": "Sotto/Flite", "voice": "builtin:auto", "input": "Die Hard is on at eight."}); r.status != 200 {
		t.Errorf("English text on Flite: %d %s; want 200", r.status, r.body)
	}
	// espeak-ng speaks German; builtin:auto picks its German voice.
	de := postSpeech(t, ts, map[string]any{"model": "Sotto/eSpeak", "voice": "builtin:auto", "language": "de", "input": "Guten Tag."})
	if de.status != 200 || de.header.Get("X-Sotto-Voice") != "builtin:de" {
		t.Fatalf("German: %d, voice %q: %s", de.status, de.header.Get("X-Sotto-Voice"), de.body)
	}
}

// sseEvents parses an event stream into (name, data) pairs.
func sseEvents(t *testing.T, body []byte) [][2]string {
	t.Helper()
	var out [][2]string
	var name string
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			out = append(out, [2]string{name, strings.TrimPrefix(line, "data: ")})
		}
	}
	return out
}

func TestSpeechSSE(t *testing.T) {
	for _, desktop := range []bool{false, true} {
		ts := speechServer(t, desktop)
		body := map[string]any{"model": "Sotto/Flite", "voice": "builtin:auto", "stream_format": "sse",
			"input": "First sentence. Second sentence. And a third one."}
		if desktop {
			body["sample_rate"] = 16000 // the native rate: accepted on the desktop listener
		}
		r := postSpeech(t, ts, body)
		if r.status != 200 || r.header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("desktop=%v: %d %s", desktop, r.status, r.body)
		}
		ev := sseEvents(t, r.body)
		var names []string
		for _, e := range ev {
			names = append(names, e[0])
		}
		want := "speech.audio.delta x_sotto.speech.marks speech.audio.delta x_sotto.speech.marks speech.audio.delta x_sotto.speech.marks speech.audio.done"
		if strings.Join(names, " ") != want {
			t.Fatalf("events = %v; want a delta and its marks per sentence, then speech.audio.done", names)
		}
		var wav []byte
		var words []string
		for _, e := range ev[:6] {
			if e[0] == eventSpeechMarks {
				var m speechMarks
				if err := json.Unmarshal([]byte(e[1]), &m); err != nil {
					t.Fatal(err)
				}
				for _, x := range m.Marks {
					words = append(words, x.Word)
				}
				// flite's English voices are timed from flite's own phones.
				if _, err := os.Stat(sphinx.DefaultDictPath); err == nil && m.Source != tts.MarksEngine {
					t.Errorf("marks source = %q; want %q for a flite voice", m.Source, tts.MarksEngine)
				}
				continue
			}
			var d speechDelta
			if json.Unmarshal([]byte(e[1]), &d) != nil {
				t.Fatalf("event %q %s", e[0], e[1])
			}
			b, err := base64.StdEncoding.DecodeString(d.Audio)
			if err != nil {
				t.Fatal(err)
			}
			wav = append(wav, b...)
		}
		if alignModel() && strings.Join(words, " ") != "First sentence Second sentence And a third one" {
			t.Errorf("marks = %q; want every word", words)
		}
		if !bytes.HasPrefix(wav, []byte("RIFF")) {
			t.Fatal("the first delta does not start with the WAV header")
		}
		// The streamed file, its placeholder sizes set, decodes to the same
		// audio as the whole-file response.
		copy(wav, audio.WAVHeader(16000, len(wav)-44))
		got, _ := wavOf(t, wav)
		delete(body, "stream_format")
		whole, _ := wavOf(t, postSpeech(t, ts, body).body)
		if len(got) != len(whole) {
			t.Errorf("streamed %d samples, whole file %d", len(got), len(whole))
		}
	}
	ts := speechServer(t, true)
	r := postSpeech(t, ts, map[string]any{"model": "Sotto/Flite", "voice": "builtin:auto", "input": "Hi.", "sample_rate": 12345})
	if r.status != http.StatusBadRequest || r.envelope(t).Param != "sample_rate" {
		t.Errorf("desktop non-native sample_rate: %d %s; want 400 sample_rate", r.status, r.body)
	}
}

// espeak-ng's marks come from a forced alignment that runs after the audio
// is sent: the event order stays a delta then its marks, per sentence.
func TestSpeechSSEAlignedMarks(t *testing.T) {
	if !alignModel() {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	ts := speechServer(t, false)
	r := postSpeech(t, ts, map[string]any{"model": "Sotto/eSpeak", "voice": "builtin:en-us", "stream_format": "sse",
		"input": "First sentence. Second sentence."})
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var names, words []string
	for _, e := range sseEvents(t, r.body) {
		names = append(names, e[0])
		if e[0] != eventSpeechMarks {
			continue
		}
		var m speechMarks
		if err := json.Unmarshal([]byte(e[1]), &m); err != nil {
			t.Fatal(err)
		}
		if m.Source != tts.MarksAlignment {
			t.Errorf("marks source = %q; want %q for an espeak-ng voice", m.Source, tts.MarksAlignment)
		}
		for _, x := range m.Marks {
			words = append(words, x.Word)
		}
	}
	want := "speech.audio.delta x_sotto.speech.marks speech.audio.delta x_sotto.speech.marks speech.audio.done"
	if strings.Join(names, " ") != want {
		t.Fatalf("events = %v; want %s", names, want)
	}
	if strings.Join(words, " ") != "First sentence Second sentence" {
		t.Errorf("marks = %q; want every word", words)
	}
}

// alignModel reports whether the Debian acoustic model the marks are
// aligned with is installed.
func alignModel() bool {
	_, err := os.Stat("/usr/share/pocketsphinx/model/en-us/en-us/mdef")
	return err == nil
}

func TestSpeechSSEWithoutMarks(t *testing.T) {
	ts := speechServer(t, false)
	r := postSpeech(t, ts, map[string]any{"model": "Sotto/Flite", "voice": "builtin:auto", "stream_format": "sse",
		"input": "One. Two.", "x_sotto": map[string]any{"marks": false}})
	for _, e := range sseEvents(t, r.body) {
		if e[0] == eventSpeechMarks {
			t.Fatal("x_sotto.marks false still sent marks")
		}
	}
}

func TestVoices(t *testing.T) {
	ts, m := speechServerManager(t, false)
	r := do(t, ts, "GET", "/v1/audio/voices", nil, nil)
	var list struct {
		Object string       `json:"object"`
		Data   []voiceEntry `json:"data"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &list) != nil || list.Object != "list" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	n := map[string]int{}
	for _, v := range list.Data {
		n[v.Model]++
		if !strings.HasPrefix(v.ID, "builtin:") || len(v.Languages) == 0 || v.SampleRate == 0 {
			t.Errorf("voice %+v lacks an ID, languages or rate", v)
		}
	}
	if n["Sotto/Flite"] < 3 || n["Sotto/eSpeak"] < 50 || n["Sotto/Clone"] != n["Sotto/Flite"]+n["Sotto/eSpeak"] {
		t.Errorf("voices per model = %v; want flite's voices, espeak-ng's languages and the clone model's both", n)
	}
	// Listing loads no model: the speech models are listed from their
	// programs and configs, not acquired (which loaded each, could evict
	// a loaded language model and waited in each model's queue).
	if running := m.Running().Data; len(running) != 0 {
		t.Errorf("after listing voices, loaded models: %+v; want none", running)
	}
	// ?model= keeps one model's voices.
	r = do(t, ts, "GET", "/v1/audio/voices?model=Sotto/Flite", nil, nil)
	list.Data = nil
	if r.status != 200 || json.Unmarshal(r.body, &list) != nil || len(list.Data) != n["Sotto/Flite"] {
		t.Fatalf("?model=Sotto/Flite: %d, %d voices; want 200 and %d", r.status, len(list.Data), n["Sotto/Flite"])
	}
	for _, v := range list.Data {
		if v.Model != "Sotto/Flite" {
			t.Errorf("?model=Sotto/Flite lists %s of %s", v.ID, v.Model)
		}
	}
	for _, c := range []struct {
		query  string
		status int
		code   string
	}{
		{"model=Sotto/Nope", 404, "model_not_found"},
		{"model=Sotto/Lattice-1", 400, "model_capability_unsupported"}, // not a speech model
		{"model=", 400, "bad_request"},
	} {
		r := do(t, ts, "GET", "/v1/audio/voices?"+c.query, nil, nil)
		if e := r.envelope(t); r.status != c.status || e.Code != c.code || e.Param != "model" {
			t.Errorf("?%s: %d %s; want %d %s, param model", c.query, r.status, r.body, c.status, c.code)
		}
	}
}

func TestVoiceLibrary(t *testing.T) {
	ts := speechServer(t, false)
	hdr := map[string]string{"Content-Type": "application/json"}
	create := func(body map[string]any) resp {
		return do(t, ts, "POST", "/v1/audio/voices", jsonBody(body), hdr)
	}
	for _, tc := range []struct {
		body        map[string]any
		status      int
		code, param string
	}{
		{map[string]any{"model": "Sotto/Flite", "base_voice": "builtin:rms"}, 400, "bad_request", "name"},
		{map[string]any{"name": "x", "model": "Sotto/Nope", "base_voice": "builtin:rms"}, 404, "model_not_found", "model"},
		{map[string]any{"name": "x", "model": "Sotto/Flite", "base_voice": "builtin:de"}, 400, "bad_request", "base_voice"},
		{map[string]any{"name": "x", "model": "Sotto/Flite", "base_voice": "builtin:rms", "speed": 9}, 400, "bad_request", "speed"},
		{map[string]any{"name": "x", "model": "Sotto/Flite", "base_voice": "builtin:rms", "instructions": "cheerful"}, 400, "bad_request", "instructions"},
		{map[string]any{"name": "x", "model": "Sotto/Flite", "base_voice": "builtin:design"}, 400, "bad_request", "design"},
		{map[string]any{"name": "x", "model": "Sotto/Flite", "base_voice": "builtin:rms", "colour": "red"}, 400, "bad_request", "colour"},
	} {
		r := create(tc.body)
		if r.status != tc.status {
			t.Errorf("create %v: %d %s; want %d", tc.body, r.status, r.body, tc.status)
			continue
		}
		if e := r.envelope(t); e.Code != tc.code || e.Param != tc.param {
			t.Errorf("create %v: %s %s; want %s %s", tc.body, e.Code, e.Param, tc.code, tc.param)
		}
	}
	r := create(map[string]any{"name": "Slow narrator", "model": "Sotto/Flite", "base_voice": "builtin:slt", "speed": 0.8})
	var v voicelib.Voice
	if r.status != 201 || json.Unmarshal(r.body, &v) != nil || !strings.HasPrefix(v.ID, "user:") {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	// The saved voice speaks, with its speed; an explicit speed wins.
	slow := postSpeech(t, ts, map[string]any{"model": "Sotto/Flite", "voice": v.ID, "input": "Good evening to you all."})
	normal := postSpeech(t, ts, map[string]any{"model": "Sotto/Flite", "voice": v.ID, "input": "Good evening to you all.", "speed": 1})
	if slow.status != 200 || slow.header.Get("X-Sotto-Voice") != "builtin:slt" || len(slow.body) <= len(normal.body) {
		t.Fatalf("saved voice: %d, voice %q, %d bytes vs %d at speed 1", slow.status, slow.header.Get("X-Sotto-Voice"), len(slow.body), len(normal.body))
	}
	if r := postSpeech(t, ts, map[string]any{"model": "Sotto/eSpeak", "voice": v.ID, "input": "Hi."}); r.status != 400 || r.envelope(t).Param != "voice" {
		t.Errorf("saved voice with another model: %d %s; want 400 voice", r.status, r.body)
	}
	// Read, list, change, delete.
	if g := do(t, ts, "GET", "/v1/audio/voices/"+v.ID, nil, nil); g.status != 200 || !strings.Contains(string(g.body), "Slow narrator") {
		t.Errorf("get: %d %s", g.status, g.body)
	}
	if l := do(t, ts, "GET", "/v1/audio/voices", nil, nil); !strings.Contains(string(l.body), v.ID) {
		t.Errorf("the list lacks the saved voice")
	}
	if l := do(t, ts, "GET", "/v1/audio/voices?model=Sotto/Flite", nil, nil); !strings.Contains(string(l.body), v.ID) {
		t.Errorf("the list of its model lacks the saved voice")
	}
	if l := do(t, ts, "GET", "/v1/audio/voices?model=Sotto/eSpeak", nil, nil); l.status != 200 || strings.Contains(string(l.body), v.ID) {
		t.Errorf("the list of another model: %d, lists the saved voice of Sotto/Flite: %v", l.status, strings.Contains(string(l.body), v.ID))
	}
	p := do(t, ts, "PATCH", "/v1/audio/voices/"+v.ID, jsonBody(map[string]any{"name": "Quick", "speed": 1.5}), hdr)
	if p.status != 200 || !strings.Contains(string(p.body), `"speed":1.5`) {
		t.Errorf("patch: %d %s", p.status, p.body)
	}
	if p := do(t, ts, "PATCH", "/v1/audio/voices/"+v.ID, jsonBody(map[string]any{"base_voice": "builtin:nonesuch"}), hdr); p.status != 400 {
		t.Errorf("patch to an unknown base voice: %d %s; want 400", p.status, p.body)
	}
	if d := do(t, ts, "DELETE", "/v1/audio/voices/"+v.ID, nil, nil); d.status != 200 {
		t.Errorf("delete: %d %s", d.status, d.body)
	}
	for _, m := range []string{"GET", "DELETE"} {
		if g := do(t, ts, m, "/v1/audio/voices/"+v.ID, nil, nil); g.status != 404 || g.envelope(t).Code != "voice_not_found" {
			t.Errorf("%s after delete: %d %s; want 404 voice_not_found", m, g.status, g.body)
		}
	}
}
