//go:build !onnx || !cgo

// Keep in sync with onnx_ort.go: the same API, without ONNX Runtime.

package onnx

import "context"

// Available reports whether this build can run ONNX models.
func Available() bool { return false }

// Init would open the ONNX Runtime library; this build returns ErrUnavailable.
func Init(libPath string) error { return ErrUnavailable }

// Session is an ONNX model ready to run; this build cannot create one.
type Session struct{}

// NewSession returns ErrUnavailable in this build.
func NewSession(model []byte, inputs, outputs []string) (*Session, error) { return nil, ErrUnavailable }

// Run returns ErrUnavailable in this build.
func (s *Session) Run(ctx context.Context, in []Tensor) ([]Tensor, error) { return nil, ErrUnavailable }

// Close does nothing in this build.
func (s *Session) Close() error { return nil }
