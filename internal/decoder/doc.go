// Package decoder is the large-vocabulary speech recognizer behind the asr
// driver "go": a token-passing Viterbi beam search over the acoustic
// engine of internal/sphinx and a back-off n-gram model of internal/lm.
//
//	am, _ := sphinx.Load(ctx, sphinx.Config{})
//	lang, _ := lm.Load("/usr/share/pocketsphinx/model/en-us/en-us.lm.bin")
//	d, err := decoder.New(am, lang, decoder.Config{}) // the peer's defaults
//	feats, n, _ := am.Features(ctx, samples)
//	r, err := d.Decode(ctx, feats, n)
//	fmt.Println(r.Text()) // words; r.Words has frames and confidences
//
// # Search network
//
// [New] puts every pronunciation of every dictionary word the language
// model knows into a prefix tree of triphone HMMs (three emitting states).
// A word's first phone is a tree root whose triphone is chosen when a
// token enters it, from the last phone of the word it comes from; inner
// phones are fixed triphones; the last phone is fanned out into one HMM
// per distinct senone sequence over all right contexts, so a word exit
// carries a score for each following phone. Single-phone words choose
// both contexts the same way; fillers (silence, noise) are CI phones. For
// the Debian model that is about 155,000 tree HMMs and 2.2 million
// final-phone HMMs (allocated as state arrays, evaluated only when active).
//
// # Search
//
// Each frame evaluates the active HMMs, prunes with the beam and a
// histogram limit (MaxActive), moves tokens to the next phone within the
// phone beam, and records word exits within the word beam of the best
// final-phone score in a back-pointer table. Exits enter the tree roots
// (best predecessor per first phone), the single-phone words (each with
// its own LM score) and the fillers (silence or filler penalty) for the
// next frame. The trigram score (weighted by the language weight, plus the
// word insertion penalty) is applied when a token enters a word's last
// phone. At that point the word's predecessor is chosen again, as the
// peer's fwdtree pass does: the tree entered the word from the predecessor
// that was best acoustically, without knowing the word; now every word
// exit of the same frame competes with its exit score plus the word's
// trigram score after it (on the dev recordings this took the WER of the
// tree pass from 0.465 to 0.426, the peer's own tree-pass figure). To keep
// partial words comparable with finished ones, every tree node carries an
// LM lookahead, the best weighted unigram below it, which a token pays on
// entering and gets back at the last phone. Scores are natural logs,
// normalised to the best of each frame. The result is the best path into "</s>" at the last
// frame with word exits.
//
// An optional second pass (Config.Flat, the peer's fwdflat) searches again
// over the words the first pass found, each with its own phones and free
// to start only near where the first pass started it, applying the exact
// trigram score at every word entry. It prunes with its own, wider beams:
// word entries carry their full trigram score, which the tree's
// last-phone beam would cut. It took the dev WER of docs/bench/asr.md from
// 0.426 to 0.410. Config.BestPath rescores the word lattice of the last
// pass (its back-pointer table: every word exit kept, as (word, start
// frame, end frame) with its acoustic score; the peer's bestpath) with
// the exact trigram, each node expanded by its two-word history, at its
// own language weight and insertion penalty ([Lattice.Rescore]).
// The flat pass runs one chain of HMMs per word, so Viterbi keeps one
// start (and one history) per word and end frame; Config.FlatStartCluster
// (copies of a word per block of start frames) and Config.FlatPredBuckets
// (copies per predecessor word bucket) keep several apart, for a lattice
// with real alternatives (opt-in; measured in docs/bench/asr.md).
// Config.KeepLattice hands the lattice to the caller. Options.Bias favours given words
// (the API's prompt). DecodeFirst and DecodeSecond run the passes apart,
// so a caller can change the features between them (package asr adapts
// them to the speaker there).
//
// # Results
//
// Word times are frames (10 ms). A word's confidence is its word-end
// posterior: its share of the probability mass of all word exits at its
// last frame, with exit scores scaled by 1/lw. With Config.BestPath it is
// the lattice posterior instead: forward-backward over the rescored
// lattice, the probability of the paths with the word's spelling at its
// middle frame.
//
// A Decoder is read-only after New and safe for concurrent use; each call
// uses its own search state (pooled). Cancelling the context stops the
// search within 50 frames and returns the context's error.
package decoder
