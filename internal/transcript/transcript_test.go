package transcript

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/asr"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixed is the formatter input of the golden tests: two segments as a
// recognizer emits them (lower case, no punctuation, word times and
// confidences), the second long enough to be split into two cues.
func fixed() *Result {
	w := func(word string, start, end, conf float64) asr.Word {
		return asr.Word{Word: word, Start: start, End: end, Confidence: conf}
	}
	return &Result{Language: "en", Duration: 11.0,
		Segments: []asr.Segment{
			{ID: 7, Start: 0.32, End: 2.41, Text: " and so my fellow americans ",
				Words: []asr.Word{w("and", 0.32, 0.51, 0.91), w("so", 0.51, 0.83, 0.88), w("my", 0.83, 1.2, 0.97),
					w("fellow", 1.2, 1.62, 0.99), w("americans", 1.62, 2.41, 0.95)}},
			{ID: 9, Start: 3.25, End: 7.805, Text: "ask not what your country can do for you ask what you can do",
				Words: []asr.Word{w("ask", 3.25, 3.6, 0.8), w("not", 3.6, 4.0, 0.9), w("what", 4.0, 4.2, 0.9),
					w("your", 4.2, 4.4, 0.9), w("country", 4.4, 4.9, 0.99), w("can", 4.9, 5.1, 0.7),
					w("do", 5.1, 5.3, 0.9), w("for", 5.3, 5.5, 0.9), w("you", 5.5, 5.9, 0.95),
					w("ask", 6.5, 6.8, 0.9), w("what", 6.8, 7.0, 0.9), w("you", 7.0, 7.2, 0.9),
					w("can", 7.2, 7.5, 0.9), w("do", 7.5, 7.805, 0.93333333)}},
		}}
}

// fixedTurns is a speaker timeline for fixed(): S1 says the first segment,
// S2 the first clause of the second, S1 the rest ("ask what you can do",
// which the timeline misses by 0.3 s at its start).
var fixedTurns = []Turn{{0.2, 2.5, "S1"}, {3.1, 6.0, "S2"}, {6.8, 8.0, "S1"}}

func TestGolden(t *testing.T) {
	tests := []struct {
		file string
		f    Format
		g    Granularities
	}{
		{"json.golden", JSON, Granularities{}},
		{"verbose.golden", VerboseJSON, Granularities{}},
		{"verbose_words.golden", VerboseJSON, Granularities{Words: true}},
		{"verbose_both.golden", VerboseJSON, Granularities{Words: true, Segments: true}},
		{"text.golden", Text, Granularities{}},
		{"diarized.golden", DiarizedJSON, Granularities{}},
		{"diarized_words.golden", DiarizedJSON, Granularities{Words: true}},
		{"srt.golden", SRT, Granularities{}},
		{"vtt.golden", VTT, Granularities{}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var b bytes.Buffer
			res := fixed()
			if tt.f == DiarizedJSON {
				res.Turns = fixedTurns
			}
			if err := Write(context.Background(), &b, tt.f, res, tt.g); err != nil {
				t.Fatalf("Write(%s) = %v", tt.f, err)
			}
			path := filepath.Join("testdata", tt.file)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("Write(%s) =\n%s\nwant\n%s", tt.f, b.String(), want)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	r := &Result{Duration: 1.5}
	for _, tt := range []struct {
		f    Format
		g    Granularities
		want string
	}{
		{JSON, Granularities{}, `{"text":"","duration":1.5,"usage":{"type":"duration","seconds":1.5}}` + "\n"},
		{VerboseJSON, Granularities{Words: true, Segments: true}, `{"task":"transcribe","duration":1.5,"text":"","segments":[],"words":[],"usage":{"type":"duration","seconds":1.5}}` + "\n"},
		{Text, Granularities{}, "\n"},
		{SRT, Granularities{}, ""},
		{VTT, Granularities{}, "WEBVTT\n\n"},
	} {
		var b bytes.Buffer
		if err := Write(context.Background(), &b, tt.f, r, tt.g); err != nil || b.String() != tt.want {
			t.Errorf("Write(%s) of no segments = %q, %v; want %q", tt.f, b.String(), err, tt.want)
		}
	}
}

func TestSpeakerAt(t *testing.T) {
	r := &Result{Turns: fixedTurns}
	for _, tt := range []struct {
		start, end float64
		want       string
	}{
		{0, 0.1, "S1"},   // before every turn, within a second
		{2.4, 3.3, "S2"}, // overlaps S1 by 0.1 s and S2 by 0.2 s
		{4, 4, "S2"},     // a point inside a turn
		{6.2, 6.5, "S2"}, // between turns: the nearer one
		{8.9, 9.2, "S1"}, // within a second after the last turn
		{9.5, 9.6, ""},   // 1.5 s after the last turn: no speaker
	} {
		if got := r.speakerAt(tt.start, tt.end); got != tt.want {
			t.Errorf("speakerAt(%v, %v) = %q; want %q", tt.start, tt.end, got, tt.want)
		}
	}
	if got := (&Result{Turns: []Turn{}}).speakerAt(0, 1); got != "" {
		t.Errorf("speakerAt with no turns = %q; want none", got)
	}
}

func TestDiarized(t *testing.T) {
	var b bytes.Buffer
	err := Write(context.Background(), &b, DiarizedJSON, fixed(), Granularities{})
	var se *sotto.Error
	if !errors.Is(err, sotto.ErrUnsatisfiable) || !errors.As(err, &se) || se.Code != "diarization_unsupported" ||
		se.Param != "response_format" || b.Len() != 0 {
		t.Errorf("Write(diarized_json) = %v, wrote %q; want 422 diarization_unsupported and nothing written", err, b.String())
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		if got, err := ParseFormat(string(f)); got != f || err != nil {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if got, err := ParseFormat(""); got != JSON || err != nil {
		t.Errorf("ParseFormat(\"\") = %q, %v; want json", got, err)
	}
	var se *sotto.Error
	if _, err := ParseFormat("xml"); !errors.As(err, &se) || se.Param != "response_format" || !errors.Is(err, sotto.ErrInvalidRequest) {
		t.Errorf("ParseFormat(xml) = %v; want 400 param response_format", err)
	}
}

func TestText(t *testing.T) {
	for _, tt := range []struct {
		texts []string
		want  string
	}{
		{[]string{" hello ", "", "  ", "world"}, "hello world"},
		{[]string{"你好", "世界"}, "你好世界"},
		{[]string{"你好", "world"}, "你好 world"},
		{nil, ""},
	} {
		r := &Result{}
		var deltas strings.Builder
		var b strings.Builder
		for _, s := range tt.texts {
			r.Segments = append(r.Segments, asr.Segment{Text: s})
			deltas.WriteString(AppendText(&b, s))
		}
		if got := r.Text(); got != tt.want || deltas.String() != tt.want {
			t.Errorf("Text(%q) = %q, deltas %q; want %q", tt.texts, got, deltas.String(), tt.want)
		}
	}
}
