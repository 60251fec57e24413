package segment

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzLangs are the languages FuzzText selects with a negative maxC, so
// that rules limited to one language (English sign-offs, the Arabic comma)
// are fuzzed too.
var fuzzLangs = []string{"", "en", "ar", "de", "ja", "ru", "es", "da"}

// FuzzText checks that segmentation never panics, keeps every non-space
// character in order, trims its items and respects max_chars (except for
// single words longer than it). A negative maxC turns length constraints
// off and picks a language from fuzzLangs instead of guessing it.
func FuzzText(f *testing.F) {
	for _, s := range monotonicTexts {
		f.Add(s, 0.35, 0)
		f.Add(s, 0.35, -1)
	}
	f.Add("ذهبت إلى السوق، واشتريت الخبز، والموز، ثم عدت", 0.35, -2)
	f.Add("Hi Sara, I wrote.\n\n-- \nThanks - Davis 06/02/2001 10:53 AM Please :) lol", 0.2, -1)
	f.Add("1. a 2. b\n\n• c", 0.0, 10)
	f.Add("「。」。”“...…. . . .", 1.0, 3)
	f.Add("e.g. U.S.A. Mr. 3.14. «a.». (x.) y.", 0.5, 42)
	f.Add("(1) a (2) b • c • d ⁃9. x ⁃10. y i. a ii. b (iv) c IV. d", 0.35, -1)
	f.Add("in 2019.The end (1932).Then auf S. 5. Dann · x · y ➢ z ➢ w", 0.35, -3)
	f.Add("а) x б) y в) z α. a β. b и т. д. Потом 31.12. Dann 1,80 m. Il det. Han", 0.35, -6)
	f.Add("Thanks Kam could you? ? King.....But Sid Vincent,\n\nfine: http://a.b/c\nthe\nEnd", 0.35, -2)
	f.Add("8 p.m. EST. X 3 p.m. ET y!! 🎉 So 🔹 a\n🔹 b 10 h aprox. T Kerkstr. 4. Hij end... I dvs. x 13. Jän. 2006", 0.35, -1)
	f.Add("Es sind zzt. 5 Plätze frei, usf. Die NATO. Zzt. 3 2.º izq. Llame al tfno. 91 ص.ب. 5 إلخ. ثم", 0.35, -1)
	f.Add("3-1.Los 2–1.Ο x 1۔ فارم\n2۔ y ၁။ a\n（一）总则\n一、x\n（1）z。）と बी. आर. आंबेडकर कि.मी. افتاد.همه 5 т. Машина 9 μ.μ. Ε کہا: ”x“", 0.35, 0)
	f.Add("(a.)b （。）(（)） 1、\n①x ١. ٢. 3-.A -3.B 1-2-3.C", 0.35, -4)
	// Decomposed letters (NFD), as macOS and some editors write them, and
	// marks NFC reorders or cannot compose.
	f.Add("Am 13. Ja\u0308n. 2006 kam er. Cafe\u0301. O\u0308l.", 0.35, -4)
	f.Add("これはペンて\u3099した。あれは本て\u3099す。q\u0307\u0323. \u0301x. A\u030A \u212B \u037E", 0.35, 12)
	f.Add("7. Apri\u0301la. жагдаи\u0306ы.XVIII e\u0301", 0.0, -1)
	f.Add("000 A\u0308", 0.35, 5)   // five characters in NFC, six code points as sent
	f.Add("x कि0म\u095d“", 0.35, 8) // U+095D is read as written: eight characters, nine in NFC
	// Marks NFC reorders after a space open the next item (dropped when
	// its start went to the run's end); after a stop that needs no space
	// they count in the item before (eight characters, not six).
	f.Add("Hello there. \u0301\u0323Next one is here.", 0.0, -1)
	f.Add("ab cd\u0964\u0301\u0323ef gh", 0.0, 6)
	// One seed per class of character NFC treats specially, each where a
	// count of code points or of NFC characters differs from the read
	// form's: composition exclusions (Devanagari, Bengali, Gurmukhi,
	// Hebrew), singletons (ångström, Greek question mark, ohm, U+0340),
	// non-starter decompositions (U+0344, U+0F73), Hangul syllables and
	// conjoining jamo, marks with no base, ZWJ and ZWNJ, variation
	// selectors, emoji sequences, full and half width forms, CJK
	// compatibility ideographs, U+FEFF, RTL marks.
	f.Add("\u0958\u0959 \u09dc\u09dd. \u0a33\u0a5e x \ufb1d\ufb2a y z", 0.35, 6)
	f.Add("\u212b \u037e \u2126 a\u0340b c d. \u212bA", 0.35, 7)
	f.Add("o\u0344 \u0f40\u0f73 x\u0344\u0323 y z w", 0.0, 5)
	f.Add("\u1100\u1161\u11a8 \uac00\u11a8 \u1100\u1161. \u1112\u1161\u11ab \uac01", 0.35, 4)
	f.Add("\u0301\u0302 a \u0323\u0301 b. \u0300x \u05b0\u05b1 y", 0.0, 4)
	f.Add("क\u094d\u200dष x\u200cy \u200d\u200c. a\u200db c", 0.35, 5)
	f.Add("\u845b\U000e0100 \u2764\ufe0f \u263a\ufe0e x. \ufe0f\ufe0f y", 0.35, 4)
	f.Add("\U0001f468\u200d\U0001f469\u200d\U0001f467 \U0001f44d\U0001f3fd \U0001f1e9\U0001f1ea. \U0001f3f4\U000e0067\U000e0062\U000e007f x", 0.35, 5)
	f.Add("\uff21\uff22\uff0e \uff23 \uff76\uff9e\uff77\uff9e. \uff8a\uff9f x", 0.35, 4)
	f.Add("\uf900\uf901\uf902\u3002 \ufa10 \U0002f800 x. \uf900 y", 0.35, 3)
	f.Add("\ufeffHello. \ufeff\u0301 x \ufeff y z", 0.0, 5)
	f.Add("\u200fשלום. \u200e\u202bx\u202c \u2067\u0627\u2069 \u061c\u0628. c", 0.35, 4)
	f.Fuzz(func(t *testing.T, text string, th float64, maxC int) {
		if !utf8.ValidString(text) || !inUnit(th) {
			return
		}
		opts := fuzzOptions(maxC, th)
		r, err := Text(context.Background(), text, opts)
		if err != nil {
			t.Fatalf("Text(%q) error: %v", text, err)
		}
		items := make([]string, len(r.Segments))
		for k, s := range r.Segments {
			items[k] = s.Text
		}
		checkItems(t, text, items, opts.Length)
	})
}

// FuzzDecomposed checks that a text and the same text decomposed (NFD)
// give the same items, each in the bytes it was sent: the decisions are
// made on NFC.
func FuzzDecomposed(f *testing.F) {
	for _, s := range monotonicTexts {
		f.Add(s, 0)
	}
	f.Add("Am 13. Jän. 2006 kam er. Café. Öl.", -1)
	f.Add("これはペンでした。あれは本です。", 10)
	f.Add("Stretneme sa 7. Apríla v Bratislave. жағдайы.XVIII", -2)
	f.Add("Ça va? Très bien.\n\nÀ bientôt. q\u0307\u0323. ộ ố", -3)
	// Characters NFC replaces (exclusions, singletons, non-starter
	// decompositions, compatibility ideographs), Hangul, marks after a
	// space or a stop: the NFC and NFD texts read alike.
	f.Add("\u095d \u212b \u037e \u2126 \u0344 \u0f73 \uf900 \ufb1d. \u0958 x", 5)
	f.Add("Hello there. \u0301\u0323Next one. ab cd\u0964\u0301\u0323ef gh", 6)
	f.Add("\uac01 \u1100\u1161\u11a8. \ud55c\uad6d\uc5b4 \u200d \ufeff x", -1)
	// A line break after a kana written decomposed (か + U+3099) joins
	// two CJK characters: no space, as after が.
	f.Add("\u304c\n\u3002 \u304c\n\uff24", 7)
	f.Fuzz(func(t *testing.T, text string, maxC int) {
		if !utf8.ValidString(text) {
			return
		}
		opts := fuzzOptions(maxC, DefaultThreshold)
		opts.Threshold = nil
		checkTextDecomposed(t, text, opts)
	})
}

func hasCJK(s string) bool {
	for _, r := range s {
		if isCJK(r) {
			return true
		}
	}
	return false
}

// FuzzDecodeRequest checks that any body either fails with a typed error or
// validates and segments without panicking, and that a valid request
// survives a JSON round trip with the same options.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(`{"text": "Hi. Bye.", "threshold": 0.5, "options": {"max_chars": 20}}`)
	f.Add(`{"segments": ` + segTimed + `, "max_chars": 12, "end_margin": 0}`)
	f.Add(`{"text": "a", "paragraph_threshold": 0.9}`)
	f.Add(`{"file": "/x.json"}`)
	f.Fuzz(func(t *testing.T, body string) {
		req, err := DecodeRequest(strings.NewReader(body))
		if err != nil {
			checkTyped(t, err)
			return
		}
		o, err := req.SegmentOptions(false)
		if err != nil {
			checkTyped(t, err)
			return
		}
		js, err := json.Marshal(req)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", req, err)
		}
		req2, err := DecodeRequest(bytes.NewReader(js))
		if err != nil {
			t.Fatalf("DecodeRequest(round trip %s): %v", js, err)
		}
		o2, err := req2.SegmentOptions(false)
		if err != nil || !equalOptions(o, o2) {
			t.Errorf("round trip changed options: %+v, %v vs %+v", o, err, o2)
		}
		if len(body) < 2000 {
			if _, err := Segment(context.Background(), req, false); err != nil {
				checkTyped(t, err)
			}
		}
	})
}

func equalOptions(a, b Options) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func checkTyped(t *testing.T, err error) {
	t.Helper()
	if _, ok := err.(interface{ Is(error) bool }); !ok {
		t.Errorf("error %v (%T) is not a *sotto.Error", err, err)
	}
}

// FuzzParseTranscript checks that transcripts parse or fail with a typed
// error, and that parsed timed segments re-segment without panicking.
func FuzzParseTranscript(f *testing.F) {
	f.Add(`{"segments": ` + segTimed + `}`)
	f.Add(`{"words": [{"word": "hi.", "start": 0, "end": 1}, {"word": "yo", "start": 3, "end": 3.5}]}`)
	f.Add(`[{"text": "a", "start": 0, "end": 1, "words": [{"text": "a", "start": 0, "end": 1}]}]`)
	f.Add(`{"text": "Plain."}`)
	f.Add(`{"segments": [{"text": "a b", "start": 1e308, "end": 1e308}]}`)
	f.Fuzz(func(t *testing.T, data string) {
		tr, err := ParseTranscript([]byte(data))
		if err != nil {
			checkTyped(t, err)
			return
		}
		if tr.Segments == nil {
			return
		}
		for _, m := range []*Margins{nil, {Start: 0.2, End: 0.2}} {
			cs, err := Cues(context.Background(), tr.Segments, Options{Margins: m, Length: &Length{MinChars: 5, MaxChars: 20}})
			if err != nil {
				checkTyped(t, err)
				continue
			}
			// The server writes the cues as JSON: every time is finite.
			if _, err := json.Marshal(cs); err != nil {
				t.Errorf("cues of %q do not encode as JSON: %v", data, err)
			}
			for i, c := range cs {
				if c.Start > c.End {
					t.Errorf("cue %d %+v ends before it starts", i, c)
				}
				if i > 0 && c.Start < cs[i-1].Start {
					t.Errorf("cue %d starts at %v before cue %d at %v", i, c.Start, i-1, cs[i-1].Start)
				}
			}
		}
	})
}
