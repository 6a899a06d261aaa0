package linalg

import (
	"context"
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Float32 is a blas.Float32 whose Sgemm runs on the packed float32 GEMM of this package
// ([PackB], [PackedB.MulNT]: the AVX-512 or AVX2+FMA micro-kernel) where the build and
// CPU have it ([SgemmPacked]), parallel over GOMAXPROCS goroutines by row blocks of C,
// and whose other routines are gonum's pure-Go ones, embedded. The default build
// installs it with blas32.Use at start-up, so that every blas32.Gemm (the locality
// kernels' explicit maps, the best-fit Gram's float32 products) runs at the speed of the
// CDF projections instead of on gonum's loops (about a tenth of it); the openblas build
// installs OpenBLAS instead.
//
// Results agree with gonum's to float32 rounding (sums over k in blocks of about 256,
// with fused multiply-adds), not bit for bit. beta = 0 never reads C; alpha = 0 reads
// neither A nor B. Arguments are checked as gonum checks them, with the same panics.
type Float32 struct {
	gonum.Implementation
}

// sgemmSmall is the number of multiply-adds below which Sgemm leaves the product to
// gonum's loops; products with fewer than 4 rows or columns stay there too, where the
// 6×16 tile would be mostly padding. (The Nyström solve's 10 right-hand sides use 10
// of the tile's 16 columns and still beat gonum's loops: the whole
// mnist-full-tune --quick study 12.4 -> 8.2 CPU-s, OpenBLAS 7.6.)
const sgemmSmall = 32 * 32 * 32

// Sgemm computes
//
//	C = alpha·op(A)·op(B) + beta·C,   op(X) = X or Xᵀ as tA, tB say,
//
// with op(A) m×k, op(B) k×n and C m×n, row-major with leading dimensions lda, ldb, ldc
// (gonum's convention), on the packed micro-kernel when the build has it and the product
// is large enough (at least sgemmSmall multiply-adds, m >= 4 and n >= 4), else on
// gonum's loops. It panics with gonum's messages on bad arguments.
func (f Float32) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !useAsmSgemm || !sgemmPackedFits(m, n, k, alpha) {
		f.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	checkSgemm(tA, tB, m, n, k, a, lda, b, ldb, c, ldc)
	sgemmPacked(kernelAsm, tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemmPackedFits reports whether Sgemm takes the packed path for an m×n×k product.
func sgemmPackedFits(m, n, k int, alpha float32) bool {
	return alpha != 0 && m >= 4 && n >= 4 && k > 0 && m*n*k >= sgemmSmall
}

// checkSgemm panics as gonum's Sgemm does on bad arguments (m, n, k > 0 here).
func checkSgemm(tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	checkTrans(tA)
	checkTrans(tB)
	aT, bT := tA != blas.NoTrans, tB != blas.NoTrans
	switch {
	case (aT && lda < max(1, m)) || (!aT && lda < max(1, k)):
		panic(badLdA)
	case (bT && ldb < max(1, k)) || (!bT && ldb < max(1, n)):
		panic(badLdB)
	case ldc < max(1, n):
		panic(badLdC)
	case (aT && len(a) < (k-1)*lda+m) || (!aT && len(a) < (m-1)*lda+k):
		panic(shortA)
	case (bT && len(b) < (n-1)*ldb+k) || (!bT && len(b) < (k-1)*ldb+n):
		panic(shortB)
	case len(c) < (m-1)*ldc+n:
		panic(shortC)
	}
}

// sgemmPacked is Sgemm's packed path on the micro-kernel kern (the tests pass the Go
// twin): op(B)ᵀ is copied into an n×k row-major operand and packed once, and the row
// blocks of C, [lo, hi), run on ParallelFor's workers, each with its rows of op(A)
// (copied when A is transposed) and, unless alpha = 1 and beta = 0, a block of A·Bᵀ that
// is then scaled into C.
func sgemmPacked(kern kernelFunc, aT, bT bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	bp := make([]float32, n*k)
	if bT { // b holds op(B)ᵀ: n×k
		for j := range n {
			copy(bp[j*k:(j+1)*k], b[j*ldb:j*ldb+k])
		}
	} else { // b is k×n
		for p := range k {
			for j, v := range b[p*ldb : p*ldb+n] {
				bp[j*k+p] = v
			}
		}
	}
	pb := packB(n, k, bp, k, true, kern)
	block := (m + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0)
	block = min(256, (block+mr-1)/mr*mr)
	direct := alpha == 1 && beta == 0
	_ = ParallelFor(context.Background(), m, block, func(lo, hi int) error {
		rows := hi - lo
		ab, ldab := a[min(lo*lda, len(a)):], lda
		if aT { // a is k×m: rows lo..hi of op(A) are its columns lo..hi
			ab, ldab = make([]float32, rows*k), k
			for p := range k {
				for i, v := range a[p*lda+lo : p*lda+hi] {
					ab[i*k+p] = v
				}
			}
		}
		if direct {
			pb.MulNT(rows, ab, ldab, c[lo*ldc:], ldc)
			return nil
		}
		t := make([]float32, rows*n)
		pb.MulNT(rows, ab, ldab, t, n)
		for i := range rows {
			row, tr := c[(lo+i)*ldc:(lo+i)*ldc+n], t[i*n:(i+1)*n]
			for j, v := range tr {
				v *= alpha
				if beta != 0 {
					v += beta * row[j]
				}
				row[j] = v
			}
		}
		return nil
	})
}
