package learn

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"gitui/core/kernel"
	"gitui/core/linalg"
	"gitui/core/linalg/dotf32"
)

// SVCKernel is a training kernel given by its rows, for [TrainSVCRows]: what LIBSVM's
// solver reads, so that a C-SVC trains without the n×n Gram matrix (only its row cache,
// SVCOptions.CacheMB per pair trained at once, is held).
type SVCKernel interface {
	// Len returns n, the number of training points.
	Len() int
	// Diag returns K(a, a) for the training point a in [0, n).
	Diag(a int) float64
	// Sub returns the kernel restricted to the training points idx (position t is point
	// idx[t]) for one binary subproblem. Each call returns a new view, used by one
	// goroutine at a time; calls of Sub may run concurrently. idx is not kept.
	Sub(idx []int) SVCSubKernel
}

// SVCSubKernel is the kernel of one binary subproblem in its current order of
// positions (the solver's shrinking permutes them with Swap). Not safe for concurrent use.
type SVCSubKernel interface {
	// Row sets dst[t] = K(p_i, p_{start+t}) for t < len(dst), p_j the point at position
	// j: the part [start, start+len(dst)) of row i that the row cache asks for.
	Row(dst []float64, i, start int)
	// Swap exchanges the points at positions i and j.
	Swap(i, j int)
}

// TrainSVCRows is [TrainSVC] on a kernel given by its rows: the same solver, the same
// float32 rounding of the rows (LIBSVM's Qfloat), so that on the same kernel values it
// takes the same steps and returns the same model as TrainSVC on the Gram matrix of k.
// The rows are asked for as the row cache misses them (row prefixes: LIBSVM's get_Q);
// memory is the caches (opts.CacheMB per pair trained at once) plus what k.Sub holds.
// It panics if k.Len() != len(y); errors, cancellation and progress as in TrainSVC.
func TrainSVCRows(ctx context.Context, k SVCKernel, y []int, C float64, opts *SVCOptions) (*SVC, error) {
	if k.Len() != len(y) {
		panic(fmt.Sprintf("learn: TrainSVCRows: kernel of %d points but there are %d labels", k.Len(), len(y)))
	}
	return trainSVC(ctx, k, y, C, opts)
}

// FeatureKernel is the kernel of feature rows computed on demand,
//
//	K(a, b) = (s_a s_b) k0(x_a, x_b),    k0(x, z) = f(<x, z>, ||x||², ||z||²),
//
// for the base kernels of core/kernel (linear, Gaussian, polynomial), x_a the row
// Rows[a] of X and s_a an optional per-point scale (1 without one). A subproblem's row
// is one matrix-vector product of its points' features (held by Sub in the subproblem's
// order) with x_i, then the map f, as kernel.SymGram applies it to a block of inner
// products. The diagonal is K(a, a) = s_a² f(||x_a||², ||x_a||², ||x_a||²) exactly (the
// Gaussian's is s_a²), in Diag and in every row.
//
// With Float32 the products are float32 (linalg's packed GEMM; the squared norms and f
// stay float64), about twice the rate of float64 and half the memory of a subproblem's
// features, with rounding of relative size 1e-7 in the inner products (RBFRowsRLS makes
// the same choice); otherwise float64 (blas64.Gemv). Safe for concurrent use (Sub
// copies what a subproblem needs); X is read, not copied, and must not change.
type FeatureKernel struct {
	base  kernel.Base
	x     *mat.Dense
	rows  []int
	scale []float64 // nil: 1
	norms []float64 // ||x_a||² by point
	f32   bool
}

// NewFeatureKernel returns the kernel of the rows rows of X (point a is X's row
// rows[a]; nil means every row in order) with base kernel k0 and the per-point scales
// scale (nil, or one per point), products in float32 when float32Products. It returns an
// error if k0 is not valid (k0.Validate()), if a row index is outside X, if scale has the
// wrong length or holds a value that is not finite and positive, or if a squared norm is
// not finite.
func NewFeatureKernel(k0 kernel.Base, X *mat.Dense, rows []int, scale []float64, float32Products bool) (*FeatureKernel, error) {
	if err := k0.Validate(); err != nil {
		return nil, fmt.Errorf("learn: feature kernel: %w", err)
	}
	r, _ := X.Dims()
	if rows == nil {
		rows = make([]int, r)
		for i := range rows {
			rows[i] = i
		}
	}
	for _, i := range rows {
		if i < 0 || i >= r {
			return nil, fmt.Errorf("learn: feature kernel: row %d is outside the %d rows of X: pass row indices in [0, %d)", i, r, r)
		}
	}
	if scale != nil {
		if len(scale) != len(rows) {
			return nil, fmt.Errorf("learn: feature kernel: %d scales for %d points: pass one per point, or nil", len(scale), len(rows))
		}
		for a, s := range scale {
			if !(s > 0) || math.IsInf(s, 1) {
				return nil, fmt.Errorf("learn: feature kernel: scale %g of point %d is not positive and finite: fix the normalisation", s, a)
			}
		}
	}
	k := &FeatureKernel{base: k0, x: X, rows: append([]int(nil), rows...), f32: float32Products}
	if scale != nil {
		k.scale = append([]float64(nil), scale...)
	}
	k.norms = make([]float64, len(rows))
	for a, i := range k.rows {
		var s float64
		for _, v := range X.RawRowView(i) {
			s += v * v
		}
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("learn: feature kernel: row %d has squared norm %g: the features are not finite", i, s)
		}
		k.norms[a] = s
	}
	return k, nil
}

// Len returns the number of points.
func (k *FeatureKernel) Len() int { return len(k.rows) }

func (k *FeatureKernel) s(a int) float64 {
	if k.scale == nil {
		return 1
	}
	return k.scale[a]
}

// Diag returns K(a, a) = s_a² f(||x_a||², ||x_a||², ||x_a||²).
func (k *FeatureKernel) Diag(a int) float64 {
	n := k.norms[a]
	s := k.s(a)
	return s * s * k.base.FromDot(n, n, n)
}

// Sub returns the kernel of the points idx: a copy of their features (float32 packed
// for the GEMM, or float64), squared norms, scales and diagonal, in idx's order.
func (k *FeatureKernel) Sub(idx []int) SVCSubKernel {
	_, d := k.x.Dims()
	l := len(idx)
	s := &featureSub{k: k, d: d, norms: make([]float64, l), scale: make([]float64, l), diag: make([]float64, l)}
	for t, a := range idx {
		s.norms[t], s.scale[t], s.diag[t] = k.norms[a], k.s(a), k.Diag(a)
	}
	if k.f32 {
		b := make([]float32, l*d)
		for t, a := range idx {
			row := b[t*d : (t+1)*d]
			for p, v := range k.x.RawRowView(k.rows[a]) {
				row[p] = float32(v)
			}
		}
		s.pb = linalg.RowMajorB(l, d, b, max(d, 1))
		s.b32 = b
		s.xi32 = make([]float32, d)
		s.out32 = make([]float32, l+16)
	} else {
		s.x64 = make([]float64, l*d)
		for t, a := range idx {
			copy(s.x64[t*d:(t+1)*d], k.x.RawRowView(k.rows[a]))
		}
		s.xi64 = make([]float64, d)
	}
	return s
}

// featureSub is FeatureKernel's view of one subproblem.
type featureSub struct {
	k                  *FeatureKernel
	d                  int
	norms, scale, diag []float64
	// pb and b32 (float32 features) are the points' features row-major, never packed:
	// a kernel row is one row of A against them, which the packed GEMM's 6-row tile
	// would compute six times over. dotf32.Rows multiplies them in a fixed order, so
	// that a value depends on the two rows only, not on the span of points computed (a
	// shape-dependent sgemm, as OpenBLAS's, made a model depend on its cache and
	// shrinking), and both builds compute the same rows.
	pb          linalg.PackedB
	b32         []float32
	xi32, out32 []float32
	x64, xi64   []float64 // float64: the points' features, row-major
}

// Row computes the inner products of x_i with the points start..start+len(dst)-1 (one
// product), then K = (s_i s_j) f(dot, ||x_i||², ||x_j||²), and K(i, i) from Diag.
func (s *featureSub) Row(dst []float64, i, start int) {
	n := start + len(dst)
	if len(dst) == 0 {
		return
	}
	if s.d == 0 {
		clear(dst)
	} else if s.x64 != nil {
		copy(s.xi64, s.x64[i*s.d:(i+1)*s.d])
		blas64.Gemv(blas.NoTrans, 1,
			blas64.General{Rows: len(dst), Cols: s.d, Stride: s.d, Data: s.x64[start*s.d:]},
			blas64.Vector{N: s.d, Inc: 1, Data: s.xi64}, 0,
			blas64.Vector{N: len(dst), Inc: 1, Data: dst})
	} else {
		s.pb.Row(s.xi32, i)
		dotf32.Rows(dst, s.xi32, s.b32[start*s.d:], s.d)
	}
	base, xi, si := s.k.base, s.norms[i], s.scale[i]
	norms, scale := s.norms[start:n], s.scale[start:n]
	switch b := base.(type) {
	case kernel.RBF:
		g := b.Gamma
		for t, v := range dst {
			dst[t] = si * scale[t] * math.Exp(-g*max(0, xi+norms[t]-2*v))
		}
	default:
		for t, v := range dst {
			dst[t] = si * scale[t] * base.FromDot(v, xi, norms[t])
		}
	}
	if i >= start && i < n {
		dst[i-start] = s.diag[i]
	}
}

// Swap exchanges the points at positions i and j.
func (s *featureSub) Swap(i, j int) {
	if i == j {
		return
	}
	s.norms[i], s.norms[j] = s.norms[j], s.norms[i]
	s.scale[i], s.scale[j] = s.scale[j], s.scale[i]
	s.diag[i], s.diag[j] = s.diag[j], s.diag[i]
	if s.x64 != nil {
		a, b := s.x64[i*s.d:(i+1)*s.d], s.x64[j*s.d:(j+1)*s.d]
		for p := range a {
			a[p], b[p] = b[p], a[p]
		}
		return
	}
	s.pb.SwapRows(i, j)
}

// svBlock is the number of test rows whose kernel with the support vectors
// DecisionValuesFeatures holds at once.
const svBlock = 512

// DecisionValuesFeatures returns the n_test × P one-vs-one decision values
// ([SVC.DecisionValues]) of the rows of T for a model trained by [TrainSVCRows] on k,
// without a test × training kernel: in blocks of 512 test rows, the kernel with the
// support vectors only,
//
//	K(t, s) = (r_t s_s) k0(t, x_s),   s in SV,
//
// one GEMM of test × SV features (float32 when k's products are) plus the map, then
// [SVC.DecisionValuesSVTo]. tscale holds r_t, the test rows' scales (nil: 1). ctx is
// checked once per block. It panics if T's columns differ from k's features or tscale
// has the wrong length, and returns an error if a test row is not finite.
func (m *SVC) DecisionValuesFeatures(ctx context.Context, k *FeatureKernel, T *mat.Dense, tscale []float64) (*mat.Dense, error) {
	nt, d := T.Dims()
	if _, dk := k.x.Dims(); d != dk {
		panic(fmt.Sprintf("learn: SVC.DecisionValuesFeatures: test rows have %d columns, the kernel's features %d", d, dk))
	}
	if tscale != nil && len(tscale) != nt {
		panic(fmt.Sprintf("learn: SVC.DecisionValuesFeatures: %d test scales for %d rows", len(tscale), nt))
	}
	if len(m.Rho) == 0 || nt == 0 {
		return &mat.Dense{}, ctx.Err()
	}
	nsv := len(m.SV)
	xs := mat.NewDense(max(nsv, 1), max(d, 1), nil)
	ss := make([]float64, nsv)
	for s, a := range m.SV {
		copy(xs.RawRowView(s), k.x.RawRowView(k.rows[a]))
		ss[s] = k.s(a)
	}
	tn := make([]float64, nt)
	for t := range nt {
		var v float64
		for _, x := range T.RawRowView(t) {
			v += x * x
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("learn: SVC decision: test row %d has squared norm %g: the test features are not finite", t, v)
		}
		tn[t] = v
	}
	var pb linalg.PackedB
	if k.f32 && nsv > 0 && d > 0 {
		b := make([]float32, nsv*d)
		for s := range nsv {
			for p, v := range xs.RawRowView(s)[:d] {
				b[s*d+p] = float32(v)
			}
		}
		pb = linalg.PackB(nsv, d, b, d)
	}
	out := mat.NewDense(nt, len(m.Rho), nil)
	kb := make([]float64, min(svBlock, nt)*max(nsv, 1))
	for t0 := 0; t0 < nt; t0 += svBlock {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t1 := min(nt, t0+svBlock)
		r := t1 - t0
		kg := mat.NewDense(r, max(nsv, 1), kb[:r*max(nsv, 1)])
		if nsv > 0 {
			if err := m.svKernel(ctx, kg, k, T, t0, t1, xs, pb, tn); err != nil {
				return nil, err
			}
			for t := range r {
				rt := 1.0
				if tscale != nil {
					rt = tscale[t0+t]
				}
				row := kg.RawRowView(t)
				for s := range row {
					row[s] = rt * ss[s] * row[s]
				}
			}
		}
		dst := out.Slice(t0, t1, 0, len(m.Rho)).(*mat.Dense)
		if nsv == 0 { // no support vector: dec = -rho
			for t := range r {
				row := dst.RawRowView(t)
				for p := range row {
					row[p] = -m.Rho[p]
				}
			}
			continue
		}
		if err := m.DecisionValuesSVTo(ctx, dst, kg); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// svKernel sets kg (rows t0..t1 of T by the support vectors) to k0(t, x_s): one GEMM
// and the map; float32 products over the packed SV features pb on GOMAXPROCS goroutines,
// else kernel.GramTo.
func (m *SVC) svKernel(ctx context.Context, kg *mat.Dense, k *FeatureKernel, T *mat.Dense, t0, t1 int, xs *mat.Dense, pb linalg.PackedB, tn []float64) error {
	_, d := T.Dims()
	nsv := len(m.SV)
	if !k.f32 || d == 0 {
		tb := T.Slice(t0, t1, 0, d).(*mat.Dense)
		return kernel.GramTo(ctx, kg, k.base, tb, xs.Slice(0, nsv, 0, d).(*mat.Dense))
	}
	svn := make([]float64, nsv)
	for s, a := range m.SV {
		svn[s] = k.norms[a]
	}
	const rowsPer = 16
	return linalg.ParallelFor(ctx, t1-t0, rowsPer, func(lo, hi int) error {
		a := make([]float32, (hi-lo)*d)
		for t := lo; t < hi; t++ {
			for p, v := range T.RawRowView(t0 + t) {
				a[(t-lo)*d+p] = float32(v)
			}
		}
		c := make([]float32, (hi-lo)*nsv)
		pb.MulNT(hi-lo, a, d, c, nsv)
		for t := lo; t < hi; t++ {
			row := kg.RawRowView(t)
			ct := c[(t-lo)*nsv : (t-lo+1)*nsv]
			xt := tn[t0+t]
			for s, v := range ct {
				row[s] = k.base.FromDot(float64(v), xt, svn[s])
			}
		}
		return nil
	})
}

// PredictFeatures returns the one-vs-one vote ([SVC.Vote]) on the decision values of
// [SVC.DecisionValuesFeatures] for the rows of T: svm-predict's labels, without a test
// × training kernel. Panics and errors as in DecisionValuesFeatures.
func (m *SVC) PredictFeatures(ctx context.Context, k *FeatureKernel, T *mat.Dense, tscale []float64) ([]int, error) {
	dec, err := m.DecisionValuesFeatures(ctx, k, T, tscale)
	if err != nil {
		return nil, err
	}
	if r, _ := dec.Dims(); r == 0 {
		return []int{}, nil
	}
	return m.Vote(dec), nil
}

// DecisionFeatures returns the class scores of [SVC.Decision] (votes plus the tie
// break) for the rows of T from [SVC.DecisionValuesFeatures]. It returns an error if the
// labels are not 0..k-1, and otherwise as DecisionValuesFeatures.
func (m *SVC) DecisionFeatures(ctx context.Context, k *FeatureKernel, T *mat.Dense, tscale []float64) (*mat.Dense, error) {
	if err := m.checkScoreLabels(); err != nil {
		return nil, err
	}
	dec, err := m.DecisionValuesFeatures(ctx, k, T, tscale)
	if err != nil {
		return nil, err
	}
	return m.scores(dec), nil
}
