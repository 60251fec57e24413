//go:build goexperiment.simd && amd64 && !purego

#include "textflag.h"

// Q8_0 prompt kernels with AVX512-VNNI (see gemm_q8vnni_amd64.go for the
// layouts). Per pair of Q8_0 blocks, a decoded row holds the 64 weights
// plus 128 as unsigned bytes at 0 and the two blocks' scales, 8 lanes
// each, at 64; a prepared activation holds its 64 values at 0, its two
// scales in 8 lanes each at 64, and −128 times the sum of each group of
// four values at 128. Both strides are 192 bytes.

// func decQ8_0VNNIAsm(w, dst unsafe.Pointer, np int)
TEXT ·decQ8_0VNNIAsm(SB), NOSPLIT, $0-24
	MOVQ w+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ np+16(FP), CX
	MOVL $0x80808080, AX
	VPBROADCASTD AX, Z31

dec:
	VMOVDQU      2(SI), Y0
	VINSERTI64X4 $1, 36(SI), Z0, Z0
	VPXORD       Z31, Z0, Z0
	VMOVDQU64    Z0, 0(DI)
	VPBROADCASTW 0(SI), X1
	VPBROADCASTW 34(SI), X2
	VINSERTI128  $1, X2, Y1, Y1
	VCVTPH2PS    Y1, Z1
	VMOVUPS      Z1, 64(DI)
	ADDQ         $68, SI
	ADDQ         $192, DI
	DECQ         CX
	JNZ          dec
	VZEROUPPER
	RET

// func prepQ8_0VNNIAsm(q, d, dst unsafe.Pointer, np int)
TEXT ·prepQ8_0VNNIAsm(SB), NOSPLIT, $0-32
	MOVQ q+0(FP), SI
	MOVQ d+8(FP), BX
	MOVQ dst+16(FP), DI
	MOVQ np+24(FP), CX
	MOVL $0x80808080, AX
	VPBROADCASTD AX, Z31
	VPXORD       Z30, Z30, Z30

prep:
	VMOVDQU64     0(SI), Z0
	VMOVDQU64     Z0, 0(DI)
	VBROADCASTSS  0(BX), Y1
	VBROADCASTSS  4(BX), Y2
	VINSERTF32X8  $1, Y2, Z1, Z1
	VMOVUPS       Z1, 64(DI)
	VPXORD        Z3, Z3, Z3
	VPDPBUSD      Z0, Z31, Z3
	VPSUBD        Z3, Z30, Z3
	VMOVDQU64     Z3, 128(DI)
	ADDQ          $64, SI
	ADDQ          $8, BX
	ADDQ          $192, DI
	DECQ          CX
	JNZ           prep
	VZEROUPPER
	RET

// ROWTOK multiplies the row in (W, SW) by the activation in (A, SA) with
// bias at BIAS, adding the pair's scaled sum to accumulator C.
#define ROWTOK(W, SW, A, SA, BIAS, C) \
	VMOVDQU64   BIAS, Z26; \
	VPDPBUSD    A, W, Z26; \
	VCVTDQ2PS   Z26, Z26; \
	VMULPS      SA, SW, Z27; \
	VFMADD231PS Z27, Z26, C

#define TOKEN(P, C0, C1, C2, C3) \
	VMOVDQU64 0(P), Z24; \
	VMOVUPS   64(P), Z25; \
	ROWTOK(Z16, Z20, Z24, Z25, 128(P), C0); \
	ROWTOK(Z17, Z21, Z24, Z25, 128(P), C1); \
	ROWTOK(Z18, Z22, Z24, Z25, 128(P), C2); \
	ROWTOK(Z19, Z23, Z24, Z25, 128(P), C3); \
	ADDQ      $192, P

// REDUCE adds the halves of accumulator Z (then of its lower half) and
// stores the four sums at OFF(R).
#define REDUCE(Z, Y, X, OFF, R) \
	VEXTRACTF32X8 $1, Z, Y28; \
	VADDPS        Y28, Y, Y29; \
	VEXTRACTF32X4 $1, Y29, X28; \
	VADDPS        X28, X29, X29; \
	VMOVUPS       X29, OFF(R)

// func dot4x4Q8_0VNNIAsm(rows, toks *[4]unsafe.Pointer, np int, out *[16][4]float32)
TEXT ·dot4x4Q8_0VNNIAsm(SB), NOSPLIT, $0-32
	MOVQ rows+0(FP), AX
	MOVQ toks+8(FP), BX
	MOVQ np+16(FP), CX
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11
	MOVQ 0(BX), SI
	MOVQ 8(BX), DI
	MOVQ 16(BX), DX
	MOVQ 24(BX), R12
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15

pair:
	VMOVDQU64 0(R8), Z16
	VMOVDQU64 0(R9), Z17
	VMOVDQU64 0(R10), Z18
	VMOVDQU64 0(R11), Z19
	VMOVUPS   64(R8), Z20
	VMOVUPS   64(R9), Z21
	VMOVUPS   64(R10), Z22
	VMOVUPS   64(R11), Z23
	// Accumulator 4r+t: row r, token t.
	TOKEN(SI, Z0, Z4, Z8, Z12)
	TOKEN(DI, Z1, Z5, Z9, Z13)
	TOKEN(DX, Z2, Z6, Z10, Z14)
	TOKEN(R12, Z3, Z7, Z11, Z15)
	ADDQ $192, R8
	ADDQ $192, R9
	ADDQ $192, R10
	ADDQ $192, R11
	DECQ CX
	JNZ  pair

	MOVQ out+24(FP), AX
	REDUCE(Z0, Y0, X0, 0, AX)
	REDUCE(Z1, Y1, X1, 16, AX)
	REDUCE(Z2, Y2, X2, 32, AX)
	REDUCE(Z3, Y3, X3, 48, AX)
	REDUCE(Z4, Y4, X4, 64, AX)
	REDUCE(Z5, Y5, X5, 80, AX)
	REDUCE(Z6, Y6, X6, 96, AX)
	REDUCE(Z7, Y7, X7, 112, AX)
	REDUCE(Z8, Y8, X8, 128, AX)
	REDUCE(Z9, Y9, X9, 144, AX)
	REDUCE(Z10, Y10, X10, 160, AX)
	REDUCE(Z11, Y11, X11, 176, AX)
	REDUCE(Z12, Y12, X12, 192, AX)
	REDUCE(Z13, Y13, X13, 208, AX)
	REDUCE(Z14, Y14, X14, 224, AX)
	REDUCE(Z15, Y15, X15, 240, AX)
	VZEROUPPER
	RET

// Q4_K prompt kernel: two rows decoded by decQ4_KMinAVX512 (quants at 0,
// scale operands at 256, −dmin·m at 512, d at 544; 576 bytes per
// super-block) times four activations prepared by prepQ4_KVNNI (the
// 256-value quantization at 0, dk·Σq per 32 values at 256, dk in 8 lanes
// at 288; 320 bytes per super-block). VPDPWSSD applies each sub-block's
// scale and adds in one instruction (VPMADDWD and an addition in
// dotDecQ4_KMinAVX512); the float operations are that kernel's.

// Q4KTOK multiplies row (Q0–Q3 quants, S0–S3 scales, YD d, YM mins) by the
// activation at P into accumulator ACC.
#define Q4KTOK(P, Q0, Q1, Q2, Q3, S0, S1, S2, S3, YD, YM, ACC) \
	VPMADDUBSW    0(P), Q0, Z28; \
	VPMADDWD      S0, Z28, Z29; \
	VPMADDUBSW    64(P), Q1, Z28; \
	VPDPWSSD      S1, Z28, Z29; \
	VPMADDUBSW    128(P), Q2, Z28; \
	VPDPWSSD      S2, Z28, Z29; \
	VPMADDUBSW    192(P), Q3, Z28; \
	VPDPWSSD      S3, Z28, Z29; \
	VEXTRACTI64X4 $1, Z29, Y30; \
	VPADDD        Y30, Y29, Y29; \
	VCVTDQ2PS     Y29, Y29; \
	VMULPS        288(P), YD, Y31; \
	VFMADD231PS   Y31, Y29, ACC; \
	VFMADD231PS   256(P), YM, ACC

// func dot2x4Q4_KVNNIAsm(rows *[2]unsafe.Pointer, toks *[4]unsafe.Pointer, nsb int, out *[8][8]float32)
TEXT ·dot2x4Q4_KVNNIAsm(SB), NOSPLIT, $0-32
	MOVQ rows+0(FP), AX
	MOVQ toks+8(FP), BX
	MOVQ nsb+16(FP), CX
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 0(BX), SI
	MOVQ 8(BX), DI
	MOVQ 16(BX), DX
	MOVQ 24(BX), R12
	VPXORD Y20, Y20, Y20
	VPXORD Y21, Y21, Y21
	VPXORD Y22, Y22, Y22
	VPXORD Y23, Y23, Y23
	VPXORD Y24, Y24, Y24
	VPXORD Y25, Y25, Y25
	VPXORD Y26, Y26, Y26
	VPXORD Y27, Y27, Y27

sb:
	VMOVDQU64    0(R8), Z0
	VMOVDQU64    64(R8), Z1
	VMOVDQU64    128(R8), Z2
	VMOVDQU64    192(R8), Z3
	VMOVDQU64    256(R8), Z4
	VMOVDQU64    320(R8), Z5
	VMOVDQU64    384(R8), Z6
	VMOVDQU64    448(R8), Z7
	VBROADCASTSS 544(R8), Y16
	VMOVUPS      512(R8), Y17
	VMOVDQU64    0(R9), Z8
	VMOVDQU64    64(R9), Z9
	VMOVDQU64    128(R9), Z10
	VMOVDQU64    192(R9), Z11
	VMOVDQU64    256(R9), Z12
	VMOVDQU64    320(R9), Z13
	VMOVDQU64    384(R9), Z14
	VMOVDQU64    448(R9), Z15
	VBROADCASTSS 544(R9), Y18
	VMOVUPS      512(R9), Y19
	Q4KTOK(SI, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Y16, Y17, Y20)
	Q4KTOK(DI, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Y16, Y17, Y21)
	Q4KTOK(DX, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Y16, Y17, Y22)
	Q4KTOK(R12, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Y16, Y17, Y23)
	Q4KTOK(SI, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, Y18, Y19, Y24)
	Q4KTOK(DI, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, Y18, Y19, Y25)
	Q4KTOK(DX, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, Y18, Y19, Y26)
	Q4KTOK(R12, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, Y18, Y19, Y27)
	ADDQ $576, R8
	ADDQ $576, R9
	ADDQ $320, SI
	ADDQ $320, DI
	ADDQ $320, DX
	ADDQ $320, R12
	DECQ CX
	JNZ  sb

	MOVQ    out+24(FP), AX
	VMOVUPS Y20, 0(AX)
	VMOVUPS Y21, 32(AX)
	VMOVUPS Y22, 64(AX)
	VMOVUPS Y23, 96(AX)
	VMOVUPS Y24, 128(AX)
	VMOVUPS Y25, 160(AX)
	VMOVUPS Y26, 192(AX)
	VMOVUPS Y27, 224(AX)
	VZEROUPPER
	RET
