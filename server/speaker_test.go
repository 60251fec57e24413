package server

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/speaker"
)

func postSpeaker(t *testing.T, ts *httptestServer, path string, fields [][2]string, wav []byte) resp {
	t.Helper()
	body, ct := alignForm(fields, wav)
	return do(t, ts, "POST", path, body, map[string]string{"Content-Type": ct})
}

type embeddingBody struct {
	Object        string
	Model         string
	Method        string
	Embedding     []float64
	Dimensions    int
	SpeechSeconds float64 `json:"speech_seconds"`
	Usage         struct{ Seconds float64 }
}

func TestSpeakerEmbeddingsValidation(t *testing.T) {
	ts, wav := speakerServer(t)
	for _, tt := range []struct {
		name   string
		fields [][2]string
		wav    []byte
		status int
		param  string
	}{
		{"no file", nil, nil, 400, "file"},
		{"start without end", [][2]string{{"start", "1"}}, wav, 400, "end"},
		{"end before start", [][2]string{{"start", "2"}, {"end", "1"}}, wav, 400, "end"},
		{"negative start", [][2]string{{"start", "-1"}, {"end", "1"}}, wav, 400, "start"},
		{"start not a number", [][2]string{{"start", "soon"}, {"end", "1"}}, wav, 400, "start"},
		{"window after the audio", [][2]string{{"start", "1"}, {"end", "99"}}, wav, 400, "end"},
		{"conflicting channel", [][2]string{{"audio_channel", "0"}, {"audio_channel", "1"}}, wav, 400, "audio_channel"},
		{"unknown model", [][2]string{{"model", "Sotto/Nope"}}, wav, 404, ""},
		{"model without embeddings", [][2]string{{"model", "Sotto/Lattice-2"}}, wav, 400, "model"},
		{"unknown field", [][2]string{{"speakers", "2"}}, wav, 400, "speakers"},
		{"silence", nil, toneWAV(0), 422, "file"},
		{"one second of speech is too little", [][2]string{{"start", "0.3"}, {"end", "1.3"}}, wav, 422, "file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := tt.wav
			if tt.name == "silence" {
				// three seconds of digital silence
				w = audio.EncodeWAV(make([]float32, 3*16000), 16000)
			}
			r := postSpeaker(t, ts, "/v1/speaker/embeddings", tt.fields, w)
			if r.status != tt.status {
				t.Fatalf("status %d %s; want %d", r.status, r.body, tt.status)
			}
			if tt.param != "" {
				if env := r.envelope(t); env.Param != tt.param {
					t.Errorf("param = %v; want %s (%s)", env.Param, tt.param, r.body)
				}
			}
		})
	}
}

func TestSpeakerEmbeddingsResult(t *testing.T) {
	ts, wav := speakerServer(t)
	embed := func(fields [][2]string, w []byte) embeddingBody {
		t.Helper()
		r := postSpeaker(t, ts, "/v1/speaker/embeddings", fields, w)
		var e embeddingBody
		if r.status != 200 || json.Unmarshal(r.body, &e) != nil {
			t.Fatalf("embeddings = %d %s", r.status, r.body)
		}
		return e
	}
	e := embed(nil, wav)
	if e.Object != "speaker_embedding" || e.Model != "Sotto/Lattice-1" || e.Method != speaker.MethodFused ||
		len(e.Embedding) != speaker.Dim || e.Dimensions != speaker.Dim {
		t.Fatalf("result %+v; want speaker_embedding of Sotto/Lattice-1 with %d numbers", e, speaker.Dim)
	}
	var n float64
	for _, v := range e.Embedding {
		n += v * v
	}
	if math.Abs(n-1) > 1e-5 {
		t.Errorf("squared norm %v; want 1", n)
	}
	if e.Usage.Seconds < 10.9 || e.Usage.Seconds > 11.1 || e.SpeechSeconds < 3 || e.SpeechSeconds >= e.Usage.Seconds {
		t.Errorf("usage %v s, speech %v s; want the 11 s file and less speech than that", e.Usage.Seconds, e.SpeechSeconds)
	}
	// Determinism: the same audio gives the same numbers.
	if again := embed(nil, wav); !equalFloats(again.Embedding, e.Embedding) {
		t.Error("two requests with the same audio gave different embeddings")
	}
	// A window: usage is the window; the first and second halves of one
	// speaker's recording are similar, and similar to the whole.
	a := embed([][2]string{{"start", "0"}, {"end", "5.5"}}, wav)
	b := embed([][2]string{{"start", "5.5"}, {"end", "11"}}, wav)
	if a.Usage.Seconds != 5.5 {
		t.Errorf("window usage %v; want 5.5", a.Usage.Seconds)
	}
	sim, _ := speaker.Similarity(a.Embedding, b.Embedding)
	if sim < speaker.FusedVerifyThreshold {
		t.Errorf("halves of one recording: similarity %.3f below the threshold %.2f", sim, speaker.FusedVerifyThreshold)
	}
	// The similarity endpoint takes the embeddings as returned.
	r := do(t, ts, "POST", "/v1/speaker/similarity", jsonBody(map[string]any{"embedding_a": a.Embedding, "embedding_b": b.Embedding}), nil)
	var res struct{ Similarity float64 }
	if r.status != 200 || json.Unmarshal(r.body, &res) != nil || math.Abs(res.Similarity-sim) > 1e-9 {
		t.Errorf("similarity = %d %s; want %.6f", r.status, r.body, sim)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSpeakerTimelines(t *testing.T) {
	ts, wav := alignServer(t)
	for _, tt := range []struct {
		name   string
		fields [][2]string
		param  string
	}{
		{"speakers negative", [][2]string{{"speakers", "-1"}}, "speakers"},
		{"speakers too many", [][2]string{{"speakers", "33"}}, "speakers"},
		{"speakers not a number", [][2]string{{"speakers", "two"}}, "speakers"},
		{"max_speakers", [][2]string{{"max_speakers", "100"}}, "max_speakers"},
		{"response_format", [][2]string{{"response_format", "srt"}}, "response_format"},
		{"unknown field", [][2]string{{"num_speakers", "2"}}, "num_speakers"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := postSpeaker(t, ts, "/v1/speaker/timelines", tt.fields, wav)
			if env := r.envelope(t); r.status != 400 || env.Param != tt.param {
				t.Errorf("= %d %s; want 400 with param %s", r.status, r.body, tt.param)
			}
		})
	}
	r := postSpeaker(t, ts, "/v1/speaker/timelines", [][2]string{{"start", "1"}, {"end", "10"}}, wav)
	var tl struct {
		Object   string
		Model    string
		Duration float64
		Speakers []string
		Segments []struct {
			Start, End float64
			Speaker    string
		}
	}
	if r.status != 200 || json.Unmarshal(r.body, &tl) != nil || tl.Object != "speaker_timeline" || tl.Model != "Sotto/Lattice-1" {
		t.Fatalf("timeline = %d %s", r.status, r.body)
	}
	if len(tl.Speakers) != 1 || len(tl.Segments) == 0 {
		t.Errorf("one speaker's recording: speakers %v, %d segments; want one speaker", tl.Speakers, len(tl.Segments))
	}
	for _, s := range tl.Segments {
		if s.Start < 1 || s.End > 10 || s.End <= s.Start {
			t.Errorf("segment %+v outside the window 1..10 s (times are of the original audio)", s)
		}
	}
	r = postSpeaker(t, ts, "/v1/speaker/timelines", [][2]string{{"response_format", "rttm"}, {"speakers", "1"}}, wav)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("rttm = %d %s", r.status, r.header.Get("Content-Type"))
	}
	turns, err := speaker.ParseRTTM(bytes.NewReader(r.body))
	if err != nil || len(turns) == 0 || !strings.HasPrefix(string(r.body), "SPEAKER tone 1 ") {
		t.Errorf("rttm body %q: %v", r.body, err)
	}
}

// TestSimilarityExtremeNumbers: legal JSON numbers whose squares overflow
// or underflow a float64 still give the cosine (it was a 200 with an empty
// body for 1e308: NaN cannot be encoded).
func TestSimilarityExtremeNumbers(t *testing.T) {
	_, ts := newTestServer(t, Config{Models: testModels(t)})
	fill := func(x float64) []float64 {
		v := make([]float64, speaker.Dim)
		for i := range v {
			v[i] = x
			if i%2 == 1 {
				v[i] = x / 2
			}
		}
		return v
	}
	for _, tt := range []struct {
		name string
		a, b []float64
		want float64
	}{
		{"1e308", fill(1e308), fill(1), 1},
		{"-1e308", fill(-1e308), fill(1), -1},
		{"1e-320", fill(1e-320), fill(3), 1},
	} {
		r := do(t, ts, "POST", "/v1/speaker/similarity", jsonBody(map[string]any{"embedding_a": tt.a, "embedding_b": tt.b}), nil)
		var res struct{ Similarity *float64 }
		if err := json.Unmarshal(r.body, &res); err != nil || r.status != 200 || res.Similarity == nil ||
			math.Abs(*res.Similarity-tt.want) > 1e-9 {
			t.Errorf("%s: similarity = %d %q; want 200 with %v", tt.name, r.status, r.body, tt.want)
		}
	}
}
