//go:build goexperiment.simd && amd64 && !purego

package tensor

func init() { f16BenchPeers["archsimd"] = dotF16AVX2 }
