package tts

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Package normalize reads its input in NFC and writes the text between its
// spans in NFC, so the spoken text of decomposed input is shorter than the
// input around every composed letter: each word's source bytes must still
// be the input's as sent.
func TestWordSourcesDecomposedInput(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // "word=source", source as sent, in order
	}{
		{"Cafe\u0301 at 5 pm", []string{"Café=Cafe\u0301", "at=at", "five=5 pm", "PM=5 pm"}},
		{"Ame\u0301lie paid $5 for cre\u0300me bru\u0302le\u0301e. Then we left.", []string{
			"Amélie=Ame\u0301lie", "paid=paid", "five=$5", "dollars=$5", "for=for",
			"crème=cre\u0300me", "brûlée=bru\u0302le\u0301e", "Then=Then", "we=we", "left=left"}},
		// Marks in the wrong order are reordered by NFC: the word reads the
		// whole run as sent.
		{"Say q\u0307\u0323 now", []string{"Say=Say", "q\u0323\u0307=q\u0307\u0323", "now=now"}},
		// The ångström sign is kept as written by normalize (NFC would make
		// it Å), so it maps byte for byte.
		{"\u212B and A\u030A twice", []string{"\u212B=\u212B", "and=and", "Å=A\u030A", "twice=twice"}},
		// Composed letters right before and after a converted span; a word
		// that runs across them reads all it runs across.
		{"(e\u0301)$5(e\u0301)", []string{"é=e\u0301", "five=$5", "dollars=$5", "é=e\u0301"}},
		{"nai\u0308ve-5-e\u0301", []string{"naïve-five-é=nai\u0308ve-5-e\u0301"}},
		{"Caf\u00e9 at 5 pm", []string{"Café=Caf\u00e9", "at=at", "five=5 pm", "PM=5 pm"}},
	} {
		ss, err := prepare(context.Background(), tc.in, "en")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range ss {
			for _, w := range s.words {
				if w.srcStart < 0 || w.srcEnd > len(tc.in) || w.srcStart > w.srcEnd {
					t.Errorf("%q: word %q reads bytes [%d, %d)", tc.in, w.text, w.srcStart, w.srcEnd)
					continue
				}
				got = append(got, w.text+"="+tc.in[w.srcStart:w.srcEnd])
			}
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
		// The same text composed speaks the same words, each reading the
		// composed form of the same source.
		if nfc := norm.NFC.String(tc.in); nfc != tc.in && !strings.ContainsRune(tc.in, '\u212B') {
			cs, err := prepare(context.Background(), nfc, "en")
			if err != nil {
				t.Fatal(err)
			}
			var comp []string
			for _, s := range cs {
				for _, w := range s.words {
					comp = append(comp, w.text+"="+nfc[w.srcStart:w.srcEnd])
				}
			}
			if strings.Join(comp, "|") != norm.NFC.String(strings.Join(got, "|")) {
				t.Errorf("%q in NFC: %q; want the NFC of %q", tc.in, comp, got)
			}
		}
	}
}

// mapSpoken refuses to trace words when the spoken text is not the source
// with the spans replaced: every word then reads -1, -1.
func TestWordSourcesUntraceable(t *testing.T) {
	for _, tc := range []struct {
		spoken, src string
	}{
		{"hello world", "hello there"},
		{"Café", "Cafe\u0301 extra"},
		{"five", "$5"}, // a span missing
	} {
		if ps := mapSpoken(tc.spoken, tc.src, nil); ps != nil {
			t.Errorf("mapSpoken(%q, %q) = %v; want nil", tc.spoken, tc.src, ps)
		}
	}
}

// FuzzWordSources checks that every spoken word of any text reads a byte
// range of the input on rune boundaries, in order, and that the text
// decomposed (NFD) traces as many words as the text composed.
func FuzzWordSources(f *testing.F) {
	f.Add("Cafe\u0301 at 5 pm. I paid $12.50 today.")
	f.Add("(e\u0301)$5(e\u0301) nai\u0308ve-5-e\u0301 q\u0307\u0323 \u212B A\u030A")
	f.Add("Dr. Smith arrived at 5 p.m.\nHe left on 3/4/2020 at 10:30.")
	// Characters NFC treats specially beside numbers (a span may start or
	// end next to them), marks after a space, joiners, U+FEFF, RTL marks.
	f.Add("5\u212b 3\u2126 2\u037e \u0344 4\u0f73 \uf900 \u095d 7 \uac00\u11a8 8")
	f.Add("I paid $5. \u0301\u0323Then 3 \u200d4 \ufeff5 \u200f6\u200e \u2764\ufe0f 7 \uff11\uff12")
	f.Fuzz(checkWordSources)
}

// checkWordSources checks FuzzWordSources's invariants on text: every
// traced word's source range lies on rune boundaries, in order, within
// the input; the decomposed (NFD) text traces no fewer words than the
// composed one.
func checkWordSources(t *testing.T, text string) {
	t.Helper()
	if !utf8.ValidString(text) || len(text) > 2000 {
		return
	}
	traced := func(in string) int {
		ss, err := prepare(context.Background(), in, "en")
		if err != nil {
			t.Fatalf("prepare(%q): %v", in, err)
		}
		n, last := 0, 0
		for _, s := range ss {
			for _, w := range s.words {
				if w.srcStart < 0 {
					continue
				}
				if w.srcStart > w.srcEnd || w.srcEnd > len(in) || w.srcStart < last ||
					(w.srcStart < len(in) && !utf8.RuneStart(in[w.srcStart])) || (w.srcEnd < len(in) && !utf8.RuneStart(in[w.srcEnd])) {
					t.Fatalf("prepare(%q): word %q reads [%d, %d) after %d", in, w.text, w.srcStart, w.srcEnd, last)
				}
				n, last = n+1, w.srcStart
			}
		}
		return n
	}
	nfc, nfd := norm.NFC.String(text), norm.NFD.String(text)
	if a, b := traced(nfc), traced(nfd); b < a {
		t.Errorf("%q: %d words traced in NFD, %d in NFC", text, b, a)
	}
}
