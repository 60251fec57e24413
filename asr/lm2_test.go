package asr

import (
	"bytes"
	"compress/gzip"
	"context"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/asr/internal/debtext"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/lm"
)

// TestGoLM2Options checks that bad second-model options fail at Open,
// before the model loads, naming the option.
func TestGoLM2Options(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.arpa")
	for _, c := range []struct {
		o   map[string]string
		key string
	}{
		{map[string]string{OptLM2: DefaultLM, OptLM2Weight: "0"}, OptLM2Weight},
		{map[string]string{OptLM2: DefaultLM, OptLM2Weight: "1"}, OptLM2Weight},
		{map[string]string{OptLM2: DefaultLM, OptLM2Weight: "half"}, OptLM2Weight},
		{map[string]string{OptLM2: "off", OptLM2Weight: "0.4"}, OptLM2Weight},
		{map[string]string{OptLM2: "off", OptLM2Flat: "on"}, OptLM2Flat},
		{map[string]string{OptLM2: DefaultLM, OptPasses: "2"}, OptLM2},
		{map[string]string{OptLM2: missing}, OptLM2},
		{map[string]string{OptLM2: DefaultLM, OptLM2Flat: "yes"}, OptLM2Flat},
	} {
		_, err := openSphinx(context.Background(), backend.Config{Options: c.o})
		if err == nil || !strings.Contains(err.Error(), "option "+c.key) {
			t.Errorf("Open(%v) = %v; want an error naming option %s", c.o, err, c.key)
		}
	}
}

// TestGoLM2Self interpolates the trigram with itself, in the rescoring
// alone and in the flat pass too: every probability is unchanged, so jfk's
// words and times are those without a second model.
func TestGoLM2Self(t *testing.T) {
	goBackend(t) // skips without the model
	a := jfk(t)
	off, err := Open(context.Background(), "go", backend.Config{Options: map[string]string{OptLM2: "off"}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Transcribe(context.Background(), off, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, flat := range []string{"off", "on"} {
		b, err := Open(context.Background(), "go", backend.Config{Options: map[string]string{OptLM2: DefaultLM, OptLM2Weight: "0.3", OptLM2Flat: flat}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Transcribe(context.Background(), b, a, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Text != want.Text || len(got.Segments) != len(want.Segments) {
			t.Fatalf("lm2_flat %s, the trigram as lm2: %q; want %q", flat, got.Text, want.Text)
		}
		for i, s := range got.Segments {
			w := want.Segments[i]
			if len(s.Words) != len(w.Words) {
				t.Fatalf("lm2_flat %s: segment %d: %d words; want %d", flat, i, len(s.Words), len(w.Words))
			}
			for j, x := range s.Words {
				if y := w.Words[j]; x.Word != y.Word || x.Start != y.Start || x.End != y.End {
					t.Errorf("lm2_flat %s: word %d.%d %+v; want %+v", flat, i, j, x, y)
				}
			}
		}
	}
}

// TestDefaultLM2 checks the default second model: built (or found) in the
// cache directory when Debian's text packages are installed, it reads as a
// trigram over the dictionary's words whose probabilities favour English
// word order.
func TestDefaultLM2(t *testing.T) {
	if miss := debtext.Missing(debtext.DefaultSources); len(miss) > 0 {
		t.Skipf("skipping: %v not installed (scripts/deps.sh)", miss)
	}
	p, err := EnsureDefaultLM2(context.Background())
	if err != nil || p == "" {
		t.Fatalf("EnsureDefaultLM2 = %q, %v", p, err)
	}
	m, err := loadLM2(p)
	if err != nil {
		t.Fatal(err)
	}
	if m.Order() != 3 || m.Len() < 100000 {
		t.Fatalf("order %d, %d words", m.Order(), m.Len())
	}
	id := func(w string) int32 {
		i, ok := m.ID(w)
		if !ok {
			t.Fatalf("%q not in the model", w)
		}
		return i
	}
	// "of the people" is likelier than "the of people", word by word.
	if a, b := m.Score(id("the"), id("of")), m.Score(id("of"), id("the")); a <= b {
		t.Errorf("ln P(the | of) = %.2f, ln P(of | the) = %.2f", a, b)
	}
	if m2, err := loadLM2(p); err != nil || m2 != m {
		t.Errorf("a second load of the same file read it again (%v)", err)
	}
	// The first load wrote the binary form beside the ARPA file (or found
	// it there); another process reads it and gets the same scores.
	b, fromBinary, err := loadBinaryLM2(p, lm2BinaryPath(p), slog.Default())
	if err != nil || !fromBinary {
		t.Fatalf("binary form: read %v, %v", fromBinary, err)
	}
	words := []string{"<s>", "</s>", "<unk>", "the", "of", "people", "and", "thou", "art", "ask", "not", "what", "your", "country"}
	for _, x := range words {
		for _, y := range words {
			for _, z := range words {
				if p, q := m.Score(id(z), id(y), id(x)), b.Score(id(z), id(y), id(x)); math.Float32bits(p) != math.Float32bits(q) {
					t.Errorf("Score(%s | %s %s) = %v; binary form %v", z, x, y, p, q)
				}
			}
		}
	}
}

// lm2Text is a small trigram model in ARPA text for the binary cache's
// tests.
const lm2Text = `\data\
ngram 1=5
ngram 2=4
ngram 3=2

\1-grams:
-99 <s> -0.30
-0.70 </s>
-0.90 of -0.25
-0.80 the -0.20
-1.10 people -0.10

\2-grams:
-0.40 <s> the -0.10
-0.30 of the -0.15
-0.50 the people -0.05
-0.60 people </s>

\3-grams:
-0.20 of the people
-0.25 <s> the people

\end\
`

// TestLM2BinaryCache checks the binary form of the second model beside
// its ARPA file: written on the first load (with a log line), then read in
// place of the ARPA text; written again from the ARPA file, saying why,
// when it is corrupt, truncated, of another format version, not a model,
// or made from other ARPA bytes; and when it cannot be written the model
// still loads. Every load gives the ARPA file's scores bit for bit.
func TestLM2BinaryCache(t *testing.T) {
	dir := t.TempDir()
	arpa := filepath.Join(dir, "test-v1.arpa.gz")
	bin := lm2BinaryPath(arpa)
	if filepath.Base(bin) != "test-v1.slm" {
		t.Fatalf("binary path %s", bin)
	}
	writeARPA := func(text string) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte(text))
		zw.Close()
		if err := os.WriteFile(arpa, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	load := func(step string, wantBinary bool, wantLog string) {
		t.Helper()
		logs.Reset()
		m, fromBinary, err := loadBinaryLM2(arpa, bin, log)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if fromBinary != wantBinary {
			t.Errorf("%s: read from the binary form %v; want %v", step, fromBinary, wantBinary)
		}
		if !strings.Contains(logs.String(), wantLog) || (wantLog == "" && logs.Len() > 0) {
			t.Errorf("%s: logged %q; want %q", step, logs.String(), wantLog)
		}
		ref, err := lm.Load(arpa)
		if err != nil {
			t.Fatal(err)
		}
		if m.Len() != ref.Len() || !slices.Equal(m.Counts(), ref.Counts()) {
			t.Fatalf("%s: %d words %v; the ARPA file %d %v", step, m.Len(), m.Counts(), ref.Len(), ref.Counts())
		}
		n := int32(m.Len())
		for a := range n {
			for b := range n {
				for c := range n {
					if p, q := m.Score(c, b, a), ref.Score(c, b, a); math.Float32bits(p) != math.Float32bits(q) {
						t.Fatalf("%s: Score(%d | %d %d) = %v; the ARPA file's %v", step, c, a, b, p, q)
					}
				}
			}
		}
	}
	edit := func(f func(b []byte) []byte) {
		b, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, f(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeARPA(lm2Text)
	load("first load", false, "writing the second language model's binary form")
	load("second load", true, "")
	edit(func(b []byte) []byte { b[len(b)/2] ^= 1; return b })
	load("corrupt", false, "checksum")
	load("rewritten after corrupt", true, "")
	edit(func(b []byte) []byte { return b[:len(b)-8] })
	load("truncated", false, "truncated")
	edit(func(b []byte) []byte { b[8] = 0; return b }) // format version 1 → 0
	load("older format", false, "version 0")
	edit(func(b []byte) []byte { return []byte("not a model") })
	load("foreign", false, "not a binary language model")
	writeARPA(strings.Replace(lm2Text, "-0.20 of the people", "-0.21 of the people", 1))
	load("ARPA file changed", false, "made from")
	load("rewritten after the change", true, "")
	os.Remove(bin)
	if err := os.Mkdir(bin, 0o755); err != nil { // a directory in its place: neither read nor written
		t.Fatal(err)
	}
	load("unwritable", false, "could not write")
	if _, _, err := loadBinaryLM2(filepath.Join(dir, "none.arpa.gz"), bin, log); err == nil {
		t.Errorf("a missing ARPA file loaded")
	}
}
