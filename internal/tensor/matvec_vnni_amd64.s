//go:build goexperiment.simd && amd64 && !purego

#include "textflag.h"

// Q8_0 matrix-vector kernel with AVX512-VNNI (see matvec_vnni_amd64.go):
// eight rows read as stored (34 bytes per block: an f16 scale, then 32
// signed weights) times one activation prepared by prepQ8_0VNNIAsm (per
// pair of blocks: 64 values at 0, the two scales in 8 lanes each at 64,
// −128 times each group of four values' sum at 128; 192 bytes).

// VROW adds the pair of blocks at R (the row's weights plus 128, VPDPBUSD
// from the activation's bias, converted and scaled by the two blocks'
// scale products) to accumulator C, and advances R to the next pair. The
// prefetch 512 bytes (about 7.5 pairs) ahead of each row: generation
// 1.25× per CPU-second in the engine (weights from memory), no change
// measurable with the matrix in cache.
#define VROW(R, C) \
	PREFETCHT0   512(R); \
	VMOVDQU      2(R), Y8; \
	VINSERTI64X4 $1, 36(R), Z8, Z8; \
	VPXORD       Z31, Z8, Z8; \
	VMOVDQA64    Z18, Z9; \
	VPDPBUSD     Z16, Z8, Z9; \
	VPBROADCASTW 0(R), X10; \
	VPBROADCASTW 34(R), X11; \
	VINSERTI128  $1, X11, Y10, Y10; \
	VCVTPH2PS    Y10, Z10; \
	VCVTDQ2PS    Z9, Z9; \
	VMULPS       Z17, Z10, Z10; \
	VFMADD231PS  Z10, Z9, C; \
	ADDQ         $68, R

// REDUCE adds the halves of accumulator Z (then of its lower half) and
// stores the four sums at OFF(R), as the prompt kernel does.
#define REDUCE(Z, Y, X, OFF, R) \
	VEXTRACTF32X8 $1, Z, Y28; \
	VADDPS        Y28, Y, Y29; \
	VEXTRACTF32X4 $1, Y29, X28; \
	VADDPS        X28, X29, X29; \
	VMOVUPS       X29, OFF(R)

// func vec8Q8_0VNNIAsm(rows *[8]unsafe.Pointer, x unsafe.Pointer, np int, out *[8][4]float32)
TEXT ·vec8Q8_0VNNIAsm(SB), NOSPLIT, $0-32
	MOVQ rows+0(FP), AX
	MOVQ x+8(FP), SI
	MOVQ np+16(FP), CX
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11
	MOVQ 32(AX), R12
	MOVQ 40(AX), R13
	MOVQ 48(AX), BX
	MOVQ 56(AX), DI
	MOVL $0x80808080, DX
	VPBROADCASTD DX, Z31
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7

pair:
	VMOVDQU64 0(SI), Z16
	VMOVUPS   64(SI), Z17
	VMOVDQU64 128(SI), Z18
	VROW(R8, Z0)
	VROW(R9, Z1)
	VROW(R10, Z2)
	VROW(R11, Z3)
	VROW(R12, Z4)
	VROW(R13, Z5)
	VROW(BX, Z6)
	VROW(DI, Z7)
	ADDQ $192, SI
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
	VZEROUPPER
	RET
