package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"
)

// NystromOptions configures FitNystromRBF. Centres is required; the other zero values
// choose λ on a validation split over NystromGrid with the default tolerances.
type NystromOptions struct {
	// Centres is the number M of Nyström centres, drawn uniformly without replacement
	// from the training rows (from the fitting part when λ is chosen on a validation
	// split); 1 <= M <= that number of rows. For one Seed, the centres of a smaller M
	// are the first of those of a larger one.
	Centres int
	// Lambda > 0 fixes λ (the scaling of FitKernelRLS: (1/n)||K_nM α + b - Y||² +
	// λ αᵀK_MM α); 0 chooses it on a validation split over Grid.
	Lambda float64
	// Grid holds relative candidates rho = M λ / e_max(K_MM), tried from the largest
	// down with warm-started iterations; nil means NystromGrid(), extended by decades
	// down to 1e-12 while its smallest candidate is the best.
	Grid []float64
	// Validation is the fraction of the training rows held out to choose λ, in
	// (0, 0.5]; 0 means 1/6 (10,000 of MNIST's 60,000 digits).
	Validation float64
	// Seed draws the centres and the validation split.
	Seed uint64
	// Tol is the relative residual ||r_j|| / ||b_j|| of the preconditioned system at
	// which the iterations for a candidate stop (every column j); 0 means 1e-6. With float32
	// products they also stop when a residual below 1e-4 has not halved in 10
	// iterations (the products' rounding floor), and at MaxIter.
	Tol float64
	// PathTol is the same tolerance for the candidates of the validation path, whose
	// solutions only rank λ and warm-start the next; 0 means max(Tol, 1e-4). On
	// MNIST CDF features the validation accuracy at 1e-4 equalled that at 1e-6.
	PathTol float64
	// MaxIter caps the iterations per candidate; 0 means 100.
	MaxIter int
	// MemoryBytes, if > 0, refuses a fit whose cached n×M block and M×M factors
	// would need more bytes, before anything is allocated.
	MemoryBytes int64
	// Progress, if not nil, is called after every iteration, from the fitting
	// goroutine.
	Progress func(NystromStep)

	plain bool // tests: no preconditioner (B = I), to count iterations against
}

// NystromStep reports one iteration of FitNystromRBF.
type NystromStep struct {
	Candidate, Candidates int     // the λ candidate being solved (the final refit: Candidates)
	Lambda                float64 // its λ
	Iter                  int     // iterations done for it
	Residual              float64 // max over the k columns of ||r_j|| / ||b_j||
	Validation            float64 // validation accuracy, NaN where not computed
}

// NystromInfo describes a FitNystromRBF fit.
type NystromInfo struct {
	Centres    int       // M
	Fit        int       // rows in the fitting part while λ was chosen (n if fixed)
	Jitter     float64   // δ added to K_MM's diagonal for its Cholesky factor
	EMax       float64   // largest eigenvalue of K_MM (power iteration)
	Lambdas    []float64 // candidates tried, in order
	Validation []float64 // validation accuracy at each candidate
	Iters      []int     // iterations at each candidate
	FinalIters int       // iterations of the final solve on all n rows
	// Seconds spent computing the kernel blocks, factoring (T, T Tᵀ and every A) and
	// iterating (the candidates and the final solve).
	KernelSeconds, FactorSeconds, SolveSeconds float64
	Residuals                                  []float64 // residual history of the final solve (index 0: the start)
}

// NystromRLS is Nyström kernel RLS with the Gaussian kernel on feature rows:
//
//	score_c(x) = sum_{j<M} k(x, c_j) α_jc + b_c,
//
// c_1..c_M the centres. It is an RBFRowsRLS whose expansion runs over the centres
// (C = α, M×k), so DecisionRows and PredictRows score as the exact fit does.
type NystromRLS struct {
	*RBFRowsRLS
	Nystrom NystromInfo
}

// NystromGrid returns the default relative candidates of FitNystromRBF, rho =
// 10^-1, 10^-2, ..., 10^-9, one per decade.
func NystromGrid() []float64 {
	g := make([]float64, 9)
	for i := range g {
		g[i] = math.Pow(10, -float64(i+1))
	}
	return g
}

// NystromBytes returns the memory FitNystromRBF holds for n training rows and M
// centres: the cached n×M kernel block (4 bytes an entry with float32 products, 8
// otherwise) and three M×M float64 matrices (K_MM's factor T, T Tᵀ and the factor A).
func NystromBytes(n, m int, f32 bool) int64 {
	e := int64(8)
	if f32 {
		e = 4
	}
	return int64(n)*int64(m)*e + 3*int64(m)*int64(m)*8
}

// ErrNystromMemory is returned (wrapped) when a Nyström fit would exceed
// NystromOptions.MemoryBytes.
var ErrNystromMemory = errors.New("nystrom fit exceeds the memory limit")

// FitNystromRBF fits one-vs-all kernel RLS with the Gaussian kernel of FitRBFRowsRLS
// (same centring, same float32 products, same median heuristic when gamma is 0) on the
// rows idx of f, restricted to M centres c_j (Nyström): with K_nM the n×M kernel
// between the training rows and the centres and K_MM the centres' kernel,
//
//	min_{α,b} (1/n)||K_nM α + 1bᵀ - Y||² + λ tr(αᵀ K_MM α),
//
// Y the ±1 one-vs-all targets. The intercept is not penalised: with J = I - 11ᵀ/n,
//
//	H α = (1/n) K_nMᵀ J Y,   H = (1/n) K_nMᵀ J K_nM + λ K_MM,   b = mean(Y) - mean(K_nM α).
//
// With M = n centres this is FitRBFRowsRLS's problem (same scores). The system is
// solved with FALKON's preconditioner (Rudi, Carratino, Rosasco 2017): Cholesky
// factors TᵀT = K_MM + δI and AᵀA = T Tᵀ/M + λI, B = T⁻¹A⁻¹, and
//
//	Bᵀ H B β = Bᵀ (1/n) K_nMᵀ J Y,   α = B β,
//
// where Bᵀ(λK_MM)B = λA⁻ᵀA⁻¹ - λδ BᵀB keeps K_MM exact whatever the jitter δ (the
// smallest of 1e-14·M, ×10 until the factor exists, up to 1e-2). The k right-hand
// sides are solved together, one product with K_nM and one with K_nMᵀ an iteration,
// by conjugate residuals (the conjugate-gradient method that minimises ||r||₂ over
// the Krylov space: the same cost as CG, and a residual that does not rise).
//
// K_nM is computed once, in blocks of rows, and cached (float32 when the products are,
// as FitRBFRowsRLS's); NystromBytes gives the memory. With opt.Lambda = 0 a seeded
// fraction opt.Validation of the rows is held out, the centres are drawn from the
// rest, the candidates of opt.Grid are solved from the largest λ down (each starting
// from the previous solution) until validation accuracy has fallen twice in a row,
// and the best (ties: the larger λ) is refitted on all n rows from its solution.
// Every sum runs in a fixed order: a fit is reproducible bit for bit.
//
// FitNystromRBF panics if len(y) != len(idx), an index is out of range or k < 2. It
// returns an error for M out of range, bad options, a non-finite feature, a memory
// limit exceeded (ErrNystromMemory, before allocating), and ctx.Err() if cancelled.
func FitNystromRBF(ctx context.Context, f Rows, idx []int, y []int, k int, gamma float64, opt NystromOptions) (*NystromRLS, error) {
	defer beginWork()()
	n := len(idx)
	rows, d := f.Dims()
	checkRowArgs(rows, idx, y, k)
	o, err := nystromDefaults(opt)
	if err != nil {
		return nil, err
	}
	if err := checkRLSInput(y, k, RLSOptions{Fixed: o.Lambda > 0, Lambda: o.Lambda, Grid: o.Grid}); err != nil {
		return nil, err
	}
	if gamma < 0 || math.IsNaN(gamma) || math.IsInf(gamma, 0) {
		return nil, fmt.Errorf("nystrom: gamma = %v is invalid: use a finite gamma > 0, or 0 for the median heuristic", gamma)
	}
	// Row order: the fitting part first, then the validation rows.
	rng := rand.New(rand.NewPCG(o.Seed, 0x6e7973)) // "nys"
	ord := slices.Clone(idx)
	yo := slices.Clone(y)
	nf := n
	if o.Lambda == 0 {
		nv := int(math.Round(o.Validation * float64(n)))
		if nv < 1 || n-nv < 2 {
			return nil, fmt.Errorf("nystrom: %d training rows are too few to hold out a validation split: use more rows or a fixed lambda", n)
		}
		perm := rng.Perm(n)
		for a, p := range perm {
			ord[a], yo[a] = idx[p], y[p]
		}
		nf = n - nv
	}
	m := o.Centres
	if m > nf {
		return nil, fmt.Errorf("nystrom: centres = %d exceeds the %d fitting rows: use centres <= %d", m, nf, nf)
	}
	f32 := rbfFloat32
	if need := NystromBytes(n, m, f32); o.MemoryBytes > 0 && need > o.MemoryBytes {
		return nil, fmt.Errorf("nystrom: %d rows × %d centres need %.1f GB, over the limit of %.1f GB: %w; use fewer centres",
			n, m, float64(need)/1e9, float64(o.MemoryBytes)/1e9, ErrNystromMemory)
	}
	cpos := rng.Perm(nf)[:m]
	centres := make([]int, m)
	for j, p := range cpos {
		centres[j] = ord[p]
	}
	kept, mu, err := scanRows(ctx, f, idx)
	if err != nil {
		return nil, err
	}
	if gamma == 0 {
		med := medianSqDistRows(f, idx, mu)
		if !(med > 0) || math.IsInf(med, 0) {
			return nil, fmt.Errorf("nystrom: the median squared distance between training rows is %g: set gamma > 0", med)
		}
		gamma = 1 / (2 * med)
	}
	kern := &RBFRowsRLS{train: f, idx: centres, mu: mu, kept: kept, chunks: rbfChunks(kept, d), f32: f32, Gamma: gamma}
	kern.norms = make([]float64, m)
	buf := make([]float64, d)
	for j, c := range centres {
		f.Span(buf, c, 0)
		s := 0.0
		for i, v := range buf {
			v -= mu[i]
			s += v * v
		}
		kern.norms[j] = s
	}
	s := &nystromSolver{n: n, m: m, k: k, opt: o}
	t0 := time.Now()
	if err := s.kernels(ctx, kern, f, ord, cpos); err != nil {
		return nil, err
	}
	if o.plain {
		s.kmm = slices.Clone(s.t)
	}
	t1 := time.Now()
	if err := s.factorT(ctx, kern); err != nil {
		return nil, err
	}
	s.factorSec = time.Since(t1).Seconds()
	factorT, kernelSec := s.factorSec, t1.Sub(t0).Seconds()
	t2 := time.Now()
	yt, _ := targets(yo, k)
	info := NystromInfo{Centres: m, Fit: nf, Jitter: s.jitter, EMax: s.emax}
	var alpha []float64
	lambda := o.Lambda
	if o.Lambda == 0 {
		best, bestAcc, falls := -1, -1.0, 0
		var bestAlpha []float64
		prev := -1.0
		grid := o.Grid
		for c := 0; c < len(grid); c++ {
			lam := grid[c] * s.emax / float64(m)
			a, iters, _, err := s.solve(ctx, lam, nf, yt, alpha, o.PathTol, c, len(grid), yo)
			if err != nil {
				return nil, err
			}
			alpha = a
			acc := s.accuracy(alpha, nf, yt, yo)
			info.Lambdas = append(info.Lambdas, lam)
			info.Validation = append(info.Validation, acc)
			info.Iters = append(info.Iters, iters)
			if acc > bestAcc {
				best, bestAcc, bestAlpha = c, acc, slices.Clone(alpha)
			}
			if acc < prev {
				falls++
			} else {
				falls = 0
			}
			prev = acc
			if falls >= 2 {
				break
			}
			// The default grid goes on down by decades, to 1e-12, while its last
			// candidate is the best: the optimum may lie below it.
			if c == len(grid)-1 && best == c && opt.Grid == nil && grid[c] > 1.5e-12 {
				grid = append(grid, grid[c]/10)
			}
		}
		lambda = info.Lambdas[best]
		alpha = bestAlpha
	}
	a, iters, res, err := s.solve(ctx, lambda, n, yt, alpha, o.Tol, len(o.Grid), len(o.Grid), nil)
	if err != nil {
		return nil, err
	}
	info.FinalIters, info.Residuals = iters, res
	info.KernelSeconds, info.FactorSeconds = kernelSec, s.factorSec
	info.SolveSeconds = time.Since(t2).Seconds() - (s.factorSec - factorT) // less every A's factoring
	// b = mean(Y) - mean over rows of K_nM α.
	b := s.intercept(a, n, yt)
	kern.C = mat.NewDense(m, k, a)
	kern.B = b
	kern.Info = RLSInfo{Form: FormDual, Lambda: lambda, Relative: lambda * float64(m) / s.emax, EMax: s.emax, N: n, Kept: m}
	return &NystromRLS{RBFRowsRLS: kern, Nystrom: info}, nil
}

// nystromDefaults checks opt and fills in its defaults.
func nystromDefaults(opt NystromOptions) (NystromOptions, error) {
	o := opt
	switch {
	case o.Centres <= 0:
		return o, fmt.Errorf("nystrom: centres = %d: use centres >= 1", o.Centres)
	case o.Lambda < 0 || math.IsNaN(o.Lambda) || math.IsInf(o.Lambda, 0):
		return o, fmt.Errorf("nystrom: lambda = %v: use lambda > 0, or 0 to choose it on a validation split", o.Lambda)
	case o.Validation < 0 || o.Validation > 0.5 || math.IsNaN(o.Validation):
		return o, fmt.Errorf("nystrom: validation fraction %v outside (0, 0.5]", o.Validation)
	case o.Tol < 0 || o.Tol >= 1 || math.IsNaN(o.Tol):
		return o, fmt.Errorf("nystrom: tolerance %v outside (0, 1)", o.Tol)
	case o.PathTol < 0 || o.PathTol >= 1 || math.IsNaN(o.PathTol):
		return o, fmt.Errorf("nystrom: path tolerance %v outside (0, 1)", o.PathTol)
	case o.MaxIter < 0:
		return o, fmt.Errorf("nystrom: max iterations %d: use a number >= 1", o.MaxIter)
	}
	if o.Validation == 0 {
		o.Validation = 1.0 / 6
	}
	if o.Tol == 0 {
		o.Tol = 1e-6
	}
	if o.PathTol == 0 {
		o.PathTol = max(o.Tol, 1e-4)
	}
	if o.MaxIter == 0 {
		o.MaxIter = 100
	}
	if o.Grid == nil {
		o.Grid = NystromGrid()
	}
	o.Grid = slices.Clone(o.Grid)
	slices.SortFunc(o.Grid, func(a, b float64) int { return -cmpFloat(a, b) })
	return o, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// medianSqDist's pairs, with the distances computed in float64 from the rows.
func medianSqDistRows(f Rows, idx []int, mu []float64) float64 {
	n := len(idx)
	_, d := f.Dims()
	rng := rand.New(rand.NewPCG(0x726266, uint64(n))) // medianSqDist's seed
	dist := make([]float64, RBFMedianPairs)
	xa, xb := make([]float64, d), make([]float64, d)
	for p := range dist {
		a := rng.IntN(n)
		b := rng.IntN(n - 1)
		if b >= a {
			b++
		}
		f.Span(xa, idx[a], 0)
		f.Span(xb, idx[b], 0)
		s := 0.0
		for j := range d {
			t := xa[j] - xb[j]
			s += t * t
		}
		dist[p] = s
	}
	slices.Sort(dist)
	return (dist[(len(dist)-1)/2] + dist[len(dist)/2]) / 2
}

// indexRows is rows idx of f, as Rows.
type indexRows struct {
	f   Rows
	idx []int
}

// Dims returns len(idx) and f's number of columns.
func (r indexRows) Dims() (int, int) { _, c := r.f.Dims(); return len(r.idx), c }

// Span copies the entries (idx[i], j0) .. of f into dst.
func (r indexRows) Span(dst []float64, i, j0 int) { r.f.Span(dst, r.idx[i], j0) }
