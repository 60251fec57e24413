package segment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/sottolabs/sotto"
)

const (
	segText  = `"The meeting starts at nine. Please bring your notes. We will review the budget together."`
	segTimed = `[{"text": "Hello there, welcome to the show.", "start": 0.0, "end": 2.1, "speaker": "A"},
		{"text": "Thanks for having me. It is great to be here.", "start": 2.3, "end": 5.0, "speaker": "B"}]`
)

func TestRequestInvalid(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		desktop bool
		param   string
	}{
		{"no input", `{"threshold": 0.35}`, false, "text"},
		{"text and segments", `{"text": ` + segText + `, "segments": ` + segTimed + `}`, false, "segments"},
		{"text and file", `{"text": "a", "file": "/tmp/x.json"}`, true, "file"},
		{"threshold below", `{"text": ` + segText + `, "threshold": -0.1}`, false, "threshold"},
		{"threshold above", `{"text": ` + segText + `, "threshold": 1.5}`, false, "threshold"},
		{"threshold string", `{"text": ` + segText + `, "threshold": "high"}`, false, "threshold"},
		{"threshold bool", `{"text": ` + segText + `, "threshold": true}`, false, "threshold"},
		{"paragraph below threshold", `{"text": ` + segText + `, "threshold": 0.5, "paragraph_threshold": 0.3}`, false, "paragraph_threshold"},
		{"paragraph above 1", `{"text": ` + segText + `, "paragraph_threshold": 1.5}`, false, "paragraph_threshold"},
		{"options paragraph below threshold", `{"text": ` + segText + `, "threshold": 0.5, "options": {"paragraph_threshold": 0.2}}`, false, "options.paragraph_threshold"},
		{"semantic true", `{"text": ` + segText + `, "semantic_sentence_enabled": true}`, false, "semantic_sentence_enabled"},
		{"semantic false", `{"text": ` + segText + `, "semantic_sentence_enabled": false}`, false, "semantic_sentence_enabled"},
		{"semantic null", `{"text": ` + segText + `, "semantic_sentence_enabled": null}`, false, "semantic_sentence_enabled"},
		{"semantic in options", `{"text": ` + segText + `, "options": {"semantic_sentence_enabled": false}}`, false, "semantic_sentence_enabled"},
		{"paragraph with segments", `{"segments": ` + segTimed + `, "paragraph_threshold": 0.5}`, false, "paragraph_threshold"},
		{"file on headless", `{"file": "/tmp/sotto-conformance-transcript.json"}`, false, "file"},
		{"relative file", `{"file": "x.json"}`, true, "file"},
		{"empty text", `{"text": "  "}`, false, "text"},
		{"min over max", `{"text": "a", "min_chars": 50, "max_chars": 40}`, false, "min_chars"},
		{"min over default max", `{"text": "a", "min_chars": 50}`, false, "min_chars"},
		{"max zero", `{"text": "a", "max_chars": 0}`, false, "max_chars"},
		{"max fraction", `{"text": "a", "max_chars": 4.5}`, false, "max_chars"},
		{"options max string", `{"text": "a", "options": {"max_chars": "x"}}`, false, "options.max_chars"},
		{"margin negative", `{"text": "a", "start_margin": -1}`, false, "start_margin"},
		{"options end margin", `{"text": "a", "options": {"end_margin": 100}}`, false, "options.end_margin"},
		{"options unknown", `{"text": "a", "options": {"colour": 1}}`, false, "options.colour"},
		{"options not object", `{"text": "a", "options": 3}`, false, "options"},
		{"language not a tag", `{"text": "a", "language": "english please"}`, false, "language"},
		{"language not a string", `{"text": "a", "language": 7}`, false, "language"},
		{"length in paragraph mode", `{"text": "a", "paragraph_threshold": 0.5, "max_chars": 30}`, false, "max_chars"},
		{"segments not array", `{"segments": {"text": "a"}}`, false, "segments"},
		{"segments empty", `{"segments": []}`, false, "segments"},
		{"segment text missing", `{"segments": [{"start": 0, "end": 1}]}`, false, "segments[0].text"},
		{"segment start missing", `{"segments": [{"text": "a", "end": 1}]}`, false, "segments[0].start"},
		{"segment end string", `{"segments": [{"text": "a", "start": 0, "end": "1"}]}`, false, "segments[0].end"},
		{"segment end before start", `{"segments": [{"text": "a", "start": 2, "end": 1}]}`, false, "segments[0].end"},
		// 1e308 + 1e308 is +Inf: the result could not be written (a 500).
		{"segment times past the limit", `{"segments": [{"text": "a", "start": 1e308, "end": 1e308}], "max_chars": 5, "min_chars": 1}`, false, "segments[0].start"},
		{"segment speaker object", `{"segments": [{"text": "a", "start": 0, "end": 1, "speaker": {}}]}`, false, "segments[0].speaker"},
		{"word without time", `{"segments": [{"text": "a", "start": 0, "end": 1, "words": [{"word": "a"}]}]}`, false, "segments[0].words[0].start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := DecodeRequest(strings.NewReader(tt.body))
			if err != nil {
				checkInvalid(t, err, tt.param)
				return
			}
			err = req.Validate(tt.desktop)
			checkInvalid(t, err, tt.param)
			// Segment reports the same error.
			_, err2 := Segment(context.Background(), req, tt.desktop)
			if !errors.Is(err2, sotto.ErrInvalidRequest) {
				t.Errorf("Segment(%s) error = %v; want the Validate error", tt.body, err2)
			}
		})
	}
}

func TestDecodeRequestErrors(t *testing.T) {
	tests := []struct{ name, body, param string }{
		{"unknown field", `{"text": "a", "colour": 1}`, "colour"},
		{"text number", `{"text": 3}`, "text"},
		{"file bool", `{"file": true}`, "file"},
		{"trailing", `{"text": "a"} {}`, ""},
		{"malformed", `{"text": `, ""},
		{"empty", ``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeRequest(strings.NewReader(tt.body))
			checkInvalid(t, err, tt.param)
		})
	}
}

func TestRequestOK(t *testing.T) {
	ctx := context.Background()
	do := func(t *testing.T, body string, desktop bool) (*Result, []byte) {
		t.Helper()
		req, err := DecodeRequest(strings.NewReader(body))
		if err != nil {
			t.Fatalf("DecodeRequest(%s): %v", body, err)
		}
		res, err := Segment(ctx, req, desktop)
		if err != nil {
			t.Fatalf("Segment(%s): %v", body, err)
		}
		js, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return res, js
	}
	t.Run("plain", func(t *testing.T) {
		res, js := do(t, `{"text": `+segText+`}`, false)
		want := `{"task":"segment","text":"The meeting starts at nine.\nPlease bring your notes.\nWe will review the budget together.","segments":[{"text":"The meeting starts at nine."},{"text":"Please bring your notes."},{"text":"We will review the budget together."}]}`
		if string(js) != want {
			t.Errorf("Segment(plain) = %s; want %s", js, want)
		}
		if len(res.Segments) != 3 {
			t.Errorf("Segment(plain) gave %d segments; want 3", len(res.Segments))
		}
	})
	t.Run("language", func(t *testing.T) {
		// Too short to guess German; named, "Mo." (Monday) is an
		// abbreviation, not a sentence end.
		text := `"Treffen am Mo. um 9 Uhr. Danke."`
		for _, c := range []struct{ lang, want string }{
			{`"de"`, `["Treffen am Mo. um 9 Uhr.","Danke."]`},
			{`"de-AT"`, `["Treffen am Mo. um 9 Uhr.","Danke."]`},
			{`"en"`, `["Treffen am Mo.","um 9 Uhr.","Danke."]`},
		} {
			res, _ := do(t, `{"text": `+text+`, "language": `+c.lang+`}`, false)
			var got []string
			for _, it := range res.Segments {
				got = append(got, it.Text)
			}
			js, _ := json.Marshal(got)
			if string(js) != c.want {
				t.Errorf("language %s: %s; want %s", c.lang, js, c.want)
			}
		}
	})
	t.Run("thresholds 0 and 1", func(t *testing.T) {
		for _, th := range []string{"0", "1"} {
			do(t, `{"text": `+segText+`, "threshold": `+th+`}`, false)
		}
	})
	t.Run("paragraphs", func(t *testing.T) {
		res, _ := do(t, `{"text": "One. Two.\n\nThree.", "threshold": 0.35, "paragraph_threshold": 0.5}`, false)
		if res.Text != "One. Two.\n\nThree." || len(res.Segments) != 2 {
			t.Errorf("Segment(paragraphs) = %+v; want two paragraphs joined by a blank line", res)
		}
	})
	t.Run("options paragraph", func(t *testing.T) {
		res, _ := do(t, `{"text": "One. Two.\n\nThree.", "options": {"paragraph_threshold": 0.9}}`, false)
		if len(res.Segments) != 2 {
			t.Errorf("Segment(options.paragraph_threshold) = %+v; want paragraph mode", res)
		}
	})
	t.Run("top level wins", func(t *testing.T) {
		req, err := DecodeRequest(strings.NewReader(`{"text": "a", "max_chars": 30, "options": {"max_chars": 10, "min_chars": 5, "end_margin": 0.5}}`))
		if err != nil {
			t.Fatal(err)
		}
		o, err := req.SegmentOptions(false)
		if err != nil {
			t.Fatal(err)
		}
		want := Options{Length: &Length{MinChars: 5, MaxChars: 30}, Margins: &Margins{Start: DefaultStartMargin, End: 0.5}}
		if diff := cmp.Diff(want, o); diff != "" {
			t.Errorf("SegmentOptions mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("length off by default", func(t *testing.T) {
		req, _ := DecodeRequest(strings.NewReader(`{"text": "a"}`))
		o, err := req.SegmentOptions(false)
		if err != nil || o.Length != nil || o.Margins != nil {
			t.Errorf("SegmentOptions(no length field) = %+v, %v; want no length constraints and no margins", o, err)
		}
	})
	t.Run("timed", func(t *testing.T) {
		res, js := do(t, `{"segments": `+segTimed+`}`, false)
		if len(res.Segments) != 3 {
			t.Fatalf("Segment(timed) = %s; want 3 sentences", js)
		}
		for _, s := range res.Segments {
			if s.Start == nil || s.End == nil || s.Speaker == nil || *s.Start < 0 || *s.End > 5 || *s.Start > *s.End {
				t.Errorf("Segment(timed) item %s lacks times or speaker within [0, 5]", js)
			}
		}
	})
	t.Run("max_chars plain", func(t *testing.T) {
		text := "We went to the park and then we had lunch by the lake and after that we walked home slowly in the rain and we sang a song on the way"
		res, _ := do(t, `{"text": "`+text+`", "max_chars": 30}`, false)
		for _, s := range res.Segments {
			if runeLen(s.Text) > 30 || s.Start != nil {
				t.Errorf("Segment(max_chars 30) item %+v; want at most 30 runes and no times", s)
			}
		}
	})
	t.Run("file on desktop", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "t.json")
		if err := os.WriteFile(path, []byte(`{"segments": `+segTimed+`, "language": "en"}`), 0o600); err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(map[string]any{"file": path, "max_chars": 20})
		res, _ := do(t, string(body), true)
		if len(res.Segments) < 3 || res.Segments[0].Start == nil {
			t.Errorf("Segment(file) = %+v; want timed cues", res)
		}
	})
	t.Run("file not regular", func(t *testing.T) {
		// /dev/zero never ends: reading it filled memory until the server died.
		req, _ := DecodeRequest(strings.NewReader(`{"file": "/dev/zero"}`))
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero here")
		}
		_, err := Segment(ctx, req, true)
		checkInvalid(t, err, "file")
	})
	t.Run("file missing", func(t *testing.T) {
		req, _ := DecodeRequest(strings.NewReader(`{"file": "/nonexistent/sotto/t.json"}`))
		_, err := Segment(ctx, req, true)
		checkInvalid(t, err, "file")
	})
}

func TestParseTranscript(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		text     string
		segments []Cue
	}{
		{"alignment result", `{"task": "align", "duration": 3, "text": "Hi. Bye.", "segments": [{"id": 0, "start": 0, "end": 1.5, "text": "Hi.", "speaker": null, "words": [{"word": "Hi", "start": 0.1, "end": 0.5, "score": 0.9}]}]}`,
			"", []Cue{{Text: "Hi.", Start: 0, End: 1.5, Words: []Word{{Word: "Hi", Start: 0.1, End: 0.5, Score: Float(0.9)}}}}},
		{"verbose transcription", `{"text": "x", "segments": [{"id": 0, "seek": 0, "start": 0, "end": 2, "text": " Hello", "tokens": [1, 2], "avg_logprob": -0.2}]}`,
			"", []Cue{{Text: " Hello", Start: 0, End: 2}}},
		{"bare array", `[{"text": "A", "start": 1, "end": 2, "speaker": "S1"}]`, "", []Cue{{Text: "A", Start: 1, End: 2, Speaker: "S1"}}},
		{"words only", `{"words": [{"word": "hi", "start": 0, "end": 1}, {"text": "there", "start": 1, "end": 2, "probability": 0.5}]}`,
			"", []Cue{{Text: "hi there", Start: 0, End: 2, Words: []Word{{Word: "hi", Start: 0, End: 1}, {Word: "there", Start: 1, End: 2, Score: Float(0.5)}}}}},
		{"text only", `{"text": "Just text."}`, "Just text.", nil},
		{"untimed segments", `{"segments": [{"text": "One."}, {"text": "Two."}]}`, "One.\nTwo.", nil},
		{"empty segments, words", `{"text": "hi", "segments": [], "words": [{"word": "hi", "start": 0, "end": 1}]}`,
			"", []Cue{{Text: "hi", Start: 0, End: 1, Words: []Word{{Word: "hi", Start: 0, End: 1}}}}},
		{"empty segments, text", `{"text": "Hi there.", "segments": []}`, "Hi there.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTranscript([]byte(tt.in))
			if err != nil {
				t.Fatalf("ParseTranscript(%s): %v", tt.in, err)
			}
			if diff := cmp.Diff(&Transcript{Text: tt.text, Segments: tt.segments}, got); diff != "" {
				t.Errorf("ParseTranscript(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
	for _, bad := range []string{``, `3`, `{}`, `{"segments": 3}`, `{"segments": [{"text": 1}]}`, `{"segments": [{"text": "a", "start": 2, "end": 1}]}`, `{"words": []}`, `[]`, `{"text": "", "segments": []}`} {
		_, err := ParseTranscript([]byte(bad))
		checkInvalid(t, err, "file")
	}
	// A file that is not JSON (any readable file can be named on the
	// desktop listener): the message says what is expected and where the
	// syntax broke, and never quotes the file's content.
	_, err := ParseTranscript([]byte("root:x:0:0:root:/root:/bin/bash\n"))
	checkInvalid(t, err, "file")
	if msg := err.Error(); strings.Contains(msg, "'r'") || strings.Contains(msg, "root") || !strings.Contains(msg, "byte 1") || !strings.Contains(msg, `"segments"`) {
		t.Errorf("ParseTranscript(not JSON) = %q; want the offset and the expected shape, none of the content", msg)
	}
}

func TestWriteSubtitles(t *testing.T) {
	cues := []Cue{
		{Text: "Hello there.", Start: 0, End: 1.25, Speaker: "A"},
		{Text: "A --> B & <C>", Start: 3661.5, End: 3662.001},
		{Text: "two\n\nlines", Start: 4000, End: 4001},
	}
	var srt, vtt bytes.Buffer
	if err := WriteSRT(&srt, cues); err != nil {
		t.Fatal(err)
	}
	if err := WriteVTT(&vtt, cues); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		data string
		vtt  bool
	}{{"srt", srt.String(), false}, {"vtt", vtt.String(), true}} {
		got, err := parseSubtitles(f.data, f.vtt)
		if err != nil {
			t.Fatalf("parse %s: %v\n%s", f.name, err, f.data)
		}
		want := []Cue{
			{Text: "Hello there.", Start: 0, End: 1.25},
			{Text: "A -> B & <C>", Start: 3661.5, End: 3662.001},
			{Text: "two\nlines", Start: 4000, End: 4001},
		}
		if f.vtt {
			want[0].Speaker = "A"
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool { return a-b < 0.0006 && b-a < 0.0006 })); diff != "" {
			t.Errorf("%s round trip mismatch (-want +got):\n%s\n%s", f.name, diff, f.data)
		}
	}
	if !strings.HasPrefix(vtt.String(), "WEBVTT\n\n") || !strings.Contains(srt.String(), "01:01:01,500 --> 01:01:02,001") {
		t.Errorf("headers or stamps wrong:\n%s\n%s", srt.String(), vtt.String())
	}
}

// parseSubtitles reads back SRT or WebVTT as written by WriteSRT/WriteVTT.
func parseSubtitles(s string, vtt bool) ([]Cue, error) {
	if vtt {
		if !strings.HasPrefix(s, "WEBVTT\n\n") {
			return nil, errors.New("missing WEBVTT header")
		}
		s = strings.TrimPrefix(s, "WEBVTT\n\n")
	}
	var out []Cue
	for block := range strings.SplitSeq(strings.TrimSpace(s), "\n\n") {
		lines := strings.Split(block, "\n")
		if !vtt {
			lines = lines[1:] // the number
		}
		if len(lines) < 2 {
			return nil, errors.New("short block: " + block)
		}
		a, b, ok := strings.Cut(lines[0], " --> ")
		if !ok {
			return nil, errors.New("no arrow: " + lines[0])
		}
		var c Cue
		var err error
		if c.Start, err = parseStamp(a); err != nil {
			return nil, err
		}
		if c.End, err = parseStamp(b); err != nil {
			return nil, err
		}
		text := strings.Join(lines[1:], "\n")
		if vtt {
			if strings.HasPrefix(text, "<v ") {
				sp, rest, _ := strings.Cut(text[3:], ">")
				c.Speaker, text = sp, rest
			}
			text = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(text)
		}
		c.Text = text
		out = append(out, c)
	}
	return out, nil
}

func parseStamp(s string) (float64, error) {
	var h, m, sec, ms int
	s = strings.Replace(s, ",", ".", 1)
	if _, err := fmt.Sscanf(s, "%d:%d:%d.%d", &h, &m, &sec, &ms); err != nil {
		return 0, err
	}
	return float64(h*3600+m*60+sec) + float64(ms)/1000, nil
}

func TestDecodeRequestReaders(t *testing.T) {
	body := `{"text": "One. Two.", "threshold": 0.5, "options": {"max_chars": 20}}`
	for _, wrap := range []struct {
		name string
		fn   func(io.Reader) io.Reader
	}{{"one byte", iotest.OneByteReader}, {"half", iotest.HalfReader}, {"data err", iotest.DataErrReader}} {
		req, err := DecodeRequest(wrap.fn(strings.NewReader(body)))
		if err != nil {
			t.Fatalf("DecodeRequest(%s): %v", wrap.name, err)
		}
		o, err := req.SegmentOptions(false)
		if err != nil || o.Threshold == nil || *o.Threshold != 0.5 || o.Length == nil || o.Length.MaxChars != 20 {
			t.Errorf("DecodeRequest(%s) options = %+v, %v; want threshold 0.5 and max_chars 20", wrap.name, o, err)
		}
	}
	if _, err := DecodeRequest(iotest.ErrReader(errors.New("boom"))); err == nil {
		t.Errorf("DecodeRequest(failing reader) = nil error; want an error")
	}
}
