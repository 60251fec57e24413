// Package parts lets the speaker evaluation (speaker/internal/eval) see
// what an embedding of the "go" driver is fused from: the static and delta
// transforms, the voiced frames' log F0 and their formant candidates, the
// amount of speech. With the parts of one run stored, variants of the
// fusion can be scored without embedding the audio again.
//
// Package speaker fills in Of and Fuse when it is initialised; nothing in
// the backend's computation depends on this package.
package parts

import (
	"context"

	"github.com/sottolabs/sotto"
)

// Cand is one formant candidate of a frame: a root of its prediction
// polynomial, frequency and bandwidth in Hz.
type Cand struct{ F, BW float64 }

// Parts is what one embedding is made of.
type Parts struct {
	// Static and Delta are the unit-free numbers of the transforms of the
	// static and delta streams' means (12 rows of 14, before any scaling).
	Static, Delta []float64
	// DeltaProj is Delta through the driver's fixed projection to the
	// numbers the embedding keeps of it (before scaling to unit length).
	DeltaProj []float64
	// PitchEnc and FormantEnc are the pitch and formant encodings as
	// fused (unit length, or zeros with too few voiced frames).
	PitchEnc, FormantEnc []float64
	// LogF0 holds log F0 of each voiced speech frame; Formants the
	// formant candidates of the same frames, by frequency (nil for a
	// frame the analysis skipped).
	LogF0    []float64
	Formants [][]Cand
	// Frames is the number of speech frames (10 ms) the gate let through;
	// SNR the estimated signal-to-noise ratio in dB; Tau the prior weight
	// the transforms were solved with.
	Frames int
	SNR    float64
	Tau    float64
	// Extra holds, for each prior weight of Options.Taus, the static and
	// delta transforms solved with it instead of Tau.
	Extra []Transforms
	// Embedding is the fused embedding in float64 (the driver returns it
	// as float32).
	Embedding []float64
}

// Transforms are the static and delta transforms solved with one prior
// weight, and the delta one through the driver's projection.
type Transforms struct{ Static, Delta, DeltaProj []float64 }

// Options asks for more than the embedding computes.
type Options struct {
	// Taus gives other prior weights for the transforms, each from the
	// speech frames, the estimated SNR and the weight the driver used.
	Taus []func(frames int, snr, tau float64) float64
}

// Of returns the parts of the embedding of a by b, which must be the
// speaker package's "go" backend. Set by package speaker.
var Of func(ctx context.Context, b any, a sotto.Audio, o Options) (*Parts, error)

// Fuse returns the embedding (float64, before the driver's float32) of
// b's parts p, as the backend fuses them; with p from Of it is
// p.Embedding. Set by package speaker.
var Fuse func(b any, p *Parts) ([]float64, error)

// Both returns b's embeddings of a in both spaces of the "go" driver
// from one computation of the parts: v8's (speaker.Method, as the driver
// without OptXVectorDir embeds) and the fused one (speaker.MethodFused, as
// Embed of b, which must have been opened with OptXVectorDir). Set by
// package speaker.
var Both func(ctx context.Context, b any, a sotto.Audio) (v8, fused []float32, err error)

// MedianBumps encodes the median of the log frequencies v (sorted in
// place) as n Gaussian bumps of width sigma on a grid of log frequency
// from loHz to hiHz at unit length, as the pitch and formant parts are
// encoded (zeros with fewer than 20 values). Set by package speaker.
var MedianBumps func(v []float64, n int, loHz, hiHz, sigma float64) []float64
