//go:build amd64 && !purego

#include "textflag.h"

// SwiGLU with AVX-512 (see swiglu_amd64.go): per 16 lanes,
// exp(t) for t = −x clamped to [−100, 100] (beyond, the result no longer
// changes in float32) is 2^n·e^r with n = round(t·log2 e) and
// r = t − n·ln 2 (ln 2 in two parts), e^r by its Taylor polynomial of degree 6 (|r| ≤ ln2/2:
// truncation error below 1.2e-7 relative), 2^n applied by VSCALEFPS
// (which saturates to +Inf or 0 beyond float32's range); then
// gate = x/(1+exp(−x))·up.

DATA swiC<>+0(SB)/4, $1.44269504088896341    // log2 e
DATA swiC<>+4(SB)/4, $0.693145751953125      // ln 2, high part (exact product with n)
DATA swiC<>+8(SB)/4, $1.42860682030941723212e-6 // ln 2 − high part
DATA swiC<>+12(SB)/4, $1.0
DATA swiC<>+16(SB)/4, $0.5
DATA swiC<>+20(SB)/4, $0.16666666666666666
DATA swiC<>+24(SB)/4, $0.041666666666666664
DATA swiC<>+28(SB)/4, $0.008333333333333333
DATA swiC<>+32(SB)/4, $0.001388888888888889
DATA swiC<>+36(SB)/4, $100.0
DATA swiC<>+40(SB)/4, $-100.0
GLOBL swiC<>(SB), RODATA|NOPTR, $44

// SWIGLU16 computes the 16 lanes of Z0 (gate) times Z1 (up) into Z0.
#define SWIGLU16 \
	VXORPS       Z3, Z3, Z3; \
	VSUBPS       Z0, Z3, Z3; \
	VMINPS       Z29, Z3, Z3; \
	VMAXPS       Z30, Z3, Z3; \
	VMULPS       Z20, Z3, Z2; \
	VRNDSCALEPS  $0, Z2, Z2; \
	VFNMADD231PS Z21, Z2, Z3; \
	VFNMADD231PS Z22, Z2, Z3; \
	VMOVAPS      Z28, Z4; \
	VFMADD213PS  Z27, Z3, Z4; \
	VFMADD213PS  Z26, Z3, Z4; \
	VFMADD213PS  Z25, Z3, Z4; \
	VFMADD213PS  Z24, Z3, Z4; \
	VFMADD213PS  Z23, Z3, Z4; \
	VFMADD213PS  Z23, Z3, Z4; \
	VSCALEFPS    Z2, Z4, Z4; \
	VADDPS       Z23, Z4, Z4; \
	VDIVPS       Z4, Z0, Z0; \
	VMULPS       Z1, Z0, Z0

// func swigluAVX512(gate, up *float32, n int)
TEXT ·swigluAVX512(SB), NOSPLIT, $0-24
	MOVQ gate+0(FP), DI
	MOVQ up+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS swiC<>+0(SB), Z20
	VBROADCASTSS swiC<>+4(SB), Z21
	VBROADCASTSS swiC<>+8(SB), Z22
	VBROADCASTSS swiC<>+12(SB), Z23
	VBROADCASTSS swiC<>+16(SB), Z24
	VBROADCASTSS swiC<>+20(SB), Z25
	VBROADCASTSS swiC<>+24(SB), Z26
	VBROADCASTSS swiC<>+28(SB), Z27
	VBROADCASTSS swiC<>+32(SB), Z28
	VBROADCASTSS swiC<>+36(SB), Z29
	VBROADCASTSS swiC<>+40(SB), Z30
	CMPQ CX, $16
	JLT  tail

loop:
	VMOVUPS (DI), Z0
	VMOVUPS (SI), Z1
	SWIGLU16
	VMOVUPS Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	SUBQ    $16, CX
	CMPQ    CX, $16
	JGE     loop

tail:
	TESTQ CX, CX
	JZ    done
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K1
	VMOVUPS.Z (DI), K1, Z0
	VMOVUPS.Z (SI), K1, Z1
	SWIGLU16
	VMOVUPS Z0, K1, (DI)

done:
	VZEROUPPER
	RET
