package lm

import (
	"bytes"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// refModel is a naive ARPA scorer (maps of n-grams, textbook back-off),
// the oracle for the trie lookups.
type refModel struct {
	order int
	prob  map[string]float64 // "w1 w2 w3" → log10 prob
	bo    map[string]float64
	words []string
}

func parseRef(t testing.TB, data []byte) *refModel {
	t.Helper()
	r := &refModel{prob: map[string]float64{}, bo: map[string]float64{}}
	k := 0
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || l == `\data\` || l == `\end\` || strings.HasPrefix(l, "ngram "):
			continue
		case strings.HasSuffix(l, "-grams:"):
			k, _ = strconv.Atoi(l[1:2])
			r.order = max(r.order, k)
			continue
		}
		f := strings.Fields(l)
		p, _ := strconv.ParseFloat(f[0], 64)
		key := strings.Join(f[1:1+k], " ")
		r.prob[key] = max(p, -99)
		if len(f) == k+2 {
			r.bo[key], _ = strconv.ParseFloat(f[k+1], 64)
		}
		if k == 1 {
			r.words = append(r.words, f[1])
		}
	}
	return r
}

// score is log10 P(w | ctx...), ctx in text order (oldest first).
func (r *refModel) score(ctx []string, w string) float64 {
	if len(ctx) > r.order-1 {
		ctx = ctx[len(ctx)-(r.order-1):]
	}
	key := strings.Join(append(append([]string(nil), ctx...), w), " ")
	if p, ok := r.prob[key]; ok {
		return p
	}
	if len(ctx) == 0 {
		return math.Inf(-1)
	}
	return r.bo[strings.Join(ctx, " ")] + r.score(ctx[1:], w)
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkAgainstRef compares every trigram query over the vocabulary.
func checkAgainstRef(t *testing.T, m *Model, ref *refModel, tol float64, skip func(a, b, c string) bool) {
	t.Helper()
	n := 0
	for _, a := range ref.words {
		for _, b := range ref.words {
			for _, c := range ref.words {
				if skip != nil && skip(a, b, c) {
					continue
				}
				ia, _ := m.ID(a)
				ib, _ := m.ID(b)
				ic, ok := m.ID(c)
				if !ok {
					t.Fatalf("ID(%q) not found", c)
				}
				got := float64(m.Score(ic, ib, ia)) / Log10ToNats
				want := ref.score([]string{a, b}, c)
				if math.Abs(got-want) > tol {
					t.Errorf("Score(%s | %s %s) = %.5f; want %.5f", c, a, b, got, want)
					if n++; n > 10 {
						t.FailNow()
					}
				}
			}
		}
	}
}

func TestARPAScoresMatchReference(t *testing.T) {
	data := mustRead(t, "testdata/small.arpa")
	m, err := ParseARPA("small.arpa", data)
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstRef(t, m, parseRef(t, data), 1e-5, nil)
}

// TestARPAMatchesTrie loads the same model as ARPA text and as the binary
// trie written from it by sphinx_lm_convert (testdata/gen.py): every
// trigram query agrees, to the binary's 16-bit quantisation.
func TestARPAMatchesTrie(t *testing.T) {
	data := mustRead(t, "testdata/small.arpa")
	ref := parseRef(t, data)
	m, err := ParseTrie("small.lm.bin", mustRead(t, "testdata/small.lm.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Order() != 3 || m.Len() != len(ref.words) {
		t.Fatalf("trie: order %d, %d words; want 3, %d", m.Order(), m.Len(), len(ref.words))
	}
	// sphinxbase quantises the blank bigrams it adds (for trigrams whose
	// last two words are no bigram) into bins trained on the real ones
	// only, so their stored probability and back-off are off; the reader
	// returns what the file holds. Queries that meet a blank are compared
	// only between the ARPA reader and the reference.
	blank := func(x, y string) bool {
		if _, ok := ref.prob[x+" "+y]; ok {
			return false
		}
		for k := range ref.prob {
			if f := strings.Fields(k); len(f) == 3 && f[1] == x && f[2] == y {
				return true
			}
		}
		return false
	}
	checked := 0
	checkAgainstRef(t, m, ref, 2e-4, func(a, b, c string) bool {
		if blank(b, c) || blank(a, b) {
			return true
		}
		checked++
		return false
	})
	if checked < 1000 {
		t.Errorf("only %d queries compared", checked)
	}
	a, err := ParseARPA("small.arpa", data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Counts(), a.Counts(); !equalInts(got, want) {
		t.Errorf("trie counts %v; ARPA (with blanks) %v", got, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestScoreHand checks lookups against values worked out by hand from a
// tiny model.
func TestScoreHand(t *testing.T) {
	const arpa = `\data\
ngram 1=5
ngram 2=4
ngram 3=2

\1-grams:
-1.0 </s>
-99 <s> -0.3
-0.7 the -0.2
-1.0 cat -0.15
-1.2 sat -0.25

\2-grams:
-0.3 <s> the -0.1
-0.5 the cat -0.2
-0.4 cat sat -0.3
-0.9 cat </s>

\3-grams:
-0.1 <s> the cat
-0.6 the cat the

\end\
`
	m, err := ParseARPA("hand", []byte(arpa))
	if err != nil {
		t.Fatal(err)
	}
	id := func(w string) int32 {
		i, ok := m.ID(w)
		if !ok {
			t.Fatalf("ID(%q) missing", w)
		}
		return i
	}
	for _, c := range []struct {
		ctx  []string // most recent first
		w    string
		want float64 // log10
		n    int
	}{
		{nil, "cat", -1.0, 1},
		{[]string{"the", "<s>"}, "cat", -0.1, 3},
		{[]string{"cat", "the"}, "sat", -0.4 - 0.2, 2},         // bigram, bo(the cat)
		{[]string{"cat", "the"}, "the", -0.6, 3},               // trigram whose bigram "cat the" is absent
		{[]string{"cat", "<s>"}, "the", -0.15 - 0.7, 2},        // no "<s> cat" (bo 0): P(the|cat), found as the blank "cat the"
		{[]string{"sat", "cat"}, "</s>", -0.25 - 0.3 - 1.0, 1}, // bo(cat sat) + bo(sat) + P(</s>)
		{[]string{"the"}, "the", -0.2 - 0.7, 1},
	} {
		h := make([]int32, len(c.ctx))
		for i, w := range c.ctx {
			h[i] = id(w)
		}
		got, n := m.ScoreN(id(c.w), h...)
		if g := float64(got) / Log10ToNats; math.Abs(g-c.want) > 1e-5 || n != c.n {
			t.Errorf("ScoreN(%s | %v) = %.4f, %d; want %.4f, %d", c.w, c.ctx, g, n, c.want, c.n)
		}
	}
}

func TestParseErrors(t *testing.T) {
	good := string(mustRead(t, "testdata/small.arpa"))
	for _, c := range []struct{ name, data, want string }{
		{"no data", "hello\n", `no \data\`},
		{"count mismatch", strings.Replace(good, "ngram 2=30", "ngram 2=31", 1), "entries"},
		{"unknown word", strings.Replace(good, "\\2-grams:\n", "\\2-grams:\n-0.5 zz w1 -0.1\n", 1), "not a unigram"},
		{"bad prob", strings.Replace(good, "\\1-grams:\n", "\\1-grams:\nx y\n", 1), "probability"},
		{"no end", strings.Replace(good, `\end\`, "", 1), "end of file"},
	} {
		_, err := ParseARPA(c.name, []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseARPA(%s) = %v; want an error containing %q", c.name, err, c.want)
		}
	}
	bin := mustRead(t, "testdata/small.lm.bin")
	for _, n := range []int{0, 10, 19, 20, 30, 1000, len(bin) - 10, len(bin) - 1} {
		if _, err := ParseTrie("cut", bin[:n]); err == nil {
			t.Errorf("ParseTrie(first %d bytes) succeeded", n)
		}
	}
	if _, err := ParseTrie("extra", append(bytes.Clone(bin), 0)); err == nil {
		t.Errorf("ParseTrie(trailing byte) succeeded")
	}
}

// exercise runs lookups over the model's vocabulary; it must never panic.
func exercise(m *Model) {
	n := int32(min(m.Len(), 20))
	for a := range n {
		for b := range n {
			for c := range n {
				_ = m.Score(c, b, a)
			}
			_ = m.Score(a, b)
		}
		_ = m.Score(a)
	}
}

func FuzzParseARPA(f *testing.F) {
	f.Add(mustRead(f, "testdata/small.arpa"))
	f.Add([]byte("\\data\\\nngram 1=1\n\\1-grams:\n-1 a\n\\end\\\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseARPA("fuzz", data)
		if err != nil {
			return
		}
		exercise(m)
		// Round trip: the written text parses to the same scores.
		var buf bytes.Buffer
		if err := m.WriteARPA(&buf); err != nil {
			t.Fatal(err)
		}
		m2, err := ParseARPA("again", buf.Bytes())
		if err != nil {
			t.Fatalf("re-reading written ARPA: %v\n%s", err, buf.Bytes())
		}
		n := int32(min(m.Len(), 10))
		for a := range n {
			for b := range n {
				for c := range n {
					if x, y := m.Score(c, b, a), m2.Score(c, b, a); math.Abs(float64(x-y)) > 1e-3 {
						t.Fatalf("round trip: Score(%d|%d %d) %v → %v", c, a, b, x, y)
					}
				}
			}
		}
	})
}

func FuzzParseTrie(f *testing.F) {
	bin := mustRead(f, "testdata/small.lm.bin")
	f.Add(bin)
	f.Fuzz(func(t *testing.T, data []byte) {
		// Mutations land mostly in the 786 KB of quantiser bins; splice
		// the fuzzed bytes over the start and the end of a valid file so
		// the header, unigrams, n-grams and words are all reached.
		for _, d := range [][]byte{data, splice(bin, data, false), splice(bin, data, true)} {
			m, err := ParseTrie("fuzz", d)
			if err != nil {
				continue
			}
			exercise(m)
		}
	})
}

func splice(base, data []byte, atEnd bool) []byte {
	out := bytes.Clone(base)
	if atEnd {
		if len(data) > len(out) {
			data = data[:len(out)]
		}
		copy(out[len(out)-len(data):], data)
		return out
	}
	copy(out[min(len(trieMagic), len(out)):], data)
	return out
}
