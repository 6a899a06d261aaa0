//go:build !purego && !openblas

#include "textflag.h"

// AVX2+FMA micro-kernel of the packed float32 GEMM (sgemm.go): a 6×16 tile of C held in
// twelve YMM accumulators (Y0-Y11: row i in Y(2i), Y(2i+1)), updated once per k index by
// two loads of packed B (16 floats: Y12, Y13), six broadcasts of packed A (Y14, Y15) and
// twelve FMAs. Go operand order: the destination is last.

// CROWS loads the addresses of the tile's six rows of C into DX, R9, R10, R11, R12, R13
// (c + i·ldc·4), from the arguments c and ldc.
#define CROWS \
	MOVQ c+24(FP), DX; \
	MOVQ ldc+32(FP), R8; \
	SHLQ $2, R8; \
	LEAQ (DX)(R8*1), R9; \
	LEAQ (DX)(R8*2), R10; \
	LEAQ (R9)(R8*2), R11; \
	LEAQ (DX)(R8*4), R12; \
	LEAQ (R12)(R8*1), R13

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
	CROWS
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

// AVX-512 micro-kernel of the same contract: row i of the 6×16 tile in one ZMM register,
// with two sets of accumulators, Z0-Z5 for even k and Z6-Z11 for odd k (an FMA's latency
// is covered by the other set's six), added at the end. Per k index: one load of packed
// B (Z12 or Z13) and six FMAs whose A operand is broadcast from memory ({1to16}).

// STEP512 does one k index into the accumulators Z(R0)..Z(R0+5): B at B0(DI), A at A0(SI).
#define STEP512(B0, A0, ZB, R0, R1, R2, R3, R4, R5) \
	VMOVUPS B0(DI), ZB; \
	VFMADD231PS.BCST A0(SI), ZB, R0; \
	VFMADD231PS.BCST A0+4(SI), ZB, R1; \
	VFMADD231PS.BCST A0+8(SI), ZB, R2; \
	VFMADD231PS.BCST A0+12(SI), ZB, R3; \
	VFMADD231PS.BCST A0+16(SI), ZB, R4; \
	VFMADD231PS.BCST A0+20(SI), ZB, R5

// func sgemmKernel6x16AVX512(kc int, a, b, c *float32, ldc int, acc int)
//
// C[i][j] (+)= sum_{p<kc} a[p·6+i]·b[p·16+j] for i < 6, j < 16, the even p summed apart
// from the odd p; C is overwritten when acc == 0 and added to otherwise. kc >= 1.
TEXT ·sgemmKernel6x16AVX512(SB), NOSPLIT, $0-48
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	MOVQ CX, BX
	SHRQ $2, BX
	ANDQ $3, CX
	TESTQ BX, BX
	JEQ tail512

loop512:
	STEP512(0, 0, Z12, Z0, Z1, Z2, Z3, Z4, Z5)
	STEP512(64, 24, Z13, Z6, Z7, Z8, Z9, Z10, Z11)
	STEP512(128, 48, Z12, Z0, Z1, Z2, Z3, Z4, Z5)
	STEP512(192, 72, Z13, Z6, Z7, Z8, Z9, Z10, Z11)
	ADDQ $96, SI
	ADDQ $256, DI
	DECQ BX
	JNE  loop512

tail512:
	TESTQ CX, CX
	JEQ   done512
	STEP512(0, 0, Z12, Z0, Z1, Z2, Z3, Z4, Z5)
	DECQ CX
	JEQ  done512
	STEP512(64, 24, Z13, Z6, Z7, Z8, Z9, Z10, Z11)
	DECQ CX
	JEQ  done512
	STEP512(128, 48, Z12, Z0, Z1, Z2, Z3, Z4, Z5)

done512:
	VADDPS Z6, Z0, Z0
	VADDPS Z7, Z1, Z1
	VADDPS Z8, Z2, Z2
	VADDPS Z9, Z3, Z3
	VADDPS Z10, Z4, Z4
	VADDPS Z11, Z5, Z5
	CROWS
	MOVQ acc+40(FP), AX
	TESTQ AX, AX
	JEQ   store512
	VADDPS (DX), Z0, Z0
	VADDPS (R9), Z1, Z1
	VADDPS (R10), Z2, Z2
	VADDPS (R11), Z3, Z3
	VADDPS (R12), Z4, Z4
	VADDPS (R13), Z5, Z5

store512:
	VMOVUPS Z0, (DX)
	VMOVUPS Z1, (R9)
	VMOVUPS Z2, (R10)
	VMOVUPS Z3, (R11)
	VMOVUPS Z4, (R12)
	VMOVUPS Z5, (R13)
	VZEROUPPER
	RET
