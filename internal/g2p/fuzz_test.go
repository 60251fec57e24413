package g2p

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sottolabs/sotto"
)

// FuzzSplitIPA checks that SplitIPA and MapIPA accept any input, that every
// segment's symbol is non-empty, that the symbols and marks appear in the
// input in order, and that MapIPA only emits model phones.
func FuzzSplitIPA(f *testing.F) {
	if fh, err := os.Open("testdata/phonemize.golden"); err == nil {
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			if fs := strings.Split(sc.Text(), "\t"); len(fs) == 4 {
				f.Add(fs[0], fs[2])
			}
		}
		fh.Close()
	}
	f.Add("en", "(en)tʃˈaɪniːz(ja)lˈe̞tə")
	f.Add("zh", "ts.hˈu5")
	f.Add("xx", "t͡ʃ͡")
	// Marks with no base, a combining double inverted breve and a tie
	// first, precomposed and decomposed nasal vowels, ZWJ, U+FEFF.
	f.Add("fr", "\u0303\u0361ɑ\u0303ã\u200d\ufeffõ\u0303")
	f.Add("en", "\u02c8\u0329\u0361 n\u0329 \u0300\u0301a")
	f.Fuzz(func(t *testing.T, lang, ipa string) {
		segs := SplitIPA(ipa)
		// SplitIPA decomposes precomposed nasal vowels (ã → a + U+0303);
		// walk a copy decomposed the same way.
		var dec strings.Builder
		for _, r := range ipa {
			if b, ok := precomposedNasal[r]; ok {
				dec.WriteRune(b)
				dec.WriteRune('\u0303')
				continue
			}
			dec.WriteRune(r)
		}
		rest := dec.String()
		for _, s := range segs {
			if s.Symbol == "" {
				t.Fatalf("SplitIPA(%q) gave an empty symbol: %+v", ipa, segs)
			}
			// The symbol's runes appear in order; a segment's marks come
			// from its own stretch of the input or later, though not in
			// order: the marks of both halves of a tied pair ("t̪͡s")
			// follow the whole pair.
			from := rest
			for _, r := range s.Symbol {
				if r == '.' {
					continue
				}
				i := strings.IndexRune(rest, r)
				if i < 0 {
					if _, nasal := precomposedNasal[[]rune(s.Symbol)[0]]; nasal || isNasalBase(r, rest) {
						continue
					}
					t.Fatalf("SplitIPA(%q): %q of %+v not in the rest %q", ipa, r, s, rest)
				}
				rest = rest[i+utf8.RuneLen(r):]
			}
			for _, r := range s.Marks {
				// Precomposed nasal vowels are split into base + U+0303.
				if r == '.' || r == '\u0303' {
					continue
				}
				if !strings.ContainsRune(from, r) {
					t.Fatalf("SplitIPA(%q): mark %q of %+v not in the segment's input %q", ipa, r, s, from)
				}
			}
		}
		for _, p := range MapIPA(lang, ipa).Phones {
			if !IsPhone(p) {
				t.Fatalf("MapIPA(%q, %q) gave %q", lang, ipa, p)
			}
		}
	})
}

// isNasalBase reports that r is the base of a precomposed nasal vowel
// found in rest.
func isNasalBase(r rune, rest string) bool {
	for pre, base := range precomposedNasal {
		if base == r && strings.ContainsRune(rest, pre) {
			return true
		}
	}
	return false
}

// FuzzParseVoices checks that ParseVoices never panics and that every voice
// it returns has a language without spaces.
func FuzzParseVoices(f *testing.F) {
	if b, err := os.ReadFile("testdata/voices.txt"); err == nil {
		f.Add(string(b))
		lines := strings.SplitAfter(string(b), "\n")
		f.Add(strings.Join(lines[:min(5, len(lines))], ""))
	}
	f.Add("Pty Language\n 5 zh --/M x y (zh 5)(")
	f.Fuzz(func(t *testing.T, s string) {
		vs, err := ParseVoices(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, v := range vs {
			if v.Language == "" || strings.ContainsAny(v.Language, " \t\n") {
				t.Fatalf("ParseVoices gave language %q", v.Language)
			}
		}
	})
}

// FuzzParseMeCab checks that ParseMeCab never panics and that every
// morpheme's offsets index its surface in the text.
func FuzzParseMeCab(f *testing.F) {
	f.Add("今日 は", "今日\t名詞,副詞可能,*,*,*,*,今日,キョウ,キョー\nは\t助詞,係助詞,*,*,*,*,は,ハ,ワ\nEOS\n")
	f.Add("abc", "a\tx\nbc\ty,1,2,3,4,5,6,7,8\n")
	f.Fuzz(func(t *testing.T, text, out string) {
		ms, err := ParseMeCab(text, out)
		if err != nil {
			return
		}
		last := 0
		for _, m := range ms {
			if m.Start < last || m.End > len(text) || text[m.Start:m.End] != m.Surface {
				t.Fatalf("ParseMeCab(%q): morpheme %+v does not index the text", text, m)
			}
			last = m.End
		}
	})
}

// FuzzTokenize checks, for the languages that need no external program,
// that tokens are non-empty, ordered, non-overlapping and index the text.
//
// Tokenize sends to MeCab every run of Kana script, and Han runs too when
// hasKana(text); both use isKana, which counts the prolonged sound marks
// ー and ｰ (Unicode script Common) as Kana, so hasKana is the test of a text
// that needs MeCab; MeCab's errors are Tokenize's (it refuses text that is
// not UTF-8). The corpus keeps "ｰ\x88", which failed when hasKana missed
// the marks.
func FuzzTokenize(f *testing.F) {
	f.Add("Das ist: Ausführliche, Merk- und", "de")
	f.Add("甚至出现交易，我爱Go语言2024年", "zh")
	f.Add("Er sagte: Привет мир! 1,000 U.S.A.", "und")
	// Characters NFC treats specially (exclusions, singletons, non-starter
	// decompositions, Hangul and jamo, bare marks), joiners, variation
	// selectors, emoji sequences, width forms, compatibility ideographs,
	// U+FEFF and RTL marks: the offsets index the text as sent (no Kana:
	// those texts are skipped).
	f.Add("\u0958\u095d \u09dc \u0a33 \ufb1d \u212b \u037e \u2126 a\u0340 o\u0344 \u0f40\u0f73 \u1100\u1161\u11a8 \uac00\u11a8 \u0301x \u0301\u0323 y", "und")
	f.Add("a\u200db x\u200cy \u845b\U000e0100 \u2764\ufe0f \U0001f468\u200d\U0001f469 \U0001f1e9\U0001f1ea \uff21\uff11 \uf900 \ufeffz \u200f\u05e9 \u202bq\u202c", "en")
	f.Add("\uf900\uf901 \U0002f800\u4e00", "zh")
	f.Fuzz(checkTokenize)
}

// checkTokenize checks FuzzTokenize's invariants on text: every token
// lies in order on the bytes it names (Text is text[Start:End]); texts with
// kana (which need MeCab) and malformed language tags are skipped.
func checkTokenize(t *testing.T, text, lang string) {
	t.Helper()
	if hasKana(text) || BaseLanguage(lang) == "ja" {
		return // needs mecab
	}
	toks, err := Tokenize(t.Context(), nil, text, lang)
	if se, ok := errors.AsType[*sotto.Error](err); ok && se.Code == "bad_request" {
		return // a malformed language tag
	}
	if err != nil {
		t.Fatal(err)
	}
	last := 0
	for _, x := range toks {
		if x.Start < last || x.End <= x.Start || x.End > len(text) || text[x.Start:x.End] != x.Text {
			t.Fatalf("Tokenize(%q, %q): token %+v out of place", text, lang, x)
		}
		last = x.End
	}
}

// FuzzWarmMatchesOneShot phonemises arbitrary words, between two plain
// ones, through a warm espeak-ng process and through a process of their
// own: the answers must be the same, whatever the words do to the
// framing.
func FuzzWarmMatchesOneShot(f *testing.F) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		f.Skip("espeak-ng not installed")
	}
	for _, w := range warmEdgeWords {
		f.Add(w, "de")
	}
	f.Add("Hallo, Welt. Wie geht's?", "de")
	f.Add("qxqzjq", "en-us")
	f.Add("ni3 hao3", "cmn-latn-pinyin")
	one := NewPhonemizer(PhonemizerConfig{CacheSize: -1, Workers: -1})
	warm := NewPhonemizer(PhonemizerConfig{CacheSize: -1, Workers: 2})
	f.Cleanup(func() { warm.Close() })
	voices := []string{"de", "en-us", "es", "sv", "ja", "cmn-latn-pinyin"}
	f.Fuzz(func(t *testing.T, word, voice string) {
		if !slices.Contains(voices, voice) {
			voice = voices[len(word)%len(voices)]
		}
		words := []string{"Hans", word, "der"}
		want, err := one.IPA(t.Context(), voice, words)
		if err != nil {
			t.Skip(err) // the one-shot path fails on this input too
		}
		got, err := warm.IPA(t.Context(), voice, words)
		if err != nil {
			t.Fatalf("warm IPA(%s, %q): %v", voice, words, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("IPA(%s, %q): warm %q, one-shot %q", voice, words, got, want)
		}
	})
}
