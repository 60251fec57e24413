package tokenizer

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// preTokenizer splits text into the words BPE merges within. The splitters
// below are hand-written equivalents of the regular expressions the model
// families publish (Go's regexp lacks the lookahead they use); the tests
// compare them with the expressions themselves on golden splits.
type preTokenizer struct {
	name string
	// caseFold makes the contraction alternatives case-insensitive.
	caseFold bool
	// llama3Style selects the Llama 3 / Qwen2 alternatives:
	// [^\r\n\p{L}\p{N}]?\p{L}+ | \p{N}{1,maxDigits} | ␠?[^\s\p{L}\p{N}]+[\r\n]* | \s*[\r\n]+
	// instead of GPT-2's ␠?\p{L}+ | ␠?\p{N}+ | ␠?[^\s\p{L}\p{N}]+.
	llama3Style bool
	maxDigits   int // 0: unlimited
	// splitDigits first cuts the text before and after every \p{N}
	// character (each digit alone), then applies the expression to the
	// pieces between digits, as llama.cpp runs SmolLM's two expressions.
	splitDigits bool
	// ignoreMerges makes a word that is itself a vocabulary entry one
	// token without applying the merges.
	ignoreMerges bool
}

// The pre-tokenizers by tokenizer.ggml.pre value. The names are llama.cpp's
// (src/llama-vocab.cpp), which maps several model families to one
// expression; every family listed here runs the same expression there.
var preTokenizers = func() map[string]preTokenizer {
	// 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
	gpt2 := preTokenizer{name: "gpt2"}
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
	// A word that is a vocabulary entry is one token, merges or not
	// (Hugging Face's ignore_merges, set in Llama 3's tokenizer.json).
	llama3 := preTokenizer{name: "llama3", caseFold: true, llama3Style: true, maxDigits: 3, ignoreMerges: true}
	// As llama3 with \p{N} (one digit at a time) and the merges always
	// applied.
	qwen2 := preTokenizer{name: "qwen2", caseFold: true, llama3Style: true, maxDigits: 1}
	// \p{N} first, then the GPT-2 expression.
	smollm := preTokenizer{name: "smollm", splitDigits: true}
	m := map[string]preTokenizer{}
	for _, n := range []string{"gpt2", "gpt-2", "phi-2", "roberta-bpe", "mpt", "olmo", "jais"} {
		m[n] = gpt2
	}
	for _, n := range []string{"llama-bpe", "llama3", "llama-v3", "falcon3", "dbrx", "smaug-bpe"} {
		m[n] = llama3
	}
	for _, n := range []string{"qwen2", "deepseek-r1-qwen", "stablelm2", "megrez"} {
		m[n] = qwen2
	}
	for _, n := range []string{"smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva-7b"} {
		m[n] = smollm
	}
	return m
}()

func isL(r rune) bool { return unicode.IsLetter(r) }
func isN(r rune) bool { return unicode.IsNumber(r) }
func isS(r rune) bool { return unicode.IsSpace(r) }

// split returns the words of text, in order; they concatenate to text.
func (p *preTokenizer) split(text string) []string {
	if p.splitDigits {
		var out []string
		start := 0
		for i, r := range text {
			if isN(r) {
				out = append(out, p.splitPlain(text[start:i])...)
				out = append(out, string(r))
				start = i + utf8.RuneLen(r)
			}
		}
		return append(out, p.splitPlain(text[start:])...)
	}
	return p.splitPlain(text)
}

func (p *preTokenizer) splitPlain(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		n := p.match(text[i:])
		out = append(out, text[i:i+n])
		i += n
	}
	return out
}

// runes decodes s lazily.
func at(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	return utf8.DecodeRuneInString(s[i:])
}

// span returns the length of the prefix of s[i:] whose runes satisfy f,
// stopping after limit runes (0: no limit).
func span(s string, i int, f func(rune) bool, limit int) int {
	j, k := i, 0
	for j < len(s) && (limit == 0 || k < limit) {
		r, n := at(s, j)
		if !f(r) {
			break
		}
		j += n
		k++
	}
	return j - i
}

// match returns the length of the word at the start of s (≥ 1).
func (p *preTokenizer) match(s string) int {
	r0, n0 := at(s, 0)
	// Contractions.
	if r0 == '\'' {
		rest := s[1:]
		if p.caseFold {
			rest = strings.ToLower(rest[:min(len(rest), 2)])
		}
		for _, c := range []string{"s", "t", "re", "ve", "m", "ll", "d"} {
			if strings.HasPrefix(rest, c) {
				return 1 + len(c)
			}
		}
	}
	notSLN := func(r rune) bool { return !isS(r) && !isL(r) && !isN(r) }
	if p.llama3Style {
		// [^\r\n\p{L}\p{N}]?\p{L}+
		if r0 != '\r' && r0 != '\n' && !isL(r0) && !isN(r0) {
			if l := span(s, n0, isL, 0); l > 0 {
				return n0 + l
			}
		}
		if l := span(s, 0, isL, 0); l > 0 {
			return l
		}
		// \p{N}{1,max}
		if l := span(s, 0, isN, p.maxDigits); l > 0 {
			return l
		}
		// ␠?[^\s\p{L}\p{N}]+[\r\n]*
		st := 0
		if r0 == ' ' {
			st = 1
		}
		if l := span(s, st, notSLN, 0); l > 0 {
			return st + l + span(s, st+l, func(r rune) bool { return r == '\r' || r == '\n' }, 0)
		}
		// \s*[\r\n]+ : the whitespace run up to its last newline.
		ws := span(s, 0, isS, 0)
		if last := strings.LastIndexAny(s[:ws], "\r\n"); last >= 0 {
			return last + 1
		}
	} else {
		st := 0
		if r0 == ' ' {
			st = 1
		}
		for _, f := range []func(rune) bool{isL, isN, notSLN} {
			if l := span(s, st, f, 0); l > 0 {
				return st + l
			}
		}
	}
	// \s+(?!\S) then \s+
	if ws := span(s, 0, isS, 0); ws > 0 {
		if ws == len(s) {
			return ws
		}
		_, last := utf8.DecodeLastRuneInString(s[:ws])
		if ws-last > 0 {
			return ws - last
		}
		return ws
	}
	return n0 // unreachable for valid patterns: every rune is matched above
}
