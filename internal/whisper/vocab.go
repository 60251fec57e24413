package whisper

import (
	"fmt"
	"strings"
)

// Languages lists the language codes of Whisper's language tokens in
// token order: the token of Languages[i] is [Tokens.SOT] + 1 + i. Models
// with 99 languages (every model before large-v3) stop before "yue".
// (The order is OpenAI Whisper's tokenizer table, which whisper.cpp
// repeats.)
var Languages = []string{
	"en", "zh", "de", "es", "ru", "ko", "fr", "ja", "pt", "tr", "pl", "ca", "nl", "ar", "sv", "it", "id", "hi", "fi", "vi",
	"he", "uk", "el", "ms", "cs", "ro", "da", "hu", "ta", "no", "th", "ur", "hr", "bg", "lt", "la", "mi", "ml", "cy", "sk",
	"te", "fa", "lv", "bn", "sr", "az", "sl", "kn", "et", "mk", "br", "eu", "is", "hy", "ne", "mn", "bs", "kk", "sq", "sw",
	"gl", "mr", "pa", "si", "km", "sn", "yo", "so", "af", "oc", "ka", "be", "tg", "sd", "gu", "am", "yi", "lo", "uz", "fo",
	"ht", "ps", "tk", "nn", "mt", "sa", "lb", "my", "bo", "tl", "mg", "as", "tt", "haw", "ln", "ha", "ba", "jw", "su", "yue",
}

// Tokens are the ids of a model's special tokens. They follow from the
// vocabulary size: English-only models (51 864 tokens) have no language or
// task tokens; multilingual ones have one language token per language
// after <|startoftranscript|>, and the tokens after them shift with the
// number of languages (99, or 100 in large-v3).
type Tokens struct {
	EOT, SOT              int // <|endoftext|>, <|startoftranscript|>
	Translate, Transcribe int
	SOLM                  int // <|startoflm|> (tinydiarize's speaker turn)
	Prev                  int // <|startofprev|>, before previous-text conditioning
	NoSpeech              int // <|nospeech|> (<|nocaptions|>)
	NoTimestamps          int // <|notimestamps|>
	Beg                   int // <|0.00|>, the first timestamp token
	Vocab                 int // number of tokens, timestamps included
	NumLanguages          int // 0 for English-only models
}

// TokensFor returns the special token ids of a vocabulary of nVocab tokens.
func TokensFor(nVocab int) Tokens {
	t := Tokens{EOT: 50256, SOT: 50257, Translate: 50357, Transcribe: 50358, SOLM: 50359,
		Prev: 50360, NoSpeech: 50361, NoTimestamps: 50362, Beg: 50363, Vocab: nVocab}
	if nVocab >= 51865 {
		t.NumLanguages = nVocab - 51765 - 1
		t.EOT++
		t.SOT++
		dt := t.NumLanguages - 98
		t.Translate += dt
		t.Transcribe += dt
		t.SOLM += dt
		t.Prev += dt
		t.NoSpeech += dt
		t.NoTimestamps += dt
		t.Beg += dt
	}
	return t
}

// Multilingual reports whether the model has language and task tokens.
func (t Tokens) Multilingual() bool { return t.NumLanguages > 0 }

// Lang returns the token of language code lang, or an error when the
// model has no such language token.
func (t Tokens) Lang(lang string) (int, error) {
	for i, l := range Languages[:min(t.NumLanguages, len(Languages))] {
		if l == lang {
			return t.SOT + 1 + i, nil
		}
	}
	if !t.Multilingual() {
		return 0, fmt.Errorf("whisper: the model is English-only (no language %q)", lang)
	}
	return 0, fmt.Errorf("whisper: unknown language %q", lang)
}

// Tokenizer turns text into token ids and back with a model's stored
// vocabulary, as whisper.cpp does: the text is split into words (letters,
// digits, other characters, English contractions and runs of spaces, each
// with at most one leading space), and each word into the longest tokens
// of the vocabulary from left to right. This is not byte-level BPE: it
// gives the tokens OpenAI's tokenizer gives for ordinary text and
// whisper.cpp's tokens everywhere, which is what prompts need to match.
type Tokenizer struct {
	vocab  [][]byte
	ids    map[string]int
	maxLen int
	tok    Tokens
}

// NewTokenizer builds the tokenizer of m's vocabulary.
func NewTokenizer(m *Model) *Tokenizer {
	tk := &Tokenizer{vocab: m.Vocab, ids: make(map[string]int, len(m.Vocab)), tok: TokensFor(m.Hparams.NVocab)}
	for i, v := range m.Vocab {
		tk.ids[string(v)] = i // a later duplicate wins, as in whisper.cpp's map
		tk.maxLen = max(tk.maxLen, len(v))
	}
	return tk
}

// Tokens returns the special token ids of the tokenizer's model.
func (tk *Tokenizer) Tokens() Tokens { return tk.tok }

// ID returns the id of the token spelled s, if the vocabulary has it.
func (tk *Tokenizer) ID(s string) (int, bool) { id, ok := tk.ids[s]; return id, ok }

// Encode returns the tokens of text. Bytes no token covers are skipped
// (whisper.cpp logs "unknown token" and skips them too); Encode reports
// how many were skipped.
func (tk *Tokenizer) Encode(text string) (ids []int, skipped int) {
	for _, w := range splitWords(text) {
		for i := 0; i < len(w); {
			found := false
			for j := min(len(w), i+tk.maxLen); j > i; j-- {
				if id, ok := tk.ids[w[i:j]]; ok {
					ids = append(ids, id)
					i = j
					found = true
					break
				}
			}
			if !found {
				skipped++
				i++
			}
		}
	}
	return ids, skipped
}

// Decode returns the text of the ordinary tokens among ids (special and
// timestamp tokens are left out).
func (tk *Tokenizer) Decode(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		if id >= 0 && id < len(tk.vocab) && id < tk.tok.EOT {
			b.Write(tk.vocab[id])
		}
	}
	return b.String()
}

// Text returns the stored spelling of token id, or a bracketed name for
// special tokens the file does not spell.
func (tk *Tokenizer) Text(id int) string {
	t := tk.tok
	switch {
	case id >= 0 && id < len(tk.vocab) && id < t.EOT:
		return string(tk.vocab[id])
	case id == t.EOT:
		return "<|endoftext|>"
	case id == t.SOT:
		return "<|startoftranscript|>"
	case t.Multilingual() && id > t.SOT && id <= t.SOT+t.NumLanguages:
		return "<|" + Languages[id-t.SOT-1] + "|>"
	case id == t.Translate && t.Multilingual():
		return "<|translate|>"
	case id == t.Transcribe && t.Multilingual():
		return "<|transcribe|>"
	case id == t.SOLM:
		return "<|startoflm|>"
	case id == t.Prev:
		return "<|startofprev|>"
	case id == t.NoSpeech:
		return "<|nospeech|>"
	case id == t.NoTimestamps:
		return "<|notimestamps|>"
	case id >= t.Beg && id < t.Vocab:
		return fmt.Sprintf("<|%.2f|>", float64(id-t.Beg)*0.02)
	}
	return fmt.Sprintf("<|%d|>", id)
}

// ASCII classes as the C locale defines them (whisper.cpp's std::regex
// works on bytes: every byte ≥ 0x80 is "other").
func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// splitWords splits s as whisper.cpp's pattern
//
//	's|'t|'re|'ve|'m|'ll|'d| ?[[:alpha:]]+| ?[[:digit:]]+| ?[^\s[:alpha:][:digit:]]+|\s+(?!\S)|\s+
//
// does, alternatives tried in order at each position.
func splitWords(s string) []string {
	var out []string
	run := func(i int, class func(byte) bool) int {
		for i < len(s) && class(s[i]) {
			i++
		}
		return i
	}
	other := func(c byte) bool { return !isSpace(c) && !isAlpha(c) && !isDigit(c) }
	for i := 0; i < len(s); {
		end := -1
		if s[i] == '\'' {
			for _, c := range []string{"s", "t", "re", "ve", "m", "ll", "d"} {
				if strings.HasPrefix(s[i+1:], c) {
					end = i + 1 + len(c)
					break
				}
			}
		}
		if end < 0 {
			j := i
			if s[j] == ' ' {
				j++
			}
			for _, class := range []func(byte) bool{isAlpha, isDigit, other} {
				if j < len(s) && class(s[j]) {
					end = run(j, class)
					break
				}
			}
		}
		if end < 0 && isSpace(s[i]) {
			e := run(i, isSpace)
			if e < len(s) && e-i > 1 {
				e-- // \s+(?!\S): leave the last space to the word after the run
			}
			end = e
		}
		out = append(out, s[i:end])
		i = end
	}
	return out
}
