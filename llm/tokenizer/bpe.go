package tokenizer

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// BPE is a byte-level BPE tokenizer (GPT-2 style): text is cut into words by
// the family's pre-tokenizer, each word's bytes are mapped to printable
// characters, and adjacent symbols are merged by the rank of their pair in
// the merges list, lowest rank first.
type BPE struct {
	vocab
	ranks  map[string]int // "a b" → rank
	pre    preTokenizer
	addBOS bool
}

var _ Tokenizer = (*BPE)(nil)

// byteChar maps each byte to the character GPT-2's vocabularies write it
// as: printable Latin-1 bytes stand for themselves, the rest for U+0100
// onwards in byte order. charByte is the inverse.
var byteChar, charByte = func() ([256]rune, map[rune]byte) {
	var bc [256]rune
	cb := map[rune]byte{}
	n := 0
	for b := range 256 {
		if (b >= '!' && b <= '~') || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff) {
			bc[b] = rune(b)
		} else {
			bc[b] = rune(256 + n)
			n++
		}
		cb[bc[b]] = byte(b)
	}
	return bc, cb
}()

// NewBPE builds a byte-level BPE tokenizer from GGUF-form tokens, merges
// ("a b" lines, in rank order), optional token types, the BOS and EOS IDs
// (-1 for none) and the tokenizer.ggml.pre name ("llama-bpe", "qwen2",
// "gpt2", ...; "" means gpt2).
func NewBPE(tokens, merges []string, types []int32, bos, eos int, pre string) (*BPE, error) {
	if pre == "" {
		pre = "gpt2"
	}
	pt, ok := preTokenizers[pre]
	if !ok {
		return nil, fmt.Errorf("%w: pre-tokenizer %q (supported: %s)", ErrUnsupported, pre, strings.Join(slices.Sorted(maps.Keys(preTokenizers)), ", "))
	}
	b := &BPE{vocab: newVocab(tokens, types, bos, eos), ranks: make(map[string]int, len(merges)), pre: pt, addBOS: bos >= 0}
	for i, m := range merges {
		if _, dup := b.ranks[m]; !dup {
			b.ranks[m] = i
		}
	}
	return b, nil
}

// Encode implements [Tokenizer].
func (b *BPE) Encode(text string, bos, special bool) []int {
	var out []int
	if bos && b.addBOS && b.bos >= 0 {
		out = append(out, b.bos)
	}
	plain := func(t string) {
		for _, w := range b.pre.split(t) {
			out = b.encodeWord(out, w)
		}
	}
	b.splitSpecial(text, special, plain, func(id int) { out = append(out, id) })
	return out
}

func (b *BPE) encodeWord(out []int, word string) []int {
	syms := make([]string, 0, len(word))
	for _, c := range []byte(word) {
		syms = append(syms, string(byteChar[c]))
	}
	if b.pre.ignoreMerges {
		if id, ok := b.ids[strings.Join(syms, "")]; ok {
			return append(out, id)
		}
	}
	for len(syms) > 1 {
		best, bestRank := -1, 0
		for i := 0; i+1 < len(syms); i++ {
			if r, ok := b.ranks[syms[i]+" "+syms[i+1]]; ok && (best < 0 || r < bestRank) {
				best, bestRank = i, r
			}
		}
		if best < 0 {
			break
		}
		syms[best] += syms[best+1]
		syms = append(syms[:best+1], syms[best+2:]...)
	}
	for _, s := range syms {
		if id, ok := b.ids[s]; ok {
			out = append(out, id)
			continue
		}
		// A symbol the vocabulary lacks: its characters one by one.
		for _, r := range s {
			if id, ok := b.ids[string(r)]; ok {
				out = append(out, id)
			}
		}
	}
	return out
}

// Piece implements [Tokenizer]. Control tokens have no text.
func (b *BPE) Piece(prev, id int) []byte {
	if id < 0 || id >= len(b.tokens) || b.typ(id) == typeControl || b.typ(id) == typeUnused {
		return nil
	}
	t := b.tokens[id]
	if b.typ(id) == typeUserDefined {
		return []byte(t)
	}
	out := make([]byte, 0, len(t))
	for i := 0; i < len(t); {
		r, n := utf8.DecodeRuneInString(t[i:])
		if c, ok := charByte[r]; ok {
			out = append(out, c)
		} else {
			out = append(out, t[i:i+n]...)
		}
		i += n
	}
	return out
}

// Decode implements [Tokenizer].
func (b *BPE) Decode(ids []int) string {
	var out []byte
	for i, id := range ids {
		prev := -1
		if i > 0 {
			prev = ids[i-1]
		}
		out = append(out, b.Piece(prev, id)...)
	}
	return string(out)
}
