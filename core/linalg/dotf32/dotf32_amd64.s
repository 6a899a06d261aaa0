//go:build !purego

#include "textflag.h"

// func rowsAVX2(dst *float64, x, b *float32, n, d int)
// For each of the n rows of b (d > 0 float32 values each, row-major): four YMM
// accumulators over blocks of 32 values, Y0 over blocks of 8 after them, the d%8 last
// products in X4, then ((Y0+Y1)+(Y2+Y3)) reduced lane-pairwise, plus X4, as float64.
TEXT ·rowsAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ d+32(FP), R8
	MOVQ R8, R10
	ANDQ $-32, R10 // values in blocks of 32
	MOVQ R8, R11
	ANDQ $-8, R11  // values in blocks of 8

row:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS X4, X4, X4
	XORQ   R9, R9
	CMPQ   R9, R10
	JGE    block8

block32:
	VMOVUPS     (SI)(R9*4), Y5
	VFMADD231PS (DX)(R9*4), Y5, Y0
	VMOVUPS     32(SI)(R9*4), Y6
	VFMADD231PS 32(DX)(R9*4), Y6, Y1
	VMOVUPS     64(SI)(R9*4), Y7
	VFMADD231PS 64(DX)(R9*4), Y7, Y2
	VMOVUPS     96(SI)(R9*4), Y8
	VFMADD231PS 96(DX)(R9*4), Y8, Y3
	ADDQ        $32, R9
	CMPQ        R9, R10
	JL          block32

block8:
	CMPQ R9, R11
	JGE  tail

loop8:
	VMOVUPS     (SI)(R9*4), Y5
	VFMADD231PS (DX)(R9*4), Y5, Y0
	ADDQ        $8, R9
	CMPQ        R9, R11
	JL          loop8

tail:
	CMPQ R9, R8
	JGE  reduce

loop1:
	VMOVSS      (SI)(R9*4), X5
	VFMADD231SS (DX)(R9*4), X5, X4
	INCQ        R9
	CMPQ        R9, R8
	JL          loop1

reduce:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0
	VADDSS       X4, X0, X0
	VCVTSS2SD    X0, X0, X0
	VMOVSD       X0, (DI)
	ADDQ         $8, DI
	LEAQ         (DX)(R8*4), DX
	DECQ         CX
	JNZ          row

	VZEROUPPER
	RET
