package tts

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/backend/onnx"
	"github.com/sottolabs/sotto/backend/onnx/onnxtest"
)

// testPiperConfig is a Piper voice config with a small phoneme table.
func testPiperConfig() map[string]any {
	ids := map[string][]int64{"_": {0}, "^": {1}, "$": {2}, " ": {3}, ".": {4}, ",": {5}}
	for i, r := range []rune("abdefhiklmnoprstuvwzæðŋɑɔəɛɪʊʌˈˌːɹθʃʒ") {
		ids[string(r)] = []int64{int64(10 + i)}
	}
	return map[string]any{
		"audio":          map[string]any{"sample_rate": 22050},
		"espeak":         map[string]any{"voice": "en-us"},
		"inference":      map[string]any{"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8},
		"phoneme_type":   "espeak",
		"phoneme_id_map": ids,
		"num_speakers":   1,
		"language":       map[string]any{"code": "en_US"},
		"dataset":        "tiny",
	}
}

func TestPiperIDs(t *testing.T) {
	b, _ := json.Marshal(testPiperConfig())
	c, err := parsePiperConfig(b)
	if err != nil {
		t.Fatal(err)
	}
	// "^" "_" then each known phoneme and a pad, then "$"; unknown "Q" is skipped.
	got := c.ids("ab Q.")
	want := []int64{1, 0, 10, 0, 11, 0, 3, 0, 4, 0, 2}
	if !slices.Equal(got, want) {
		t.Errorf("ids = %v; want %v", got, want)
	}
	for _, bad := range []string{`{}`, `{"audio":{"sample_rate":22050},"espeak":{"voice":"en-us"}}`, `not json`,
		`{"audio":{"sample_rate":22050},"espeak":{"voice":"en-us"},"phoneme_type":"text","phoneme_id_map":{"_":[0],"^":[1],"$":[2]}}`} {
		if _, err := parsePiperConfig([]byte(bad)); err == nil {
			t.Errorf("parsePiperConfig(%s) accepted it", bad)
		}
	}
}

// tinyPiperModel writes an ONNX model with a Piper voice's inputs and
// output: input (int64 [1, N]), input_lengths (int64 [1]), scales (float
// [3]) → output (float [1, 1, 1, N]) = input × 0.001. The IDs come back as
// samples, so a test sees exactly what the model was given.
func tinyPiperModel() []byte {
	var g onnxtest.Graph
	g.InitInt64("shape", []int64{4}, []int64{1, 1, 1, -1})
	g.InitFloat("k", nil, []float32{0.001})
	g.Node("Cast", []string{"input"}, "f", onnxtest.AttrInt("to", onnxtest.Float))
	g.Node("Mul", []string{"f", "k"}, "g")
	g.Node("Reshape", []string{"g", "shape"}, "output")
	g.Input("input", onnxtest.Int64, 1, onnxtest.Dynamic("N"))
	g.Input("input_lengths", onnxtest.Int64, 1)
	g.Input("scales", onnxtest.Float, 3)
	g.Output("output", onnxtest.Float, 1, 1, 1, onnxtest.Dynamic("N"))
	return g.Model(13, nil)
}

func TestPiper(t *testing.T) {
	if !onnx.Available() {
		_, err := Open(context.Background(), "piper", backend.Config{Options: map[string]string{OptPiperModel: "x.onnx"}})
		if !errors.Is(err, sotto.ErrNotImplemented) {
			t.Errorf("Open without ONNX Runtime = %v; want 501 capability_unavailable", err)
		}
		t.Skip("this build has no ONNX Runtime (make test-native runs the rest)")
	}
	if onnx.FindLibrary("") == "" {
		t.Skipf("no ONNX Runtime library: set %s (make test-native fetches one)", onnx.LibraryEnv)
	}
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng is not installed")
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "tiny.onnx")
	conf, _ := json.Marshal(testPiperConfig())
	if err := os.WriteFile(model, tinyPiperModel(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(model+".json", conf, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(context.Background(), "piper", backend.Config{Options: map[string]string{OptPiperModel: model}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	v, ok := FindVoice(b, "")
	if !ok || v.ID != "builtin:tiny" || v.SampleRate != 22050 || v.Languages[0] != "en-US" {
		t.Fatalf("voice = %+v", v)
	}
	p := b.(*piper)
	ph, err := p.phonemes(context.Background(), "Hello, world.")
	if err != nil {
		t.Fatal(err)
	}
	var chunks []Chunk
	for c, err := range Stream(context.Background(), b, "Hello, world.", Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, c)
	}
	ids := p.cfg.ids(ph)
	if len(chunks) != 1 || chunks[0].Rate != 22050 || len(chunks[0].Samples) != len(ids) {
		t.Fatalf("chunks = %d, %d samples; want one of %d (the phoneme IDs of %q)", len(chunks), len(chunks[0].Samples), len(ids), ph)
	}
	for i, s := range chunks[0].Samples {
		if math.Abs(float64(s)-float64(ids[i])*0.001) > 1e-6 {
			t.Fatalf("sample %d = %v; want ID %d × 0.001", i, s, ids[i])
		}
	}
	if ph == "" || ph[len(ph)-1] != '.' {
		t.Errorf("phonemes %q; want the IPA of both words and the final stop", ph)
	}
}
