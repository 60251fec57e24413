package tokenizer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPreTokenizers(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "pretok.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden map[string][]struct {
		Text  string
		Words []string
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	for name, cases := range golden {
		p, ok := preTokenizers[name]
		if !ok {
			t.Errorf("no pre-tokenizer %q", name)
			continue
		}
		for _, c := range cases {
			if got := p.split(c.Text); !slices.Equal(got, c.Words) {
				t.Errorf("%s.split(%q) = %q; want %q", name, c.Text, got, c.Words)
			}
		}
	}
}

// A hand-built SentencePiece vocabulary whose merges can be followed on
// paper.
func smallSPM() *SentencePiece {
	tokens := []string{"<unk>", "<s>", "</s>", "▁", "h", "e", "l", "o", "▁h", "ll", "▁he", "llo", "▁hello", "<0xC3>", "<0xA9>", "w"}
	scores := []float32{0, 0, 0, -10, -10, -10, -10, -10, -1, -2, -3, -4, -5, 0, 0, -10}
	types := []int32{2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 1}
	return NewSentencePiece(tokens, scores, types, 1, 2)
}

func TestSentencePiece(t *testing.T) {
	sp := smallSPM()
	for _, c := range []struct {
		text string
		bos  bool
		want []int
	}{
		// ▁ h e l l o → ▁h (−1) → ll (−2) → ▁he (−3) → llo (−4) → ▁hello (−5).
		{"hello", true, []int{1, 12}},
		{"hello", false, []int{12}},
		// é is not a piece: its two UTF-8 bytes as byte tokens.
		{"hé", false, []int{8, 13, 14}},
		// "▁w" is not a piece, so ▁ stays alone.
		{"hello w", false, []int{12, 3, 15}},
		{"", true, []int{1}},
	} {
		got := sp.Encode(c.text, c.bos, false)
		if !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q, %v) = %v; want %v", c.text, c.bos, got, c.want)
		}
		if dec := sp.Decode(got); dec != c.text {
			t.Errorf("Decode(%v) = %q; want %q", got, dec, c.text)
		}
	}
}

func TestSentencePieceStories(t *testing.T) {
	// The stories260K vocabulary, read through the llama2.c reader in
	// llm/llama, is covered there; here: round trips through the GGUF-form
	// pieces of a real vocabulary file.
	tokens, scores := readLlama2CTok(t, filepath.Join("..", "testdata", "stories260K-tok512.bin"))
	sp := NewSentencePiece(tokens, scores, nil, 1, 2)
	for _, s := range []string{"Once upon a time, there was a little girl.", "Tom said: \"Hi!\"\n", "café ☃ 42"} {
		ids := sp.Encode(s, true, false)
		if got := sp.Decode(ids); got != s {
			t.Errorf("Decode(Encode(%q)) = %q (%v)", s, got, ids)
		}
	}
}

func readLlama2CTok(t testing.TB, path string) ([]string, []float32) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := func(o int) uint32 { return uint32(b[o]) | uint32(b[o+1])<<8 | uint32(b[o+2])<<16 | uint32(b[o+3])<<24 }
	var tokens []string
	var scores []float32
	for off := 4; off < len(b); {
		n := int(le(off + 4))
		scores = append(scores, float32frombits(le(off)))
		s := string(b[off+8 : off+8+n])
		tokens = append(tokens, replaceSpaces(s))
		off += 8 + n
	}
	return tokens, scores
}

// A hand-built byte-level BPE vocabulary (Ġ is the space byte, Ċ newline).
func smallBPE(t testing.TB) *BPE {
	tokens := []string{"H", "e", "l", "o", "Ġ", "w", "r", "d", "He", "ll", "Hell", "Hello", "Ġw", "or", "Ġwor", "Ġworld", "Ċ", "<|end|>", "ld", "!"}
	merges := []string{"H e", "l l", "He ll", "Hell o", "Ġ w", "o r", "Ġw or", "l d", "Ġwor ld"}
	types := make([]int32, len(tokens))
	for i := range types {
		types[i] = 1
	}
	types[17] = 3
	b, err := NewBPE(tokens, merges, types, -1, 17, "gpt2")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBPE(t *testing.T) {
	b := smallBPE(t)
	for _, c := range []struct {
		text    string
		special bool
		want    []int
	}{
		{"Hello world", false, []int{11, 15}},
		{"Hello\nworld!", false, []int{11, 16, 5, 13, 18, 19}},
		{"Hello<|end|>", true, []int{11, 17}},
		{"wo", false, []int{5, 3}},
	} {
		got := b.Encode(c.text, true, c.special)
		if !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q) = %v; want %v", c.text, got, c.want)
		}
		want := c.text
		if c.special {
			want = "Hello" // control tokens have no text
		}
		if dec := b.Decode(got); dec != want {
			t.Errorf("Decode(%v) = %q; want %q", got, dec, want)
		}
	}
	if !b.EOG(17) || b.EOG(11) {
		t.Errorf("EOG(17), EOG(11) = %v, %v; want true, false", b.EOG(17), b.EOG(11))
	}
	if _, err := NewBPE(nil, nil, nil, -1, -1, "unknown-pre"); err == nil {
		t.Error("NewBPE with an unknown pre-tokenizer succeeded")
	}
}

func TestByteMapping(t *testing.T) {
	seen := map[rune]bool{}
	for c := range 256 {
		r := byteChar[c]
		if seen[r] {
			t.Fatalf("byteChar[%d] = %U repeats", c, r)
		}
		seen[r] = true
		if charByte[r] != byte(c) {
			t.Fatalf("charByte[%U] = %d; want %d", r, charByte[r], c)
		}
	}
	if byteChar[' '] != 'Ġ' || byteChar['\n'] != 'Ċ' || byteChar['a'] != 'a' {
		t.Errorf("byteChar: space %c, newline %c, a %c; want Ġ, Ċ, a", byteChar[' '], byteChar['\n'], byteChar['a'])
	}
}

// FuzzSentencePiece checks that decoding the encoding of any UTF-8 text
// gives the text back (byte fallback covers every character).
func FuzzSentencePiece(f *testing.F) {
	tokens, scores := readLlama2CTok(f, filepath.Join("..", "testdata", "stories260K-tok512.bin"))
	types := make([]int32, len(tokens))
	for i := range types {
		types[i] = 1
	}
	types[0], types[1], types[2] = 2, 3, 3
	sp := NewSentencePiece(tokens, scores, types, 1, 2)
	for _, s := range []string{"Once upon a time", " two  spaces", "ünï☃\n\t", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		ids := sp.Encode(s, true, false)
		for _, id := range ids[1:] {
			if sp.IsControl(id) {
				return // the text spelled a control token's piece (e.g. "\n<s>\n")
			}
		}
		if got := sp.Decode(ids); got != s {
			t.Fatalf("Decode(Encode(%q)) = %q (%v)", s, got, ids)
		}
	})
}

// FuzzBPE checks that byte-level BPE round-trips any bytes and that the
// pre-tokenizers' words always concatenate to their input.
func FuzzBPE(f *testing.F) {
	b := smallBPE(f)
	for _, s := range []string{"Hello world", "Hello\nworld!", "x\xffy", "  a  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, p := range preTokenizers {
			if got := strings.Join(p.split(s), ""); got != s {
				t.Fatalf("%s.split(%q) joins to %q", name, s, got)
			}
		}
		if strings.Contains(s, "<|end|>") {
			return
		}
		ids := b.Encode(s, false, false)
		if got := b.Decode(ids); got != s && allKnown(b, s) {
			t.Fatalf("Decode(Encode(%q)) = %q", s, got)
		}
	})
}

// allKnown reports whether every byte of s has a single-character token in
// the small vocabulary (otherwise it cannot round-trip there).
func allKnown(b *BPE, s string) bool {
	for _, c := range []byte(s) {
		if _, ok := b.ids[string(byteChar[c])]; !ok {
			return false
		}
	}
	return true
}
