package linalg

import (
	"context"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
)

// gemvKern holds Dgemv's kernels for vector width w (4 with AVX2). Each takes n a
// multiple of w (n > 0 for the assembly); the methods dots, axpys do the rest in Go.
//
//	dot4(n, a, lda, x)     d[r] = Σ_{j<n} a[r·lda+j]·x[j] for r < 4: per row w lanes, lane l
//	                       summing (fused, j increasing) the products j ≡ l mod w, halved
//	                       down to one lane at the end (lane l plus lane l+w/2, ...)
//	dot1(n, a, x)          d[0] of dot4: one row, the same sum in the same order
//	axpy4(n, a, lda, y, s) y[j] = a[3·lda+j]·s[3] + (… + (a[j]·s[0] + y[j])), fused, j < n
//	axpy1(n, a, y, s)      y[j] = a[j]·s + y[j], fused
//
// so that a row's dot and a column's update do not depend on how rows are grouped: four
// rows at once are bit for bit four single rows.
type gemvKern struct {
	name  string
	w     int
	dot4  func(n int, a []float64, lda int, x []float64) [4]float64
	dot1  func(n int, a, x []float64) float64
	axpy4 func(n int, a []float64, lda int, y []float64, s *[4]float64)
	axpy1 func(n int, a, y []float64, s float64)
}

// gemvGo4 is the Go twin of the AVX2 kernels (the tests hold them bit for bit alike).
var gemvGo4 = &gemvKern{name: "go w=4", w: 4,
	dot4: func(n int, a []float64, lda int, x []float64) [4]float64 { return dotRowsGo(4, 4, n, a, lda, x) },
	dot1: func(n int, a, x []float64) float64 { return dotRowsGo(4, 1, n, a, 0, x)[0] },
	axpy4: func(n int, a []float64, lda int, y []float64, s *[4]float64) {
		axpyRowsGo(4, n, a, lda, y, s[:])
	},
	axpy1: func(n int, a, y []float64, s float64) { axpyRowsGo(1, n, a, 0, y, []float64{s}) },
}

// dotRowsGo is dot4's contract in Go for rows <= 4 rows and vector width w (4 or 8).
func dotRowsGo(w, rows, n int, a []float64, lda int, x []float64) [4]float64 {
	var acc [4][8]float64
	for q := 0; q+w <= n; q += w {
		for r := range rows {
			ar := a[r*lda+q : r*lda+q+w]
			for l := range w {
				acc[r][l] = math.FMA(ar[l], x[q+l], acc[r][l])
			}
		}
	}
	var d [4]float64
	for r := range rows {
		d[r] = halveLanes(acc[r], w)
	}
	return d
}

// axpyRowsGo is axpy4's contract in Go for len(s) rows.
func axpyRowsGo(rows, n int, a []float64, lda int, y, s []float64) {
	for j := range n {
		v := y[j]
		for r := range rows {
			v = math.FMA(a[r*lda+j], s[r], v)
		}
		y[j] = v
	}
}

// dots returns dot4 (rows == 4) or dot1 (rows == 1) over any n >= 0: the kernel on the
// largest multiple of its width, the rest of each row added in Go (fused, in order).
func (k *gemvKern) dots(rows, n int, a []float64, lda int, x []float64) [4]float64 {
	m := n / k.w * k.w
	var d [4]float64
	if m > 0 {
		if rows == 4 {
			d = k.dot4(m, a, lda, x)
		} else {
			d[0] = k.dot1(m, a, x)
		}
	}
	for j := m; j < n; j++ {
		for r := range rows {
			d[r] = math.FMA(a[r*lda+j], x[j], d[r])
		}
	}
	return d
}

// axpys is axpy4 (len(s) == 4) or axpy1 (len(s) == 1) over any n >= 0, the tail in Go.
func (k *gemvKern) axpys(n int, a []float64, lda int, y, s []float64) {
	m := n / k.w * k.w
	if m > 0 {
		if len(s) == 4 {
			k.axpy4(m, a, lda, y, (*[4]float64)(s))
		} else {
			k.axpy1(m, a, y, s[0])
		}
	}
	if m < n {
		axpyRowsGo(len(s), n-m, a[m:], lda, y[m:], s)
	}
}

// gemvParallel is the number of entries of A (m·n) from which Dgemv splits its work over
// GOMAXPROCS goroutines (half a megabyte: about 50 µs on one core, against a few µs to
// start the workers); smaller products run on the calling goroutine.
const gemvParallel = 1 << 16

// gemvRowBlock is the number of rows of A (a multiple of 4) in one block of a parallel
// NoTrans product: about 16,384 entries (128 KiB of A) per block.
func gemvRowBlock(n int) int {
	return max(4, ((1<<14)/n+3)/4*4)
}

// gemvColBlock is the number of columns of A in one block of a parallel Trans product:
// n split into ceil(n/2048) equal ranges, rounded up to a multiple of 8, so that a
// block's stretch of y (at most 16 KiB) stays in L1 while the rows of A stream past it
// in stretches long enough for the hardware prefetcher: at 4000×4000 on the AMD EPYC,
// one goroutine, blocks of 512 columns read A at 6.6 GB per CPU-second, of 1024 at 8.3,
// of 2048 at 9.6 and whole rows at 11.4.
func gemvColBlock(n int) int {
	parts := (n + 2047) / 2048
	return ((n+parts-1)/parts + 7) / 8 * 8
}

// dgemv is Dgemv with unit increments and checked arguments (m, n >= 1, lda >= n, len(a)
// >= lda·(m-1)+n, x and y long enough) on the kernels k. Every entry of y is computed by
// one goroutine from its row (NoTrans) or column (Trans) of A alone, in an order that
// does not depend on the blocks: the result does not depend on GOMAXPROCS or on the
// split.
func dgemv(k *gemvKern, tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	if alpha == 0 {
		if tA == blas.NoTrans {
			scaleVec(m, beta, y, 1)
		} else {
			scaleVec(n, beta, y, 1)
		}
		return
	}
	if tA == blas.NoTrans {
		x, y = x[:n], y[:m]
		blockRange(m, n, m, gemvRowBlock(n), func(lo, hi int) { gemvRows(k, lo, hi, n, alpha, a, lda, x, beta, y) })
		return
	}
	x, y = x[:m], y[:n]
	blockRange(m, n, n, gemvColBlock(n), func(lo, hi int) { gemvCols(k, lo, hi, m, alpha, a, lda, x, beta, y) })
}

// blockRange calls fn(lo, hi) over [0, total) in blocks of size bs, in parallel when the
// m×n product is large enough, else once over the whole range on this goroutine.
func blockRange(m, n, total, bs int, fn func(lo, hi int)) {
	if m*n < gemvParallel || total <= bs {
		fn(0, total)
		return
	}
	ParallelFor(context.Background(), total, bs, func(lo, hi int) error {
		fn(lo, hi)
		return nil
	})
}

// gemvRows sets y[i] = alpha·(A·x)[i] + beta·y[i] for rows lo <= i < hi, four rows at a
// time (x read once for the four), the last hi-lo mod 4 singly.
func gemvRows(k *gemvKern, lo, hi, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	i := lo
	for ; i+4 <= hi; i += 4 {
		d := k.dots(4, n, a[i*lda:], lda, x)
		for r := range 4 {
			y[i+r] = axpby(alpha, d[r], beta, y[i+r])
		}
	}
	for ; i < hi; i++ {
		y[i] = axpby(alpha, k.dots(1, n, a[i*lda:], 0, x)[0], beta, y[i])
	}
}

// axpby returns alpha·d + beta·y as gonum's Dgemv forms it: y not read when beta == 0.
func axpby(alpha, d, beta, y float64) float64 {
	switch beta {
	case 0:
		return alpha * d
	case 1:
		return y + alpha*d
	}
	return y*beta + alpha*d
}

// gemvCols sets y[j] = alpha·(Aᵀ·x)[j] + beta·y[j] for columns lo <= j < hi: y scaled by
// beta, then rows of A added four at a time, y[j] += (alpha·x[i])·a[i][j] fused, rows in
// increasing order.
func gemvCols(k *gemvKern, lo, hi, m int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	yb := y[lo:hi]
	scaleVec(len(yb), beta, yb, 1)
	n := hi - lo
	var s [4]float64
	i := 0
	for ; i+4 <= m; i += 4 {
		for r := range 4 {
			s[r] = alpha * x[i+r]
		}
		k.axpys(n, a[i*lda+lo:], lda, yb, s[:])
	}
	for ; i < m; i++ {
		s[0] = alpha * x[i]
		k.axpys(n, a[i*lda+lo:], 0, yb, s[:1])
	}
}

// scaleVec sets the n elements of the BLAS vector (v, inc) to beta times themselves (to
// zero, without reading them, when beta == 0; untouched when beta == 1).
func scaleVec(n int, beta float64, v []float64, inc int) {
	if beta == 1 {
		return
	}
	inc = abs(inc) // a negative increment names the same elements in reverse order
	for i := range n {
		if beta == 0 {
			v[i*inc] = 0
		} else {
			v[i*inc] *= beta
		}
	}
}

// gemvPool holds the contiguous copies of strided vectors.
var gemvPool = sync.Pool{New: func() any { return new([]float64) }}

// Dgemv computes
//
//	y = alpha·A·x + beta·y    tA == blas.NoTrans   (A m×n, x of n, y of m elements)
//	y = alpha·Aᵀ·x + beta·y   tA == blas.Trans or blas.ConjTrans   (x of m, y of n)
//
// for the row-major m×n A (gonum's convention) on vectorised kernels (AVX2+FMA), reading
// A once: NoTrans as dot products of A's rows with x, four rows at a time; Trans as y
// updated by four rows of A at a time (fused multiply-adds). Products of at least 65,536
// entries are split over GOMAXPROCS goroutines, NoTrans by blocks of rows, Trans by
// column ranges of at most 2048, each entry of y computed whole by one goroutine, so the
// result does not depend on GOMAXPROCS; smaller ones run on the calling goroutine.
// Vectors with increments
// other than 1 (negative ones included) are gathered into contiguous copies first and y
// scattered back. As in the reference BLAS, m == 0 or n == 0 returns at once, alpha == 0
// only scales y (A and x are not read), and beta == 0 does not read y (NaN in y does not
// survive). Bad arguments (and every call where [DgemmImpl] is not "avx512" or "avx2")
// go to gonum's Dgemv, which panics with its messages.
func (f Float64) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	lenX, lenY := n, m
	if tA != blas.NoTrans {
		lenX, lenY = m, n
	}
	if gemvAsm == nil || (tA != blas.NoTrans && tA != blas.Trans && tA != blas.ConjTrans) || m <= 0 || n <= 0 ||
		lda < n || incX == 0 || incY == 0 || len(a) < lda*(m-1)+n ||
		len(x) <= (lenX-1)*abs(incX) || len(y) <= (lenY-1)*abs(incY) {
		f.Implementation.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	gemvInc(gemvAsm, tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// gemvInc is Dgemv with checked arguments (m, n >= 1, any non-zero increments) on the
// kernels k.
func gemvInc(k *gemvKern, tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	lenX, lenY := n, m
	if tA != blas.NoTrans {
		lenX, lenY = m, n
	}
	if alpha == 0 {
		scaleVec(lenY, beta, y, incY)
		return
	}
	if incX == 1 && incY == 1 {
		dgemv(k, tA, m, n, alpha, a, lda, x, beta, y)
		return
	}
	// Strided vectors (columns of row-major matrices, as in gonum's Dlatrd and Dlarf):
	// gathered into contiguous copies and y scattered back, O(m+n) beside the O(m·n)
	// product.
	bp := gemvPool.Get().(*[]float64)
	defer gemvPool.Put(bp)
	*bp = grow64(*bp, lenX+lenY)
	xs, ys := x, y
	if incX != 1 {
		xs = (*bp)[:lenX]
		gather(xs, x, incX)
	}
	if incY != 1 {
		ys = (*bp)[lenX : lenX+lenY]
		if beta != 0 {
			gather(ys, y, incY)
		}
	}
	dgemv(k, tA, m, n, alpha, a, lda, xs, beta, ys)
	if incY != 1 {
		scatter(y, ys, incY)
	}
}
