package segment

import (
	"context"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestAlignWordsAcrossForms checks that a segment's timed words are found in
// its text whatever the normalization form of either: the text as sent is
// kept (not the words joined), and each word keeps its times.
func TestAlignWordsAcrossForms(t *testing.T) {
	for _, tc := range []struct {
		name  string
		text  string
		words []string
		want  []string // what each word's span holds, read in NFC, or nil for "not found"
	}{
		{"latin", "Café crème, s'il vous plaît.", []string{"Café", "crème,", "s'il", "vous", "plaît."}, []string{"Café", "crème,", "s'il", "vous", "plaît."}},
		{"vietnamese", "Tiếng Việt", []string{"tiếng", "việt"}, []string{"Tiếng", "Việt"}},
		{"hangul", "한국어 문장", []string{"한국어", "문장"}, []string{"한국어", "문장"}},
		{"kana", "がぎ ぐ", []string{"がぎ", "ぐ"}, []string{"がぎ", "ぐ"}},
		{"other word", "Café", []string{"Cafe"}, nil},
		{"other mark", "Café", []string{"Cafè"}, nil},
	} {
		for _, tf := range []norm.Form{norm.NFC, norm.NFD} {
			for _, wf := range []norm.Form{norm.NFC, norm.NFD} {
				text := tf.String(tc.text)
				ws := make([]Word, len(tc.words))
				for k, w := range tc.words {
					ws[k] = Word{Word: wf.String(w), Start: float64(k), End: float64(k) + 0.5}
				}
				spans, ok := alignWords(text, ws)
				if tc.want == nil {
					if ok {
						t.Errorf("%s: alignWords(%+q, %+q) = %v; want not found", tc.name, text, tc.words, spans)
					}
					continue
				}
				if !ok {
					t.Errorf("%s (text %v, words %v): alignWords(%+q) not found", tc.name, tf, wf, text)
					continue
				}
				for k, sp := range spans {
					got := norm.NFC.String(text[sp[0]:sp[1]])
					if got != tc.want[k] {
						t.Errorf("%s (text %v, words %v): word %d spans %q; want %q", tc.name, tf, wf, k, got, tc.want[k])
					}
				}
			}
		}
	}
	// Through Cues: decomposed words on composed text keep the text as sent.
	text := "Café crème. Très bon."
	var ws []Word
	for k, w := range []string{"Café", "crème.", "Très", "bon."} {
		ws = append(ws, Word{Word: norm.NFD.String(w), Start: float64(k), End: float64(k) + 0.8})
	}
	cs, err := Cues(context.Background(), []Cue{{Text: text, Start: 0, End: 4, Words: ws}}, Options{Language: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Text != "Café crème." || cs[1].Text != "Très bon." || cs[1].Start != 2 || cs[0].End != 1.8 {
		t.Errorf("Cues(decomposed words on composed text) = %+v; want the text as sent in two cues timed by the words", cs)
	}
}
