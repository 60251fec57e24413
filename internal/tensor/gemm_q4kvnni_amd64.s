//go:build amd64 && !purego

#include "textflag.h"

// Q4_K kernels with AVX512-VNNI (see gemm_q4kvnni_amd64.go for the
// layouts). Per super-block a decoded row holds four 64-byte chunks of
// quants at 0 (lanes 0–7 of every chunk belong to the even sub-blocks,
// lanes 8–15 to the odd ones, stored times 16), the 16 lane scales at 256
// and the mins at 320 (384 bytes); a prepared activation holds its
// quantized values in the same order at 0, dk·Σq per sub-block at 256
// (lanes 8–15 zero) and dk at 320 (384 bytes).

// q4kIdx<c>: for chunk c, the dwords of the 128 packed bytes (two
// registers, 32 dwords) that go to its lanes: dword 8P+4h+c in lanes
// 2P+h and 8+2P+h.
DATA q4kIdx0<>+0(SB)/4, $0
DATA q4kIdx0<>+4(SB)/4, $4
DATA q4kIdx0<>+8(SB)/4, $8
DATA q4kIdx0<>+12(SB)/4, $12
DATA q4kIdx0<>+16(SB)/4, $16
DATA q4kIdx0<>+20(SB)/4, $20
DATA q4kIdx0<>+24(SB)/4, $24
DATA q4kIdx0<>+28(SB)/4, $28
DATA q4kIdx0<>+32(SB)/4, $0
DATA q4kIdx0<>+36(SB)/4, $4
DATA q4kIdx0<>+40(SB)/4, $8
DATA q4kIdx0<>+44(SB)/4, $12
DATA q4kIdx0<>+48(SB)/4, $16
DATA q4kIdx0<>+52(SB)/4, $20
DATA q4kIdx0<>+56(SB)/4, $24
DATA q4kIdx0<>+60(SB)/4, $28
GLOBL q4kIdx0<>(SB), RODATA|NOPTR, $64

// q4kScIdx: sub-block scale j to lanes: even sub-blocks 2P in lanes 2P,
// 2P+1; odd ones 2P+1 in lanes 8+2P, 8+2P+1.
DATA q4kScIdx<>+0(SB)/4, $0
DATA q4kScIdx<>+4(SB)/4, $0
DATA q4kScIdx<>+8(SB)/4, $2
DATA q4kScIdx<>+12(SB)/4, $2
DATA q4kScIdx<>+16(SB)/4, $4
DATA q4kScIdx<>+20(SB)/4, $4
DATA q4kScIdx<>+24(SB)/4, $6
DATA q4kScIdx<>+28(SB)/4, $6
DATA q4kScIdx<>+32(SB)/4, $1
DATA q4kScIdx<>+36(SB)/4, $1
DATA q4kScIdx<>+40(SB)/4, $3
DATA q4kScIdx<>+44(SB)/4, $3
DATA q4kScIdx<>+48(SB)/4, $5
DATA q4kScIdx<>+52(SB)/4, $5
DATA q4kScIdx<>+56(SB)/4, $7
DATA q4kScIdx<>+60(SB)/4, $7
GLOBL q4kScIdx<>(SB), RODATA|NOPTR, $64

// q4kMask keeps the low nibbles in lanes 0–7 and the high ones in 8–15.
DATA q4kMask<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4kMask<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4kMask<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4kMask<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4kMask<>+32(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA q4kMask<>+40(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA q4kMask<>+48(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA q4kMask<>+56(SB)/8, $0xf0f0f0f0f0f0f0f0
GLOBL q4kMask<>(SB), RODATA|NOPTR, $64

// q4kHi: 1 in lanes 0–7, 1/16 in lanes 8–15 (the high nibbles are kept
// times 16).
DATA q4kHi<>+0(SB)/4, $1.0
DATA q4kHi<>+4(SB)/4, $1.0
DATA q4kHi<>+8(SB)/4, $1.0
DATA q4kHi<>+12(SB)/4, $1.0
DATA q4kHi<>+16(SB)/4, $1.0
DATA q4kHi<>+20(SB)/4, $1.0
DATA q4kHi<>+24(SB)/4, $1.0
DATA q4kHi<>+28(SB)/4, $1.0
DATA q4kHi<>+32(SB)/4, $0.0625
DATA q4kHi<>+36(SB)/4, $0.0625
DATA q4kHi<>+40(SB)/4, $0.0625
DATA q4kHi<>+44(SB)/4, $0.0625
DATA q4kHi<>+48(SB)/4, $0.0625
DATA q4kHi<>+52(SB)/4, $0.0625
DATA q4kHi<>+56(SB)/4, $0.0625
DATA q4kHi<>+60(SB)/4, $0.0625
GLOBL q4kHi<>(SB), RODATA|NOPTR, $64

// Q4KCONST loads the registers the decoding macros expect: Z24–Z27 the
// four chunks' index vectors (q4kIdx0 + c), Z28 q4kMask, Z29 q4kScIdx,
// Z30 q4kHi. Clobbers AX and Z31.
#define Q4KCONST \
	VMOVDQU64    q4kIdx0<>(SB), Z24; \
	MOVL         $1, AX; \
	VPBROADCASTD AX, Z31; \
	VPADDD       Z31, Z24, Z25; \
	VPADDD       Z31, Z25, Z26; \
	VPADDD       Z31, Z26, Z27; \
	VMOVDQU64    q4kMask<>(SB), Z28; \
	VMOVDQU64    q4kScIdx<>(SB), Z29; \
	VMOVDQU64    q4kHi<>(SB), Z30

// Q4KQUANTS splits the 128 packed bytes at 16(SI) into the four chunks
// Q0–Q3 (T: a scratch register).
#define Q4KQUANTS(Q0, Q1, Q2, Q3, T) \
	VMOVDQU64 16(SI), T; \
	VMOVDQA64 Z24, Q0; \
	VPERMI2D  80(SI), T, Q0; \
	VMOVDQA64 Z25, Q1; \
	VPERMI2D  80(SI), T, Q1; \
	VMOVDQA64 Z26, Q2; \
	VPERMI2D  80(SI), T, Q2; \
	VMOVDQA64 Z27, Q3; \
	VPERMI2D  80(SI), T, Q3; \
	VPANDD    Z28, Q0, Q0; \
	VPANDD    Z28, Q1, Q1; \
	VPANDD    Z28, Q2, Q2; \
	VPANDD    Z28, Q3, Q3

// Q4KSCALES computes the lane scales DS (d·sc per lane, the odd
// sub-blocks' divided by 16) and the mins MN (dmin·m_j in lanes 0–7, zero
// in 8–15) of the super-block at SI. Clobbers AX, BX, CX, DX, R13, R14
// T and Z15.
#define Q4KSCALES(DS, MN, T) \
	MOVL    4(SI), AX; \
	MOVL    8(SI), BX; \
	MOVL    12(SI), CX; \
	MOVL    AX, DX; \
	ANDL    $0x3f3f3f3f, DX; \
	MOVL    CX, R13; \
	ANDL    $0x0f0f0f0f, R13; \
	SHRL    $2, AX; \
	ANDL    $0x30303030, AX; \
	ORL     AX, R13; \
	SHLQ    $32, R13; \
	ORQ     DX, R13; \
	MOVL    BX, DX; \
	ANDL    $0x3f3f3f3f, DX; \
	SHRL    $4, CX; \
	ANDL    $0x0f0f0f0f, CX; \
	SHRL    $2, BX; \
	ANDL    $0x30303030, BX; \
	ORL     BX, CX; \
	SHLQ    $32, CX; \
	ORQ     DX, CX; \
	VMOVQ   R13, X15; \
	VPMOVZXBD X15, DS; \
	VPERMD  DS, Z29, DS; \
	VCVTDQ2PS DS, DS; \
	VMOVQ   CX, X15; \
	VPMOVZXBD X15, Y15; \
	VCVTDQ2PS Z15, MN; \
	MOVWLZX 0(SI), R14; \
	VMOVD   R14, X15; \
	VCVTPH2PS X15, X15; \
	VBROADCASTSS X15, T; \
	VMULPS  T, DS, DS; \
	VMULPS  Z30, DS, DS; \
	MOVWLZX 2(SI), R14; \
	VMOVD   R14, X15; \
	VCVTPH2PS X15, X15; \
	VBROADCASTSS X15, T; \
	VMULPS  T, MN, MN

// func decQ4_KWAsm(w, dst unsafe.Pointer, nsb int)
TEXT ·decQ4_KWAsm(SB), NOSPLIT, $0-24
	MOVQ w+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ nsb+16(FP), R8
	Q4KCONST

dec:
	Q4KQUANTS(Z0, Z1, Z2, Z3, Z4)
	VMOVDQU64 Z0, 0(DI)
	VMOVDQU64 Z1, 64(DI)
	VMOVDQU64 Z2, 128(DI)
	VMOVDQU64 Z3, 192(DI)
	Q4KSCALES(Z5, Z6, Z7)
	VMOVUPS Z5, 256(DI)
	VMOVUPS Z6, 320(DI)
	ADDQ $144, SI
	ADDQ $384, DI
	DECQ R8
	JNZ  dec
	VZEROUPPER
	RET

// Q4KPAIR multiplies one row (quants Q0–Q3, lane scales DS, mins MN) by
// the activation at P (dk broadcast in DK, mins factors in F) into ACC,
// with I and S as scratch: the integer sums of 16 products per lane, their
// conversion, the product of the lane scale and dk, a multiply-add, and
// the mins' term subtracted.
#define Q4KPAIR(P, Q0, Q1, Q2, Q3, DS, MN, DK, F, I, S, ACC) \
	VPXORD       I, I, I; \
	VPDPBUSD     0(P), Q0, I; \
	VPDPBUSD     64(P), Q1, I; \
	VPDPBUSD     128(P), Q2, I; \
	VPDPBUSD     192(P), Q3, I; \
	VCVTDQ2PS    I, I; \
	VMULPS       DK, DS, S; \
	VFMADD231PS  S, I, ACC; \
	VFNMADD231PS F, MN, ACC

// Q4KSUM reduces the 16 lanes of Z to one float (lanes i and i+8, then
// i and i+4, i and i+2, i and i+1) and stores it at OFF(R). Clobbers
// X15 and Y30... through the scratch registers given.
#define Q4KSUM(Z, Y, X, TY, TX, OFF, R) \
	VEXTRACTF32X8 $1, Z, TY; \
	VADDPS        TY, Y, TY; \
	VEXTRACTF32X4 $1, TY, X; \
	VADDPS        X, TX, TX; \
	VMOVHLPS      TX, TX, X; \
	VADDPS        X, TX, TX; \
	VMOVSHDUP     TX, X; \
	VADDSS        X, TX, TX; \
	VMOVSS        TX, OFF(R)

// func vecQ4_KWAsm(w unsafe.Pointer, rowBytes, nrows int, x unsafe.Pointer, nsb int, out unsafe.Pointer)
//
// Rows as stored times one prepared activation: each super-block is
// decoded in registers as decQ4_KWAsm decodes it, then multiplied as in
// mul2Q4_KWAsm.
TEXT ·vecQ4_KWAsm(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), R9
	MOVQ rowBytes+8(FP), R10
	MOVQ nrows+16(FP), R11
	MOVQ x+24(FP), R12
	MOVQ out+40(FP), DI
	Q4KCONST

row:
	MOVQ R9, SI
	MOVQ R12, R15
	MOVQ nsb+32(FP), R8
	VPXORD Z20, Z20, Z20

vsb:
	PREFETCHT0 576(SI)
	PREFETCHT0 640(SI)
	Q4KQUANTS(Z0, Z1, Z2, Z3, Z4)
	Q4KSCALES(Z5, Z6, Z7)
	VBROADCASTSS 320(R15), Z8
	VMOVUPS      256(R15), Z9
	Q4KPAIR(R15, Z0, Z1, Z2, Z3, Z5, Z6, Z8, Z9, Z10, Z11, Z20)
	ADDQ $144, SI
	ADDQ $384, R15
	DECQ R8
	JNZ  vsb

	Q4KSUM(Z20, Y20, X21, Y22, X22, 0, DI)
	ADDQ $4, DI
	ADDQ R10, R9
	DECQ R11
	JNZ  row
	VZEROUPPER
	RET

// func mul2Q4_KWAsm(rows *[2]unsafe.Pointer, x unsafe.Pointer, stride, ngroups, nsb int, outs unsafe.Pointer, off, ntok, two int, res unsafe.Pointer)
//
// Two decoded rows times ngroups groups of four prepared activations
// (stride bytes apart). Row r times activation t (t < ntok) is stored at
// byte off+4r of output t, whose address is outs[t] (the second row only
// if two is 1); res is 32 bytes of scratch.
TEXT ·mul2Q4_KWAsm(SB), NOSPLIT, $0-80
	MOVQ rows+0(FP), AX
	MOVQ 0(AX), R13
	MOVQ 8(AX), R14
	MOVQ x+8(FP), BX
	MOVQ stride+16(FP), R10
	MOVQ ngroups+24(FP), R11
	MOVQ outs+40(FP), R15
	MOVQ res+72(FP), AX

group:
	MOVQ BX, SI
	LEAQ (BX)(R10*1), DI
	LEAQ (BX)(R10*2), DX
	LEAQ (DI)(R10*2), R12
	MOVQ R13, R8
	MOVQ R14, R9
	MOVQ nsb+32(FP), CX
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19

sb:
	VMOVDQU64 0(R8), Z0
	VMOVDQU64 64(R8), Z1
	VMOVDQU64 128(R8), Z2
	VMOVDQU64 192(R8), Z3
	VMOVUPS   256(R8), Z4
	VMOVUPS   320(R8), Z5
	VMOVDQU64 0(R9), Z6
	VMOVDQU64 64(R9), Z7
	VMOVDQU64 128(R9), Z8
	VMOVDQU64 192(R9), Z9
	VMOVUPS   256(R9), Z10
	VMOVUPS   320(R9), Z11

	VBROADCASTSS 320(SI), Z20
	VMOVUPS      256(SI), Z21
	Q4KPAIR(SI, Z0, Z1, Z2, Z3, Z4, Z5, Z20, Z21, Z22, Z23, Z12)
	Q4KPAIR(SI, Z6, Z7, Z8, Z9, Z10, Z11, Z20, Z21, Z24, Z25, Z16)
	VBROADCASTSS 320(DI), Z26
	VMOVUPS      256(DI), Z27
	Q4KPAIR(DI, Z0, Z1, Z2, Z3, Z4, Z5, Z26, Z27, Z28, Z29, Z13)
	Q4KPAIR(DI, Z6, Z7, Z8, Z9, Z10, Z11, Z26, Z27, Z30, Z31, Z17)
	VBROADCASTSS 320(DX), Z20
	VMOVUPS      256(DX), Z21
	Q4KPAIR(DX, Z0, Z1, Z2, Z3, Z4, Z5, Z20, Z21, Z22, Z23, Z14)
	Q4KPAIR(DX, Z6, Z7, Z8, Z9, Z10, Z11, Z20, Z21, Z24, Z25, Z18)
	VBROADCASTSS 320(R12), Z26
	VMOVUPS      256(R12), Z27
	Q4KPAIR(R12, Z0, Z1, Z2, Z3, Z4, Z5, Z26, Z27, Z28, Z29, Z15)
	Q4KPAIR(R12, Z6, Z7, Z8, Z9, Z10, Z11, Z26, Z27, Z30, Z31, Z19)
	ADDQ $384, R8
	ADDQ $384, R9
	ADDQ $384, SI
	ADDQ $384, DI
	ADDQ $384, DX
	ADDQ $384, R12
	DECQ CX
	JNZ  sb

	Q4KSUM(Z12, Y12, X20, Y21, X21, 0, AX)
	Q4KSUM(Z13, Y13, X20, Y21, X21, 4, AX)
	Q4KSUM(Z14, Y14, X20, Y21, X21, 8, AX)
	Q4KSUM(Z15, Y15, X20, Y21, X21, 12, AX)
	Q4KSUM(Z16, Y16, X20, Y21, X21, 16, AX)
	Q4KSUM(Z17, Y17, X20, Y21, X21, 20, AX)
	Q4KSUM(Z18, Y18, X20, Y21, X21, 24, AX)
	Q4KSUM(Z19, Y19, X20, Y21, X21, 28, AX)

	// Scatter the group's results to the outputs of its real tokens.
	MOVQ off+48(FP), SI
	MOVQ two+64(FP), DI
	MOVQ ntok+56(FP), CX
	CMPQ CX, $4
	JLE  scatter
	MOVQ $4, CX

scatter:
	MOVQ  (R15), DX
	MOVL  (AX), R8
	MOVL  R8, (DX)(SI*1)
	TESTQ DI, DI
	JZ    one
	MOVL  16(AX), R8
	MOVL  R8, 4(DX)(SI*1)

one:
	ADDQ $8, R15
	ADDQ $4, AX
	DECQ CX
	JNZ  scatter
	MOVQ res+72(FP), AX
	SUBQ $4, ntok+56(FP)
	LEAQ (BX)(R10*4), BX
	DECQ R11
	JNZ  group
	VZEROUPPER
	RET
