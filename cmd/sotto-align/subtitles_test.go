package main

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/segment"
)

// TestWriteSubtitles renders a long aligned Spanish sentence (the case of
// issue 10: one 200-character line) as SubRip and WebVTT: lines of at most
// 42 columns, two lines a cue, cue times from the aligned words; the JSON
// keeps the segment whole.
func TestWriteSubtitles(t *testing.T) {
	text := "Había una vez, en un pueblo pequeño junto al río, una mujer que cada mañana cruzaba el puente con una cesta de pan para repartirla entre los vecinos que no podían salir de casa."
	seg := align.Segment{Text: text, Start: 1, End: 12}
	at := 1.0
	for _, w := range strings.Fields(text) {
		seg.Words = append(seg.Words, align.Word{Word: strings.Trim(w, ",."), Start: at, End: at + 0.25, Score: 0.9})
		at += 0.3
	}
	seg.End = at
	res := &align.Alignment{Segments: []align.Segment{seg}}
	ctx := context.Background()

	var srt bytes.Buffer
	if err := write(ctx, &srt, "srt", res, segment.DefaultSubtitleOptions()); err != nil {
		t.Fatal(err)
	}
	cues, err := parseCues(srt.String(), false)
	if err != nil {
		t.Fatalf("%v\n%s", err, srt.String())
	}
	if len(cues) < 2 {
		t.Fatalf("got %d cue(s); want the sentence split:\n%s", len(cues), srt.String())
	}
	var joined []string
	for k, c := range cues {
		lines := strings.Split(c.Text, "\n")
		if len(lines) > 2 {
			t.Errorf("cue %d has %d lines", k+1, len(lines))
		}
		for _, l := range lines {
			if n := len([]rune(l)); n > 42 {
				t.Errorf("cue %d line %q has %d characters; want at most 42", k+1, l, n)
			}
		}
		if c.End-c.Start > 7 {
			t.Errorf("cue %d lasts %v s; want at most 7", k+1, c.End-c.Start)
		}
		// A cue boundary falls between words: the next cue starts at an
		// aligned word's start.
		if k > 0 {
			found := false
			for _, w := range seg.Words {
				if math.Abs(w.Start-c.Start) < 0.001 { // SubRip keeps milliseconds
					found = true
				}
			}
			if !found {
				t.Errorf("cue %d starts at %v, not at a word's start", k+1, c.Start)
			}
		}
		joined = append(joined, strings.Fields(c.Text)...)
	}
	if strings.Join(joined, " ") != text {
		t.Errorf("text changed: %q", strings.Join(joined, " "))
	}

	// Limits off: one cue, one line, as before.
	var one bytes.Buffer
	if err := write(ctx, &one, "vtt", res, segment.SubtitleOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "WEBVTT\n\n00:00:01.000 --> 00:00:"; !strings.HasPrefix(one.String(), want) || strings.Count(one.String(), "-->") != 1 || !strings.Contains(one.String(), text+"\n") {
		t.Errorf("limits off:\n%s", one.String())
	}

	// JSON is not laid out.
	var js bytes.Buffer
	if err := write(ctx, &js, "json", res, segment.DefaultSubtitleOptions()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"text": "`+text+`"`) {
		t.Errorf("json does not keep the segment whole:\n%s", js.String())
	}
}

func TestSubtitleFlags(t *testing.T) {
	c, err := parseArgs([]string{"--max-line-chars", "30", "--max-lines", "1", "--max-cue-seconds", "0", "-l", "es", "a.wav"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (segment.SubtitleOptions{MaxLineChars: 30, MaxLines: 1, Language: "es"}); c.subtitles != want {
		t.Errorf("subtitles = %+v; want %+v", c.subtitles, want)
	}
	c, err = parseArgs([]string{"a.wav"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := segment.DefaultSubtitleOptions(); c.subtitles != want {
		t.Errorf("default subtitles = %+v; want %+v", c.subtitles, want)
	}
	if _, err := parseArgs([]string{"--max-lines", "-1", "a.wav"}, nil); err == nil {
		t.Error("--max-lines -1 accepted")
	}
}
