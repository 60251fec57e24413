package normalize

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzLowerTail checks lowerTail against lower-casing all of the text: its
// result is the end of strings.ToLower(s), at least n bytes long unless it
// is all of it, also for invalid UTF-8 and runes whose lower case is shorter
// or longer ("K" Kelvin sign, "İ").
func FuzzLowerTail(f *testing.F) {
	for _, s := range []string{"", "Llámame al", "abc\xffDEF", "\u212a\u212a\u212aX", "İİİ", "a\xe2\x82", "\x82\x82Ab"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n&63 + 1
		full := strings.ToLower(s)
		got, whole := lowerTail(s, n)
		if !strings.HasSuffix(full, got) {
			t.Fatalf("lowerTail(%q, %d) = %q, not an end of %q", s, n, got, full)
		}
		if whole != (got == full) {
			t.Fatalf("lowerTail(%q, %d) = %q, %v: whole must say whether it is all of %q", s, n, got, whole, full)
		}
		if !whole && len(got) < n {
			t.Fatalf("lowerTail(%q, %d) = %q: shorter than %d and not whole", s, n, got, n)
		}
		if !whole && utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("lowerTail(%q, %d) = %q splits a rune", s, n, got)
		}
	})
}

// FuzzNasalPrefix checks rbnfNasalPrefix against folding all of the text.
func FuzzNasalPrefix(f *testing.F) {
	for _, c := range [][2]string{{"वाँ से", "वाँ"}, {"वां", "वाँ"}, {"\u0901x", "\xe0\xa4"}, {"\xe0\xa4", "\u0902"}, {"", ""}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, s, p string) {
		want := strings.HasPrefix(rbnfNasal(s), rbnfNasal(p))
		if got := rbnfNasalPrefix(s, p); got != want {
			t.Fatalf("rbnfNasalPrefix(%q, %q) = %v, want %v", s, p, got, want)
		}
	})
}

// FuzzOpenedBefore checks the stream's cached openedBefore against scanning
// the text before each token start.
func FuzzOpenedBefore(f *testing.F) {
	for _, s := range []string{`x1'a x1'a 'b`, `"12text" "`, "a (“1” b", "\xff'1 '2", "«a» 3'sss"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		scan := func(text string, q rune) bool {
			prev := ' '
			for _, r := range text {
				if r == q && (unicode.IsSpace(prev) || strings.ContainsRune("([{<", prev)) {
					return true
				}
				prev = r
			}
			return false
		}
		s := &stream{src: src, toks: tokenize(src)}
		for _, tk := range s.toks {
			for _, q := range "\"'`“”‘’«»" {
				if got, want := s.openedBefore(int(tk.start), q), scan(src[:tk.start], q); got != want {
					t.Fatalf("openedBefore(%q, %d, %q) = %v, want %v", src, tk.start, q, got, want)
				}
			}
		}
	})
}
