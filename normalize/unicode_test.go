package normalize_test

import (
	"math/rand"
	"testing"

	"github.com/sottolabs/sotto/internal/nfc/nfctest"
)

// Short seeded random checks of the input-shape rules and the result
// invariants over strings of the characters NFC treats specially, sharing
// their checks with FuzzInputShape and FuzzNormalize: random strings of
// such characters next to numbers, units and line breaks found bugs
// coverage-guided fuzzing had missed.

// unicodePool holds the pieces the random checks string together beside
// nfctest.Special (the characters NFC treats specially): letters, digits
// of several scripts, numbers, units and currency, white space and line
// breaks of every kind, words the rules know ("uhr", "IV", "th").
var unicodePool = []string{"a", "b", "Cd", "x.", ".", " ", " ", " ", "\n", "!", "5", "12", "3.5", "$", "€", "%", "kg", " km", "1/2", ":", "-",
	"e", "A", "Mr", "St", "५", "O", "u", "ー", "か", "三", "年", "٣", "Ｄ", "IV", "th", "st", "uhr", "um", "\u2028", "\r\n"}

// unicodeLangs are the languages the random checks pick from: one of each
// grammar family and "und", which chooses readings segment by segment.
var unicodeLangs = []string{"en", "de", "fr", "es", "pt", "hi", "ko", "ja", "zh", "ar", "ru", "und"}

// randomInputs calls check on n seeded random strings of 1 to 20 pieces of
// unicodePool and nfctest.Special, each with a language and a mode; it stops at the first
// string that fails, naming it.
func randomInputs(t *testing.T, seed int64, n int, check func(t *testing.T, in, lang string, itn bool)) {
	r := rand.New(rand.NewSource(seed))
	for it := 0; it < n; it++ {
		in := nfctest.Text(r, 20, unicodePool, nfctest.Special)
		lang, itn := unicodeLangs[r.Intn(len(unicodeLangs))], r.Intn(2) == 0
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
	randomInputs(t, 5, 3000, checkInputShape)
}

// Results keep their structural promises (checkInvariants: spans on rune
// boundaries, splicing the spans gives each alternative) on random strings
// of the characters NFC treats specially.
func TestUnicodeInvariants(t *testing.T) {
	randomInputs(t, 7, 10000, checkNormalize)
}
