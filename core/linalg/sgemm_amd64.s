//go:build !purego && !openblas

#include "textflag.h"

// AVX2+FMA micro-kernel of the packed float32 GEMM (sgemm.go): a 6×16 tile of C held in
// twelve YMM accumulators (Y0-Y11: row i in Y(2i), Y(2i+1)), updated once per k index by
// two loads of packed B (16 floats: Y12, Y13), six broadcasts of packed A (Y14, Y15) and
// twelve FMAs. Go operand order: the destination is last.

// STEP does one k index: B at B0(DI), B1(DI); A at A0..A5(SI).
#define STEP(B0, B1, A0, A1, A2, A3, A4, A5) \
	VMOVUPS B0(DI), Y12; \
	VMOVUPS B1(DI), Y13; \
	VBROADCASTSS A0(SI), Y14; \
	VFMADD231PS Y12, Y14, Y0; \
	VFMADD231PS Y13, Y14, Y1; \
	VBROADCASTSS A1(SI), Y15; \
	VFMADD231PS Y12, Y15, Y2; \
	VFMADD231PS Y13, Y15, Y3; \
	VBROADCASTSS A2(SI), Y14; \
	VFMADD231PS Y12, Y14, Y4; \
	VFMADD231PS Y13, Y14, Y5; \
	VBROADCASTSS A3(SI), Y15; \
	VFMADD231PS Y12, Y15, Y6; \
	VFMADD231PS Y13, Y15, Y7; \
	VBROADCASTSS A4(SI), Y14; \
	VFMADD231PS Y12, Y14, Y8; \
	VFMADD231PS Y13, Y14, Y9; \
	VBROADCASTSS A5(SI), Y15; \
	VFMADD231PS Y12, Y15, Y10; \
	VFMADD231PS Y13, Y15, Y11

// func sgemmKernel6x16(kc int, a, b, c *float32, ldc int, acc int)
//
// C[i][j] (+)= sum_{p<kc} a[p·6+i]·b[p·16+j] for i < 6, j < 16, C[i][j] at c + (i·ldc+j)·4;
// C is overwritten when acc == 0 and added to otherwise. kc >= 1.
TEXT ·sgemmKernel6x16(SB), NOSPLIT, $0-48
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	MOVQ CX, BX
	SHRQ $2, BX
	ANDQ $3, CX
	TESTQ BX, BX
	JEQ tail

loop4:
	STEP(0, 32, 0, 4, 8, 12, 16, 20)
	STEP(64, 96, 24, 28, 32, 36, 40, 44)
	STEP(128, 160, 48, 52, 56, 60, 64, 68)
	STEP(192, 224, 72, 76, 80, 84, 88, 92)
	ADDQ $96, SI
	ADDQ $256, DI
	DECQ BX
	JNE  loop4

tail:
	TESTQ CX, CX
	JEQ   done

loop1:
	STEP(0, 32, 0, 4, 8, 12, 16, 20)
	ADDQ $24, SI
	ADDQ $64, DI
	DECQ CX
	JNE  loop1

done:
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $2, R8
	LEAQ (DX)(R8*1), R9
	LEAQ (DX)(R8*2), R10
	LEAQ (R9)(R8*2), R11
	LEAQ (DX)(R8*4), R12
	LEAQ (R12)(R8*1), R13
	MOVQ acc+40(FP), AX
	TESTQ AX, AX
	JEQ   store
	VADDPS (DX), Y0, Y0
	VADDPS 32(DX), Y1, Y1
	VADDPS (R9), Y2, Y2
	VADDPS 32(R9), Y3, Y3
	VADDPS (R10), Y4, Y4
	VADDPS 32(R10), Y5, Y5
	VADDPS (R11), Y6, Y6
	VADDPS 32(R11), Y7, Y7
	VADDPS (R12), Y8, Y8
	VADDPS 32(R12), Y9, Y9
	VADDPS (R13), Y10, Y10
	VADDPS 32(R13), Y11, Y11

store:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, (R9)
	VMOVUPS Y3, 32(R9)
	VMOVUPS Y4, (R10)
	VMOVUPS Y5, 32(R10)
	VMOVUPS Y6, (R11)
	VMOVUPS Y7, 32(R11)
	VMOVUPS Y8, (R12)
	VMOVUPS Y9, 32(R12)
	VMOVUPS Y10, (R13)
	VMOVUPS Y11, 32(R13)
	VZEROUPPER
	RET
