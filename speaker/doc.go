// Package speaker describes voices: it computes speaker embeddings —
// vectors of [Dim] (256) numbers of unit length that describe the voice in
// some audio — compares two of them, and makes speaker timelines (who spoke
// when, also called diarization).
//
//	b, err := speaker.Open(ctx, "", backend.Config{}) // the pure-Go "go" driver
//	if err != nil { ... }
//	defer b.Close()
//	a, _, err := audio.DecodeFile(ctx, "alice.wav", audio.Options{})
//	if err != nil { ... }
//	other, _, err := audio.DecodeFile(ctx, "caller.wav", audio.Options{})
//	if err != nil { ... }
//	x, err := b.Embed(ctx, a) // 256 float32 numbers of unit length
//	if err != nil { ... }
//	y, err := b.Embed(ctx, other)
//	if err != nil { ... }
//	sim, err := speaker.Similarity(speaker.Float64(x), speaker.Float64(y)) // cosine, -1..1
//	same := sim >= speaker.VerifyThreshold                                 // evidence, not proof
//
// A similarity score does not decide real-world identity; it is evidence,
// to be thresholded by the application for its own error trade-off.
// [VerifyThreshold] is a calibrated starting point; docs/bench/speaker.md
// gives its false-accept and false-reject rates on the shared trials, on
// short clips and in noise.
//
// # The "go" driver (Sotto/Lattice-1)
//
// The pure-Go driver needs no neural network and no training data. It reads
// the CMU Sphinx English acoustic model (Debian package pocketsphinx-en-us:
// feat.params, mdef, sendump, means, variances) and treats its 5376
// Gaussians, each weighted by how much the model's phone states use it,
// as a background model of speech. For an utterance it finds the speech (an
// energy gate); when the recording is noticeably noisy, it estimates the
// steady background noise and moves the background model to where that
// noise puts it (model-domain compensation, weighted by the estimated
// signal-to-noise ratio); it normalises the cepstra (mean, and one overall
// scale), and estimates how the clean background model's means must move
// to fit this voice: an affine transform (MLLR), 12 rows of 14 numbers,
// held towards no change by a prior that weighs in proportion to the
// speech and more in noise. The same is done for the model's Gaussians of
// the delta cepstra (how the spectrum moves from frame to frame), taken to
// 56 numbers; the median pitch of the voiced frames is encoded in 16, and
// the median of their third formant (from linear prediction; it follows
// the length of the vocal tract) in 16 more. The 168 static numbers, the
// delta, pitch and formant numbers, weighted 0.738, 0.082, 0.1 and 0.08 in
// the cosine for a long recording (a short clean one leans more on pitch
// and deltas and less on a third formant of few frames) and rotated into
// 256 by a fixed orthonormal matrix, are the embedding ([Method]
// "sphinx-mllr-v8"). Each
// choice is measured in docs/bench/speaker.md and
// ../shared/research/speaker-embeddings.md.
//
// It needs at least [MinSpeech] seconds of speech; less is a 422 error with
// code [CodeTooLittleSpeech]. Expect an equal error rate of about 3–5 % on
// clean read utterances of 5–30 s, 9–11 % on 3-second clips, and 6–9 %
// when one side has white noise at 20 dB SNR; it is a "same speaker or
// not" hint on clean speech, not biometric verification.
//
// # Two embedding spaces: v8 and the fused one
//
// Opened without [OptXVectorDir], the driver needs nothing but the
// acoustic model and embeds in [Method] ("sphinx-mllr-v8"), as above. With
// OptXVectorDir naming a Kaldi x-vector model ([XVector], downloaded at run
// time as the catalog entry Sotto/Kaldi-XVector-Callhome), it embeds in
// [MethodFused] ("sphinx-mllr-xvector-v1"): v8's static transform without
// its offsets, the first 24 of its delta numbers and its pitch encoding
// (0.45 of the cosine, shared among them as in v8) and the first 60
// numbers of the x-vector (0.55), rotated into 256 numbers of unit
// length. It is much better on short clips and in noise (3 s clips: about
// 4 % EER instead of 9 % on the dev trials; docs/bench/speaker.md). The
// server's Sotto/Lattice-1 embeds in the fused space. Cosines between
// embeddings of different methods mean nothing: compare only embeddings
// whose [Embedding].Method is the same, and use that method's thresholds
// ([VerifyThreshold] and [ShortClipThreshold] for v8,
// [FusedVerifyThreshold] and [FusedShortClipThreshold] for the fused one).
// Timelines do not change with the option: they keep v8's window
// embeddings.
//
// # Timelines
//
// [MakeTimeline] (or a [Diarizer] backend's Timeline) labels the speech of
// a recording with speakers S1, S2, … : 0.5 s blocks of speech, each seen
// through a 2.5 s window, are embedded, centred on the recording's mean
// embedding (so that the room and microphone every window shares do not
// decide) and clustered by average linkage, then centred again on the mean
// of the groups' means (so that whoever talks most does not set the
// centre) and clustered again — into
// [TimelineOptions].Speakers groups when the number is known, else into
// the number that the normalised maximum eigengap of the windows'
// nearest-neighbour graph gives (NME-SC) — and each block is then given to
// the group whose pooled model fits it best.
// [WriteRTTM] and [ParseRTTM] read and write the RTTM format of diarization
// scorers.
//
// # Backends
//
// Embedding extraction runs a registered [Driver] (see [Register]); the
// similarity of two embeddings is plain arithmetic and needs none.
package speaker
