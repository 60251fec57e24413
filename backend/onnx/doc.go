// Package onnx runs ONNX models through ONNX Runtime, for the native
// backends of the capability packages (speaker embeddings, neural
// aligners, synthesis ...).
//
// It is compiled in only with cgo and the build tag onnx:
//
//	CGO_ENABLED=1 go build -tags onnx ./...
//
// Otherwise every function returns [ErrUnavailable], which names the fix.
// The ONNX Runtime shared library is opened at run time (dlopen), not
// linked: [Init] takes its path, or finds it through the SOTTO_ONNXRUNTIME_LIB
// environment variable or the usual install places. The library that the
// npm package onnxruntime-node ships (bin/napi-v6/linux/x64/libonnxruntime.so.1)
// works; `make test-native` fetches it with npm.
//
// # Use
//
//	if err := onnx.Init(""); err != nil { ... }
//	modelBytes, err := os.ReadFile("model.onnx")
//	if err != nil { ... }
//	s, err := onnx.NewSession(modelBytes, []string{"x"}, []string{"y"})
//	if err != nil { ... }
//	defer s.Close()
//	x := []float32{1, 2, 3, 4}
//	out, err := s.Run(ctx, []onnx.Tensor{{Shape: []int64{1, 4}, Data: x}})
//
// Cancelling ctx terminates a running inference (ONNX Runtime's run-options
// terminate flag, set from a context.AfterFunc).
package onnx
