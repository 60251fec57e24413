package speaker

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/backend/onnx/onnxtest"
)

// peerDir, when set, makes TestFbankPeerInputs write the signal and the
// tiny model that speaker/testdata/fbank/record.sh feeds to the peer.
var peerDir = flag.String("fbank-peer-dir", "", "write the fbank peer recording's inputs to `DIR`")

// sherpaFbank is the front end sherpa-onnx gives WeSpeaker models: Kaldi's
// povey window, frames centred with mirrored edges, mel bins up to 400 Hz
// below Nyquist (kaldi-native-fbank's options as sherpa-onnx sets them).
var sherpaFbank = FbankConfig{SampleRate: 16000, Bins: 80, FrameLengthMs: 25, FrameShiftMs: 10,
	Window: "povey", PreEmphasis: 0.97, LowFreq: 20, HighFreq: -400, SnipEdges: false, Scale: 32768}

// peerSignal is the test signal of the peer recording: 0.5 s at 16 kHz of
// two gliding tones, a click train and seeded noise, in [-1, 1].
func peerSignal() []float32 {
	r := rand.New(rand.NewPCG(7, 11))
	x := make([]float32, 8000)
	for i := range x {
		t := float64(i) / 16000
		v := 0.3*math.Sin(2*math.Pi*(200*t+400*t*t)) + 0.2*math.Sin(2*math.Pi*(3000*t-1500*t*t))
		if i%160 == 0 {
			v += 0.3
		}
		x[i] = float32(v + 0.05*r.NormFloat64())
	}
	return x
}

// peerFrames is how many frames the peer's tiny model returns.
const peerFrames = 50

// flattenModel is a model with a WeSpeaker model's input and output that
// returns its input features: feats [1, T, 80] → the first n frames,
// flattened, as "embs" [1, n·80]. The metadata is what sherpa-onnx needs to
// accept it as a WeSpeaker model; it leaves the features unnormalised.
func flattenModel(n int) []byte {
	var g onnxtest.Graph
	g.Input("feats", onnxtest.Float, 1, onnxtest.Dynamic("T"), 80)
	g.InitInt64("starts", []int64{1}, []int64{0})
	g.InitInt64("ends", []int64{1}, []int64{int64(n)})
	g.InitInt64("axes", []int64{1}, []int64{1})
	g.InitInt64("shape", []int64{2}, []int64{1, int64(n * 80)})
	g.Node("Slice", []string{"feats", "starts", "ends", "axes"}, "first")
	g.Node("Reshape", []string{"first", "shape"}, "embs")
	g.Output("embs", onnxtest.Float, 1, n*80)
	return g.Model(13, map[string]string{"framework": "wespeaker", "sample_rate": "16000",
		"normalize_samples": "0", "output_dim": itoa(n * 80), "language": "English"})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestFbankPeerInputs(t *testing.T) {
	if *peerDir == "" {
		t.Skip("only with -fbank-peer-dir (speaker/testdata/fbank/record.sh)")
	}
	var raw []byte
	for _, v := range peerSignal() {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
	}
	if err := os.WriteFile(filepath.Join(*peerDir, "signal.f32"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*peerDir, "flatten.onnx"), flattenModel(peerFrames), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The filterbank equals kaldi-native-fbank's (through sherpa-onnx, whose
// WeSpeaker front end it is) on the peer signal: every frame, edges
// included, within 1e-3 in the log domain (the peer computes in float32).
func TestFbankMatchesKaldiNativeFbank(t *testing.T) {
	b, err := os.ReadFile("testdata/fbank/sherpa-onnx.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Frames int       `json:"frames"`
		Bins   int       `json:"bins"`
		Values []float32 `json:"values"`
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	fb, err := NewFbank(sherpaFbank)
	if err != nil {
		t.Fatal(err)
	}
	got := fb.Compute(peerSignal())
	if len(got) < golden.Frames || golden.Bins != 80 || len(golden.Values) != golden.Frames*80 {
		t.Fatalf("%d frames; golden %d×%d (%d values)", len(got), golden.Frames, golden.Bins, len(golden.Values))
	}
	var worst float64
	for f := range golden.Frames {
		for k := range 80 {
			d := math.Abs(float64(got[f][k] - golden.Values[f*80+k]))
			if d > worst {
				worst = d
			}
			if d > 1e-3 {
				t.Fatalf("frame %d bin %d: %g, kaldi-native-fbank %g", f, k, got[f][k], golden.Values[f*80+k])
			}
		}
	}
	t.Logf("largest difference %.2g over %d frames", worst, golden.Frames)
}

func TestFbankFrames(t *testing.T) {
	snip, _ := NewFbank(WeSpeakerFbank)
	centred, _ := NewFbank(sherpaFbank)
	for _, tc := range []struct{ n, snip, centred int }{
		{0, 0, 0}, {399, 0, 2}, {400, 1, 3}, {559, 1, 3}, {560, 2, 4}, {16000, 98, 100},
	} {
		if got := snip.Frames(tc.n); got != tc.snip {
			t.Errorf("snip edges, %d samples: %d frames; want %d", tc.n, got, tc.snip)
		}
		if got := centred.Frames(tc.n); got != tc.centred {
			t.Errorf("centred, %d samples: %d frames; want %d", tc.n, got, tc.centred)
		}
		if got := len(snip.Compute(make([]float32, tc.n))); got != tc.snip {
			t.Errorf("Compute(%d samples) gave %d frames; want %d", tc.n, got, tc.snip)
		}
	}
	// Silence is the floor: log of float32 epsilon in every bin.
	for _, row := range snip.Compute(make([]float32, 800)) {
		for _, v := range row {
			if math.Abs(float64(v)-math.Log(epsilon32)) > 1e-6 {
				t.Fatalf("silence gives %g; want log(eps) %g", v, math.Log(epsilon32))
			}
		}
	}
}

// A tone lights the mel bin that holds its frequency.
func TestFbankTone(t *testing.T) {
	fb, _ := NewFbank(WeSpeakerFbank)
	x := make([]float32, 16000)
	for i := range x {
		x[i] = float32(0.5 * math.Sin(2*math.Pi*1000*float64(i)/16000))
	}
	rows := fb.Compute(x)
	mel := func(hz float64) float64 { return 1127 * math.Log(1+hz/700) }
	lo, hi := mel(20), mel(8000)
	want := int(math.Round((mel(1000)-lo)/((hi-lo)/81))) - 1
	best := 0
	for k, v := range rows[50] {
		if v > rows[50][best] {
			best = k
		}
	}
	if best < want-1 || best > want+1 {
		t.Errorf("1 kHz tone peaks in bin %d; want about %d", best, want)
	}
}

func TestFbankConfigErrors(t *testing.T) {
	for _, c := range []FbankConfig{
		{},
		{SampleRate: 16000, Bins: 80, FrameLengthMs: 25, FrameShiftMs: 10, Window: "kaiser"},
		{SampleRate: 16000, Bins: 80, FrameLengthMs: 25, FrameShiftMs: 10, Window: "povey", LowFreq: 9000},
		{SampleRate: 16000, Bins: 400, FrameLengthMs: 25, FrameShiftMs: 10, Window: "povey"},
	} {
		if _, err := NewFbank(c); err == nil {
			t.Errorf("NewFbank(%+v) accepted it", c)
		}
	}
}

func TestSubtractMean(t *testing.T) {
	f := [][]float32{{1, 10}, {3, 20}}
	SubtractMean(f)
	if f[0][0] != -1 || f[1][0] != 1 || f[0][1] != -5 || f[1][1] != 5 {
		t.Errorf("SubtractMean = %v", f)
	}
	SubtractMean(nil)
}
