//go:build amd64 && !purego

#include "textflag.h"

// Q8_0 matrix-vector kernel with AVX512-VNNI in the 16-block lane layout
// (see matvec_vnni_amd64.go and gemm_q8vnni_amd64.s, whose macros
// LOADPAIR, T4, TRANSPOSE16, FLIP8 and SCALES16 are repeated here: Go
// assembly has no shared include files within a package). Eight rows
// read as stored (34 bytes per block: an f16 scale, then 32 signed
// weights, 544 bytes per group of 16 blocks) times one activation
// prepared by prepQ8_0VNNIAsm (640 bytes per group).

DATA vgath34<>+0(SB)/4, $0
DATA vgath34<>+4(SB)/4, $34
DATA vgath34<>+8(SB)/4, $68
DATA vgath34<>+12(SB)/4, $102
DATA vgath34<>+16(SB)/4, $272
DATA vgath34<>+20(SB)/4, $306
DATA vgath34<>+24(SB)/4, $340
DATA vgath34<>+28(SB)/4, $374
DATA vgath34<>+32(SB)/4, $136
DATA vgath34<>+36(SB)/4, $170
DATA vgath34<>+40(SB)/4, $204
DATA vgath34<>+44(SB)/4, $238
DATA vgath34<>+48(SB)/4, $408
DATA vgath34<>+52(SB)/4, $442
DATA vgath34<>+56(SB)/4, $476
DATA vgath34<>+60(SB)/4, $510
GLOBL vgath34<>(SB), RODATA|NOPTR, $64

#define LOADPAIR(R, S, O, M, ZL, ZH) \
	VMOVDQU      (M*S+O)(R), Y8; \
	VINSERTI64X4 $1, ((M+8)*S+O)(R), Z8, Z8; \
	VMOVDQU      ((M+4)*S+O)(R), Y9; \
	VINSERTI64X4 $1, ((M+12)*S+O)(R), Z9, Z9; \
	VSHUFI32X4   $0x88, Z9, Z8, ZL; \
	VSHUFI32X4   $0xDD, Z9, Z8, ZH

#define T4(A, B, C, D) \
	VPUNPCKLDQ  B, A, Z24; \
	VPUNPCKHDQ  B, A, Z25; \
	VPUNPCKLDQ  D, C, Z26; \
	VPUNPCKHDQ  D, C, Z27; \
	VPUNPCKLQDQ Z26, Z24, A; \
	VPUNPCKHQDQ Z26, Z24, B; \
	VPUNPCKLQDQ Z27, Z25, C; \
	VPUNPCKHQDQ Z27, Z25, D

#define TRANSPOSE16(R, S, O) \
	LOADPAIR(R, S, O, 0, Z16, Z20); \
	LOADPAIR(R, S, O, 1, Z17, Z21); \
	LOADPAIR(R, S, O, 2, Z18, Z22); \
	LOADPAIR(R, S, O, 3, Z19, Z23); \
	T4(Z16, Z17, Z18, Z19); \
	T4(Z20, Z21, Z22, Z23)

#define FLIP8 \
	VPXORD Z31, Z16, Z16; \
	VPXORD Z31, Z17, Z17; \
	VPXORD Z31, Z18, Z18; \
	VPXORD Z31, Z19, Z19; \
	VPXORD Z31, Z20, Z20; \
	VPXORD Z31, Z21, Z21; \
	VPXORD Z31, Z22, Z22; \
	VPXORD Z31, Z23, Z23

#define SCALES16(R, Z) \
	KMOVW      DX, K1; \
	VPGATHERDD (R)(Z30*1), K1, Z; \
	VPMOVDW    Z, Y11; \
	VCVTPH2PS  Y11, Z

// VROW adds row R's group times the activation's (SI) to accumulator F
// with the prompt kernel's operations in its order (VPDPBUSD from the
// activation's bias, conversion, the activation's scales, a multiply-add
// with the row's), prefetches the row's next group and advances R. One
// group ahead: engine generation 20.0–20.2 tok per CPU-second against
// 17.1–18.8 two groups ahead (alternating runs).
#define VROW(R, F) \
	PREFETCHT0  (544*1)(R); \
	PREFETCHT0  (544*1+64)(R); \
	PREFETCHT0  (544*1+128)(R); \
	PREFETCHT0  (544*1+192)(R); \
	PREFETCHT0  (544*1+256)(R); \
	PREFETCHT0  (544*1+320)(R); \
	PREFETCHT0  (544*1+384)(R); \
	PREFETCHT0  (544*1+448)(R); \
	PREFETCHT0  (544*1+512)(R); \
	TRANSPOSE16(R, 34, 2); \
	FLIP8; \
	VMOVDQU64   576(SI), Z10; \
	VPDPBUSD    0(SI), Z16, Z10; \
	VPDPBUSD    64(SI), Z17, Z10; \
	VPDPBUSD    128(SI), Z18, Z10; \
	VPDPBUSD    192(SI), Z19, Z10; \
	VPDPBUSD    256(SI), Z20, Z10; \
	VPDPBUSD    320(SI), Z21, Z10; \
	VPDPBUSD    384(SI), Z22, Z10; \
	VPDPBUSD    448(SI), Z23, Z10; \
	SCALES16(R, Z12); \
	VCVTDQ2PS   Z10, Z10; \
	VMULPS      512(SI), Z10, Z10; \
	VFMADD231PS Z12, Z10, F; \
	ADDQ        $544, R

// func vec8Q8_0VNNIAsm(rows *[8]unsafe.Pointer, x unsafe.Pointer, ng int, acc *[8][16]float32)
TEXT ·vec8Q8_0VNNIAsm(SB), NOSPLIT, $0-32
	MOVQ rows+0(FP), AX
	MOVQ x+8(FP), SI
	MOVQ ng+16(FP), CX
	MOVQ acc+24(FP), DI
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11
	MOVQ 32(AX), R12
	MOVQ 40(AX), R13
	MOVQ 48(AX), BX
	MOVQ 56(AX), AX
	MOVL $0x80808080, DX
	VPBROADCASTD DX, Z31
	VMOVDQU64 vgath34<>(SB), Z30
	MOVL $0xffff, DX
	VMOVUPS 0(DI), Z0
	VMOVUPS 64(DI), Z1
	VMOVUPS 128(DI), Z2
	VMOVUPS 192(DI), Z3
	VMOVUPS 256(DI), Z4
	VMOVUPS 320(DI), Z5
	VMOVUPS 384(DI), Z6
	VMOVUPS 448(DI), Z7

grp:
	VROW(R8, Z0)
	VROW(R9, Z1)
	VROW(R10, Z2)
	VROW(R11, Z3)
	VROW(R12, Z4)
	VROW(R13, Z5)
	VROW(BX, Z6)
	VROW(AX, Z7)
	ADDQ $640, SI
	DECQ CX
	JNZ  grp

	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	VZEROUPPER
	RET
