package normalize

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/language"
)

// Traditional characters for Chinese, from the [traditional] section of
// data/zh.tsv: TN writes them for a Hant language tag, ITN reads them as
// their simplified forms (the grammar's).
var (
	zhTradTW = map[rune]rune{} // simplified → traditional (zh-Hant, zh-TW)
	zhTradHK = map[rune]rune{} // simplified → traditional (zh-HK, zh-MO)
	zhSimp   = map[rune]rune{} // traditional (either) → simplified
)

func init() {
	one := func(f string) rune {
		r, n := utf8.DecodeRuneInString(f)
		if n != len(f) || r == utf8.RuneError {
			panic("normalize: data/zh.tsv [traditional]: want one character, got " + f)
		}
		return r
	}
	for _, row := range lexiconFor("zh").rows("traditional") {
		s, tw := one(field(row, 0)), one(field(row, 1))
		hk := tw
		if f := field(row, 2); f != "" {
			hk = one(f)
		}
		for _, t := range []rune{tw, hk} {
			// ITN rewrites the input in place, so spans keep their bytes.
			if utf8.RuneLen(t) != utf8.RuneLen(s) {
				panic("normalize: data/zh.tsv [traditional]: " + string(s) + " and " + string(t) + " differ in UTF-8 length")
			}
			if t != s {
				zhSimp[t] = s
			}
		}
		zhTradTW[s], zhTradHK[s] = tw, hk
	}
}

// zhVariant respells Chinese for a language tag: a tag whose script is
// Hant (zh-Hant, zh-TW, zh-HK, zh-MO; zh-Hant-HK and zh-HK the Hong Kong
// forms) gets traditional characters in TN's output and ITN's; ITN reads
// both scripts whatever the tag, and a span written in traditional
// characters answers in them.
func zhVariant(tag language.Tag, m Mode) *variant {
	hant, hk := zhHant(tag)
	trad := zhTradTW
	if hk {
		trad = zhTradHK
	}
	write := func(s string) string {
		return strings.Map(func(r rune) rune {
			if t, ok := trad[r]; ok {
				return t
			}
			return r
		}, s)
	}
	if m == ITN {
		return &variant{read: zhReadSimplified, write: write, always: hant}
	}
	if hant {
		return &variant{write: write, always: true}
	}
	return nil
}

// zhHant reports whether tag asks for traditional characters (its script,
// given or likely, is Hant) and whether in their Hong Kong and Macau forms.
func zhHant(tag language.Tag) (hant, hk bool) {
	if s, _ := tag.Script(); s.String() != "Hant" {
		return false, false
	}
	r, _ := tag.Region()
	return true, r.String() == "HK" || r.String() == "MO"
}

// zhReadSimplified rewrites the traditional characters of the table in s
// as their simplified forms, byte for byte in place (each pair has one
// UTF-8 length).
func zhReadSimplified(s string) string {
	var b []byte
	for i, r := range s {
		if t, ok := zhSimp[r]; ok {
			if b == nil {
				b = []byte(s)
			}
			utf8.EncodeRune(b[i:], t)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}
