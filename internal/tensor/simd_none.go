//go:build !(goexperiment.simd && amd64)

package tensor

// simdKernels is the SIMD kernel set, nil in builds without it.
var simdKernels *kernelSet
