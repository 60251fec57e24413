package align

import (
	"math/rand"
	"testing"

	"github.com/sottolabs/sotto/internal/nfc/nfctest"
)

// unicodePool holds the pieces TestUnicodePrepare strings together beside
// nfctest.Special (the characters NFC treats specially): words, numbers,
// money and times that normalization rewrites, a Han run, stops and white
// space.
var unicodePool = []string{"a", "Smith", "x.", ".", " ", " ", " ", "\n", "5", "21", "$12.50", "3:30", "pm",
	"Dr.", "St.", "crêpes", "今天", "好", "-", ",", "!"}

// Tokens and regions stay within the text and name what they read
// (checkPrepare, as FuzzPrepare checks), on seeded random strings of the
// characters NFC treats specially, with a protected term drawn the same
// way.
func TestUnicodePrepare(t *testing.T) {
	r := rand.New(rand.NewSource(31))
	for it := 0; it < 6000; it++ {
		text, term := nfctest.Text(r, 20, unicodePool, nfctest.Special), ""
		if r.Intn(2) == 0 {
			term = nfctest.Text(r, 3, unicodePool, nfctest.Special)
		}
		checkPrepare(t, text, term)
		if t.Failed() {
			t.Fatalf("case %d: %+q, term %+q", it, text, term)
		}
	}
}
