package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend/onnx"
)

// --onnx-model selects the WeSpeaker driver; a build without ONNX Runtime
// says so instead of falling back to the pure-Go model.
func TestONNXModelFlag(t *testing.T) {
	if onnx.Available() {
		t.Skip("this build has ONNX Runtime (the speaker package tests the driver)")
	}
	err := run(context.Background(), []string{"--onnx-model", "/nonexistent/w.onnx", "embed", "x.wav"}, nil, &bytes.Buffer{}, &bytes.Buffer{})
	if !errors.Is(err, sotto.ErrNotImplemented) || !strings.Contains(err.Error(), "ONNX Runtime") {
		t.Errorf("--onnx-model without ONNX Runtime: %v; want 501 naming ONNX Runtime", err)
	}
	var help bytes.Buffer
	run(context.Background(), []string{"--help"}, nil, &help, &bytes.Buffer{})
	if !strings.Contains(help.String(), "--onnx-model") {
		t.Error("--help does not list --onnx-model")
	}
}
