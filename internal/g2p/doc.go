// Package g2p turns transcript text into pronunciations in the phone set of
// the CMU Sphinx US English acoustic model (39 ARPAbet phones, see
// [Phones]), for the forced aligner. Text in any language espeak-ng reads
// is phonemised to IPA by espeak-ng and the IPA is mapped to the nearest
// English phones, so one English model aligns German, Spanish, Swedish,
// Japanese, Chinese and the rest (see shared/research/crosslingual-alignment.md
// for the measurements behind this design).
//
// A typical use, CMUdict first for English and espeak-ng for the rest:
//
//	model, err := sphinx.Load(ctx, sphinx.Config{})
//	if err != nil { ... }
//	g := g2p.New(g2p.NewSphinxLexicon(model.Dict, model.Mdef))
//	toks, prons, err := g.Words(ctx, transcript, "de") // "" or "und": guess per script run
//	if err != nil { ... } // *sotto.Error (bad_request, language_unsupported), ErrNoEspeak, ErrNoMeCab
//	for i, t := range toks {
//		fmt.Println(transcript[t.Start:t.End], prons[i].Variants) // Lebensbeschreibung [[L EY B AH N S ...]]
//	}
//
// # Tokens
//
// [Tokenize] cuts a transcript into alignment units and keeps the byte
// offsets of each in the source, so aligned words map back to the
// original text. Words of space-separated languages lose surrounding
// punctuation ("Merk-" → "Merk"); Japanese is cut into morphemes by MeCab,
// whose katakana pronunciation becomes the token's reading; Chinese gives
// one token per character with its pinyin readings (go-pinyin). Mixed text
// is first split into runs of one script, each pronounced in its own
// language ("我爱Go语言": Go is English).
//
// # Languages
//
// [Candidates] guesses the languages of a text for requests without one
// (language "und" or omitted): by script, and for Latin script by frequent
// function words and telltale letters. [Phonemizer.Route] maps a BCP 47 tag
// to an espeak-ng voice: zh to the pinyin route (voice cmn-latn-pinyin),
// ja to the kana route, en to en-us, others by full tag or base language.
// An unknown language is a 422 *sotto.Error with code
// "language_unsupported".
//
// # Phonemes
//
// [Phonemizer] runs the espeak-ng program (never linked: it is GPL-3),
// many words per process, one per line, and caches results. The espeak-ng
// and mecab processes stay up between calls (a bounded number, ended after
// a minute unused), so in a long-running program only the first call for a
// voice pays the program start; [G2P.Prewarm] moves even that to start-up. [MapIPA] maps
// IPA to ARPAbet with an explicit table (affricates and diphthongs merged;
// stress, length and tone dropped; ʲ → +Y; nasal vowel → vowel+N; ʔ
// dropped; repeats collapsed), per-language rules (Japanese sokuon, the
// Mandarin voice's aspiration and tone artefacts, the Swedish sj-sound, the
// American flap), and for symbols outside the table the phone nearest in
// articulatory features, reported in [Mapping.Fallback].
//
// # Programs
//
// espeak-ng (apt-get install espeak-ng) and, for Japanese, mecab with the
// IPADIC dictionary (apt-get install mecab mecab-ipadic-utf8) must be
// installed; their absence is reported by errors matching [ErrNoEspeak]
// and [ErrNoMeCab]. Every call that runs a program takes a context whose
// cancellation kills the process (a warm one too; the next call starts a
// new one).
package g2p
