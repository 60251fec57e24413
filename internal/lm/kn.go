package lm

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Special words of a trained model: sentence start and end, and the word
// that stands for every spelling outside the vocabulary.
const (
	SentenceStart = "<s>"
	SentenceEnd   = "</s>"
	Unknown       = "<unk>"
)

// Trainer counts the words of a text for a trigram model with interpolated
// modified Kneser-Ney smoothing (Chen and Goodman's three discounts per
// order, from the count-of-counts; continuation counts for the lower
// orders, raw counts for n-grams that begin with "<s>"), written as an
// ARPA back-off model over a fixed vocabulary. Every vocabulary word gets a
// probability, a word never seen in the text its share of the unigram
// level's leftover mass spread evenly over the vocabulary.
type Trainer struct {
	words []string
	index map[string]int32
	bos   int32
	eos   int32
	unk   int32
	tri   map[uint64]uint32 // raw trigram counts
	bi    map[uint64]uint32 // raw bigram counts of "<s> w"
	// Tokens counts the words added (without "<s>" and "</s>"), OOV the
	// words of them outside the vocabulary.
	Tokens, OOV int
}

const knBits = 21

func knKey(a, b, c int32) uint64 {
	return uint64(a)<<(2*knBits) | uint64(b)<<knBits | uint64(c)
}

func knSplit(k uint64) (a, b, c int32) {
	m := uint64(1)<<knBits - 1
	return int32(k >> (2 * knBits)), int32(k >> knBits & m), int32(k & m)
}

// NewTrainer returns a trainer over the vocabulary vocab (duplicates and
// the special words are ignored; the special words are added).
func NewTrainer(vocab []string) (*Trainer, error) {
	t := &Trainer{index: map[string]int32{}, tri: map[uint64]uint32{}, bi: map[uint64]uint32{}}
	add := func(w string) int32 {
		if id, ok := t.index[w]; ok {
			return id
		}
		id := int32(len(t.words))
		t.words = append(t.words, w)
		t.index[w] = id
		return id
	}
	t.bos, t.eos, t.unk = add(SentenceStart), add(SentenceEnd), add(Unknown)
	for _, w := range vocab {
		if w != "" {
			add(w)
		}
	}
	if len(t.words) >= 1<<knBits {
		return nil, fmt.Errorf("lm: vocabulary of %d words is too large to train", len(t.words))
	}
	return t, nil
}

// Known reports whether w is in the trainer's vocabulary.
func (t *Trainer) Known(w string) bool {
	_, ok := t.index[w]
	return ok
}

// Add counts one sentence (words without "<s>" and "</s>"); a word outside
// the vocabulary counts as "<unk>".
func (t *Trainer) Add(sentence []string) {
	if len(sentence) == 0 {
		return
	}
	h2, h1 := int32(-1), t.bos
	for i := 0; i <= len(sentence); i++ {
		w := t.eos
		if i < len(sentence) {
			t.Tokens++
			id, ok := t.index[sentence[i]]
			if !ok {
				id = t.unk
				t.OOV++
			}
			w = id
		}
		if h2 < 0 {
			t.bi[knKey(0, h1, w)]++
		} else {
			t.tri[knKey(h2, h1, w)]++
		}
		h2, h1 = h1, w
	}
}

// TrainOptions tunes [Trainer.WriteARPA].
type TrainOptions struct {
	// MinTrigram drops trigrams seen fewer times from the model (their
	// mass goes to the back-off, which is renormalised); 0 or 1 keeps all.
	MinTrigram int
}

// knDiscounts are the three discounts of one order.
type knDiscounts [4]float64 // index 1, 2, 3 (3 and more); 0 unused

func discounts(coc [5]int) knDiscounts {
	var d knDiscounts
	n1, n2, n3, n4 := float64(coc[1]), float64(coc[2]), float64(coc[3]), float64(coc[4])
	if n1 == 0 || n2 == 0 || n3 == 0 || n4 == 0 {
		// Too little text for the estimate: absolute discounting at 0.5
		// (a small hand-made text, in tests).
		return knDiscounts{0, 0.5, 0.5, 0.5}
	}
	y := n1 / (n1 + 2*n2)
	d[1] = 1 - 2*y*n2/n1
	d[2] = 2 - 3*y*n3/n2
	d[3] = 3 - 4*y*n4/n3
	for i := 1; i <= 3; i++ {
		d[i] = min(max(d[i], 0.05), float64(i))
	}
	return d
}

func (d knDiscounts) of(c uint32) float64 {
	return d[min(c, 3)]
}

// gram is one n-gram of the model being written: its words in text order
// and its probability and back-off weight (natural log, back-off 0 when
// none).
type gram struct {
	key  uint64
	prob float64
	bo   float64
}

// WriteARPA estimates the model from the counts and writes it as ARPA
// text (probabilities in log10, as the format has them).
func (t *Trainer) WriteARPA(w io.Writer, opt TrainOptions) error {
	V := len(t.words)
	// Adjusted counts: trigrams raw; bigrams by their distinct left words
	// (raw for "<s> w"); unigrams by their distinct left words.
	a2 := make(map[uint64]uint32, len(t.tri)/3)
	for k := range t.tri {
		_, v, x := knSplit(k)
		a2[knKey(0, v, x)]++
	}
	for k, c := range t.bi {
		a2[k] = c
	}
	a1 := make([]uint32, V)
	for k := range a2 {
		_, _, x := knSplit(k)
		a1[x]++
	}
	// Count-of-counts and discounts per order.
	var coc3, coc2, coc1 [5]int
	for _, c := range t.tri {
		coc3[min(c, 4)]++
	}
	for _, c := range a2 {
		coc2[min(c, 4)]++
	}
	for _, c := range a1 {
		coc1[min(c, 4)]++
	}
	d3, d2, d1 := discounts(coc3), discounts(coc2), discounts(coc1)

	// Unigrams.
	var tot1 float64
	var gam1 float64
	for i, c := range a1 {
		if c > 0 && int32(i) != t.bos {
			tot1 += float64(c)
			gam1 += d1.of(c)
		}
	}
	p1 := make([]float64, V)
	unseen := 1.0 / float64(V-1) // every word but "<s>"
	for i, c := range a1 {
		if int32(i) == t.bos {
			continue
		}
		p := gam1 / tot1 * unseen
		if c > 0 {
			p += (float64(c) - d1.of(c)) / tot1
		}
		if tot1 == 0 {
			p = unseen
		}
		p1[i] = p
	}

	// Bigrams: totals and discount mass per history.
	type hist struct{ tot, gam float64 }
	h2 := make(map[int32]*hist)
	for k, c := range a2 {
		_, v, _ := knSplit(k)
		h := h2[v]
		if h == nil {
			h = &hist{}
			h2[v] = h
		}
		h.tot += float64(c)
		h.gam += d2.of(c)
	}
	p2 := make(map[uint64]float64, len(a2))
	for k, c := range a2 {
		_, v, x := knSplit(k)
		h := h2[v]
		p2[k] = (float64(c)-d2.of(c))/h.tot + h.gam/h.tot*p1[x]
	}
	prob2 := func(v, x int32) float64 { // the bigram model's P(x | v)
		if p, ok := p2[knKey(0, v, x)]; ok {
			return p
		}
		if h := h2[v]; h != nil {
			return h.gam / h.tot * p1[x]
		}
		return p1[x]
	}

	// Trigrams.
	h3 := make(map[uint64]*hist)
	for k, c := range t.tri {
		u, v, _ := knSplit(k)
		hk := knKey(0, u, v)
		h := h3[hk]
		if h == nil {
			h = &hist{}
			h3[hk] = h
		}
		h.tot += float64(c)
		h.gam += d3.of(c)
	}
	minTri := uint32(max(opt.MinTrigram, 1))
	var g3 []gram
	// Listed mass per trigram history, of the trigram and of the bigram
	// model, to renormalise the back-off weight after dropping trigrams.
	type listed struct{ hi, lo float64 }
	l3 := make(map[uint64]*listed, len(h3))
	for k, c := range t.tri {
		if c < minTri {
			continue
		}
		u, v, x := knSplit(k)
		h := h3[knKey(0, u, v)]
		p := (float64(c)-d3.of(c))/h.tot + h.gam/h.tot*prob2(v, x)
		g3 = append(g3, gram{key: k, prob: p})
		hk := knKey(0, u, v)
		l := l3[hk]
		if l == nil {
			l = &listed{}
			l3[hk] = l
		}
		l.hi += p
		l.lo += prob2(v, x)
	}
	// Bigrams and their back-off weights (the trigram histories listed).
	g2 := make([]gram, 0, len(p2))
	for k, p := range p2 {
		bo := 0.0
		if l := l3[k]; l != nil {
			bo = math.Log(max(1-l.hi, 1e-12) / max(1-l.lo, 1e-12))
		}
		g2 = append(g2, gram{key: k, prob: p, bo: bo})
	}
	// Unigram back-off weights: the bigram histories (all bigrams listed).
	bo1 := make([]float64, V)
	for v, h := range h2 {
		bo1[v] = math.Log(h.gam / h.tot)
	}
	slices.SortFunc(g2, func(a, b gram) int { return t.cmpGram(a.key, b.key, 2) })
	slices.SortFunc(g3, func(a, b gram) int { return t.cmpGram(a.key, b.key, 3) })

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\\data\\\nngram 1=%d\nngram 2=%d\nngram 3=%d\n", V, len(g2), len(g3))
	lg := func(v float64) float64 {
		if v <= 0 {
			return -99
		}
		return math.Log10(v)
	}
	fmt.Fprintf(bw, "\n\\1-grams:\n")
	for i, word := range t.words {
		p := lg(p1[i])
		if int32(i) == t.bos {
			p = -99
		}
		fmt.Fprintf(bw, "%.6f\t%s\t%.6f\n", p, word, bo1[i]/math.Ln10)
	}
	fmt.Fprintf(bw, "\n\\2-grams:\n")
	for _, g := range g2 {
		_, v, x := knSplit(g.key)
		fmt.Fprintf(bw, "%.6f\t%s %s\t%.6f\n", lg(g.prob), t.words[v], t.words[x], g.bo/math.Ln10)
	}
	fmt.Fprintf(bw, "\n\\3-grams:\n")
	for _, g := range g3 {
		u, v, x := knSplit(g.key)
		fmt.Fprintf(bw, "%.6f\t%s %s %s\n", lg(g.prob), t.words[u], t.words[v], t.words[x])
	}
	fmt.Fprintf(bw, "\n\\end\\\n")
	return bw.Flush()
}

// cmpGram orders n-gram keys by their words' spellings in text order.
func (t *Trainer) cmpGram(a, b uint64, n int) int {
	a0, a1, a2 := knSplit(a)
	b0, b1, b2 := knSplit(b)
	as := [3]int32{a0, a1, a2}
	bs := [3]int32{b0, b1, b2}
	for i := 3 - n; i < 3; i++ {
		if c := strings.Compare(t.words[as[i]], t.words[bs[i]]); c != 0 {
			return c
		}
	}
	return 0
}
