package learn

import (
	"context"
	"math"
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// This file holds the numerical core of RLS: the reduction of the centred Gram or
// covariance matrix to tridiagonal form, C = Q T Qᵀ, and the leave-one-out evaluation
// of a whole grid of regularisation values from that one reduction. See doc.go and
// rls.go for the mathematics.

// rowBlock is the number of rows handled at a time by the blocked loops of this file.
const rowBlock = 256

// fastReduce, when set (by the openblas build), replaces the gonum reduction with a
// faster one; it must leave a unchanged when it returns false.
var fastReduce func(a []float64, r int) (*tridiag, bool)

// fastEigen, when set (by the openblas build), is a full eigendecomposition with the
// contract of fastReduce whose T is diagonal (T = diag(eig), Q the eigenvectors).
var fastEigen func(a []float64, r int) (*tridiag, bool)

// tridiag is the tridiagonal form T (diagonal diag, off-diagonal off) of a symmetric
// r×r matrix C = Q T Qᵀ, with Q held row-major in q.
type tridiag struct {
	r         int
	diag, off []float64
	q         []float64
	eig       []float64 // eigenvalues of T, ascending
}

// reduce overwrites the r×r row-major symmetric matrix a (upper triangle read) with Q
// and returns the tridiagonal form. It costs about 4/3 r³ + 4/3 r³ flops (Dsytrd,
// Dorgtr) and cannot be interrupted.
func reduce(a []float64, r int) *tridiag {
	if fastReduce != nil && r > 1 {
		defer widenBLAS(r)()
		if t, ok := fastReduce(a, r); ok {
			return t
		}
	}
	var impl lapackgonum.Implementation
	t := &tridiag{r: r, diag: make([]float64, r), off: make([]float64, max(r-1, 0)), q: a}
	if r == 1 {
		t.diag[0] = a[0]
		a[0] = 1
		t.eig = []float64{t.diag[0]}
		return t
	}
	tau := make([]float64, r-1)
	work := make([]float64, 1)
	impl.Dsytrd(blas.Upper, r, a, r, t.diag, t.off, tau, work, -1)
	lwork := int(work[0])
	impl.Dorgtr(blas.Upper, r, a, r, tau, work, -1)
	lwork = max(lwork, int(work[0]))
	work = make([]float64, lwork)
	impl.Dsytrd(blas.Upper, r, a, r, t.diag, t.off, tau, work, lwork)
	impl.Dorgtr(blas.Upper, r, a, r, tau, work, lwork)
	// Eigenvalues only: O(r²).
	t.eig = append([]float64(nil), t.diag...)
	e := append([]float64(nil), t.off...)
	if !impl.Dsterf(r, t.eig, e) {
		// Dsterf failed to converge (it practically never does); fall back to the
		// Gershgorin bound for the top of the spectrum, which is all the grid needs.
		t.eig = gershgorin(t.diag, t.off)
	}
	return t
}

// gershgorin returns {lo, hi}, bounds on the spectrum of a symmetric tridiagonal matrix.
func gershgorin(diag, off []float64) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, d := range diag {
		rad := 0.0
		if i > 0 {
			rad += math.Abs(off[i-1])
		}
		if i < len(off) {
			rad += math.Abs(off[i])
		}
		lo, hi = math.Min(lo, d-rad), math.Max(hi, d+rad)
	}
	return []float64{lo, hi}
}

// emax returns the largest eigenvalue of T.
func (t *tridiag) emax() float64 { return t.eig[len(t.eig)-1] }

// ldl is the factorisation T + sigma I = L D Lᵀ, L unit lower bidiagonal with
// sub-diagonal l, D = diag(1/dinv).
type ldl struct {
	l, dinv []float64
}

// factor computes the LDLᵀ factors of T + sigma I. It returns false if a pivot is not
// positive, that is if T + sigma I is not numerically positive definite.
func (t *tridiag) factor(sigma float64) (ldl, bool) {
	r := t.r
	f := ldl{l: make([]float64, max(r-1, 0)), dinv: make([]float64, r)}
	d := t.diag[0] + sigma
	if !(d > 0) || math.IsInf(d, 0) {
		return f, false
	}
	f.dinv[0] = 1 / d
	for j := 0; j < r-1; j++ {
		lj := t.off[j] / d
		f.l[j] = lj
		d = t.diag[j+1] + sigma - lj*t.off[j]
		if !(d > 0) || math.IsInf(d, 0) {
			return f, false
		}
		f.dinv[j+1] = 1 / d
	}
	return f, true
}

// solve overwrites the r×k row-major matrix x with (T + sigma I)^-1 x.
func (f ldl) solve(x []float64, k int) {
	r := len(f.dinv)
	for j := 1; j < r; j++ { // L u = x
		lj := f.l[j-1]
		prev, cur := x[(j-1)*k:j*k], x[j*k:(j+1)*k]
		for c := range cur {
			cur[c] -= lj * prev[c]
		}
	}
	for j := 0; j < r; j++ { // D v = u
		dj := f.dinv[j]
		row := x[j*k : (j+1)*k]
		for c := range row {
			row[c] *= dj
		}
	}
	for j := r - 2; j >= 0; j-- { // Lᵀ x = v
		lj := f.l[j]
		cur, next := x[j*k:(j+1)*k], x[(j+1)*k:(j+2)*k]
		for c := range cur {
			cur[c] -= lj * next[c]
		}
	}
}

// quad returns bᵀ (T + sigma I)^-1 b = sum_j u_j² / d_j with L u = b. All terms are
// non-negative, so the sum has no cancellation.
func (f ldl) quad(b []float64) float64 {
	u := b[0]
	s := u * u * f.dinv[0]
	l, dinv := f.l, f.dinv[1:]
	b = b[1 : len(dinv)+1]
	for j, bj := range b {
		u = bj - l[j]*u
		s += u * u * dinv[j]
	}
	return s
}

// eigSolve overwrites the r×k matrix x with (T + sigma I)^+ x through the
// eigendecomposition of T (Dsteqr, O(r³) but slow in pure Go: used only when the LDLᵀ
// factorisation fails, i.e. for lambda = 0 or below rounding level). Eigenvalues below
// r·machEps·emax are treated as zero, and negative rounding noise is clamped to zero.
func (t *tridiag) eigSolve(x []float64, k int, sigma float64) bool {
	var impl lapackgonum.Implementation
	r := t.r
	d := append([]float64(nil), t.diag...)
	e := append([]float64(nil), t.off...)
	z := make([]float64, r*r)
	if !impl.Dsteqr(lapack.EVTridiag, r, d, e, z, r, make([]float64, max(1, 2*r-2))) {
		return false
	}
	cut := float64(r) * machEps * math.Max(d[r-1], 0)
	zg := blas64.General{Rows: r, Cols: r, Stride: r, Data: z}
	xg := blas64.General{Rows: r, Cols: k, Stride: k, Data: x}
	tmp := blas64.General{Rows: r, Cols: k, Stride: k, Data: make([]float64, r*k)}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, zg, xg, 0, tmp)
	for j := 0; j < r; j++ {
		ej := math.Max(d[j], 0)
		s := 0.0
		if den := ej + sigma; den > 0 && (sigma > 0 || ej > cut) {
			s = 1 / den
		}
		row := tmp.Data[j*k : (j+1)*k]
		for c := range row {
			row[c] *= s
		}
	}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, zg, tmp, 0, xg)
	return true
}

const machEps = 0x1p-52

// syrkUpper returns the upper triangle (row-major r×r, lower triangle zero) of
//
//	xᵀx (trans) with r = cols(x), or x xᵀ (!trans) with r = rows(x),
//
// splitting the inner dimension into GOMAXPROCS chunks, each accumulated by its own
// Dsyrk into its own r×r buffer (gonum's Dsyrk is serial, and core/linalg runs
// OpenBLAS with one thread per call), then summed. Memory: GOMAXPROCS·r² floats. It
// checks ctx between sub-chunks of the inner dimension.
func syrkUpper(ctx context.Context, x blas64.General, trans bool) ([]float64, error) {
	r, inner := x.Cols, x.Rows
	if !trans {
		r, inner = x.Rows, x.Cols
	}
	sub := func(lo, hi int) blas64.General {
		return blas64.General{Rows: x.Rows, Cols: hi - lo, Stride: x.Stride, Data: x.Data[lo:]}
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, inner/256))
	chunk := (inner + workers - 1) / workers
	acc := make([][]float64, workers)
	const step = 512 // inner units per rank-k update, and between cancellation checks
	err := parallelBlocks(ctx, inner, chunk, func(w, lo, hi int) error {
		acc[w] = make([]float64, r*r)
		c := blas64.Symmetric{N: r, Stride: r, Uplo: blas.Upper, Data: acc[w]}
		var buf []float64
		if trans {
			buf = make([]float64, r*step)
		}
		for s := lo; s < hi; s += step {
			if err := ctx.Err(); err != nil {
				return err
			}
			e := min(hi, s+step)
			if !trans {
				blas64.Syrk(blas.NoTrans, 1, sub(s, e), 1, c)
				continue
			}
			// xᵀx through a transposed panel: gonum's Dsyrk is about 1.5x faster per
			// core in the NoTrans (row dot product) form.
			m := e - s
			for i := s; i < e; i++ {
				for j, v := range x.Data[i*x.Stride : i*x.Stride+r] {
					buf[j*m+i-s] = v
				}
			}
			blas64.Syrk(blas.NoTrans, 1, blas64.General{Rows: r, Cols: m, Stride: m, Data: buf}, 1, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := acc[0]
	for _, a := range acc[1:] {
		if a == nil {
			continue
		}
		for i := 0; i < r; i++ {
			o, s := out[i*r+i:(i+1)*r], a[i*r+i:(i+1)*r]
			for j := range o {
				o[j] += s[j]
			}
		}
	}
	return out, nil
}

// looProblem is the data the leave-one-out evaluation needs. With A = T + sigma I:
//
//	primal:  yhat_i = ybar + b_iᵀ A^-1 BᵀY,   H_ii = 1/n + b_iᵀ A^-1 b_i,
//	         e_i = (y_i - yhat_i) / (1 - H_ii)
//	dual:    c = B A^-1 BᵀY,  e_i = c_i / (b_iᵀ A^-1 b_i)
//
// where B is n×r (rows b_i): B = F_c Q in the primal, B = W0 Q in the dual, W0 an
// orthonormal basis of the complement of the constant vector. e_i is the exact
// leave-one-out residual y_i - f^{(-i)}(x_i) of each one-vs-all column. In the grouped
// form (a primal one) samples share rows: b_i is row grp[i] of the u×r matrix b.
type looProblem struct {
	dual   bool
	n, r   int
	b      []float64 // n×r row-major, or u×r if grp != nil
	grp    []int     // sample -> row of b; nil: row i is sample i
	t      *tridiag
	y      []float64 // n×k row-major targets (±1)
	k      int
	ybar   []float64 // column means of y
	labels []int
	scale  float64 // largest diagonal entry of the matrix before centring/deflation
	// brows, when set (a streaming primal fit: b is nil), writes rows lo..hi of B into
	// dst ((hi-lo)×r); btyc then holds BᵀY.
	brows func(lo, hi int, dst []float64)
	btyc  []float64
}

// looResult holds the leave-one-out accuracy and mean squared residual per sigma.
type looResult struct {
	acc, mse []float64
	ok       []bool
}

// rows returns the number of rows of b.
func (p *looProblem) rows() int {
	if p.grp == nil {
		return p.n
	}
	return len(p.b) / p.r
}

// bty returns Bᵀ Y (r×k); grouped, (rows of b)ᵀ times the per-group sums of Y.
func (p *looProblem) bty() []float64 {
	if p.btyc != nil {
		return append([]float64(nil), p.btyc...)
	}
	out := make([]float64, p.r*p.k)
	rows, y := p.n, p.y
	if p.grp != nil {
		rows = p.rows()
		y = make([]float64, rows*p.k)
		for i, a := range p.grp {
			dst, src := y[a*p.k:(a+1)*p.k], p.y[i*p.k:(i+1)*p.k]
			for c, v := range src {
				dst[c] += v
			}
		}
	}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, blasGeneral(p.b, rows, p.r), blasGeneral(y, rows, p.k),
		0, blasGeneral(out, p.r, p.k))
	return out
}

// path evaluates the leave-one-out criterion at every sigma (= n lambda). Its cost is
// one m×r×(len(sigmas)·k) matrix product plus O(m r len(sigmas)) for the diagonal of
// the hat matrix, m the number of rows of B (n, or u when grouped), and O(n k
// len(sigmas)) for the residuals. Sigmas at which T + sigma I is not numerically
// positive definite are marked !ok. If visit is not nil it receives the k residuals e
// of sample i at candidate l (concurrently from several goroutines; e is reused after
// the call).
func (p *looProblem) path(ctx context.Context, sigmas []float64, visit func(l, i int, e []float64)) (looResult, error) {
	L, k, r, n := len(sigmas), p.k, p.r, p.n
	res := looResult{acc: make([]float64, L), mse: make([]float64, L), ok: make([]bool, L)}
	facs := make([]ldl, L)
	bty := p.bty()
	z := make([]float64, r*L*k) // r × (L·k): column block l holds A_l^-1 BᵀY
	tmp := make([]float64, r*k)
	for l, s := range sigmas {
		f, ok := p.t.factor(s)
		res.ok[l], facs[l] = ok, f
		if !ok {
			continue
		}
		copy(tmp, bty)
		f.solve(tmp, k)
		for j := 0; j < r; j++ {
			copy(z[j*L*k+l*k:j*L*k+(l+1)*k], tmp[j*k:(j+1)*k])
		}
	}
	zg := blas64.General{Rows: r, Cols: L * k, Stride: L * k, Data: z}
	// products fills pb (rows lo..hi of B Z, (hi-lo)×Lk) and qb (the quadratic forms
	// b_aᵀ A_l^-1 b_a, (hi-lo)×L).
	buf := newScratch()
	products := func(lo, hi int, pb, qb []float64) {
		var b []float64 // rows lo..hi of B
		if p.brows != nil {
			b = buf.get((hi - lo) * r)
			defer buf.put(b)
			p.brows(lo, hi, b)
		} else {
			b = p.b[lo*r : hi*r]
		}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blasGeneral(b, hi-lo, r), zg, 0, blasGeneral(pb, hi-lo, L*k))
		for a := lo; a < hi; a++ {
			ba := b[(a-lo)*r : (a-lo+1)*r]
			for l := range L {
				if res.ok[l] {
					qb[(a-lo)*L+l] = facs[l].quad(ba)
				}
			}
		}
	}
	var pall, qall []float64 // grouped: B Z and the quadratic forms of every row of b
	if p.grp != nil {
		u := p.rows()
		pall, qall = make([]float64, u*L*k), make([]float64, u*L)
		err := parallelBlocks(ctx, u, rowBlock, func(_, lo, hi int) error {
			products(lo, hi, pall[lo*L*k:hi*L*k], qall[lo*L:hi*L])
			return nil
		})
		if err != nil {
			return res, err
		}
	}
	nb := (n + rowBlock - 1) / rowBlock
	hits := make([][]int, nb)
	sq := make([][]float64, nb)
	invn := 1 / float64(n)
	err := parallelBlocks(ctx, n, rowBlock, func(bi, lo, hi int) error {
		var pb, qb []float64
		if p.grp == nil {
			pb, qb = buf.get((hi-lo)*L*k), buf.get((hi-lo)*L)
			defer buf.put(pb)
			defer buf.put(qb)
			products(lo, hi, pb, qb)
		}
		h := make([]int, L)
		e2 := make([]float64, L)
		ev := make([]float64, k)
		for i := lo; i < hi; i++ {
			yi := p.y[i*k : (i+1)*k]
			var prow, qrow []float64
			if p.grp == nil {
				prow, qrow = pb[(i-lo)*L*k:(i-lo+1)*L*k], qb[(i-lo)*L:(i-lo+1)*L]
			} else {
				a := p.grp[i]
				prow, qrow = pall[a*L*k:(a+1)*L*k], qall[a*L:(a+1)*L]
			}
			for l := range L {
				if !res.ok[l] {
					continue
				}
				q := qrow[l]
				pl := prow[l*k : (l+1)*k]
				best, arg := math.Inf(-1), 0
				for c := range k {
					var e float64
					if p.dual {
						e = pl[c] / q
					} else {
						den := 1 - invn - q
						if den < machEps {
							den = machEps // leverage 1: the point determines its own fit
						}
						e = (yi[c] - p.ybar[c] - pl[c]) / den
					}
					e2[l] += e * e
					ev[c] = e
					if v := yi[c] - e; v > best {
						best, arg = v, c
					}
				}
				if arg == p.labels[i] {
					h[l]++
				}
				if visit != nil {
					visit(l, i, ev)
				}
			}
		}
		hits[bi], sq[bi] = h, e2
		return nil
	})
	if err != nil {
		return res, err
	}
	for l := range L {
		if !res.ok[l] {
			res.acc[l], res.mse[l] = math.NaN(), math.NaN()
			continue
		}
		tot, s := 0, 0.0
		for b := range nb { // fixed order: deterministic sums
			tot += hits[b][l]
			s += sq[b][l]
		}
		res.acc[l] = float64(tot) / float64(n)
		res.mse[l] = s / float64(n*k)
	}
	return res, nil
}

// coef returns A^-1 BᵀY (r×k) at sigma, through LDLᵀ or, if T + sigma I is not
// numerically positive definite (sigma = 0 on a singular problem), through the
// eigendecomposition of T with a pseudo-inverse.
func (p *looProblem) coef(sigma float64) ([]float64, bool) {
	x := p.bty()
	if f, ok := p.t.factor(sigma); ok && sigma > 0 {
		f.solve(x, p.k)
		return x, true
	}
	return x, p.t.eigSolve(x, p.k, sigma)
}

// blasGeneral wraps a row-major r×c slice.
func blasGeneral(a []float64, r, c int) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: c, Data: a}
}
