package jsongrammar

import (
	"math/rand/v2"
	"testing"
)

// syntheticVocab is a vocabulary of the size of Qwen2.5's (151 936 tokens)
// made of random lower-case words with and without a leading space, digits
// and JSON punctuation.
func syntheticVocab() *Vocab {
	const n = 151936
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := make([][]byte, n)
	eog := make([]bool, n)
	punct := []string{"{", "}", "[", "]", "\"", ":", ",", " ", "\":", "\",", "{\"", "\"}", " \"", "\n", "0", "1", "true", "null"}
	for i := range n {
		switch {
		case i < len(punct):
			pieces[i] = []byte(punct[i])
		case i < 300:
			// control tokens: no text
		default:
			l := 1 + rng.IntN(10)
			b := make([]byte, 0, l+1)
			if rng.IntN(2) == 0 {
				b = append(b, ' ')
			}
			for range l {
				b = append(b, byte('a'+rng.IntN(26)))
			}
			pieces[i] = b
		}
	}
	eog[299] = true
	return NewVocab(pieces, eog)
}

// BenchmarkMask masks the synthetic vocabulary inside a string value (the
// costly case: most tokens fit) and before an object key.
func BenchmarkMask(b *testing.B) {
	v := syntheticVocab()
	g, err := Compile([]byte(`{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name","age"]}`))
	if err != nil {
		b.Fatal(err)
	}
	logits := make([]float32, len(v.pieces))
	for _, c := range []struct {
		name, prefix string
	}{{"in-string", `{"name":"Lil`}, {"object-start", `{`}} {
		b.Run(c.name, func(b *testing.B) {
			con := NewConstraint(g, v)
			con.cur = g.Start().Advance([]byte(c.prefix))
			for b.Loop() {
				con.Mask(logits)
			}
		})
	}
}
