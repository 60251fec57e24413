//go:build onnx && cgo

// Keep in sync with onnx_stub.go.

package onnx

import (
	"context"
	"fmt"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// Available reports whether this build can run ONNX models.
func Available() bool { return true }

var initOnce struct {
	sync.Mutex
	done bool
	lib  string
}

// Init opens the ONNX Runtime shared library (see [FindLibrary]) and
// creates its environment. It may be called more than once; only the first
// successful call opens a library, and later calls with another path fail.
func Init(libPath string) error {
	initOnce.Lock()
	defer initOnce.Unlock()
	lib := FindLibrary(libPath)
	if initOnce.done {
		if libPath != "" && lib != initOnce.lib {
			return fmt.Errorf("onnx: already initialised with %s", initOnce.lib)
		}
		return nil
	}
	if lib == "" {
		return fmt.Errorf("onnx: no ONNX Runtime library found; set %s to libonnxruntime.so (npm pack onnxruntime-node ships one)", LibraryEnv)
	}
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(); err != nil {
		return fmt.Errorf("onnx: initialising ONNX Runtime from %s: %w", lib, err)
	}
	initOnce.done, initOnce.lib = true, lib
	return nil
}

// Session is an ONNX model ready to run. It is safe for concurrent use by
// multiple goroutines (ONNX Runtime sessions are).
type Session struct {
	s       *ort.DynamicAdvancedSession
	outputs int
}

// NewSession loads an ONNX model from its bytes with the named inputs and
// outputs. [Init] must have succeeded.
func NewSession(model []byte, inputs, outputs []string) (*Session, error) {
	if err := Init(""); err != nil {
		return nil, err
	}
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(model, inputs, outputs, nil)
	if err != nil {
		return nil, fmt.Errorf("onnx: loading model: %w", err)
	}
	return &Session{s: s, outputs: len(outputs)}, nil
}

// Run runs the model on in (one tensor per input, in order) and returns
// the outputs. Cancelling ctx terminates the run.
func (s *Session) Run(ctx context.Context, in []Tensor) ([]Tensor, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	values := make([]ort.Value, len(in))
	for i, t := range in {
		var v ort.Value
		var err error
		if t.Int64 != nil {
			v, err = ort.NewTensor(ort.NewShape(t.Shape...), t.Int64)
		} else {
			v, err = ort.NewTensor(ort.NewShape(t.Shape...), t.Data)
		}
		if err != nil {
			destroy(values[:i])
			return nil, fmt.Errorf("onnx: input %d: %w", i, err)
		}
		values[i] = v
	}
	defer destroy(values)
	outs := make([]ort.Value, s.outputs) // nil: allocated by the runtime
	opts, err := ort.NewRunOptions()
	if err != nil {
		return nil, fmt.Errorf("onnx: run options: %w", err)
	}
	defer opts.Destroy()
	stop := context.AfterFunc(ctx, func() { opts.Terminate() })
	err = s.s.RunWithOptions(values, outs, opts)
	stop()
	defer destroy(outs)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("onnx: run: %w", err)
	}
	res := make([]Tensor, len(outs))
	for i, o := range outs {
		t, ok := o.(*ort.Tensor[float32])
		if !ok {
			return nil, fmt.Errorf("onnx: output %d is %T, not a float32 tensor", i, o)
		}
		res[i] = Tensor{Shape: append([]int64(nil), t.GetShape()...), Data: append([]float32(nil), t.GetData()...)}
	}
	return res, nil
}

// Close releases the session.
func (s *Session) Close() error { return s.s.Destroy() }

func destroy(vs []ort.Value) {
	for _, v := range vs {
		if v != nil {
			v.Destroy()
		}
	}
}
