package g2p_test

import (
	"context"
	"fmt"

	"github.com/sottolabs/sotto/internal/g2p"
)

// MapIPA turns espeak-ng IPA into the phones of the English acoustic model.
func ExampleMapIPA() {
	fmt.Println(g2p.MapIPA("de", "lˈeːbənsbɛʃrˌaɪbʊŋ").Phones) // Lebensbeschreibung
	fmt.Println(g2p.MapIPA("ja", "kʲäˈũpɯᵝ").Phones)           // キャンプ
	fmt.Println(g2p.MapIPA("zh", "tɕhˈiɜŋ").Phones)            // qing2
	m := g2p.MapIPA("", "ɬa")
	fmt.Println(m.Phones, m.Fallback)
	// Output:
	// [L EY B AH N S B EH SH R AY B UH NG]
	// [K Y AA N P UW]
	// [CH IY NG]
	// [S AA] [ɬ→S]
}

// Candidates ranks the languages a transcript may be in.
func ExampleCandidates() {
	c := g2p.Candidates("Har du sett våra rara barnbarn som leker och busar ute i grannträdgården!")
	fmt.Println(c[0].Lang)
	fmt.Println(g2p.Candidates("甚至出现交易几乎停滞的情况")[0].Lang)
	// Output:
	// sv
	// zh
}

// Tokenize keeps byte offsets into the source, so aligned words map back
// to the transcript.
func ExampleTokenize() {
	text := "Das ist: Ausführliche, unerdichtete"
	toks, err := g2p.Tokenize(context.Background(), nil, text, "de")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range toks {
		fmt.Printf("%q [%d,%d) %s\n", t.Text, t.Start, t.End, t.Lang)
	}
	// Output:
	// "Das" [0,3) de
	// "ist" [4,7) de
	// "Ausführliche" [9,22) de
	// "unerdichtete" [24,36) de
}

// G2P tokenises a transcript and pronounces every token from the lexicon
// of its language first; words the lexicon lacks go to espeak-ng (not
// needed here, as the lexicon covers every word).
func ExampleG2P_Words() {
	lex := g2p.MapLexicon{
		"montreal": {{"M", "AH", "N", "T", "R", "IY", "AO", "L"}},
		"forced":   {{"F", "AO", "R", "S", "T"}},
		"aligner":  {{"AH", "L", "AY", "N", "ER"}},
	}
	toks, prons, err := g2p.New(lex).Words(context.Background(), "Montreal, forced aligner.", "en-US")
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, t := range toks {
		fmt.Println(t.Text, t.Start, prons[i].Source, prons[i].Variants[0])
	}
	// Output:
	// Montreal 0 lexicon [M AH N T R IY AO L]
	// forced 10 lexicon [F AO R S T]
	// aligner 17 lexicon [AH L AY N ER]
}
