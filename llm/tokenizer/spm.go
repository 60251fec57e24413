package tokenizer

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// SentencePiece is a SentencePiece-style BPE tokenizer: text (spaces written
// as "▁", with one "▁" prefixed) is split into characters, unknown ones into
// <0xXX> byte tokens, and adjacent pieces are merged while some pair forms a
// vocabulary piece, the highest-scoring pair first (leftmost on ties). This
// is the procedure of llama2.c's run.c and of llama.cpp's "llama" vocab.
type SentencePiece struct {
	vocab
	scores         []float32
	byteTok        [256]int // <0xXX> tokens, -1 when absent
	addSpacePrefix bool
}

var _ Tokenizer = (*SentencePiece)(nil)

// NewSentencePiece builds a tokenizer from pieces in GGUF form (spaces as
// "▁", bytes as "<0xXX>"), their scores, optional token types, and the BOS
// and EOS token IDs (-1 for none).
func NewSentencePiece(tokens []string, scores []float32, types []int32, bos, eos int) *SentencePiece {
	s := &SentencePiece{vocab: newVocab(tokens, types, bos, eos), scores: scores, addSpacePrefix: true}
	for b := range s.byteTok {
		s.byteTok[b] = -1
		if id, ok := s.ids[fmt.Sprintf("<0x%02X>", b)]; ok {
			s.byteTok[b] = id
		}
	}
	return s
}

// Encode implements [Tokenizer].
func (s *SentencePiece) Encode(text string, bos, special bool) []int {
	var out []int
	if bos && s.bos >= 0 {
		out = append(out, s.bos)
	}
	// The space prefix goes before the text at the start and before text
	// that follows a token cut out by splitSpecial, as in llama.cpp (each
	// such stretch is encoded as if it began the input).
	prefix := true
	plain := func(t string) {
		out = s.encodePlain(out, t, prefix)
		prefix = false
	}
	s.splitSpecial(text, special, plain, func(id int) { out = append(out, id); prefix = true })
	return out
}

func (s *SentencePiece) encodePlain(out []int, text string, prefix bool) []int {
	if text == "" {
		return out
	}
	text = strings.ReplaceAll(text, " ", "▁")
	if prefix && s.addSpacePrefix {
		text = "▁" + text
	}
	// Initial pieces: characters, or their bytes when not in the vocabulary.
	type piece struct {
		id   int
		text string
	}
	ps := make([]piece, 0, len(text))
	for i := 0; i < len(text); {
		_, n := utf8.DecodeRuneInString(text[i:])
		ch := text[i : i+n]
		if id, ok := s.ids[ch]; ok {
			ps = append(ps, piece{id, ch})
		} else {
			// Byte pieces keep their "<0xXX>" text, so they never merge.
			for _, b := range []byte(ch) {
				if id := s.byteTok[b]; id >= 0 {
					ps = append(ps, piece{id, s.tokens[id]})
				}
			}
		}
		i += n
	}
	for {
		best, bestID := -1, -1
		var bestScore float32
		for i := 0; i+1 < len(ps); i++ {
			id, ok := s.ids[ps[i].text+ps[i+1].text]
			if ok && (best < 0 || s.scores[id] > bestScore) {
				best, bestID, bestScore = i, id, s.scores[id]
			}
		}
		if best < 0 {
			break
		}
		ps[best] = piece{bestID, ps[best].text + ps[best+1].text}
		ps = append(ps[:best+1], ps[best+2:]...)
	}
	for _, p := range ps {
		out = append(out, p.id)
	}
	return out
}

// Piece implements [Tokenizer]: "▁" becomes a space, <0xXX> its byte, and a
// leading space is dropped after BOS (or at the start), as SentencePiece
// decoding does for the prefixed space.
func (s *SentencePiece) Piece(prev, id int) []byte {
	if id < 0 || id >= len(s.tokens) {
		return nil
	}
	if id == s.bos || id == s.eos {
		return nil
	}
	t := s.tokens[id]
	switch s.typ(id) {
	case typeControl, typeUnknown, typeUnused:
		return nil
	case typeByte:
		var b byte
		if _, err := fmt.Sscanf(t, "<0x%02X>", &b); err == nil {
			return []byte{b}
		}
	}
	if len(t) == 6 && strings.HasPrefix(t, "<0x") && t[5] == '>' {
		var b byte
		if _, err := fmt.Sscanf(t, "<0x%02X>", &b); err == nil {
			return []byte{b}
		}
	}
	t = strings.ReplaceAll(t, "▁", " ")
	if (prev < 0 || prev == s.bos) && s.addSpacePrefix && strings.HasPrefix(t, " ") {
		t = t[1:]
	}
	return []byte(t)
}

// Decode implements [Tokenizer].
func (s *SentencePiece) Decode(ids []int) string {
	var b []byte
	prev := -1
	for _, id := range ids {
		b = append(b, s.Piece(prev, id)...)
		prev = id
	}
	return string(b)
}
