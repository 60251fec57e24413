package sphinx

import (
	"context"
	"os"
	"strings"
	"testing"
)

// BenchmarkAlign measures a full forced alignment (front end, features,
// graph, Viterbi) of en_jfk_16k.wav, 11 s of speech.
func BenchmarkAlign(b *testing.B) {
	m := loadTestModel(b)
	x := readWAVFloat(b, speechFile(b, "en_jfk_16k.wav"))
	txt, err := os.ReadFile(speechFile(b, "en_jfk.txt"))
	if err != nil {
		b.Fatal(err)
	}
	words := normalizeWords(string(txt))
	b.SetBytes(int64(2 * len(x)))
	for b.Loop() {
		if _, err := m.Align(context.Background(), x, words, AlignOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/(float64(len(x))/16000), "rtf")
}

// normalizeWords lower-cases a transcript and strips punctuation other than
// apostrophes, for dictionary lookup.
func normalizeWords(s string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.TrimFunc(w, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'') })
		w = strings.Map(func(r rune) rune {
			if r == '.' || r == ',' || r == '!' || r == '?' || r == ';' || r == ':' || r == '"' {
				return -1
			}
			return r
		}, w)
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}
