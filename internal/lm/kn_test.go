package lm

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestDiscounts(t *testing.T) {
	for _, c := range []struct {
		coc  [5]int
		want knDiscounts
	}{
		// Y = 10/(10+2·5) = 0.5; D1 = 1-2Y·5/10, D2 = 2-3Y·3/5, D3 = 3-4Y·2/3.
		{[5]int{0, 10, 5, 3, 2}, knDiscounts{0, 0.5, 1.1, 3 - 4.0/3}},
		// Y = 100/(100+80) = 5/9.
		{[5]int{0, 100, 40, 20, 10}, knDiscounts{0, 1 - 2*5.0/9*0.4, 2 - 3*5.0/9*0.5, 3 - 4*5.0/9*0.5}},
		// A count-of-counts of zero: the fallback.
		{[5]int{0, 3, 1, 0, 0}, knDiscounts{0, 0.5, 0.5, 0.5}},
	} {
		got := discounts(c.coc)
		for i := 1; i <= 3; i++ {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("discounts(%v) = %v, want %v", c.coc, got, c.want)
				break
			}
		}
	}
}

// knRef is a direct implementation of interpolated modified Kneser-Ney
// for a trigram, from the definitions, over string n-grams.
type knRef struct {
	vocab        []string // predicted words (all but <s>)
	c3           map[[3]string]float64
	a2           map[[2]string]float64
	a1           map[string]float64
	d3, d2, d1   knDiscounts
	minTri       float64
	pruned       bool
	trainerWords int
}

func newKNRef(sents [][]string, vocab []string) *knRef {
	r := &knRef{c3: map[[3]string]float64{}, a2: map[[2]string]float64{}, a1: map[string]float64{}}
	known := map[string]bool{}
	for _, w := range vocab {
		known[w] = true
	}
	r.vocab = append([]string{"</s>", "<unk>"}, vocab...)
	left2 := map[[2]string]map[string]bool{}
	for _, s := range sents {
		ws := []string{"<s>"}
		for _, w := range s {
			if !known[w] {
				w = "<unk>"
			}
			ws = append(ws, w)
		}
		ws = append(ws, "</s>")
		r.a2[[2]string{ws[0], ws[1]}]++ // raw count of "<s> w"
		for i := 2; i < len(ws); i++ {
			r.c3[[3]string{ws[i-2], ws[i-1], ws[i]}]++
			k := [2]string{ws[i-1], ws[i]}
			if left2[k] == nil {
				left2[k] = map[string]bool{}
			}
			left2[k][ws[i-2]] = true
		}
	}
	for k, l := range left2 {
		r.a2[k] = float64(len(l))
	}
	for k := range r.a2 {
		r.a1[k[1]]++
	}
	coc := func(vals []float64) [5]int {
		var c [5]int
		for _, v := range vals {
			c[min(int(v), 4)]++
		}
		return c
	}
	var v3, v2, v1 []float64
	for _, v := range r.c3 {
		v3 = append(v3, v)
	}
	for _, v := range r.a2 {
		v2 = append(v2, v)
	}
	for _, v := range r.a1 {
		v1 = append(v1, v)
	}
	r.d3, r.d2, r.d1 = discounts(coc(v3)), discounts(coc(v2)), discounts(coc(v1))
	return r
}

func (d knDiscounts) f(c float64) float64 { return d[min(int(c), 3)] }

func (r *knRef) p1(w string) float64 {
	var tot, gam float64
	for _, c := range r.a1 {
		tot += c
		gam += r.d1.f(c)
	}
	p := gam / tot / float64(len(r.vocab))
	if c := r.a1[w]; c > 0 {
		p += (c - r.d1.f(c)) / tot
	}
	return p
}

func (r *knRef) p2(v, w string) float64 {
	var tot, gam float64
	for k, c := range r.a2 {
		if k[0] == v {
			tot += c
			gam += r.d2.f(c)
		}
	}
	if tot == 0 {
		return r.p1(w)
	}
	p := gam / tot * r.p1(w)
	if c := r.a2[[2]string{v, w}]; c > 0 {
		p += (c - r.d2.f(c)) / tot
	}
	return p
}

func (r *knRef) p3(u, v, w string) float64 {
	var tot, gam float64
	for k, c := range r.c3 {
		if k[0] == u && k[1] == v {
			tot += c
			gam += r.d3.f(c)
		}
	}
	if tot == 0 {
		return r.p2(v, w)
	}
	p := gam / tot * r.p2(v, w)
	if c := r.c3[[3]string{u, v, w}]; c > 0 {
		p += (c - r.d3.f(c)) / tot
	}
	return p
}

var knText = `the cat sat on the mat
the dog sat on the log
a cat and a dog sat on a mat
the cat saw the dog
the dog saw a cat on the mat
on the mat the cat sat
the bird sat on the dog
a dog and a cat saw the bird
the mat is on the log
the zebra sat`

func trainText(t *testing.T, text string, vocab []string, opt TrainOptions) (*Model, [][]string) {
	t.Helper()
	tr, err := NewTrainer(vocab)
	if err != nil {
		t.Fatal(err)
	}
	var sents [][]string
	for line := range strings.Lines(text) {
		s := strings.Fields(line)
		sents = append(sents, s)
		tr.Add(s)
	}
	var buf bytes.Buffer
	if err := tr.WriteARPA(&buf, opt); err != nil {
		t.Fatal(err)
	}
	m, err := ParseARPA("kn", buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return m, sents
}

// The trained model's scores are the definitions' interpolated modified
// Kneser-Ney probabilities for every trigram over the vocabulary, seen or
// not ("zebra" is outside it, "owl" in it but never seen).
func TestKneserNeyMatchesDefinition(t *testing.T) {
	vocab := []string{"the", "cat", "sat", "on", "mat", "dog", "log", "a", "and", "saw", "bird", "is", "owl"}
	m, sents := trainText(t, knText, vocab, TrainOptions{})
	ref := newKNRef(sents, vocab)
	hist := append([]string{"<s>"}, ref.vocab...)
	id := func(w string) int32 {
		i, ok := m.ID(w)
		if !ok {
			t.Fatalf("%q not in the model", w)
		}
		return i
	}
	for _, u := range hist {
		for _, v := range hist {
			if v == "</s>" || u == "</s>" {
				continue
			}
			sum := 0.0
			for _, w := range ref.vocab {
				got := math.Exp(float64(m.Score(id(w), id(v), id(u))))
				want := ref.p3(u, v, w)
				if math.Abs(got-want) > 2e-5*want+1e-7 {
					t.Errorf("P(%s | %s %s) = %.6g, want %.6g", w, u, v, got, want)
				}
				sum += got
			}
			if math.Abs(sum-1) > 1e-4 {
				t.Errorf("P(· | %s %s) sums to %.6f", u, v, sum)
			}
		}
	}
	if p := m.Score(id("owl")); p >= m.Score(id("bird")) {
		t.Errorf("unseen owl scores %.3f, at least bird's %.3f", p, m.Score(id("bird")))
	}
}

// Dropping rare trigrams renormalises the back-off weights: every history's
// distribution still sums to one, and the dropped trigrams score less.
func TestKneserNeyPrunedSumsToOne(t *testing.T) {
	vocab := []string{"the", "cat", "sat", "on", "mat", "dog", "log", "a", "and", "saw", "bird", "is", "owl"}
	full, _ := trainText(t, knText, vocab, TrainOptions{})
	m, _ := trainText(t, knText, vocab, TrainOptions{MinTrigram: 2})
	if fc, mc := full.Counts(), m.Counts(); mc[2] >= fc[2] || mc[1] != fc[1] {
		t.Fatalf("counts %v after pruning, %v before", mc, fc)
	}
	words := append([]string{"</s>", "<unk>"}, vocab...)
	for _, u := range append([]string{"<s>"}, words[1:]...) {
		for _, v := range words[1:] {
			sum := 0.0
			for _, w := range words {
				a, _ := m.ID(w)
				b, _ := m.ID(v)
				c, _ := m.ID(u)
				sum += math.Exp(float64(m.Score(a, b, c)))
			}
			if math.Abs(sum-1) > 1e-4 {
				t.Errorf("P(· | %s %s) sums to %.6f after pruning", u, v, sum)
			}
		}
	}
	// "the dog sat" was seen once: pruned, it scores below the full model.
	ids := func(m *Model, ws ...string) []int32 {
		var r []int32
		for _, w := range ws {
			i, _ := m.ID(w)
			r = append(r, i)
		}
		return r
	}
	f := ids(full, "sat", "dog", "the")
	p := ids(m, "sat", "dog", "the")
	if full.Score(f[0], f[1], f[2]) <= m.Score(p[0], p[1], p[2]) {
		t.Errorf("pruned trigram scores %.3f, the full model %.3f", m.Score(p[0], p[1], p[2]), full.Score(f[0], f[1], f[2]))
	}
}

func TestTrainerCounts(t *testing.T) {
	tr, err := NewTrainer([]string{"a", "b", "a", "<s>"})
	if err != nil {
		t.Fatal(err)
	}
	tr.Add([]string{"a", "c", "b"})
	tr.Add(nil)
	if tr.Tokens != 3 || tr.OOV != 1 {
		t.Errorf("Tokens %d OOV %d, want 3 and 1", tr.Tokens, tr.OOV)
	}
	if len(tr.words) != 5 { // <s> </s> <unk> a b
		t.Errorf("vocabulary %v", tr.words)
	}
}
