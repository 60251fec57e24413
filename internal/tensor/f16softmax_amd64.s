//go:build amd64 && !purego

#include "textflag.h"

// Vector constants of expSubF32, eight copies each (32 bytes apart):
// lower bound of the input, log2(e), ln 2 in two parts (Cody–Waite), the
// Taylor coefficients 1/720 … 1/2, 1, and the exponent bias 127 (int32).
DATA expC<>+0(SB)/8, $0xc2aea8f6c2aea8f6 // lo
DATA expC<>+8(SB)/8, $0xc2aea8f6c2aea8f6
DATA expC<>+16(SB)/8, $0xc2aea8f6c2aea8f6
DATA expC<>+24(SB)/8, $0xc2aea8f6c2aea8f6
DATA expC<>+32(SB)/8, $0x3fb8aa3b3fb8aa3b // log2e
DATA expC<>+40(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA expC<>+48(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA expC<>+56(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA expC<>+64(SB)/8, $0xbf318000bf318000 // ln2hi
DATA expC<>+72(SB)/8, $0xbf318000bf318000
DATA expC<>+80(SB)/8, $0xbf318000bf318000
DATA expC<>+88(SB)/8, $0xbf318000bf318000
DATA expC<>+96(SB)/8, $0x395e8083395e8083 // ln2lo
DATA expC<>+104(SB)/8, $0x395e8083395e8083
DATA expC<>+112(SB)/8, $0x395e8083395e8083
DATA expC<>+120(SB)/8, $0x395e8083395e8083
DATA expC<>+128(SB)/8, $0x3ab60b613ab60b61 // c6
DATA expC<>+136(SB)/8, $0x3ab60b613ab60b61
DATA expC<>+144(SB)/8, $0x3ab60b613ab60b61
DATA expC<>+152(SB)/8, $0x3ab60b613ab60b61
DATA expC<>+160(SB)/8, $0x3c0888893c088889 // c5
DATA expC<>+168(SB)/8, $0x3c0888893c088889
DATA expC<>+176(SB)/8, $0x3c0888893c088889
DATA expC<>+184(SB)/8, $0x3c0888893c088889
DATA expC<>+192(SB)/8, $0x3d2aaaab3d2aaaab // c4
DATA expC<>+200(SB)/8, $0x3d2aaaab3d2aaaab
DATA expC<>+208(SB)/8, $0x3d2aaaab3d2aaaab
DATA expC<>+216(SB)/8, $0x3d2aaaab3d2aaaab
DATA expC<>+224(SB)/8, $0x3e2aaaab3e2aaaab // c3
DATA expC<>+232(SB)/8, $0x3e2aaaab3e2aaaab
DATA expC<>+240(SB)/8, $0x3e2aaaab3e2aaaab
DATA expC<>+248(SB)/8, $0x3e2aaaab3e2aaaab
DATA expC<>+256(SB)/8, $0x3f0000003f000000 // c2
DATA expC<>+264(SB)/8, $0x3f0000003f000000
DATA expC<>+272(SB)/8, $0x3f0000003f000000
DATA expC<>+280(SB)/8, $0x3f0000003f000000
DATA expC<>+288(SB)/8, $0x3f8000003f800000 // one
DATA expC<>+296(SB)/8, $0x3f8000003f800000
DATA expC<>+304(SB)/8, $0x3f8000003f800000
DATA expC<>+312(SB)/8, $0x3f8000003f800000
DATA expC<>+320(SB)/8, $0x0000007f0000007f // bias
DATA expC<>+328(SB)/8, $0x0000007f0000007f
DATA expC<>+336(SB)/8, $0x0000007f0000007f
DATA expC<>+344(SB)/8, $0x0000007f0000007f
GLOBL expC<>(SB), RODATA|NOPTR, $352

// func maxF32(x *float32, n int) float32
//
// The largest of n values, n a positive multiple of 8.
TEXT ·maxF32(SB), NOSPLIT, $0-20
	MOVQ    x+0(FP), DI
	MOVQ    n+8(FP), CX
	SHLQ    $2, CX
	VMOVUPS (DI), Y0
	MOVQ    $32, AX

mloop:
	CMPQ    AX, CX
	JGE     mdone
	VMAXPS  (DI)(AX*1), Y0, Y0
	ADDQ    $32, AX
	JMP     mloop

mdone:
	VEXTRACTF128 $1, Y0, X1
	VMAXPS       X1, X0, X0
	VPERMILPS    $0x4e, X0, X1
	VMAXPS       X1, X0, X0
	VPERMILPS    $0xb1, X0, X1
	VMAXSS       X1, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+16(FP)
	RET

// func expSubF32(x *float32, n int, m float32) float32
//
// Replaces each of n values (a positive multiple of 8) by e^(x−m), for
// x ≤ m, and returns their sum (eight lane sums, added at the end). e^y:
// y clamped to −87.33 (below, the result is about 1e−38, zero once
// rounded to half precision), y = k·ln 2 + r with k = round(y·log2 e) and
// r reduced with ln 2 in two parts, e^r from the Taylor polynomial of
// degree 6 (relative error below 2e−7), 2^k built in the exponent bits.
// The same steps as softmaxF16AVX2's exp8.
TEXT ·expSubF32(SB), NOSPLIT, $0-28
	MOVQ         x+0(FP), DI
	MOVQ         n+8(FP), CX
	SHLQ         $2, CX
	VBROADCASTSS m+16(FP), Y15
	VXORPS       Y14, Y14, Y14 // sum
	XORQ         AX, AX

eloop:
	VMOVUPS     (DI)(AX*1), Y0
	VSUBPS      Y15, Y0, Y0
	VMAXPS      expC<>+0(SB), Y0, Y0
	VMULPS      expC<>+32(SB), Y0, Y1
	VROUNDPS    $0, Y1, Y1             // k, to nearest even
	VFMADD231PS expC<>+64(SB), Y1, Y0  // r = y − k·ln2hi
	VFMADD231PS expC<>+96(SB), Y1, Y0  // r −= k·ln2lo
	VMOVUPS     expC<>+128(SB), Y2     // p = 1/720
	VFMADD213PS expC<>+160(SB), Y0, Y2 // p = p·r + 1/120
	VFMADD213PS expC<>+192(SB), Y0, Y2
	VFMADD213PS expC<>+224(SB), Y0, Y2
	VFMADD213PS expC<>+256(SB), Y0, Y2
	VFMADD213PS expC<>+288(SB), Y0, Y2
	VFMADD213PS expC<>+288(SB), Y0, Y2
	VCVTPS2DQ   Y1, Y1
	VPADDD      expC<>+320(SB), Y1, Y1
	VPSLLD      $23, Y1, Y1
	VMULPS      Y1, Y2, Y2
	VMOVUPS     Y2, (DI)(AX*1)
	VADDPS      Y2, Y14, Y14
	ADDQ        $32, AX
	CMPQ        AX, CX
	JLT         eloop

	VEXTRACTF128 $1, Y14, X1
	VADDPS       X1, X14, X0
	VPERMILPS    $0x4e, X0, X1
	VADDPS       X1, X0, X0
	VPERMILPS    $0xb1, X0, X1
	VADDSS       X1, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+24(FP)
	RET

// func scaleRoundF16(x *float32, n int, s float32)
//
// Sets each of n values (a positive multiple of 8) to x·s rounded to half
// precision (VCVTPS2PH, nearest with ties to even, and back).
TEXT ·scaleRoundF16(SB), NOSPLIT, $0-20
	MOVQ         x+0(FP), DI
	MOVQ         n+8(FP), CX
	SHLQ         $2, CX
	VBROADCASTSS s+16(FP), Y15
	XORQ         AX, AX

sloop:
	VMULPS    (DI)(AX*1), Y15, Y0
	VCVTPS2PH $0, Y0, X1
	VCVTPH2PS X1, Y1
	VMOVUPS   Y1, (DI)(AX*1)
	ADDQ      $32, AX
	CMPQ      AX, CX
	JLT       sloop
	VZEROUPPER
	RET
