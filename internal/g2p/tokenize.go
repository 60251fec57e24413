package g2p

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mozillazg/go-pinyin"
	"github.com/sottolabs/sotto"
	"golang.org/x/text/language"
)

// Token is one unit of a transcript for alignment: a word in languages
// written with spaces, a MeCab morpheme in Japanese, a character (= syllable)
// in Chinese.
type Token struct {
	// Text is the token as written; Text == source[Start:End].
	Text       string
	Start, End int // byte offsets into the text given to Tokenize
	// Lang is the language the token is pronounced in: the requested tag
	// ("de", "en-GB") for runs in its script, else the base language of
	// the run's script or of the best candidate ("en", "ja", "zh", ...).
	Lang   string
	Script Script
	// Readings are what the phonemiser reads instead of Text, first
	// preferred: for Japanese the katakana pronunciation, for Chinese every
	// numbered-pinyin reading of the character ("xing2", "hang2"). Empty
	// means Text is read as written.
	Readings []string
}

// Tokenize cuts text into tokens for alignment. lang is a BCP 47 tag, or
// "" or "und" for none. Text is first split into runs of one script (digits
// and punctuation join the run they follow). A run in the script of lang is
// tokenised as lang; other runs as their script's usual language (Han: zh,
// or ja when the text has kana or lang is ja; Kana: ja; Cyrillic: ru;
// Latin: en, or with no lang the best of [Candidates]).
//
// Whitespace languages split at spaces and punctuation; apostrophes,
// hyphens and dots inside a word and commas between digits stay in it, so
// "don't", "self-substantial", "U.S.A" and "1,000" are one token each.
// Japanese runs go through [MeCab] (morphemes with their pronunciation;
// symbols dropped); Chinese runs give one token per Han character with its
// pinyin readings (at most two, the common one first). The returned
// offsets always index text. All Japanese runs go to one MeCab process. A
// malformed lang is a 400 *sotto.Error with code "bad_request" and Param
// "language"; the other errors come from MeCab (missing: [ErrNoMeCab]).
func Tokenize(ctx context.Context, mecab *MeCab, text, lang string) ([]Token, error) {
	b := BaseLanguage(lang)
	und := b == "" || b == "und"
	if !und {
		if _, err := language.Parse(strings.TrimSpace(lang)); err != nil {
			return nil, sotto.Invalid("bad_request", "language", "g2p: invalid language tag %q", lang)
		}
	}
	japanese := b == "ja" || hasKana(text)
	latinLang := strings.TrimSpace(lang) // the full tag keeps a region: en-GB
	if und || scriptOfLanguage(b) != Latin {
		latinLang = "en"
		if und {
			if c := Candidates(text); len(c) > 0 && scriptOfLanguage(c[0].Lang) == Latin {
				latinLang = c[0].Lang
			}
		}
	}
	runs := scriptRuns(text, japanese)
	langs := make([]string, len(runs))
	var jaText strings.Builder // the Japanese runs, one per line, for one MeCab call
	var jaRuns []int
	for k, r := range runs {
		var rl string
		switch {
		case r.script == Kana:
			rl = "ja"
		case r.script == Han:
			rl = "zh"
		case r.script == Latin:
			rl = latinLang
		case !und && scriptOfLanguage(b) == r.script:
			rl = strings.TrimSpace(lang)
		case scriptLanguage[r.script] != "":
			rl = scriptLanguage[r.script]
		default:
			rl = b
			if und {
				rl = "und"
			}
		}
		langs[k] = rl
		if BaseLanguage(rl) == "ja" {
			jaRuns = append(jaRuns, k)
			jaText.WriteString(strings.ReplaceAll(text[r.start:r.end], "\n", " "))
			jaText.WriteByte('\n')
		}
	}
	// Morphemes of each Japanese run, offsets relative to the run.
	jaMorphs := map[int][]Morpheme{}
	if len(jaRuns) > 0 {
		if mecab == nil {
			mecab = defaultMeCab
		}
		ms, err := mecab.Parse(ctx, jaText.String())
		if err != nil {
			return nil, err
		}
		off, j := 0, 0
		for _, k := range jaRuns {
			end := off + runs[k].end - runs[k].start
			for ; j < len(ms) && ms[j].Start < end; j++ {
				m := ms[j]
				m.Start -= off
				m.End -= off
				jaMorphs[k] = append(jaMorphs[k], m)
			}
			off = end + 1 // the line break
		}
	}
	var toks []Token
	for k, r := range runs {
		seg := text[r.start:r.end]
		rl := langs[k]
		switch BaseLanguage(rl) {
		case "ja":
			for _, m := range jaMorphs[k] {
				if m.POS == "記号" || !strings.ContainsFunc(m.Surface, isWordRune) {
					continue
				}
				t := Token{Text: m.Surface, Start: r.start + m.Start, End: r.start + m.End, Lang: "ja", Script: Kana}
				if m.Pronunciation != "" {
					t.Readings = []string{m.Pronunciation}
				}
				toks = append(toks, t)
			}
		case "zh":
			for _, w := range splitWords(seg) {
				w.Start += r.start
				w.End += r.start
				w.Lang, w.Script = "zh", r.script
				for i, c := range w.Text {
					if ScriptOf(c) != Han {
						continue
					}
					// Each Han character is its own token; non-Han parts
					// (digits) of the word stay whole.
					toks = appendNonHan(toks, w, i)
					py := dedupe(pinyin.SinglePinyin(c, pinyin.Args{Style: pinyin.Tone3, Heteronym: true}))
					if len(py) > maxReadings {
						py = py[:maxReadings]
					}
					toks = append(toks, Token{Text: string(c), Start: w.Start + i, End: w.Start + i + utf8.RuneLen(c),
						Lang: "zh", Script: Han, Readings: py})
				}
				toks = appendNonHan(toks, w, len(w.Text))
			}
		default:
			for _, w := range splitWords(seg) {
				w.Start += r.start
				w.End += r.start
				w.Lang, w.Script = rl, r.script
				toks = append(toks, w)
			}
		}
	}
	return toks, nil
}

// maxReadings bounds the pinyin readings kept per character. go-pinyin
// lists the common reading first; the second covers the frequent
// polyphones (行 xing2/hang2, 长 chang2/zhang3, 了 le/liao3); later ones are
// mostly rare and would only give the aligner wrong variants to choose.
const maxReadings = 2

// appendNonHan appends the part of w before byte i that follows the last
// token already emitted from w, if that part holds non-Han word runes.
func appendNonHan(toks []Token, w Token, i int) []Token {
	from := w.Start
	if n := len(toks); n > 0 && toks[n-1].End > from && toks[n-1].End <= w.End {
		from = toks[n-1].End
	}
	part := w.Text[from-w.Start : i]
	if part == "" || !strings.ContainsFunc(part, isWordRune) {
		return toks
	}
	return append(toks, Token{Text: part, Start: from, End: w.Start + i, Lang: w.Lang, Script: Common})
}

func dedupe(s []string) []string {
	var out []string
	for _, x := range s {
		if x != "" && !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// hasKana reports whether s has a Kana character (isKana): a Japanese text,
// whose Han runs go to MeCab with its kana.
func hasKana(s string) bool {
	return strings.ContainsFunc(s, isKana)
}

type run struct {
	start, end int
	script     Script
}

// scriptRuns splits text into maximal runs of one script. Common runes
// (spaces, digits, punctuation) join the run before them, or the first run
// when they lead the text. With japanese, Han counts as Kana.
func scriptRuns(text string, japanese bool) []run {
	var runs []run
	for i, r := range text {
		s := ScriptOf(r)
		if japanese && s == Han {
			s = Kana
		}
		n := len(runs)
		switch {
		case n == 0:
			runs = append(runs, run{i, i, s})
		case s == Common || s == runs[n-1].script:
		case runs[n-1].script == Common:
			runs[n-1].script = s
		default:
			runs[n-1].end = i
			runs = append(runs, run{i, i, s})
		}
	}
	if n := len(runs); n > 0 {
		runs[n-1].end = len(text)
	}
	return runs
}

// isWordRune reports letters, combining marks and digits.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

// splitWords splits s at everything but word runes, keeping apostrophes,
// hyphens and dots between word runes and commas between digits.
func splitWords(s string) []Token {
	var toks []Token
	start := -1
	var prev rune
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if isWordRune(r) {
			if start < 0 {
				start = i - n
			}
			prev = r
			continue
		}
		if start >= 0 && joiner(prev, r, s[i:]) {
			prev = r
			continue
		}
		if start >= 0 {
			toks = append(toks, Token{Text: s[start : i-n], Start: start, End: i - n})
			start = -1
		}
		prev = r
	}
	if start >= 0 {
		toks = append(toks, Token{Text: s[start:], Start: start, End: len(s)})
	}
	return toks
}

// joiner reports whether r, between prev and the text rest, continues a word.
func joiner(prev, r rune, rest string) bool {
	next, _ := utf8.DecodeRuneInString(rest)
	if !isWordRune(prev) || !isWordRune(next) {
		return false
	}
	switch r {
	case '\'', '’', '-', '‐', '‑', '.', '·':
		return true
	case ',':
		return unicode.IsDigit(prev) && unicode.IsDigit(next)
	}
	return false
}
