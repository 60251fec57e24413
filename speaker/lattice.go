package speaker

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/dsp"
	"github.com/sottolabs/sotto/internal/sphinx"
)

func init() {
	Register(Driver{Name: "go", Open: openLattice})
}

// OptAcousticDir is the backend.Config option of the "go" driver naming the
// directory of the Sphinx acoustic model (feat.params, mdef, sendump,
// means, variances; a PTM model with one codebook per CI phone). Without
// it the driver uses ModelDir/en-us when that holds a model, else the
// Debian pocketsphinx-en-us model.
const OptAcousticDir = "acoustic_dir"

// Method names the embedding space of the "go" driver. Embeddings of
// different methods are not comparable. v2 added the SNR-weighted spectral
// subtraction and the wider speech gate to v1's transform; v3 made the
// transform's prior weight grow with the amount of speech and as the
// estimated SNR falls (see priorWeight); v4 fused the delta stream's
// transform into the 256 numbers (fuse); v5 weighs the background model's
// Gaussians by their codebook weights from the acoustic model instead of
// uniformly (codebookWeights); v6 moves the background model by the
// recording's noise and solves the transform of the clean means under it
// instead of subtracting the noise from the frames (vts.go), and fuses the
// median pitch into the 256 numbers (pitch.go); v7 fuses the median third
// formant of the voiced frames too (formant.go); v8 (this version) weighs
// the parts by the amount of speech the embedding saw (shares.go).
// Embeddings of earlier versions stored elsewhere must be recomputed.
// With OptXVectorDir set the driver embeds in another space,
// [MethodFused]; cosines across the two mean nothing.
const Method = "sphinx-mllr-v8"

// MinSpeech is the least speech, in seconds after the voice-activity gate,
// that the "go" driver embeds; shorter speech is a 422 error with code
// CodeTooLittleSpeech. Three-second clips of read speech keep about two
// seconds of it.
const MinSpeech = 1.0

// CodeTooLittleSpeech is the error code of audio with less than MinSpeech
// seconds of speech.
const CodeTooLittleSpeech = "insufficient_speech"

const frameRate = 100 // frames per second of the Sphinx front end

// lattice is the "go" backend.
type lattice struct {
	m      *mllrModel
	xv     *XVector // OptXVectorDir's model; nil: the embeddings are Method's
	closed atomic.Bool
}

var (
	_ Backend  = (*lattice)(nil)
	_ Detailer = (*lattice)(nil)
	_ Diarizer = (*lattice)(nil)
)

func openLattice(ctx context.Context, cfg backend.Config) (Backend, error) {
	dir := cfg.Options[OptAcousticDir]
	if dir == "" && cfg.ModelDir != "" {
		if _, err := os.Stat(filepath.Join(cfg.ModelDir, "en-us", "means")); err == nil {
			dir = filepath.Join(cfg.ModelDir, "en-us")
		}
	}
	if dir == "" {
		dir = sphinx.DefaultModelDir
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, err := loadMLLR(dir)
	if err != nil {
		return nil, err
	}
	l := &lattice{m: m}
	if xd := cfg.Options[OptXVectorDir]; xd != "" {
		if l.xv, err = openXVectorDir(xd); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func (l *lattice) Close() error {
	l.closed.Store(true)
	return nil
}

func (l *lattice) Embed(ctx context.Context, a sotto.Audio) ([]float32, error) {
	e, err := l.EmbedDetail(ctx, a)
	if err != nil {
		return nil, err
	}
	return e.Vector, nil
}

// samples16k returns a's samples at 16 kHz.
func samples16k(a sotto.Audio) ([]float32, error) {
	if a.Rate() == sotto.SampleRate {
		return a.Samples, nil
	}
	s, err := audio.Resample(nil, a.Samples, a.Rate(), sotto.SampleRate)
	if err != nil {
		return nil, fmt.Errorf("speaker: %w", err)
	}
	return s, nil
}

func (l *lattice) EmbedDetail(ctx context.Context, a sotto.Audio) (*Embedding, error) {
	if l.closed.Load() {
		return nil, fmt.Errorf("speaker: embed: backend closed")
	}
	s, err := samples16k(a)
	if err != nil {
		return nil, err
	}
	if l.xv != nil {
		return l.embedFused(ctx, a, s)
	}
	return l.embedSamples(ctx, s, a.Rate(), true)
}

// embedSamples embeds 16 kHz samples, first sampled at inRate Hz;
// compensate switches the noise compensation of the background model
// (vts.go) on, as it always is outside the tests.
func (l *lattice) embedSamples(ctx context.Context, s []float32, inRate int, compensate bool) (*Embedding, error) {
	p, err := l.parts(ctx, s, inRate, compensate, nil)
	if err != nil {
		return nil, err
	}
	return &Embedding{Vector: float32s(l.m.fuseParts(p)), SpeechSeconds: float64(p.frames) / frameRate, Method: Method}, nil
}

// embedParts is what an embedding is fused from (fuseParts).
type embedParts struct {
	static, delta []float64 // the transforms' raw numbers (embedRaw)
	vf            []dsp.PitchFrame
	formants      [][]formantCand // of the frames of vf
	frames        int             // speech frames
	snr, tau      float64
	// extra holds the static and delta transforms solved with the prior
	// weights of extraTau (evaluation only; see speaker/internal/parts).
	extra [][2][]float64
}

// parts computes the parts of the embedding of 16 kHz samples s, first
// sampled at inRate Hz (see embedSamples); for each function of extraTau
// it also solves both transforms with the prior weight it returns for
// the speech frames, the estimated SNR and the weight used.
func (l *lattice) parts(ctx context.Context, s []float32, inRate int, compensate bool, extraTau []func(frames int, snr, tau float64) float64) (*embedParts, error) {
	cep, err := l.m.cepstra(ctx, s)
	if err != nil {
		return nil, err
	}
	mask := speechMask(cep)
	n := 0
	for _, sp := range mask {
		if sp {
			n++
		}
	}
	if float64(n) < MinSpeech*frameRate {
		return nil, sotto.Unsatisfiable(CodeTooLittleSpeech, "file",
			"the audio holds %.2f s of speech; a speaker embedding needs at least %.1f s", float64(n)/frameRate, MinSpeech)
	}
	// The noise estimate and the compensation work on the raw cepstra,
	// before the mean is taken.
	est := l.m.subtractNoise(cep, mask, false)
	var nc *noiseComp
	if compensate {
		nc = l.m.compensate(cep, mask, est)
	}
	subtractMean(cep, mask)
	m := l.m
	if nc != nil {
		m = nc.m
		l.m.normalizeSpreadTo(cep, mask, m.spreadOf())
	} else {
		l.m.normalizeSpread(cep, mask)
	}
	acc := m.newAccumulator()
	for t := range cep {
		if !mask[t] {
			continue
		}
		if t%500 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		acc.frame(&cep[t])
	}
	p := &embedParts{frames: n, snr: est.snr, tau: priorWeight(n, est.snr)}
	var st, sd mllrStats
	static := func(tau float64) []float64 {
		if nc != nil {
			return m.jointRaw(l.m, acc, nc.jac, tau)
		}
		return l.m.embedRaw(&st, tau)
	}
	if nc == nil {
		acc.flush(&st)
	}
	p.static = static(p.tau)
	dacc := l.m.delta.newAccumulator()
	for i, d := range deltas(cep, mask) {
		if i%500 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		dacc.frame(&d)
	}
	dacc.flush(&sd)
	p.delta = l.m.delta.embedRaw(&sd, p.tau)
	for _, f := range extraTau {
		t := f(n, est.snr, p.tau)
		p.extra = append(p.extra, [2][]float64{static(t), l.m.delta.embedRaw(&sd, t)})
	}
	p.vf = voicedFrames(s, mask)
	idx := make([]int, len(p.vf))
	for i, f := range p.vf {
		idx[i] = f.Frame
	}
	p.formants = frameFormants(s, inRate, idx)
	return p, nil
}

// fuseParts returns the embedding of p (see fuse).
func (m *mllrModel) fuseParts(p *embedParts) []float64 {
	sh := sharesFor(p.frames, len(thirdFormants(p.formants)), p.snr)
	return m.fuse(p.static, p.delta, pitchEncoding(logF0(p.vf)), formantEncoding(p.formants), sh)
}

// normalizeSpread scales all cepstra of the utterance by one factor, so
// that c1..c12 over the speech frames spread as widely as the background
// model's means and variances do (its global standard deviations). Additive
// noise fills the spectral valleys and shrinks the spread of the cepstra;
// without this, the transform's diagonal mostly measured that shrinkage.
// One factor for all dimensions keeps their relative spread, which
// describes the voice. (Measured: white noise at 20 dB SNR on one side of
// every trial raised the EER on trials-more.txt from 6 to 20 % without it and to 16 % with
// it, at the cost of 0.5 points on clean trials-more.txt; per-dimension
// variance normalisation was worse on clean speech.)
func (m *mllrModel) normalizeSpread(cep [][nCep]float64, mask []bool) {
	var want float64
	for i := 1; i < nCep; i++ {
		want += m.gsd[i] * m.gsd[i]
	}
	m.normalizeSpreadTo(cep, mask, want)
}

// normalizeSpreadTo scales the cepstra so that Σ_{i≥1} of their variance
// over the speech frames is want.
func (m *mllrModel) normalizeSpreadTo(cep [][nCep]float64, mask []bool, want float64) {
	var got float64
	n := 0
	for t := range cep {
		if mask[t] {
			for i := 1; i < nCep; i++ {
				got += cep[t][i] * cep[t][i]
			}
			n++
		}
	}
	if n == 0 || got == 0 {
		return
	}
	f := math.Sqrt(want * float64(n) / got)
	for t := range cep {
		for i := range nCep {
			cep[t][i] *= f
		}
	}
}
