//go:build !(goexperiment.simd && amd64)

package tensor

// simdTiles is the SIMD tile kernel set (gemm_q.go), nil in builds without it.
var simdTiles *qTiles
