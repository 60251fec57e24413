//go:build amd64 && !purego

#include "textflag.h"

// DOT8 is the loop of the three 256-bit dot products below: four sums of
// eight lanes, 32 weights per step (LOAD(off, reg) reads eight weights at
// SI+off as float32, exactly; STEP is the bytes of 32 weights), then groups
// of eight, then the four sums added pairwise and the eight lanes folded,
// the result returned. n (CX) is a multiple of 8.
#define DOT8(LOAD, STEP) \
	MOVQ   w+0(FP), SI; \
	MOVQ   x+8(FP), DI; \
	MOVQ   n+16(FP), CX; \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
	CMPQ   CX, $32; \
	JLT    tail; \
loop: \
	LOAD(0, Y4); \
	LOAD(STEP/4, Y5); \
	LOAD(STEP/2, Y6); \
	LOAD(3*STEP/4, Y7); \
	VFMADD231PS (DI), Y4, Y0; \
	VFMADD231PS 32(DI), Y5, Y1; \
	VFMADD231PS 64(DI), Y6, Y2; \
	VFMADD231PS 96(DI), Y7, Y3; \
	ADDQ        $STEP, SI; \
	ADDQ        $128, DI; \
	SUBQ        $32, CX; \
	CMPQ        CX, $32; \
	JGE         loop; \
tail: \
	CMPQ        CX, $8; \
	JLT         done; \
	LOAD(0, Y4); \
	VFMADD231PS (DI), Y4, Y0; \
	ADDQ        $STEP/4, SI; \
	ADDQ        $32, DI; \
	SUBQ        $8, CX; \
	JMP         tail; \
done: \
	VADDPS       Y1, Y0, Y0; \
	VADDPS       Y3, Y2, Y2; \
	VADDPS       Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS       X1, X0, X0; \
	VPERMILPS    $0x4e, X0, X1; \
	VADDPS       X1, X0, X0; \
	VPERMILPS    $0xb1, X0, X1; \
	VADDSS       X1, X0, X0; \
	VZEROUPPER

// The weight loads: half precision (VCVTPH2PS), bfloat16 (the top 16 bits
// of a float32: zero-extend and shift) and float32.
#define LOADF16(off, reg) VCVTPH2PS off(SI), reg
#define LOADBF16(off, reg) VPMOVZXWD off(SI), reg; VPSLLD $16, reg, reg
#define LOADF32(off, reg) VMOVUPS off(SI), reg

// func dotF16F16C(w *byte, x *float32, n int) float32
//
// n is a multiple of 8. VCVTPH2PS converts eight half-precision weights
// exactly, VFMADD231PS multiplies them by eight activations and adds to
// one of the four sums.
TEXT ·dotF16F16C(SB), NOSPLIT, $0-28
	DOT8(LOADF16, 64)
	MOVSS X0, ret+24(FP)
	RET

// func dotBF16AVX2Asm(w *byte, x *float32, n int) float32
//
// As dotF16F16C for bfloat16 weights.
TEXT ·dotBF16AVX2Asm(SB), NOSPLIT, $0-28
	DOT8(LOADBF16, 64)
	MOVSS X0, ret+24(FP)
	RET

// func dotF32AVX2Asm(w *float32, x *float32, n int) float32
//
// As dotF16F16C for float32 weights.
TEXT ·dotF32AVX2Asm(SB), NOSPLIT, $0-28
	DOT8(LOADF32, 128)
	MOVSS X0, ret+24(FP)
	RET

// func dotF16AVX512(w *byte, x *float32, n int) float32
//
// n is a multiple of 16. The same loop with 512-bit registers: four sums
// of sixteen lanes, 64 weights per step.
TEXT ·dotF16AVX512(SB), NOSPLIT, $0-28
	MOVQ   w+0(FP), SI
	MOVQ   x+8(FP), DI
	MOVQ   n+16(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	CMPQ   CX, $64
	JLT    tail

loop:
	VCVTPH2PS   (SI), Z4
	VCVTPH2PS   32(SI), Z5
	VCVTPH2PS   64(SI), Z6
	VCVTPH2PS   96(SI), Z7
	VFMADD231PS (DI), Z4, Z0
	VFMADD231PS 64(DI), Z5, Z1
	VFMADD231PS 128(DI), Z6, Z2
	VFMADD231PS 192(DI), Z7, Z3
	ADDQ        $128, SI
	ADDQ        $256, DI
	SUBQ        $64, CX
	CMPQ        CX, $64
	JGE         loop

tail:
	CMPQ        CX, $16
	JLT         done
	VCVTPH2PS   (SI), Z4
	VFMADD231PS (DI), Z4, Z0
	ADDQ        $32, SI
	ADDQ        $64, DI
	SUBQ        $16, CX
	JMP         tail

done:
	VADDPS        Z1, Z0, Z0
	VADDPS        Z3, Z2, Z2
	VADDPS        Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPS        X1, X0, X0
	VPERMILPS     $0x4e, X0, X1
	VADDPS        X1, X0, X0
	VPERMILPS     $0xb1, X0, X1
	VADDSS        X1, X0, X0
	VZEROUPPER
	MOVSS         X0, ret+24(FP)
	RET
