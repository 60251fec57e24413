//go:build amd64 && !purego

#include "textflag.h"

// Q8_0 kernels with AVX512-VNNI in the 16-block lane layout (see
// gemm_q8vnni_amd64.go). A group is 16 blocks (512 values). Transposed,
// 32-bit lane p of each of eight 512-bit registers holds four values of
// block beta(p) = [0 1 2 3 8 9 10 11 4 5 6 7 12 13 14 15][p]: register k
// values 4k..4k+3 of that block. A decoded row group holds those eight
// registers of weights plus 128 (unsigned) at 0..448 and the 16 block
// scales (lane order) at 512: 576 bytes. A prepared activation group holds
// its eight registers of values at 0..448, its 16 block scales at 512 and,
// per lane, −128 times the block's sum at 576: 640 bytes.

// beta16 is beta as dword indices (VPERMD); gath34 is 34·beta, the byte
// offsets of the blocks' scales in a stored Q8_0 row group (VPGATHERDD).
DATA beta16<>+0(SB)/4, $0
DATA beta16<>+4(SB)/4, $1
DATA beta16<>+8(SB)/4, $2
DATA beta16<>+12(SB)/4, $3
DATA beta16<>+16(SB)/4, $8
DATA beta16<>+20(SB)/4, $9
DATA beta16<>+24(SB)/4, $10
DATA beta16<>+28(SB)/4, $11
DATA beta16<>+32(SB)/4, $4
DATA beta16<>+36(SB)/4, $5
DATA beta16<>+40(SB)/4, $6
DATA beta16<>+44(SB)/4, $7
DATA beta16<>+48(SB)/4, $12
DATA beta16<>+52(SB)/4, $13
DATA beta16<>+56(SB)/4, $14
DATA beta16<>+60(SB)/4, $15
GLOBL beta16<>(SB), RODATA|NOPTR, $64

DATA gath34<>+0(SB)/4, $0
DATA gath34<>+4(SB)/4, $34
DATA gath34<>+8(SB)/4, $68
DATA gath34<>+12(SB)/4, $102
DATA gath34<>+16(SB)/4, $272
DATA gath34<>+20(SB)/4, $306
DATA gath34<>+24(SB)/4, $340
DATA gath34<>+28(SB)/4, $374
DATA gath34<>+32(SB)/4, $136
DATA gath34<>+36(SB)/4, $170
DATA gath34<>+40(SB)/4, $204
DATA gath34<>+44(SB)/4, $238
DATA gath34<>+48(SB)/4, $408
DATA gath34<>+52(SB)/4, $442
DATA gath34<>+56(SB)/4, $476
DATA gath34<>+60(SB)/4, $510
GLOBL gath34<>(SB), RODATA|NOPTR, $64

// LOADPAIR loads blocks M, 8+M, 4+M and 12+M of the group at R (block i
// at i*S+O) and leaves their first halves (values 0..15) in ZL and their
// second halves in ZH, 128 bits per block in that order.
#define LOADPAIR(R, S, O, M, ZL, ZH) \
	VMOVDQU      (M*S+O)(R), Y8; \
	VINSERTI64X4 $1, ((M+8)*S+O)(R), Z8, Z8; \
	VMOVDQU      ((M+4)*S+O)(R), Y9; \
	VINSERTI64X4 $1, ((M+12)*S+O)(R), Z9, Z9; \
	VSHUFI32X4   $0x88, Z9, Z8, ZL; \
	VSHUFI32X4   $0xDD, Z9, Z8, ZH

// T4 transposes the 4×4 dwords of each 128-bit chunk of A, B, C, D in
// place (Z24–Z27 scratch).
#define T4(A, B, C, D) \
	VPUNPCKLDQ  B, A, Z24; \
	VPUNPCKHDQ  B, A, Z25; \
	VPUNPCKLDQ  D, C, Z26; \
	VPUNPCKHDQ  D, C, Z27; \
	VPUNPCKLQDQ Z26, Z24, A; \
	VPUNPCKHQDQ Z26, Z24, B; \
	VPUNPCKLQDQ Z27, Z25, C; \
	VPUNPCKHQDQ Z27, Z25, D

// TRANSPOSE16 loads the 16 blocks of 32 bytes at R (block i at i*S+O) into
// the lane layout, registers 0..7 in Z16–Z23 (Z8, Z9, Z24–Z27 scratch).
#define TRANSPOSE16(R, S, O) \
	LOADPAIR(R, S, O, 0, Z16, Z20); \
	LOADPAIR(R, S, O, 1, Z17, Z21); \
	LOADPAIR(R, S, O, 2, Z18, Z22); \
	LOADPAIR(R, S, O, 3, Z19, Z23); \
	T4(Z16, Z17, Z18, Z19); \
	T4(Z20, Z21, Z22, Z23)

// FLIP8 adds 128 to every weight byte in Z16–Z23 (Z31: 0x80 bytes).
#define FLIP8 \
	VPXORD Z31, Z16, Z16; \
	VPXORD Z31, Z17, Z17; \
	VPXORD Z31, Z18, Z18; \
	VPXORD Z31, Z19, Z19; \
	VPXORD Z31, Z20, Z20; \
	VPXORD Z31, Z21, Z21; \
	VPXORD Z31, Z22, Z22; \
	VPXORD Z31, Z23, Z23

// SCALES16 converts the 16 f16 scales of the stored row group at R to
// float32 lanes in Z (Z30: gath34; DX: 0xffff; K1 scratch).
#define SCALES16(R, Z) \
	KMOVW      DX, K1; \
	VPGATHERDD (R)(Z30*1), K1, Z; \
	VPMOVDW    Z, Y11; \
	VCVTPH2PS  Y11, Z

// func decQ8_0VNNIAsm(w, dst unsafe.Pointer, ng int)
TEXT ·decQ8_0VNNIAsm(SB), NOSPLIT, $0-24
	MOVQ w+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ ng+16(FP), CX
	MOVL $0x80808080, AX
	VPBROADCASTD AX, Z31
	VMOVDQU64 gath34<>(SB), Z30
	MOVL $0xffff, DX

dgrp:
	TRANSPOSE16(SI, 34, 2)
	FLIP8
	VMOVDQU64 Z16, 0(DI)
	VMOVDQU64 Z17, 64(DI)
	VMOVDQU64 Z18, 128(DI)
	VMOVDQU64 Z19, 192(DI)
	VMOVDQU64 Z20, 256(DI)
	VMOVDQU64 Z21, 320(DI)
	VMOVDQU64 Z22, 384(DI)
	VMOVDQU64 Z23, 448(DI)
	SCALES16(SI, Z10)
	VMOVUPS Z10, 512(DI)
	ADDQ $544, SI
	ADDQ $576, DI
	DECQ CX
	JNZ  dgrp
	VZEROUPPER
	RET

// func prepQ8_0VNNIAsm(q, d, dst unsafe.Pointer, ng int)
TEXT ·prepQ8_0VNNIAsm(SB), NOSPLIT, $0-32
	MOVQ q+0(FP), SI
	MOVQ d+8(FP), BX
	MOVQ dst+16(FP), DI
	MOVQ ng+24(FP), CX
	MOVL $0x80808080, AX
	VPBROADCASTD AX, Z31
	VMOVDQU64 beta16<>(SB), Z30
	VPXORD    Z29, Z29, Z29

pgrp:
	TRANSPOSE16(SI, 32, 0)
	VMOVDQU64 Z16, 0(DI)
	VMOVDQU64 Z17, 64(DI)
	VMOVDQU64 Z18, 128(DI)
	VMOVDQU64 Z19, 192(DI)
	VMOVDQU64 Z20, 256(DI)
	VMOVDQU64 Z21, 320(DI)
	VMOVDQU64 Z22, 384(DI)
	VMOVDQU64 Z23, 448(DI)
	VPERMD    0(BX), Z30, Z10
	VMOVUPS   Z10, 512(DI)
	VPXORD    Z11, Z11, Z11
	VPDPBUSD  Z16, Z31, Z11
	VPDPBUSD  Z17, Z31, Z11
	VPDPBUSD  Z18, Z31, Z11
	VPDPBUSD  Z19, Z31, Z11
	VPDPBUSD  Z20, Z31, Z11
	VPDPBUSD  Z21, Z31, Z11
	VPDPBUSD  Z22, Z31, Z11
	VPDPBUSD  Z23, Z31, Z11
	VPSUBD    Z11, Z29, Z11
	VMOVDQU64 Z11, 576(DI)
	ADDQ $512, SI
	ADDQ $64, BX
	ADDQ $640, DI
	DECQ CX
	JNZ  pgrp
	VZEROUPPER
	RET

// RK multiplies register K of the four rows (R8–R11) by register K of
// activations TA and TB, adding to the integer sums Z16–Z19 (TA) and
// Z20–Z23 (TB).
#define RK(K, TA, TB) \
	VMOVDQU64 (64*K)(R8), Z24; \
	VPDPBUSD  (64*K)(TA), Z24, Z16; \
	VPDPBUSD  (64*K)(TB), Z24, Z20; \
	VMOVDQU64 (64*K)(R9), Z25; \
	VPDPBUSD  (64*K)(TA), Z25, Z17; \
	VPDPBUSD  (64*K)(TB), Z25, Z21; \
	VMOVDQU64 (64*K)(R10), Z26; \
	VPDPBUSD  (64*K)(TA), Z26, Z18; \
	VPDPBUSD  (64*K)(TB), Z26, Z22; \
	VMOVDQU64 (64*K)(R11), Z27; \
	VPDPBUSD  (64*K)(TA), Z27, Z19; \
	VPDPBUSD  (64*K)(TB), Z27, Z23

// FIN converts the 16 block sums in I, multiplies them by the
// activation's scales (T) and adds them times the row's scales (R) to F.
#define FIN(I, T, R, F) \
	VCVTDQ2PS   I, I; \
	VMULPS      512(T), I, I; \
	VFMADD231PS 512(R), I, F

// HALF multiplies the group of the four rows by activations TA and TB,
// adding to the accumulators A0–A3 (rows 0–3 by TA) and B0–B3.
#define HALF(TA, TB, A0, A1, A2, A3, B0, B1, B2, B3) \
	VMOVDQU64 576(TA), Z16; \
	VMOVDQU64 576(TA), Z17; \
	VMOVDQU64 576(TA), Z18; \
	VMOVDQU64 576(TA), Z19; \
	VMOVDQU64 576(TB), Z20; \
	VMOVDQU64 576(TB), Z21; \
	VMOVDQU64 576(TB), Z22; \
	VMOVDQU64 576(TB), Z23; \
	RK(0, TA, TB); \
	RK(1, TA, TB); \
	RK(2, TA, TB); \
	RK(3, TA, TB); \
	RK(4, TA, TB); \
	RK(5, TA, TB); \
	RK(6, TA, TB); \
	RK(7, TA, TB); \
	FIN(Z16, TA, R8, A0); \
	FIN(Z17, TA, R9, A1); \
	FIN(Z18, TA, R10, A2); \
	FIN(Z19, TA, R11, A3); \
	FIN(Z20, TB, R8, B0); \
	FIN(Z21, TB, R9, B1); \
	FIN(Z22, TB, R10, B2); \
	FIN(Z23, TB, R11, B3)

// RED16 adds the 16 lanes a of Z (Y, X: its lower parts) and stores the
// sum at M: s8[i] = a[i]+a[i+8], s4[i] = s8[i]+s8[i+4], then
// (s4[0]+s4[2]) + (s4[1]+s4[3]). Both Q8_0 kernels reduce with it.
#define RED16(Z, Y, X, M) \
	VEXTRACTF32X8 $1, Z, Y28; \
	VADDPS        Y28, Y, Y; \
	VEXTRACTF32X4 $1, Y, X28; \
	VADDPS        X28, X, X; \
	VMOVHLPS      X, X, X28; \
	VADDPS        X28, X, X; \
	VMOVSHDUP     X, X28; \
	VADDSS        X28, X, X; \
	VMOVSS        X, M

// func dot4x4Q8_0VNNIAsm(rows, toks *[4]unsafe.Pointer, ng int, out *[16]float32)
TEXT ·dot4x4Q8_0VNNIAsm(SB), NOSPLIT, $0-32
	MOVQ rows+0(FP), AX
	MOVQ toks+8(FP), BX
	MOVQ ng+16(FP), CX
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

grp:
	// Accumulator 4r+t: row r, token t.
	HALF(SI, DI, Z0, Z4, Z8, Z12, Z1, Z5, Z9, Z13)
	HALF(DX, R12, Z2, Z6, Z10, Z14, Z3, Z7, Z11, Z15)
	ADDQ $576, R8
	ADDQ $576, R9
	ADDQ $576, R10
	ADDQ $576, R11
	ADDQ $640, SI
	ADDQ $640, DI
	ADDQ $640, DX
	ADDQ $640, R12
	DECQ CX
	JNZ  grp

	MOVQ out+24(FP), AX
	RED16(Z0, Y0, X0, 0(AX))
	RED16(Z1, Y1, X1, 4(AX))
	RED16(Z2, Y2, X2, 8(AX))
	RED16(Z3, Y3, X3, 12(AX))
	RED16(Z4, Y4, X4, 16(AX))
	RED16(Z5, Y5, X5, 20(AX))
	RED16(Z6, Y6, X6, 24(AX))
	RED16(Z7, Y7, X7, 28(AX))
	RED16(Z8, Y8, X8, 32(AX))
	RED16(Z9, Y9, X9, 36(AX))
	RED16(Z10, Y10, X10, 40(AX))
	RED16(Z11, Y11, X11, 44(AX))
	RED16(Z12, Y12, X12, 48(AX))
	RED16(Z13, Y13, X13, 52(AX))
	RED16(Z14, Y14, X14, 56(AX))
	RED16(Z15, Y15, X15, 60(AX))
	VZEROUPPER
	RET

// func reduce16Asm(acc unsafe.Pointer, n int, out unsafe.Pointer)
//
// Each of the n accumulators of 16 lanes at acc becomes one float32 at
// out (RED16).
TEXT ·reduce16Asm(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+16(FP), DI

red:
	VMOVUPS 0(SI), Z0
	RED16(Z0, Y0, X0, 0(DI))
	ADDQ    $64, SI
	ADDQ    $4, DI
	DECQ    CX
	JNZ     red
	VZEROUPPER
	RET
