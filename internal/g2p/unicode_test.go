package g2p

import (
	"math/rand"
	"testing"

	"github.com/sottolabs/sotto/internal/nfc/nfctest"
)

// unicodePool holds the pieces TestUnicodeTokenize strings together beside
// nfctest.Special (the characters NFC treats specially): words of several
// scripts, digits, punctuation the tokenizer splits at or keeps, white
// space.
var unicodePool = []string{"a", "Cd", "x.", ".", ",", "-", "'", " ", " ", "\n", "5", "1,000", "U.S.A.", "Merk-",
	"Привет", "我", "语言", "한", "क", "ש", "ع", "!", "?", "。", "，"}

// Every token lies in order on the bytes it names (checkTokenize, as
// FuzzTokenize checks), on seeded random strings of the characters NFC
// treats specially next to words, digits and punctuation.
func TestUnicodeTokenize(t *testing.T) {
	langs := []string{"en", "de", "fr", "ru", "zh", "ko", "hi", "he", "ar", "und"}
	r := rand.New(rand.NewSource(13))
	for it := 0; it < 20000; it++ {
		text, lang := nfctest.Text(r, 20, unicodePool, nfctest.Special), langs[r.Intn(len(langs))]
		checkTokenize(t, text, lang)
		if t.Failed() {
			t.Fatalf("case %d: %+q, language %q", it, text, lang)
		}
	}
}
