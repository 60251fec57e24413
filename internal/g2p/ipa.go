package g2p

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Segment is one IPA segment as [SplitIPA] cuts it: a base symbol with the
// diacritics and modifier letters that follow it.
type Segment struct {
	// Symbol is the base letter, or two letters joined by a tie bar, plus
	// the marks that change which phone it is: espeak-ng's retroflex dot
	// ("s.", "ts.", "i."), the lowering sign U+031E ("e̞") and the dental
	// sign U+032A ("i̪").
	Symbol string
	// Marks holds every other combining diacritic and modifier letter
	// attached to Symbol, in input order (nasal U+0303, ʲ, ʰ, ᵝ, ...).
	Marks string
	// Boundary reports that a syllable or word boundary (a stress mark,
	// a space, a hyphen, a language tag or punctuation) precedes Symbol.
	Boundary bool
	// Stress is 1 after a primary stress mark ˈ, 2 after a secondary ˌ,
	// else 0.
	Stress int
	// Long reports a length mark ː or ˑ after the segment.
	Long bool
}

// String returns Symbol followed by Marks.
func (s Segment) String() string { return s.Symbol + s.Marks }

// Nasal reports whether the segment carries the nasalisation tilde.
func (s Segment) Nasal() bool { return strings.ContainsRune(s.Marks, '\u0303') }

// Palatalized reports whether the segment carries the modifier letter ʲ.
func (s Segment) Palatalized() bool { return strings.ContainsRune(s.Marks, 'ʲ') }

// precomposedNasal maps precomposed nasal vowels to their base letter, so
// "ũ" (U+0169) and "u" + U+0303 tokenise alike.
var precomposedNasal = map[rune]rune{
	'ã': 'a', 'ẽ': 'e', 'ĩ': 'i', 'õ': 'o', 'ũ': 'u', 'ỹ': 'y',
}

// symbolMark reports combining marks that become part of Symbol because
// they can change the phone: lowering (e̞ → EH, not EY) and the dental
// sign (Mandarin apical i̪ in zi, ci, si → IH, not IY). Lookups fall back
// to the symbol without them.
func symbolMark(r rune) bool { return r == '\u031E' || r == '\u032A' }

// modifierLetter reports runes that unicode classes as letters but that
// IPA uses as diacritics after a base symbol.
func modifierLetter(r rune) bool {
	switch r {
	case 'ʲ', 'ʰ', 'ʷ', 'ᵝ', 'ˠ', 'ˤ', 'ⁿ', 'ˡ', 'ʼ', 'ʱ', 'ʴ', 'ʵ', 'ʶ', 'ᶣ', 'ᵊ', '˞':
		return true
	}
	return false
}

// toneLetter reports tone digits and Chao tone letters, which are dropped.
func toneLetter(r rune) bool {
	return r >= '0' && r <= '9' || r >= '˥' && r <= '˩'
}

// SplitIPA cuts an IPA string, as espeak-ng prints it with --ipa, into
// segments. Stress marks, spaces and punctuation become [Segment.Boundary],
// length marks [Segment.Long]; tone digits and tone letters and espeak's
// language-switch tags such as "(en)" are dropped. Tie bars (U+0361,
// U+035C) join two letters into one Symbol. SplitIPA never fails: runes it
// does not know are treated as base symbols (letters) or boundaries (all
// else).
func SplitIPA(s string) []Segment {
	var segs []Segment
	boundary, stress, join := false, 0, false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		// espeak-ng language switch "(en)", "(ja)": drop, acts as a boundary.
		if r == '(' {
			if j := strings.IndexByte(s[i:], ')'); j > 0 && j <= 12 && isTag(s[i+1:i+j]) {
				i += j + 1
				boundary, join = true, false
				continue
			}
		}
		i += n
		last := len(segs) - 1
		switch {
		case r == utf8.RuneError && n <= 1:
			boundary, join = true, false
		case r == 'ˈ':
			boundary, stress, join = true, 1, false
		case r == 'ˌ':
			boundary, stress, join = true, 2, false
		case r == 'ː' || r == 'ˑ':
			if last >= 0 {
				segs[last].Long = true
			}
		case toneLetter(r):
			// Tone is not a segment.
		case r == '\u0361' || r == '\u035C':
			join = last >= 0
		case r == '.' && last >= 0 && !boundary:
			// espeak-ng marks retroflex consonants and the apical vowel of
			// Mandarin with a dot: "s.", "ts.", "i.".
			segs[last].Symbol += "."
		case unicode.Is(unicode.Mn, r) || modifierLetter(r):
			if last < 0 || boundary {
				break // a stray mark with no base: ignore
			}
			if symbolMark(r) {
				segs[last].Symbol += string(r)
			} else {
				segs[last].Marks += string(r)
			}
		case unicode.IsLetter(r):
			marks := ""
			if b, ok := precomposedNasal[r]; ok {
				r, marks = b, "\u0303"
			}
			if join && last >= 0 {
				segs[last].Symbol += string(r)
				segs[last].Marks += marks
				join = false
				break
			}
			segs = append(segs, Segment{Symbol: string(r), Marks: marks, Boundary: boundary || len(segs) == 0, Stress: stress})
			boundary, stress = false, 0
		default:
			boundary, join = true, false
		}
	}
	return segs
}

// isTag reports whether s looks like an espeak-ng language name inside a
// switch tag: ASCII letters and hyphens.
func isTag(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-') {
			return false
		}
	}
	return true
}
