//go:build goexperiment.simd && amd64 && !purego

package tensor

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Q8_0 prompt kernels in assembly for CPUs with AVX512-VNNI, whose
// VPDPBUSD multiplies 64 unsigned bytes by 64 signed ones and adds each
// group of four products to a 32-bit lane in one instruction (the
// archsimd tile needs VPMADDUBSW, VPMADDWD and a blend for the signs).
// The operands are unsigned on one side, so the decoded row holds each
// weight plus 128 (the weight with its top bit flipped) and the prepared
// activation the correction: each lane starts at −128 times the sum of
// its four activation values, and after VPDPBUSD holds Σ w·a exactly.
//
// The assembly keeps sixteen accumulators (four rows by four tokens) in
// registers Z0–Z15 and the four rows' weights and scales in Z16–Z23: Go
// code is limited to sixteen vector registers, assembly has all 32. Per
// pair of blocks and row-token pair the kernel runs VPDPBUSD, a
// conversion, the product of the two scales and a multiply-add, in the
// order of dot2x2Q8_0AVX512, and reduces the accumulators as it does:
// the integer sums are the same, so the results are identical and prompt
// batches still agree with the matrix-vector products of generation.
//
// Q4_K prompt batches: two rows decoded by decQ4_KMinAVX512 (their
// quants, scale operands and mins, eight 512-bit registers per row) times
// four activations per super-block, VPMADDUBSW per 64 values and VPDPWSSD
// multiplying by the sub-block scales and adding in one instruction, then
// dotDecQ4_KMinAVX512's float operations in its order: the same results.

// prepQ8_0VPair is the prepared activation's size per pair of blocks: its
// 64 values, its scales in 16 lanes and 16 lanes of bias.
const prepQ8_0VPair = 192

// hasVNNI reports whether the CPU and the operating system support the
// AVX-512 instructions the kernels use.
var hasVNNI = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL &&
	cpu.X86.HasAVX512VNNI && cpu.X86.HasAVX512DQ

// The VNNI kernels join the AVX-512 tiles (simdTiles) where the CPU has
// them.
func init() { simdTiles = withVNNI(simdTiles) }

// withVNNI returns t with the VNNI prompt kernels added where the CPU has
// them (t itself otherwise).
func withVNNI(t *qTiles) *qTiles {
	if t == nil || !hasVNNI {
		return t
	}
	v := *t
	v.decQ8_0V = decQ8_0VNNI
	v.prepQ8_0V = prepQ8_0VNNI
	v.prepQ8_0VLen = func(cols int) int { return cols / 64 * prepQ8_0VPair }
	v.dot4x4Q8_0V = dot4x4Q8_0VNNI
	v.prepQ4_KV = prepQ4_KVNNI
	v.prepQ4_KVLen = func(cols int) int { return cols / qkK * prepQ4_KVSB }
	v.dot2x4Q4_KV = dot2x4Q4_KVNNI
	v.vec8Q8_0V = vec8Q8_0VNNI // matvec_vnni_amd64.go
	return &v
}

//go:noescape
func decQ8_0VNNIAsm(w, dst unsafe.Pointer, np int)

//go:noescape
func prepQ8_0VNNIAsm(q, d, dst unsafe.Pointer, np int)

//go:noescape
func dot2x4Q4_KVNNIAsm(rows *[2]unsafe.Pointer, toks *[4]unsafe.Pointer, nsb int, out *[8][8]float32)

//go:noescape
func dot4x4Q8_0VNNIAsm(rows, toks *[4]unsafe.Pointer, np int, out *[16][4]float32)

// decQ8_0VNNI decodes a Q8_0 row of a multiple of 64 values into
// decQ8_0Len bytes: per pair of blocks, the 64 weights plus 128 as
// unsigned bytes and each block's scale in 8 float lanes.
func decQ8_0VNNI(w, dst []byte) {
	np := len(w) / (2 * q80Len)
	if np == 0 {
		return
	}
	_, _ = w[np*2*q80Len-1], dst[np*decQ8_0Pair-1]
	decQ8_0VNNIAsm(unsafe.Pointer(&w[0]), unsafe.Pointer(&dst[0]), np)
}

// prepQ8_0VNNI writes, per pair of blocks of a, its 64 quantized values,
// each block's scale in 8 lanes and, per group of four values, −128 times
// their sum (prepQ8_0VPair bytes per pair).
func prepQ8_0VNNI(a *Activation, dst []byte) {
	np := len(a.D) / 2
	if np == 0 {
		return
	}
	_, _, _ = a.Q[np*64-1], a.D[2*np-1], dst[np*prepQ8_0VPair-1]
	prepQ8_0VNNIAsm(unsafe.Pointer(&a.Q[0]), unsafe.Pointer(&a.D[0]), unsafe.Pointer(&dst[0]), np)
}

// dot4x4Q8_0VNNI multiplies four decoded rows (decQ8_0VNNI) by four
// prepared activations (prepQ8_0VNNI): out[4r+t] is row r times
// activation t. The rows and activations must all have the same length.
func dot4x4Q8_0VNNI(d, x *[4][]byte, out *[16]float32) {
	np := len(d[0]) / decQ8_0Pair
	if np == 0 {
		*out = [16]float32{}
		return
	}
	var rp, tp [4]unsafe.Pointer
	var s [16][4]float32
	for k := range 4 {
		_, _ = d[k][np*decQ8_0Pair-1], x[k][np*prepQ8_0VPair-1]
		rp[k], tp[k] = unsafe.Pointer(&d[k][0]), unsafe.Pointer(&x[k][0])
	}
	dot4x4Q8_0VNNIAsm(&rp, &tp, np, &s)
	for k := range out {
		out[k] = (s[k][0] + s[k][1]) + (s[k][2] + s[k][3])
	}
}

// prepQ4_KVSB is the size of a prepared activation per Q4_K super-block
// (prepQ4_KVNNI).
const prepQ4_KVSB = 320

// prepQ4_KVNNI writes, per super-block of a, its 256-value quantization
// (a.QK), the factors of the mins' term dk·Σq per 32 values (those of
// prepQ4_KAVX512) and dk in 8 lanes: prepQ4_KVSB bytes.
func prepQ4_KVNNI(a *Activation, dst []byte) {
	nsb := len(a.DK)
	if nsb == 0 {
		return
	}
	_, _, _ = a.QK[nsb*qkK-1], a.SK[nsb*8-1], dst[nsb*prepQ4_KVSB-1]
	for i, dk := range a.DK[:nsb] {
		o := dst[i*prepQ4_KVSB : (i+1)*prepQ4_KVSB]
		copy(o, int8Bytes(a.QK[i*qkK:(i+1)*qkK]))
		f := (*[16]float32)(unsafe.Pointer(&o[256]))
		for j := range 8 {
			f[j] = float32(a.SK[8*i+j]) * dk
			f[8+j] = dk
		}
	}
}

// dot2x4Q4_KVNNI multiplies two rows decoded by decQ4_KMinAVX512 (d[0],
// d[1]) by four activations prepared by prepQ4_KVNNI: out[4r+t] is row r
// times activation t, equal to dotDecQ4_KMinAVX512's result (the same
// integer sums, the same float operations in the same order).
func dot2x4Q4_KVNNI(d, x *[4][]byte, out *[8]float32) {
	nsb := len(d[0]) / decQ4_KSB
	if nsb == 0 {
		*out = [8]float32{}
		return
	}
	var rp [2]unsafe.Pointer
	var tp [4]unsafe.Pointer
	var s [8][8]float32
	for k := range 2 {
		_ = d[k][nsb*decQ4_KSB-1]
		rp[k] = unsafe.Pointer(&d[k][0])
	}
	for k := range 4 {
		_ = x[k][nsb*prepQ4_KVSB-1]
		tp[k] = unsafe.Pointer(&x[k][0])
	}
	dot2x4Q4_KVNNIAsm(&rp, &tp, nsb, &s)
	for k, v := range s {
		a0, a1, a2, a3 := v[0]+v[4], v[1]+v[5], v[2]+v[6], v[3]+v[7]
		out[k] = (a0 + a1) + (a2 + a3)
	}
}
