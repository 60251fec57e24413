//go:build amd64 && !purego

#include "textflag.h"

// Constants (32 bytes each): 0x0F and 8 in every byte, 1 in every
// 16-bit word.
DATA q84C<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q84C<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q84C<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q84C<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q84C<>+32(SB)/8, $0x0808080808080808
DATA q84C<>+40(SB)/8, $0x0808080808080808
DATA q84C<>+48(SB)/8, $0x0808080808080808
DATA q84C<>+56(SB)/8, $0x0808080808080808
DATA q84C<>+64(SB)/8, $0x0001000100010001
DATA q84C<>+72(SB)/8, $0x0001000100010001
DATA q84C<>+80(SB)/8, $0x0001000100010001
DATA q84C<>+88(SB)/8, $0x0001000100010001
GLOBL q84C<>(SB), RODATA|NOPTR, $96

// SUMBLK adds the block product of the signed weights V and the
// activation's 32 values at A, times the block's scale (f16 at W) and
// the activation's (at R8), to the float sums Y9: VPSIGNB moves the
// weights' sign to the activation so that VPMADDUBSW (unsigned × signed)
// and VPMADDWD with ones give eight int32 sums.
#define SUMBLK(V, A, W) \
	VMOVDQU      A, Y2; \
	VPSIGNB      V, V, Y3; \
	VPSIGNB      V, Y2, Y4; \
	VPMADDUBSW   Y4, Y3, Y3; \
	VPMADDWD     Y10, Y3, Y3; \
	VCVTDQ2PS    Y3, Y3; \
	VPBROADCASTW W, X5; \
	VCVTPH2PS    X5, X5; \
	VMULSS       (R8), X5, X5; \
	VBROADCASTSS X5, Y5; \
	VFMADD231PS  Y5, Y3, Y9

// HSUM9 leaves the sum of Y9's eight lanes in X0.
#define HSUM9 \
	VEXTRACTF128 $1, Y9, X1; \
	VADDPS       X1, X9, X0; \
	VPERMILPS    $0xb1, X0, X1; \
	VADDPS       X1, X0, X0; \
	VPERMILPS    $0x4e, X0, X1; \
	VADDSS       X1, X0, X0; \
	VZEROUPPER

// func dotQ8_0AVX2Asm(w *byte, q *int8, d *float32, nb int) float32
//
// nb (≥ 1) Q8_0 blocks of 34 bytes (f16 scale, 32 int8 values) at w
// times nb blocks of 32 int8 activation values q with scales d.
TEXT ·dotQ8_0AVX2Asm(SB), NOSPLIT, $0-36
	MOVQ    w+0(FP), SI
	MOVQ    q+8(FP), DI
	MOVQ    d+16(FP), R8
	MOVQ    nb+24(FP), CX
	VMOVDQU q84C<>+64(SB), Y10
	VXORPS  Y9, Y9, Y9

q8loop:
	VMOVDQU 2(SI), Y1
	SUMBLK(Y1, (DI), (SI))
	ADDQ    $34, SI
	ADDQ    $32, DI
	ADDQ    $4, R8
	DECQ    CX
	JNZ     q8loop
	HSUM9
	MOVSS   X0, ret+32(FP)
	RET

// func dotQ4_0AVX2Asm(w *byte, q *int8, d *float32, nb int) float32
//
// nb (≥ 1) Q4_0 blocks of 18 bytes (f16 scale, 16 bytes: values 0–15 in
// the low nibbles, 16–31 in the high ones, each stored plus 8) at w times
// nb blocks of 32 int8 activation values q with scales d: the nibbles
// minus 8 as signed bytes, then as Q8_0.
TEXT ·dotQ4_0AVX2Asm(SB), NOSPLIT, $0-36
	MOVQ    w+0(FP), SI
	MOVQ    q+8(FP), DI
	MOVQ    d+16(FP), R8
	MOVQ    nb+24(FP), CX
	VMOVDQU q84C<>+0(SB), Y12
	VMOVDQU q84C<>+32(SB), Y11
	VMOVDQU q84C<>+64(SB), Y10
	VXORPS  Y9, Y9, Y9

q4loop:
	VMOVDQU     2(SI), X1
	VPSRLW      $4, X1, X0
	VINSERTI128 $1, X0, Y1, Y1
	VPAND       Y12, Y1, Y1
	VPSUBB      Y11, Y1, Y1
	SUMBLK(Y1, (DI), (SI))
	ADDQ        $18, SI
	ADDQ        $32, DI
	ADDQ        $4, R8
	DECQ        CX
	JNZ         q4loop
	HSUM9
	MOVSS   X0, ret+32(FP)
	RET
