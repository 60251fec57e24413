package onnx

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRun runs a real model through ONNX Runtime where this build has it,
// and checks the stub's error where it has not.
func TestRun(t *testing.T) {
	if !Available() {
		if err := Init(""); !errors.Is(err, ErrUnavailable) {
			t.Errorf("Init in a build without onnx = %v; want ErrUnavailable", err)
		}
		if _, err := NewSession(addModel(2), []string{"a", "b"}, []string{"y"}); !errors.Is(err, ErrUnavailable) {
			t.Errorf("NewSession = %v; want ErrUnavailable", err)
		}
		return
	}
	if FindLibrary("") == "" {
		t.Skipf("no ONNX Runtime library: set %s (make test-native fetches one)", LibraryEnv)
	}
	if err := Init(""); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(addModel(4), []string{"a", "b"}, []string{"y"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, err := s.Run(context.Background(), []Tensor{
		{Shape: []int64{4}, Data: []float32{1, 2, 3, 4}},
		{Shape: []int64{4}, Data: []float32{10, 20, 30, 40}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Tensor{{Shape: []int64{4}, Data: []float32{11, 22, 33, 44}}}
	if !cmp.Equal(out, want) {
		t.Errorf("Run = %v; want %v", out, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Run(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context = %v; want context.Canceled", err)
	}
	if _, err := NewSession([]byte("not a model"), []string{"a"}, []string{"y"}); err == nil {
		t.Error("NewSession accepted garbage")
	}
}
