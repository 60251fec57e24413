//go:build amd64 && !purego

#include "textflag.h"

// Activation quantization with AVX-512, both forms in one pass (see
// quant_amd64.go): per 256 values, held in Z0–Z15, the 32-value blocks'
// largest magnitudes (integer maximum of the bits without sign, as
// quantizeBlock), scales amax/127, values trunc(v·(1/d) ± 0.5) stored as
// bytes and their 32-bit sums; then the same with the super-block's
// largest magnitude for the 256-value form.

// HMAX spreads the largest of the 16 unsigned lanes of Z over all lanes
// (T: scratch).
#define HMAX(Z, T) \
	VSHUFI64X2 $0x4e, Z, Z, T; \
	VPMAXUD    T, Z, Z; \
	VSHUFI64X2 $0xb1, Z, Z, T; \
	VPMAXUD    T, Z, Z; \
	VPSHUFD    $0x4e, Z, T; \
	VPMAXUD    T, Z, Z; \
	VPSHUFD    $0xb1, Z, T; \
	VPMAXUD    T, Z, Z

// HSUM leaves the sum of the 16 lanes of Z in its lane 0 (T: scratch).
#define HSUM(Z, T) \
	VSHUFI64X2 $0x4e, Z, Z, T; \
	VPADDD     T, Z, Z; \
	VSHUFI64X2 $0xb1, Z, Z, T; \
	VPADDD     T, Z, Z; \
	VPSHUFD    $0x4e, Z, T; \
	VPADDD     T, Z, Z; \
	VPSHUFD    $0xb1, Z, T; \
	VPADDD     T, Z, Z

// SCALE sets D = A/127 and INV = 1/D (0 where A is 0) from the largest
// magnitude A (in every lane).
#define SCALE(A, D, INV) \
	VDIVPS    Z27, A, D; \
	VDIVPS    D, Z26, INV; \
	VPTESTMD  A, A, K1; \
	VMOVAPS.Z INV, K1, INV

// QV quantizes the 16 values V with INV into bytes at ADDR and adds
// their 32-bit values to SUM (T, H: scratch).
#define QV(V, INV, T, H, ADDR, SUM) \
	VMULPS     INV, V, T; \
	VPANDD     Z29, T, H; \
	VPORD      Z28, H, H; \
	VADDPS     H, T, T; \
	VCVTTPS2DQ T, T; \
	VPMOVDB    T, ADDR; \
	VPADDD     T, SUM, SUM

// BLOCK quantizes the 32 values in VA, VB (block J) into the 32-value
// form and folds their largest magnitude into Z18.
#define BLOCK(VA, VB, J) \
	VPANDD  Z30, VA, Z16; \
	VPANDD  Z30, VB, Z17; \
	VPMAXUD Z17, Z16, Z16; \
	HMAX(Z16, Z17); \
	VPMAXUD Z16, Z18, Z18; \
	SCALE(Z16, Z19, Z20); \
	VMOVSS  X19, (4*J)(R8); \
	VPXORD  Z21, Z21, Z21; \
	QV(VA, Z20, Z22, Z23, (32*J)(R9), Z21); \
	QV(VB, Z20, Z22, Z23, (32*J+16)(R9), Z21); \
	HSUM(Z21, Z22); \
	VMOVD   X21, (4*J)(R10)

// KBLOCK quantizes VA, VB (block J of the super-block) with the
// super-block's INV (Z20) into the 256-value form.
#define KBLOCK(VA, VB, J) \
	VPXORD Z21, Z21, Z21; \
	QV(VA, Z20, Z22, Z23, (32*J)(R12), Z21); \
	QV(VB, Z20, Z22, Z23, (32*J+16)(R12), Z21); \
	HSUM(Z21, Z22); \
	VMOVD  X21, (4*J)(R13)

// func quantBothAVX512(x *float32, nsb int, d *float32, q *int8, s *int32, dk *float32, qk *int8, sk *int32)
TEXT ·quantBothAVX512(SB), NOSPLIT, $0-64
	MOVQ x+0(FP), SI
	MOVQ nsb+8(FP), CX
	MOVQ d+16(FP), R8
	MOVQ q+24(FP), R9
	MOVQ s+32(FP), R10
	MOVQ dk+40(FP), R11
	MOVQ qk+48(FP), R12
	MOVQ sk+56(FP), R13
	MOVL $0x7fffffff, AX
	VPBROADCASTD AX, Z30
	MOVL $0x80000000, AX
	VPBROADCASTD AX, Z29
	MOVL $0x3f000000, AX // 0.5
	VPBROADCASTD AX, Z28
	MOVL $0x42fe0000, AX // 127
	VPBROADCASTD AX, Z27
	MOVL $0x3f800000, AX // 1
	VPBROADCASTD AX, Z26

sb:
	VMOVUPS 0(SI), Z0
	VMOVUPS 64(SI), Z1
	VMOVUPS 128(SI), Z2
	VMOVUPS 192(SI), Z3
	VMOVUPS 256(SI), Z4
	VMOVUPS 320(SI), Z5
	VMOVUPS 384(SI), Z6
	VMOVUPS 448(SI), Z7
	VMOVUPS 512(SI), Z8
	VMOVUPS 576(SI), Z9
	VMOVUPS 640(SI), Z10
	VMOVUPS 704(SI), Z11
	VMOVUPS 768(SI), Z12
	VMOVUPS 832(SI), Z13
	VMOVUPS 896(SI), Z14
	VMOVUPS 960(SI), Z15
	VPXORD  Z18, Z18, Z18
	BLOCK(Z0, Z1, 0)
	BLOCK(Z2, Z3, 1)
	BLOCK(Z4, Z5, 2)
	BLOCK(Z6, Z7, 3)
	BLOCK(Z8, Z9, 4)
	BLOCK(Z10, Z11, 5)
	BLOCK(Z12, Z13, 6)
	BLOCK(Z14, Z15, 7)
	SCALE(Z18, Z19, Z20)
	VMOVSS  X19, (R11)
	KBLOCK(Z0, Z1, 0)
	KBLOCK(Z2, Z3, 1)
	KBLOCK(Z4, Z5, 2)
	KBLOCK(Z6, Z7, 3)
	KBLOCK(Z8, Z9, 4)
	KBLOCK(Z10, Z11, 5)
	KBLOCK(Z12, Z13, 6)
	KBLOCK(Z14, Z15, 7)
	ADDQ $1024, SI
	ADDQ $32, R8
	ADDQ $256, R9
	ADDQ $32, R10
	ADDQ $4, R11
	ADDQ $256, R12
	ADDQ $32, R13
	DECQ CX
	JNZ  sb
	VZEROUPPER
	RET
