package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Float64 is a blas.Float64 whose level-3 routines run on the packed float64 GEMM of
// this package (Go-assembly micro-kernels: an 8×24 tile of ZMM registers with AVX-512, a
// 6×8 tile of YMM with AVX2+FMA, chosen at start-up), whose Dsymv and Dgemv run on
// vectorised kernels of their own, and whose other routines are gonum's pure-Go ones,
// embedded. Where the CPU or the build has no micro-kernel (DgemmImpl does not say
// "avx512" or "avx2"), every routine is gonum's. The default build installs it with
// blas64.Use at start-up, so that gonum's mat and lapack products run on it; the openblas
// build installs OpenBLAS instead.
//
// Results agree with gonum's to rounding (each product summed over k with fused
// multiply-adds, in k blocks of 256), not bit for bit. Unlike gonum's loops, which skip
// zero entries of A in some transposes, every product a·b is formed, so an Inf or NaN in
// B meets a zero of A as 0·Inf = NaN, as in OpenBLAS; and alpha = 0 reads neither A nor
// B, as the reference BLAS (gonum multiplies them by 0, so a NaN in A reaches C). beta =
// 0 never reads C: NaN in C does not survive. Arguments are checked as gonum checks them, with the same panics.
type Float64 struct {
	gonum.Implementation
}

// Panic messages of gonum's BLAS, repeated so that Float64 panics as gonum does.
const (
	badTranspose = "blas: illegal transpose"
	mLT0         = "blas: m < 0"
	nLT0         = "blas: n < 0"
	kLT0         = "blas: k < 0"
	badLdA       = "blas: bad leading dimension of A"
	badLdB       = "blas: bad leading dimension of B"
	badLdC       = "blas: bad leading dimension of C"
	shortA       = "blas: insufficient length of a"
	shortB       = "blas: insufficient length of b"
	shortC       = "blas: insufficient length of c"
)

// Dgemm computes
//
//	C = alpha·op(A)·op(B) + beta·C,   op(X) = X or Xᵀ as tA, tB say,
//
// with op(A) m×k, op(B) k×n and C m×n, all row-major with leading dimensions lda, ldb,
// ldc (gonum's convention), on the packed micro-kernel, parallel over GOMAXPROCS
// goroutines for large products; products of fewer than 1024 multiply-adds go to
// gonum's loops. alpha == 0 or k == 0 leaves only beta·C (A and B are not read); beta
// == 0 overwrites C without reading it. It panics with gonum's messages on bad
// arguments.
func (f Float64) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if dkernAsm == nil || (m*n*k < dgemmSmall && alpha != 0 && m > 0 && n > 0 && k > 0) {
		f.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	dgemm(dkernAsm, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// dgemmSmall is the number of multiply-adds m·n·k below which Dgemm leaves the product
// to gonum's loops: packing costs more than it saves there (8×8×8: 0.90 µs packed
// against 0.81 µs for gonum, 16×16×16: 1.5 against 3.6 µs, one core of the Xeon).
const dgemmSmall = 1024

// dgemm is Dgemm on the micro-kernel kn (the tests pass the Go twins).
func dgemm(kn *dkern, tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	checkTrans(tA)
	checkTrans(tB)
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case k < 0:
		panic(kLT0)
	}
	aT, bT := tA != blas.NoTrans, tB != blas.NoTrans
	if (aT && lda < max(1, m)) || (!aT && lda < max(1, k)) {
		panic(badLdA)
	}
	if (bT && ldb < max(1, k)) || (!bT && ldb < max(1, n)) {
		panic(badLdB)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if (aT && len(a) < (k-1)*lda+m) || (!aT && len(a) < (m-1)*lda+k) {
		panic(shortA)
	}
	if (bT && len(b) < (n-1)*ldb+k) || (!bT && len(b) < (k-1)*ldb+n) {
		panic(shortB)
	}
	if len(c) < (m-1)*ldc+n {
		panic(shortC)
	}
	if alpha == 0 || k == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	if swapNarrow(kn, m, n) {
		// C narrow: Cᵀ = op(B)ᵀ·op(A)ᵀ (n×m) fills the tiles better; its transpose is
		// added to beta·C.
		t := make([]float64, n*m)
		dgemmPacked(kn, !bT, !aT, n, m, k, alpha, b, ldb, a, lda, 0, t, m)
		for i := range m {
			row := c[i*ldc : i*ldc+n]
			for j := range row {
				v := t[j*m+i]
				switch beta {
				case 0:
				case 1:
					v += row[j]
				default:
					v += beta * row[j]
				}
				row[j] = v
			}
		}
		return
	}
	dgemmPacked(kn, aT, bT, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// swapNarrow reports whether the m×n product C is better computed as Cᵀ: C narrow (n at
// most 4 column tiles and at most m/4) with more padding in its last column tile (nr
// wide) than Cᵀ would have in its last row tile (mr high); for example the 32 columns
// of Dlarfb's W = C₂ᵀ·V₂ on the 8×24 tile (48 computed for 32, against exactly 32).
func swapNarrow(kn *dkern, m, n int) bool {
	colPad := (n+kn.nr-1)/kn.nr*kn.nr - n
	rowPad := (n+kn.mr-1)/kn.mr*kn.mr - n
	return n <= 4*kn.nr && 4*n <= m && colPad > rowPad
}

func checkTrans(t blas.Transpose) {
	if t != blas.NoTrans && t != blas.Trans && t != blas.ConjTrans {
		panic(badTranspose)
	}
}

// scaleC sets the m×n matrix C to beta·C (to zero, without reading it, when beta == 0).
func scaleC(m, n int, beta float64, c []float64, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// DgemmPacked reports whether blas64's level-3 routines run on the packed Go-assembly
// float64 GEMM of [Float64] in this build and on this CPU (amd64 with AVX2 and FMA, not
// -tags purego or openblas).
func DgemmPacked() bool { return dkernAsm != nil }

// DgemmImpl names the implementation behind blas64's level-3 routines in this build and
// on this CPU: "avx512" or "avx2" (the packed Go-assembly float64 GEMM of [Float64], with
// its AVX-512 or its AVX2+FMA micro-kernel, on amd64 CPUs with AVX2 and FMA, unless built
// with -tags purego or -tags openblas) or "blas64 (" + [BLAS]() + ")".
func DgemmImpl() string {
	if dkernAsm != nil {
		return dkernAsm.name
	}
	return "blas64 (" + BLAS() + ")"
}

// gonumRef is gonum's pure-Go BLAS, for the cases Float64 leaves to it.
var gonumRef gonum.Implementation
