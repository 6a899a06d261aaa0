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
