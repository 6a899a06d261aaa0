package learn

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// tau replaces a non-positive curvature K_ii + K_jj - 2 K_ij in the working-set selection
// and the two-variable update, as LIBSVM's TAU (Fan, Chen & Lin 2005, section 4).
const tau = 1e-12

// gramReader reads kernel values K(a, b) by training index, with a direct path for
// *mat.SymDense. It is read-only and safe for concurrent use when the source is. It is
// the [SVCKernel] of a precomputed Gram matrix.
type gramReader struct {
	sym    mat.Symmetric
	raw    []float64 // non-nil for *mat.SymDense
	stride int
	upper  bool
}

func newGramReader(k mat.Symmetric) gramReader {
	g := gramReader{sym: k}
	if s, ok := k.(*mat.SymDense); ok {
		r := s.RawSymmetric()
		g.raw, g.stride, g.upper = r.Data, r.Stride, r.Uplo != blas.Lower
	}
	return g
}

func (g *gramReader) at(a, b int) float64 {
	if g.raw == nil {
		return g.sym.At(a, b)
	}
	if (a > b) == g.upper {
		a, b = b, a
	}
	return g.raw[a*g.stride+b]
}

// Len returns n.
func (g *gramReader) Len() int { return g.sym.SymmetricDim() }

// Diag returns K(a, a).
func (g *gramReader) Diag(a int) float64 { return g.at(a, a) }

// Sub returns the Gram matrix's rows restricted to idx.
func (g *gramReader) Sub(idx []int) SVCSubKernel {
	return &gramSub{k: g, idx: append([]int(nil), idx...)}
}

// gramSub is a precomputed Gram matrix seen through a subproblem's (permuted) indices.
type gramSub struct {
	k   *gramReader
	idx []int // position -> training index
}

func (s *gramSub) Row(dst []float64, i, start int) {
	a, k := s.idx[i], s.k
	idx := s.idx[start : start+len(dst)]
	if k.raw == nil {
		for t, b := range idx {
			dst[t] = k.sym.At(a, b)
		}
		return
	}
	for t, b := range idx {
		if (a <= b) == k.upper {
			dst[t] = k.raw[a*k.stride+b]
		} else {
			dst[t] = k.raw[b*k.stride+a]
		}
	}
}

func (s *gramSub) Swap(i, j int) { s.idx[i], s.idx[j] = s.idx[j], s.idx[i] }

// svcQ is LIBSVM's SVC_Q for a two-class subproblem: Q_ij = y_i y_j K(idx_i, idx_j) in
// float32 rows from an LRU cache, the diagonal QD_i = K(idx_i, idx_i) in float64, and
// swap, which the solver's shrinking uses to permute the variables. The kernel values
// come from an [SVCSubKernel] (a precomputed Gram matrix or rows computed on demand).
type svcQ struct {
	k     SVCSubKernel
	y     []int8
	qd    []float64
	cache *rowCache
	buf   []float64 // one row of kernel values before the float32 rounding
}

func newSVCQ(k SVCKernel, idx []int, y []int8, cacheBytes int64) *svcQ {
	l := len(idx)
	q := &svcQ{
		k:     k.Sub(idx),
		y:     append([]int8(nil), y...),
		qd:    make([]float64, l),
		cache: newRowCache(l, cacheBytes),
		buf:   make([]float64, l),
	}
	for i, a := range idx {
		q.qd[i] = k.Diag(a)
	}
	return q
}

// row returns Q[i][0:n) (SVC_Q::get_Q): y_i y_j K rounded to float32, as LIBSVM's Qfloat.
// Only the part not cached, [start, n), is asked of the kernel.
func (q *svcQ) row(i, n int) []float32 {
	data, start := q.cache.get(i, n)
	if start < n {
		b := q.buf[start:n]
		q.k.Row(b, i, start)
		yi := float64(q.y[i])
		y := q.y[start:n]
		d := data[start:n]
		for t, v := range b {
			d[t] = float32(yi * float64(y[t]) * v)
		}
	}
	return data[:n]
}

func (q *svcQ) swap(i, j int) {
	q.cache.swap(i, j)
	q.k.Swap(i, j)
	q.y[i], q.y[j] = q.y[j], q.y[i]
	q.qd[i], q.qd[j] = q.qd[j], q.qd[i]
}

const (
	atLower uint8 = iota
	atUpper
	free
)

// smoSolver is LIBSVM's Solver (svm.cpp) specialised to C-SVC: it minimises
//
//	f(a) = 1/2 a^T Q a + p^T a   s.t.  y^T a = 0,  0 <= a_i <= C_{y_i}
//
// by SMO with the second-order working-set selection of Fan, Chen & Lin (2005), optional
// shrinking and gradient reconstruction, with LIBSVM's arithmetic in the same order so
// that its iterates follow svm-train's.
type smoSolver struct {
	l, active  int
	q          *svcQ
	qd         []float64 // aliases q.qd: permuted together
	y          []int8
	g, gbar    []float64
	alpha, p   []float64
	status     []uint8
	activeSet  []int
	cp, cn     float64
	eps        float64
	unshrink   bool
	nonPosCurv int // two-variable steps whose curvature was <= 0 (TAU used)
}

// smoResult is the solution of one binary subproblem, in the subproblem's order.
type smoResult struct {
	alpha      []float64 // 0 <= alpha_i <= C_{y_i}, not multiplied by y
	rho, obj   float64
	iter       int
	maxIterHit bool
	nonPosCurv int
}

func (s *smoSolver) c(i int) float64 {
	if s.y[i] > 0 {
		return s.cp
	}
	return s.cn
}

func (s *smoSolver) updateStatus(i int) {
	switch {
	case s.alpha[i] >= s.c(i):
		s.status[i] = atUpper
	case s.alpha[i] <= 0:
		s.status[i] = atLower
	default:
		s.status[i] = free
	}
}

// solveSVC runs Solver::Solve on the subproblem held by q with p = -1, a = 0 to start.
// It returns ctx.Err() if ctx is cancelled (checked every min(l, 1000) iterations).
func solveSVC(ctx context.Context, q *svcQ, cp, cn, eps float64, shrinking bool, maxIter int, progress func(iters int)) (smoResult, error) {
	l := len(q.y)
	s := &smoSolver{
		l: l, active: l, q: q, qd: q.qd,
		y:      append([]int8(nil), q.y...),
		g:      make([]float64, l),
		gbar:   make([]float64, l),
		alpha:  make([]float64, l),
		p:      make([]float64, l),
		status: make([]uint8, l),
		cp:     cp, cn: cn, eps: eps,
		activeSet: make([]int, l),
	}
	for i := range l {
		s.p[i] = -1
		s.g[i] = -1 // G = p + Q a with a = 0
		s.activeSet[i] = i
		s.updateStatus(i)
	}
	if maxIter <= 0 {
		maxIter = max(10_000_000, 100*l)
	}
	iter, reported := 0, 0
	counter := min(l, 1000) + 1
	for iter < maxIter {
		if counter--; counter == 0 {
			counter = min(l, 1000)
			if err := ctx.Err(); err != nil {
				return smoResult{}, err
			}
			if progress != nil && iter > reported {
				progress(iter - reported)
				reported = iter
			}
			if shrinking {
				s.doShrinking()
			}
		}
		i, j, ok := s.selectWorkingSet()
		if !ok {
			s.reconstructGradient()
			s.active = l
			if i, j, ok = s.selectWorkingSet(); !ok {
				break
			}
			counter = 1 // shrink at the next iteration
		}
		iter++
		s.step(i, j)
	}
	if progress != nil && iter > reported {
		progress(iter - reported)
	}
	res := smoResult{iter: iter, nonPosCurv: s.nonPosCurv}
	if iter >= maxIter {
		res.maxIterHit = true
		if s.active < l {
			s.reconstructGradient()
			s.active = l
		}
	}
	res.rho = s.calculateRho()
	var v float64
	for i := range l {
		v += s.alpha[i] * (s.g[i] + s.p[i])
	}
	res.obj = v / 2
	res.alpha = make([]float64, l)
	for i := range l {
		res.alpha[s.activeSet[i]] = s.alpha[i]
	}
	return res, nil
}

// step updates a_i and a_j analytically, clips them to the box, and updates G and Gbar.
func (s *smoSolver) step(i, j int) {
	qi := s.q.row(i, s.active)
	qj := s.q.row(j, s.active)
	ci, cj := s.c(i), s.c(j)
	a := s.alpha
	oldI, oldJ := a[i], a[j]
	if s.y[i] != s.y[j] {
		quad := s.qd[i] + s.qd[j] + 2*float64(qi[j])
		if quad <= 0 {
			quad = tau
			s.nonPosCurv++
		}
		delta := (-s.g[i] - s.g[j]) / quad
		diff := a[i] - a[j]
		a[i] += delta
		a[j] += delta
		if diff > 0 {
			if a[j] < 0 {
				a[j] = 0
				a[i] = diff
			}
		} else if a[i] < 0 {
			a[i] = 0
			a[j] = -diff
		}
		if diff > ci-cj {
			if a[i] > ci {
				a[i] = ci
				a[j] = ci - diff
			}
		} else if a[j] > cj {
			a[j] = cj
			a[i] = cj + diff
		}
	} else {
		quad := s.qd[i] + s.qd[j] - 2*float64(qi[j])
		if quad <= 0 {
			quad = tau
			s.nonPosCurv++
		}
		delta := (s.g[i] - s.g[j]) / quad
		sum := a[i] + a[j]
		a[i] -= delta
		a[j] += delta
		if sum > ci {
			if a[i] > ci {
				a[i] = ci
				a[j] = sum - ci
			}
		} else if a[j] < 0 {
			a[j] = 0
			a[i] = sum
		}
		if sum > cj {
			if a[j] > cj {
				a[j] = cj
				a[i] = sum - cj
			}
		} else if a[i] < 0 {
			a[i] = 0
			a[j] = sum
		}
	}
	dai, daj := a[i]-oldI, a[j]-oldJ
	g := s.g[:s.active]
	qi, qj = qi[:len(g)], qj[:len(g)]
	for k := range g {
		g[k] += float64(qi[k])*dai + float64(qj[k])*daj
	}
	ui, uj := s.status[i] == atUpper, s.status[j] == atUpper
	s.updateStatus(i)
	s.updateStatus(j)
	if ui != (s.status[i] == atUpper) {
		s.addGbar(i, ci, ui)
	}
	if uj != (s.status[j] == atUpper) {
		s.addGbar(j, cj, uj)
	}
}

// addGbar adds (or, if wasUpper, subtracts) c * Q[i][:] to Gbar.
func (s *smoSolver) addGbar(i int, c float64, wasUpper bool) {
	qi := s.q.row(i, s.l)
	gb := s.gbar[:len(qi)]
	if wasUpper {
		for k := range gb {
			gb[k] -= c * float64(qi[k])
		}
	} else {
		for k := range gb {
			gb[k] += c * float64(qi[k])
		}
	}
}

// selectWorkingSet is WSS2 (Solver::select_working_set): i maximises -y_i G_i over
// I_up, j minimises the second-order decrease -(b_ij^2)/a_ij over I_low with
// -y_j G_j < -y_i G_i, a_ij replaced by tau when <= 0. ok is false at an
// eps-optimal point (m(a) - M(a) < eps).
func (s *smoSolver) selectWorkingSet() (outI, outJ int, ok bool) {
	gmax, gmax2 := math.Inf(-1), math.Inf(-1)
	gmaxIdx, gminIdx := -1, -1
	objDiffMin := math.Inf(1)
	y, g, st := s.y[:s.active], s.g[:s.active], s.status[:s.active]
	for t := range y {
		if y[t] == +1 {
			if st[t] != atUpper && -g[t] >= gmax {
				gmax, gmaxIdx = -g[t], t
			}
		} else if st[t] != atLower && g[t] >= gmax {
			gmax, gmaxIdx = g[t], t
		}
	}
	i := gmaxIdx
	if i == -1 {
		return 0, 0, false // gmax = -Inf: nothing can move
	}
	qi := s.q.row(i, s.active)[:len(y)]
	qdi, yi2 := s.qd[i], 2.0*float64(s.y[i])
	qd := s.qd[:len(y)]
	for j := range y {
		if y[j] == +1 {
			if st[j] == atLower {
				continue
			}
			gradDiff := gmax + g[j]
			if g[j] >= gmax2 {
				gmax2 = g[j]
			}
			if gradDiff > 0 {
				quad := qdi + qd[j] - yi2*float64(qi[j])
				var objDiff float64
				if quad > 0 {
					objDiff = -(gradDiff * gradDiff) / quad
				} else {
					objDiff = -(gradDiff * gradDiff) / tau
				}
				if objDiff <= objDiffMin {
					gminIdx, objDiffMin = j, objDiff
				}
			}
		} else {
			if st[j] == atUpper {
				continue
			}
			gradDiff := gmax - g[j]
			if -g[j] >= gmax2 {
				gmax2 = -g[j]
			}
			if gradDiff > 0 {
				quad := qdi + qd[j] + yi2*float64(qi[j])
				var objDiff float64
				if quad > 0 {
					objDiff = -(gradDiff * gradDiff) / quad
				} else {
					objDiff = -(gradDiff * gradDiff) / tau
				}
				if objDiff <= objDiffMin {
					gminIdx, objDiffMin = j, objDiff
				}
			}
		}
	}
	if gmax+gmax2 < s.eps || gminIdx == -1 {
		return 0, 0, false
	}
	return gmaxIdx, gminIdx, true
}

func (s *smoSolver) beShrunk(i int, gmax1, gmax2 float64) bool {
	switch s.status[i] {
	case atUpper:
		if s.y[i] == +1 {
			return -s.g[i] > gmax1
		}
		return -s.g[i] > gmax2
	case atLower:
		if s.y[i] == +1 {
			return s.g[i] > gmax2
		}
		return s.g[i] > gmax1
	}
	return false
}

// doShrinking removes from the active set the bound variables that cannot move
// (Solver::do_shrinking), after one full-gradient reconstruction near the end.
func (s *smoSolver) doShrinking() {
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1)
	for i := range s.active {
		if s.y[i] == +1 {
			if s.status[i] != atUpper && -s.g[i] >= gmax1 {
				gmax1 = -s.g[i]
			}
			if s.status[i] != atLower && s.g[i] >= gmax2 {
				gmax2 = s.g[i]
			}
		} else {
			if s.status[i] != atUpper && -s.g[i] >= gmax2 {
				gmax2 = -s.g[i]
			}
			if s.status[i] != atLower && s.g[i] >= gmax1 {
				gmax1 = s.g[i]
			}
		}
	}
	if !s.unshrink && gmax1+gmax2 <= s.eps*10 {
		s.unshrink = true
		s.reconstructGradient()
		s.active = s.l
	}
	for i := 0; i < s.active; i++ {
		if !s.beShrunk(i, gmax1, gmax2) {
			continue
		}
		s.active--
		for s.active > i {
			if !s.beShrunk(s.active, gmax1, gmax2) {
				s.swap(i, s.active)
				break
			}
			s.active--
		}
	}
}

func (s *smoSolver) swap(i, j int) {
	s.q.swap(i, j) // also swaps qd
	s.y[i], s.y[j] = s.y[j], s.y[i]
	s.g[i], s.g[j] = s.g[j], s.g[i]
	s.status[i], s.status[j] = s.status[j], s.status[i]
	s.alpha[i], s.alpha[j] = s.alpha[j], s.alpha[i]
	s.p[i], s.p[j] = s.p[j], s.p[i]
	s.activeSet[i], s.activeSet[j] = s.activeSet[j], s.activeSet[i]
	s.gbar[i], s.gbar[j] = s.gbar[j], s.gbar[i]
}

// reconstructGradient recomputes G of the inactive variables from Gbar and the free
// variables (Solver::reconstruct_gradient), choosing the cheaper of row or column passes.
func (s *smoSolver) reconstructGradient() {
	if s.active == s.l {
		return
	}
	for j := s.active; j < s.l; j++ {
		s.g[j] = s.gbar[j] + s.p[j]
	}
	nFree := 0
	for j := range s.active {
		if s.status[j] == free {
			nFree++
		}
	}
	if nFree*s.l > 2*s.active*(s.l-s.active) {
		for i := s.active; i < s.l; i++ {
			qi := s.q.row(i, s.active)
			for j := range s.active {
				if s.status[j] == free {
					s.g[i] += s.alpha[j] * float64(qi[j])
				}
			}
		}
	} else {
		for i := range s.active {
			if s.status[i] != free {
				continue
			}
			qi := s.q.row(i, s.l)
			ai := s.alpha[i]
			for j := s.active; j < s.l; j++ {
				s.g[j] += ai * float64(qi[j])
			}
		}
	}
}

// calculateRho returns the bias of Solver::calculate_rho: the mean of y_i G_i over free
// variables, else the midpoint of the interval that the bound variables allow.
func (s *smoSolver) calculateRho() float64 {
	nFree := 0
	ub, lb, sumFree := math.Inf(1), math.Inf(-1), 0.0
	for i := range s.active {
		yG := float64(s.y[i]) * s.g[i]
		switch s.status[i] {
		case atUpper:
			if s.y[i] == -1 {
				ub = min(ub, yG)
			} else {
				lb = max(lb, yG)
			}
		case atLower:
			if s.y[i] == +1 {
				ub = min(ub, yG)
			} else {
				lb = max(lb, yG)
			}
		default:
			nFree++
			sumFree += yG
		}
	}
	if nFree > 0 {
		return sumFree / float64(nFree)
	}
	return (ub + lb) / 2
}
