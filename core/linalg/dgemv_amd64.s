//go:build !purego && !openblas

#include "textflag.h"

// Kernels of Dgemv (dgemv.go), AVX2+FMA, for n a positive multiple of 4 (the caller does
// the rest): row dot products for y = A·x and row updates of y for y = Aᵀ·x, four rows
// of A at a time (rows a, a+lda, a+2·lda, a+3·lda: SI, R9, R10, R11), the index AX
// counting entries. Go operand order: destination last.

// GREDUCE halves the YMM accumulator Y (X its low half) down to its lane 0: lanes
// (0+2, 1+3), then their sum (dotRowsGo's order).
#define GREDUCE(Y, X) \
	VEXTRACTF128 $1, Y, X10; \
	VADDPD X10, X, X; \
	VUNPCKHPD X, X, X10; \
	VADDSD X10, X, X

// ROWS4 loads a and lda (in entries) from the frame and sets SI, R9, R10, R11 to the
// four rows.
#define ROWS4 \
	MOVQ a+8(FP), SI; \
	MOVQ lda+16(FP), R8; \
	SHLQ $3, R8; \
	LEAQ (SI)(R8*1), R9; \
	LEAQ (SI)(R8*2), R10; \
	LEAQ (R9)(R8*2), R11

// func dgemvDot4AVX2(n int, a *float64, lda int, x *float64, d *[4]float64)
//
//	d[r] = Σ_{j<n} a[r·lda+j]·x[j]   one accumulator of 4 lanes per row, x loaded once
//	                                 for the four rows
TEXT ·dgemvDot4AVX2(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	ROWS4
	MOVQ x+24(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ AX, AX

gd4loop:
	VMOVUPD (DI)(AX*8), Y8
	VFMADD231PD (SI)(AX*8), Y8, Y0
	VFMADD231PD (R9)(AX*8), Y8, Y1
	VFMADD231PD (R10)(AX*8), Y8, Y2
	VFMADD231PD (R11)(AX*8), Y8, Y3
	ADDQ $4, AX
	CMPQ AX, CX
	JLT  gd4loop

	MOVQ d+32(FP), R12
	GREDUCE(Y0, X0)
	VMOVSD X0, 0(R12)
	GREDUCE(Y1, X1)
	VMOVSD X1, 8(R12)
	GREDUCE(Y2, X2)
	VMOVSD X2, 16(R12)
	GREDUCE(Y3, X3)
	VMOVSD X3, 24(R12)
	VZEROUPPER
	RET

// func dgemvDot1AVX2(n int, a, x *float64) float64
//
//	Σ_{j<n} a[j]·x[j]   as one row of dgemvDot4AVX2
TEXT ·dgemvDot1AVX2(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ x+16(FP), DI
	VXORPD Y0, Y0, Y0
	XORQ AX, AX

gd1loop:
	VMOVUPD (DI)(AX*8), Y8
	VFMADD231PD (SI)(AX*8), Y8, Y0
	ADDQ $4, AX
	CMPQ AX, CX
	JLT  gd1loop

	GREDUCE(Y0, X0)
	VMOVSD X0, ret+24(FP)
	VZEROUPPER
	RET

// func dgemvAxpy4AVX2(n int, a *float64, lda int, y *float64, s *[4]float64)
//
//	y[j] = a[3·lda+j]·s[3] + (… + (a[j]·s[0] + y[j]))   fused, rows in order, y loaded
//	                                                    and stored once for the four
TEXT ·dgemvAxpy4AVX2(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	ROWS4
	MOVQ y+24(FP), DX
	MOVQ s+32(FP), R12
	VBROADCASTSD 0(R12), Y12
	VBROADCASTSD 8(R12), Y13
	VBROADCASTSD 16(R12), Y14
	VBROADCASTSD 24(R12), Y15
	XORQ AX, AX

ga4loop:
	VMOVUPD (DX)(AX*8), Y9
	VFMADD231PD (SI)(AX*8), Y12, Y9
	VFMADD231PD (R9)(AX*8), Y13, Y9
	VFMADD231PD (R10)(AX*8), Y14, Y9
	VFMADD231PD (R11)(AX*8), Y15, Y9
	VMOVUPD Y9, (DX)(AX*8)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT  ga4loop

	VZEROUPPER
	RET

// func dgemvAxpy1AVX2(n int, a, y *float64, s float64)
//
//	y[j] = a[j]·s + y[j]   fused
TEXT ·dgemvAxpy1AVX2(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ y+16(FP), DX
	VBROADCASTSD s+24(FP), Y12
	XORQ AX, AX

ga1loop:
	VMOVUPD (DX)(AX*8), Y9
	VFMADD231PD (SI)(AX*8), Y12, Y9
	VMOVUPD Y9, (DX)(AX*8)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT  ga1loop

	VZEROUPPER
	RET
