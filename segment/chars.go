package segment

import (
	"unicode"
	"unicode/utf8"
)

// Character classes used by the boundary scorer.

// isStop reports whether r ends a sentence in some script. The period is
// handled separately because it is also a decimal point and an abbreviation
// mark.
func isStop(r rune) bool {
	switch r {
	case '!', '?', '…', '‼', '⁇', '⁈', '⁉',
		'。', '！', '？', '｡', // CJK
		'؟', '۔', // Arabic, Urdu
		'।', '॥', // Devanagari
		'።', '፧', '፨', // Ethiopic
		'။',      // Myanmar
		'։',      // Armenian full stop
		'\u037E': // Greek question mark
		return true
	}
	return false
}

// isCJKStop reports whether r is a full-width stop that needs no following
// space.
func isCJKStop(r rune) bool {
	switch r {
	case '。', '！', '？', '｡', '።', '፧', '။', '।', '۔', '؟', '։':
		return true
	}
	return false
}

// isPeriod reports whether r is a period: ASCII or full width.
func isPeriod(r rune) bool { return r == '.' || r == '．' }

// isCloser reports whether r closes a quotation or bracket and may follow a
// sentence stop.
func isCloser(r rune) bool {
	switch r {
	case '"', '\'', '”', '’', '»', '›', ')', ']', '}', '」', '』', '）', '］', '｝', '〕', '】', '〉', '》', '“':
		return true
	}
	return false
}

// isOpener reports whether r opens a quotation or bracket or is an inverted
// Spanish mark that may start a sentence.
func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '“', '‘', '«', '‹', '(', '[', '{', '「', '『', '（', '［', '｛', '〔', '【', '〈', '《', '¿', '¡', '„', '‚':
		return true
	}
	return false
}

// isCJK reports whether r belongs to a script written without spaces between
// words (Han, kana, Hangul is excluded because Korean uses spaces).
func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) ||
		(r >= 0xFF00 && r <= 0xFFEF) || (r >= 0x3000 && r <= 0x303F)
}

// isSpace reports whether r separates words.
func isSpace(r rune) bool { return unicode.IsSpace(r) || r == '\u200b' }

// isWordRune reports whether r can be part of a word.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// spaceRun returns the end of the run of white space starting at byte
// offset i of s and how many line breaks it holds.
func spaceRun(s string, i int) (end, newlines int) {
	for i < len(s) {
		r, n := runeAt(s, i)
		if !isSpace(r) {
			break
		}
		if r == '\n' {
			newlines++
		}
		i += n
	}
	return i, newlines
}

// runeAt decodes the rune at byte offset i of s; it returns 0, 0 past the end.
func runeAt(s string, i int) (rune, int) {
	if i < 0 || i >= len(s) {
		return 0, 0
	}
	c := s[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// runeBefore decodes the rune ending at byte offset i of s.
func runeBefore(s string, i int) (rune, int) {
	if i <= 0 || i > len(s) {
		return 0, 0
	}
	c := s[i-1]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeLastRuneInString(s[:i])
}

// isDigits reports whether w is non-empty and consists of digits and the
// group or decimal separators that may appear inside a number.
func isNumber(w string) bool {
	digits := 0
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			digits++
		case r == '.' || r == ',' || r == '\'' || r == '$' || r == '€' || r == '£' || r == '¥' || r == '%' || r == '-' || r == '+' || r == '/' || r == ':' || r == '#' || r == '°':
		default:
			return false
		}
	}
	return digits > 0
}

// hasDigit reports whether w contains a digit.
func hasDigit(w string) bool {
	for _, r := range w {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// runeLen returns the number of runes in s.
func runeLen(s string) int { return utf8.RuneCountInString(s) }
