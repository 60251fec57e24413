package tts

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestSpeakableSourceBytes(t *testing.T) {
	in := "Well, I paid $12.50 today."
	s, err := speakable(context.Background(), in, "en", 100)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, w := range s.words {
		got[w.text] = in[w.srcStart-100 : w.srcEnd-100]
	}
	for word, src := range map[string]string{"Well": "Well", "paid": "paid", "twelve": "$12.50", "cents": "$12.50", "today": "today"} {
		if got[word] != src {
			t.Errorf("word %q reads %q of the input; want %q (all: %v)", word, got[word], src, got)
		}
	}
}

func TestLocate(t *testing.T) {
	text := "One.  Two\nthree.  Four."
	for _, tc := range []struct {
		from     int
		sentence string
		want     string
	}{
		{0, "One.", "One."},
		{4, "Two three.", "Two\nthree."},
		{4, "Four.", "Four."},
		{20, "One.", ""},
	} {
		a, b, ok := locate(text, tc.from, tc.sentence)
		if got := ""; ok {
			got = text[a:b]
			if got != tc.want {
				t.Errorf("locate(%d, %q) = %q; want %q", tc.from, tc.sentence, got, tc.want)
			}
		} else if tc.want != "" {
			t.Errorf("locate(%d, %q) found nothing; want %q", tc.from, tc.sentence, tc.want)
		}
	}
}

func TestMarks(t *testing.T) {
	if _, err := os.Stat("/usr/share/pocketsphinx/model/en-us/en-us/mdef"); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	b := openOrSkip(t, "flite", "flite")
	in := "The ticket costs $12.50. Please be on time."
	var marks []Mark
	var secs float64
	for c, err := range Stream(context.Background(), b, in, Options{Voice: "builtin:rms", Marks: true}) {
		if err != nil {
			t.Fatal(err)
		}
		marks = append(marks, c.Marks...)
		secs += float64(len(c.Samples)) / float64(c.Rate)
	}
	var words []string
	for i, m := range marks {
		words = append(words, m.Word)
		if m.Start < 0 || m.End <= m.Start || m.End > secs+0.01 || (i > 0 && m.Start < marks[i-1].Start) {
			t.Errorf("mark %d %+v is out of order or outside the %.2f s of audio", i, m, secs)
		}
	}
	if j := strings.Join(words, " "); !strings.Contains(j, "twelve dollars") || !strings.Contains(j, "Please") || len(marks) < 9 {
		t.Fatalf("marks = %q; want every spoken word", j)
	}
	for _, m := range marks {
		if m.Word == "twelve" && in[m.SourceStartByte:m.SourceEndByte] != "$12.50" {
			t.Errorf("twelve reads %q; want $12.50", in[m.SourceStartByte:m.SourceEndByte])
		}
		if m.Word == "Please" && (in[m.SourceStartByte:m.SourceEndByte] != "Please" || m.Start < 1) {
			t.Errorf("Please = %+v; want the second sentence's first word", m)
		}
	}
}
