package g2p

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sottolabs/sotto/internal/sphinx"
)

func TestReadCMUDict(t *testing.T) {
	in := ";;; a comment\n# another\nhello HH AH0 L OW1\nhello(2) hh eh l ow\n\nREAD R IY D\nread(2) R EH D\n"
	lex, err := ReadCMUDict(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := MapLexicon{
		"hello": {{"HH", "AH", "L", "OW"}, {"HH", "EH", "L", "OW"}},
		"read":  {{"R", "IY", "D"}, {"R", "EH", "D"}},
	}
	if diff := cmp.Diff(want, lex); diff != "" {
		t.Errorf("lexicon (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"word\n", "ok OW K\nword XX Y\n"} {
		if _, err := ReadCMUDict(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("ReadCMUDict(%q) = %v, want an error naming the line", bad, err)
		}
	}
}

// The dictionary Debian's pocketsphinx-en-us ships reads whole.
func TestReadCMUDictDebian(t *testing.T) {
	f, err := os.Open(sphinx.DefaultDictPath)
	if err != nil {
		t.Skipf("pocketsphinx-en-us not installed: %v", err)
	}
	defer f.Close()
	lex, err := ReadCMUDict(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(lex) < 100000 {
		t.Errorf("%d words; want the whole dictionary", len(lex))
	}
	if p, ok := lex.Lookup("Twelve"); !ok || strings.Join(p[0], " ") != "T W EH L V" {
		t.Errorf("twelve = %v %v", p, ok)
	}
}

func FuzzReadCMUDict(f *testing.F) {
	f.Add("a AH\na(2) EY\n")
	f.Add(";;; x\nword(3) W ER1 D\n")
	f.Add("x(\n")
	f.Fuzz(func(t *testing.T, in string) {
		lex, err := ReadCMUDict(strings.NewReader(in))
		if err != nil {
			return
		}
		for w, prons := range lex {
			if w != strings.ToLower(w) || len(prons) == 0 {
				t.Fatalf("entry %q: %v", w, prons)
			}
			for _, p := range prons {
				if len(p) == 0 {
					t.Fatalf("entry %q has an empty pronunciation", w)
				}
				for _, ph := range p {
					if !IsPhone(ph) {
						t.Fatalf("entry %q: phone %q", w, ph)
					}
				}
			}
		}
	})
}
