package asr

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/asr/internal/debtext"
	"github.com/sottolabs/sotto/backend"
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
}
