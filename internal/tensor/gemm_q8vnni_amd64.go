//go:build amd64 && !purego

package tensor

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Q8_0 kernels in assembly for CPUs with AVX512-VNNI, whose VPDPBUSD
// multiplies 64 unsigned bytes by 64 signed ones and adds each group of
// four products to a 32-bit lane in one instruction. The operands are
// unsigned on one side, so the weights are used plus 128 (the top bit
// flipped) and each block's integer sum starts from the activation's
// correction, −128 times the block's sum of values: after the last
// VPDPBUSD it holds Σ w·a exactly.
//
// Lane layout: 16 blocks (512 values, a "group") are transposed so that
// each 32-bit lane of eight 512-bit registers holds one block (register k:
// values 4k..4k+3; lane p: block beta(p) of the group, see q8VBeta). Eight
// VPDPBUSDs then give 16 whole block sums, and one conversion, one
// multiplication by the activation's 16 block scales and one multiply-add
// with the row's 16 scales serve 16 blocks: about 0.7 operations per block
// and row-activation pair, where the previous layout (two blocks per
// register) needed four per two blocks. Rows are transposed once per
// prompt batch (decQ8_0VNNI), activations once per product (prepQ8_0VNNI);
// generation transposes each row group as it reads it (matvec_vnni_amd64.go),
// with the same operations after the integer sums, so a matrix-vector
// product equals the batch's result for the same row and activation.
//
// The prompt kernel keeps sixteen float accumulators (four rows by four
// activations) in Z0–Z15 and eight integer ones in Z16–Z23 (two
// activations at a time): Go code is limited to sixteen vector registers,
// assembly has all 32. Each accumulator lane sums its block position over
// the groups; the macro RED16 adds the 16 lanes in a fixed order (in the
// matrix-vector kernel through reduce16Asm). A row whose
// block count is not a multiple of 16 is padded with zero blocks (zero
// weights, values and scales: they add exactly nothing).
//
// Q4_K prompt batches: two rows decoded by decQ4_KMinAVX512 (their
// quants, scale operands and mins, eight 512-bit registers per row) times
// four activations per super-block, VPMADDUBSW per 64 values and VPDPWSSD
// multiplying by the sub-block scales and adding in one instruction, then
// dotDecQ4_KMinAVX512's float operations in its order: the same results.
// They need the archsimd decoder, so they exist in the SIMD build only;
// where the kernels of gemm_q4kvnni_amd64.go run (qTiles.q4kw, both
// builds) those take every Q4_K product instead.

// Sizes per group of 16 Q8_0 blocks: a decoded row holds eight registers
// of weights plus 128 and the 16 scales; a prepared activation eight
// registers of values, the 16 scales and 16 lanes of correction.
const (
	q8VGroup       = 16
	decQ8_0VGroup  = 576
	prepQ8_0VGroup = 640
)

// q8VBeta maps a lane of the layout to its block within the group (the
// order the transposition in gemm_q8vnni_amd64.s produces).
var q8VBeta = [16]int{0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15}

// q8VGroups is the number of groups of a row of cols values (the last one
// padded).
func q8VGroups(cols int) int { return (cols/qk + q8VGroup - 1) / q8VGroup }

func decQ8_0VLen(cols int) int  { return q8VGroups(cols) * decQ8_0VGroup }
func prepQ8_0VLen(cols int) int { return q8VGroups(cols) * prepQ8_0VGroup }

// hasVNNI reports whether the CPU and the operating system support the
// AVX-512 instructions the kernels use.
var hasVNNI = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL &&
	cpu.X86.HasAVX512VNNI && cpu.X86.HasAVX512DQ

// The VNNI kernels are chosen here, once, in both builds. In the SIMD build
// (GOEXPERIMENT=simd) they join the AVX-512 tiles (simdTiles); in the
// default build they are the tiles of the portable set with the assembly
// F16 product, renamed "generic+f16c+vnni" (asmTiles): Q8_0 and Q4_K
// prompt batches and generation run in assembly there too. Elsewhere, and with -tags
// purego, products take the portable kernels.
func init() {
	if !hasVNNI {
		return
	}
	if simdKernels != nil {
		simdTiles = withVNNI(simdTiles)
		return
	}
	if f16cKernels != nil {
		f16cKernels.name += "+vnni"
		t := &qTiles{}
		if hasQ4_KW {
			t.q4kw = setupQ4_KW // gemm_q4kvnni_amd64.go, set on simdTiles there
		}
		asmTiles, asmSet = withVNNI(t), f16cKernels
	}
}

// withVNNI returns a copy of t with the VNNI kernels added (the Q4_K ones
// only where t has the archsimd Q4_K decoder they read).
func withVNNI(t *qTiles) *qTiles {
	if t == nil {
		return nil
	}
	v := *t
	v.decQ8_0V = decQ8_0VNNI
	v.decQ8_0VLen = decQ8_0VLen
	v.prepQ8_0V = prepQ8_0VNNI
	v.prepQ8_0VLen = prepQ8_0VLen
	v.dot4x4Q8_0V = dot4x4Q8_0VNNI
	v.vec8Q8_0V = vec8Q8_0VNNI // matvec_vnni_amd64.go
	if t.decQ4_K != nil && t.prepQ4_K != nil {
		v.prepQ4_KV = prepQ4_KVNNI
		v.prepQ4_KVLen = func(cols int) int { return cols / qkK * prepQ4_KVSB }
		v.dot2x4Q4_KV = dot2x4Q4_KVNNI
	}
	return &v
}

//go:noescape
func decQ8_0VNNIAsm(w, dst unsafe.Pointer, ng int)

//go:noescape
func prepQ8_0VNNIAsm(q, d, dst unsafe.Pointer, ng int)

//go:noescape
func dot2x4Q4_KVNNIAsm(rows *[2]unsafe.Pointer, toks *[4]unsafe.Pointer, nsb int, out *[8][8]float32)

//go:noescape
func dot4x4Q8_0VNNIAsm(rows, toks *[4]unsafe.Pointer, ng int, out *[16]float32)

//go:noescape
func reduce16Asm(acc unsafe.Pointer, n int, out unsafe.Pointer)

// decQ8_0VNNI decodes a Q8_0 row (whole blocks) into decQ8_0VLen bytes:
// per group of 16 blocks the weights plus 128 in the lane layout and the
// blocks' scales as float32 in lane order; a last partial group is padded
// with zero blocks.
func decQ8_0VNNI(w, dst []byte) {
	nb := len(w) / q80Len
	ng := nb / q8VGroup
	if ng > 0 {
		_, _ = w[ng*q8VGroup*q80Len-1], dst[ng*decQ8_0VGroup-1]
		decQ8_0VNNIAsm(unsafe.Pointer(&w[0]), unsafe.Pointer(&dst[0]), ng)
	}
	if nb > ng*q8VGroup {
		var pad [q8VGroup * q80Len]byte
		copy(pad[:], w[ng*q8VGroup*q80Len:nb*q80Len])
		_ = dst[(ng+1)*decQ8_0VGroup-1]
		decQ8_0VNNIAsm(unsafe.Pointer(&pad[0]), unsafe.Pointer(&dst[ng*decQ8_0VGroup]), 1)
	}
}

// prepQ8_0VNNI writes a's quantized values in the lane layout, per group
// its 16 block scales in lane order and, per lane, −128 times the block's
// sum of values (prepQ8_0VLen bytes; a last partial group padded with
// zero blocks).
func prepQ8_0VNNI(a *Activation, dst []byte) {
	nb := len(a.D)
	ng := nb / q8VGroup
	if ng > 0 {
		_, _, _ = a.Q[ng*q8VGroup*qk-1], a.D[ng*q8VGroup-1], dst[ng*prepQ8_0VGroup-1]
		prepQ8_0VNNIAsm(unsafe.Pointer(&a.Q[0]), unsafe.Pointer(&a.D[0]), unsafe.Pointer(&dst[0]), ng)
	}
	if nb > ng*q8VGroup {
		var q [q8VGroup * qk]int8
		var d [q8VGroup]float32
		copy(q[:], a.Q[ng*q8VGroup*qk:nb*qk])
		copy(d[:], a.D[ng*q8VGroup:nb])
		_ = dst[(ng+1)*prepQ8_0VGroup-1]
		prepQ8_0VNNIAsm(unsafe.Pointer(&q[0]), unsafe.Pointer(&d[0]), unsafe.Pointer(&dst[ng*prepQ8_0VGroup]), 1)
	}
}

// dot4x4Q8_0VNNI multiplies four decoded rows (decQ8_0VNNI) by four
// prepared activations (prepQ8_0VNNI): out[4r+t] is row r times
// activation t. The rows and activations must all have the same length.
func dot4x4Q8_0VNNI(d, x *[4][]byte, out *[16]float32) {
	ng := len(d[0]) / decQ8_0VGroup
	if ng == 0 {
		*out = [16]float32{}
		return
	}
	var rp, tp [4]unsafe.Pointer
	for k := range 4 {
		_, _ = d[k][ng*decQ8_0VGroup-1], x[k][ng*prepQ8_0VGroup-1]
		rp[k], tp[k] = unsafe.Pointer(&d[k][0]), unsafe.Pointer(&x[k][0])
	}
	dot4x4Q8_0VNNIAsm(&rp, &tp, ng, out)
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
