package segment

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSentences measures sentence mode on English prose: the inputs of
// the UD English treebanks from the shared test data.
func BenchmarkSentences(b *testing.B) {
	dir := filepath.Join(testdataDir(b), "text", "segment", "en")
	var sb strings.Builder
	for _, f := range []string{"ud_english-ewt/en_ewt-ud-test.sentences.jsonl", "ud_english-pud/en_pud-ud-test.sentences.jsonl"} {
		for _, c := range readSuiteTB(b, filepath.Join(dir, f)) {
			sb.WriteString(c.Input)
			sb.WriteString("\n\n")
		}
	}
	text := sb.String()
	ctx := context.Background()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Sentences(ctx, text, Options{Language: "en"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(text))*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s-text")
}

// BenchmarkCues measures cue mode on timed input without words.
func BenchmarkCues(b *testing.B) {
	var in []Cue
	t := 0.0
	for i := range 2000 {
		text := "This is a fairly long spoken segment, and it goes on for a while before it stops. Then another one follows it."
		if i%3 == 0 {
			text = "short one"
		}
		in = append(in, Cue{Text: text, Start: t, End: t + 4, Speaker: []string{"A", "B"}[i%7/6]})
		t += 4.5
	}
	opts := Options{Length: &Length{MinChars: 12, MaxChars: 42}, Margins: &Margins{Start: 0.2, End: 0.2}}
	for b.Loop() {
		if _, err := Cues(context.Background(), in, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSubtitles lays out one long timed segment of 5000 words (a
// transcript aligned without sentence splitting) at the default limits.
func BenchmarkSubtitles(b *testing.B) {
	var sb strings.Builder
	var ws []Word
	t := 0.0
	for i := range 5000 {
		w := [...]string{"the", "river", "runs,", "slowly", "towards", "an", "old", "harbour.", "Then"}[i%9]
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(w)
		ws = append(ws, Word{Word: strings.Trim(w, ",."), Start: t, End: t + 0.3})
		t += 0.35
	}
	in := []Cue{{Text: sb.String(), Start: 0, End: t, Words: ws}}
	for b.Loop() {
		if _, err := Subtitles(context.Background(), in, DefaultSubtitleOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
