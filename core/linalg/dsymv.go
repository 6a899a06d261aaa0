package linalg

import (
	"context"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
)

// dotAxpy is the inner kernel of Dsymv: fn(n, a, x, y, s), n a multiple of w (the
// vector width, 8 with AVX-512, 4 with AVX2) with len(a), len(x), len(y) >= n >= 0
// (n > 0 for the assembly), returns Σ_{j<n} a[j]·x[j] in dotAxpyGo's order and sets
// y[j] = a[j]·s + y[j] (fused) for j < n.
//
// fn4(n, a, lda, x, y, s) does four rows at once (n a multiple of w, n > 0 for the
// assembly): for r < 4 it returns d[r] = Σ_{j<n} a[r·lda+j]·x[j] in dot4AxpyGo's order
// and sets y[j] = a[3·lda+j]·s[3] + (… + (a[j]·s[0] + y[j])), fused, for j < n, reading
// x and y once for the four rows.
type dotAxpy struct {
	name string
	w    int
	fn   func(n int, a, x, y []float64, s float64) float64
	fn4  func(n int, a []float64, lda int, x, y []float64, s *[4]float64) [4]float64
}

// Go twins of the assembly kernels.
var (
	dotAxpyGo8 = &dotAxpy{name: "go w=8", w: 8,
		fn: func(n int, a, x, y []float64, s float64) float64 { return dotAxpyGo(8, n, a, x, y, s) },
		fn4: func(n int, a []float64, lda int, x, y []float64, s *[4]float64) [4]float64 {
			return dot4AxpyGo(8, n, a, lda, x, y, s)
		}}
	dotAxpyGo4 = &dotAxpy{name: "go w=4", w: 4,
		fn: func(n int, a, x, y []float64, s float64) float64 { return dotAxpyGo(4, n, a, x, y, s) },
		fn4: func(n int, a []float64, lda int, x, y []float64, s *[4]float64) [4]float64 {
			return dot4AxpyGo(4, n, a, lda, x, y, s)
		}}
)

// dotAxpyGo is the dot-axpy contract in Go for vector width w (4 or 8), bit for bit as
// the assembly: the products of blocks of 2w entries summed (fused) into two sets of w
// lanes, a last block of w into the first set, the sets added lane by lane and the w
// lanes halved down to one (lane l plus lane l+w/2, and so on).
func dotAxpyGo(w, n int, a, x, y []float64, s float64) float64 {
	var acc [2][8]float64
	q := 0
	for ; q+2*w <= n; q += 2 * w {
		for l := range w {
			acc[0][l] = math.FMA(a[q+l], x[q+l], acc[0][l])
			acc[1][l] = math.FMA(a[q+w+l], x[q+w+l], acc[1][l])
		}
	}
	if q+w <= n {
		for l := range w {
			acc[0][l] = math.FMA(a[q+l], x[q+l], acc[0][l])
		}
	}
	for j := range n {
		y[j] = math.FMA(a[j], s, y[j])
	}
	v := acc[0]
	for l := range w {
		v[l] += acc[1][l]
	}
	return halveLanes(v, w)
}

// halveLanes adds the w lanes of v (w a power of 2, at most 8) down to one as the
// assembly's reductions do: lane l plus lane l+w/2 for l < w/2, and so on.
func halveLanes(v [8]float64, w int) float64 {
	for h := w / 2; h >= 1; h /= 2 {
		for l := range h {
			v[l] += v[l+h]
		}
	}
	return v[0]
}

// dot4AxpyGo is the four-row contract in Go for vector width w (4 or 8), bit for bit as
// the assembly: for each row one set of w lanes summing its products (fused), halved
// down to one lane at the end; y[j] updated by the four rows in order.
func dot4AxpyGo(w, n int, a []float64, lda int, x, y []float64, s *[4]float64) [4]float64 {
	var acc [4][8]float64
	for q := 0; q+w <= n; q += w {
		for r := range 4 {
			for l := range w {
				acc[r][l] = math.FMA(a[r*lda+q+l], x[q+l], acc[r][l])
			}
		}
	}
	for j := range n {
		v := y[j]
		for r := range 4 {
			v = math.FMA(a[r*lda+j], s[r], v)
		}
		y[j] = v
	}
	var d [4]float64
	for r := range 4 {
		d[r] = halveLanes(acc[r], w)
	}
	return d
}

// dot4 is fn4 over any n >= 0: the kernel on the largest multiple of its width, the rest
// in Go (each row's dot, then y row by row).
func (k *dotAxpy) dot4(n int, a []float64, lda int, x, y []float64, s *[4]float64) [4]float64 {
	m := n / k.w * k.w
	var d [4]float64
	if m > 0 {
		d = k.fn4(m, a, lda, x, y, s)
	}
	for j := m; j < n; j++ {
		v := y[j]
		for r := range 4 {
			aj := a[r*lda+j]
			d[r] = math.FMA(aj, x[j], d[r])
			v = math.FMA(aj, s[r], v)
		}
		y[j] = v
	}
	return d
}

// dot returns Σ a[j]·x[j] over j < len(a) and adds s·a[j] to y[j]: the kernel on the
// largest multiple of its width, the rest in Go.
func (k *dotAxpy) dot(a, x, y []float64, s float64) float64 {
	n := len(a)
	x, y = x[:n], y[:n]
	m := n / k.w * k.w
	var d float64
	if m > 0 {
		d = k.fn(m, a, x, y, s)
	}
	for j := m; j < n; j++ {
		d = math.FMA(a[j], x[j], d)
		y[j] = math.FMA(a[j], s, y[j])
	}
	return d
}

// symvRows4 adds rows i..i+3 of A·x into t (their stored entries: from the diagonal to
// the right for Upper, to the left for Lower) and their mirror images A[j][i..i+3]·x[i..]
// into t[j]: the part beside the 4×4 diagonal block through the four-row kernel, then
// the block's triangle, then the diagonal.
func symvRows4(k *dotAxpy, ul blas.Uplo, n, i int, a []float64, lda int, x, t []float64) {
	s := [4]float64{x[i], x[i+1], x[i+2], x[i+3]}
	var d [4]float64
	if ul == blas.Upper {
		if j0 := i + 4; j0 < n {
			d = k.dot4(n-j0, a[i*lda+j0:], lda, x[j0:], t[j0:], &s)
		}
		for r := range 4 {
			row := a[(i+r)*lda:]
			for j := i + r + 1; j < i+4; j++ {
				d[r] = math.FMA(row[j], x[j], d[r])
				t[j] = math.FMA(row[j], s[r], t[j])
			}
		}
	} else {
		if i > 0 {
			d = k.dot4(i, a[i*lda:], lda, x, t, &s)
		}
		for r := range 4 {
			row := a[(i+r)*lda:]
			for j := i; j < i+r; j++ {
				d[r] = math.FMA(row[j], x[j], d[r])
				t[j] = math.FMA(row[j], s[r], t[j])
			}
		}
	}
	for r := range 4 {
		t[i+r] += a[(i+r)*lda+i+r]*s[r] + d[r]
	}
}

// symvPool holds the partial results of Dsymv's row ranges.
var symvPool = sync.Pool{New: func() any { return new([]float64) }}

// symvParts is the number of row ranges of equal work a large Dsymv is split into (each
// with its own partial y, added in order at the end): fixed, so that the result does not
// depend on GOMAXPROCS.
const symvParts = 4

// Dsymv computes y = alpha·A·x + beta·y for the symmetric n×n A (its ul triangle read,
// row-major as in gonum): each stored entry of A read once by a vectorised fused dot
// product and axpy (AVX-512 or AVX2+FMA), rows in symvParts ranges of equal work run
// in parallel for n >= 512; vectors with increments other than 1 are gathered into
// contiguous copies first. beta == 0 does not read y; alpha == 0 reads neither A nor x.
// Any bad argument (panicking with gonum's messages) goes to gonum's Dsymv, as does
// every call where DgemmImpl is not "avx512" or "avx2".
func (f Float64) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if dotAxpyAsm == nil || incX == 0 || incY == 0 || (ul != blas.Upper && ul != blas.Lower) || n <= 0 ||
		lda < n || len(a) < lda*(n-1)+n || len(x) <= (n-1)*abs(incX) || len(y) <= (n-1)*abs(incY) {
		f.Implementation.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	if incX == 1 && incY == 1 {
		dsymv(dotAxpyAsm, ul, n, alpha, a, lda, x, beta, y)
		return
	}
	// Strided vectors (columns of row-major matrices, as in gonum's Dlatrd): gathered
	// into contiguous copies and y scattered back, O(n) beside the O(n²) product.
	buf := make([]float64, 2*n)
	xs, ys := buf[:n], buf[n:]
	gather(xs, x, incX)
	if beta != 0 {
		gather(ys, y, incY)
	}
	dsymv(dotAxpyAsm, ul, n, alpha, a, lda, xs, beta, ys)
	scatter(y, ys, incY)
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// gather copies the len(dst) elements of the BLAS vector (v, inc) into dst: element i
// at v[i·inc], or at v[(len(dst)-1-i)·(-inc)] for inc < 0.
func gather(dst, v []float64, inc int) {
	n := len(dst)
	k := 0
	if inc < 0 {
		k = -(n - 1) * inc
	}
	for i := range dst {
		dst[i] = v[k+i*inc]
	}
}

// scatter is gather's inverse: it writes src into the BLAS vector (v, inc).
func scatter(v, src []float64, inc int) {
	n := len(src)
	k := 0
	if inc < 0 {
		k = -(n - 1) * inc
	}
	for i, s := range src {
		v[k+i*inc] = s
	}
}

// dsymv is Dsymv with unit increments and checked arguments on the kernel k.
func dsymv(k *dotAxpy, ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	y = y[:n]
	switch beta {
	case 0:
		clear(y)
	case 1:
	default:
		for i := range y {
			y[i] *= beta
		}
	}
	if alpha == 0 {
		return
	}
	parts := 1
	if n >= 512 {
		parts = symvParts
	}
	// Row boundaries of equal work: row i holds n-i (Upper) or i+1 (Lower) entries.
	bounds := make([]int, parts+1)
	bounds[parts] = n
	for p, i, done := 1, 0, 0; p < parts; p++ {
		target := n * (n + 1) / 2 * p / parts
		for i < n && done < target {
			if ul == blas.Upper {
				done += n - i
			} else {
				done += i + 1
			}
			i++
		}
		bounds[p] = i
	}
	part := make([][]float64, parts)
	defer func() {
		for _, t := range part {
			symvPool.Put(&t)
		}
	}()
	ParallelFor(context.Background(), parts, 1, func(lo, _ int) error {
		tp := symvPool.Get().(*[]float64)
		t := grow64(*tp, n)
		clear(t)
		i := bounds[lo]
		for ; i+4 <= bounds[lo+1]; i += 4 {
			symvRows4(k, ul, n, i, a, lda, x, t)
		}
		for ; i < bounds[lo+1]; i++ {
			row := a[i*lda : i*lda+n]
			var d float64
			if ul == blas.Upper {
				d = k.dot(row[i+1:], x[i+1:], t[i+1:], x[i])
			} else {
				d = k.dot(row[:i], x[:i], t[:i], x[i])
			}
			t[i] += row[i]*x[i] + d
		}
		part[lo] = t
		return nil
	})
	for j := range y {
		var s float64
		for _, t := range part {
			s += t[j]
		}
		y[j] += alpha * s
	}
}
