package speaker

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/backend/onnx"
	"github.com/sottolabs/sotto/backend/onnx/onnxtest"
)

// tinyWeSpeaker writes a model with a WeSpeaker network's input and output
// whose embedding the test can compute by hand: the maximum of each
// filterbank bin over time, times a fixed 80×256 matrix w.
func tinyWeSpeaker(w []float32) []byte {
	var g onnxtest.Graph
	g.Input("feats", onnxtest.Float, 1, onnxtest.Dynamic("T"), 80)
	g.InitFloat("w", []int64{80, 256}, w)
	g.Node("ReduceMax", []string{"feats"}, "peak", onnxtest.AttrInts("axes", 1), onnxtest.AttrInt("keepdims", 0))
	g.Node("MatMul", []string{"peak", "w"}, "embs")
	g.Output("embs", onnxtest.Float, 1, 256)
	return g.Model(13, nil)
}

// burstSignal is 3 s of 16 kHz audio: bursts of a harmonic tone separated
// by near silence, so the speech gate has something to find.
func burstSignal() []float32 {
	r := rand.New(rand.NewPCG(3, 5))
	x := make([]float32, 48000)
	for i := range x {
		t := float64(i) / 16000
		v := 0.001 * r.NormFloat64()
		if t > 0.3 && t < 2.7 && math.Mod(t, 0.6) < 0.45 {
			for h := 1; h <= 5; h++ {
				v += 0.1 / float64(h) * math.Sin(2*math.Pi*float64(h)*(140+20*t)*t)
			}
		}
		x[i] = float32(v)
	}
	return x
}

func TestWeSpeakerWithoutRuntime(t *testing.T) {
	if onnx.Available() {
		t.Skip("this build has ONNX Runtime")
	}
	_, err := Open(context.Background(), "wespeaker", backend.Config{Options: map[string]string{OptModelFile: "x.onnx"}})
	if !errors.Is(err, sotto.ErrNotImplemented) {
		t.Errorf("Open without ONNX Runtime = %v; want 501 capability_unavailable", err)
	}
}

// The whole path on a tiny model: filterbank, speech gate, mean
// subtraction, the frames in time order into "feats", unit length out.
func TestWeSpeakerTinyModel(t *testing.T) {
	if !onnx.Available() {
		t.Skip("this build has no ONNX Runtime (make test-native runs it)")
	}
	r := rand.New(rand.NewPCG(1, 1))
	w := make([]float32, 80*256)
	for i := range w {
		w[i] = float32(r.NormFloat64())
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "tiny.onnx")
	if err := os.WriteFile(model, tinyWeSpeaker(w), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(context.Background(), "wespeaker", backend.Config{Options: map[string]string{OptModelFile: model}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	x := burstSignal()
	e, err := EmbedDetail(context.Background(), b, sotto.Audio{Samples: x, SampleRate: 16000})
	if err != nil {
		t.Fatal(err)
	}

	// The same computation by hand.
	fb, _ := NewFbank(WeSpeakerFbank)
	frames := fb.Compute(x)
	mask := fbankSpeech(frames)
	first, last, n := -1, -1, 0
	for i, s := range mask {
		if s {
			if first < 0 {
				first = i
			}
			last, n = i, n+1
		}
	}
	feats := frames[first : last+1]
	SubtractMean(feats)
	peak := make([]float64, 80)
	for k := range peak {
		peak[k] = math.Inf(-1)
		for _, f := range feats {
			peak[k] = max(peak[k], float64(f[k]))
		}
	}
	want := make([]float64, 256)
	var norm float64
	for j := range want {
		for k := range 80 {
			want[j] += peak[k] * float64(w[k*256+j])
		}
		norm += want[j] * want[j]
	}
	for j := range want {
		if d := math.Abs(want[j]/math.Sqrt(norm) - float64(e.Vector[j])); d > 1e-5 {
			t.Fatalf("embedding[%d] = %g; want %g", j, e.Vector[j], want[j]/math.Sqrt(norm))
		}
	}
	if math.Abs(e.SpeechSeconds-float64(n)/100) > 1e-9 || e.SpeechSeconds < 1.5 || e.SpeechSeconds > 2.2 || e.Method != MethodWeSpeaker {
		t.Errorf("speech %.2f s (%d frames), method %q", e.SpeechSeconds, n, e.Method)
	}

	// 8 kHz input is resampled; silence is too little speech.
	if _, err := b.Embed(context.Background(), sotto.Audio{Samples: make([]float32, 32000), SampleRate: 16000}); !isCode(err, CodeTooLittleSpeech) {
		t.Errorf("silence: %v; want %s", err, CodeTooLittleSpeech)
	}
	half := make([]float32, len(x)/2)
	for i := range half {
		half[i] = x[2*i]
	}
	if _, err := b.Embed(context.Background(), sotto.Audio{Samples: half, SampleRate: 8000}); err != nil {
		t.Errorf("8 kHz: %v", err)
	}

	// A model of another output size is refused with a reason.
	other := filepath.Join(dir, "flat.onnx")
	os.WriteFile(other, flattenModel(2), 0o644)
	b2, err := Open(context.Background(), "wespeaker", backend.Config{Options: map[string]string{OptModelFile: other}})
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	if _, err := b2.Embed(context.Background(), sotto.Audio{Samples: x, SampleRate: 16000}); err == nil || !strings.Contains(err.Error(), "256") {
		t.Errorf("160-number model: %v; want an error naming 256", err)
	}
}

func isCode(err error, code string) bool {
	var se *sotto.Error
	return errors.As(err, &se) && se.Code == code
}

func TestWeSpeakerOptions(t *testing.T) {
	for _, opts := range []map[string]string{{}, {OptModelFile: "m.onnx", OptFrontEnd: "mfcc"}} {
		_, err := Open(context.Background(), "wespeaker", backend.Config{Options: opts})
		if err == nil {
			t.Errorf("Open(%v) succeeded", opts)
		}
	}
}
