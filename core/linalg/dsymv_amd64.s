//go:build !purego && !openblas

#include "textflag.h"

// Fused dot product and axpy of Dsymv (dsymv.go): for j < n (a multiple of the vector
// width times one, the caller does the rest)
//
//	dot = Σ a[j]·x[j]      in two vector accumulators (blocks of two vectors), the
//	                        last single vector into the first, then added lane-wise
//	                        and halved down to one lane (dotAxpyGo's order)
//	y[j] = a[j]·s + y[j]   one fused multiply-add each
//
// reading each a[j] once. Go operand order: destination last.

// func ddotaxpyAVX512(n int, a, x, y *float64, s float64) float64
TEXT ·ddotaxpyAVX512(SB), NOSPLIT, $0-48
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ x+16(FP), DI
	MOVQ y+24(FP), DX
	VBROADCASTSD s+32(FP), Z31
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	MOVQ CX, BX
	SHRQ $4, BX
	JEQ  dx512tail

dx512loop:
	VMOVUPD (SI), Z2
	VMOVUPD 64(SI), Z3
	VFMADD231PD (DI), Z2, Z0
	VFMADD231PD 64(DI), Z3, Z1
	VMOVUPD (DX), Z4
	VMOVUPD 64(DX), Z5
	VFMADD231PD Z31, Z2, Z4
	VFMADD231PD Z31, Z3, Z5
	VMOVUPD Z4, (DX)
	VMOVUPD Z5, 64(DX)
	ADDQ $128, SI
	ADDQ $128, DI
	ADDQ $128, DX
	DECQ BX
	JNE  dx512loop

dx512tail:
	TESTQ $8, CX
	JEQ   dx512sum
	VMOVUPD (SI), Z2
	VFMADD231PD (DI), Z2, Z0
	VMOVUPD (DX), Z4
	VFMADD231PD Z31, Z2, Z4
	VMOVUPD Z4, (DX)

dx512sum:
	VADDPD Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VUNPCKHPD X0, X0, X1
	VADDSD X1, X0, X0
	VMOVSD X0, ret+40(FP)
	VZEROUPPER
	RET

// func ddotaxpyAVX2(n int, a, x, y *float64, s float64) float64
TEXT ·ddotaxpyAVX2(SB), NOSPLIT, $0-48
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ x+16(FP), DI
	MOVQ y+24(FP), DX
	VBROADCASTSD s+32(FP), Y15
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ CX, BX
	SHRQ $3, BX
	JEQ  dx256tail

dx256loop:
	VMOVUPD (SI), Y2
	VMOVUPD 32(SI), Y3
	VFMADD231PD (DI), Y2, Y0
	VFMADD231PD 32(DI), Y3, Y1
	VMOVUPD (DX), Y4
	VMOVUPD 32(DX), Y5
	VFMADD231PD Y15, Y2, Y4
	VFMADD231PD Y15, Y3, Y5
	VMOVUPD Y4, (DX)
	VMOVUPD Y5, 32(DX)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $64, DX
	DECQ BX
	JNE  dx256loop

dx256tail:
	TESTQ $4, CX
	JEQ   dx256sum
	VMOVUPD (SI), Y2
	VFMADD231PD (DI), Y2, Y0
	VMOVUPD (DX), Y4
	VFMADD231PD Y15, Y2, Y4
	VMOVUPD Y4, (DX)

dx256sum:
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VUNPCKHPD X0, X0, X1
	VADDSD X1, X0, X0
	VMOVSD X0, ret+40(FP)
	VZEROUPPER
	RET

// Four rows at a time: for j < n (a multiple of the vector width)
//
//	d[r] = Σ a[r·lda+j]·x[j]                     r < 4, one vector accumulator per row,
//	                                             halved down to one lane at the end
//	y[j] = a[3·lda+j]·s[3] + (... (a[0·lda+j]·s[0] + y[j]))   fused, rows in order
//
// so that x and y are read once for four rows of A (dot4AxpyGo's order).

// D4REDUCE halves the ZMM accumulator Z down to its lane 0 (Y, X its low parts) and
// stores it at OFF(R12).
#define D4REDUCE(Z, Y, X, OFF) \
	VEXTRACTF64X4 $1, Z, Y10; \
	VADDPD Y10, Y, Y; \
	VEXTRACTF128 $1, Y, X10; \
	VADDPD X10, X, X; \
	VUNPCKHPD X, X, X10; \
	VADDSD X10, X, X; \
	VMOVSD X, OFF(R12)

// func ddot4axpyAVX512(n int, a *float64, lda int, x, y *float64, s, d *[4]float64)
TEXT ·ddot4axpyAVX512(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $3, R8
	LEAQ (SI)(R8*1), R9
	LEAQ (SI)(R8*2), R10
	LEAQ (R9)(R8*2), R11
	MOVQ x+24(FP), DI
	MOVQ y+32(FP), DX
	MOVQ s+40(FP), R12
	VBROADCASTSD 0(R12), Z28
	VBROADCASTSD 8(R12), Z29
	VBROADCASTSD 16(R12), Z30
	VBROADCASTSD 24(R12), Z31
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	SHRQ $3, CX
	JEQ  d4x512sum

d4x512loop:
	VMOVUPD (DI), Z8
	VMOVUPD (SI), Z4
	VMOVUPD (R9), Z5
	VMOVUPD (R10), Z6
	VMOVUPD (R11), Z7
	VFMADD231PD Z8, Z4, Z0
	VFMADD231PD Z8, Z5, Z1
	VFMADD231PD Z8, Z6, Z2
	VFMADD231PD Z8, Z7, Z3
	VMOVUPD (DX), Z9
	VFMADD231PD Z28, Z4, Z9
	VFMADD231PD Z29, Z5, Z9
	VFMADD231PD Z30, Z6, Z9
	VFMADD231PD Z31, Z7, Z9
	VMOVUPD Z9, (DX)
	ADDQ $64, SI
	ADDQ $64, R9
	ADDQ $64, R10
	ADDQ $64, R11
	ADDQ $64, DI
	ADDQ $64, DX
	DECQ CX
	JNE  d4x512loop

d4x512sum:
	MOVQ d+48(FP), R12
	D4REDUCE(Z0, Y0, X0, 0)
	D4REDUCE(Z1, Y1, X1, 8)
	D4REDUCE(Z2, Y2, X2, 16)
	D4REDUCE(Z3, Y3, X3, 24)
	VZEROUPPER
	RET

// D4REDUCE2 halves the YMM accumulator Y down to its lane 0 and stores it at OFF(R12).
#define D4REDUCE2(Y, X, OFF) \
	VEXTRACTF128 $1, Y, X10; \
	VADDPD X10, X, X; \
	VUNPCKHPD X, X, X10; \
	VADDSD X10, X, X; \
	VMOVSD X, OFF(R12)

// func ddot4axpyAVX2(n int, a *float64, lda int, x, y *float64, s, d *[4]float64)
TEXT ·ddot4axpyAVX2(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $3, R8
	LEAQ (SI)(R8*1), R9
	LEAQ (SI)(R8*2), R10
	LEAQ (R9)(R8*2), R11
	MOVQ x+24(FP), DI
	MOVQ y+32(FP), DX
	MOVQ s+40(FP), R12
	VBROADCASTSD 0(R12), Y12
	VBROADCASTSD 8(R12), Y13
	VBROADCASTSD 16(R12), Y14
	VBROADCASTSD 24(R12), Y15
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	SHRQ $2, CX
	JEQ  d4x256sum

d4x256loop:
	VMOVUPD (DI), Y8
	VMOVUPD (SI), Y4
	VMOVUPD (R9), Y5
	VMOVUPD (R10), Y6
	VMOVUPD (R11), Y7
	VFMADD231PD Y8, Y4, Y0
	VFMADD231PD Y8, Y5, Y1
	VFMADD231PD Y8, Y6, Y2
	VFMADD231PD Y8, Y7, Y3
	VMOVUPD (DX), Y9
	VFMADD231PD Y12, Y4, Y9
	VFMADD231PD Y13, Y5, Y9
	VFMADD231PD Y14, Y6, Y9
	VFMADD231PD Y15, Y7, Y9
	VMOVUPD Y9, (DX)
	ADDQ $32, SI
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, DI
	ADDQ $32, DX
	DECQ CX
	JNE  d4x256loop

d4x256sum:
	MOVQ d+48(FP), R12
	D4REDUCE2(Y0, X0, 0)
	D4REDUCE2(Y1, X1, 8)
	D4REDUCE2(Y2, X2, 16)
	D4REDUCE2(Y3, X3, 24)
	VZEROUPPER
	RET
