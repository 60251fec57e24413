package segment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/unicode/norm"

	"github.com/sottolabs/sotto"
)

func subtitles(t *testing.T, in []Cue, o SubtitleOptions) []Cue {
	t.Helper()
	out, err := Subtitles(context.Background(), in, o)
	if err != nil {
		t.Fatal(err)
	}
	checkSubtitles(t, in, o, out)
	return out
}

func TestSubtitlesLayout(t *testing.T) {
	def := DefaultSubtitleOptions()
	tests := []struct {
		name string
		in   Cue
		o    SubtitleOptions
		want []Cue
	}{
		{"fits on one line", Cue{Text: "Short and sweet.", Start: 1, End: 2}, def,
			[]Cue{{Text: "Short and sweet.", Start: 1, End: 2}}},
		{"two balanced lines, broken at the comma",
			Cue{Text: "When the rain stopped, we walked down to the harbour together.", Start: 0, End: 4}, def,
			[]Cue{{Text: "When the rain stopped,\nwe walked down to the harbour together.", Start: 0, End: 4}}},
		{"before a conjunction rather than after an article",
			Cue{Text: "She opened the heavy wooden door and looked into the empty room.", Start: 0, End: 4}, def,
			[]Cue{{Text: "She opened the heavy wooden door\nand looked into the empty room.", Start: 0, End: 4}}},
		{"a long sentence becomes several cues, proportional times",
			Cue{Text: "The committee met on Tuesday to discuss the budget, and after a long debate about schools, roads and hospitals, it decided to postpone the vote until the next session in spring.", Start: 10, End: 22}, def,
			nil},
		{"seven seconds", Cue{Text: "One two three four.", Start: 0, End: 12}, SubtitleOptions{MaxCueSeconds: 7},
			[]Cue{{Text: "One two", Start: 0, End: 5.052632}, {Text: "three four.", Start: 5.052632, End: 12}}},
		{"one word a cue when each lasts long", Cue{Text: "One two three.", Start: 0, End: 30}, SubtitleOptions{MaxCueSeconds: 7},
			[]Cue{{Text: "One", Start: 0, End: 8.571429}, {Text: "two", Start: 8.571429, End: 17.142857}, {Text: "three.", Start: 17.142857, End: 30}}},
		{"limits off", Cue{Text: strings.Repeat("word ", 30) + "end.", Start: 0, End: 30}, SubtitleOptions{},
			[]Cue{{Text: strings.Repeat("word ", 30) + "end.", Start: 0, End: 30}}},
		{"a word wider than the line stands alone",
			Cue{Text: "See https://example.com/a/very/long/path/that/never/ends/at/all.html today.", Start: 0, End: 3}, def,
			[]Cue{{Text: "See\nhttps://example.com/a/very/long/path/that/never/ends/at/all.html", Start: 0, End: 2.76}, {Text: "today.", Start: 2.76, End: 3}}},
		{"Chinese counts two columns a character, breaks after the comma",
			Cue{Text: "今天天气很好，我们一起去公园散步吧，顺便买点水果回家。", Start: 0, End: 5}, def,
			[]Cue{{Text: "今天天气很好，我们一起去公园散步吧，\n顺便买点水果回家。", Start: 0, End: 5}}},
		{"Japanese with an opening bracket kept on the next word",
			Cue{Text: "彼は「明日は雨が降るだろう」と言ったが、私は傘を持たずに出かけることにした。", Start: 0, End: 5}, def,
			[]Cue{{Text: "彼は「明日は雨が降るだろう」と言ったが、\n私は傘を持たずに出かけることにした。", Start: 0, End: 5}}},
		{"speaker kept", Cue{Text: "Yes.", Start: 0, End: 1, Speaker: "A"}, def,
			[]Cue{{Text: "Yes.", Start: 0, End: 1, Speaker: "A"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := subtitles(t, []Cue{tt.in}, tt.o)
			if tt.want == nil {
				if len(got) < 2 {
					t.Fatalf("got %d cue(s); want the sentence split: %+v", len(got), got)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Subtitles mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSubtitlesWordTimes(t *testing.T) {
	text := "Good morning everyone, and welcome back to the show. Today we talk about rivers, lakes and the sea."
	var ws []Word
	at := 3.0
	for _, w := range strings.Fields(text) {
		ws = append(ws, Word{Word: strings.Trim(w, ",."), Start: at, End: at + 0.4})
		at += 0.5
		if strings.HasSuffix(w, ".") {
			at += 1.5 // a pause after the sentence
		}
	}
	in := []Cue{{Text: text, Start: 3, End: ws[len(ws)-1].End, Words: ws}}
	got := subtitles(t, in, DefaultSubtitleOptions())
	if len(got) != 2 {
		t.Fatalf("got %+v; want two cues, one per sentence", got)
	}
	if got[0].Text != "Good morning everyone,\nand welcome back to the show." {
		t.Errorf("first cue %q", got[0].Text)
	}
	// Word times: the second cue starts at "Today", the first ends at "show".
	if got[0].End != ws[8].End || got[1].Start != ws[9].Start {
		t.Errorf("times %v-%v, %v-%v; want the words' (%v, %v)", got[0].Start, got[0].End, got[1].Start, got[1].End, ws[8].End, ws[9].Start)
	}
	if len(got[0].Words) != 9 || len(got[1].Words) != len(ws)-9 {
		t.Errorf("words split %d + %d; want 9 + %d", len(got[0].Words), len(got[1].Words), len(ws)-9)
	}
}

func TestSubtitlesErrors(t *testing.T) {
	for _, o := range []SubtitleOptions{{MaxLineChars: -1}, {MaxLines: -2}, {MaxCueSeconds: -1}, {MaxCueSeconds: math.NaN()}} {
		_, err := Subtitles(context.Background(), []Cue{{Text: "a", End: 1}}, o)
		var se *sotto.Error
		if !errors.As(err, &se) || se.Kind != sotto.ErrInvalidRequest {
			t.Errorf("Subtitles(%+v) error %v; want an invalid-request error", o, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Subtitles(ctx, []Cue{{Text: "a", End: 1}}, DefaultSubtitleOptions()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestSubtitlesGolden lays out testdata/subtitles/input.json (hand-written
// cues: Spanish, English with word times, Chinese, Japanese, German, a
// speaker change) at the default and at narrow limits, and compares the
// SubRip output with the golden files; run with -update after an intended
// change.
func TestSubtitlesGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "subtitles", "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	var in []Cue
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		o    SubtitleOptions
	}{
		{"default", DefaultSubtitleOptions()},
		{"narrow", SubtitleOptions{MaxLineChars: 32, MaxLines: 1, MaxCueSeconds: 4}},
		{"three-lines", SubtitleOptions{MaxLineChars: 37, MaxLines: 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := subtitles(t, in, tt.o)
			var b bytes.Buffer
			if err := WriteSRT(&b, out); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "subtitles", tt.name+".golden.srt")
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("Subtitles %s mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// checkSubtitles asserts the invariants of Subtitles: the text is kept in
// order; no line is wider than the limit unless it is one unbreakable word;
// no cue has more lines than the limit or lasts longer than the limit
// unless it is one word; times never decrease.
func checkSubtitles(t *testing.T, in []Cue, o SubtitleOptions, out []Cue) {
	t.Helper()
	var a, b strings.Builder
	for _, c := range in {
		a.WriteString(c.Text)
	}
	lay := layout{opts: o}
	prevStart, prevEnd := math.Inf(-1), math.Inf(-1)

	for _, c := range out {
		b.WriteString(c.Text)
		if c.End < c.Start || c.Start < prevStart {
			t.Errorf("cue %q at %v-%v after one at %v-%v: times decrease", c.Text, c.Start, c.End, prevStart, prevEnd)
		}
		lines := strings.Split(c.Text, "\n")
		if o.MaxLines > 0 && len(lines) > o.MaxLines {
			t.Errorf("cue %q has %d lines; limit %d", c.Text, len(lines), o.MaxLines)
		}
		for _, l := range lines {
			if toks := lay.tokens(l); o.MaxLineChars > 0 && lineWidth(toks, 0, len(toks)) > o.MaxLineChars && len(toks) > 1 {
				t.Errorf("line %q is %d columns; limit %d", l, lineWidth(toks, 0, len(toks)), o.MaxLineChars)
			}
		}
		if toks := lay.tokens(c.Text); o.MaxCueSeconds > 0 && c.End-c.Start > o.MaxCueSeconds+1e-5 && len(toks) > 1 {
			t.Errorf("cue %q lasts %v s; limit %v", c.Text, c.End-c.Start, o.MaxCueSeconds)
		}
		prevStart, prevEnd = c.Start, c.End
	}

	if squash(a.String()) != squash(b.String()) {
		t.Errorf("text changed:\n in  %q\n out %q", squash(a.String()), squash(b.String()))
	}
}

// FuzzSubtitles checks the invariants of checkSubtitles on arbitrary text,
// limits and word timings.
func FuzzSubtitles(f *testing.F) {
	f.Add("When the rain stopped, we walked down to the harbour together. Then we went home.", 42, 2, 7.0, 10.0, true)
	f.Add("今天天气很好，我们一起去公园散步吧。「はい。」と言った。", 10, 1, 2.0, 3.0, false)
	f.Add("supercalifragilisticexpialidocious is long, too long for a line", 8, 3, 0.0, 5.0, true)
	f.Add("a\n\nb  c\t d", 1, 0, 0.5, 1.0, false)
	// Width forms, compatibility ideographs, marks with no base or after
	// a space, Hangul jamo, joiners, emoji sequences, U+FEFF, RTL marks.
	f.Add("\uff21\uff22 \uff76\uff9e \uf900\uf901 \u0301\u0323 x \u1100\u1161\u11a8 \u200d\u200c", 4, 2, 1.0, 3.0, true)
	f.Add("\U0001f468\u200d\U0001f469 \ufeffa \u200f\u05e9\u05dc \u095d\u212b b \u2764\ufe0f c", 3, 1, 0.5, 2.0, false)
	f.Add("U\u0308ber O\u0308l a\u0308\u00dfe ich Ka\u0308se, aber \u1112\u1161\u11ab \u1100\u116e\u11a8 \u304b\u3099\u304d\u3099", 8, 2, 1.0, 5.0, true)
	f.Fuzz(checkSubtitlesOf)
}

// checkSubtitlesOf lays out text as one cue from 1 s to 1+dur s (with a
// word for each field of text when words is set) and checks checkSubtitles,
// that the parts span the cue, and that the text decomposed (NFD) gives the
// composed text's parts, each in NFD, at the same times: widths and the
// interpolated times count the text as read in NFC.
func checkSubtitlesOf(t *testing.T, text string, lineChars, lines int, secs, dur float64, words bool) {
	t.Helper()
	if !utf8.ValidString(text) || lineChars < 0 || lineChars > 200 || lines < 0 || lines > 5 ||
		!(secs >= 0 && secs < 100) || !(dur >= 0 && dur < 1000) || len(text) > 2000 {
		return
	}
	o := SubtitleOptions{MaxLineChars: lineChars, MaxLines: lines, MaxCueSeconds: secs}
	layout := func(text string) (Cue, []Cue) {
		c := Cue{Text: text, Start: 1, End: 1 + dur}
		if words {
			fs := strings.Fields(text)
			for k, w := range fs {
				s := 1 + dur*float64(k)/float64(len(fs))
				c.Words = append(c.Words, Word{Word: w, Start: s, End: s + dur/float64(2*len(fs))})
			}
		}
		out, err := Subtitles(context.Background(), []Cue{c}, o)
		if err != nil {
			t.Fatal(err)
		}
		return c, out
	}
	c, out := layout(text)
	checkSubtitles(t, []Cue{c}, o, out)
	if len(out) > 0 && (math.Abs(out[0].Start-c.Start) > 1e-6 || math.Abs(out[len(out)-1].End-c.End) > 1e-6) {
		t.Errorf("parts span %v-%v; want the cue's %v-%v", out[0].Start, out[len(out)-1].End, c.Start, c.End)
	}
	nfdText := norm.NFD.String(text)
	_, want := layout(norm.NFC.String(text))
	_, got := layout(nfdText)
	checkDecomposed(t, nfdText, cueTexts(got), cueTexts(want))
	if len(got) == len(want) {
		for k := range got {
			if got[k].Start != want[k].Start || got[k].End != want[k].End {
				t.Errorf("NFD %+q part %d at %v-%v; the NFC text's at %v-%v", nfdText, k, got[k].Start, got[k].End, want[k].Start, want[k].End)
			}
		}
	}
}
