package tts

import (
	"context"
	"encoding/binary"
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
	varint := func(b []byte, v uint64) []byte {
		for v >= 0x80 {
			b = append(b, byte(v)|0x80)
			v >>= 7
		}
		return append(b, byte(v))
	}
	field := func(b []byte, num int, payload []byte) []byte {
		b = varint(b, uint64(num)<<3|2)
		b = varint(b, uint64(len(payload)))
		return append(b, payload...)
	}
	intField := func(b []byte, num int, v uint64) []byte { return varint(varint(b, uint64(num)<<3), v) }
	str := func(s string) []byte { return []byte(s) }
	valueInfo := func(name string, elem uint64, dims ...string) []byte {
		var shape []byte
		for _, d := range dims {
			var dim []byte
			if d == "N" {
				dim = field(nil, 2, str("N")) // dim_param
			} else {
				dim = intField(nil, 1, uint64(len(d))) // dim_value given as a length: "x" = 1, "xxx" = 3
			}
			shape = field(shape, 1, dim)
		}
		tensor := intField(nil, 1, elem)
		tensor = field(tensor, 2, shape)
		return field(field(nil, 1, str(name)), 2, field(nil, 1, tensor))
	}
	node := func(op string, in []string, out string, attrs ...[]byte) []byte {
		var n []byte
		for _, i := range in {
			n = field(n, 1, str(i))
		}
		n = field(n, 2, str(out))
		n = field(n, 4, str(op))
		for _, a := range attrs {
			n = field(n, 5, a)
		}
		return n
	}
	castTo := intField(field(nil, 1, str("to")), 3, 1) // to = FLOAT
	castTo = intField(castTo, 20, 2)                   // type = INT
	var shapeData []byte                               // int64 [4] = {1, 1, 1, -1}
	for _, v := range []int64{1, 1, 1, -1} {
		shapeData = binary.LittleEndian.AppendUint64(shapeData, uint64(v))
	}
	shapeInit := intField(nil, 1, 4)              // dims
	shapeInit = intField(shapeInit, 2, 7)         // data_type INT64
	shapeInit = field(shapeInit, 8, str("shape")) // name
	shapeInit = field(shapeInit, 9, shapeData)    // raw_data
	scale := binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.001))
	scaleInit := intField(nil, 2, 1) // data_type FLOAT (scalar)
	scaleInit = field(scaleInit, 8, str("k"))
	scaleInit = field(scaleInit, 9, scale)
	graph := field(nil, 1, node("Cast", []string{"input"}, "f", castTo))
	graph = field(graph, 1, node("Mul", []string{"f", "k"}, "g"))
	graph = field(graph, 1, node("Reshape", []string{"g", "shape"}, "output"))
	graph = field(graph, 2, str("tiny_piper"))
	graph = field(graph, 5, shapeInit)
	graph = field(graph, 5, scaleInit)
	graph = field(graph, 11, valueInfo("input", 7, "x", "N"))
	graph = field(graph, 11, valueInfo("input_lengths", 7, "x"))
	graph = field(graph, 11, valueInfo("scales", 1, "xxx"))
	graph = field(graph, 12, valueInfo("output", 1, "x", "x", "x", "N"))
	opset := intField(field(nil, 1, nil), 2, 13)
	model := intField(nil, 1, 8)
	model = field(model, 7, graph)
	return field(model, 8, opset)
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
