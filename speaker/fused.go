package speaker

import (
	"context"
	"fmt"
	"math"

	"github.com/sottolabs/sotto"
)

// OptXVectorDir is the backend.Config option of the "go" driver naming a
// directory of the x-vector model ([XVector]: final.ext.raw, mean.vec,
// transform.mat, mfcc.conf). When it is set, the driver's embeddings are
// the fused ones of [MethodFused] instead of [Method]'s; opening the driver
// fails with an error naming a file the directory lacks. Timelines are not affected: they keep v8's window embeddings.
const OptXVectorDir = "xvector_dir"

// MethodFused names the embedding space of the "go" driver with
// OptXVectorDir set: v8's transforms and pitch fused with an x-vector
// (the server's Sotto/Lattice-1 embeds in it). The 256 numbers are, before
// the fixed rotation of v8 and the scaling to unit length,
//
//	[0, 156)    the static transform without its offset column, unit length
//	[156, 180)  the first 24 numbers of v8's delta projection, unit length
//	[180, 196)  v8's pitch encoding
//	[196, 256)  the first 60 numbers of the x-vector, unit length
//
// weighted in the cosine by √(0.45·s/S) for each of the first three, with
// s its share in v8 (sharesFor, by the amount of speech and the SNR) and S
// the sum of the three shares (the formant part is left out), and √0.55
// for the x-vector. For a long clean recording that is static 0.361,
// delta 0.040, pitch 0.049, x-vector 0.55. Its cosines mean nothing
// against embeddings of [Method] or any other method. The layout and the
// weight 0.45 were chosen on the dev trials (docs/bench/speaker.md): the
// x-vector is strong on short clips and in noise, where v8's transforms
// are weak, and v8 holds up on long clean files, where the x-vector's
// pooling of the first 4 s of speech loses.
const MethodFused = "sphinx-mllr-xvector-v1"

const (
	fusedV8Weight = 0.45 // the v8 parts' share of the cosine; the x-vector has the rest
	fusedStatic   = nRows * (nXi - 1)
	fusedDelta    = 24
	fusedXVector  = 60
)

// openXVectorDir loads the x-vector model of OptXVectorDir; a missing
// file is an error naming it (LoadXVector's).
func openXVectorDir(dir string) (*XVector, error) {
	x, err := LoadXVector(dir)
	if err != nil {
		return nil, fmt.Errorf("speaker: option %s: %w", OptXVectorDir, err)
	}
	return x, nil
}

// embedFused returns the MethodFused embedding of a, whose 16 kHz samples
// are s.
func (l *lattice) embedFused(ctx context.Context, a sotto.Audio, s []float32) (*Embedding, error) {
	p, xv, err := l.fusedParts(ctx, a, s)
	if err != nil {
		return nil, err
	}
	return &Embedding{Vector: float32s(l.m.fuseXVector(p, xv)), SpeechSeconds: float64(p.frames) / frameRate, Method: MethodFused}, nil
}

// fusedParts returns what a MethodFused embedding of a (16 kHz samples s)
// is made of: v8's parts, then the x-vector of a. Audio v8 refuses is
// not given to the x-vector; a cancelled ctx stops either.
func (l *lattice) fusedParts(ctx context.Context, a sotto.Audio, s []float32) (*embedParts, []float32, error) {
	p, err := l.parts(ctx, s, a.Rate(), true, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	xv, err := l.xv.Embed(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	return p, xv, nil
}

// float32s returns v as float32 numbers.
func float32s(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// fuseXVector assembles the MethodFused embedding of v8's parts p and the
// x-vector xv (see MethodFused).
func (m *mllrModel) fuseXVector(p *embedParts, xv []float32) []float64 {
	sh := sharesFor(p.frames, len(thirdFormants(p.formants)), p.snr)
	total := sh.static + sh.delta + sh.pitch
	raw := make([]float64, Dim)
	scale := func(seg []float64, w float64) {
		normalize(seg)
		w = math.Sqrt(w)
		for i := range seg {
			seg[i] *= w
		}
	}
	st := raw[:fusedStatic]
	k := 0
	for i, x := range p.static {
		if i%nXi != 0 { // column 0 of each row is the offset
			st[k] = x
			k++
		}
	}
	scale(st, fusedV8Weight*sh.static/total)
	d := raw[fusedStatic : fusedStatic+fusedDelta]
	matVec(d, m.proj, nRows*nXi, p.delta)
	scale(d, fusedV8Weight*sh.delta/total)
	pe := raw[fusedStatic+fusedDelta : fusedStatic+fusedDelta+pitchDims]
	copy(pe, pitchEncoding(logF0(p.vf))) // unit length, or zeros
	for i := range pe {
		pe[i] *= math.Sqrt(fusedV8Weight * sh.pitch / total)
	}
	x := raw[fusedStatic+fusedDelta+pitchDims:]
	for i := range x {
		x[i] = float64(xv[i])
	}
	scale(x, 1-fusedV8Weight)
	return m.rotate(raw)
}
