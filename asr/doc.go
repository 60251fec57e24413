// Package asr transcribes speech to text.
//
//	b, err := asr.Open(ctx, "", backend.Config{}) // the pure-Go English recognizer
//	if err != nil { ... }
//	defer b.Close()
//	a, _, err := audio.DecodeFile(ctx, "talk.mp3", audio.Options{}) // 16 kHz mono
//	if err != nil { ... }
//	for s, err := range asr.Segments(ctx, b, a, asr.Options{Language: "en", Words: true}) {
//		if err != nil { ... }
//		fmt.Printf("%.2f–%.2f %s\n", s.Start, s.End, s.Text)
//	}
//	t, err := asr.Transcribe(ctx, b, a, asr.Options{Language: "en"}) // or all at once
//	if err != nil { ... }
//	fmt.Println(t.Text)
//
// # Backends
//
// A transcription [Driver] registers itself from init; [Open] selects one by
// name or by priority. This build has one, "go": a pure-Go large-vocabulary
// recognizer for US English on the CMU Sphinx model Debian ships
// (pocketsphinx-en-us). The server offers it as catalog model
// Sotto/Lattice-ASR.
//
// # The "go" recognizer
//
// The audio is cut into speech regions by log energy (c0 above the noise
// floor, padded, merged, at most 30 s each; frames of digital silence,
// exact zeros, are left out, see [OptDigitalSilence]), so a long file
// decodes in bounded memory; regions are decoded in parallel on GOMAXPROCS workers
// (option [OptWorkers]) and emitted in order as each is decided. The
// cepstra get the model's mean normalisation over the whole file (per stretch
// of constant channel); each region then gets a Viterbi beam search
// (internal/decoder) over a prefix tree of the dictionary's words with
// cross-word triphones, unigram language-model lookahead and the trigram
// model, in which a word entering its last phone re-chooses its predecessor
// with the trigram (as pocketsphinx's first pass does). A second,
// flat-lexicon pass over the words the first pass found rescores them with
// the exact trigram at every word entry, with its own wide beams and
// language weight 7.5 ([OptFlatLW]; pocketsphinx's fwdflat uses 8.5), and
// by default ([OptPasses] "3") the word
// lattice of that pass (every word exit it kept, as word, start and end
// frame with its acoustic score) is rescored with the exact trigram at
// language weight 9 (pocketsphinx's bestpath, with each node expanded by
// its two-word history); "2" stops after the flat pass, "1" keeps the tree
// pass only. The rescoring interpolates a second trigram with the Debian
// one ([OptLM2], [OptLM2Weight]): by default a model built once, into the
// user's cache directory, from the English text of Debian packages
// ([EnsureDefaultLM2]; without those packages the trigram scores alone). Between the two passes the recognizer adapts to the speaker
// ([OptAdapt], on by default with the flat pass): the tree pass's words are
// force-aligned, one fMLLR feature transform (an affine map of the 39
// feature values, one block per stream) is estimated for the whole file
// from its aligned speech frames, and the flat pass decodes the
// transformed features; the model's scoring is unchanged. Adaptation needs
// the tree pass over the whole file before the first segment is emitted;
// [OptAdapt] "off" emits each region as soon as it is decoded. Two
// options measured without gain stay off: [OptVTLN] (a per-file frequency
// warp of the filterbank before fMLLR) and [OptConsensus] (consensus
// decoding of the rescored lattice).
// Figures beside pocketsphinx: docs/bench/asr.md.
// Word times come from the search's back-pointers; confidences are lattice
// posteriors (forward-backward over the rescored lattice), or with
// [OptPasses] "1" or "2" word-end posteriors over the search's word exits.
//
// Options ([OptAcousticDir], [OptDict], [OptLM]) choose other model files;
// [OptLM] accepts an ARPA file, so a domain language model can replace the
// general one (internal/lm reads both the Debian binary and ARPA).
// Options.Language must be empty or English ("en", "en-US" …); anything else
// is a *sotto.Error with code "asr_language_unsupported" and param
// "language". The words of Options.Prompt get ten times their language-model
// probability wherever the search scores them.
//
// The backend is safe for concurrent use by multiple goroutines.
// Cancelling the context stops every worker; Transcribe returns the
// context's error.
package asr
