package g2p

import "unicode"

// Script is the writing system of a run of text, as far as routing
// pronunciation needs it.
type Script string

// Scripts told apart by [ScriptOf]. Common covers digits, punctuation,
// spaces and symbols, which belong to no run of their own.
const (
	Common     Script = ""
	Latin      Script = "Latn"
	Han        Script = "Hani"
	Kana       Script = "Kana" // Hiragana and Katakana
	Hangul     Script = "Hang"
	Cyrillic   Script = "Cyrl"
	Greek      Script = "Grek"
	Arabic     Script = "Arab"
	Hebrew     Script = "Hebr"
	Devanagari Script = "Deva"
	Bengali    Script = "Beng"
	Tamil      Script = "Taml"
	Thai       Script = "Thai"
	Armenian   Script = "Armn"
	Georgian   Script = "Geor"
	Ethiopic   Script = "Ethi"
	Myanmar    Script = "Mymr"
	Other      Script = "Zzzz" // any other letter
)

var scriptTables = []struct {
	s Script
	t *unicode.RangeTable
}{
	{Latin, unicode.Latin}, {Han, unicode.Han}, {Kana, unicode.Hiragana}, {Kana, unicode.Katakana},
	{Hangul, unicode.Hangul}, {Cyrillic, unicode.Cyrillic}, {Greek, unicode.Greek}, {Arabic, unicode.Arabic},
	{Hebrew, unicode.Hebrew}, {Devanagari, unicode.Devanagari}, {Bengali, unicode.Bengali}, {Tamil, unicode.Tamil},
	{Thai, unicode.Thai}, {Armenian, unicode.Armenian}, {Georgian, unicode.Georgian}, {Ethiopic, unicode.Ethiopic},
	{Myanmar, unicode.Myanmar},
}

// isKana reports whether r is Kana, the one definition ScriptOf and
// hasKana share: the Hiragana and Katakana scripts of Unicode (letters, the
// iteration marks ゝ ゞ ヽ ヾ, halfwidth katakana, circled and squared
// katakana such as ㋐ ㌀), and the prolonged sound marks ー (U+30FC) and
// ｰ (U+FF70), which Unicode assigns to script Common but which Japanese
// writes only inside kana words (コーヒー).
func isKana(r rune) bool {
	if r < 0x3000 {
		return false
	}
	return r == 'ー' || r == 'ｰ' || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// ScriptOf returns the script of r. Kana is as isKana defines it, so the
// prolonged sound marks stay inside Japanese runs; the iteration marks
// 々 〆 and 〇 count as Han, so they stay inside Chinese and Japanese runs.
func ScriptOf(r rune) Script {
	switch r {
	case '々', '〆', '〇':
		return Han
	}
	if isKana(r) {
		return Kana
	}
	if r < 0x80 {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return Latin
		}
		return Common
	}
	if !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r) {
		return Common
	}
	for _, st := range scriptTables {
		if unicode.Is(st.t, r) {
			return st.s
		}
	}
	if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) {
		return Common // a combining mark joins the run it follows
	}
	return Other
}

// scriptLanguage is the language a run of a script defaults to when the
// requested language does not use that script.
var scriptLanguage = map[Script]string{
	Latin: "en", Han: "zh", Kana: "ja", Hangul: "ko", Cyrillic: "ru", Greek: "el", Arabic: "ar",
	Hebrew: "he", Devanagari: "hi", Bengali: "bn", Tamil: "ta", Thai: "th", Armenian: "hy",
	Georgian: "ka", Ethiopic: "am", Myanmar: "my",
}

// languageScript is the script of languages not written in Latin.
var languageScript = map[string]Script{
	"zh": Han, "ja": Kana, "ko": Hangul,
	"ru": Cyrillic, "uk": Cyrillic, "bg": Cyrillic, "be": Cyrillic, "mk": Cyrillic, "kk": Cyrillic,
	"ky": Cyrillic, "tt": Cyrillic, "ba": Cyrillic, "cv": Cyrillic, "mn": Cyrillic, "sr": Cyrillic,
	"el": Greek, "ar": Arabic, "fa": Arabic, "ur": Arabic, "ps": Arabic, "sd": Arabic, "ug": Arabic,
	"he": Hebrew, "yi": Hebrew, "hi": Devanagari, "mr": Devanagari, "ne": Devanagari, "sa": Devanagari,
	"kok": Devanagari, "bn": Bengali, "as": Bengali, "ta": Tamil, "th": Thai, "hy": Armenian, "ka": Georgian,
	"am": Ethiopic, "ti": Ethiopic, "my": Myanmar,
}

// scriptOfLanguage returns the script base language b is written in.
func scriptOfLanguage(b string) Script {
	if s, ok := languageScript[b]; ok {
		return s
	}
	return Latin
}
