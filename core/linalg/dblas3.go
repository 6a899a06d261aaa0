package linalg

import (
	"context"
	"runtime"

	"gonum.org/v1/gonum/blas"
)

// Panic messages of gonum's BLAS for the arguments of the symmetric and triangular
// routines.
const (
	badUplo = "blas: illegal triangle"
	badDiag = "blas: illegal diagonal"
	badSide = "blas: illegal side"
)

// l3Block is the order of the diagonal blocks of the blocked level-3 routines: the
// off-diagonal parts are products on the micro-kernel, each diagonal block one more.
const l3Block = 192

// level3 holds the blocked level-3 routines on the micro-kernel kn (Float64 uses the
// assembly one; the tests pass the Go twins).
type level3 struct{ kn *dkern }

// rows returns the slice at which rows i.. of op(X) start, op(X) = X or Xᵀ as trans
// says, X row-major at stride ld: X[i·ld:] or X[i:].
func rows(x []float64, ld int, trans bool, i int) []float64 {
	if trans {
		return x[i:]
	}
	return x[i*ld:]
}

func checkUplo(ul blas.Uplo) {
	if ul != blas.Upper && ul != blas.Lower {
		panic(badUplo)
	}
}

// checkRank checks the arguments of Dsyrk (b == nil) and Dsyr2k as gonum does and
// returns whether there is nothing to do (n == 0).
func checkRank(ul blas.Uplo, tA blas.Transpose, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int, two bool) bool {
	checkUplo(ul)
	checkTrans(tA)
	if n < 0 {
		panic(nLT0)
	}
	if k < 0 {
		panic(kLT0)
	}
	row, col := k, n
	if tA == blas.NoTrans {
		row, col = n, k
	}
	if lda < max(1, col) {
		panic(badLdA)
	}
	if two && ldb < max(1, col) {
		panic(badLdB)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if n == 0 {
		return true
	}
	if len(a) < lda*(row-1)+col {
		panic(shortA)
	}
	if two && len(b) < ldb*(row-1)+col {
		panic(shortB)
	}
	if len(c) < ldc*(n-1)+n {
		panic(shortC)
	}
	return false
}

// Dsyrk computes the ul triangle of
//
//	C = alpha·A·Aᵀ + beta·C   (tA = NoTrans, A n×k)   or   C = alpha·Aᵀ·A + beta·C   (A k×n)
//
// for the symmetric n×n C, leaving its other triangle untouched, row-major as in gonum.
// Row blocks of 192: the part of C right of (Upper) or left of (Lower) a block's diagonal
// block is one product on the micro-kernel, the diagonal block another, computed whole
// and added to the triangle. alpha == 0 or k == 0 only scales C's triangle by beta;
// beta == 0 does not read C (gonum's Dsyrk multiplies C by 0, keeping its NaN). It panics with gonum's messages on bad arguments.
func (f Float64) Dsyrk(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if dkernAsm == nil {
		f.Implementation.Dsyrk(ul, tA, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	level3{dkernAsm}.dsyrk(ul, tA, n, k, alpha, a, lda, beta, c, ldc)
}

func (l level3) dsyrk(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if checkRank(ul, tA, n, k, a, lda, nil, 0, c, ldc, false) {
		return
	}
	if alpha == 0 || k == 0 {
		scaleTri(ul, n, beta, c, ldc)
		return
	}
	l.rankUpdate(ul, tA, n, k, alpha, a, lda, a, lda, beta, c, ldc)
}

// Dsyr2k computes the ul triangle of
//
//	C = alpha·A·Bᵀ + alpha·B·Aᵀ + beta·C   (tA = NoTrans, A, B n×k)   or
//	C = alpha·Aᵀ·B + alpha·Bᵀ·A + beta·C   (A, B k×n)
//
// for the symmetric n×n C, leaving its other triangle untouched, blocked as Dsyrk on
// the operands stacked side by side, [A B]·[B A]ᵀ: one product of depth 2k per block. alpha == 0 or k == 0 only scales C's triangle; beta == 0 does
// not read C. It
// panics with gonum's messages on bad arguments.
func (f Float64) Dsyr2k(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if dkernAsm == nil {
		f.Implementation.Dsyr2k(ul, tA, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	level3{dkernAsm}.dsyr2k(ul, tA, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (l level3) dsyr2k(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if checkRank(ul, tA, n, k, a, lda, b, ldb, c, ldc, true) {
		return
	}
	if alpha == 0 || k == 0 {
		scaleTri(ul, n, beta, c, ldc)
		return
	}
	// One product of depth 2k instead of two of depth k, C read and written once:
	// A·Bᵀ + B·Aᵀ = X·Yᵀ with X = [A B], Y = [B A] (n×2k; for tA = Trans the k×n A and B
	// stacked, 2k×n).
	x := make([]float64, 4*n*k)
	y := x[2*n*k:]
	if tA == blas.NoTrans {
		for i := range n {
			ar, br := a[i*lda:i*lda+k], b[i*ldb:i*ldb+k]
			copy(x[2*k*i:], ar)
			copy(x[2*k*i+k:], br)
			copy(y[2*k*i:], br)
			copy(y[2*k*i+k:], ar)
		}
		l.rankUpdate(ul, tA, n, 2*k, alpha, x, 2*k, y, 2*k, beta, c, ldc)
		return
	}
	for p := range k {
		ar, br := a[p*lda:p*lda+n], b[p*ldb:p*ldb+n]
		copy(x[p*n:], ar)
		copy(x[(k+p)*n:], br)
		copy(y[p*n:], br)
		copy(y[(k+p)*n:], ar)
	}
	l.rankUpdate(ul, tA, n, 2*k, alpha, x, n, y, n, beta, c, ldc)
}

// scaleTri sets the ul triangle of the n×n C to beta·C (to zero, without reading it,
// when beta == 0).
func scaleTri(ul blas.Uplo, n int, beta float64, c []float64, ldc int) {
	if beta == 1 {
		return
	}
	for i := range n {
		lo, hi := i, n
		if ul == blas.Lower {
			lo, hi = 0, i+1
		}
		row := c[i*ldc+lo : i*ldc+hi]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// rankUpdate is the blocked C = alpha·op(A)·op(B)ᵀ + beta·C on C's ul triangle, for
// op(A)·op(B)ᵀ symmetric (B = A for Dsyrk; Dsyr2k's stacked operands): for each row
// block I of C,
//
//	C[I, J] = alpha·op(A)[I]·op(B)[J]ᵀ + beta·C[I, J]
//
// with J the columns right of I (Upper) or left of it (Lower), op(A)[I] the rows I of
// the n×k operand (A, or Aᵀ when tA != NoTrans); then the diagonal block, computed whole
// into scratch and added to C's triangle.
func (l level3) rankUpdate(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	tr := tA != blas.NoTrans
	// C[I,J] = X[I]·Y[J]ᵀ as a Dgemm: rows of op(A) times columns of op(A)ᵀ.
	tX, tY := blas.NoTrans, blas.Trans
	if tr {
		tX, tY = blas.Trans, blas.NoTrans
	}
	nb := min(l3Block, n)
	s := make([]float64, nb*nb)
	for i0 := 0; i0 < n; i0 += nb {
		i1 := min(i0+nb, n)
		m := i1 - i0
		j0, w := i1, n-i1 // the columns of the off-diagonal part
		if ul == blas.Lower {
			j0, w = 0, i0
		}
		if w > 0 {
			cIJ := c[i0*ldc+j0:]
			dgemm(l.kn, tX, tY, m, w, k, alpha, rows(a, lda, tr, i0), lda, rows(b, ldb, tr, j0), ldb, beta, cIJ, ldc)
		}
		dgemm(l.kn, tX, tY, m, m, k, alpha, rows(a, lda, tr, i0), lda, rows(b, ldb, tr, i0), ldb, 0, s, m)
		for i := range m {
			lo, hi := i, m // the triangle's part of row i of the block
			if ul == blas.Lower {
				lo, hi = 0, i+1
			}
			dst := c[(i0+i)*ldc+i0+lo : (i0+i)*ldc+i0+hi]
			src := s[i*m+lo : i*m+hi]
			switch beta {
			case 0:
				copy(dst, src)
			case 1:
				for j, v := range src {
					dst[j] += v
				}
			default:
				for j, v := range src {
					dst[j] = beta*dst[j] + v
				}
			}
		}
	}
}

// checkTri checks the arguments of Dtrmm and Dtrsm as gonum does and returns whether
// there is nothing to do (m == 0 or n == 0).
func checkTri(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, a []float64, lda int, b []float64, ldb int) bool {
	if s != blas.Left && s != blas.Right {
		panic(badSide)
	}
	checkUplo(ul)
	checkTrans(tA)
	if d != blas.NonUnit && d != blas.Unit {
		panic(badDiag)
	}
	if m < 0 {
		panic(mLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	k := n
	if s == blas.Left {
		k = m
	}
	if lda < max(1, k) {
		panic(badLdA)
	}
	if ldb < max(1, n) {
		panic(badLdB)
	}
	if m == 0 || n == 0 {
		return true
	}
	if len(a) < lda*(k-1)+k {
		panic(shortA)
	}
	if len(b) < ldb*(m-1)+n {
		panic(shortB)
	}
	return false
}

// tblock returns the operand at which T[r0:, c0:] starts, T = op(A) (A, or Aᵀ when
// tA != NoTrans), and its transpose flag for Dgemm.
func tblock(a []float64, lda int, tA blas.Transpose, r0, c0 int) ([]float64, blas.Transpose) {
	if tA == blas.NoTrans {
		return a[r0*lda+c0:], blas.NoTrans
	}
	return a[c0*lda+r0:], blas.Trans
}

// denseDiag writes the w×w diagonal block of T = op(A) at (i0, i0) into d (stride w)
// as a full matrix: T's triangle from A's stored one, zeros outside, ones on the
// diagonal when unit.
func denseDiag(d []float64, a []float64, lda int, ul blas.Uplo, tA blas.Transpose, unit bool, i0, w int) {
	upper := (ul == blas.Upper) == (tA == blas.NoTrans) // T's triangle
	for i := range w {
		row := d[i*w : i*w+w]
		clear(row)
		lo, hi := 0, i
		if upper {
			lo, hi = i+1, w
		}
		for j := lo; j < hi; j++ {
			if tA == blas.NoTrans {
				row[j] = a[(i0+i)*lda+i0+j]
			} else {
				row[j] = a[(i0+j)*lda+i0+i]
			}
		}
		row[i] = 1
		if !unit {
			row[i] = a[(i0+i)*lda+i0+i]
		}
	}
}

// Dtrmm computes
//
//	B = alpha·op(A)·B   (s = Left, A m×m)   or   B = alpha·B·op(A)   (s = Right, A n×n)
//
// for the m×n B, A triangular (its ul triangle read, ones taken for its diagonal when d
// is Unit), row-major as in gonum. Blocks of 192 of op(A)'s order: each block of B's
// rows (Left) or columns (Right) is one product with the dense diagonal block of op(A)
// and one with the part of op(A) beside it, in the order that reads only rows or
// columns of B not yet overwritten. alpha == 0 sets B to zero without reading it. It
// panics with gonum's messages on bad arguments.
func (f Float64) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if dkernAsm == nil {
		f.Implementation.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	level3{dkernAsm}.dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

func (l level3) dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if checkTri(s, ul, tA, d, m, n, a, lda, b, ldb) {
		return
	}
	if alpha == 0 {
		scaleC(m, n, 0, b, ldb)
		return
	}
	upper := (ul == blas.Upper) == (tA == blas.NoTrans) // op(A)'s triangle
	unit := d == blas.Unit
	ord := n
	if s == blas.Left {
		ord = m
	}
	nb := min(l3Block, ord)
	dd := make([]float64, nb*nb)
	// Left and upper, or Right and lower: the blocks in increasing order; else
	// decreasing.
	up := (s == blas.Left) == upper
	nblk := (ord + nb - 1) / nb
	for q := range nblk {
		if !up {
			q = nblk - 1 - q
		}
		i0 := q * nb
		i1 := min(i0+nb, ord)
		w := i1 - i0
		denseDiag(dd[:w*w], a, lda, ul, tA, unit, i0, w)
		if s == blas.Left {
			// B[I,:] = alpha·(T[I,I]·B[I,:] + T[I,J]·B[J,:]), J below I (upper) or above.
			wk := make([]float64, w*n)
			dgemm(l.kn, blas.NoTrans, blas.NoTrans, w, n, w, alpha, dd, w, b[i0*ldb:], ldb, 0, wk, n)
			j0, kk := i1, m-i1
			if !upper {
				j0, kk = 0, i0
			}
			if kk > 0 {
				t, tt := tblock(a, lda, tA, i0, j0)
				dgemm(l.kn, tt, blas.NoTrans, w, n, kk, alpha, t, lda, b[j0*ldb:], ldb, 1, wk, n)
			}
			for i := range w {
				copy(b[(i0+i)*ldb:(i0+i)*ldb+n], wk[i*n:(i+1)*n])
			}
			continue
		}
		// B[:,I] = alpha·(B[:,I]·T[I,I] + B[:,J]·T[J,I]), J left of I (upper) or right.
		wk := make([]float64, m*w)
		dgemm(l.kn, blas.NoTrans, blas.NoTrans, m, w, w, alpha, b[i0:], ldb, dd, w, 0, wk, w)
		j0, kk := 0, i0
		if !upper {
			j0, kk = i1, n-i1
		}
		if kk > 0 {
			t, tt := tblock(a, lda, tA, j0, i0)
			dgemm(l.kn, blas.NoTrans, tt, m, w, kk, alpha, b[j0:], ldb, t, lda, 1, wk, w)
		}
		for i := range m {
			copy(b[i*ldb+i0:i*ldb+i1], wk[i*w:(i+1)*w])
		}
	}
}

// trsmBlock is the order of Dtrsm's diagonal blocks, solved by gonum's Dtrsm (split
// over goroutines by B's columns or rows); smaller than l3Block because that solve is
// the slow part.
const trsmBlock = 64

// Dtrsm solves
//
//	op(A)·X = alpha·B   (s = Left, A m×m)   or   X·op(A) = alpha·B   (s = Right, A n×n)
//
// for the m×n X, overwriting B, A triangular (its ul triangle read, ones taken for its
// diagonal when d is Unit), row-major as in gonum. Blocked by 64 of op(A)'s order: each
// block of B's rows (Left) or columns (Right) is updated with the solved ones by a
// product on the micro-kernel, then solved with the diagonal block by gonum's Dtrsm,
// parallel over B's other dimension. alpha == 0 sets B to zero without reading it. It
// panics with gonum's messages on bad arguments.
func (f Float64) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if dkernAsm == nil {
		f.Implementation.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	level3{dkernAsm}.dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

func (l level3) dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if checkTri(s, ul, tA, d, m, n, a, lda, b, ldb) {
		return
	}
	if alpha != 1 {
		scaleC(m, n, alpha, b, ldb)
	}
	if alpha == 0 {
		return
	}
	upper := (ul == blas.Upper) == (tA == blas.NoTrans) // op(A)'s triangle
	ord := n
	if s == blas.Left {
		ord = m
	}
	nb := min(trsmBlock, ord)
	// Left and lower, or Right and upper: forward substitution (blocks in increasing
	// order); else backward.
	fwd := (s == blas.Left) != upper
	nblk := (ord + nb - 1) / nb
	for q := range nblk {
		if !fwd {
			q = nblk - 1 - q
		}
		i0 := q * nb
		i1 := min(i0+nb, ord)
		w := i1 - i0
		ad := a[i0*lda+i0:]
		if s == blas.Left {
			// B[I,:] -= T[I,J]·X[J,:] over the solved rows J, then solve T[I,I]·X[I,:] = B[I,:].
			j0, kk := 0, i0
			if !fwd {
				j0, kk = i1, m-i1
			}
			if kk > 0 {
				t, tt := tblock(a, lda, tA, i0, j0)
				dgemm(l.kn, tt, blas.NoTrans, w, n, kk, -1, t, lda, b[j0*ldb:], ldb, 1, b[i0*ldb:], ldb)
			}
			bi := b[i0*ldb:]
			ParallelFor(context.Background(), n, solveChunk(n, w), func(lo, hi int) error {
				gonumRef.Dtrsm(blas.Left, ul, tA, d, w, hi-lo, 1, ad, lda, bi[lo:], ldb)
				return nil
			})
			continue
		}
		// B[:,I] -= X[:,J]·T[J,I] over the solved columns J, then solve X[:,I]·T[I,I] = B[:,I].
		j0, kk := 0, i0
		if !fwd {
			j0, kk = i1, n-i1
		}
		if kk > 0 {
			t, tt := tblock(a, lda, tA, j0, i0)
			dgemm(l.kn, blas.NoTrans, tt, m, w, kk, -1, b[j0:], ldb, t, lda, 1, b[i0:], ldb)
		}
		ParallelFor(context.Background(), m, solveChunk(m, w), func(lo, hi int) error {
			gonumRef.Dtrsm(blas.Right, ul, tA, d, hi-lo, w, 1, ad, lda, b[lo*ldb+i0:], ldb)
			return nil
		})
	}
}

// solveChunk is the share of the len independent right-hand sides of a diagonal solve of
// order w per goroutine: all of them when the solve is small (under 2^18 flops a
// goroutine), else an equal share for each of GOMAXPROCS.
func solveChunk(length, w int) int {
	g := runtime.GOMAXPROCS(0)
	if g == 1 || length*w*w < g<<18 {
		return max(1, length)
	}
	return (length + g - 1) / g
}

// Dsymm computes
//
//	C = alpha·A·B + beta·C   (s = Left, A m×m)   or   C = alpha·B·A + beta·C   (s = Right, A n×n)
//
// for the m×n B and C, A symmetric (its ul triangle read), row-major as in gonum: per
// block of 192 rows (Left) or columns (Right) of A, that block made full from A's
// triangle and one product on the micro-kernel. alpha == 0 only scales C; beta == 0
// does not read C. It panics with gonum's messages on bad arguments.
func (f Float64) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if dkernAsm == nil {
		f.Implementation.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	level3{dkernAsm}.dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (l level3) dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if s != blas.Right && s != blas.Left {
		panic(badSide)
	}
	checkUplo(ul)
	if m < 0 {
		panic(mLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	k := n
	if s == blas.Left {
		k = m
	}
	if lda < max(1, k) {
		panic(badLdA)
	}
	if ldb < max(1, n) {
		panic(badLdB)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if len(a) < lda*(k-1)+k {
		panic(shortA)
	}
	if len(b) < ldb*(m-1)+n {
		panic(shortB)
	}
	if len(c) < ldc*(m-1)+n {
		panic(shortC)
	}
	if alpha == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	// sym returns A[r][c] of the full symmetric matrix from the stored triangle.
	sym := func(r, c int) float64 {
		if (ul == blas.Upper) == (c >= r) {
			return a[r*lda+c]
		}
		return a[c*lda+r]
	}
	nb := min(l3Block, k)
	p := make([]float64, nb*k)
	for i0 := 0; i0 < k; i0 += nb {
		i1 := min(i0+nb, k)
		w := i1 - i0
		if s == blas.Left {
			// C[I,:] = alpha·A[I,:]·B + beta·C[I,:], A[I,:] full in p (w×m).
			for i := range w {
				row := p[i*k : i*k+k]
				for j := range row {
					row[j] = sym(i0+i, j)
				}
			}
			dgemm(l.kn, blas.NoTrans, blas.NoTrans, w, n, m, alpha, p, k, b, ldb, beta, c[i0*ldc:], ldc)
			continue
		}
		// C[:,I] = alpha·B·A[:,I] + beta·C[:,I], A[:,I] full in p (n×w).
		for r := range k {
			row := p[r*w : r*w+w]
			for j := range row {
				row[j] = sym(r, i0+j)
			}
		}
		dgemm(l.kn, blas.NoTrans, blas.NoTrans, m, w, n, alpha, b, ldb, p, w, beta, c[i0:], ldc)
	}
}
