// Package sphinx is a pure-Go acoustic engine for CMU Sphinx models: it
// reads the Debian pocketsphinx-en-us acoustic model, computes the same
// MFCC features as the peer's front end, scores its phonetically tied
// mixture (PTM) senones — or, for continuous models such as the Chinese
// and German Sphinx packs, one codebook per senone with float
// "mixture_weights", a text mdef and an optional LDA/MLLT
// "feature_transform" — and force-aligns word sequences with a beam-pruned
// Viterbi search. Alignment, transcription and speaker work build on it.
//
//	m, err := sphinx.Load(ctx, sphinx.Config{}) // Debian en-us model + cmudict
//	if err != nil { ... }
//	a, err := m.Align(ctx, samples, []string{"ask", "not"}, sphinx.AlignOptions{})
//	for _, w := range a.Words {
//		fmt.Println(w.Label, a.Seconds(w.Start), a.Seconds(w.End))
//	}
//
// # Model files
//
// [Load] reads a model directory (default [DefaultModelDir]) and validates
// every file against its format and against the others: the binary model
// definition "mdef" ([ParseMdef]: phones, triphone tree, senone sequences),
// "means" and "variances" ([ParseGauden]: Sphinx-3 binary with byte-order
// magic and checksum), "transition_matrices" ([ParseTransitionMatrices]:
// normalised, floored, in natural log), "sendump" ([ParseSendump]: 8-bit
// quantised mixture weights), "feat.params" ([ParseFeatParams]) and the
// pronouncing and noise dictionaries ([ParseDict]). A truncated or corrupt
// file fails with an error naming the file.
//
// # Front end
//
// [Frontend] reproduces sphinxbase's float front end: pre-emphasis, a
// 25.6 ms Hamming window every 10 ms, a 512-point FFT, the triangular mel
// filterbank of feat.params (rounded to FFT bins, unit area), spectral noise
// subtraction (-remove_noise), log, DCT-II and liftering. Samples in [-1,1]
// are scaled to the int16 range first. It matches sphinx_fe to about 2e-5 on
// every cepstrum. It streams: feed chunks to [Frontend.Process] and call
// [Frontend.Flush] at the end. [CMNBatch] normalises a whole utterance,
// [CMNSegmental] each region of constant long-term mean (recordings of
// different channels joined into one file; one region is exactly
// CMNBatch), [LiveCMN] a stream from the feat.params prior; [FeatureAt] and [Features]
// add deltas and delta-deltas for the three 13-dimensional streams.
//
// # Scoring
//
// A [Scorer] evaluates, per frame, the 128 Gaussians of each needed codebook
// and stream, keeps the top 4, and log-adds them with each senone's mixture
// weights. [Scorer.Senone] scores one senone (codebooks on demand);
// [Scorer.ScoreAll] scores all of them. Scores are natural-log likelihoods.
//
// # Search
//
// [Model.Align] builds a graph of triphone HMMs for the words, with every
// pronunciation variant, cross-word contexts on both sides and an optional
// silence between words and at both ends, and runs a Viterbi search with a
// beam. Back-pointers are stored only when a path enters a new state and
// are garbage-collected, so memory follows the active states rather than
// frames × states. The result has word, phone and state boundaries with
// their scores.
//
// # Concurrency and errors
//
// A loaded [Model] is read-only and safe for concurrent use; [Frontend],
// [Scorer] and [LiveCMN] are per-goroutine. Long calls take a
// context.Context first and return its error when cancelled. Bad input to
// [Model.Align] is a *sotto.Error: an unknown word is ErrInvalidRequest
// ("bad_request", param "text"); no words or no possible path is
// ErrUnsatisfiable ("alignment_failed", with a Detail reason).
package sphinx
