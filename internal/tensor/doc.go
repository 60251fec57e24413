// Package tensor holds the numeric kernels shared by Sotto's pure-Go model
// engines (the language-model engine in llm, later the Whisper engine):
// float32 vector operations, GGML-compatible quantized weight blocks, and
// matrix-vector products split across a persistent pool of goroutines.
//
// A typical decode step quantizes its activation once and multiplies it by
// every weight matrix that reads it:
//
//	import "github.com/sottolabs/sotto/internal/tensor"
//
//	pool := tensor.NewPool(0) // GOMAXPROCS goroutines
//	defer pool.Close()
//	rows, cols := 512, 1024
//	data := make([]byte, rows*cols/256*144) // rows of Q4_K blocks, e.g. from a GGUF file
//	w, err := tensor.NewMatrix(tensor.Q4_K, rows, cols, data)
//	if err != nil { ... }
//	x, out := make([]float32, cols), make([]float32, rows)
//	var act tensor.Activation
//	act.Set(x)
//	pool.MatVec(out, w, &act)
//
// # Weight types
//
// [DType] numbers follow GGML's type enumeration so that GGUF tensor types
// map one to one. The block layouts of [Q8_0], [Q4_0], [Q4_K], [Q5_K] and
// [Q6_K] are GGML's (learned from ggml's documentation and headers; the code
// here is written independently). Quantized weights are multiplied with
// activations quantized to 8 bits in blocks of 32 ([Activation]) with integer
// inner loops, as GGML does; float weights (F32, F16, BF16) are multiplied
// with the float32 activation.
//
// # Matrix × matrix
//
// Work with many activation vectors at once (the Whisper encoder's 1500
// positions) multiplies float weights with [Pool.MatMulF] and plain
// float32 matrices with [MulF32]: panels of four weight rows, converted to
// float32 once per product, times two activations per step, so that every
// value loaded serves several sums. [SoftmaxF16] is the softmax of
// attention with half-precision probabilities, as whisper.cpp computes it.
//
// # SIMD
//
// Built with GOEXPERIMENT=simd on amd64, the kernels use the experimental
// simd/archsimd package (AVX2 and FMA, checked at run time, and AVX-512 for
// some prompt-batch kernels where present). Every other build uses portable
// Go loops with the same results up to float rounding. [Kernels] reports
// which set is active; the tests run over both. Within one set, a batched
// product ([Pool.MatMul]) gives exactly the results of one row at a time.
//
// # Assembly
//
// On amd64 (unless built with -tags purego), CPUs with AVX512-VNNI take
// Q8_0 and Q4_K products in assembly in either build (gemm_q8vnni_amd64.s,
// matvec_vnni_amd64.s, gemm_q4kvnni_amd64.s), with a prompt batch still
// equal to the matrix-vector products of generation; CPUs with AVX-512 take
// [SwiGLU] (a float32 polynomial exponential, within 4e-7 relative of the
// float64 formula) and, with the SIMD set, the activation quantization of
// [Activation.Set] (bit-identical) in assembly.
//
// # Weights in memory
//
// A matrix-vector product reads every weight once, so for large models the
// speed of generation depends on how the weights reach the core.
// [CopyToMemory] moves matrices out of a memory-mapped file into one block
// backed by transparent huge pages (Linux), which saves most of the
// address-translation misses of 4 KiB file pages; [ReleaseMapped] then
// drops the file's copies from the resident set.
//
// # Concurrency and misuse
//
// The functions here are kernels: they panic on mismatched lengths, as
// slices do on bad indexes. A [Pool] serves one caller at a time.
package tensor
