package lm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fourGram is an order-4 model with a trigram whose suffix bigram ("b a")
// is missing, so the trie holds a blank at two middle levels' worth.
const fourGram = `\data\
ngram 1=4
ngram 2=3
ngram 3=3
ngram 4=1

\1-grams:
-1.0 <s> -0.3
-0.8 a -0.2
-0.9 b -0.25
-0.7 </s>

\2-grams:
-0.4 <s> a -0.1
-0.5 a b -0.15
-0.6 b </s>

\3-grams:
-0.3 <s> a b -0.05
-0.35 a b </s> -0.07
-0.45 <s> b a -0.09

\4-grams:
-0.2 <s> a b </s>

\end\
`

const oneGram = "\\data\\\nngram 1=2\n\n\\1-grams:\n-1 a\n-0.5 b\n\n\\end\\\n"

// randomText is a deterministic text of n sentences over a vocabulary of
// v words, Zipf-like, for a trained model with many n-grams.
func randomText(n, v int) (string, []string) {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, v)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
	}
	z := rand.NewZipf(r, 1.1, 2, uint64(v-1))
	var b strings.Builder
	for range n {
		for j, k := 0, 3+r.IntN(10); j < k; j++ {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[z.Uint64()])
		}
		b.WriteByte('\n')
	}
	return b.String(), vocab
}

// testModels returns models of every reader and order to write and read
// back: ARPA text (orders 1, 3, 4), the sphinxbase trie and trained
// Kneser-Ney models.
func testModels(t *testing.T) map[string]*Model {
	t.Helper()
	ms := map[string]*Model{}
	parse := func(name string, data []byte) {
		m, err := Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		ms[name] = m
	}
	parse("small.arpa", mustRead(t, "testdata/small.arpa"))
	parse("small.lm.bin", mustRead(t, "testdata/small.lm.bin"))
	parse("four.arpa", []byte(fourGram))
	parse("one.arpa", []byte(oneGram))
	m, _ := trainText(t, "the owl sat\nthe cat sat on the mat\nthe cat ate\n", []string{"the", "cat", "sat", "on", "mat", "owl", "ate", "dog"}, TrainOptions{})
	ms["kn"] = m
	text, vocab := randomText(3000, 300)
	m, _ = trainText(t, text, vocab, TrainOptions{MinTrigram: 2})
	ms["kn-random"] = m
	return ms
}

func encode(t testing.TB, m *Model, source string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := m.WriteBinary(&buf, source); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sameModel checks that b holds a's vocabulary and arrays exactly.
func sameModel(t *testing.T, a, b *Model) {
	t.Helper()
	if a.Order() != b.Order() || !reflect.DeepEqual(a.words, b.words) || !reflect.DeepEqual(a.index, b.index) {
		t.Fatalf("order %d → %d, vocabulary (%d words) differs", a.Order(), b.Order(), a.Len())
	}
	if !reflect.DeepEqual(a.uni, b.uni) || !reflect.DeepEqual(a.mid, b.mid) || !reflect.DeepEqual(a.long, b.long) {
		t.Fatalf("the n-gram arrays differ")
	}
}

// sameScores compares ScoreN of every word after every history of up to
// order-1 words over the first 30 words of the vocabulary, bit for bit.
func sameScores(t *testing.T, a, b *Model) {
	t.Helper()
	n := int32(min(a.Len(), 30))
	var rec func(hist []int32)
	rec = func(hist []int32) {
		for w := range n {
			p, k := a.ScoreN(w, hist...)
			q, j := b.ScoreN(w, hist...)
			if math.Float32bits(p) != math.Float32bits(q) || k != j {
				t.Fatalf("ScoreN(%d | %v) = %v, %d; read back %v, %d", w, hist, p, k, q, j)
			}
		}
		if len(hist) == a.Order()-1 || len(hist) == 3 {
			return
		}
		for h := range n {
			rec(append(hist, h))
		}
	}
	rec(nil)
}

// TestBinaryRoundTrip writes models of every reader and order in the
// binary form and reads them back, in place and decoded into copies (as
// on a big-endian machine): the same arrays, the same scores bit for bit,
// the same source record, and the same bytes when written again.
func TestBinaryRoundTrip(t *testing.T) {
	for name, m := range testModels(t) {
		src := "made from " + name
		data := encode(t, m, src)
		if !IsBinary(data) || len(data)%8 != 0 {
			t.Fatalf("%s: %d bytes, IsBinary %v", name, len(data), IsBinary(data))
		}
		for _, inPlace := range []bool{true, false} {
			b, s, err := parseBinary(name, bytes.Clone(data), inPlace)
			if err != nil {
				t.Fatalf("%s (in place %v): %v", name, inPlace, err)
			}
			if s != src {
				t.Errorf("%s: source %q; want %q", name, s, src)
			}
			sameModel(t, m, b)
			sameScores(t, m, b)
			if again := encode(t, b, src); !bytes.Equal(again, data) {
				t.Errorf("%s (in place %v): written again, the bytes differ", name, inPlace)
			}
		}
		// Unaligned input is copied once, then read in place.
		odd := make([]byte, len(data)+1)
		copy(odd[1:], data)
		b, _, err := ParseBinary(name, odd[1:])
		if err != nil {
			t.Fatalf("%s unaligned: %v", name, err)
		}
		sameScores(t, m, b)
	}
}

// TestBinaryLoad reads a binary model from a file through Load and Parse,
// which tell it from ARPA text and the sphinxbase trie by its magic.
func TestBinaryLoad(t *testing.T) {
	m, err := ParseARPA("small.arpa", mustRead(t, "testdata/small.arpa"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "small.slm")
	if err := os.WriteFile(p, encode(t, m, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	sameModel(t, m, b)
	checkAgainstRef(t, b, parseRef(t, mustRead(t, "testdata/small.arpa")), 1e-5, nil)
}

// TestBinaryAllocs checks that reading the binary form allocates a fixed
// number of objects however many n-grams the model holds: the arrays are
// the file's bytes.
func TestBinaryAllocs(t *testing.T) {
	if !littleEndian {
		t.Skip("skipping: the arrays are decoded into copies on a big-endian machine")
	}
	allocs := func(sentences int) (float64, int) {
		text, vocab := randomText(sentences, 300)
		m, _ := trainText(t, text, vocab, TrainOptions{})
		data := encode(t, m, "")
		n := testing.AllocsPerRun(5, func() {
			if _, _, err := ParseBinary("kn", data); err != nil {
				t.Fatal(err)
			}
		})
		c := m.Counts()
		return n, c[1] + c[2]
	}
	a, na := allocs(200)
	b, nb := allocs(5000)
	if nb < 4*na || b != a {
		t.Errorf("%.0f allocations for %d n-grams, %.0f for %d; want the same", a, na, b, nb)
	}
}

// reseal sets the size and checksum of a binary model after a change.
func reseal(b []byte) []byte {
	if len(b) >= binaryHeader {
		binary.LittleEndian.PutUint64(b[16:], uint64(len(b)))
		binary.LittleEndian.PutUint32(b[24:], binarySum(b))
	}
	return b
}

// TestBinaryErrors checks that truncated, extended, corrupt, stale and
// inconsistent files are errors naming the problem, never models.
func TestBinaryErrors(t *testing.T) {
	m, err := ParseARPA("four.arpa", []byte(fourGram))
	if err != nil {
		t.Fatal(err)
	}
	good := encode(t, m, "src")
	// Every truncation and an extension.
	for n := range len(good) {
		if _, _, err := ParseBinary("cut", good[:n]); err == nil {
			t.Fatalf("the first %d of %d bytes parsed", n, len(good))
		}
	}
	if _, _, err := ParseBinary("extra", append(bytes.Clone(good), 0)); err == nil || !strings.Contains(err.Error(), "truncated or extended") {
		t.Errorf("a trailing byte: %v", err)
	}
	// Every single-byte change, checksum included.
	for i := range good {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := bytes.Clone(good)
			b[i] ^= x
			if _, _, err := ParseBinary("flip", b); err == nil {
				t.Fatalf("byte %d xor %#x parsed", i, x)
			}
		}
	}
	// Consistent checksums over inconsistent contents. Sections of the
	// four-gram: source, ends, spellings, unigrams, then word, prob,
	// back-off, next of the bigrams and trigrams, word and prob of the
	// four-grams.
	le := binary.LittleEndian
	var counts [6]int64
	for k, c := range m.Counts() {
		counts[k] = int64(c)
	}
	var sec []int
	p := int64(binaryHeader)
	for _, n := range binaryLayout(4, counts, 3, 9) {
		sec = append(sec, int(p))
		p += pad8(n)
	}
	if p != int64(len(good)) {
		t.Fatalf("layout of %d bytes for a %d-byte file", p, len(good))
	}
	ends, uni, bigramWords, bigramProbs := sec[1], sec[3], sec[4], sec[5]
	sentinel := uni + 12*m.Len() + 8 // next of the sentinel unigram
	for _, c := range []struct {
		name string
		edit func(b []byte)
		want string
	}{
		{"stale version", func(b []byte) { le.PutUint32(b[8:], 0) }, "version 0"},
		{"newer version", func(b []byte) { le.PutUint32(b[8:], 2) }, "version 2"},
		{"order", func(b []byte) { le.PutUint32(b[12:], 7) }, "order 7"},
		{"count past the order", func(b []byte) { le.PutUint32(b[32+4*4:], 1) }, "5-grams in an order-4"},
		{"more words", func(b []byte) { le.PutUint32(b[32:], 5) }, "sections"},
		{"huge count", func(b []byte) { le.PutUint32(b[36:], 1<<31) }, "too many"},
		{"no words", func(b []byte) { le.PutUint32(b[32:], 0) }, "no unigrams"},
		{"source", func(b []byte) { le.PutUint32(b[28:], 5000) }, "source record"},
		{"spelling ends", func(b []byte) { le.PutUint32(b[ends:], 10) }, "word 0 ends"},
		{"spelling bytes", func(b []byte) { le.PutUint32(b[ends+12:], 8) }, "8 of 9 spelling bytes"},
		{"NaN unigram", func(b []byte) { le.PutUint32(b[uni:], 0x7fc00000) }, "unigram 0"},
		{"Inf bigram", func(b []byte) { le.PutUint32(b[bigramProbs:], 0x7f800000) }, "not a finite"},
		{"unigram pointer", func(b []byte) { le.PutUint32(b[uni+8:], 9) }, "points to"},
		{"unreached bigrams", func(b []byte) { copy(b[sentinel:], b[sentinel-12:sentinel-8]) }, "reached"},
		{"word id", func(b []byte) { le.PutUint32(b[bigramWords:], 4) }, "out of range"},
	} {
		b := bytes.Clone(good)
		c.edit(b)
		_, _, err := ParseBinary(c.name, reseal(b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error containing %q", c.name, err, c.want)
		}
	}
}

// lm2Path is the second language model of the recognizer (package asr's
// default, built once per machine), when it is there.
func lm2Path(t testing.TB) string {
	if p := os.Getenv("SOTTO_LM2"); p != "" {
		return p
	}
	d, err := os.UserCacheDir()
	if err != nil {
		t.Skip("skipping: no cache directory")
	}
	p := filepath.Join(d, "sotto", "asr", "debian-text-v1.arpa.gz")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping: %s absent (package asr builds it; or set SOTTO_LM2)", p)
	}
	return p
}

// TestBinaryLargeModels reads the recognizer's two real models both ways
// — the second model from its ARPA text and the Debian trigram from the
// sphinxbase trie — and in the binary form: the same arrays, and the same
// log-probability bit for bit for every n-gram the model holds, for each
// of them after a history it lacks (the back-off paths), and for random
// word triples, the unknown word's among them.
func TestBinaryLargeModels(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping in -short: reads a 13 MB ARPA file")
	}
	for _, name := range []string{"lm2", "debian"} {
		t.Run(name, func(t *testing.T) {
			var a *Model
			if name == "lm2" {
				var err error
				if a, err = Load(lm2Path(t)); err != nil {
					t.Fatal(err)
				}
			} else {
				a = loadDebian(t)
			}
			b, _, err := ParseBinary(name, encode(t, a, ""))
			if err != nil {
				t.Fatal(err)
			}
			sameModel(t, a, b)
			checked := 0
			same := func(w int32, hist ...int32) {
				p, k := a.ScoreN(w, hist...)
				q, j := b.ScoreN(w, hist...)
				if math.Float32bits(p) != math.Float32bits(q) || k != j {
					t.Fatalf("ScoreN(%s | %v) = %v, %d; binary %v, %d", a.Word(w), hist, p, k, q, j)
				}
				checked++
			}
			r := rand.New(rand.NewPCG(3, 4))
			n := int32(a.Len())
			backoffs := 0
			for w := range n {
				same(w)
				for j := a.uni[w].next; j < a.uni[w+1].next; j++ {
					h1 := int32(a.mid[0].word[j])
					same(w, h1)
					if a.Order() < 3 {
						continue
					}
					for g := a.mid[0].next[j]; g < a.mid[0].next[j+1]; g++ {
						same(w, h1, int32(a.long.word[g]))
					}
					x := r.Int32N(n)
					if _, k := a.ScoreN(w, h1, x); k < 3 {
						backoffs++
					}
					same(w, h1, x)
				}
			}
			unk, hasUnk := a.ID("<unk>")
			for range 200000 {
				w, h1, h2 := r.Int32N(n), r.Int32N(n), r.Int32N(n)
				if hasUnk && r.IntN(4) == 0 {
					h1 = unk
				}
				same(w, h1, h2)
			}
			if _, ok := b.ID("zzqxj-not-a-word"); ok {
				t.Errorf("an unseen spelling has an id")
			}
			if backoffs < 1000 {
				t.Errorf("only %d back-off paths checked", backoffs)
			}
			t.Logf("%d scores identical (%d words, counts %v, %d back-off paths)", checked, n, a.Counts(), backoffs)
		})
	}
}

func FuzzParseBinary(f *testing.F) {
	var seeds [][]byte
	for _, d := range []string{fourGram, oneGram, string(mustRead(f, "testdata/small.arpa"))} {
		m, err := ParseARPA("seed", []byte(d))
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, encode(f, m, "seed"))
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Add([]byte(binaryMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Most mutations only break the checksum: also read them resealed,
		// alone and spliced into a valid file over its counts, over its
		// sections and over its end, so the counts, sections and structure
		// checks are all reached.
		tries := [][]byte{data, reseal(bytes.Clone(data))}
		for _, s := range seeds {
			tries = append(tries, reseal(spliceAt(s, data, 28)), reseal(spliceAt(s, data, binaryHeader)), reseal(splice(s, data, true)))
		}
		for _, d := range tries {
			m, src, err := ParseBinary("fuzz", d)
			c, _, err2 := parseBinary("fuzz", bytes.Clone(d), false)
			if (err == nil) != (err2 == nil) {
				t.Fatalf("in place: %v; decoded: %v", err, err2)
			}
			if err != nil {
				continue
			}
			exercise(m)
			exercise(c)
			// Written again, it reads back the same.
			b, src2, err := ParseBinary("again", encode(t, m, src))
			if err != nil || src2 != src {
				t.Fatalf("re-reading a written model: %v", err)
			}
			n := int32(min(m.Len(), 8))
			for x := range n {
				for y := range n {
					for z := range n {
						if p, q := m.Score(z, y, x), b.Score(z, y, x); math.Float32bits(p) != math.Float32bits(q) {
							t.Fatalf("Score(%d | %d %d) %v, written again %v", z, x, y, p, q)
						}
					}
				}
			}
		}
	})
}

// spliceAt copies data over base from offset off (as far as base goes).
func spliceAt(base, data []byte, off int) []byte {
	out := bytes.Clone(base)
	copy(out[min(off, len(out)):], data)
	return out
}

// BenchmarkLoad reads the second language model of the recognizer from
// its ARPA file and from the binary form of it in a file.
func BenchmarkLoad(b *testing.B) {
	p := lm2Path(b)
	m, err := Load(p)
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "lm2.slm")
	if err := os.WriteFile(bin, encode(b, m, ""), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, path string }{{"arpa", p}, {"binary", bin}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Load(c.path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
