package lm

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
)

// Log10ToNats converts a base-10 log probability to nats.
const Log10ToNats = math.Ln10

// Model is a back-off n-gram language model. Scores are natural-log
// probabilities (nats). It is read-only after loading and safe for
// concurrent use by multiple goroutines.
//
// The n-grams are stored as a reversed trie, as in sphinxbase and KenLM:
// a unigram points to the range of bigram entries whose most recent history
// word is sorted in that range, and so on, so that the probability of a
// word after its history is found by following the history backwards.
type Model struct {
	order int
	words []string
	index map[string]int32
	uni   []unigram // len = vocabulary + 1; the last entry is a sentinel
	mid   []middle  // orders 2 … order-1
	long  longest   // the highest order (when order ≥ 2)
}

type unigram struct {
	prob, bo float32
	next     uint32 // first entry of the next level; the range ends at the next unigram's
}

type middle struct {
	word     []uint32
	prob, bo []float32
	next     []uint32 // len(word)+1
}

type longest struct {
	word []uint32
	prob []float32
}

// Order returns the model's n-gram order (3 for a trigram model).
func (m *Model) Order() int { return m.order }

// Len returns the vocabulary size.
func (m *Model) Len() int { return len(m.words) }

// Word returns the spelling of word id.
func (m *Model) Word(id int32) string { return m.words[id] }

// ID returns the id of word and whether the model knows it. Spellings are
// matched exactly.
func (m *Model) ID(word string) (int32, bool) {
	id, ok := m.index[word]
	return id, ok
}

// Counts returns the number of reachable n-grams of each order (index 0
// holds the unigrams). Entries added to make longer n-grams reachable
// ("blanks", as in sphinxbase's trie) are counted.
func (m *Model) Counts() []int {
	c := []int{len(m.words)}
	for _, l := range m.mid {
		c = append(c, len(l.word))
	}
	if m.order > 1 {
		c = append(c, len(m.long.word))
	}
	return c
}

// find returns the index of w among ws[lo:hi] (sorted ascending) or -1.
func find(ws []uint32, lo, hi uint32, w uint32) int {
	for lo < hi {
		h := (lo + hi) / 2
		switch v := ws[h]; {
		case v < w:
			lo = h + 1
		case v > w:
			hi = h
		default:
			return int(h)
		}
	}
	return -1
}

// Score returns the log probability (nats) of word w after the history
// hist, most recent word first (hist[0] is the word just before w). Only
// the first Order()-1 history words are used. When the full n-gram is
// absent the model backs off, adding the back-off weights of the longer
// histories. Ids must be valid (0 ≤ id < Len()); Score panics otherwise.
func (m *Model) Score(w int32, hist ...int32) float32 {
	s, _ := m.ScoreN(w, hist...)
	return s
}

// ScoreN is Score that also returns the length of the n-gram found (1 for
// a unigram).
func (m *Model) ScoreN(w int32, hist ...int32) (float32, int) {
	if len(hist) > m.order-1 {
		hist = hist[:m.order-1]
	}
	u := m.uni[w]
	p := u.prob
	lo, hi := u.next, m.uni[w+1].next
	used := 0
	for i, h := range hist {
		if lo >= hi {
			break
		}
		if i == len(m.mid) { // longest level
			j := find(m.long.word, lo, hi, uint32(h))
			if j >= 0 {
				p = m.long.prob[j]
				used = i + 1
			}
			break
		}
		l := &m.mid[i]
		j := find(l.word, lo, hi, uint32(h))
		if j < 0 {
			break
		}
		p = l.prob[j]
		used = i + 1
		lo, hi = l.next[j], l.next[j+1]
	}
	if used < len(hist) {
		p += m.backoff(hist, used)
	}
	return p, used + 1
}

// backoff sums the back-off weights of the histories hist[:k] for k in
// (used, len(hist)].
func (m *Model) backoff(hist []int32, used int) float32 {
	u := m.uni[hist[0]]
	var bo float32
	if used == 0 {
		bo = u.bo
	}
	lo, hi := u.next, m.uni[hist[0]+1].next
	for k := 2; k <= len(hist); k++ {
		l := &m.mid[k-2]
		j := find(l.word, lo, hi, uint32(hist[k-1]))
		if j < 0 {
			break
		}
		if k > used {
			bo += l.bo[j]
		}
		lo, hi = l.next[j], l.next[j+1]
	}
	return bo
}

// Load reads a language model file, in sphinxbase's binary trie format
// ("Trie Language Model", the .lm.bin of Debian's pocketsphinx-en-us), in
// this package's compact binary form ([Model.WriteBinary]) or in ARPA text
// format, chosen by the file's first bytes. A gzip-compressed file is read
// through gzip.
func Load(path string) (*Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("lm: %w", err)
	}
	if bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("lm: %s: %w", path, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("lm: %s: %w", path, err)
		}
	}
	return Parse(path, b)
}

// Parse reads a language model from data (see [Load]); name labels errors.
func Parse(name string, data []byte) (*Model, error) {
	if IsTrie(data) {
		return ParseTrie(name, data)
	}
	if IsBinary(data) {
		m, _, err := ParseBinary(name, data)
		return m, err
	}
	return ParseARPA(name, data)
}

// build finishes a model whose words, unigrams and levels are set: it
// indexes the words and checks every pointer, so that lookups cannot go out
// of range.
func (m *Model) build(name string) error {
	n := len(m.words)
	if n == 0 {
		return fmt.Errorf("lm: %s: no unigrams", name)
	}
	if len(m.uni) != n+1 {
		return fmt.Errorf("lm: %s: %d unigram entries for %d words", name, len(m.uni), n)
	}
	m.index = make(map[string]int32, n)
	for i, w := range m.words {
		if _, dup := m.index[w]; !dup {
			m.index[w] = int32(i)
		}
	}
	// next pointers: non-decreasing and within the next level.
	size := func(level int) int { // entries of level (0 = bigrams)
		if level < len(m.mid) {
			return len(m.mid[level].word)
		}
		if m.order > 1 {
			return len(m.long.word)
		}
		return 0
	}
	check := func(next []uint32, limit int, what string) error {
		prev := uint32(0)
		for i, v := range next {
			if v < prev || int(v) > limit {
				return fmt.Errorf("lm: %s: %s entry %d points to %d (previous %d, %d entries follow)", name, what, i, v, prev, limit)
			}
			prev = v
		}
		return nil
	}
	nexts := make([]uint32, len(m.uni))
	for i, u := range m.uni {
		nexts[i] = u.next
	}
	if err := check(nexts, size(0), "unigram"); err != nil {
		return err
	}
	for i, l := range m.mid {
		if len(l.next) != len(l.word)+1 || len(l.prob) != len(l.word) || len(l.bo) != len(l.word) {
			return fmt.Errorf("lm: %s: inconsistent %d-gram arrays", name, i+2)
		}
		if err := check(l.next, size(i+1), fmt.Sprintf("%d-gram", i+2)); err != nil {
			return err
		}
		for _, w := range l.word {
			if int(w) >= n {
				return fmt.Errorf("lm: %s: %d-gram word id %d out of range", name, i+2, w)
			}
		}
	}
	if m.order > 1 {
		if len(m.long.prob) != len(m.long.word) {
			return fmt.Errorf("lm: %s: inconsistent %d-gram arrays", name, m.order)
		}
		for _, w := range m.long.word {
			if int(w) >= n {
				return fmt.Errorf("lm: %s: %d-gram word id %d out of range", name, m.order, w)
			}
		}
	}
	return nil
}
