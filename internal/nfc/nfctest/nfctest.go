// Package nfctest draws random text for tests of the packages that read
// text in NFC (internal/nfc and its callers): seeded random strings of the
// characters NFC treats specially, beside each package's own pieces
// (stops, numbers, words its rules know). Such strings put marks, replaced
// characters and stray bytes next to stops, spaces and digits far more
// often than coverage-guided fuzzing does, and found bugs it had missed.
package nfctest

import (
	"math/rand"
	"strings"
)

// Special holds one or more of each class of character NFC treats
// specially, and the format characters text beside them holds: combining
// marks NFC reorders or composes (U+0301, U+0323, U+0308, U+030A, U+0304,
// U+0327, U+0345), singletons (U+0340, U+0341, U+212B, U+2126, U+037E, the
// en quad U+2000), composition exclusions (U+095D, U+0958), non-starter
// decompositions (U+0344, U+0F73), Hangul syllables and conjoining jamo,
// Devanagari ka, nukta and virama, Oriya vowel signs that compose (U+0B47
// U+0B3E), Tibetan vowel signs, ZWJ and ZWNJ, a variation selector, an
// emoji, full and half width forms, CJK compatibility ideographs, U+FEFF,
// an RTL mark, the zero-width and no-break spaces, Thai sara am, kana with
// a voicing mark, Hebrew and Arabic points with a Hebrew letter, a
// precomposed Å.
var Special = []string{
	"\u0301", "\u0323", "\u0308", "\u030a", "\u0304", "\u0327", "\u0345",
	"\u0340", "\u0341", "\u212b", "\u2126", "\u037e", "\u2000",
	"\u095d", "\u0958", "\u0344", "\u0f73", "\u0f71", "\u0f72",
	"\u1100", "\u1161", "\u11a8", "\uac00",
	"\u0915", "\u093c", "\u094d", "\u0b47", "\u0b3e",
	"\u200d", "\u200c", "\ufe0f", "\U0001f468",
	"\uff21", "\uff0e", "\uff11", "\uff76", "\uff9e", "\uf900", "\U0002f800",
	"\ufeff", "\u200f", "\u200b", "\u00a0",
	"\u0e33", "\u3099", "\u304b", "\u05b0", "\u05b4", "\u05d9", "\u0651", "\u064e",
	"\u00c5",
}

// Text strings together 1 to n pieces, each drawn with equal chance from
// the union of pools.
func Text(r *rand.Rand, n int, pools ...[]string) string {
	total := 0
	for _, p := range pools {
		total += len(p)
	}
	var b strings.Builder
	for k := r.Intn(n) + 1; k > 0; k-- {
		i := r.Intn(total)
		for _, p := range pools {
			if i < len(p) {
				b.WriteString(p[i])
				break
			}
			i -= len(p)
		}
	}
	return b.String()
}
