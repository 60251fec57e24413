package asr

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

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
		{map[string]string{OptLM2Weight: "0.4"}, OptLM2Weight},
		{map[string]string{OptLM2: DefaultLM, OptPasses: "2"}, OptLM2},
		{map[string]string{OptLM2: missing}, OptLM2},
		{map[string]string{OptLM2Flat: "on"}, OptLM2Flat},
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
// words and times are the default's.
func TestGoLM2Self(t *testing.T) {
	def := goBackend(t)
	a := jfk(t)
	want, err := Transcribe(context.Background(), def, a, Options{})
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
