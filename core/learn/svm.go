package learn

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"gitui/core/linalg"
)

// SVCOptions holds the settings of [TrainSVC]. The zero value (or a nil pointer) means
// LIBSVM's svm-train defaults: eps = 1e-3, shrinking on, a 100 MB kernel cache, the
// iteration cap max(10^7, 100 l), all classes weighted 1.
type SVCOptions struct {
	// Eps is the stopping tolerance on the maximal KKT violation,
	//
	//	max_{i in I_up} -y_i grad_i  -  min_{j in I_low} -y_j grad_j  <  Eps,
	//
	// (svm-train -e). 0 means 1e-3.
	Eps float64

	// NoShrinking turns LIBSVM's shrinking heuristic off (svm-train -h 0). Both settings
	// stop at the same tolerance; shrinking only saves work.
	NoShrinking bool

	// CacheMB is the budget of the float32 kernel-row cache of each binary subproblem, in
	// MiB (svm-train -m). 0 means 100. It never goes below two rows. Concurrent
	// subproblems (see Workers) each have their own cache.
	CacheMB float64

	// MaxIter caps the SMO iterations of each binary subproblem. 0 means LIBSVM's
	// max(10^7, 100 l), l the subproblem size. Reaching it is not an error: the model
	// is kept and a warning is added to [SVC.Warnings].
	MaxIter int

	// Weights multiplies C for the class with the given label (svm-train -wi): the class
	// gets C * Weights[label]. Labels absent from the map get weight 1.
	Weights map[int]float64

	// Workers is the number of binary subproblems trained at once. 0 means GOMAXPROCS.
	Workers int

	// Progress, when set, is called with the pairs finished so far and the SMO iterations
	// of all pairs so far: every min(l, 1000) iterations of a pair (when it also checks
	// ctx) and when a pair finishes. It is called from the pairs' goroutines, one call at
	// a time (a mutex orders them), and must return quickly.
	Progress func(SVCProgress)
}

// SVCProgress is a report of [SVCOptions.Progress]: PairsDone of Pairs binary problems
// are solved, and Iter SMO iterations were taken in all pairs together (those running
// included).
type SVCProgress struct {
	PairsDone, Pairs int
	Iter             int
}

// svcReporter sums the pairs' progress for SVCOptions.Progress.
type svcReporter struct {
	fn          func(SVCProgress)
	mu          sync.Mutex
	pairs, done int
	iter        int
}

// iterations adds d SMO iterations of one pair and reports.
func (r *svcReporter) iterations(d int) {
	if r.fn == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.iter += d
	r.fn(SVCProgress{PairsDone: r.done, Pairs: r.pairs, Iter: r.iter})
}

// pairDone counts a finished pair and reports.
func (r *svcReporter) pairDone() {
	if r.fn == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	r.fn(SVCProgress{PairsDone: r.done, Pairs: r.pairs, Iter: r.iter})
}

// SVCPair describes the binary C-SVC that separates class Labels[I] (positive, y = +1)
// from class Labels[J] (negative), I < J, as LIBSVM's one-vs-one training builds it.
type SVCPair struct {
	I, J int

	// Rho is the bias: the decision value is sum_s coef_s K(x, x_s) - Rho.
	Rho float64

	// Obj is the optimal dual objective 1/2 a^T Q a - e^T a (svm-train's "obj").
	Obj float64

	// Iter is the number of SMO iterations; MaxIterReached reports the cap was hit.
	Iter           int
	MaxIterReached bool

	// NSV counts the support vectors (a_i > 0) of this pair, NBSV those at the bound C.
	NSV, NBSV int

	// NonPositiveCurvature counts the SMO steps whose curvature K_ii + K_jj - 2 K_ij
	// (for the pair of variables being updated) was <= 0, so that the TAU = 1e-12 guard
	// of LIBSVM was used. It is positive for indefinite Gram matrices (best-fit
	// kernels) and also when two training points have identical kernel rows.
	NonPositiveCurvature int

	// SV holds the training indices of this pair's support vectors, positive class
	// first, each class in training order; Coef holds y_s a_s for each of them.
	SV   []int
	Coef []float64
}

// SVC is a trained C-support-vector classifier on a precomputed kernel, in LIBSVM's
// one-vs-one layout. Its decision values for a test point x are
//
//	dec_p(x) = sum_s Coef[s, p] K(x, x_{SV[s]}) - Rho[p],    p = 0 .. P-1,
//
// for the P = k(k-1)/2 pairs (0,1), (0,2), ..., (0,k-1), (1,2), ..., (k-2,k-1) of class
// positions; dec_p > 0 votes for class I of pair p, otherwise for class J, and the
// prediction is the label with most votes, ties going to the class that comes first in
// Labels (svm-predict's rule).
type SVC struct {
	// Labels lists the classes in LIBSVM's order: by first appearance in the training
	// labels, except that a two-class problem with labels -1 then +1 is reordered to
	// +1, -1 (svm_group_classes).
	Labels []int

	// N is the number of training points: test kernels have N columns.
	N int

	// SV holds the training indices of the support vectors of any pair, grouped by class
	// in Labels order and in training order within a class (svm-train's sv_indices
	// minus one); NSV[c] of them belong to class Labels[c].
	SV  []int
	NSV []int

	// Coef is len(SV) × P: Coef[s, p] = y_s a_s in pair p, zero when SV[s] is not a
	// support vector of pair p (or not in it).
	Coef *mat.Dense

	// Rho holds the P biases, Pairs the per-pair details.
	Rho   []float64
	Pairs []SVCPair

	// Warnings are one-line notes about the training: iteration caps hit and
	// non-positive curvature met (indefinite Gram). Empty when nothing was unusual.
	Warnings []string
}

// TrainSVC trains a C-SVC on the training Gram matrix k (n×n, k[i][j] = K(x_i, x_j)) and
// the labels y (length n) by LIBSVM's SMO with second-order working-set selection (Fan,
// Chen & Lin, JMLR 6, 2005), one binary problem per pair of classes:
//
//	min_a  1/2 a^T Q a - e^T a   s.t.  y^T a = 0,  0 <= a_i <= C_i,   Q_ij = y_i y_j K_ij,
//
// with C_i = C * Weights[label_i]. The bias of each pair is LIBSVM's: the mean of y_i G_i
// over free variables, else the midpoint of the bounds the others allow. The solver
// follows svm-train's arithmetic (kernel rows rounded to float32, the same iteration order
// and shrinking), so that on the same kernel values it takes the same steps; k may be
// indefinite, in which case curvatures <= 0 are replaced by TAU = 1e-12 as in LIBSVM, and
// [SVC.Warnings] says so.
//
// k is read through At unless it is a *mat.SymDense, whose storage is read directly; At
// must be safe for concurrent use when opts.Workers != 1. k and y are not modified.
// Pairs are trained in parallel on up to opts.Workers goroutines (each with its own cache
// of opts.CacheMB); ctx is checked every min(l, 1000) SMO iterations and between pairs,
// and TrainSVC then returns ctx.Err().
//
// TrainSVC panics if k is not len(y)×len(y). It returns an error if C is not positive and
// finite, if y has fewer than two classes, if an option is out of range, or if the
// diagonal of k is not finite.
func TrainSVC(ctx context.Context, k mat.Symmetric, y []int, C float64, opts *SVCOptions) (*SVC, error) {
	n := len(y)
	if k.SymmetricDim() != n {
		panic(fmt.Sprintf("learn: TrainSVC: Gram matrix is %d×%d but there are %d labels", k.SymmetricDim(), k.SymmetricDim(), n))
	}
	g := newGramReader(k)
	return trainSVC(ctx, &g, y, C, opts)
}

// trainSVC is TrainSVC and TrainSVCRows on the kernel k (k.Len() == len(y)).
func trainSVC(ctx context.Context, k SVCKernel, y []int, C float64, opts *SVCOptions) (*SVC, error) {
	n := len(y)
	var o SVCOptions
	if opts != nil {
		o = *opts
	}
	if !(C > 0) || math.IsInf(C, 1) {
		return nil, fmt.Errorf("learn: SVC cost C = %g is not a positive finite number: pass C > 0 (LIBSVM's default is 1)", C)
	}
	switch {
	case o.Eps < 0 || math.IsNaN(o.Eps):
		return nil, fmt.Errorf("learn: SVC tolerance Eps = %g is negative: pass 0 for LIBSVM's 1e-3 or a small positive value", o.Eps)
	case o.CacheMB < 0 || math.IsNaN(o.CacheMB):
		return nil, fmt.Errorf("learn: SVC CacheMB = %g is negative: pass 0 for 100 MB or a positive size", o.CacheMB)
	case o.MaxIter < 0:
		return nil, fmt.Errorf("learn: SVC MaxIter = %d is negative: pass 0 for LIBSVM's cap or a positive count", o.MaxIter)
	case o.Workers < 0:
		return nil, fmt.Errorf("learn: SVC Workers = %d is negative: pass 0 for GOMAXPROCS or a positive count", o.Workers)
	}
	if o.Eps == 0 {
		o.Eps = 1e-3
	}
	if o.CacheMB == 0 {
		o.CacheMB = 100
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}

	labels, start, count, perm := groupClasses(y)
	nc := len(labels)
	if nc < 2 {
		return nil, fmt.Errorf("learn: SVC training labels hold %d class(es): give training points of at least two classes", nc)
	}
	cw := make([]float64, nc)
	for c, lab := range labels {
		cw[c] = C
		if w, ok := o.Weights[lab]; ok {
			if !(w > 0) || math.IsInf(w, 1) {
				return nil, fmt.Errorf("learn: SVC weight %g for class %d is not a positive finite number: pass weights > 0", w, lab)
			}
			cw[c] = C * w
		}
	}
	for lab := range o.Weights {
		found := false
		for _, l := range labels {
			found = found || l == lab
		}
		if !found {
			return nil, fmt.Errorf("learn: SVC weight given for class %d, which is not among the training labels %v: remove it or fix the label", lab, labels)
		}
	}
	for i := range n {
		if d := k.Diag(i); math.IsNaN(d) || math.IsInf(d, 0) {
			return nil, fmt.Errorf("learn: SVC Gram diagonal K[%d][%d] = %g is not finite: fix the kernel computation (overflow of a high-degree polynomial?) or rescale the data", i, i, d)
		}
	}

	np := nc * (nc - 1) / 2
	jobs := make([][2]int, 0, np)
	for i := range nc {
		for j := i + 1; j < nc; j++ {
			jobs = append(jobs, [2]int{i, j})
		}
	}
	results := make([]smoResult, np)
	rep := &svcReporter{fn: o.Progress, pairs: np}
	cacheBytes := int64(o.CacheMB * (1 << 20))
	train := func(p int) error {
		ci, cj := jobs[p][0], jobs[p][1]
		l := count[ci] + count[cj]
		idx := make([]int, 0, l)
		idx = append(idx, perm[start[ci]:start[ci]+count[ci]]...)
		idx = append(idx, perm[start[cj]:start[cj]+count[cj]]...)
		ys := make([]int8, l)
		for t := range ys {
			ys[t] = -1
			if t < count[ci] {
				ys[t] = +1
			}
		}
		q := newSVCQ(k, idx, ys, cacheBytes)
		r, err := solveSVC(ctx, q, cw[ci], cw[cj], o.Eps, !o.NoShrinking, o.MaxIter, rep.iterations)
		results[p] = r
		if err == nil {
			rep.pairDone()
		}
		return err
	}
	if err := runPairs(ctx, np, o.Workers, train); err != nil {
		return nil, err
	}
	return assembleSVC(labels, start, count, perm, n, cw, jobs, results), nil
}

// runPairs calls train(p) for p in [0, np) on up to workers goroutines.
func runPairs(ctx context.Context, np, workers int, train func(p int) error) error {
	if workers == 1 || np == 1 {
		for p := range np {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := train(p); err != nil {
				return err
			}
		}
		return nil
	}
	sem := make(chan struct{}, workers) // ParallelFor runs GOMAXPROCS goroutines; cap them
	return linalg.ParallelFor(ctx, np, 1, func(lo, hi int) error {
		sem <- struct{}{}
		defer func() { <-sem }()
		for p := lo; p < hi; p++ {
			if err := train(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// groupClasses is svm_group_classes: class positions by first appearance (with the
// -1/+1 swap for two classes), the start and count of each class in perm, and perm, the
// training indices grouped by class, in training order within a class.
func groupClasses(y []int) (labels, start, count, perm []int) {
	pos := make(map[int]int)
	cls := make([]int, len(y))
	for i, lab := range y {
		c, ok := pos[lab]
		if !ok {
			c = len(labels)
			pos[lab] = c
			labels = append(labels, lab)
			count = append(count, 0)
		}
		count[c]++
		cls[i] = c
	}
	if len(labels) == 2 && labels[0] == -1 && labels[1] == +1 {
		labels[0], labels[1] = labels[1], labels[0]
		count[0], count[1] = count[1], count[0]
		for i := range cls {
			cls[i] = 1 - cls[i]
		}
	}
	start = make([]int, len(labels))
	for c := 1; c < len(labels); c++ {
		start[c] = start[c-1] + count[c-1]
	}
	perm = make([]int, len(y))
	next := append([]int(nil), start...)
	for i, c := range cls {
		perm[next[c]] = i
		next[c]++
	}
	return labels, start, count, perm
}

// assembleSVC builds the model from the pair solutions as svm_train does: a training
// point is a support vector of the model if it has a_i > 0 in any pair.
func assembleSVC(labels, start, count, perm []int, n int, cw []float64, pairs [][2]int, res []smoResult) *SVC {
	nc, np := len(labels), len(pairs)
	nonzero := make([]bool, n) // by grouped position
	for p, pr := range pairs {
		ci, cj := pr[0], pr[1]
		for t := range count[ci] {
			if math.Abs(res[p].alpha[t]) > 0 {
				nonzero[start[ci]+t] = true
			}
		}
		for t := range count[cj] {
			if math.Abs(res[p].alpha[count[ci]+t]) > 0 {
				nonzero[start[cj]+t] = true
			}
		}
	}
	m := &SVC{Labels: labels, N: n, NSV: make([]int, nc), Rho: make([]float64, np), Pairs: make([]SVCPair, np)}
	row := make([]int, n) // grouped position -> row of Coef, or -1
	for c := range nc {
		for t := start[c]; t < start[c]+count[c]; t++ {
			row[t] = -1
			if nonzero[t] {
				row[t] = len(m.SV)
				m.SV = append(m.SV, perm[t])
				m.NSV[c]++
			}
		}
	}
	m.Coef = mat.NewDense(max(len(m.SV), 1), np, nil)
	if len(m.SV) == 0 {
		m.Coef = &mat.Dense{}
	}
	var totalIter, maxHit, curv int
	for p, pr := range pairs {
		ci, cj := pr[0], pr[1]
		r := res[p]
		pi := SVCPair{I: ci, J: cj, Rho: r.rho, Obj: r.obj, Iter: r.iter, MaxIterReached: r.maxIterHit, NonPositiveCurvature: r.nonPosCurv}
		for side, c := range [2]int{ci, cj} {
			off, sign, bound := 0, 1.0, cw[ci]
			if side == 1 {
				off, sign, bound = count[ci], -1.0, cw[cj]
			}
			for t := range count[c] {
				a := r.alpha[off+t]
				if !(math.Abs(a) > 0) {
					continue
				}
				pi.NSV++
				if a >= bound {
					pi.NBSV++
				}
				pi.SV = append(pi.SV, perm[start[c]+t])
				pi.Coef = append(pi.Coef, sign*a)
				m.Coef.Set(row[start[c]+t], p, sign*a)
			}
		}
		m.Rho[p] = r.rho
		m.Pairs[p] = pi
		totalIter += r.iter
		if r.maxIterHit {
			maxHit++
		}
		if r.nonPosCurv > 0 {
			curv++
		}
	}
	if maxHit > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("learn: SVC: %d of %d binary problems reached the iteration cap before eps-optimality: raise MaxIter or C's scale, or check the Gram matrix", maxHit, np))
	}
	if curv > 0 {
		steps := 0
		for _, pi := range m.Pairs {
			steps += pi.NonPositiveCurvature
		}
		m.Warnings = append(m.Warnings, fmt.Sprintf("learn: SVC: %d SMO steps in %d of %d binary problems met curvature K_ii+K_jj-2K_ij <= 0 (indefinite Gram or duplicate points); LIBSVM's TAU = 1e-12 guard was used", steps, curv, np))
	}
	return m
}

// NonPositiveCurvature reports whether any SMO step met a curvature K_ii + K_jj - 2 K_ij
// <= 0, the sign of an indefinite Gram matrix (or of duplicate training points).
func (m *SVC) NonPositiveCurvature() bool {
	for _, p := range m.Pairs {
		if p.NonPositiveCurvature > 0 {
			return true
		}
	}
	return false
}

// DecisionValues returns the n_test × P matrix of one-vs-one decision values
//
//	dec[t, p] = sum_s Coef[s, p] ktest[t, SV[s]] - Rho[p]
//
// for the test-versus-train kernel ktest (n_test × N; row t holds K(x_t, x_i) for every
// training point i; only the SV columns are read). See [SVC.DecisionValuesTo].
func (m *SVC) DecisionValues(ctx context.Context, ktest mat.Matrix) (*mat.Dense, error) {
	var dst mat.Dense
	if err := m.DecisionValuesTo(ctx, &dst, ktest); err != nil {
		return nil, err
	}
	return &dst, nil
}

// DecisionValuesTo computes [SVC.DecisionValues] into dst, which must be empty or
// n_test × P. The product is done in blocks of 128 test rows (the SV columns gathered,
// then one GEMM with Coef) on GOMAXPROCS goroutines; ctx is checked once per block and
// ctx.Err() returned if cancelled. It panics if ktest does not have N columns or dst has
// the wrong shape.
func (m *SVC) DecisionValuesTo(ctx context.Context, dst *mat.Dense, ktest mat.Matrix) error {
	r, c := ktest.Dims()
	if c != m.N {
		panic(fmt.Sprintf("learn: SVC.DecisionValues: test kernel has %d columns, the model was trained on %d points", c, m.N))
	}
	return m.decision(ctx, dst, ktest, r, m.SV)
}

// DecisionValuesSVTo is [SVC.DecisionValuesTo] for a test kernel computed against the
// support vectors only: ksv is n_test × len(SV) with ksv[t, s] = K(x_t, x_{SV[s]}), which
// saves kernel evaluations when few training points are support vectors. It panics if
// ksv does not have len(SV) columns or dst is neither empty nor n_test × P.
func (m *SVC) DecisionValuesSVTo(ctx context.Context, dst *mat.Dense, ksv mat.Matrix) error {
	r, c := ksv.Dims()
	if c != len(m.SV) {
		panic(fmt.Sprintf("learn: SVC.DecisionValuesSV: kernel has %d columns, the model has %d support vectors", c, len(m.SV)))
	}
	cols := make([]int, len(m.SV))
	for s := range cols {
		cols[s] = s
	}
	return m.decision(ctx, dst, ksv, r, cols)
}

func (m *SVC) decision(ctx context.Context, dst *mat.Dense, k mat.Matrix, r int, cols []int) error {
	np := len(m.Rho)
	if dst.IsEmpty() {
		if r == 0 {
			return ctx.Err()
		}
		dst.ReuseAs(r, np)
	} else if dr, dc := dst.Dims(); dr != r || dc != np {
		panic(fmt.Sprintf("learn: SVC.DecisionValues: dst is %d×%d, want %d×%d", dr, dc, r, np))
	}
	out := dst.RawMatrix()
	nsv := len(cols)
	var raw blas64.General
	rm, isRaw := k.(mat.RawMatrixer)
	if isRaw {
		raw = rm.RawMatrix()
	}
	var coef blas64.General
	if nsv > 0 {
		coef = m.Coef.RawMatrix()
	}
	const block = 128
	return linalg.ParallelFor(ctx, r, block, func(lo, hi int) error {
		buf := make([]float64, (hi-lo)*nsv)
		for t := lo; t < hi; t++ {
			b := buf[(t-lo)*nsv : (t-lo+1)*nsv]
			if isRaw {
				row := raw.Data[t*raw.Stride : t*raw.Stride+raw.Cols]
				for s, c := range cols {
					b[s] = row[c]
				}
			} else {
				for s, c := range cols {
					b[s] = k.At(t, c)
				}
			}
			clear(out.Data[t*out.Stride : t*out.Stride+np])
		}
		if nsv > 0 {
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
				blas64.General{Rows: hi - lo, Cols: nsv, Stride: nsv, Data: buf},
				coef, 0,
				blas64.General{Rows: hi - lo, Cols: np, Stride: out.Stride, Data: out.Data[lo*out.Stride:]})
		}
		for t := lo; t < hi; t++ {
			o := out.Data[t*out.Stride : t*out.Stride+np]
			for p := range o {
				o[p] -= m.Rho[p]
			}
		}
		return nil
	})
}

// Vote returns the labels that one-vs-one voting gives for decision values dec
// (n_test × P, as from [SVC.DecisionValues]): pair p votes for Labels[Pairs[p].I] if
// dec[t, p] > 0 and for Labels[Pairs[p].J] otherwise; the most voted class wins, ties
// going to the class earlier in Labels (svm-predict's rule). It panics if dec does not
// have P columns.
func (m *SVC) Vote(dec mat.Matrix) []int {
	r, c := dec.Dims()
	if c != len(m.Pairs) {
		panic(fmt.Sprintf("learn: SVC.Vote: %d decision columns, the model has %d pairs", c, len(m.Pairs)))
	}
	out := make([]int, r)
	votes := make([]int, len(m.Labels))
	for t := range r {
		m.votes(votes, dec, t)
		best := 0
		for c := 1; c < len(votes); c++ {
			if votes[c] > votes[best] {
				best = c
			}
		}
		out[t] = m.Labels[best]
	}
	return out
}

func (m *SVC) votes(dst []int, dec mat.Matrix, t int) {
	clear(dst)
	for p, pr := range m.Pairs {
		if dec.At(t, p) > 0 {
			dst[pr.I]++
		} else {
			dst[pr.J]++
		}
	}
}

// Classes returns the number of classes k = len(Labels).
func (m *SVC) Classes() int { return len(m.Labels) }

// Predict returns the predicted label of each row of the test-versus-train kernel ktest
// (n_test × N) by one-vs-one voting on the decision values ([SVC.Vote]), which is
// svm-predict's answer. It panics if ktest does not have N columns and returns ctx.Err()
// if cancelled.
func (m *SVC) Predict(ctx context.Context, ktest *mat.Dense) ([]int, error) {
	dec, err := m.DecisionValues(ctx, ktest)
	if err != nil {
		return nil, err
	}
	return m.Vote(dec), nil
}

// Decision returns the n_test × k matrix of class scores of the rows of ktest
// (n_test × N), for models whose labels are 0..k-1 (the [Classifier] convention):
//
//	S[t, c] = votes_c(t) + (k - pos_c) / (2k),
//
// with votes_c the one-vs-one votes for label c and pos_c its position in Labels, so
// that the row-wise argmax ([Argmax]) is svm-predict's answer, ties included. It returns
// an error if the labels are not 0..k-1 (use [SVC.DecisionValues] and [SVC.Vote] then),
// ctx.Err() if cancelled, and panics if ktest does not have N columns.
func (m *SVC) Decision(ctx context.Context, ktest *mat.Dense) (*mat.Dense, error) {
	if err := m.checkScoreLabels(); err != nil {
		return nil, err
	}
	dec, err := m.DecisionValues(ctx, ktest)
	if err != nil {
		return nil, err
	}
	return m.scores(dec), nil
}

// checkScoreLabels returns an error if the labels are not 0..k-1, so that they cannot
// index the columns of class scores.
func (m *SVC) checkScoreLabels() error {
	k := len(m.Labels)
	for _, lab := range m.Labels {
		if lab < 0 || lab >= k {
			return fmt.Errorf("learn: SVC labels %v are not 0..%d, so they cannot index class scores: use DecisionValues and Vote, or relabel classes as 0..%d", m.Labels, k-1, k-1)
		}
	}
	return nil
}

// scores returns the class scores of [SVC.Decision] from the one-vs-one decision
// values dec (n_test × P); the labels must be 0..k-1 (checkScoreLabels).
func (m *SVC) scores(dec *mat.Dense) *mat.Dense {
	k := len(m.Labels)
	r, _ := dec.Dims()
	if r == 0 {
		return &mat.Dense{}
	}
	s := mat.NewDense(r, k, nil)
	votes := make([]int, k)
	for t := range r {
		m.votes(votes, dec, t)
		for pos, lab := range m.Labels {
			s.Set(t, lab, float64(votes[pos])+float64(k-pos)/float64(2*k))
		}
	}
	return s
}

var _ Classifier = (*SVC)(nil)

// GramFunc is a symmetric kernel matrix given by a function, for [TrainSVC] on Gram
// matrices too large to store: the solver asks for the rows it needs and keeps them in
// its cache. K must be symmetric (K(i, j) == K(j, i)), deterministic, and safe for
// concurrent use when pairs are trained in parallel.
type GramFunc struct {
	N int
	K func(i, j int) float64
}

// Dims returns (N, N).
func (g GramFunc) Dims() (r, c int) { return g.N, g.N }

// At returns K(i, j). It panics if i or j is outside [0, N).
func (g GramFunc) At(i, j int) float64 {
	if uint(i) >= uint(g.N) || uint(j) >= uint(g.N) {
		panic(fmt.Sprintf("learn: GramFunc.At(%d, %d) outside %d×%d", i, j, g.N, g.N))
	}
	return g.K(i, j)
}

// T returns g itself: the matrix is symmetric.
func (g GramFunc) T() mat.Matrix { return g }

// SymmetricDim returns N.
func (g GramFunc) SymmetricDim() int { return g.N }
