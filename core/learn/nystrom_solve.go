package learn

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"gitui/core/linalg"
)

// nystromBlock is the number of rows of K_nM a goroutine multiplies at a time.
const nystromBlock = 2048

// nystromValEvery is the number of iterations between validation accuracies reported
// to NystromOptions.Progress.
const nystromValEvery = 10

// nystromSolver holds the cached kernel block and the preconditioner's factors of one
// FitNystromRBF call.
type nystromSolver struct {
	n, m, k int
	opt     NystromOptions
	knm64   []float64 // n×M row-major, or
	knm32   []float32 // the same in float32
	t       []float64 // M×M: T (upper triangle; the lower is zero), TᵀT = K_MM + δI
	s       []float64 // M×M: T Tᵀ (upper triangle)
	a       []float64 // M×M: A (upper), AᵀA = T Tᵀ/M + λI for the current λ
	lambda  float64   // the λ of a
	jitter  float64   // δ
	emax    float64   // largest eigenvalue of K_MM
	// factorSec accumulates the seconds of factorT and factorA.
	factorSec float64
	kmm       []float64 // tests without the preconditioner: K_MM itself
}

// kernels computes and caches K_nM (rows in the order ord) and K_MM (into s.t, in
// float64): row j of K_MM is the row of K_nM at position cpos[j], copied before its
// conversion to float32.
func (s *nystromSolver) kernels(ctx context.Context, kern *RBFRowsRLS, f Rows, ord, cpos []int) error {
	n, m := s.n, s.m
	if kern.f32 {
		s.knm32 = make([]float32, n*m)
	} else {
		s.knm64 = make([]float64, n*m)
	}
	s.t = make([]float64, m*m)
	centre := make([]int, n)
	for i := range centre {
		centre[i] = -1
	}
	for j, p := range cpos {
		centre[p] = j
	}
	return kern.kernelRows(ctx, indexRows{f, ord}, func(r0, nr int, kb []float64) error {
		for i := range nr {
			if j := centre[r0+i]; j >= 0 {
				copy(s.t[j*m:(j+1)*m], kb[i*m:(i+1)*m])
			}
		}
		if s.knm32 != nil {
			linalg.ToFloat32(s.knm32[r0*m:(r0+nr)*m], kb)
		} else {
			copy(s.knm64[r0*m:], kb)
		}
		return nil
	})
}

// kernelMM computes K_MM (full, float64) into s.t again (after a failed factoring).
func (s *nystromSolver) kernelMM(ctx context.Context, kern *RBFRowsRLS, f Rows) error {
	m := s.m
	if s.t == nil {
		s.t = make([]float64, m*m)
	}
	return kern.kernelRows(ctx, indexRows{f, kern.idx}, func(r0, nr int, kb []float64) error {
		copy(s.t[r0*m:], kb)
		return nil
	})
}

// factorT sets s.emax and overwrites K_MM in s.t with its Cholesky factor T (TᵀT =
// K_MM + δI, the smallest δ = 1e-14·M·10^i that works), then s.s = T Tᵀ.
func (s *nystromSolver) factorT(ctx context.Context, kern *RBFRowsRLS) error {
	m := s.m
	s.emax = powerEig(s.t, m)
	if !(s.emax > 0) {
		return fmt.Errorf("nystrom: the centres' kernel matrix is zero: %w; check gamma", ErrNothingToLearn)
	}
	restore := widenBLAS(m)
	defer restore()
	for delta := 1e-14 * float64(m); ; delta *= 10 {
		if delta > 1e-2*s.emax {
			return fmt.Errorf("nystrom: the centres' kernel matrix is not positive definite even with %.0e added to its diagonal: use fewer centres or a larger gamma", delta/10)
		}
		for j := range m {
			s.t[j*m+j] += delta
		}
		if _, ok := lapack64.Potrf(blas64.Symmetric{N: m, Stride: m, Data: s.t, Uplo: blas.Upper}); ok {
			s.jitter = delta
			break
		}
		if err := s.kernelMM(ctx, kern, kern.train); err != nil {
			return err
		}
	}
	for i := 1; i < m; i++ {
		clear(s.t[i*m : i*m+i])
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.s = make([]float64, m*m)
	copy(s.s, s.t)
	blas64.Trmm(blas.Right, blas.Trans, 1,
		blas64.Triangular{N: m, Stride: m, Data: s.t, Uplo: blas.Upper, Diag: blas.NonUnit},
		blas64.General{Rows: m, Cols: m, Stride: m, Data: s.s})
	return ctx.Err()
}

// factorA sets s.a to A, AᵀA = T Tᵀ/M + λI.
func (s *nystromSolver) factorA(lambda float64) error {
	m := s.m
	if s.a != nil && s.lambda == lambda {
		return nil
	}
	if s.a == nil {
		s.a = make([]float64, m*m)
	}
	restore := widenBLAS(m)
	defer restore()
	for i := range m {
		row := s.a[i*m : (i+1)*m]
		clear(row[:i])
		for j := i; j < m; j++ {
			row[j] = s.s[i*m+j] / float64(m)
		}
		row[i] += lambda
	}
	if _, ok := lapack64.Potrf(blas64.Symmetric{N: m, Stride: m, Data: s.a, Uplo: blas.Upper}); !ok {
		return fmt.Errorf("nystrom: the preconditioner is not positive definite at lambda %g: use a larger lambda", lambda)
	}
	s.lambda = lambda
	return nil
}

// powerEig returns the largest eigenvalue of the symmetric m×m matrix a (full), by 30
// power iterations from the constant vector (the kernel's Perron vector is positive).
func powerEig(a []float64, m int) float64 {
	v := make([]float64, m)
	w := make([]float64, m)
	for i := range v {
		v[i] = 1 / math.Sqrt(float64(m))
	}
	e := 0.0
	for range 30 {
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: m, Cols: m, Stride: m, Data: a}, blas64.Vector{N: m, Inc: 1, Data: v},
			0, blas64.Vector{N: m, Inc: 1, Data: w})
		e = blas64.Nrm2(blas64.Vector{N: m, Inc: 1, Data: w})
		if !(e > 0) {
			return e
		}
		for i := range v {
			v[i] = w[i] / e
		}
	}
	return e
}

// tri applies op(X)⁻¹ (solve) or op(X) (multiply) of the upper-triangular M×M x to the
// M×k matrix b in place, its columns split over the cores.
func (s *nystromSolver) tri(x []float64, trans, solve bool, b []float64) {
	m, k := s.m, s.k
	tr := blas.NoTrans
	if trans {
		tr = blas.Trans
	}
	t := blas64.Triangular{N: m, Stride: m, Data: x, Uplo: blas.Upper, Diag: blas.NonUnit}
	cw := (k + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0)
	_ = linalg.ParallelFor(context.Background(), k, cw, func(lo, hi int) error {
		g := blas64.General{Rows: m, Cols: hi - lo, Stride: k, Data: b[lo:]}
		if solve {
			blas64.Trsm(blas.Left, tr, 1, t, g)
		} else {
			blas64.Trmm(blas.Left, tr, 1, t, g)
		}
		return nil
	})
}

// mul sets p (na×k) to K_a v for the first na rows of K_nM and v (M×k).
func (s *nystromSolver) mul(ctx context.Context, v []float64, na int, p []float64) error {
	m, k := s.m, s.k
	if s.knm64 != nil {
		return parallelBlocks(ctx, na, nystromBlock, func(_, lo, hi int) error {
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: s.knm64[lo*m:]},
				blas64.General{Rows: m, Cols: k, Stride: k, Data: v}, 0, blas64.General{Rows: hi - lo, Cols: k, Stride: k, Data: p[lo*k:]})
			return nil
		})
	}
	v32 := make([]float32, m*k)
	linalg.ToFloat32(v32, v)
	return parallelBlocks(ctx, na, nystromBlock, func(_, lo, hi int) error {
		out := make([]float32, (hi-lo)*k)
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, blas32.General{Rows: hi - lo, Cols: m, Stride: m, Data: s.knm32[lo*m:]},
			blas32.General{Rows: m, Cols: k, Stride: k, Data: v32}, 0, blas32.General{Rows: hi - lo, Cols: k, Stride: k, Data: out})
		for i, x := range out {
			p[lo*k+i] = float64(x)
		}
		return nil
	})
}

// mulT sets q (M×k) to K_aᵀ p for the first na rows of K_nM and p (na×k): a partial
// product per block of rows, summed in block order (reproducible).
func (s *nystromSolver) mulT(ctx context.Context, p []float64, na int, q []float64) error {
	m, k := s.m, s.k
	nb := (na + nystromBlock - 1) / nystromBlock
	parts := make([][]float64, nb)
	err := parallelBlocks(ctx, na, nystromBlock, func(b, lo, hi int) error {
		part := make([]float64, m*k)
		if s.knm64 != nil {
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: s.knm64[lo*m:]},
				blas64.General{Rows: hi - lo, Cols: k, Stride: k, Data: p[lo*k:]}, 0, blas64.General{Rows: m, Cols: k, Stride: k, Data: part})
		} else {
			p32 := make([]float32, (hi-lo)*k)
			linalg.ToFloat32(p32, p[lo*k:hi*k])
			out := make([]float32, m*k)
			blas32.Gemm(blas.Trans, blas.NoTrans, 1, blas32.General{Rows: hi - lo, Cols: m, Stride: m, Data: s.knm32[lo*m:]},
				blas32.General{Rows: hi - lo, Cols: k, Stride: k, Data: p32}, 0, blas32.General{Rows: m, Cols: k, Stride: k, Data: out})
			for i, x := range out {
				part[i] = float64(x)
			}
		}
		parts[b] = part
		return nil
	})
	if err != nil {
		return err
	}
	clear(q)
	for _, part := range parts {
		for i, x := range part {
			q[i] += x
		}
	}
	return nil
}

// centreCols subtracts from each column of the na×k matrix p its mean.
func centreCols(p []float64, na, k int) {
	mean := make([]float64, k)
	for i := range na {
		for j := range k {
			mean[j] += p[i*k+j]
		}
	}
	for j := range k {
		mean[j] /= float64(na)
	}
	for i := range na {
		for j := range k {
			p[i*k+j] -= mean[j]
		}
	}
}

// solve solves the preconditioned system at λ on the first na rows to the relative
// residual tol, from alpha0 (nil: zero), and returns α (M×k), the iterations and the residual history. yo, if not
// nil, holds the labels of all n rows: the rows na.. are then a validation split
// whose accuracy is reported every nystromValEvery iterations.
func (s *nystromSolver) solve(ctx context.Context, lambda float64, na int, yt []float64, alpha0 []float64, tol float64, cand, ncand int, yo []int) ([]float64, int, []float64, error) {
	m, k := s.m, s.k
	mk := m * k
	if s.opt.plain {
		if err := s.factorPlain(); err != nil {
			return nil, 0, nil, err
		}
	} else {
		t0 := time.Now()
		if err := s.factorA(lambda); err != nil {
			return nil, 0, nil, err
		}
		s.factorSec += time.Since(t0).Seconds()
	}
	p := make([]float64, na*k)
	v1 := make([]float64, mk)
	v := make([]float64, mk)
	// op sets w = Bᵀ H B u.
	op := func(u, w []float64) error {
		copy(v1, u)
		s.tri(s.a, false, true, v1) // A⁻¹u
		copy(v, v1)
		s.tri(s.t, false, true, v) // T⁻¹A⁻¹u
		if err := s.mul(ctx, v, na, p); err != nil {
			return err
		}
		centreCols(p, na, k)
		if err := s.mulT(ctx, p, na, w); err != nil {
			return err
		}
		if s.kmm != nil { // no preconditioner: H u itself
			for i := range w {
				w[i] /= float64(na)
			}
			blas64.Gemm(blas.NoTrans, blas.NoTrans, lambda, blas64.General{Rows: m, Cols: m, Stride: m, Data: s.kmm},
				blas64.General{Rows: m, Cols: k, Stride: k, Data: v}, 1, blas64.General{Rows: m, Cols: k, Stride: k, Data: w})
			return nil
		}
		for i := range w {
			w[i] = w[i]/float64(na) - lambda*s.jitter*v[i]
		}
		s.tri(s.t, true, true, w)
		for i := range w {
			w[i] += lambda * v1[i]
		}
		s.tri(s.a, true, true, w)
		return nil
	}
	// Right-hand side Bᵀ (1/na) K_aᵀ J Y_a.
	copy(p, yt[:na*k])
	centreCols(p, na, k)
	rhs := make([]float64, mk)
	if err := s.mulT(ctx, p, na, rhs); err != nil {
		return nil, 0, nil, err
	}
	for i := range rhs {
		rhs[i] /= float64(na)
	}
	s.tri(s.t, true, true, rhs)
	s.tri(s.a, true, true, rhs)
	bn := colNorms(rhs, m, k)
	x := make([]float64, mk)
	r := make([]float64, mk)
	if alpha0 != nil {
		copy(x, alpha0) // β = A T α
		s.tri(s.t, false, false, x)
		s.tri(s.a, false, false, x)
		if err := op(x, r); err != nil {
			return nil, 0, nil, err
		}
		for i := range r {
			r[i] = rhs[i] - r[i]
		}
	} else {
		copy(r, rhs)
	}
	// Conjugate residuals, one column per right-hand side.
	ar := make([]float64, mk)
	if err := op(r, ar); err != nil {
		return nil, 0, nil, err
	}
	pp := append([]float64(nil), r...)
	ap := append([]float64(nil), ar...)
	rar := colDots(r, ar, m, k)
	res := []float64{relResidual(r, bn, m, k)}
	iters := 0
	for it := 1; it <= s.opt.MaxIter && res[len(res)-1] > tol && !(s.knm32 != nil && stalled(res)); it++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, nil, err
		}
		apap := colDots(ap, ap, m, k)
		step := make([]float64, k)
		for j := range k {
			if apap[j] > 0 && rar[j] > 0 {
				step[j] = rar[j] / apap[j]
			}
		}
		for i := range m {
			for j := range k {
				x[i*k+j] += step[j] * pp[i*k+j]
				r[i*k+j] -= step[j] * ap[i*k+j]
			}
		}
		if err := op(r, ar); err != nil {
			return nil, 0, nil, err
		}
		rar2 := colDots(r, ar, m, k)
		for j := range k {
			c := 0.0
			if rar[j] > 0 {
				c = rar2[j] / rar[j]
			}
			for i := range m {
				pp[i*k+j] = r[i*k+j] + c*pp[i*k+j]
				ap[i*k+j] = ar[i*k+j] + c*ap[i*k+j]
			}
		}
		rar = rar2
		iters = it
		res = append(res, relResidual(r, bn, m, k))
		if s.opt.Progress != nil {
			val := math.NaN()
			if yo != nil && na < s.n && it%nystromValEvery == 0 {
				a := s.alpha(x)
				val = s.accuracy(a, na, yt, yo)
			}
			s.opt.Progress(NystromStep{Candidate: cand, Candidates: ncand, Lambda: lambda, Iter: it, Residual: res[len(res)-1], Validation: val})
		}
	}
	return s.alpha(x), iters, res, nil
}

// factorPlain sets T = A = I (tests: conjugate residuals without the preconditioner,
// on H itself, whose regulariser op takes from s.kmm).
func (s *nystromSolver) factorPlain() error {
	m := s.m
	if s.kmm == nil {
		return fmt.Errorf("nystrom: no K_MM kept for the unpreconditioned solve")
	}
	id := make([]float64, m*m)
	for i := range m {
		id[i*m+i] = 1
	}
	s.t, s.a, s.jitter = id, id, 0
	return nil
}

// alpha returns α = T⁻¹A⁻¹β.
func (s *nystromSolver) alpha(beta []float64) []float64 {
	a := append([]float64(nil), beta...)
	s.tri(s.a, false, true, a)
	s.tri(s.t, false, true, a)
	return a
}

// intercept returns b = mean(Y) - mean(K_a α) over the first na rows.
func (s *nystromSolver) intercept(alpha []float64, na int, yt []float64) []float64 {
	k := s.k
	p := make([]float64, na*k)
	_ = s.mul(context.Background(), alpha, na, p)
	b := make([]float64, k)
	for i := range na {
		for j := range k {
			b[j] += (yt[i*k+j] - p[i*k+j]) / float64(na)
		}
	}
	return b
}

// accuracy returns the accuracy on rows nf..n-1 of the model α fitted on rows 0..nf-1
// (labels yo, in row order).
func (s *nystromSolver) accuracy(alpha []float64, nf int, yt []float64, yo []int) float64 {
	n, k := s.n, s.k
	p := make([]float64, n*k)
	_ = s.mul(context.Background(), alpha, n, p)
	b := make([]float64, k)
	for i := range nf {
		for j := range k {
			b[j] += (yt[i*k+j] - p[i*k+j]) / float64(nf)
		}
	}
	right := 0
	for i := nf; i < n; i++ {
		best, arg := math.Inf(-1), 0
		for j := range k {
			if v := p[i*k+j] + b[j]; v > best {
				best, arg = v, j
			}
		}
		if arg == yo[i] {
			right++
		}
	}
	return float64(right) / float64(n-nf)
}

func colNorms(a []float64, m, k int) []float64 {
	d := colDots(a, a, m, k)
	for j := range d {
		d[j] = math.Sqrt(d[j])
	}
	return d
}

func colDots(a, b []float64, m, k int) []float64 {
	d := make([]float64, k)
	for i := range m {
		for j := range k {
			d[j] += a[i*k+j] * b[i*k+j]
		}
	}
	return d
}

// relResidual returns max_j ||r_j|| / ||b_j|| (columns with b_j = 0 count 0).
func relResidual(r, bn []float64, m, k int) float64 {
	rn := colNorms(r, m, k)
	w := 0.0
	for j := range k {
		if bn[j] > 0 {
			w = max(w, rn[j]/bn[j])
		}
	}
	return w
}

// nystromStall is the window of iterations over which the residual, once below
// nystromFloor, must at least halve for the iterations to go on when K_nM is cached in
// float32: its products' rounding sets a floor of 1e-6 to 1e-5 relative (measured on
// MNIST CDF features), and iterations beyond it change nothing. With float64 products
// a plateau is a slow phase of the method and the iterations go on.
const nystromStall = 10

// stalled reports whether the residual history res has fallen by less than half over
// its last nystromStall iterations.
func stalled(res []float64) bool {
	n := len(res)
	return n > nystromStall && res[n-1] < nystromFloor && res[n-1] > 0.5*res[n-1-nystromStall]
}

// nystromFloor is the residual below which a float32 solve may be stalled.
const nystromFloor = 1e-4
