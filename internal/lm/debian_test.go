package lm

import (
	"math"
	"os"
	"testing"
)

// debianLM is the trigram model of Debian's pocketsphinx-en-us.
const debianLM = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"

func loadDebian(t *testing.T) *Model {
	t.Helper()
	if _, err := os.Stat(debianLM); err != nil {
		t.Skipf("skipping: %s absent (apt-get install pocketsphinx-en-us)", debianLM)
	}
	m, err := Load(debianLM)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDebianLM checks the Debian model against figures of the peer: the
// unigram line sphinx_lm_convert writes for "the" (-1.3895 the -0.5416)
// and the counts reached from the unigrams (the header's bigram count is
// six too high; see ParseTrie).
func TestDebianLM(t *testing.T) {
	m := loadDebian(t)
	if got, want := m.Counts(), []int{72547, 2051541, 1669625}; !equalInts(got, want) {
		t.Errorf("Counts() = %v; want %v", got, want)
	}
	the, ok := m.ID("the")
	if !ok {
		t.Fatal(`ID("the") missing`)
	}
	if p := float64(m.Score(the)) / Log10ToNats; math.Abs(p-(-1.3895)) > 1e-4 {
		t.Errorf("P(the) = %.4f; want -1.3895", p)
	}
	if bo := float64(m.uni[the].bo) / Log10ToNats; math.Abs(bo-(-0.5416)) > 1e-4 {
		t.Errorf("bo(the) = %.4f; want -0.5416", bo)
	}
	// A trigram must beat its unigram back-off for a common phrase.
	of, _ := m.ID("of")
	one, _ := m.ID("one")
	p3, n := m.ScoreN(the, of, one) // "one of the"
	if n != 3 || p3 <= m.Score(the) {
		t.Errorf("ScoreN(the | one of) = %v, %d; want a trigram above P(the) = %v", p3, n, m.Score(the))
	}
}
