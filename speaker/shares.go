package speaker

// Shares of the cosine by the amount of speech (sphinx-mllr-v8). The
// parts of an embedding are not equally sure of what they measure: each
// transform of 2 s of speech solves 168 numbers from 200 frames, while
// the median pitch of the same frames is nearly as good as a whole
// file's. An embedding of n speech frames (nf of them with a third
// formant) at an estimated SNR of snr dB weighs its parts, before the
// whole is scaled to unit length, as
//
//	pitch    pitchShare·(1 + T/(n+T))
//	formant  formantShare·nf/(nf + c·T/4)
//	delta    s·δ,     δ = deltaShare·(1 + c·T/n)
//	static   s·(1-δ), s = 1 - pitchShare - formantShare
//
// with T = sharesFrames and c the SNR fade (1 at 30 dB or more, 0 at 20
// dB or less): a short clip leans more on its pitch and, when clean, on
// how its cepstra move (the delta part, which measured better than the
// static one on short clips and worse in noise) and less on a median F3
// of few frames. Recordings of a minute or more keep v7's shares (pitch
// 0.1, formant 0.08, delta 0.082, static 0.738) within 3.5 % (30 s: 7 %).
// Two embeddings of different lengths still compare by a cosine: each is
// the sum of its unit-length parts times the square roots of its own
// weights. Dev trials, both lists, whole files / 6 s / 3 s / B noisy /
// 3 s B noisy: v7's fixed shares 2.9 / 3.4 / 8.9 / 6.0 / 14.7 % EER, these
// 2.9 / 3.2 / 8.7 / 5.5 / 14.3 % (T 150-250, formant constant T/4-T: 3 s
// clips 8.4-8.9 %, no other condition more than 0.1 point worse than v7
// but one, by half a target trial; docs/bench/speaker.md).
const (
	sharesFrames = 200 // T: 2 s of speech
	sharesSNRLo  = 20.0
	sharesSNRHi  = 30.0
)

// shares are the weights of an embedding's parts in the cosine (before
// the embedding is scaled to unit length).
type shares struct{ static, delta, pitch, formant float64 }

// sharesFor returns the shares of an embedding of frames speech frames,
// f3Frames of them with a third formant, at an estimated SNR of snr dB.
func sharesFor(frames, f3Frames int, snr float64) shares {
	n, nf := float64(frames), float64(f3Frames)
	c := 0.0
	if snr >= sharesSNRHi {
		c = 1
	} else if snr > sharesSNRLo {
		c = (snr - sharesSNRLo) / (sharesSNRHi - sharesSNRLo)
	}
	s := 1 - pitchShare - formantShare
	d := deltaShare * (1 + c*sharesFrames/n)
	sh := shares{static: s * (1 - d), delta: s * d, pitch: pitchShare * (1 + sharesFrames/(n+sharesFrames)), formant: formantShare}
	if tf := c * sharesFrames / 4; tf > 0 {
		sh.formant *= nf / (nf + tf)
	}
	return sh
}

// longShares are the shares of a long clean recording, v7's.
var longShares = shares{
	static:  (1 - pitchShare - formantShare) * (1 - deltaShare),
	delta:   (1 - pitchShare - formantShare) * deltaShare,
	pitch:   pitchShare,
	formant: formantShare,
}
