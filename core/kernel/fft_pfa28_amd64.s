//go:build !purego

#include "textflag.h"
#include "go_asm.h"

// AVX2+FMA version of the 28×28 correlation pipeline of corr28 (fft_pfa28.go), for the
// best fit: the same prime-factor transforms (28 = 4·7, index maps pfa28In/pfa28Out),
// two complex128 values per YMM register. Layouts (complex128 elements):
//
//	xs, zs  28 rows of 15   half spectra, [ky][kx]                        (row 240 bytes)
//	t       28 rows of 16   pass 1 after the 4-point DFTs, [k1·7+n2][kx]   (row 256 bytes)
//	qt      16 rows of 28   pass 1 output transposed, [kx][y%2][y/2]       (row 448 bytes)
//	t2      28 rows of 14   pass 2 after the 4-point DFTs, [k1·7+n2][r]    (row 224 bytes;
//	                        may be t itself: pass 2 reads only qt)
//
// Lane 15 of t and row 15 of qt are padding (zeros from masked loads); they are never
// read as results. Go operand order: the destination is last.

// CMULC sets DST = x·conj(z) for the pair of complex values at OFF(SI)(R*1) (x) and
// OFF(DX)(R*1) (z). Clobbers Y8-Y10.
#define CMULC(OFF, R, DST) \
	VMOVUPD OFF(SI)(R*1), Y8; \
	VMOVUPD OFF(DX)(R*1), Y9; \
	VMOVDDUP Y9, Y10; \
	VPERMILPD $15, Y9, Y9; \
	VPERMILPD $5, Y8, DST; \
	VMULPD Y9, DST, DST; \
	VFMSUBADD231PD Y10, Y8, DST

// CMULCM is CMULC for the last, single complex value of a row (mask in Y15).
#define CMULCM(OFF, R, DST) \
	VMASKMOVPD OFF(SI)(R*1), Y15, Y8; \
	VMASKMOVPD OFF(DX)(R*1), Y15, Y9; \
	VMOVDDUP Y9, Y10; \
	VPERMILPD $15, Y9, Y9; \
	VPERMILPD $5, Y8, DST; \
	VMULPD Y9, DST, DST; \
	VFMSUBADD231PD Y10, Y8, DST

// IDFT4 takes the inverse 4-point DFT of Y0-Y3 (n1 = 0..3): b0 = Y6, b2 = Y7 first,
// then b1 = Y6, b3 = Y7 after STORE02 has run. Clobbers Y0, Y1, Y4, Y5.
#define IDFT4_02 \
	VADDPD Y2, Y0, Y4; \
	VSUBPD Y2, Y0, Y0; \
	VADDPD Y3, Y1, Y5; \
	VSUBPD Y3, Y1, Y1; \
	VADDPD Y5, Y4, Y6; \
	VSUBPD Y5, Y4, Y7

#define IDFT4_13 \
	VPERMILPD $5, Y1, Y1; \
	VADDSUBPD Y1, Y0, Y6; \
	VXORPD pfa28AsmTab_oddneg(R11), Y1, Y1; \
	VADDPD Y1, Y0, Y7

// DFT7_PRE starts the inverse 7-point DFT of Y0-Y6: Y7, Y6, Y5 = p1, p2, p3 (a_k +
// a_{7-k}), Y1, Y2, Y3 = the differences a_k - a_{7-k} with real and imaginary parts
// swapped, and Y8 = b0. Y4 is free afterwards.
#define DFT7_PRE \
	VADDPD Y6, Y1, Y7; \
	VSUBPD Y6, Y1, Y1; \
	VADDPD Y5, Y2, Y6; \
	VSUBPD Y5, Y2, Y2; \
	VADDPD Y4, Y3, Y5; \
	VSUBPD Y4, Y3, Y3; \
	VPERMILPD $5, Y1, Y1; \
	VPERMILPD $5, Y2, Y2; \
	VPERMILPD $5, Y3, Y3; \
	VADDPD Y7, Y0, Y8; \
	VADDPD Y6, Y8, Y8; \
	VADDPD Y5, Y8, Y8

// DFT7_Pu computes the outputs b_u (Y11) and b_{7-u} (Y12) as t ± w with
// t = a0 + sum_k cos(2πku/7)·p_k and w = -i·U, U as in dft7rows (sign -1).
#define DFT7_P1 \
	VMOVAPD Y0, Y9; \
	VFMADD231PD (pfa28AsmTab_c+0)(R11), Y7, Y9; \
	VFMADD231PD (pfa28AsmTab_c+32)(R11), Y6, Y9; \
	VFMADD231PD (pfa28AsmTab_c+64)(R11), Y5, Y9; \
	VMULPD (pfa28AsmTab_s+0)(R11), Y1, Y10; \
	VFMADD231PD (pfa28AsmTab_s+32)(R11), Y2, Y10; \
	VFMADD231PD (pfa28AsmTab_s+64)(R11), Y3, Y10; \
	VADDPD Y10, Y9, Y11; \
	VSUBPD Y10, Y9, Y12

#define DFT7_P2 \
	VMOVAPD Y0, Y9; \
	VFMADD231PD (pfa28AsmTab_c+32)(R11), Y7, Y9; \
	VFMADD231PD (pfa28AsmTab_c+64)(R11), Y6, Y9; \
	VFMADD231PD (pfa28AsmTab_c+0)(R11), Y5, Y9; \
	VMULPD (pfa28AsmTab_s+32)(R11), Y1, Y10; \
	VFNMADD231PD (pfa28AsmTab_s+64)(R11), Y2, Y10; \
	VFNMADD231PD (pfa28AsmTab_s+0)(R11), Y3, Y10; \
	VADDPD Y10, Y9, Y11; \
	VSUBPD Y10, Y9, Y12

#define DFT7_P3 \
	VMOVAPD Y0, Y9; \
	VFMADD231PD (pfa28AsmTab_c+64)(R11), Y7, Y9; \
	VFMADD231PD (pfa28AsmTab_c+0)(R11), Y6, Y9; \
	VFMADD231PD (pfa28AsmTab_c+32)(R11), Y5, Y9; \
	VMULPD (pfa28AsmTab_s+64)(R11), Y1, Y10; \
	VFNMADD231PD (pfa28AsmTab_s+0)(R11), Y2, Y10; \
	VFMADD231PD (pfa28AsmTab_s+32)(R11), Y3, Y10; \
	VADDPD Y10, Y9, Y11; \
	VSUBPD Y10, Y9, Y12

// Pass 1, stage A: products and 4-point inverse DFTs over n1, two kx at a time.
#define P1A_V(OFF) \
	CMULC(OFF, R8, Y0); \
	CMULC(OFF, R9, Y1); \
	CMULC(OFF, R10, Y2); \
	CMULC(OFF, R12, Y3); \
	IDFT4_02; \
	VMOVUPD Y6, (OFF)(DI); \
	VMOVUPD Y7, (OFF+3584)(DI); \
	IDFT4_13; \
	VMOVUPD Y6, (OFF+1792)(DI); \
	VMOVUPD Y7, (OFF+5376)(DI)

#define P1A_TAIL(OFF) \
	CMULCM(OFF, R8, Y0); \
	CMULCM(OFF, R9, Y1); \
	CMULCM(OFF, R10, Y2); \
	CMULCM(OFF, R12, Y3); \
	IDFT4_02; \
	VMOVUPD Y6, (OFF)(DI); \
	VMOVUPD Y7, (OFF+3584)(DI); \
	IDFT4_13; \
	VMOVUPD Y6, (OFF+1792)(DI); \
	VMOVUPD Y7, (OFF+5376)(DI)

// func pfa28Pass1A(xs, zs, t *complex128, tab *pfa28AsmTab)
TEXT ·pfa28Pass1A(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ zs+8(FP), DX
	MOVQ t+16(FP), DI
	MOVQ tab+24(FP), R11
	VMOVUPD pfa28AsmTab_tail(R11), Y15
	MOVQ R11, R13
	MOVQ $7, CX

p1a_loop:
	MOVQ (pfa28AsmTab_in1+0)(R13), R8
	MOVQ (pfa28AsmTab_in1+8)(R13), R9
	MOVQ (pfa28AsmTab_in1+16)(R13), R10
	MOVQ (pfa28AsmTab_in1+24)(R13), R12
	P1A_V(0)
	P1A_V(32)
	P1A_V(64)
	P1A_V(96)
	P1A_V(128)
	P1A_V(160)
	P1A_V(192)
	P1A_TAIL(224)
	ADDQ $32, R13
	ADDQ $256, DI
	DECQ CX
	JNZ  p1a_loop
	VZEROUPPER
	RET

// ST2 stores the two complex values of Y (kx = 2v, 2v+1; X its low half) at offset R
// (the place of y) of rows 2v and 2v+1 of qt (OOFF = v·896).
#define ST2(Y, X, R, OOFF) \
	VMOVUPD X, (OOFF)(DI)(R*1); \
	VEXTRACTF128 $1, Y, (OOFF+448)(DI)(R*1)

// Pass 1, stage B: 7-point inverse DFTs over n2, written transposed.
#define P1B_V(IOFF, OOFF) \
	VMOVUPD (IOFF)(SI), Y0; \
	VMOVUPD (IOFF+256)(SI), Y1; \
	VMOVUPD (IOFF+512)(SI), Y2; \
	VMOVUPD (IOFF+768)(SI), Y3; \
	VMOVUPD (IOFF+1024)(SI), Y4; \
	VMOVUPD (IOFF+1280)(SI), Y5; \
	VMOVUPD (IOFF+1536)(SI), Y6; \
	DFT7_PRE; \
	ST2(Y8, X8, AX, OOFF); \
	DFT7_P1; \
	ST2(Y11, X11, BX, OOFF); \
	ST2(Y12, X12, R12, OOFF); \
	DFT7_P2; \
	ST2(Y11, X11, DX, OOFF); \
	ST2(Y12, X12, R10, OOFF); \
	DFT7_P3; \
	ST2(Y11, X11, R8, OOFF); \
	ST2(Y12, X12, R9, OOFF)

// func pfa28Pass1B(t, qt *complex128, tab *pfa28AsmTab)
TEXT ·pfa28Pass1B(SB), NOSPLIT, $0-24
	MOVQ t+0(FP), SI
	MOVQ qt+8(FP), DI
	MOVQ tab+16(FP), R11
	MOVQ R11, R13
	MOVQ $4, CX

p1b_loop:
	MOVQ (pfa28AsmTab_out1+0)(R13), AX
	MOVQ (pfa28AsmTab_out1+8)(R13), BX
	MOVQ (pfa28AsmTab_out1+16)(R13), DX
	MOVQ (pfa28AsmTab_out1+24)(R13), R8
	MOVQ (pfa28AsmTab_out1+32)(R13), R9
	MOVQ (pfa28AsmTab_out1+40)(R13), R10
	MOVQ (pfa28AsmTab_out1+48)(R13), R12
	P1B_V(0, 0)
	P1B_V(32, 896)
	P1B_V(64, 1792)
	P1B_V(96, 2688)
	P1B_V(128, 3584)
	P1B_V(160, 4480)
	P1B_V(192, 5376)
	P1B_V(224, 6272)
	ADDQ $56, R13
	ADDQ $1792, SI
	DECQ CX
	JNZ  p1b_loop
	VZEROUPPER
	RET

// PACK sets DST to Z_r = Q[2r] + i·Q[2r+1] at column k for r = 2v, 2v+1 (conjugated
// values for k > 14 through the masks of entry n1), from row R of qt (QOFF = v·32: the
// even rows y = 2r, then 224 bytes on the odd rows y = 2r+1).
#define PACK(QOFF, R, N1, DST) \
	VMOVUPD (QOFF)(SI)(R*1), Y10; \
	VPERMILPD $5, (QOFF+224)(SI)(R*1), Y11; \
	VXORPD (pfa28AsmTab_in2mA+N1*32)(AX), Y10, Y10; \
	VXORPD (pfa28AsmTab_in2mB+N1*32)(AX), Y11, Y11; \
	VADDPD Y11, Y10, DST

// Pass 2, stage A: row-pair packing and 4-point inverse DFTs over n1.
#define P2A_V(QOFF, TOFF) \
	PACK(QOFF, R8, 0, Y0); \
	PACK(QOFF, R9, 1, Y1); \
	PACK(QOFF, R10, 2, Y2); \
	PACK(QOFF, R12, 3, Y3); \
	IDFT4_02; \
	VMOVUPD Y6, (TOFF)(DI); \
	VMOVUPD Y7, (TOFF+3136)(DI); \
	IDFT4_13; \
	VMOVUPD Y6, (TOFF+1568)(DI); \
	VMOVUPD Y7, (TOFF+4704)(DI)

// func pfa28Pass2A(qt, t2 *complex128, tab *pfa28AsmTab)
TEXT ·pfa28Pass2A(SB), NOSPLIT, $0-24
	MOVQ qt+0(FP), SI
	MOVQ t2+8(FP), DI
	MOVQ tab+16(FP), R11
	MOVQ R11, R13
	MOVQ R11, AX
	MOVQ $7, CX

p2a_loop:
	MOVQ (pfa28AsmTab_in2row+0)(R13), R8
	MOVQ (pfa28AsmTab_in2row+8)(R13), R9
	MOVQ (pfa28AsmTab_in2row+16)(R13), R10
	MOVQ (pfa28AsmTab_in2row+24)(R13), R12
	P2A_V(0, 0)
	P2A_V(32, 32)
	P2A_V(64, 64)
	P2A_V(96, 96)
	P2A_V(128, 128)
	P2A_V(160, 160)
	P2A_V(192, 192)
	ADDQ $32, R13
	ADDQ $128, AX
	ADDQ $224, DI
	DECQ CX
	JNZ  p2a_loop
	VZEROUPPER
	RET

// LOAD7 loads the seven t2 rows j = 0..6 of the current k1 at lane offset OFF.
#define LOAD7(OFF) \
	VMOVUPD (OFF)(SI), Y0; \
	VMOVUPD (OFF+224)(SI), Y1; \
	VMOVUPD (OFF+448)(SI), Y2; \
	VMOVUPD (OFF+672)(SI), Y3; \
	VMOVUPD (OFF+896)(SI), Y4; \
	VMOVUPD (OFF+1120)(SI), Y5; \
	VMOVUPD (OFF+1344)(SI), Y6

// Pass 2, stage B with the reduction: every real and imaginary lane of the outputs is
// one correlation. P2B_MAX keeps two running maxima (Y13, Y14), P2B_MAXMIN the maximum
// (Y13) and the minimum (Y14).
#define P2B_MAX(OFF) \
	LOAD7(OFF); \
	DFT7_PRE; \
	VMAXPD Y8, Y13, Y13; \
	DFT7_P1; \
	VMAXPD Y11, Y14, Y14; \
	VMAXPD Y12, Y13, Y13; \
	DFT7_P2; \
	VMAXPD Y11, Y14, Y14; \
	VMAXPD Y12, Y13, Y13; \
	DFT7_P3; \
	VMAXPD Y11, Y14, Y14; \
	VMAXPD Y12, Y13, Y13

#define P2B_MAXMIN(OFF) \
	LOAD7(OFF); \
	DFT7_PRE; \
	VMAXPD Y8, Y13, Y13; \
	VMINPD Y8, Y14, Y14; \
	DFT7_P1; \
	VMAXPD Y11, Y13, Y13; \
	VMINPD Y11, Y14, Y14; \
	VMAXPD Y12, Y13, Y13; \
	VMINPD Y12, Y14, Y14; \
	DFT7_P2; \
	VMAXPD Y11, Y13, Y13; \
	VMINPD Y11, Y14, Y14; \
	VMAXPD Y12, Y13, Y13; \
	VMINPD Y12, Y14, Y14; \
	DFT7_P3; \
	VMAXPD Y11, Y13, Y13; \
	VMINPD Y11, Y14, Y14; \
	VMAXPD Y12, Y13, Y13; \
	VMINPD Y12, Y14, Y14

// func pfa28Pass2BMax(t2 *complex128, tab *pfa28AsmTab) (mx float64)
TEXT ·pfa28Pass2BMax(SB), NOSPLIT, $0-24
	MOVQ t2+0(FP), SI
	MOVQ tab+8(FP), R11
	VMOVUPD (pfa28AsmTab_inf+0)(R11), Y13
	VMOVUPD (pfa28AsmTab_inf+0)(R11), Y14
	MOVQ $4, CX

p2bx_loop:
	P2B_MAX(0)
	P2B_MAX(32)
	P2B_MAX(64)
	P2B_MAX(96)
	P2B_MAX(128)
	P2B_MAX(160)
	P2B_MAX(192)
	ADDQ $1568, SI
	DECQ CX
	JNZ  p2bx_loop
	VMAXPD Y14, Y13, Y13
	VEXTRACTF128 $1, Y13, X14
	VMAXPD X14, X13, X13
	VPERMILPD $1, X13, X14
	VMAXPD X14, X13, X13
	VZEROUPPER
	MOVSD X13, mx+16(FP)
	RET

// func pfa28Pass2BMaxMin(t2 *complex128, tab *pfa28AsmTab) (mx, mn float64)
TEXT ·pfa28Pass2BMaxMin(SB), NOSPLIT, $0-32
	MOVQ t2+0(FP), SI
	MOVQ tab+8(FP), R11
	VMOVUPD (pfa28AsmTab_inf+0)(R11), Y13
	VMOVUPD (pfa28AsmTab_inf+32)(R11), Y14
	MOVQ $4, CX

p2bm_loop:
	P2B_MAXMIN(0)
	P2B_MAXMIN(32)
	P2B_MAXMIN(64)
	P2B_MAXMIN(96)
	P2B_MAXMIN(128)
	P2B_MAXMIN(160)
	P2B_MAXMIN(192)
	ADDQ $1568, SI
	DECQ CX
	JNZ  p2bm_loop
	VEXTRACTF128 $1, Y13, X12
	VMAXPD X12, X13, X13
	VPERMILPD $1, X13, X12
	VMAXPD X12, X13, X13
	VEXTRACTF128 $1, Y14, X12
	VMINPD X12, X14, X14
	VPERMILPD $1, X14, X12
	VMINPD X12, X14, X14
	VZEROUPPER
	MOVSD X13, mx+16(FP)
	MOVSD X14, mn+24(FP)
	RET
