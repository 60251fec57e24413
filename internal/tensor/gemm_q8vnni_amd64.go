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
// Q4_K products on these CPUs take the sub-block-lane kernels of
// gemm_q4kvnni_amd64.go (qTiles.q4kw, both builds).

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
	return &v
}

//go:noescape
func decQ8_0VNNIAsm(w, dst unsafe.Pointer, ng int)

//go:noescape
func prepQ8_0VNNIAsm(q, d, dst unsafe.Pointer, ng int)

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
