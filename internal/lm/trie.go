package lm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// trieMagic opens sphinxbase's binary trie LM files.
const trieMagic = "Trie Language Model"

// logBase is the log base of the values stored in sphinxbase binary LMs
// (its default -logbase).
const logBase = 1.0001

// IsTrie reports whether data starts like a sphinxbase binary trie LM.
func IsTrie(data []byte) bool { return bytes.HasPrefix(data, []byte(trieMagic)) }

// requiredBits is the number of bits needed to store values up to max.
func requiredBits(max uint32) uint {
	n := uint(0)
	for ; max > 0; max >>= 1 {
		n++
	}
	return n
}

// bitReader reads little-endian bit-packed fields, as sphinxbase's bitarr.
type bitReader struct{ mem []byte }

func (b bitReader) read(off uint64, bits uint) uint32 {
	if bits == 0 {
		return 0
	}
	i := off >> 3
	var v uint64
	if i+8 <= uint64(len(b.mem)) {
		v = binary.LittleEndian.Uint64(b.mem[i:])
	} else {
		var buf [8]byte
		copy(buf[:], b.mem[i:])
		v = binary.LittleEndian.Uint64(buf[:])
	}
	return uint32((v >> (off & 7)) & (1<<bits - 1))
}

// ParseTrie reads a language model in sphinxbase's binary trie format (the
// "Trie Language Model" files written by sphinx_lm_convert, such as
// en-us.lm.bin of Debian's pocketsphinx-en-us):
//
//	char[19] "Trie Language Model"; uint8 order; uint32 counts[order]
//	int32 (unused); float32 quantisation bins: per middle order 2^16
//	probabilities and 2^16 back-offs, then 2^16 probabilities of the
//	highest order
//	{float32 prob, float32 backoff, uint32 next}[counts[0]+1]  (unigrams)
//	bit-packed middle orders: word id, 16-bit back-off and probability
//	bins, next pointer; then the highest order: word id, probability bin
//	int32 length; NUL-terminated words
//
// Values are logs in base 1.0001. The n-grams are reached from the
// unigrams' next pointers, which are trusted over the header counts (the
// Debian file counts six bigrams that no unigram reaches). name labels
// errors. All multi-byte values are little-endian.
func ParseTrie(name string, data []byte) (*Model, error) {
	fail := func(format string, args ...any) (*Model, error) {
		return nil, fmt.Errorf("lm: %s: "+format, append([]any{name}, args...)...)
	}
	if !IsTrie(data) {
		return fail("not a sphinxbase trie LM (no %q header)", trieMagic)
	}
	p := len(trieMagic)
	need := func(n int) bool { return n >= 0 && p+n <= len(data) }
	if !need(1) {
		return fail("truncated header")
	}
	order := int(data[p])
	p++
	if order < 1 || order > 6 {
		return fail("order %d unsupported (want 1 to 6)", order)
	}
	if !need(4 * order) {
		return fail("truncated header")
	}
	counts := make([]uint32, order)
	for i := range counts {
		counts[i] = binary.LittleEndian.Uint32(data[p:])
		p += 4
		if counts[i] >= 1<<25 {
			return fail("%d %d-grams: too many", counts[i], i+1)
		}
	}
	if counts[0] == 0 {
		return fail("no unigrams")
	}
	const bins = 1 << 16
	scale := float32(math.Log(logBase))
	var probBins, boBins [][]float32
	if order > 1 {
		if !need(4) {
			return fail("truncated quantiser")
		}
		p += 4
		readBins := func() []float32 {
			t := make([]float32, bins)
			for i := range t {
				t[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[p:])) * scale
				p += 4
			}
			return t
		}
		if !need(4 * bins * (2*(order-2) + 1)) {
			return fail("truncated quantiser")
		}
		for range order - 2 {
			probBins = append(probBins, readBins())
			boBins = append(boBins, readBins())
		}
		probBins = append(probBins, readBins())
	}
	n1 := int(counts[0])
	if !need(12 * (n1 + 1)) {
		return fail("truncated unigrams")
	}
	m := &Model{order: order, uni: make([]unigram, n1+1)}
	for i := range m.uni {
		b := data[p:]
		m.uni[i] = unigram{
			prob: math.Float32frombits(binary.LittleEndian.Uint32(b)) * scale,
			bo:   math.Float32frombits(binary.LittleEndian.Uint32(b[4:])) * scale,
			next: binary.LittleEndian.Uint32(b[8:]),
		}
		p += 12
	}
	if order > 1 {
		wordBits := requiredBits(counts[0])
		reached := m.uni[n1].next // entries of the next level reached
		for k := 2; k <= order; k++ {
			quant := uint(16)
			nextBits := uint(0)
			if k < order {
				quant = 32
				nextBits = requiredBits(counts[k])
			}
			total := wordBits + quant + nextBits
			size := (uint64(counts[k-1]+1)*uint64(total)+7)/8 + 8
			if !need(int(size)) {
				return fail("truncated %d-grams", k)
			}
			if reached > counts[k-1] {
				return fail("%d %d-grams reached, header counts %d", reached, k, counts[k-1])
			}
			br := bitReader{data[p : p+int(size)]}
			p += int(size)
			n := int(reached)
			if k == order {
				m.long = longest{word: make([]uint32, n), prob: make([]float32, n)}
				pb := probBins[k-2]
				for i := range n {
					off := uint64(i) * uint64(total)
					m.long.word[i] = br.read(off, wordBits)
					m.long.prob[i] = pb[br.read(off+uint64(wordBits), 16)]
				}
				break
			}
			l := middle{word: make([]uint32, n), prob: make([]float32, n), bo: make([]float32, n), next: make([]uint32, n+1)}
			pb, bb := probBins[k-2], boBins[k-2]
			for i := range n + 1 {
				off := uint64(i) * uint64(total)
				l.next[i] = br.read(off+uint64(wordBits+quant), nextBits)
				if i == n {
					break
				}
				l.word[i] = br.read(off, wordBits)
				l.bo[i] = bb[br.read(off+uint64(wordBits), 16)]
				l.prob[i] = pb[br.read(off+uint64(wordBits)+16, 16)]
			}
			m.mid = append(m.mid, l)
			reached = l.next[n]
		}
	}
	if !need(4) {
		return fail("truncated word list")
	}
	k := int(int32(binary.LittleEndian.Uint32(data[p:])))
	p += 4
	if !need(k) {
		return fail("truncated word list")
	}
	ws := data[p : p+k]
	p += k
	m.words = make([]string, 0, n1)
	for len(ws) > 0 && len(m.words) < n1 {
		i := bytes.IndexByte(ws, 0)
		if i < 0 {
			return fail("word list: unterminated word")
		}
		m.words = append(m.words, string(ws[:i]))
		ws = ws[i+1:]
	}
	if len(m.words) != n1 {
		return fail("word list has %d words, header counts %d", len(m.words), n1)
	}
	if p != len(data) {
		return fail("%d bytes after the word list", len(data)-p)
	}
	if err := m.build(name); err != nil {
		return nil, err
	}
	return m, nil
}
