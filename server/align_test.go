package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/testdata"
)

const jfkText = "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."

// alignServer returns a server whose catalog aligns with the real Debian
// model, or skips.
func alignServer(t *testing.T) (*httptest_server, []byte) {
	t.Helper()
	return alignServerWith(t, models.Config{})
}

// alignServerWith is alignServer with runtime settings (queue sizes).
func alignServerWith(t *testing.T, mc models.Config) (*httptest_server, []byte) {
	t.Helper()
	wav := speechFile(t, "en_jfk_16k.wav")
	if _, err := os.Stat("/usr/share/pocketsphinx/model/en-us/en-us/mdef"); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	mc.DataDir, mc.Logger = t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil))
	m, err := models.New(mc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	loaders.Register(m)
	_, ts := newTestServer(t, Config{Models: ManagedModels(m, CatalogExtensions), Logger: testLogger(t)})
	return ts, wav
}

type httptest_server = httptestServer

func speechFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(testdata.Path(t, "speech", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func postAlign(t *testing.T, ts *httptestServer, fields [][2]string, wav []byte, hdr map[string]string) resp {
	t.Helper()
	body, ct := alignForm(fields, wav)
	h := map[string]string{"Content-Type": ct}
	for k, v := range hdr {
		h[k] = v
	}
	return do(t, ts, "POST", "/v1/audio/alignments", body, h)
}

func TestAlignmentResult(t *testing.T) {
	ts, wav := alignServer(t)
	r := postAlign(t, ts, [][2]string{{"text", jfkText}, {"language", "en"}}, wav, nil)
	var res align.Alignment
	if err := json.Unmarshal(r.body, &res); err != nil || r.status != 200 {
		t.Fatalf("align = %d %s", r.status, r.body)
	}
	if res.Task != "align" || res.Duration < 10.9 || res.Usage.Seconds < 10.9 || res.Usage.Type != "duration" || res.SearchEffortUsed != "standard" {
		t.Errorf("result header = %+v", res)
	}
	n := 0
	for i, s := range res.Segments {
		if s.ID != i || s.Start > s.End {
			t.Errorf("segment %d = %+v", i, s)
		}
		n += len(s.Words)
	}
	if n != 22 {
		t.Errorf("%d words; want 22", n)
	}
	if !bytes.Contains(r.body, []byte(`"speaker":null`)) {
		t.Errorf("segments lack speaker null: %s", r.body)
	}
}

func TestAlignmentWindowAndNormalization(t *testing.T) {
	ts, wav := alignServer(t)
	r := postAlign(t, ts, [][2]string{{"text", "ask what you can do for your country"}, {"start", "8"}, {"end", "11"}}, wav, nil)
	var res align.Alignment
	if err := json.Unmarshal(r.body, &res); err != nil || r.status != 200 {
		t.Fatalf("windowed align = %d %s", r.status, r.body)
	}
	if res.Usage.Seconds < 2.99 || res.Usage.Seconds > 3.01 || res.Duration < 10.9 {
		t.Errorf("usage %v duration %v; want the 3 s window and the 11 s media", res.Usage.Seconds, res.Duration)
	}
	if w := res.Segments[0].Words[0]; w.Start < 8 {
		t.Errorf("first word %+v starts before the window; times must stay relative to the original audio", w)
	}
	r = postAlign(t, ts, [][2]string{{"text", "ask not what your country can do for you, ask what you can do for your 1 country"},
		{"text_normalization", `{"enabled": true, "top_k": 2}`}}, wav, nil)
	if r.status != 200 || !bytes.Contains(r.body, []byte(`"normalization_regions"`)) {
		t.Errorf("normalized align = %d %s; want normalization_regions", r.status, r.body)
	}
	r = postAlign(t, ts, [][2]string{{"text", jfkText}, {"text_normalization", `{}`}}, wav, nil)
	if r.status != 200 || bytes.Contains(r.body, []byte(`"normalization_regions"`)) {
		t.Errorf("text_normalization {} = %d; want 200 without normalization_regions", r.status)
	}
}

func TestAlignmentProtectedTerms(t *testing.T) {
	ts, wav := alignServer(t)
	for _, fields := range [][][2]string{
		{{"text", jfkText}, {"protected_terms[]", "fellow Americans"}},
		{{"text", jfkText}, {"protected_terms", `["fellow Americans"]`}},
	} {
		r := postAlign(t, ts, fields, wav, nil)
		var res align.Alignment
		if err := json.Unmarshal(r.body, &res); err != nil || r.status != 200 {
			t.Fatalf("protected terms = %d %s", r.status, r.body)
		}
		found := false
		for _, w := range res.Segments[0].Words {
			found = found || w.Word == "fellow Americans,"
		}
		if !found {
			t.Errorf("protected term not aligned as one word: %+v", res.Segments[0].Words)
		}
	}
}

// TestAlignmentNDJSON parses the progress stream line by line: progress
// lines, then exactly one final result or error line.
func TestAlignmentNDJSON(t *testing.T) {
	ts, wav := alignServer(t)
	silence := toneWAV(0) // header only
	silence = append(silence[:len(silence)], make([]byte, 2*16000*2)...)
	// fix the RIFF sizes of the 2 s of silence
	fixWAVSizes(silence)
	for _, tc := range []struct {
		name  string
		wav   []byte
		text  string
		final string
	}{
		{"result", wav, jfkText, "task"},
		{"failure", silence, strings.Repeat("many words that are not there ", 20), "error"},
		// Few enough words for the frames: the standard search fails
		// with retry_recommended, auto runs the extended one.
		{"retried failure", silence, jfkText, "error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := postAlign(t, ts, [][2]string{{"text", tc.text}, {"search_effort", "auto"}}, tc.wav, map[string]string{"progress": "1"})
			if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/x-ndjson") {
				t.Fatalf("status %d type %q; want 200 NDJSON", r.status, r.header.Get("Content-Type"))
			}
			sc := bufio.NewScanner(bytes.NewReader(r.body))
			sc.Buffer(nil, 1<<20)
			var lines []map[string]any
			for sc.Scan() {
				var m map[string]any
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
					t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
				}
				lines = append(lines, m)
			}
			if len(lines) < 2 {
				t.Fatalf("%d lines; want progress and a final line", len(lines))
			}
			last := lines[len(lines)-1]
			if _, ok := last[tc.final]; !ok {
				t.Fatalf("final line %v; want %q", last, tc.final)
			}
			stages := 0
			for i, l := range lines[:len(lines)-1] {
				if l["object"] == "alignment.stage" {
					stages++
				}
				if l["object"] != "alignment.progress" && l["object"] != "alignment.stage" {
					t.Errorf("unexpected line before the final one: %v", l)
				}
				// Progress restarts from 0 after a stage line (spec 6.4).
				if next := lines[i+1]; l["object"] == "alignment.stage" && (next["object"] != "alignment.progress" || next["progress"] != 0.0) {
					t.Errorf("line after %v is %v; want progress 0", l, next)
				}
			}
			if tc.name == "retried failure" && stages != 1 {
				t.Errorf("%d stage lines in %v; want the extended_search stage", stages, lines)
			}
			if tc.final == "error" {
				a, _ := last["error"].(map[string]any)["alignment"].(map[string]any)
				if a == nil || a["reason"] == nil || a["retry_recommended"] == nil {
					t.Errorf("error line lacks error.alignment: %v", last)
				}
			}
		})
	}
}

func fixWAVSizes(b []byte) {
	n := uint32(len(b) - 44)
	put := func(off int, v uint32) {
		b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	put(4, 36+n)
	put(40, n)
}

func TestAlignmentFailureIs422(t *testing.T) {
	ts, _ := alignServer(t)
	silence := toneWAV(0)
	silence = append(silence, make([]byte, 2*16000*2)...)
	fixWAVSizes(silence)
	r := postAlign(t, ts, [][2]string{{"text", strings.Repeat("words that are not in this audio ", 20)}}, silence, nil)
	var env struct {
		Error struct {
			Code      string
			Alignment map[string]any
		}
	}
	if err := json.Unmarshal(r.body, &env); err != nil || r.status != 422 || env.Error.Code != "alignment_failed" ||
		env.Error.Alignment["retry_recommended"] == nil {
		t.Errorf("alignment of silence = %d %s; want 422 alignment_failed with error.alignment", r.status, r.body)
	}
}

// TestAlignmentClientDisconnect cancels a request mid-alignment; the
// handler must stop and the model must be released (unload succeeds).
func TestAlignmentClientDisconnect(t *testing.T) {
	ts, wav := alignServer(t)
	pcm := wav[bytes.Index(wav, []byte("data"))+8:]
	body := append(toneWAV(0), bytes.Repeat(pcm, 20)...) // 220 s
	fixWAVSizes(body)
	ctx, cancel := context.WithCancel(context.Background())
	form, ct := alignForm([][2]string{{"text", strings.Repeat(jfkText+" ", 20)}}, body)
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/audio/alignments", form)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("progress", "1")
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	// The first progress line proves the alignment started; then go away.
	line, _ := bufio.NewReader(res.Body).ReadString('\n')
	if !strings.Contains(line, "alignment.progress") {
		t.Fatalf("first line %q; want a progress line", line)
	}
	cancel()
	res.Body.Close()
	// The model is released once the handler notices: unload succeeds.
	for i := 0; ; i++ {
		r := do(t, ts, "POST", "/v1/models/unload", jsonBodyString(`{"model":"Sotto/Lattice-2"}`), nil)
		if r.status == 200 {
			break
		}
		if i > 200 {
			t.Fatalf("unload still refused after the client left: %d %s", r.status, r.body)
		}
		waitABit()
	}
}

// TestAlignmentQueueFull holds the model with one long alignment; with no
// room to wait, a second request gets 503 service_busy with Retry-After.
func TestAlignmentQueueFull(t *testing.T) {
	ts, wav := alignServerWith(t, models.Config{MaxRunning: 1, MaxQueued: -1})
	pcm := wav[bytes.Index(wav, []byte("data"))+8:]
	long := append(toneWAV(0), bytes.Repeat(pcm, 20)...)
	fixWAVSizes(long)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	form, ct := alignForm([][2]string{{"text", strings.Repeat(jfkText+" ", 20)}}, long)
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/audio/alignments", form)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("progress", "1")
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if line, _ := bufio.NewReader(res.Body).ReadString('\n'); !strings.Contains(line, "alignment.progress") {
		t.Fatalf("first line %q; want a progress line", line)
	}
	r := postAlign(t, ts, [][2]string{{"text", jfkText}}, wav, nil)
	if r.status != 503 || r.envelope(t).Code != "service_busy" || r.header.Get("Retry-After") == "" {
		t.Errorf("second request while the model is busy = %d %s Retry-After %q; want 503 service_busy with Retry-After",
			r.status, r.body, r.header.Get("Retry-After"))
	}
}

// TestLattice1PackNotDownloaded: Sotto/Lattice-1 serves zh and de from its
// language packs (continuous Sphinx models). Without the pack on disk the
// request is a 400 model_not_downloaded naming the pack, not a 501.
func TestLattice1PackNotDownloaded(t *testing.T) {
	ts, wav := alignServer(t)
	for _, lang := range []string{"zh", "de"} {
		r := postAlign(t, ts, [][2]string{{"text", "你好 hallo"}, {"model", "Sotto/Lattice-1"}, {"language", lang}}, wav, nil)
		if r.status != 400 {
			t.Errorf("Lattice-1 %s without its pack = %d %s; want 400", lang, r.status, r.body)
			continue
		}
		if e := r.envelope(t); e.Code != "model_not_downloaded" || e.Param != "model" || !strings.Contains(e.Message, lang+" language pack") {
			t.Errorf("Lattice-1 %s without its pack = %s param %q %q; want model_not_downloaded naming the pack", lang, e.Code, e.Param, e.Message)
		}
	}
}
