package server

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/transcript"
)

// transcriptionModels is the real model manager over the embedded catalog
// plus testdata/transcription_catalog.json: Test/ASR-En (English, its file
// not downloaded) and Test/ASR-Any (every language, no files, and no loader
// in this build).
func transcriptionModels(t testing.TB) Models {
	t.Helper()
	m, err := models.New(models.Config{DataDir: t.TempDir(), CatalogFile: "testdata/transcription_catalog.json"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		m.Close(ctx)
	})
	return ManagedModels(m, CatalogExtensions)
}

// part is one multipart field; file parts carry content.
type part struct {
	name, value string
	file        []byte
}

func field(name, value string) part { return part{name: name, value: value} }

func mediaPart(b []byte) part { return part{name: "file", value: "a.wav", file: b} }

func transcriptionForm(parts []part) (*bytes.Buffer, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		if p.file != nil {
			fw, _ := mw.CreateFormFile(p.name, p.value)
			fw.Write(p.file)
			continue
		}
		mw.WriteField(p.name, p.value)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func postTranscription(t *testing.T, ts *httptestServer, parts []part) resp {
	t.Helper()
	body, ct := transcriptionForm(parts)
	return do(t, ts, "POST", "/v1/audio/transcriptions", body, map[string]string{"Content-Type": ct})
}

// TestTranscriptionErrors covers every error of the endpoint that needs no
// recognizer, on both listeners, through the real router and model manager.
func TestTranscriptionErrors(t *testing.T) {
	tone := toneWAV(0.5)
	en := field("model", "Test/ASR-En")
	type tc struct {
		name   string
		parts  []part
		status int
		code   string
		param  string
	}
	common := []tc{
		{"no file", []part{field("response_format", "json")}, 400, "bad_request", "file"},
		{"file as a text field is still a file", []part{en, field("response_format", "xml"), {name: "file", value: "x.wav", file: []byte{}}}, 400, "bad_request", "response_format"},
		{"second file field", []part{mediaPart(tone), {name: "audio", value: "b.wav", file: tone}}, 400, "bad_request", "audio"},
		{"unknown field", []part{mediaPart(tone), en, field("vad_filter", "true")}, 400, "bad_request", "vad_filter"},
		{"format xml", []part{mediaPart(tone), en, field("response_format", "xml")}, 400, "bad_request", "response_format"},
		{"conflicting repeats", []part{mediaPart(tone), en, field("response_format", "json"), field("response_format", "text")}, 400, "bad_request", "response_format"},
		{"word granularity with json", []part{mediaPart(tone), en, field("timestamp_granularities[]", "word")}, 400, "bad_request", "timestamp_granularities[]"},
		{"segment granularity with text", []part{mediaPart(tone), en, field("response_format", "text"), field("timestamp_granularities[]", "segment")}, 400, "bad_request", "timestamp_granularities[]"},
		{"granularity with srt", []part{mediaPart(tone), en, field("response_format", "srt"), field("timestamp_granularities", "word")}, 400, "bad_request", "timestamp_granularities[]"},
		{"unknown granularity", []part{mediaPart(tone), en, field("response_format", "verbose_json"), field("timestamp_granularities[]", "phone")}, 400, "bad_request", "timestamp_granularities[]"},
		{"stream not a boolean", []part{mediaPart(tone), en, field("stream", "maybe")}, 400, "bad_request", "stream"},
		{"temperature above 1", []part{mediaPart(tone), en, field("temperature", "1.2")}, 400, "bad_request", "temperature"},
		{"temperature not a number", []part{mediaPart(tone), en, field("temperature", "warm")}, 400, "bad_request", "temperature"},
		{"prompt not UTF-8", []part{mediaPart(tone), en, field("prompt", "\xff\xfe")}, 400, "bad_request", "prompt"},
		{"audio_track negative", []part{mediaPart(tone), en, field("audio_track", "-1")}, 400, "bad_request", "audio_track"},
		{"audio_channel bad", []part{mediaPart(tone), en, field("audio_channel", "left")}, 400, "bad_request", "audio_channel"},
		{"klingon", []part{mediaPart(tone), en, field("language", "tlh")}, 400, "asr_language_unsupported", "language"},
		{"klingon, default model", []part{mediaPart(tone), field("language", "tlh")}, 400, "asr_language_unsupported", "language"},
		{"not a tag", []part{mediaPart(tone), en, field("language", "!!not a tag")}, 400, "asr_language_unsupported", "language"},
		{"german for an English model", []part{mediaPart(tone), en, field("language", "de")}, 400, "asr_language_unsupported", "language"},
		{"unknown model", []part{mediaPart(tone), field("model", "Sotto/conformance-no-such-model")}, 404, "model_not_found", "model"},
		{"alignment model", []part{mediaPart(tone), field("model", "Sotto/Lattice-2")}, 400, "model_capability_unsupported", "model"},
		{"diarized_json, model not downloaded", []part{mediaPart(tone), en, field("response_format", "diarized_json"), field("timestamp_granularities[]", "word")}, 400, "model_not_downloaded", "model"},
		{"undecodable media", []part{mediaPart([]byte("RIFF but not a wave file")), en, field("language", "en-US")}, 400, "", "file"},
		{"model not downloaded", []part{mediaPart(tone), en, field("language", "en")}, 400, "model_not_downloaded", "model"},
		{"no loader in this build", []part{mediaPart(tone), field("model", "Test/ASR-Any"), field("language", "tlh"), field("temperature", "0")}, 501, "backend_unavailable", ""},
	}
	headless := []tc{
		{"stream on headless", []part{mediaPart(tone), en, field("stream", "true")}, 400, "bad_request", "stream"},
		{"stream=1 on headless", []part{mediaPart(tone), en, field("stream", "1")}, 400, "bad_request", "stream"},
	}
	desktop := []tc{
		{"stream with verbose_json", []part{mediaPart(tone), en, field("stream", "true"), field("response_format", "verbose_json")}, 400, "bad_request", "stream"},
		{"stream with text", []part{mediaPart(tone), en, field("stream", "true"), field("response_format", "text")}, 400, "bad_request", "stream"},
		{"stream with granularities", []part{mediaPart(tone), en, field("stream", "true"), field("response_format", "verbose_json"), field("timestamp_granularities[]", "word")}, 400, "bad_request", "stream"},
		{"stream, model not downloaded", []part{mediaPart(tone), en, field("stream", "true")}, 400, "model_not_downloaded", "model"},
	}
	for _, listener := range []string{"headless", "desktop"} {
		cfg := Config{Desktop: listener == "desktop", Models: transcriptionModels(t), DefaultTranscriptionModel: "Test/ASR-En"}
		_, ts := newTestServer(t, cfg)
		tests := append(append([]tc(nil), common...), headless...)
		if cfg.Desktop {
			tests = append(append([]tc(nil), common...), desktop...)
		}
		for _, tt := range tests {
			t.Run(listener+"/"+tt.name, func(t *testing.T) {
				r := postTranscription(t, ts, tt.parts)
				if r.status != tt.status {
					t.Fatalf("POST = %d %s; want %d", r.status, r.body, tt.status)
				}
				e := r.envelope(t)
				if (tt.code != "" && e.Code != tt.code) || e.Param != tt.param {
					t.Errorf("POST = code %q param %q (%s); want code %q param %q", e.Code, e.Param, e.Message, tt.code, tt.param)
				}
				if ct := r.header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("error Content-Type %q; want application/json", ct)
				}
			})
		}
	}
}

// TestTranscriptionWithoutModels: a build whose catalog has no transcription
// model refuses every language with asr_language_unsupported and a valid
// request with 501.
func TestTranscriptionWithoutModels(t *testing.T) {
	_, ts := newTestServer(t, Config{Models: emptyModels{}})
	r := postTranscription(t, ts, []part{mediaPart(toneWAV(0.2)), field("language", "en")})
	if e := r.envelope(t); r.status != 400 || e.Code != "asr_language_unsupported" || e.Param != "language" {
		t.Errorf("language en without models = %d %s; want 400 asr_language_unsupported", r.status, r.body)
	}
	r = postTranscription(t, ts, []part{mediaPart(toneWAV(0.2))})
	if e := r.envelope(t); r.status != 501 || e.Code != "capability_unavailable" {
		t.Errorf("no models = %d %s; want 501 capability_unavailable", r.status, r.body)
	}
}

// withoutEndpoint hides one endpoint path from every model of a catalog,
// as a build whose models do not serve it.
type withoutEndpoint struct {
	Models
	path string
}

func (m withoutEndpoint) hide(i ModelInfo) ModelInfo {
	i.SupportedEndpoints = slices.DeleteFunc(slices.Clone(i.SupportedEndpoints), func(p string) bool { return p == m.path })
	i.DefaultFor = slices.DeleteFunc(slices.Clone(i.DefaultFor), func(p string) bool { return p == m.path })
	return i
}

func (m withoutEndpoint) Info(id string) (ModelInfo, bool) {
	i, ok := m.Models.Info(id)
	return m.hide(i), ok
}

func (m withoutEndpoint) Infos() []ModelInfo {
	out := m.Models.Infos()
	for k := range out {
		out[k] = m.hide(out[k])
	}
	return out
}

// TestDiarizationUnsupported: without a model serving speaker timelines,
// diarized_json is a 422 diarization_unsupported, before any model runs.
func TestDiarizationUnsupported(t *testing.T) {
	_, ts := newTestServer(t, Config{Models: withoutEndpoint{transcriptionModels(t), pathTimelines}})
	for _, extra := range [][]part{nil, {field("timestamp_granularities[]", "word")}} {
		parts := append([]part{mediaPart(toneWAV(0.2)), field("model", "Test/ASR-En"), field("response_format", "diarized_json")}, extra...)
		r := postTranscription(t, ts, parts)
		if e := r.envelope(t); r.status != 422 || e.Code != "diarization_unsupported" || e.Param != "response_format" {
			t.Errorf("diarized_json without a timeline model = %d %s; want 422 diarization_unsupported", r.status, r.body)
		}
	}
}

// TestDefaultTranscriptionModel: Config.DefaultTranscriptionModel picks the
// model of a request that names none, and New refuses one the catalog
// cannot serve.
func TestDefaultTranscriptionModel(t *testing.T) {
	m := transcriptionModels(t)
	for _, tt := range []struct{ def, want string }{
		{"Test/ASR-En", "model_not_downloaded"},
		{"Test/ASR-Any", "backend_unavailable"},
	} {
		_, ts := newTestServer(t, Config{Models: m, DefaultTranscriptionModel: tt.def})
		r := postTranscription(t, ts, []part{mediaPart(toneWAV(0.2))})
		if e := r.envelope(t); e.Code != tt.want || !strings.Contains(e.Message, tt.def) {
			t.Errorf("default %s: POST = %d %s; want %s naming the model", tt.def, r.status, r.body, tt.want)
		}
	}
	for _, bad := range []string{"Test/Nope", "Sotto/Lattice-2"} {
		if _, err := New(Config{Models: m, SpoolDir: t.TempDir(), DefaultTranscriptionModel: bad}); err == nil {
			t.Errorf("New(DefaultTranscriptionModel %q) = nil error; want a refusal", bad)
		}
	}
}

// TestTranscriptionTooLarge: a declared body over the limit is a 413 before
// the body is read, and a multipart body that grows past it is a 413 too.
func TestTranscriptionTooLarge(t *testing.T) {
	_, ts := newTestServer(t, Config{MaxBodyBytes: 1 << 20, Models: transcriptionModels(t)})
	big := make([]byte, 2<<20)
	body, ct := transcriptionForm([]part{field("model", "Test/ASR-En"), mediaPart(big)})
	r := do(t, ts, "POST", "/v1/audio/transcriptions", body, map[string]string{"Content-Type": ct})
	if e := r.envelope(t); r.status != 413 || e.Code != "request_too_large" {
		t.Errorf("2 MiB over a 1 MiB limit = %d %s; want 413 request_too_large", r.status, r.body)
	}
	body, ct = transcriptionForm([]part{mediaPart(big)})
	r = do(t, ts, "POST", "/v1/audio/transcriptions", io.MultiReader(body), map[string]string{"Content-Type": ct})
	if r.status != 413 {
		t.Errorf("2 MiB chunked over a 1 MiB limit = %d %s; want 413", r.status, r.body)
	}
}

// TestTranscriptionOpenAPI: the route table documents the endpoint with its
// media types and statuses.
func TestTranscriptionOpenAPI(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	doc := s.openAPI()
	op := doc["paths"].(obj)["/v1/audio/transcriptions"].(obj)["post"].(obj)
	res := op["responses"].(obj)
	for _, st := range []string{"200", "400", "404", "413", "422", "503"} {
		if res[st] == nil {
			t.Errorf("OpenAPI lacks status %s for transcriptions", st)
		}
	}
	content := res["200"].(obj)["content"].(obj)
	for _, ct := range []string{"application/json", "text/plain", "application/x-subrip", "text/vtt", "text/event-stream"} {
		if content[ct] == nil {
			t.Errorf("OpenAPI 200 lacks %s", ct)
		}
	}
	req := doc["components"].(obj)["schemas"].(obj)["TranscriptionRequest"].(obj)["properties"].(obj)
	for _, f := range transcriptionFields {
		if req[f] == nil && f != "timestamp_granularities" {
			t.Errorf("OpenAPI TranscriptionRequest lacks field %s", f)
		}
	}
}

// FuzzTranscriptionRequest feeds arbitrary field values to the request
// parser: it must never panic, every refusal must be a *sotto.Error of a
// 4xx kind that names a param, and an accepted request must satisfy the
// spec's rules (granularities only with structured output; stream only on
// the desktop, with json and no granularities; a language inside the
// model's set).
func FuzzTranscriptionRequest(f *testing.F) {
	f.Add(true, "verbose_json", "word", "false", "en", "Test/ASR-En", "0", "")
	f.Add(false, "json", "", "true", "", "", "", "")
	f.Add(true, "json", "segment", "1", "tlh", "Test/ASR-Any", "0.5", "mix")
	f.Add(true, "diarized_json", "word", "", "de-AT", "Sotto/Lattice-2", "", "1")
	f.Add(false, "srt", "", "", "auto", "Nope/Model", "x", "left")
	m := transcriptionModels(f)
	f.Fuzz(func(t *testing.T, desktop bool, format, gran, stream, lang, model, temp, channel string) {
		s := &Server{cfg: Config{Desktop: desktop}, models: m}
		fm := &form{values: map[string][]string{}, files: map[string]*spooled{"file": {path: "x"}}}
		for name, v := range map[string]string{"response_format": format, "timestamp_granularities[]": gran,
			"stream": stream, "language": lang, "model": model, "temperature": temp, "audio_channel": channel} {
			if v != "" {
				fm.values[name] = []string{v}
			}
		}
		req, err := s.parseTranscriptionRequest(fm)
		if err != nil {
			resp := errorFor(err)
			if resp.status < 400 || resp.status >= 500 && resp.status != 501 {
				t.Fatalf("refusal %v maps to %d", err, resp.status)
			}
			if resp.status != 501 && resp.body.Error.Param == "" {
				t.Fatalf("refusal %v names no param", err)
			}
			return
		}
		if req.gran != (transcript.Granularities{}) && !req.format.Structured() {
			t.Fatalf("granularities accepted with %s", req.format)
		}
		if req.stream && (!desktop || req.format != "json" || req.gran != (transcript.Granularities{})) {
			t.Fatalf("stream accepted: desktop %v format %s gran %+v", desktop, req.format, req.gran)
		}
		if req.language != "" && !containsAny(req.model.Languages) && !languageIn(req.language, req.model.Languages) {
			t.Fatalf("language %q accepted for %s (%v)", req.language, req.model.ID, req.model.Languages)
		}
	})
}
