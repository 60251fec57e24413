package tokenizer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sottolabs/sotto/llm/gguf"
)

// ErrUnsupported is wrapped by errors about vocabularies this package cannot
// use.
var ErrUnsupported = errors.New("tokenizer: unsupported vocabulary")

// Tokenizer encodes text into token IDs and decodes them back.
type Tokenizer interface {
	// Encode returns the tokens of text, after the BOS token when bos is
	// true and the vocabulary has one. Control tokens written in the text
	// (e.g. "<|im_start|>") are recognised when special is true;
	// user-defined tokens (a vocabulary's non-special added tokens) always
	// are, as in Hugging Face tokenizers and llama.cpp.
	Encode(text string, bos, special bool) []int
	// Piece returns the bytes token id stands for; prev is the token before
	// it (-1 at the start), which decides whether a leading space is dropped.
	// Pieces of byte-level tokens may be partial UTF-8 sequences.
	Piece(prev, id int) []byte
	// Decode returns the text of a sequence of tokens.
	Decode(ids []int) string
	// Len returns the vocabulary size.
	Len() int
	// BOS and EOS return the begin- and end-of-sequence tokens (-1 when absent).
	BOS() int
	EOS() int
	// IsControl reports whether id is a control token (not text).
	IsControl(id int) bool
	// EOG reports whether id ends generation (EOS, end-of-turn tokens).
	EOG(id int) bool
}

// Token types of tokenizer.ggml.token_type.
const (
	typeNormal      = 1
	typeUnknown     = 2
	typeControl     = 3
	typeUserDefined = 4
	typeUnused      = 5
	typeByte        = 6
)

// vocab is what both tokenizer kinds share.
type vocab struct {
	tokens   []string
	types    []int32
	ids      map[string]int
	bos, eos int
	eog      map[int]bool
	special  []int // control, user-defined and unknown tokens, longest first
	// rstrip marks special tokens that swallow the white space after them
	// in the text (Hugging Face's AddedToken.rstrip).
	rstrip map[int]bool
}

func newVocab(tokens []string, types []int32, bos, eos int) vocab {
	v := vocab{tokens: tokens, types: types, ids: make(map[string]int, len(tokens)), bos: bos, eos: eos, eog: map[int]bool{}}
	for i, t := range tokens {
		if _, dup := v.ids[t]; !dup {
			v.ids[t] = i
		}
		if t := v.typ(i); t == typeControl || t == typeUserDefined || t == typeUnknown {
			v.special = append(v.special, i)
		}
		if v.typ(i) == typeControl {
			switch t {
			case "<|eot_id|>", "<|im_end|>", "<|end_of_text|>", "<|endoftext|>", "<end_of_turn>", "<|eom_id|>",
				"<|end|>", "<EOT>":
				v.eog[i] = true
			}
		}
	}
	if eos >= 0 {
		v.eog[eos] = true
	}
	// Longest first so that "<|im_start|>" wins over any prefix of it.
	for i := 1; i < len(v.special); i++ {
		for j := i; j > 0 && len(tokens[v.special[j]]) > len(tokens[v.special[j-1]]); j-- {
			v.special[j], v.special[j-1] = v.special[j-1], v.special[j]
		}
	}
	return v
}

func (v *vocab) typ(i int) int32 {
	if i < len(v.types) {
		return v.types[i]
	}
	return typeNormal
}

func (v *vocab) Len() int { return len(v.tokens) }
func (v *vocab) BOS() int { return v.bos }
func (v *vocab) EOS() int { return v.eos }
func (v *vocab) IsControl(id int) bool {
	return id >= 0 && id < len(v.tokens) && v.typ(id) == typeControl
}
func (v *vocab) EOG(id int) bool { return v.eog[id] }

// AddEOG makes token id end a generation, as EOS does (for models whose
// training data marks the end of a text otherwise, such as llama2.c's,
// which separates texts by BOS). An id out of range is ignored.
func (v *vocab) AddEOG(id int) {
	if id >= 0 && id < len(v.tokens) {
		v.eog[id] = true
	}
}

// splitSpecial cuts text at occurrences of vocabulary entries that are
// matched before any other processing, calling plain for each stretch of
// text between them and tok for each such token, in order. User-defined
// tokens (Hugging Face's non-special added tokens, e.g. GPT-NeoX's runs of
// spaces) are always matched; control and unknown tokens only when special
// is true. As llama.cpp does, the longest token is cut out of the whole text
// first, then the next longest out of what remains, and so on.
func (v *vocab) splitSpecial(text string, special bool, plain func(string), tok func(int)) {
	type frag struct {
		text string
		id   int // -1 for text
	}
	frags := []frag{{text, -1}}
	for _, id := range v.special {
		s := v.tokens[id]
		if s == "" || !special && v.typ(id) != typeUserDefined {
			continue
		}
		var next []frag
		for _, f := range frags {
			if f.id >= 0 || !strings.Contains(f.text, s) {
				next = append(next, f)
				continue
			}
			t := f.text
			for {
				i := strings.Index(t, s)
				if i < 0 {
					break
				}
				if i > 0 {
					next = append(next, frag{t[:i], -1})
				}
				next = append(next, frag{"", id})
				t = t[i+len(s):]
				if v.rstrip[id] {
					t = strings.TrimLeft(t, " \t\n\v\f\r")
				}
			}
			if t != "" {
				next = append(next, frag{t, -1})
			}
		}
		frags = next
	}
	for _, f := range frags {
		if f.id >= 0 {
			tok(f.id)
		} else {
			plain(f.text)
		}
	}
}

// familyStrip sets the white-space stripping of special tokens that GGUF
// files do not record but the model family's tokenizer configuration does,
// by the model's general.name, as llama.cpp does: Phi-3's added tokens
// (<|user|>, <|end|>, ...) and </s> swallow the white space after them;
// <unk>, <s> and <|endoftext|> do not.
func (v *vocab) familyStrip(modelName string) {
	name := strings.ToLower(modelName)
	if !strings.Contains(name, "phi-3") && !strings.Contains(name, "phi3") {
		return
	}
	v.rstrip = map[int]bool{}
	for _, id := range v.special {
		v.rstrip[id] = true
	}
	if id, ok := v.ids["</s>"]; ok {
		v.rstrip[id] = true
	}
	for _, t := range []string{"<unk>", "<s>", "<|endoftext|>"} {
		if id, ok := v.ids[t]; ok {
			delete(v.rstrip, id)
		}
	}
}

// FromGGUF builds the tokenizer described by a GGUF file's tokenizer.ggml.*
// metadata.
func FromGGUF(f *gguf.File) (Tokenizer, error) {
	model, _ := f.String("tokenizer.ggml.model")
	tokens, ok := f.Strings("tokenizer.ggml.tokens")
	if !ok || len(tokens) == 0 {
		return nil, fmt.Errorf("%w: no tokenizer.ggml.tokens", ErrUnsupported)
	}
	types, _ := f.Int32s("tokenizer.ggml.token_type")
	if types != nil && len(types) != len(tokens) {
		return nil, fmt.Errorf("%w: %d token types for %d tokens", ErrUnsupported, len(types), len(tokens))
	}
	id := func(key string) int {
		v, ok := f.Uint(key)
		if !ok || v >= uint64(len(tokens)) {
			return -1
		}
		return int(v)
	}
	bos, eos := id("tokenizer.ggml.bos_token_id"), id("tokenizer.ggml.eos_token_id")
	addBOS, hasAddBOS := f.Bool("tokenizer.ggml.add_bos_token")
	name, _ := f.String("general.name")
	// End-of-turn and end-of-message tokens end a generation as EOS does
	// (llama.cpp's end-of-generation set).
	var extraEOG []int
	for _, k := range []string{"tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id"} {
		if i := id(k); i >= 0 {
			extraEOG = append(extraEOG, i)
		}
	}
	switch model {
	case "llama":
		scores, _ := f.Float32s("tokenizer.ggml.scores")
		if len(scores) != len(tokens) {
			return nil, fmt.Errorf("%w: %d scores for %d tokens", ErrUnsupported, len(scores), len(tokens))
		}
		sp := NewSentencePiece(tokens, scores, types, bos, eos)
		if sp2, ok := f.Bool("tokenizer.ggml.add_space_prefix"); ok {
			sp.addSpacePrefix = sp2
		}
		if hasAddBOS && !addBOS {
			sp.vocab.bos = -1
		}
		sp.familyStrip(name)
		for _, i := range extraEOG {
			sp.AddEOG(i)
		}
		return sp, nil
	case "gpt2":
		merges, _ := f.Strings("tokenizer.ggml.merges")
		pre, _ := f.String("tokenizer.ggml.pre")
		b, err := NewBPE(tokens, merges, types, bos, eos, pre)
		if err != nil {
			return nil, err
		}
		if !hasAddBOS || !addBOS {
			b.addBOS = false
		}
		b.familyStrip(name)
		for _, i := range extraEOG {
			b.AddEOG(i)
		}
		return b, nil
	}
	return nil, fmt.Errorf("%w: tokenizer.ggml.model %q (supported: llama, gpt2)", ErrUnsupported, model)
}

// Text returns the vocabulary entry of token id as written in the model
// file (e.g. "<s>" or "<|begin_of_text|>"; "" for an ID out of range).
func (v *vocab) Text(id int) string {
	if id < 0 || id >= len(v.tokens) {
		return ""
	}
	return v.tokens[id]
}
