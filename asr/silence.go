package asr

import (
	"fmt"
	"iter"
	"math/rand/v2"
)

// OptDigitalSilence is what the "go" driver does with digital silence,
// runs of samples that are exactly zero (audio padded or noise-gated by an
// editor): "trim" (the default) leaves the frames whose whole window is
// zero out of the speech regions (they neither count toward the noise
// floor of the segmentation nor are decoded at a region's edge; a short
// run inside a region stays), as the peer's voice-activity detection
// drops them; "keep" decodes them as they are; "dither" fills
// every run of at least 10 ms of zero samples with noise of one
// least significant bit (16-bit), so that they look like a very quiet
// room to the acoustic model instead of a log-energy floor no training
// frame had (their cepstra sit tens of units below any real silence, and
// the jump into speech reads as a fricative onset). The noise is
// pseudo-random with a fixed seed: the same file decodes the same way.
// See docs/bench/asr.md.
const OptDigitalSilence = "digital_silence"

// digitalSilenceMin is the shortest run of zero samples OptDigitalSilence
// dither fills (10 ms at 16 kHz, one frame shift).
const digitalSilenceMin = 160

// OptDigitalSilence modes.
const (
	silenceKeep = iota
	silenceTrim
	silenceDither
)

// parseDigitalSilence reads OptDigitalSilence.
func parseDigitalSilence(o map[string]string) (int, error) {
	switch o[OptDigitalSilence] {
	case "keep":
		return silenceKeep, nil
	case "", "trim":
		return silenceTrim, nil
	case "dither":
		return silenceDither, nil
	}
	return 0, fmt.Errorf("asr: option %s %q: want keep, trim or dither", OptDigitalSilence, o[OptDigitalSilence])
}

// zeroFrames reports, for each of n frames (a shift of shift samples, a
// window of win), whether every sample of its window is exactly zero; nil
// when no frame is. It needs no memory beyond its result (one byte a
// frame), so a long file stays within the cepstra's bound.
func zeroFrames(samples []float32, n, shift, win int) []bool {
	var out []bool
	for i, j := range zeroRuns(samples) {
		// Frames whose window [t·shift, t·shift+win) lies in [i, j),
		// clipped to the audio as the front end clips its last frame.
		for t := (i + shift - 1) / shift; t < n && t*shift < j; t++ {
			if min(t*shift+win, len(samples)) > j {
				break
			}
			if out == nil {
				out = make([]bool, n)
			}
			out[t] = true
		}
	}
	return out
}

// zeroRuns yields the maximal runs [i, j) of exact zeros in samples.
func zeroRuns(samples []float32) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(samples); {
			if samples[i] != 0 {
				i++
				continue
			}
			j := i
			for j < len(samples) && samples[j] == 0 {
				j++
			}
			if !yield(i, j) {
				return
			}
			i = j
		}
	}
}

// ditherSilence returns samples with every run of at least
// digitalSilenceMin exact zeros filled with uniform noise of ±1 least
// significant bit of 16-bit audio; samples itself when there is no such
// run (it is never modified).
func ditherSilence(samples []float32) []float32 {
	var out []float32
	rng := rand.New(rand.NewPCG(1, 2))
	for i, j := range zeroRuns(samples) {
		if j-i < digitalSilenceMin {
			continue
		}
		if out == nil {
			out = append([]float32(nil), samples...)
		}
		for k := i; k < j; k++ {
			out[k] = float32(rng.Float64()*2-1) / 32768
		}
	}
	if out == nil {
		return samples
	}
	return out
}
