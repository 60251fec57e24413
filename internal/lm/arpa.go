package lm

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ParseARPA reads a back-off language model in ARPA text format:
//
//	\data\
//	ngram 1=<count>
//	…
//	\1-grams:
//	<log10 prob> <word> [<log10 back-off>]
//	…
//	\2-grams:
//	<log10 prob> <word> <word> [<log10 back-off>]
//	…
//	\end\
//
// Text before \data\ is ignored. Every word of an n-gram must be a unigram.
// The n-gram counts must match the sections. name labels errors.
func ParseARPA(name string, data []byte) (*Model, error) {
	return readARPA(name, bytes.NewReader(data))
}

// ReadARPA is ParseARPA on a reader.
func ReadARPA(name string, r io.Reader) (*Model, error) { return readARPA(name, r) }

type arpaGram struct {
	words    []uint32 // reversed: most recent (predicted) word first
	prob, bo float32
	real     bool
}

func readARPA(name string, r io.Reader) (*Model, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	fail := func(format string, args ...any) (*Model, error) {
		return nil, fmt.Errorf("lm: %s:%d: "+format, append([]any{name, line}, args...)...)
	}
	next := func() (string, bool) {
		for sc.Scan() {
			line++
			if t := strings.TrimSpace(sc.Text()); t != "" {
				return t, true
			}
		}
		return "", false
	}
	// Header.
	for {
		t, ok := next()
		if !ok {
			if err := sc.Err(); err != nil {
				return nil, fmt.Errorf("lm: %s: %w", name, err)
			}
			return fail("no \\data\\ section")
		}
		if t == `\data\` {
			break
		}
	}
	var counts []int
	var t string
	for {
		var ok bool
		if t, ok = next(); !ok {
			return fail("end of file in \\data\\ section")
		}
		rest, found := strings.CutPrefix(t, "ngram ")
		if !found {
			break
		}
		o, c, found := strings.Cut(rest, "=")
		n, err1 := strconv.Atoi(strings.TrimSpace(o))
		v, err2 := strconv.Atoi(strings.TrimSpace(c))
		if !found || err1 != nil || err2 != nil || v < 0 || v >= 1<<28 {
			return fail("bad count line %q", t)
		}
		if n != len(counts)+1 {
			return fail("n-gram count for order %d out of sequence", n)
		}
		counts = append(counts, v)
	}
	order := len(counts)
	if order == 0 || order > 6 {
		return fail("%d n-gram orders (want 1 to 6)", order)
	}
	if counts[0] == 0 {
		return fail("no unigrams")
	}
	m := &Model{order: order}
	index := map[string]uint32{}
	grams := make([][]arpaGram, order+1)
	for k := 1; k <= order; k++ {
		if t != fmt.Sprintf(`\%d-grams:`, k) {
			return fail("want \\%d-grams:, got %q", k, t)
		}
		var ok bool
		for {
			if t, ok = next(); !ok {
				return fail("end of file in \\%d-grams:", k)
			}
			if strings.HasPrefix(t, `\`) {
				break
			}
			f := strings.Fields(t)
			if len(f) != k+1 && len(f) != k+2 {
				return fail("%d-gram line has %d fields", k, len(f))
			}
			p, err := parseLog(f[0])
			if err != nil {
				return fail("%d-gram probability %q: %v", k, f[0], err)
			}
			var bo float32
			if len(f) == k+2 {
				if bo, err = parseLog(f[k+1]); err != nil {
					return fail("%d-gram back-off %q: %v", k, f[k+1], err)
				}
			}
			if k == 1 {
				if _, dup := index[f[1]]; dup {
					return fail("duplicate unigram %q", f[1])
				}
				index[f[1]] = uint32(len(m.words))
				m.words = append(m.words, f[1])
				m.uni = append(m.uni, unigram{prob: min(p, 0), bo: bo})
				continue
			}
			g := arpaGram{words: make([]uint32, k), prob: p, bo: bo, real: true}
			for i := range k {
				id, ok := index[f[1+i]]
				if !ok {
					return fail("word %q of a %d-gram is not a unigram", f[1+i], k)
				}
				g.words[k-1-i] = id
			}
			grams[k] = append(grams[k], g)
		}
		have := len(grams[k])
		if k == 1 {
			have = len(m.words)
		}
		if have != counts[k-1] {
			return fail("\\%d-grams: has %d entries, \\data\\ says %d", k, have, counts[k-1])
		}
	}
	if t != `\end\` {
		return fail("want \\end\\, got %q", t)
	}
	m.uni = append(m.uni, unigram{})
	if err := m.buildLevels(name, grams); err != nil {
		return nil, err
	}
	return m, nil
}

func parseLog(s string) (float32, error) {
	v, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return 0, err
	}
	// Above -zeroLog10 (a factor of 10^99) is out of range too: such a
	// value is no probability or back-off weight of a real model, and it
	// overflows float32 in nats (3e38 is +Inf), or when a blank's back-off
	// and probability are added, and a written +Inf does not read back.
	if math.IsNaN(v) || v > -zeroLog10 {
		return 0, fmt.Errorf("not a log probability")
	}
	if v < zeroLog10 { // -99 and -inf stand for zero probability
		v = zeroLog10
	}
	return float32(v * Log10ToNats), nil
}

// zeroLog10 is ARPA's log10 probability for zero: a value read below it is
// read as it, and a blank's backed-off probability below it is held as it,
// so that a written model reads back with the same scores.
const zeroLog10 = -99

func cmpWords(a, b []uint32) int { return slices.Compare(a, b) }

// buildLevels builds the reversed trie from the n-grams of each order:
// sorted by reversed words, with blank entries added where an n-gram's
// suffix (its reversed prefix) is missing, so every n-gram is reachable.
// A blank's probability is the backed-off one and its back-off weight is 0,
// so scores are unchanged (down to zeroLog10: a backed-off probability
// below ARPA's zero is held as zero, as the file would read it).
func (m *Model) buildLevels(name string, grams [][]arpaGram) error {
	order := m.order
	for k := 2; k <= order; k++ {
		slices.SortFunc(grams[k], func(a, b arpaGram) int { return cmpWords(a.words, b.words) })
		for i := 1; i < len(grams[k]); i++ {
			if cmpWords(grams[k][i-1].words, grams[k][i].words) == 0 {
				return fmt.Errorf("lm: %s: duplicate %d-gram", name, k)
			}
		}
	}
	// Blanks, top-down: each (k+1)-gram needs its reversed prefix at order k.
	for k := order - 1; k >= 2; k-- {
		var add []arpaGram
		have := grams[k]
		for i, g := range grams[k+1] {
			pre := g.words[:k]
			if i > 0 && cmpWords(grams[k+1][i-1].words[:k], pre) == 0 {
				continue
			}
			if _, found := slices.BinarySearchFunc(have, pre, func(a arpaGram, p []uint32) int { return cmpWords(a.words, p) }); !found {
				add = append(add, arpaGram{words: slices.Clone(pre)})
			}
		}
		if len(add) > 0 {
			grams[k] = append(grams[k], add...)
			slices.SortFunc(grams[k], func(a, b arpaGram) int { return cmpWords(a.words, b.words) })
		}
	}
	// Levels, bottom-up; blanks get their backed-off probability from the
	// levels already built.
	m.mid = nil
	// prevWords: reversed words of the level below, in order.
	prevWords := make([][]uint32, len(m.words))
	for i := range m.words {
		prevWords[i] = []uint32{uint32(i)}
	}
	setNext := func(k int, nexts func(i int, v uint32), level []arpaGram) {
		// For each parent i (sorted), next = first child whose prefix ≥ parent.
		c := 0
		for i, pw := range prevWords {
			for c < len(level) && cmpWords(level[c].words[:k-1], pw) < 0 {
				c++
			}
			nexts(i, uint32(c))
		}
		nexts(len(prevWords), uint32(len(level)))
	}
	for k := 2; k <= order; k++ {
		level := grams[k]
		// Every entry's prefix must be a parent (true by construction for
		// blanks; real n-grams whose suffix is missing got a blank above).
		if k == 2 {
			setNext(k, func(i int, v uint32) { m.uni[i].next = v }, level)
		} else {
			l := &m.mid[k-3]
			setNext(k, func(i int, v uint32) { l.next[i] = v }, level)
		}
		for i := range level {
			g := &level[i]
			if !g.real {
				g.prob = max(m.blankProb(g.words[0], g.words[1:]), float32(zeroLog10*Log10ToNats))
			}
		}
		ws := make([]uint32, len(level))
		pr := make([]float32, len(level))
		for i, g := range level {
			ws[i] = g.words[k-1]
			pr[i] = g.prob
		}
		if k == order {
			m.long = longest{word: ws, prob: pr}
		} else {
			bo := make([]float32, len(level))
			for i, g := range level {
				bo[i] = g.bo
			}
			m.mid = append(m.mid, middle{word: ws, prob: pr, bo: bo, next: make([]uint32, len(level)+1)})
		}
		prevWords = make([][]uint32, len(level))
		for i, g := range level {
			prevWords[i] = g.words
		}
	}
	// Check that every n-gram hangs under an existing parent: the number
	// of children reached must equal the level size.
	reached := func(k int) int {
		if k == 2 {
			return int(m.uni[len(m.words)].next)
		}
		return int(m.mid[k-3].next[len(m.mid[k-3].word)])
	}
	for k := 2; k <= order; k++ {
		n := len(grams[k])
		if reached(k) != n {
			return fmt.Errorf("lm: %s: internal error: %d of %d %d-grams reachable", name, reached(k), n, k)
		}
	}
	return m.build(name)
}

// blankProb is the backed-off probability of w after hist (k-1 words,
// most recent first) held by a blank k-gram entry: the back-off weight of
// the history plus the probability after its first k-2 words. Only the
// levels below k are used, so it works while level k is being built.
func (m *Model) blankProb(w uint32, hist []uint32) float32 {
	h := make([]int32, len(hist))
	for i, v := range hist {
		h[i] = int32(v)
	}
	p, _ := m.ScoreN(int32(w), h[:len(h)-1]...)
	// Back-off weight of the history n-gram, found along its reversed path.
	u := m.uni[h[0]]
	if len(h) == 1 {
		return p + u.bo
	}
	lo, hi := u.next, m.uni[h[0]+1].next
	for i := 1; i < len(h); i++ {
		l := &m.mid[i-1]
		j := find(l.word, lo, hi, uint32(h[i]))
		if j < 0 {
			return p
		}
		if i == len(h)-1 {
			return p + l.bo[j]
		}
		lo, hi = l.next[j], l.next[j+1]
	}
	return p
}
