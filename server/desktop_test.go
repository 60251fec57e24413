package server

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"mime/multipart"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// toneWAV returns a 16 kHz mono 16-bit WAV of a 440 Hz tone.
func toneWAV(seconds float64) []byte {
	n := int(seconds * 16000)
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+2*n))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(16000), uint32(32000), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(2*n))
	for i := range n {
		binary.Write(&b, binary.LittleEndian, int16(8000*math.Sin(2*math.Pi*440*float64(i)/16000)))
	}
	return b.Bytes()
}

func alignForm(fields [][2]string, wav []byte) (*bytes.Buffer, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	if wav != nil {
		fw, _ := mw.CreateFormFile("file", "tone.wav")
		fw.Write(wav)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func TestDesktopOnlyInputs(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "t.txt")
	os.WriteFile(transcript, []byte("hello world"), 0o644)
	exported := filepath.Join(dir, "t.json")
	os.WriteFile(exported, []byte(`{"segments":[{"text":"Hello there. How are you?","start":0,"end":2.5,"speaker":"A"}]}`), 0o644)

	_, headless := newTestServer(t, Config{})
	_, desktop := newTestServer(t, Config{Desktop: true})

	body, ct := alignForm([][2]string{{"text_path", transcript}}, toneWAV(1))
	r := do(t, headless, "POST", "/v1/audio/alignments", body, map[string]string{"Content-Type": ct})
	if r.status != 400 || r.envelope(t).Param != "text_path" {
		t.Errorf("headless text_path = %d %s; want 400 param text_path", r.status, r.body)
	}
	body, ct = alignForm([][2]string{{"text_path", transcript}}, toneWAV(1))
	r = do(t, desktop, "POST", "/v1/audio/alignments", body, map[string]string{"Content-Type": ct})
	if r.status == 400 {
		t.Errorf("desktop text_path = %d %s; want it accepted", r.status, r.body)
	}
	body, ct = alignForm([][2]string{{"text_path", "relative.txt"}}, toneWAV(1))
	r = do(t, desktop, "POST", "/v1/audio/alignments", body, map[string]string{"Content-Type": ct})
	if r.status != 400 || r.envelope(t).Param != "text_path" {
		t.Errorf("desktop relative text_path = %d %s; want 400 param text_path", r.status, r.body)
	}

	seg := jsonBody(map[string]any{"file": exported})
	r = do(t, headless, "POST", "/v1/text/segmentations", seg, nil)
	if r.status != 400 {
		t.Errorf("headless file = %d %s; want 400", r.status, r.body)
	}
	r = do(t, desktop, "POST", "/v1/text/segmentations", jsonBody(map[string]any{"file": exported}), nil)
	var res struct {
		Task     string
		Segments []struct {
			Text    string
			Start   *float64
			Speaker *string
		}
	}
	if err := json.Unmarshal(r.body, &res); err != nil || r.status != 200 || len(res.Segments) != 2 ||
		res.Segments[0].Start == nil || res.Segments[0].Speaker == nil || *res.Segments[0].Speaker != "A" {
		t.Errorf("desktop file = %d %s; want two timed sentences of speaker A", r.status, r.body)
	}
}

func TestAlignmentValidation(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	wav := toneWAV(1)
	tests := []struct {
		name   string
		fields [][2]string
		wav    []byte
		status int
		code   string
		param  string
	}{
		{"no file", [][2]string{{"text", "hi"}}, nil, 400, "bad_request", "file"},
		{"no text", nil, wav, 400, "bad_request", "text"},
		{"empty text", [][2]string{{"text", "  "}}, wav, 400, "bad_request", "text"},
		{"turbo", [][2]string{{"text", "hi"}, {"search_effort", "turbo"}}, wav, 400, "bad_request", "search_effort"},
		{"lattice-1 und", [][2]string{{"text", "hi"}, {"model", "Sotto/Lattice-1"}, {"language", "und"}}, wav, 400, "bad_request", "language"},
		{"lattice-1 xx", [][2]string{{"text", "hi"}, {"model", "Sotto/Lattice-1"}, {"language", "xx"}}, wav, 400, "bad_request", "language"},
		{"lattice-1 ja", [][2]string{{"text", "hi"}, {"model", "Sotto/Lattice-1"}, {"language", "ja"}}, wav, 422, "language_unsupported", "language"},
		{"skylark", [][2]string{{"text", "hi"}, {"model", "Sotto/Skylark"}}, wav, 400, "model_capability_unsupported", "model"},
		{"unknown model", [][2]string{{"text", "hi"}, {"model", "Sotto/none"}}, wav, 404, "model_not_found", "model"},
		{"start > end", [][2]string{{"text", "hi"}, {"start", "2"}, {"end", "1"}}, wav, 400, "bad_request", "end"},
		{"start = end", [][2]string{{"text", "hi"}, {"start", "1"}, {"end", "1"}}, wav, 400, "bad_request", "end"},
		{"negative start", [][2]string{{"text", "hi"}, {"start", "-0.5"}, {"end", "0.5"}}, wav, 400, "bad_request", "start"},
		{"start alone", [][2]string{{"text", "hi"}, {"start", "0.2"}}, wav, 400, "bad_request", "end"},
		{"start not a number", [][2]string{{"text", "hi"}, {"start", "abc"}, {"end", "1"}}, wav, 400, "bad_request", "start"},
		{"window past the audio", [][2]string{{"text", "hi"}, {"start", "5"}, {"end", "6"}}, wav, 400, "bad_request", "end"},
		{"track conflict", [][2]string{{"text", "hi"}, {"audio_track", "0"}, {"audio_track", "1"}}, wav, 400, "bad_request", "audio_track"},
		{"channel conflict", [][2]string{{"text", "hi"}, {"audio_channel", "mix"}, {"audio_channel", "0"}}, wav, 400, "bad_request", "audio_channel"},
		{"channel out of range", [][2]string{{"text", "hi"}, {"audio_channel", "3"}}, wav, 400, "bad_request", "audio_channel"},
		{"track out of range", [][2]string{{"text", "hi"}, {"audio_track", "1"}}, wav, 400, "bad_request", "audio_track"},
		{"semantic false with min_chars", [][2]string{{"text", "hi"}, {"semantic_sentence_enabled", "false"}, {"min_chars", "10"}}, wav, 400, "bad_request", "semantic_sentence_enabled"},
		{"min above max", [][2]string{{"text", "hi"}, {"min_chars", "50"}, {"max_chars", "20"}}, wav, 400, "bad_request", "min_chars"},
		{"tn disabled with top_k", [][2]string{{"text", "hi"}, {"text_normalization", `{"enabled":false,"top_k":3}`}}, wav, 400, "bad_request", "text_normalization.top_k"},
		{"tn top_k 17", [][2]string{{"text", "hi"}, {"text_normalization", `{"enabled":true,"top_k":17}`}}, wav, 400, "bad_request", "text_normalization.top_k"},
		{"tn pins without enabled", [][2]string{{"text", "hi"}, {"text_normalization", `{"pins":[{"source_start_byte":0,"source_end_byte":2,"rank":1}]}`}}, wav, 400, "bad_request", "text_normalization.pins"},
		{"tn not JSON", [][2]string{{"text", "hi"}, {"text_normalization", `{enabled: nope`}}, wav, 400, "bad_request", "text_normalization"},
		{"tn unknown field", [][2]string{{"text", "hi"}, {"text_normalization", `{"enabled":true,"bogus":1}`}}, wav, 400, "bad_request", "text_normalization.bogus"},
		{"tn an array", [][2]string{{"text", "hi"}, {"text_normalization", `[]`}}, wav, 400, "bad_request", "text_normalization"},
		{"tn top_k a string", [][2]string{{"text", "hi"}, {"text_normalization", `{"enabled":true,"top_k":"3"}`}}, wav, 400, "bad_request", "text_normalization.top_k"},
		{"not audio", [][2]string{{"text", "hi"}}, []byte("this is not audio at all"), 400, "unsupported_audio_format", "file"},
	}
	for _, tt := range tests {
		body, ct := alignForm(tt.fields, tt.wav)
		r := do(t, ts, "POST", "/v1/audio/alignments", body, map[string]string{"Content-Type": ct})
		if r.status != tt.status {
			t.Errorf("%s = %d %s; want %d", tt.name, r.status, r.body, tt.status)
			continue
		}
		e := r.envelope(t)
		if e.Code != tt.code || e.Param != tt.param {
			t.Errorf("%s = %s param %q; want %s param %q", tt.name, e.Code, e.Param, tt.code, tt.param)
		}
		// An object without enabled is off: the message says so, since
		// the user who sent pins alone meant normalization on.
		if tt.name == "tn pins without enabled" && !strings.Contains(e.Message, `without "enabled": true`) {
			t.Errorf("%s: message %q does not say that enabled was left out", tt.name, e.Message)
		}
		// Messages speak JSON, not the server's Go types.
		if strings.Contains(e.Message, "server.") || strings.Contains(e.Message, "Go value") {
			t.Errorf("%s: message %q names a Go type", tt.name, e.Message)
		}
	}
}
