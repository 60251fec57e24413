//go:build amd64 && !purego

#include "textflag.h"

// Constants of the five-bit kernels (32 bytes each): byte i of the first
// selects byte i/8 of a broadcast 32-bit word; byte i of the second has
// every bit set but bit i mod 8, so that OR-ing it with byte i/8 of qh
// gives 0xFF exactly when bit i of qh is set; then 0x0F, 0xF0 and 0x10
// in every byte, and 1 in every 16-bit word.
DATA q5C<>+0(SB)/8, $0x0000000000000000
DATA q5C<>+8(SB)/8, $0x0101010101010101
DATA q5C<>+16(SB)/8, $0x0202020202020202
DATA q5C<>+24(SB)/8, $0x0303030303030303
DATA q5C<>+32(SB)/8, $0x7fbfdfeff7fbfdfe
DATA q5C<>+40(SB)/8, $0x7fbfdfeff7fbfdfe
DATA q5C<>+48(SB)/8, $0x7fbfdfeff7fbfdfe
DATA q5C<>+56(SB)/8, $0x7fbfdfeff7fbfdfe
DATA q5C<>+64(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q5C<>+72(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q5C<>+80(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q5C<>+88(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q5C<>+96(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA q5C<>+104(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA q5C<>+112(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA q5C<>+120(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA q5C<>+128(SB)/8, $0x1010101010101010
DATA q5C<>+136(SB)/8, $0x1010101010101010
DATA q5C<>+144(SB)/8, $0x1010101010101010
DATA q5C<>+152(SB)/8, $0x1010101010101010
DATA q5C<>+160(SB)/8, $0x0001000100010001
DATA q5C<>+168(SB)/8, $0x0001000100010001
DATA q5C<>+176(SB)/8, $0x0001000100010001
DATA q5C<>+184(SB)/8, $0x0001000100010001
GLOBL q5C<>(SB), RODATA|NOPTR, $192

// func dotQ5_0AVX2(w *byte, q *int8, d *float32, nb int) float32
//
// nb (≥ 1) Q5_0 blocks of 22 bytes at w times nb blocks of 32 int8
// activation values q with scales d. Per block: the 32 high bits become
// 32 bytes (0xF0 where the bit is clear, 0 where set), OR-ed with the 32
// nibbles to give q−16 as signed bytes; VPSIGNB moves the sign to the
// activation so that VPMADDUBSW (unsigned × signed) and VPMADDWD give
// eight int32 sums, converted to float32 and added times d·dₐ to eight
// float sums.
TEXT ·dotQ5_0AVX2(SB), NOSPLIT, $0-36
	MOVQ    w+0(FP), SI
	MOVQ    q+8(FP), DI
	MOVQ    d+16(FP), R8
	MOVQ    nb+24(FP), CX
	VMOVDQU q5C<>+0(SB), Y15
	VMOVDQU q5C<>+32(SB), Y14
	VPCMPEQB Y13, Y13, Y13
	VMOVDQU q5C<>+64(SB), Y12
	VMOVDQU q5C<>+96(SB), Y11
	VMOVDQU q5C<>+160(SB), Y10
	VXORPS  Y9, Y9, Y9

loop0:
	VPBROADCASTD 2(SI), Y0
	VPSHUFB      Y15, Y0, Y0
	VPOR         Y14, Y0, Y0
	VPCMPEQB     Y13, Y0, Y0
	VPANDN       Y11, Y0, Y0  // 0xF0 where the bit is clear
	VMOVDQU      6(SI), X1
	VPSRLW       $4, X1, X2
	VINSERTI128  $1, X2, Y1, Y1
	VPAND        Y12, Y1, Y1
	VPOR         Y0, Y1, Y1   // q−16, signed
	VMOVDQU      (DI), Y2
	VPSIGNB      Y1, Y1, Y3   // |q−16|
	VPSIGNB      Y1, Y2, Y4   // qₐ with q−16's sign
	VPMADDUBSW   Y4, Y3, Y3
	VPMADDWD     Y10, Y3, Y3
	VCVTDQ2PS    Y3, Y3
	VPBROADCASTW (SI), X5
	VCVTPH2PS    X5, X5
	VMULSS       (R8), X5, X5
	VBROADCASTSS X5, Y5
	VFMADD231PS  Y5, Y3, Y9
	ADDQ         $22, SI
	ADDQ         $32, DI
	ADDQ         $4, R8
	DECQ         CX
	JNZ          loop0

	VEXTRACTF128 $1, Y9, X1
	VADDPS       X1, X9, X0
	VPERMILPS    $0x4e, X0, X1
	VADDPS       X1, X0, X0
	VPERMILPS    $0xb1, X0, X1
	VADDSS       X1, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+32(FP)
	RET

// func dotQ5_1AVX2(w *byte, q *int8, d *float32, nb int) float32
//
// As dotQ5_0AVX2 for Q5_1 blocks of 24 bytes, without the minimum's
// term (the caller adds m·dₐ·Σqₐ): the high bits become 0x10 where set,
// the values q are unsigned and go to VPMADDUBSW as they are.
TEXT ·dotQ5_1AVX2(SB), NOSPLIT, $0-36
	MOVQ    w+0(FP), SI
	MOVQ    q+8(FP), DI
	MOVQ    d+16(FP), R8
	MOVQ    nb+24(FP), CX
	VMOVDQU q5C<>+0(SB), Y15
	VMOVDQU q5C<>+32(SB), Y14
	VPCMPEQB Y13, Y13, Y13
	VMOVDQU q5C<>+64(SB), Y12
	VMOVDQU q5C<>+128(SB), Y11
	VMOVDQU q5C<>+160(SB), Y10
	VXORPS  Y9, Y9, Y9

loop1:
	VPBROADCASTD 4(SI), Y0
	VPSHUFB      Y15, Y0, Y0
	VPOR         Y14, Y0, Y0
	VPCMPEQB     Y13, Y0, Y0
	VPAND        Y11, Y0, Y0  // 0x10 where the bit is set
	VMOVDQU      8(SI), X1
	VPSRLW       $4, X1, X2
	VINSERTI128  $1, X2, Y1, Y1
	VPAND        Y12, Y1, Y1
	VPOR         Y0, Y1, Y1   // q, unsigned
	VMOVDQU      (DI), Y2
	VPMADDUBSW   Y2, Y1, Y3
	VPMADDWD     Y10, Y3, Y3
	VCVTDQ2PS    Y3, Y3
	VPBROADCASTW (SI), X5
	VCVTPH2PS    X5, X5
	VMULSS       (R8), X5, X5
	VBROADCASTSS X5, Y5
	VFMADD231PS  Y5, Y3, Y9
	ADDQ         $24, SI
	ADDQ         $32, DI
	ADDQ         $4, R8
	DECQ         CX
	JNZ          loop1

	VEXTRACTF128 $1, Y9, X1
	VADDPS       X1, X9, X0
	VPERMILPS    $0x4e, X0, X1
	VADDPS       X1, X0, X0
	VPERMILPS    $0xb1, X0, X1
	VADDSS       X1, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+32(FP)
	RET
