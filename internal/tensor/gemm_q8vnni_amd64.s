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
