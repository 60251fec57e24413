package segment

import (
	"context"
	"math"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/sottolabs/sotto/internal/nfc"
	"github.com/sottolabs/sotto/internal/nfc/nfctest"
)

// The invariants of Text and Cues, shared by the fuzz targets (FuzzText,
// FuzzDecomposed, FuzzCues) and by short seeded random checks over the
// characters NFC treats specially (nfctest.Special) and unicodePool. The random checks found
// segment bugs coverage-guided fuzzing had missed, because the fuzzer rarely
// builds such characters next to stops, spaces and each other.

// unicodePool holds the pieces a random check strings together beside
// nfctest.Special (the characters NFC treats specially): letters, stops of
// several scripts, quotes and brackets, abbreviations, white space.
var unicodePool = []string{"a", "b", "Cd", "Ef", "x.", ".", " ", " ", " ", "\n", "\n\n", "!", "?", "।", "。",
	"e", "A", "O", "u", "1", "5", ")", "\"", "«", "»", "Mr", "St", "ー", "؟", "۔", "Ｄ"}

// randomText strings together 1 to n pieces of unicodePool and
// nfctest.Special.
func randomText(r *rand.Rand, n int) string {
	return nfctest.Text(r, n, unicodePool, nfctest.Special)
}

// checkItems checks the items Text or Cues made of text: none is empty or
// untrimmed; together they hold every non-space character of text, in
// order; with l, none is longer than l.MaxChars characters of its read
// form (internal/nfc: NFC, a letter and its marks once, a run holding a
// character NFC replaces as written) unless it is a single word or holds
// CJK characters (which split only between characters the layout allows).
func checkItems(t testing.TB, text string, items []string, l *Length) {
	t.Helper()
	var b strings.Builder
	for _, s := range items {
		if s == "" || strings.TrimSpace(s) != s {
			t.Errorf("%+q: item %+q is empty or untrimmed", text, s)
		}
		if read, _ := nfc.Read(s); l != nil && runeLen(read) > l.MaxChars && len(strings.Fields(s)) > 1 && !hasCJK(s) {
			t.Errorf("%+q, max %d: item %+q is %d characters", text, l.MaxChars, s, runeLen(read))
		}
		b.WriteString(s)
	}
	if squash(b.String()) != squash(text) {
		t.Errorf("%+q: items %+q change the content", text, items)
	}
}

// checkDecomposed checks the items of a text decomposed (NFD) against those
// of the same text composed (NFC): as many, each the composed item in NFD
// (decisions are made on NFC, items are the bytes as sent).
func checkDecomposed(t testing.TB, nfd string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("NFD %+q gives %+q; the NFC text gives %+q", nfd, got, want)
		return
	}
	for k, s := range got {
		if norm.NFC.String(s) != want[k] || !norm.NFD.IsNormalString(s) {
			t.Errorf("NFD %+q item %d = %+q; the NFC text gives %+q", nfd, k, s, want[k])
		}
	}
}

// checkCueTimes checks that cues made of input spanning [start, end] stay
// in it, end after they start, and never start before the cue before.
func checkCueTimes(t testing.TB, text string, cs []Cue, start, end float64) {
	t.Helper()
	prev := math.Inf(-1)
	for _, c := range cs {
		if c.Start < start || c.End > end || c.End < c.Start || c.Start < prev {
			t.Errorf("%+q: cue %+q at %v-%v (input %v-%v, previous start %v)", text, c.Text, c.Start, c.End, start, end, prev)
		}
		prev = c.Start
	}
}

// cueTexts returns the texts of cs.
func cueTexts(cs []Cue) []string {
	out := make([]string, len(cs))
	for k, c := range cs {
		out[k] = c.Text
	}
	return out
}

// checkCues runs Cues on text as one timed segment (0 to 4 s) with opts and
// on the same text composed and decomposed, and checks the items
// (checkItems), their times, and that the decomposed text gives the
// composed text's cues at the same times.
//
// With words set, every field of the text is a timed word, spoken in half
// a step with a pause of a step after every third, so pauses add
// boundaries and times come from the words.
func checkCues(t testing.TB, text string, opts Options, words bool) {
	t.Helper()
	ctx := context.Background()
	cues := func(s string) []Cue {
		c := Cue{Text: s, Start: 0, End: 4}
		if fs := strings.Fields(s); words && len(fs) > 0 {
			step := 4 / float64(len(fs)+len(fs)/3)
			at := 0.0
			for k, w := range fs {
				c.Words = append(c.Words, Word{Word: w, Start: at, End: at + step/2})
				at += step
				if k%3 == 2 {
					at += step
				}
			}
		}
		cs, err := Cues(ctx, []Cue{c}, opts)
		if err != nil {
			t.Fatalf("Cues(%+q): %v", s, err)
		}
		return cs
	}
	cs := cues(text)
	checkItems(t, text, cueTexts(cs), opts.Length)
	checkCueTimes(t, text, cs, 0, 4)
	nfcText, nfdText := norm.NFC.String(text), norm.NFD.String(text)
	want, got := cues(nfcText), cues(nfdText)
	checkDecomposed(t, nfdText, cueTexts(got), cueTexts(want))
	if len(got) == len(want) {
		for k := range got {
			if got[k].Start != want[k].Start || got[k].End != want[k].End {
				t.Errorf("NFD %+q cue %d at %v-%v; the NFC text's at %v-%v", nfdText, k, got[k].Start, got[k].End, want[k].Start, want[k].End)
			}
		}
	}
}

// FuzzCues checks checkCues on arbitrary text: timed cues keep the text,
// trim their items, respect max_chars in characters of the read form, keep
// times in order, and give decomposed text the composed text's cues at the
// same times. maxC as in FuzzText.
func FuzzCues(f *testing.F) {
	for _, s := range monotonicTexts {
		f.Add(s, 0, true)
		f.Add(s, 12, true)
	}
	f.Add("Über Öl äße ich Käse, aber Bäume übe ich nie.", 12, true)
	f.Add("ですがだめでしたがぎぐげござじずぜぞ", 6, true)
	f.Add("한국어 문장을 나눕니다 아주 잘 됩니다", 7, false)
	f.Add("Hello there. \u0301\u0323Next one is here.", 5, false)
	f.Add("ab cd\u0964\u0301\u0323ef gh", 6, true)
	f.Add("\u095d \u212b \u037e \u2126 \u0344 \u0f73 \uf900 \ufb1d. \u0958 x", 5, false)
	f.Add("Am 13. Ja\u0308n. 2006 kam er. Cafe\u0301. O\u0308l.", -4, true)
	f.Fuzz(func(t *testing.T, text string, maxC int, words bool) {
		if !utf8.ValidString(text) || len(text) > 4096 {
			return
		}
		checkCues(t, text, fuzzOptions(maxC, 0.35), words)
	})
}

// fuzzOptions turns a fuzzed maxC into options: 1 to 199 turns length
// constraints on (min_chars up to 12), a negative value picks a language
// from fuzzLangs instead of guessing it.
func fuzzOptions(maxC int, th float64) Options {
	opts := Options{Threshold: Float(th)}
	if maxC > 0 && maxC < 200 {
		opts.Length = &Length{MinChars: min(12, maxC), MaxChars: maxC}
	}
	if maxC < 0 {
		k := uint(-(maxC + 1)) + 1 // -1 → 1, -2 → 2, …, without overflow
		opts.Language = fuzzLangs[k%uint(len(fuzzLangs))]
	}
	return opts
}

// randomCases draws n seeded random texts from unicodePool with options as
// the fuzz targets pick them (fuzzOptions), and calls check on each; it
// stops at the first text that fails, naming it.
func randomCases(t *testing.T, seed int64, n int, check func(t *testing.T, text string, opts Options)) {
	r := rand.New(rand.NewSource(seed))
	for it := 0; it < n; it++ {
		text := randomText(r, 30)
		maxC := r.Intn(16) + 1
		if r.Intn(3) == 0 {
			maxC = -(r.Intn(len(fuzzLangs)) + 1)
		}
		th := []float64{0, 0.35, 1}[r.Intn(3)]
		check(t, text, fuzzOptions(maxC, th))
		if t.Failed() {
			t.Fatalf("case %d of seed %d: %+q, maxC %d, threshold %v", it, seed, text, maxC, th)
		}
	}
}

// Text's items keep the text, are trimmed and fit max_chars (checkItems),
// on random strings of the characters NFC treats specially.
func TestUnicodeTextItems(t *testing.T) {
	randomCases(t, 19, 10000, func(t *testing.T, text string, opts Options) {
		res, err := Text(context.Background(), text, opts)
		if err != nil {
			t.Fatal(err)
		}
		var items []string
		for _, s := range res.Segments {
			items = append(items, s.Text)
		}
		checkItems(t, text, items, opts.Length)
	})
}

// Decomposed text gives composed text's items (checkDecomposed), on random
// strings of the characters NFC treats specially.
func TestUnicodeTextDecomposed(t *testing.T) {
	randomCases(t, 23, 10000, func(t *testing.T, text string, opts Options) {
		checkTextDecomposed(t, text, opts)
	})
}

// checkTextDecomposed runs Text on text composed and decomposed and checks
// the items with checkDecomposed.
func checkTextDecomposed(t testing.TB, text string, opts Options) {
	t.Helper()
	items := func(s string) []string {
		res, err := Text(context.Background(), s, opts)
		if err != nil {
			t.Fatalf("Text(%+q): %v", s, err)
		}
		var out []string
		for _, it := range res.Segments {
			out = append(out, it.Text)
		}
		return out
	}
	nfcText, nfdText := norm.NFC.String(text), norm.NFD.String(text)
	checkDecomposed(t, nfdText, items(nfdText), items(nfcText))
}

// Timed cues keep the text, fit max_chars in characters of the read form,
// keep their times in order and read decomposed text as composed
// (checkCues), on random strings of the characters NFC treats specially.
func TestUnicodeCues(t *testing.T) {
	words := false
	randomCases(t, 29, 5000, func(t *testing.T, text string, opts Options) {
		checkCues(t, text, opts, words)
		words = !words
	})
}

// Subtitle layouts keep their invariants (checkSubtitlesOf: the text, the
// line and cue limits, times in order, decomposed text laid out and timed
// as composed text) on random strings of the characters NFC treats
// specially.
func TestUnicodeSubtitles(t *testing.T) {
	r := rand.New(rand.NewSource(37))
	for it := 0; it < 2500; it++ {
		text := randomText(r, 30)
		lineChars, lines, secs, dur, words := r.Intn(16), r.Intn(4), float64(r.Intn(4)), float64(r.Intn(10)), r.Intn(2) == 0
		checkSubtitlesOf(t, text, lineChars, lines, secs, dur, words)
		if t.Failed() {
			t.Fatalf("case %d: %+q, %d columns, %d lines, %v s a cue, %v s, words %v", it, text, lineChars, lines, secs, dur, words)
		}
	}
}
