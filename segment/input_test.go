package segment

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/sottolabs/sotto/internal/nfc"
)

func TestReadNFC(t *testing.T) {
	for _, tc := range []struct {
		in, read string
		runs     []nfc.Run
	}{
		{"plain. Text", "plain. Text", nil},
		{"Cafe\u0301. Ok", "Café. Ok", []nfc.Run{run(3, 5, 3, 6)}},
		{"Ja\u0308n. und O\u0308l", "Jän. und Öl", []nfc.Run{run(1, 3, 1, 4), run(10, 12, 11, 14)}},
		// Marks in the wrong order: NFC puts them in order.
		{"q\u0307\u0323.", "q\u0323\u0307.", []nfc.Run{run(0, 5, 0, 5)}},
		// Replaced by NFC, kept: the Greek question mark (NFC ';'), the
		// ångström sign, Devanagari U+095D (an exclusion).
		{"Τι;\u037E A\u030A \u212B \u095D", "Τι;\u037E Å \u212B \u095D", []nfc.Run{run(8, 10, 8, 11)}},
		{"\u0301x", "\u0301x", nil}, // a mark with no letter
	} {
		read, runs := readNFC(tc.in)
		if read != tc.read || len(runs) != len(tc.runs) {
			t.Errorf("readNFC(%q) = %q, %v; want %q, %v", tc.in, read, runs, tc.read, tc.runs)
			continue
		}
		for k := range runs {
			if runs[k] != tc.runs[k] {
				t.Errorf("readNFC(%q) runs = %v; want %v", tc.in, runs, tc.runs)
				break
			}
		}
		// Every read-form offset maps to an input offset; offsets outside
		// the runs keep the text after them.
		for x := 0; x <= len(read); x++ {
			o := fromRead(runs, x)
			if o < 0 || o > len(tc.in) || (x > 0 && o < fromRead(runs, x-1)) {
				t.Fatalf("readNFC(%q): fromRead(%d) = %d, out of order or range", tc.in, x, o)
			}
			if inside := insideRun(runs, x); !inside && norm.NFC.String(tc.in[o:]) != norm.NFC.String(read[x:]) {
				t.Errorf("readNFC(%q): read[%d:] = %q but input[%d:] = %q", tc.in, x, read[x:], o, tc.in[o:])
			}
		}
	}
}

// run is an nfc.Run: read-form bytes [rs, re) for input bytes [os, oe).
func run(rs, re, os, oe int) nfc.Run {
	return nfc.Run{ReadStart: rs, ReadEnd: re, InStart: os, InEnd: oe}
}

func insideRun(runs []nfc.Run, x int) bool {
	for _, r := range runs {
		if r.ReadStart < x && x < r.ReadEnd {
			return true
		}
	}
	return false
}

// Decomposed text splits where composed text does, and each item is the
// input's bytes as sent (the decomposed letters the rules look up: a German
// month, a Slovak date, Kazakh, the Japanese polite ending で).
func TestTextDecomposed(t *testing.T) {
	for _, tc := range []struct {
		text, lang string
		want       []string
	}{
		{"Am 13. Jän. 2006 kam er. Dann ging er.", "de", []string{"Am 13. Jän. 2006 kam er.", "Dann ging er."}},
		{"Stretneme sa 7. Apríla v Bratislave. Potom pôjdeme domov.", "sk", nil},
		{"これはペンでした。あれは本です。", "ja", []string{"これはペンでした。", "あれは本です。"}},
		{"Café au lait. Crème brûlée. Voilà!", "fr", []string{"Café au lait.", "Crème brûlée.", "Voilà!"}},
		{"Τι κάνεις; Καλά.", "el", nil},
		// A line break between two CJK characters goes, also after one
		// written decomposed (が as か + U+3099).
		{"これは本が\nあります。", "ja", []string{"これは本があります。"}},
	} {
		ctx := context.Background()
		nfc, nfd := norm.NFC.String(tc.text), norm.NFD.String(tc.text)
		if nfd == nfc {
			t.Fatalf("%q has no decomposable letter", tc.text)
		}
		for _, lang := range []string{tc.lang, ""} {
			want, err := Sentences(ctx, nfc, Options{Language: lang})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && lang != "" && strings.Join(want, "|") != strings.Join(tc.want, "|") {
				t.Errorf("Sentences(%q) = %q; want %q", nfc, want, tc.want)
			}
			got, err := Sentences(ctx, nfd, Options{Language: lang})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Errorf("language %q: decomposed %q gives %q; composed gives %q", lang, nfd, got, want)
				continue
			}
			for k := range got {
				if got[k] != norm.NFD.String(want[k]) {
					t.Errorf("language %q: decomposed item %d = %q; want %q as sent (decomposed)", lang, k, got[k], norm.NFD.String(want[k]))
				}
			}
		}
	}
}

// Every case of the shared segmentation suites written in NFD gives the
// sentences of the case as written (the API's variant check, in process),
// with the language given.
func TestSuitesDecomposed(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every suite")
	}
	dir := filepath.Join(testdataDir(t), "text", "segment")
	ctx := context.Background()
	n, diff := 0, 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return err
		}
		for _, c := range readSuite(t, path) {
			nfd := norm.NFD.String(c.Input)
			if nfd == c.Input {
				continue
			}
			n++
			want, err := Sentences(ctx, norm.NFC.String(c.Input), Options{Language: c.Lang})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Sentences(ctx, nfd, Options{Language: c.Lang})
			if err != nil {
				t.Fatal(err)
			}
			same := len(got) == len(want)
			for k := 0; same && k < len(got); k++ {
				same = norm.NFC.String(got[k]) == want[k] && norm.NFD.String(got[k]) == got[k]
			}
			if !same {
				diff++
				if diff <= 5 {
					t.Errorf("%s: NFD of %.80q gives %d sentences; NFC gives %d", filepath.Base(path), c.Input, len(got), len(want))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cases change in NFD; %d segment differently", n, diff)
	if diff > 0 {
		t.Errorf("%d of %d cases in NFD segment differently from NFC", diff, n)
	}
}

// Timed cues decide in NFC too and keep their text as sent.
func TestCuesDecomposed(t *testing.T) {
	text := "Am 13. Jän. 2006 kam er. Dann ging er."
	for _, in := range []string{norm.NFC.String(text), norm.NFD.String(text)} {
		cs, err := Cues(context.Background(), []Cue{{Text: in, Start: 0, End: 4}}, Options{Language: "de"})
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != 2 || cs[0].Text+" "+cs[1].Text != in {
			t.Errorf("Cues(%q) = %+v; want two cues of the text as sent", in, cs)
		}
	}
}

// Marks after a space that NFC reorders (" \u0301\u0323" reads
// " \u0323\u0301", one changed run starting at the space) open the next item
// and stay in it: the item starts inside the run, after the trimmed space.
// Every item keeps the input's bytes as sent, sentences, cues of a length,
// paragraphs and timed cues alike ("Items keep the input's words").
func TestMarksAfterSpace(t *testing.T) {
	ctx := context.Background()
	one := Float(0.35)
	for _, tc := range []struct {
		text string
		opts Options
		want []string
	}{
		{"Hello there. \u0301\u0323Next one is here.", Options{}, []string{"Hello there.", "\u0301\u0323Next one is here."}},
		{"Hello there.\n\n\u0301\u0323Next one.", Options{ParagraphThreshold: one}, []string{"Hello there.", "\u0301\u0323Next one."}},
		{"aaaa bbbb cccc \u0301\u0323dddd eeee", Options{Length: &Length{MinChars: 1, MaxChars: 10}}, []string{"aaaa bbbb", "cccc", "\u0301\u0323dddd", "eeee"}},
		// In the same run as a letter the marks stay with it.
		{"Hello there. Ne\u0301\u0323xt one.", Options{}, []string{"Hello there.", "Ne\u0301\u0323xt one."}},
		// Marks NFC reorders after a stop that needs no space stay with
		// the stop, and max_chars counts them there: "ab cd।" is six
		// characters of the read form before them, eight with them.
		{"ab cd।̣́ef gh", Options{Length: &Length{MinChars: 1, MaxChars: 6}}, []string{"ab", "cd।̣́", "ef gh"}},
		{"ab cd।̣́ef gh", Options{}, []string{"ab cd।̣́", "ef gh"}},
		// A mark NFC replaces keeps its run as written: nothing to map.
		{"Hello there. \u0344Next one.", Options{}, []string{"Hello there.", "\u0344Next one."}},
	} {
		got, err := Sentences(ctx, tc.text, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Sentences(%+q) = %+q; want %+q", tc.text, got, tc.want)
		}
	}
	in := "Hello there. \u0301\u0323Next one is here."
	cs, err := Cues(ctx, []Cue{{Text: in, Start: 0, End: 4}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Text+" "+cs[1].Text != in {
		t.Errorf("Cues(%+q) = %+v; want two cues of the text as sent", in, cs)
	}
}

// Timed cues count max_chars and min_chars in characters of the read form
// (NFC), as Text does: decomposed input gives the cues composed input gives,
// at the same times, each cue's text as sent. Before, Cues counted code
// points of the input, so a decomposed cue split earlier (a letter and its
// mark counted twice, a Hangul syllable as its two or three jamo) and
// decomposed kana lost the places between CJK characters to split at.
func TestCuesLengthReadForm(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		text     string
		lang     string
		min, max int
		want     []string // the cues of the composed text
	}{
		{"Über Öl äße ich Käse, aber Bäume übe ich nie.", "de", 1, 12, []string{"Über Öl äße", "ich Käse,", "aber Bäume", "übe ich nie."}},
		{"Tiếng Việt rất đẹp và dễ học lắm.", "", 1, 10, []string{"Tiếng Việt", "rất đẹp và", "dễ học", "lắm."}},
		{"한국어 문장을 나눕니다 아주 잘 됩니다", "", 1, 7, []string{"한국어 문장을", "나눕니다 아주", "잘 됩니다"}},
		{"ですがだめでしたがぎぐげござじずぜぞ", "ja", 1, 6, []string{"ですがだめで", "したがぎぐげ", "ござじずぜぞ"}},
		// min_chars merges in the same characters: "Café" is four.
		{"Café crème. Thé. Très bon.", "fr", 5, 12, []string{"Café crème.", "Thé.", "Très bon."}},
	} {
		var got [2][]Cue
		for k, in := range []string{norm.NFC.String(tc.text), norm.NFD.String(tc.text)} {
			opts := Options{Language: tc.lang, Length: &Length{MinChars: tc.min, MaxChars: tc.max}}
			cs, err := Cues(ctx, []Cue{{Text: in, Start: 1, End: 9}}, opts)
			if err != nil {
				t.Fatal(err)
			}
			got[k] = cs
			items, err := Sentences(ctx, in, opts)
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, c := range cs {
				texts = append(texts, c.Text)
			}
			if strings.Join(texts, "|") != strings.Join(items, "|") {
				t.Errorf("Cues(%+q) = %+q; Text gives %+q", in, texts, items)
			}
		}
		var texts []string
		for _, c := range got[0] {
			texts = append(texts, c.Text)
		}
		if strings.Join(texts, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Cues(%q, max %d) = %q; want %q", tc.text, tc.max, texts, tc.want)
		}
		if len(got[1]) != len(got[0]) {
			t.Errorf("Cues(NFD %q) = %+v; the NFC text gives %+v", tc.text, got[1], got[0])
			continue
		}
		for k, c := range got[1] {
			w := got[0][k]
			if norm.NFC.String(c.Text) != w.Text || !norm.NFD.IsNormalString(c.Text) || c.Start != w.Start || c.End != w.End {
				t.Errorf("Cues(NFD %q) cue %d = %+v; the NFC text gives %+v", tc.text, k, c, w)
			}
		}
	}
}
