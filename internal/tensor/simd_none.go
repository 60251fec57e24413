//go:build !(goexperiment.simd && amd64)

// Keep in sync with simd_amd64.go.

package tensor

// simdKernels is the SIMD kernel set, nil in builds without it.
var simdKernels *kernelSet
