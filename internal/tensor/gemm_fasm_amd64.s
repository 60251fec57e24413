//go:build amd64 && !purego

#include "textflag.h"

// func gemm4x2F32(w *float32, k, kv int, x0, x1, o0, o1 *float32)
//
// Four rows of k float32 weights (packed: row r starts at w + 4·k·r bytes)
// times two activations, over their first kv values; kv is a positive
// multiple of 8, at most k. Eight
// sums of eight lanes (row r × activation j in Y(2r+j)), one fused
// multiply-add per eight products; each weight vector is loaded once for
// both activations. o0[0:4] and o1[0:4] receive the four row sums of each
// activation, reduced by three horizontal adds in the order of
// gemm4AVX2's sum4.
TEXT ·gemm4x2F32(SB), NOSPLIT, $0-56
	MOVQ w+0(FP), SI
	MOVQ k+8(FP), BX
	MOVQ kv+16(FP), CX
	MOVQ x0+24(FP), DI
	MOVQ x1+32(FP), DX
	SHLQ $2, BX              // bytes per row
	SHLQ $2, CX              // bytes per row taken
	LEAQ (SI)(BX*1), R10     // row 1
	LEAQ (R10)(BX*1), R11    // row 2
	LEAQ (R11)(BX*1), R12    // row 3
	XORQ AX, AX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

loop:
	VMOVUPS     (DI)(AX*1), Y8
	VMOVUPS     (DX)(AX*1), Y9
	VMOVUPS     (SI)(AX*1), Y10
	VMOVUPS     (R10)(AX*1), Y11
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y9, Y10, Y1
	VMOVUPS     (R11)(AX*1), Y12
	VFMADD231PS Y8, Y11, Y2
	VFMADD231PS Y9, Y11, Y3
	VMOVUPS     (R12)(AX*1), Y13
	VFMADD231PS Y8, Y12, Y4
	VFMADD231PS Y9, Y12, Y5
	VFMADD231PS Y8, Y13, Y6
	VFMADD231PS Y9, Y13, Y7
	ADDQ        $32, AX
	CMPQ        AX, CX
	JLT         loop

	MOVQ         o0+40(FP), DI
	MOVQ         o1+48(FP), DX
	VHADDPS      Y2, Y0, Y0
	VHADDPS      Y6, Y4, Y4
	VHADDPS      Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X8
	VADDPS       X8, X0, X0
	VMOVUPS      X0, (DI)
	VHADDPS      Y3, Y1, Y1
	VHADDPS      Y7, Y5, Y5
	VHADDPS      Y5, Y1, Y1
	VEXTRACTF128 $1, Y1, X9
	VADDPS       X9, X1, X1
	VMOVUPS      X1, (DX)
	VZEROUPPER
	RET

// func gemm4x2F32AVX512(w *float32, k, kv int, x0, x1, o0, o1 *float32)
//
// gemm4x2F32 with sixteen lanes per sum; kv is a positive multiple of 16.
// Each 512-bit sum is folded to 256 bits before the same reduction.
TEXT ·gemm4x2F32AVX512(SB), NOSPLIT, $0-56
	MOVQ w+0(FP), SI
	MOVQ k+8(FP), BX
	MOVQ kv+16(FP), CX
	MOVQ x0+24(FP), DI
	MOVQ x1+32(FP), DX
	SHLQ $2, BX
	SHLQ $2, CX
	LEAQ (SI)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	LEAQ (R11)(BX*1), R12
	XORQ AX, AX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7

loop:
	VMOVUPS     (DI)(AX*1), Z8
	VMOVUPS     (DX)(AX*1), Z9
	VMOVUPS     (SI)(AX*1), Z10
	VMOVUPS     (R10)(AX*1), Z11
	VFMADD231PS Z8, Z10, Z0
	VFMADD231PS Z9, Z10, Z1
	VMOVUPS     (R11)(AX*1), Z12
	VFMADD231PS Z8, Z11, Z2
	VFMADD231PS Z9, Z11, Z3
	VMOVUPS     (R12)(AX*1), Z13
	VFMADD231PS Z8, Z12, Z4
	VFMADD231PS Z9, Z12, Z5
	VFMADD231PS Z8, Z13, Z6
	VFMADD231PS Z9, Z13, Z7
	ADDQ        $64, AX
	CMPQ        AX, CX
	JLT         loop

	VEXTRACTF64X4 $1, Z0, Y8
	VADDPS        Y8, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y8
	VADDPS        Y8, Y1, Y1
	VEXTRACTF64X4 $1, Z2, Y8
	VADDPS        Y8, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y8
	VADDPS        Y8, Y3, Y3
	VEXTRACTF64X4 $1, Z4, Y8
	VADDPS        Y8, Y4, Y4
	VEXTRACTF64X4 $1, Z5, Y8
	VADDPS        Y8, Y5, Y5
	VEXTRACTF64X4 $1, Z6, Y8
	VADDPS        Y8, Y6, Y6
	VEXTRACTF64X4 $1, Z7, Y8
	VADDPS        Y8, Y7, Y7

	MOVQ         o0+40(FP), DI
	MOVQ         o1+48(FP), DX
	VHADDPS      Y2, Y0, Y0
	VHADDPS      Y6, Y4, Y4
	VHADDPS      Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X8
	VADDPS       X8, X0, X0
	VMOVUPS      X0, (DI)
	VHADDPS      Y3, Y1, Y1
	VHADDPS      Y7, Y5, Y5
	VHADDPS      Y5, Y1, Y1
	VEXTRACTF128 $1, Y1, X9
	VADDPS       X9, X1, X1
	VMOVUPS      X1, (DX)
	VZEROUPPER
	RET

// func roundF16F16C(x *float32, n int)
//
// Rounds n (a positive multiple of 8) float32 values in place to half
// precision and back: VCVTPS2PH with rounding control 0 (nearest, ties to
// even), then VCVTPH2PS, both exact conversions apart from that rounding.
TEXT ·roundF16F16C(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), DI
	MOVQ n+8(FP), CX
	SHLQ $2, CX
	XORQ AX, AX

rloop:
	VMOVUPS   (DI)(AX*1), Y0
	VCVTPS2PH $0, Y0, X1
	VCVTPH2PS X1, Y1
	VMOVUPS   Y1, (DI)(AX*1)
	ADDQ      $32, AX
	CMPQ      AX, CX
	JLT       rloop
	VZEROUPPER
	RET
