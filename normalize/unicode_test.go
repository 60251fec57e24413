package normalize_test

import (
	"math/rand"
	"strings"
	"testing"
)

// Short seeded random checks of the input-shape rules and the result
// invariants over strings of the characters NFC treats specially, sharing
// their checks with FuzzInputShape and FuzzNormalize: random strings of
// such characters next to numbers, units and line breaks found bugs
// coverage-guided fuzzing had missed.

// unicodePool holds the pieces the random checks string together: letters,
// digits, numbers, units and currency, white space and line breaks of
// every kind, words the rules know ("uhr", "IV", "th"), and one of each
// class of character NFC treats specially (marks it reorders or composes,
// composition exclusions, singletons such as U+2000 and U+212B,
// non-starter decompositions, Hangul syllables and jamo, joiners,
// variation selectors, emoji, full-width digits, compatibility ideographs,
// U+FEFF, RTL marks).
var unicodePool = []string{"a", "b", "Cd", "x.", ".", " ", " ", " ", "\n", "!", "5", "12", "3.5", "$", "€", "%", "kg", " km", "1/2", ":", "-",
	"\u0301", "\u0323", "\u0344", "\u095d", "\u212b", "\u037e", "\u0f73", "\u0f71", "\u1100", "\u1161", "\u11a8", "\uac00",
	"\u200d", "\u200c", "\ufe0f", "\U0001f468", "\uff11", "\uff0e", "\uf900", "\ufeff", "\u200f", "\u200b", "\u00a0",
	"e", "A", "\u030a", "Mr", "St", "\u0345", "\u0327", "\u0340", "\u2000", "\u0958", "\u093c", "५", "\u0915", "\u094d",
	"O", "\u0308", "u", "\u0e33", "ー", "\u3099", "か", "三", "年", "\u0651", "٣", "Ｄ", "\u2126", "\u00c5", "IV", "th", "st",
	"uhr", "um", "\u2028", "\r\n"}

// unicodeLangs are the languages the random checks pick from: one of each
// grammar family and "und", which chooses readings segment by segment.
var unicodeLangs = []string{"en", "de", "fr", "es", "pt", "hi", "ko", "ja", "zh", "ar", "ru", "und"}

// randomInputs calls check on n seeded random strings of 1 to 20 pieces of
// unicodePool, each with a language and a mode; it stops at the first
// string that fails, naming it.
func randomInputs(t *testing.T, seed int64, n int, check func(t *testing.T, in, lang string, itn bool)) {
	r := rand.New(rand.NewSource(seed))
	for it := 0; it < n; it++ {
		var b strings.Builder
		for k := r.Intn(20) + 1; k > 0; k-- {
			b.WriteString(unicodePool[r.Intn(len(unicodePool))])
		}
		in, lang, itn := b.String(), unicodeLangs[r.Intn(len(unicodeLangs))], r.Intn(2) == 0
		check(t, in, lang, itn)
		if t.Failed() {
			t.Fatalf("case %d of seed %d: %+q, language %q, ITN %v", it, seed, in, lang, itn)
		}
	}
}

// Decomposed and composed input read alike, and text reads line by line
// and without the white space around it (checkInputShape), on random
// strings of the characters NFC treats specially.
func TestUnicodeInputShape(t *testing.T) {
	randomInputs(t, 5, 6000, checkInputShape)
}

// Results keep their structural promises (checkInvariants: spans on rune
// boundaries, splicing the spans gives each alternative) on random strings
// of the characters NFC treats specially.
func TestUnicodeInvariants(t *testing.T) {
	randomInputs(t, 7, 15000, checkNormalize)
}
