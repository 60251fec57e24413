package loaders

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend/onnx"
	"github.com/sottolabs/sotto/backend/onnx/onnxtest"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/speaker"
)

// The ONNX model loaders resolve the files their options name; without ONNX
// Runtime they answer 501 capability_unavailable, with it they open.
func TestONNXLoaders(t *testing.T) {
	dir := t.TempDir()
	var g onnxtest.Graph
	g.Input("feats", onnxtest.Float, 1, onnxtest.Dynamic("T"), 80)
	g.Node("ReduceMax", []string{"feats"}, "embs", onnxtest.AttrInts("axes", 1), onnxtest.AttrInt("keepdims", 0))
	g.Output("embs", onnxtest.Float, 1, 80)
	model := filepath.Join(dir, "m.onnx")
	if err := os.WriteFile(model, g.Model(13, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	spec := func(backend string, opts map[string]string, paths map[string]string) models.LoadSpec {
		return models.LoadSpec{Entry: models.Entry{ID: "Test/x", Backend: backend, Options: opts}, Paths: paths}
	}
	// A file the options name but the store does not hold.
	_, err := WeSpeaker(ctx, spec("wespeaker", map[string]string{"model": "m.onnx"}, nil))
	if err == nil || !strings.Contains(err.Error(), `"m.onnx"`) {
		t.Errorf("missing file: %v; want an error naming it", err)
	}
	_, err = Piper(ctx, spec("piper", map[string]string{"model": "v.onnx", "config": "v.onnx.json"}, map[string]string{"v.onnx": model}))
	if err == nil || !strings.Contains(err.Error(), `"v.onnx.json"`) {
		t.Errorf("missing config: %v; want an error naming it", err)
	}
	obj, err := WeSpeaker(ctx, spec("wespeaker", map[string]string{"model": "m.onnx"}, map[string]string{"m.onnx": model}))
	if !onnx.Available() {
		if !errors.Is(err, sotto.ErrNotImplemented) {
			t.Errorf("WeSpeaker without ONNX Runtime: %v; want 501", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Close()
	if _, ok := obj.(speaker.Backend); !ok {
		t.Errorf("WeSpeaker loader gave %T; want a speaker.Backend", obj)
	}
}
