package speaker

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"sync/atomic"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/backend/onnx"
)

// The "wespeaker" driver runs a WeSpeaker speaker-embedding network (the
// ResNet34 of the VoxCeleb recipe, 256 outputs) exported to ONNX: input
// "feats" [1, T, 80] log mel filterbank frames, output "embs" [1, 256]. It
// needs ONNX Runtime (build with CGO_ENABLED=1 -tags onnx); other builds
// answer 501 capability_unavailable.
//
// Front end: FbankConfig (WeSpeakerFbank by default, the recipe's own:
// Hamming window, edges snipped; OptFrontEnd "sherpa-onnx" selects the
// povey/centred variant sherpa-onnx uses), the frames from the first to the
// last speech frame (the same energy gate as the "go" driver, which also
// counts the speech seconds), each bin's mean subtracted, then the network,
// then unit length.
const (
	// OptModelFile is the path of the .onnx file.
	OptModelFile = "model"
	// OptFrontEnd selects the filterbank: "wespeaker" (default) or
	// "sherpa-onnx".
	OptFrontEnd = "frontend"
	// MethodWeSpeaker names the embedding space of this driver's
	// embeddings (with the model file's name appended).
	MethodWeSpeaker = "wespeaker-onnx"
)

func init() {
	Register(Driver{Name: "wespeaker", Priority: -1, Open: openWeSpeaker}) // never the default: it needs a model file
}

type weSpeaker struct {
	session *onnx.Session
	fbank   *Fbank
	method  string
	closed  atomic.Bool
}

var (
	_ Backend  = (*weSpeaker)(nil)
	_ Detailer = (*weSpeaker)(nil)
)

func openWeSpeaker(ctx context.Context, cfg backend.Config) (Backend, error) {
	if !onnx.Available() {
		return nil, sotto.NotImplemented("capability_unavailable", "speaker: WeSpeaker models need ONNX Runtime: %v", onnx.ErrUnavailable)
	}
	path := cfg.Options[OptModelFile]
	if path == "" {
		return nil, sotto.Invalid("model_not_configured", "model", "speaker: wespeaker: option %q (the .onnx file) is required", OptModelFile)
	}
	fc := WeSpeakerFbank
	switch cfg.Options[OptFrontEnd] {
	case "", "wespeaker":
	case "sherpa-onnx":
		fc.Window, fc.SnipEdges, fc.HighFreq = "povey", false, -400
	default:
		return nil, sotto.Invalid("invalid_option", OptFrontEnd, "speaker: wespeaker: front end %q is not wespeaker or sherpa-onnx", cfg.Options[OptFrontEnd])
	}
	fb, err := NewFbank(fc)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mb, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("speaker: wespeaker: %w", err)
	}
	s, err := onnx.NewSession(mb, []string{"feats"}, []string{"embs"})
	if err != nil {
		return nil, fmt.Errorf("speaker: wespeaker: %w", err)
	}
	return &weSpeaker{session: s, fbank: fb, method: MethodWeSpeaker}, nil
}

func (w *weSpeaker) Embed(ctx context.Context, a sotto.Audio) ([]float32, error) {
	e, err := w.EmbedDetail(ctx, a)
	if err != nil {
		return nil, err
	}
	return e.Vector, nil
}

func (w *weSpeaker) EmbedDetail(ctx context.Context, a sotto.Audio) (*Embedding, error) {
	if w.closed.Load() {
		return nil, fmt.Errorf("speaker: embed: backend closed")
	}
	s, err := samples16k(a)
	if err != nil {
		return nil, err
	}
	frames := w.fbank.Compute(s)
	mask := fbankSpeech(frames)
	first, last, n := -1, -1, 0
	for t, sp := range mask {
		if sp {
			if first < 0 {
				first = t
			}
			last = t
			n++
		}
	}
	shift := w.fbank.cfg.FrameShiftMs / 1000
	if float64(n)*shift < MinSpeech {
		return nil, sotto.Unsatisfiable(CodeTooLittleSpeech, "file",
			"the audio holds %.2f s of speech; a speaker embedding needs at least %.1f s", float64(n)*shift, MinSpeech)
	}
	feats := frames[first : last+1]
	SubtractMean(feats)
	bins := w.fbank.cfg.Bins
	flat := make([]float32, 0, len(feats)*bins)
	for _, r := range feats {
		flat = append(flat, r...)
	}
	out, err := w.session.Run(ctx, []onnx.Tensor{{Shape: []int64{1, int64(len(feats)), int64(bins)}, Data: flat}})
	if err != nil {
		return nil, fmt.Errorf("speaker: wespeaker: %w", err)
	}
	v := out[0].Data
	if len(v) != Dim {
		return nil, fmt.Errorf("speaker: wespeaker: the model gives %d numbers; Sotto's embeddings have %d (a 256-dimension WeSpeaker model is needed)", len(v), Dim)
	}
	var norm float64
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("speaker: wespeaker: the model gave a non-finite embedding")
		}
		norm += float64(x) * float64(x)
	}
	if norm == 0 {
		return nil, fmt.Errorf("speaker: wespeaker: the model gave a zero embedding")
	}
	vec := slices.Clone(v)
	k := float32(1 / math.Sqrt(norm))
	for i := range vec {
		vec[i] *= k
	}
	return &Embedding{Vector: vec, SpeechSeconds: float64(n) * shift, Method: w.method}, nil
}

func (w *weSpeaker) Close() error {
	if w.closed.Swap(true) {
		return nil
	}
	return w.session.Close()
}

// fbankSpeech marks the filterbank frames that hold speech, with the gate
// of the "go" driver: a frame's level (the mean of its log mel energies,
// in dB) within 30 dB of the recording's loud end (its 99th percentile)
// and at least 3 dB above its quiet end (the 5th percentile).
func fbankSpeech(frames [][]float32) []bool {
	if len(frames) == 0 {
		return nil
	}
	level := make([]float64, len(frames))
	for t, r := range frames {
		var s float64
		for _, v := range r {
			s += float64(v)
		}
		level[t] = s / float64(len(r)) * 10 / math.Ln10
	}
	sorted := slices.Clone(level)
	slices.Sort(sorted)
	thr := max(percentile(sorted, 99)-30, percentile(sorted, 5)+3)
	mask := make([]bool, len(frames))
	for t, l := range level {
		mask[t] = l > thr
	}
	return mask
}
