//go:build amd64 && !purego

#include "textflag.h"

// Constants of the K-quant kernels (32 bytes each): 0x0F and 0x30 in
// every byte, 32 in every byte, 0x0000FFFF in every 32-bit word, then
// the four VPERMD index vectors q6Idx (group k of a Q6_K half takes
// scale 2k for its first 16 values, 2k+1 for the rest).
DATA kqC<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqC<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqC<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqC<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqC<>+32(SB)/8, $0x3030303030303030
DATA kqC<>+40(SB)/8, $0x3030303030303030
DATA kqC<>+48(SB)/8, $0x3030303030303030
DATA kqC<>+56(SB)/8, $0x3030303030303030
DATA kqC<>+64(SB)/8, $0x2020202020202020
DATA kqC<>+72(SB)/8, $0x2020202020202020
DATA kqC<>+80(SB)/8, $0x2020202020202020
DATA kqC<>+88(SB)/8, $0x2020202020202020
DATA kqC<>+96(SB)/8, $0x0000ffff0000ffff
DATA kqC<>+104(SB)/8, $0x0000ffff0000ffff
DATA kqC<>+112(SB)/8, $0x0000ffff0000ffff
DATA kqC<>+120(SB)/8, $0x0000ffff0000ffff
DATA kqC<>+128(SB)/8, $0x0000000000000000
DATA kqC<>+136(SB)/8, $0x0000000000000000
DATA kqC<>+144(SB)/8, $0x0000000100000001
DATA kqC<>+152(SB)/8, $0x0000000100000001
DATA kqC<>+160(SB)/8, $0x0000000200000002
DATA kqC<>+168(SB)/8, $0x0000000200000002
DATA kqC<>+176(SB)/8, $0x0000000300000003
DATA kqC<>+184(SB)/8, $0x0000000300000003
DATA kqC<>+192(SB)/8, $0x0000000400000004
DATA kqC<>+200(SB)/8, $0x0000000400000004
DATA kqC<>+208(SB)/8, $0x0000000500000005
DATA kqC<>+216(SB)/8, $0x0000000500000005
DATA kqC<>+224(SB)/8, $0x0000000600000006
DATA kqC<>+232(SB)/8, $0x0000000600000006
DATA kqC<>+240(SB)/8, $0x0000000700000007
DATA kqC<>+248(SB)/8, $0x0000000700000007
GLOBL kqC<>(SB), RODATA|NOPTR, $256

// HSUM8 folds the eight lanes of float sums Y into X0, adding as hsumClear
// does ((a0+a1) + (a2+a3) after the high half is added to the low one),
// and clears the upper state.
#define HSUM8(Y, X) \
	VEXTRACTF128 $1, Y, X1; \
	VADDPS       X1, X, X0; \
	VPERMILPS    $0xb1, X0, X1; \
	VADDPS       X1, X0, X0; \
	VPERMILPS    $0x4e, X0, X1; \
	VADDSS       X1, X0, X0; \
	VZEROUPPER

// Q6G adds group k of a Q6_K half to the int32 sums Y7: V holds the four
// low bits of its values (from a nibble of ql) and Y4 their two high bits
// (from qh, in place); minus 32 the values are signed, and VPSIGNB moves
// their sign to the activation's 32 values at A, so that VPMADDUBSW
// (unsigned × signed) and VPMADDWD with the group's two scales (IDX
// permutes them out of Y6) give eight int32 sums.
#define Q6G(V, A, IDX) \
	VPOR        Y4, V, V; \
	VPSUBB      kqC<>+64(SB), V, V; \
	VMOVDQU     A, Y5; \
	VPSIGNB     V, Y5, Y5; \
	VPABSB      V, V; \
	VPMADDUBSW  Y5, V, V; \
	VPERMD      Y6, IDX, Y5; \
	VPMADDWD    Y5, V, V; \
	VPADDD      V, Y7, Y7

// Q6HALF adds half N (128 values) of the super-block at SI to Y7, with the
// activation's values at DI: the eight scales of the half, sign-extended,
// in both 16-bit halves of a lane (Y6); ql's two 32-byte rows (Y0, Y1)
// and qh's (Y2); groups 0–3 take the low nibbles of Y0, Y1, then the high
// ones, and bits 0–1, 2–3, 4–5, 6–7 of qh (the 32-bit shifts move bits
// across bytes only where 0x30 masks them off).
#define Q6HALF(N) \
	VPMOVSXBD   (192+8*N)(SI), Y6; \
	VPAND       kqC<>+96(SB), Y6, Y5; \
	VPSLLD      $16, Y6, Y6; \
	VPOR        Y5, Y6, Y6; \
	VMOVDQU     (64*N)(SI), Y0; \
	VMOVDQU     (64*N+32)(SI), Y1; \
	VMOVDQU     (128+32*N)(SI), Y2; \
	VPAND       Y15, Y0, Y3; \
	VPSLLD      $4, Y2, Y4; \
	VPAND       Y14, Y4, Y4; \
	Q6G(Y3, (128*N)(DI), Y8); \
	VPAND       Y15, Y1, Y3; \
	VPSLLD      $2, Y2, Y4; \
	VPAND       Y14, Y4, Y4; \
	Q6G(Y3, (128*N+32)(DI), Y9); \
	VPSRLW      $4, Y0, Y3; \
	VPAND       Y15, Y3, Y3; \
	VPAND       Y14, Y2, Y4; \
	Q6G(Y3, (128*N+64)(DI), Y10); \
	VPSRLW      $4, Y1, Y3; \
	VPAND       Y15, Y3, Y3; \
	VPSRLD      $2, Y2, Y4; \
	VPAND       Y14, Y4, Y4; \
	Q6G(Y3, (128*N+96)(DI), Y11)

// func dotQ6_KAVX2Asm(w *byte, q *int8, dk *float32, nsb int) float32
//
// nsb (≥ 1) Q6_K super-blocks of 210 bytes at w (ql[128], qh[64], 16 int8
// scales, f16 d) times nsb blocks of 256 int8 activation values q with
// scales dk: per super-block the integer sum of its 16 scaled sub-block
// products in eight int32 lanes, converted and added times d·dk to eight
// float sums (Y12), which are added up at the end.
TEXT ·dotQ6_KAVX2Asm(SB), NOSPLIT, $0-36
	MOVQ    w+0(FP), SI
	MOVQ    q+8(FP), DI
	MOVQ    dk+16(FP), R8
	MOVQ    nsb+24(FP), CX
	VMOVDQU kqC<>+0(SB), Y15
	VMOVDQU kqC<>+32(SB), Y14
	VMOVDQU kqC<>+128(SB), Y8
	VMOVDQU kqC<>+160(SB), Y9
	VMOVDQU kqC<>+192(SB), Y10
	VMOVDQU kqC<>+224(SB), Y11
	VXORPS  Y12, Y12, Y12

q6loop:
	VPXOR        Y7, Y7, Y7
	Q6HALF(0)
	Q6HALF(1)
	VCVTDQ2PS    Y7, Y7
	VPBROADCASTW 208(SI), X5
	VCVTPH2PS    X5, X5
	VMULSS       (R8), X5, X5
	VBROADCASTSS X5, Y5
	VFMADD231PS  Y5, Y7, Y12
	ADDQ         $210, SI
	ADDQ         $256, DI
	ADDQ         $4, R8
	DECQ         CX
	JNZ          q6loop

	HSUM8(Y12, X12)
	MOVSS        X0, ret+32(FP)
	RET

// kqP: eight VPERMD index vectors, vector j selecting lane j into every
// lane (the scale of sub-block j of a Q5_K super-block).
DATA kqP<>+0(SB)/8, $0x0000000000000000
DATA kqP<>+8(SB)/8, $0x0000000000000000
DATA kqP<>+16(SB)/8, $0x0000000000000000
DATA kqP<>+24(SB)/8, $0x0000000000000000
DATA kqP<>+32(SB)/8, $0x0000000100000001
DATA kqP<>+40(SB)/8, $0x0000000100000001
DATA kqP<>+48(SB)/8, $0x0000000100000001
DATA kqP<>+56(SB)/8, $0x0000000100000001
DATA kqP<>+64(SB)/8, $0x0000000200000002
DATA kqP<>+72(SB)/8, $0x0000000200000002
DATA kqP<>+80(SB)/8, $0x0000000200000002
DATA kqP<>+88(SB)/8, $0x0000000200000002
DATA kqP<>+96(SB)/8, $0x0000000300000003
DATA kqP<>+104(SB)/8, $0x0000000300000003
DATA kqP<>+112(SB)/8, $0x0000000300000003
DATA kqP<>+120(SB)/8, $0x0000000300000003
DATA kqP<>+128(SB)/8, $0x0000000400000004
DATA kqP<>+136(SB)/8, $0x0000000400000004
DATA kqP<>+144(SB)/8, $0x0000000400000004
DATA kqP<>+152(SB)/8, $0x0000000400000004
DATA kqP<>+160(SB)/8, $0x0000000500000005
DATA kqP<>+168(SB)/8, $0x0000000500000005
DATA kqP<>+176(SB)/8, $0x0000000500000005
DATA kqP<>+184(SB)/8, $0x0000000500000005
DATA kqP<>+192(SB)/8, $0x0000000600000006
DATA kqP<>+200(SB)/8, $0x0000000600000006
DATA kqP<>+208(SB)/8, $0x0000000600000006
DATA kqP<>+216(SB)/8, $0x0000000600000006
DATA kqP<>+224(SB)/8, $0x0000000700000007
DATA kqP<>+232(SB)/8, $0x0000000700000007
DATA kqP<>+240(SB)/8, $0x0000000700000007
DATA kqP<>+248(SB)/8, $0x0000000700000007
GLOBL kqP<>(SB), RODATA|NOPTR, $256

// Q5LO and Q5HI add sub-blocks 2C and 2C+1 (chunk C, 64 values) of the
// Q5_K super-block at SI to the int32 sums Y9: qs's 32 bytes of the chunk
// (Y0, loaded by Q5LO) hold the low four bits of sub-block 2C in their low
// nibbles and of 2C+1 in their high ones; the fifth bit, bit j of each of
// qh's 32 bytes, comes in Y1 shifted to bit 4 by the caller (a 32-bit
// shift by 4−j or j−4: no other bit reaches bit 4 of a byte) and is kept
// with 0x10 (Y14). VPMADDUBSW (the values are unsigned) and VPMADDWD with
// the sub-block's scale (in both halves of every lane: Y13 permuted) give
// eight int32 sums.
#define Q5LO(C) \
	VMOVDQU     (48+32*C)(SI), Y0; \
	VPAND       Y14, Y1, Y1; \
	VPAND       Y15, Y0, Y2; \
	VPOR        Y1, Y2, Y2; \
	VPMADDUBSW  (64*C)(DI), Y2, Y2; \
	VMOVDQU     kqP<>+(64*C)(SB), Y3; \
	VPERMD      Y13, Y3, Y3; \
	VPMADDWD    Y3, Y2, Y2; \
	VPADDD      Y2, Y9, Y9

#define Q5HI(C) \
	VPAND       Y14, Y1, Y1; \
	VPSRLW      $4, Y0, Y2; \
	VPAND       Y15, Y2, Y2; \
	VPOR        Y1, Y2, Y2; \
	VPMADDUBSW  (64*C+32)(DI), Y2, Y2; \
	VMOVDQU     kqP<>+(64*C+32)(SB), Y3; \
	VPERMD      Y13, Y3, Y3; \
	VPMADDWD    Y3, Y2, Y2; \
	VPADDD      Y2, Y9, Y9

// KSCALES unpacks the packed six-bit scales and mins of the K-quant
// super-block at SI (bytes 4–15) with kScales's word rule: the scales in
// both 16-bit halves of Y13's lanes, the mins' term Σ min·sk·dmin·dk added
// to Y10 (sk at R9, dk at R8, dmin the f16 at 2(SI)).
#define KSCALES \
	MOVL    4(SI), AX; \
	MOVL    8(SI), BX; \
	MOVL    12(SI), DX; \
	MOVL    AX, R10; \
	ANDL    $0x3f3f3f3f, R10; \
	MOVL    DX, R12; \
	ANDL    $0x0f0f0f0f, R12; \
	MOVL    AX, R13; \
	SHRL    $6, R13; \
	ANDL    $0x03030303, R13; \
	SHLL    $4, R13; \
	ORL     R13, R12; \
	SHLQ    $32, R12; \
	ORQ     R12, R10; \
	MOVL    BX, R11; \
	ANDL    $0x3f3f3f3f, R11; \
	MOVL    DX, R12; \
	SHRL    $4, R12; \
	ANDL    $0x0f0f0f0f, R12; \
	MOVL    BX, R13; \
	SHRL    $6, R13; \
	ANDL    $0x03030303, R13; \
	SHLL    $4, R13; \
	ORL     R13, R12; \
	SHLQ    $32, R12; \
	ORQ     R12, R11; \
	VMOVQ   R10, X0; \
	VPMOVZXBD X0, Y13; \
	VPSLLD  $16, Y13, Y0; \
	VPOR    Y0, Y13, Y13; \
	VMOVQ   R11, X0; \
	VPMOVZXBD X0, Y0; \
	VPMULLD (R9), Y0, Y0; \
	VCVTDQ2PS Y0, Y0; \
	VPBROADCASTW 2(SI), X1; \
	VCVTPH2PS X1, X1; \
	VMULSS  (R8), X1, X1; \
	VBROADCASTSS X1, Y1; \
	VFMADD231PS Y1, Y0, Y10

// func dotQ5_KAVX2Asm(w *byte, q *int8, dk *float32, sk *int32, nsb int) float32
//
// nsb (≥ 1) Q5_K super-blocks of 176 bytes at w (f16 d and dmin, twelve
// bytes of packed six-bit scales and mins, qh[32], qs[128]) times nsb
// blocks of 256 int8 activation values q with scales dk and sums sk (eight
// per block, one per 32 values), the scales and mins unpacked with
// kScales's word rule (simd_amd64.go) in general registers.
TEXT ·dotQ5_KAVX2Asm(SB), NOSPLIT, $0-44
	MOVQ    w+0(FP), SI
	MOVQ    q+8(FP), DI
	MOVQ    dk+16(FP), R8
	MOVQ    sk+24(FP), R9
	MOVQ    nsb+32(FP), CX
	VMOVDQU kqC<>+0(SB), Y15
	MOVL    $0x10101010, AX
	VMOVD   AX, X14
	VPBROADCASTD X14, Y14
	VXORPS  Y11, Y11, Y11
	VXORPS  Y10, Y10, Y10

q5loop:
	KSCALES
	VMOVDQU 16(SI), Y12
	VPXOR   Y9, Y9, Y9
	VPSLLD  $4, Y12, Y1
	Q5LO(0)
	VPSLLD  $3, Y12, Y1
	Q5HI(0)
	VPSLLD  $2, Y12, Y1
	Q5LO(1)
	VPSLLD  $1, Y12, Y1
	Q5HI(1)
	VMOVDQU Y12, Y1
	Q5LO(2)
	VPSRLD  $1, Y12, Y1
	Q5HI(2)
	VPSRLD  $2, Y12, Y1
	Q5LO(3)
	VPSRLD  $3, Y12, Y1
	Q5HI(3)
	VCVTDQ2PS    Y9, Y9
	VPBROADCASTW (SI), X1
	VCVTPH2PS    X1, X1
	VMULSS       (R8), X1, X1
	VBROADCASTSS X1, Y1
	VFMADD231PS  Y1, Y9, Y11  // Σ scale·q·qₐ·d·dk
	ADDQ         $176, SI
	ADDQ         $256, DI
	ADDQ         $4, R8
	ADDQ         $32, R9
	DECQ         CX
	JNZ          q5loop

	VSUBPS       Y10, Y11, Y11
	HSUM8(Y11, X11)
	MOVSS        X0, ret+40(FP)
	RET

// Q4LO and Q4HI are Q5LO and Q5HI without the fifth bit: the Q4_K
// super-block's qs starts at byte 16.
#define Q4LO(C) \
	VMOVDQU     (16+32*C)(SI), Y0; \
	VPAND       Y15, Y0, Y2; \
	VPMADDUBSW  (64*C)(DI), Y2, Y2; \
	VMOVDQU     kqP<>+(64*C)(SB), Y3; \
	VPERMD      Y13, Y3, Y3; \
	VPMADDWD    Y3, Y2, Y2; \
	VPADDD      Y2, Y9, Y9

#define Q4HI(C) \
	VPSRLW      $4, Y0, Y2; \
	VPAND       Y15, Y2, Y2; \
	VPMADDUBSW  (64*C+32)(DI), Y2, Y2; \
	VMOVDQU     kqP<>+(64*C+32)(SB), Y3; \
	VPERMD      Y13, Y3, Y3; \
	VPMADDWD    Y3, Y2, Y2; \
	VPADDD      Y2, Y9, Y9

// func dotQ4_KAVX2Asm(w *byte, q *int8, dk *float32, sk *int32, nsb int) float32
//
// As dotQ5_KAVX2Asm for Q4_K super-blocks of 144 bytes (f16 d and dmin,
// the packed scales and mins, qs[128]).
TEXT ·dotQ4_KAVX2Asm(SB), NOSPLIT, $0-44
	MOVQ    w+0(FP), SI
	MOVQ    q+8(FP), DI
	MOVQ    dk+16(FP), R8
	MOVQ    sk+24(FP), R9
	MOVQ    nsb+32(FP), CX
	VMOVDQU kqC<>+0(SB), Y15
	VXORPS  Y11, Y11, Y11
	VXORPS  Y10, Y10, Y10

q4kloop:
	KSCALES
	VPXOR   Y9, Y9, Y9
	Q4LO(0)
	Q4HI(0)
	Q4LO(1)
	Q4HI(1)
	Q4LO(2)
	Q4HI(2)
	Q4LO(3)
	Q4HI(3)
	VCVTDQ2PS    Y9, Y9
	VPBROADCASTW (SI), X1
	VCVTPH2PS    X1, X1
	VMULSS       (R8), X1, X1
	VBROADCASTSS X1, Y1
	VFMADD231PS  Y1, Y9, Y11
	ADDQ         $144, SI
	ADDQ         $256, DI
	ADDQ         $4, R8
	ADDQ         $32, R9
	DECQ         CX
	JNZ          q4kloop

	VSUBPS       Y10, Y11, Y11
	HSUM8(Y11, X11)
	MOVSS        X0, ret+40(FP)
	RET
