package tts

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/backend/onnx"
)

// TestListVoicesPiper: a piper model's voices come from its config; the
// .onnx file here is not a network at all, so a listing that loaded it
// would fail. A multi-speaker config gives one voice a speaker. Without
// ONNX Runtime the listing fails as Open does (the model cannot run).
func TestListVoicesPiper(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "tiny.onnx")
	if err := os.WriteFile(model, []byte("not an ONNX model"), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := testPiperConfig()
	b, _ := json.Marshal(conf)
	if err := os.WriteFile(model+".json", b, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := backend.Config{Options: map[string]string{OptPiperModel: model}}
	vs, err := ListVoices(context.Background(), "piper", cfg)
	if !onnx.Available() {
		if !errors.Is(err, sotto.ErrNotImplemented) {
			t.Errorf("ListVoices without ONNX Runtime = %v, %v; want 501 capability_unavailable", vs, err)
		}
		return
	}
	want := []Voice{{ID: "builtin:tiny", Name: "tiny", Languages: []string{"en-US"}, SampleRate: 22050, Controls: []string{"speed"}, Default: true}}
	if err != nil || !reflect.DeepEqual(vs, want) {
		t.Errorf("ListVoices = %+v, %v; want %+v", vs, err, want)
	}

	conf["num_speakers"] = 2
	conf["speaker_id_map"] = map[string]int{"zoe": 0, "adam": 1}
	b, _ = json.Marshal(conf)
	if err := os.WriteFile(model+".json", b, 0o644); err != nil {
		t.Fatal(err)
	}
	vs, err = ListVoices(context.Background(), "piper", cfg)
	if err != nil || len(vs) != 2 || vs[0].ID != "builtin:tiny-adam" || !vs[0].Default || vs[1].ID != "builtin:tiny-zoe" || vs[1].Default {
		t.Errorf("multi-speaker ListVoices = %+v, %v; want adam (default) and zoe", vs, err)
	}
	if _, err := ListVoices(context.Background(), "piper", backend.Config{Options: map[string]string{OptPiperModel: filepath.Join(dir, "gone.onnx")}}); err == nil {
		t.Error("ListVoices of a model without its config succeeded")
	}
}

// TestListVoicesProgram: the voices of a program-run driver are those its
// opened backend lists.
func TestListVoicesProgram(t *testing.T) {
	for _, name := range []string{"flite", "espeak-ng"} {
		if _, err := exec.LookPath(name); err != nil {
			t.Logf("%s is not installed", name)
			continue
		}
		b, err := Open(context.Background(), name, backend.Config{})
		if err != nil {
			t.Fatal(err)
		}
		want := b.(Lister).Voices()
		b.Close()
		got, err := ListVoices(context.Background(), name, backend.Config{})
		if err != nil || len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("ListVoices(%s) = %d voices, %v; want the %d of the opened driver", name, len(got), err, len(want))
		}
	}
	if _, err := ListVoices(context.Background(), "flite", backend.Config{Options: map[string]string{"program": "/nonexistent/flite"}}); err == nil {
		t.Error("ListVoices with a missing program succeeded")
	}
}
