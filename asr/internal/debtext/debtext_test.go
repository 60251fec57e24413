package debtext

import (
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSentences(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"The cat's well-known hat. It sat; then \"Stop!\" said he", []string{"the cat's well known hat", "it sat", "then stop", "said he"}},
		{"'Tis the season: 'twas", []string{"tis the season", "twas"}},
		{"He had 3 dogs", []string{"he had three dogs"}},
		{"  ...  ", nil},
	} {
		var got []string
		for _, s := range Sentences(context.Background(), c.in) {
			got = append(got, strings.Join(s, " "))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("sentences(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

// A dictd database in GCIDE's layout: headword lines with pronunciation
// and etymology are left out, citations, labels and sense numbers too.
func TestReadDict(t *testing.T) {
	const entry = `Dichotomize \Di*chot"o*mize\, v. t. [imp. & p. p.
   {Dichotomized}; p. pr. & vb. n. {Dichotomizing}.] [See
   {Dichotomous}.]
   1. To cut into two parts; to part into two divisions. [R.]
      [1913 Webster]

            The apostolical benediction dichotomizes all good
            things into grace and peace.          --Bp. Hall.
      [1913 Webster]

   2. (Astron.) To exhibit as a half disk.
      [1913 Webster]
`
	path := filepath.Join(t.TempDir(), "test.dict.dz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(entry))
	zw.Close()
	f.Close()
	var got []string
	err = readDict(path, func(raw string) {
		for _, s := range Sentences(context.Background(), raw) {
			if len(s) >= 3 {
				got = append(got, strings.Join(s, " "))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"to cut into two parts", "to part into two divisions",
		"the apostolical benediction dichotomizes all good things into grace and peace",
		"to exhibit as a half disk"}
	if !slices.Equal(got, want) {
		t.Errorf("readDict sentences:\n%q\nwant\n%q", got, want)
	}
}

func TestWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Don't STOP—'quoted' 3rd.", []string{"don't", "stop", "quoted", "3rd"}},
		{"  '' -- ", nil},
		{"Émile's café", []string{"émile's", "café"}},
	} {
		if got := Words(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Words(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
