package tts

import (
	"math/rand"
	"testing"

	"github.com/sottolabs/sotto/internal/nfc/nfctest"
)

// unicodePool holds the pieces TestUnicodeWordSources strings together
// beside nfctest.Special (the characters NFC treats specially): words,
// numbers, money, times and abbreviations that normalization rewrites (so a
// spoken word may start or end next to a special character), stops, white
// space and line breaks.
var unicodePool = []string{"a", "Cafe", "x.", ".", " ", " ", " ", "\n", "5", "12", "$12.50", "3:30", "pm", "p.m.",
	"Dr.", "St.", "1/2", "%", "kg", "-", "(", ")", "!", "?", "IV"}

// Every traced word reads a byte range of the input in order, on rune
// boundaries, and decomposed text traces no fewer words (checkWordSources,
// as FuzzWordSources checks), on seeded random strings of the characters
// NFC treats specially next to numbers and words.
func TestUnicodeWordSources(t *testing.T) {
	r := rand.New(rand.NewSource(17))
	for it := 0; it < 3000; it++ {
		text := nfctest.Text(r, 20, unicodePool, nfctest.Special)
		checkWordSources(t, text)
		if t.Failed() {
			t.Fatalf("case %d: %+q", it, text)
		}
	}
}
