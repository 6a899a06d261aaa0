package learn

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Form selects how RLS is solved: through the D×D covariance of the features (primal),
// through the n×n Gram matrix (dual), or through the distinct rows of the features
// (grouped). All three give the same model and the same leave-one-out path.
type Form int

const (
	// FormAuto solves grouped when the training features have few distinct rows,
	//
	//	u < 0.7 min(D', n-1)   (u distinct rows, D' non-constant features),
	//
	// otherwise in the primal when D' <= n-1 and in the dual when D' > n-1.
	FormAuto Form = iota
	// FormPrimal decomposes the centred covariance F_cᵀ F_c (D×D).
	FormPrimal
	// FormDual decomposes the centred Gram matrix (n×n).
	FormDual
	// FormGrouped merges identical rows (exact equality on the non-constant columns)
	// and decomposes a min(u, D')×min(u, D') matrix of the u distinct rows (see FitRLS).
	FormGrouped
)

// String returns "auto", "primal", "dual" or "grouped".
func (f Form) String() string {
	switch f {
	case FormAuto:
		return "auto"
	case FormPrimal:
		return "primal"
	case FormDual:
		return "dual"
	case FormGrouped:
		return "grouped"
	}
	return fmt.Sprintf("Form(%d)", int(f))
}

// ErrNothingToLearn is returned (wrapped) when every feature is constant, or the Gram
// matrix is constant after centring: no regularisation value can separate the classes.
var ErrNothingToLearn = errors.New("no variation in the inputs")

// RLSOptions configures FitRLS and FitKernelRLS. The zero value chooses lambda by
// leave-one-out over DefaultGrid and picks the form automatically.
type RLSOptions struct {
	// Fixed, if true, uses Lambda as given instead of choosing it by leave-one-out.
	Fixed bool
	// Lambda is the fixed regularisation, lambda >= 0 (see FitRLS for its scaling).
	// Lambda = 0 gives the minimum-norm least-squares fit, computed through an
	// eigendecomposition (slow for D or n in the thousands).
	Lambda float64
	// Grid holds the candidate values as relative regularisation
	//
	//	rho = n lambda / e_max,
	//
	// e_max the largest eigenvalue of the centred covariance (primal) or Gram matrix
	// (dual); every entry must be finite and > 0. Nil means DefaultGrid().
	Grid []float64
	// Form forces the primal, dual or grouped solution (FormPrimal or FormDual turn
	// the grouped fast path off); FitKernelRLS ignores it.
	Form Form
}

// DefaultGrid returns the default relative grid of leave-one-out selection: 25 values
//
//	rho_i = 10^(-12 i / 24),  i = 0..24,
//
// from 1 down to 1e-12, two per decade. FINDINGS.md: RLS on CDF features picks
// relative values between 1e-9 and 1e-6.
func DefaultGrid() []float64 {
	g := make([]float64, 25)
	for i := range g {
		g[i] = math.Pow(10, -12*float64(i)/24)
	}
	return g
}

// LOOPath records the leave-one-out criterion at each candidate lambda. Entries whose
// shifted matrix was not numerically positive definite hold NaN.
type LOOPath struct {
	Lambda   []float64 // lambda of each candidate
	Relative []float64 // n lambda / e_max
	Accuracy []float64 // leave-one-out accuracy (argmax over the one-vs-all columns)
	MSE      []float64 // mean over samples and columns of the squared LOO residual
	Best     int       // index of the chosen candidate; -1 if none is valid
}

// RLSInfo describes a fitted RLS model.
type RLSInfo struct {
	Form     Form    // FormPrimal, FormDual or FormGrouped, as solved
	Lambda   float64 // the lambda of the final fit (chosen or fixed)
	Relative float64 // n lambda / e_max
	EMax     float64 // largest eigenvalue of the centred covariance or Gram matrix
	N        int     // training samples
	Kept     int     // non-constant feature columns (feature fits; n for kernel fits)
	Groups   int     // distinct training rows on the kept columns (feature fits; 0 for kernel fits)
	Path     LOOPath // the leave-one-out criterion over the candidates
}

// LOOAccuracy returns the leave-one-out accuracy at the chosen lambda (NaN if it was
// not computed, e.g. for a fixed lambda = 0 on a singular problem).
func (in RLSInfo) LOOAccuracy() float64 {
	if in.Path.Best < 0 || in.Path.Best >= len(in.Path.Accuracy) {
		return math.NaN()
	}
	return in.Path.Accuracy[in.Path.Best]
}

// LinearRLS is a one-vs-all regularised least-squares classifier on features,
//
//	score_c(x) = xᵀ w_c + b_c,   class(x) = argmax_c score_c(x).
type LinearRLS struct {
	W    *mat.Dense // D×k weights; rows of constant training features are zero
	B    []float64  // k intercepts
	Info RLSInfo
}

// KernelRLS is a one-vs-all regularised least-squares classifier on a kernel,
//
//	score_c(x) = sum_i k(x, z_i) C_ic + b_c,   class(x) = argmax_c score_c(x),
//
// where z_1..z_n are the training samples.
type KernelRLS struct {
	C    *mat.Dense // n×k expansion coefficients; each column sums to zero
	B    []float64  // k intercepts
	Info RLSInfo
}

// FitRLS trains one-vs-all regularised least squares on the n×D features f and labels
// y in [0, k). For each class c, with targets Y_ic = +1 if y_i = c and -1 otherwise, it
// solves
//
//	min_{w,b}  ||F w + b 1 - Y_c||² + n lambda ||w||²,
//
// i.e. lambda multiplies the mean squared error's regulariser: (1/n) sum of squares +
// lambda ||w||². The intercept b is not penalised: with column means mu and centred
// features F_c = F - 1 muᵀ,
//
//	(F_cᵀ F_c + n lambda I) w = F_cᵀ Y,   b = mean(Y) - muᵀ w.
//
// Constant columns of f are dropped first (their weights are zero). With D' features
// left, the primal form reduces the D'×D' covariance F_cᵀ F_c, the dual form the n×n
// Gram matrix F_c F_cᵀ restricted to the complement of the constant vector, to
// tridiagonal form C = Q T Qᵀ (one Householder reduction, 4/3 r³ flops, r = min(D', n-1)
// under FormAuto). Every candidate lambda then costs O(n r k) for the fit and the exact
// leave-one-out residuals
//
//	e_i = (y_i - yhat_i) / (1 - H_ii),   H = J + F_c (F_cᵀ F_c + n lambda I)^-1 F_cᵀ,
//
// (J = 11ᵀ/n) using LDLᵀ factors of T + n lambda I. Unless opt.Fixed, lambda is chosen
// by the highest leave-one-out accuracy over opt.Grid, ties broken by the smaller LOO
// squared error and then by the larger lambda.
//
// Features that are invariant under a finite group (CDF pooling over the whole group,
// bag-of-words, Haar features on X_perm) repeat rows: samples of one orbit share a row.
// The grouped form (FormGrouped, or FormAuto when u < 0.7 min(D', n-1)) finds the u
// distinct rows Z (u×D') by hashing, with counts c and F = P Z (P the n×u indicator).
// With the weighted mean mu = Zᵀc/n and A = C^{1/2} (Z - 1 muᵀ), F_cᵀ F_c = AᵀA; the LQ
// factorisation A = L Q1 (L u×s lower trapezoidal, Q1 s×D' orthonormal rows, s =
// min(u, D')) turns the fit into a primal one in s coordinates: LᵀL = Q2 T Q2ᵀ and, for a
// sample i of group a,
//
//	b_i = c_a^{-1/2} (L Q2)_a,   BᵀY = (L Q2)ᵀ C^{-1/2} PᵀY,   w = Q1ᵀ Q2 (T + n lambda I)^-1 BᵀY,
//
// so that the leave-one-out formula above holds unchanged (for any targets, also when
// the samples of a group carry different labels). It costs 2 u² D' (LQ) + 8/3 s³
// (reduction) + O(n D') instead of min(D', n)³, and O(u s k + n k) per candidate.
//
// FitRLS panics if len(y) != rows(f) or k < 2. It returns an error if a label lies
// outside [0, k), n < 2, an entry of f is not finite, lambda or a grid value is
// invalid, or every feature is constant (wrapping ErrNothingToLearn); and ctx.Err() if
// cancelled (checked between stages and row blocks; the tridiagonal reduction itself
// runs to completion). f is not modified.
func FitRLS(ctx context.Context, f *mat.Dense, y []int, k int, opt RLSOptions) (*LinearRLS, error) {
	defer beginWork()()
	n, d := f.Dims()
	if len(y) != n {
		panic(fmt.Sprintf("learn: %d labels for %d samples", len(y), n))
	}
	if k < 2 {
		panic(fmt.Sprintf("learn: %d classes, need at least 2", k))
	}
	if err := checkRLSInput(y, k, opt); err != nil {
		return nil, err
	}
	fp, err := prepareFeatures(ctx, f, y, k, opt.Form)
	if err != nil {
		return nil, err
	}
	p, form, dk := fp.p, fp.form, len(fp.kept)
	info, sigma, err := selectLambda(ctx, p, opt)
	if err != nil {
		return nil, err
	}
	info.Form, info.Kept, info.Groups = form, dk, fp.groups
	z, ok := p.coef(sigma)
	if !ok {
		return nil, fmt.Errorf("rls: eigendecomposition failed to converge at lambda %g: use a lambda > 0", info.Lambda)
	}
	return linearModel(d, fp.kept, fp.mu, fp.weights(z), p.ybar, info), nil
}

// linearModel returns the D×k model whose kept rows are wk (D'×k row-major), with
// the intercepts b = ybar - muᵀ w.
func linearModel(d int, kept []int, mu, wk, ybar []float64, info RLSInfo) *LinearRLS {
	k := len(ybar)
	w := mat.NewDense(d, k, nil)
	b := append([]float64(nil), ybar...)
	for j, col := range kept {
		row := wk[j*k : (j+1)*k]
		w.SetRow(col, row)
		for c := range k {
			b[c] -= mu[j] * row[c]
		}
	}
	return &LinearRLS{W: w, B: b, Info: info}
}

// FitKernelRLS trains one-vs-all regularised least squares on the n×n symmetric
// positive semi-definite Gram matrix K of the training samples and labels y in [0, k).
// For each class c it solves, over f in the kernel's RKHS and an unpenalised b,
//
//	min ||f(Z) + b 1 - Y_c||² + n lambda ||f||²,
//
// whose solution f = sum_i C_ic k(., z_i) satisfies
//
//	(K + n lambda I) C + 1 bᵀ = Y,   1ᵀ C = 0.
//
// The centred Gram matrix is reduced once, in the orthonormal complement W0 of the
// constant vector (a Householder reflector), W0ᵀ K W0 = Q T Qᵀ; every candidate lambda
// then costs O(n² k) for the exact leave-one-out residuals
//
//	e_i = C_ic / [W0 Q (T + n lambda I)^-1 Qᵀ W0ᵀ]_ii .
//
// Selection of lambda, the grid scaling (e_max is the largest eigenvalue of the centred
// Gram matrix) and errors are as in FitRLS; opt.Form is ignored. An indefinite K is
// accepted as long as T + n lambda I stays positive definite at the candidates tried.
// FitKernelRLS panics if len(y) != n or k < 2. K is not modified.
func FitKernelRLS(ctx context.Context, kmat *mat.SymDense, y []int, k int, opt RLSOptions) (*KernelRLS, error) {
	defer beginWork()()
	n := kmat.SymmetricDim()
	if len(y) != n {
		panic(fmt.Sprintf("learn: %d labels for a %d×%d Gram matrix", len(y), n, n))
	}
	if k < 2 {
		panic(fmt.Sprintf("learn: %d classes, need at least 2", k))
	}
	if err := checkRLSInput(y, k, opt); err != nil {
		return nil, err
	}
	p, err := prepareKernel(ctx, kmat, y, k)
	if err != nil {
		return nil, err
	}
	c, info, err := solveDual(ctx, p, opt)
	if err != nil {
		return nil, err
	}
	// b = mean(Y) - mean over rows of K C.
	kcm := mat.NewDense(n, k, nil)
	kcm.Mul(kmat, c)
	b := append([]float64(nil), p.ybar...)
	for i := 0; i < n; i++ {
		for j := range k {
			b[j] -= kcm.At(i, j) / float64(n)
		}
	}
	return &KernelRLS{C: c, B: b, Info: info}, nil
}

// solveDual chooses lambda on the leave-one-out path of the dual problem p (n samples,
// k outputs) and returns the coefficients C = W0 z (n×k; W0 is p.b, n×(n-1)) with the
// fit's info (form dual, all n samples kept). The intercept is the caller's.
func solveDual(ctx context.Context, p *looProblem, opt RLSOptions) (*mat.Dense, RLSInfo, error) {
	info, sigma, err := selectLambda(ctx, p, opt)
	if err != nil {
		return nil, info, err
	}
	n, k := p.n, p.k
	info.Form, info.Kept = FormDual, n
	z, ok := p.coef(sigma)
	if !ok {
		return nil, info, fmt.Errorf("rls: eigendecomposition failed to converge at lambda %g: use a lambda > 0", info.Lambda)
	}
	c := mat.NewDense(n, k, nil)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blasGeneral(p.b, n, n-1), blasGeneral(z, n-1, k), 0, c.RawMatrix())
	return c, info, nil
}

// featureProblem is a feature fit prepared for the leave-one-out path.
type featureProblem struct {
	p      *looProblem
	form   Form
	kept   []int
	mu     []float64
	fc     blas64.General // centred kept features (dual only: the primal overwrites them with B)
	groups int            // distinct rows on the kept columns
	lq     *lqFactors     // grouped only: the LQ factorisation of C^{1/2} Z_c
}

// groupedFraction is the FormAuto threshold of the grouped form: u < groupedFraction ·
// min(D', n-1). Below it the grouped fit costs at most about a third of the
// reduction it replaces, which pays for the LQ factorisation.
const groupedFraction = 0.7

// prepareFeatures drops the constant columns of f, finds its distinct rows, chooses the
// form, centres, and reduces the covariance, Gram matrix or grouped matrix to
// tridiagonal form.
func prepareFeatures(ctx context.Context, f *mat.Dense, y []int, k int, form Form) (*featureProblem, error) {
	n, d := f.Dims()
	kept, err := keptColumns(f)
	if err != nil {
		return nil, err
	}
	dk := len(kept)
	if dk == 0 {
		return nil, fmt.Errorf("rls: all %d features are constant over the %d samples: %w; check the feature map", d, n, ErrNothingToLearn)
	}
	g, err := groupRows(ctx, f, kept)
	if err != nil {
		return nil, err
	}
	u := len(g.rep)
	if form == FormAuto {
		switch {
		case float64(u) < groupedFraction*float64(min(dk, n-1)):
			form = FormGrouped
		case dk <= n-1:
			form = FormPrimal
		default:
			form = FormDual
		}
	}
	if form == FormGrouped {
		return prepareGrouped(ctx, f, y, k, kept, g)
	}
	fc, mu := centreColumns(f, kept)
	yt, ybar := targets(y, k)
	fcg := blas64.General{Rows: n, Cols: dk, Stride: dk, Data: fc}
	p := &looProblem{dual: form == FormDual, n: n, y: yt, k: k, ybar: ybar, labels: y}
	if form == FormPrimal {
		if err := p.primal(ctx, fc, dk); err != nil {
			return nil, err
		}
	} else {
		gram, err := syrkUpper(ctx, fcg, false)
		if err != nil {
			return nil, err
		}
		p.dualGram(gram)
	}
	return &featureProblem{p: p, form: form, kept: kept, mu: mu, fc: fcg, groups: u}, nil
}

// primal sets the primal problem of the centred kept features fc (n×dk row-major):
// the reduction of the covariance F_cᵀ F_c, and B = F_c Q, which overwrites fc.
func (p *looProblem) primal(ctx context.Context, fc []float64, dk int) error {
	cov, err := syrkUpper(ctx, blasGeneral(fc, p.n, dk), true)
	if err != nil {
		return err
	}
	p.scale = maxDiag(cov, dk)
	p.t = reduce(cov, dk)
	p.r = dk
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := mulInPlace(ctx, fc, p.n, dk, p.t.q); err != nil {
		return err
	}
	p.b = fc
	return nil
}

// dualGram sets the dual problem of the centred n×n Gram matrix gram (upper triangle,
// row-major): deflation, reduction and B = W0 Q, all in gram's storage, which holds B
// afterwards (no other n² buffer is allocated, except by the OpenBLAS reduction's
// workspace).
func (p *looProblem) dualGram(gram []float64) {
	n := p.n
	p.scale = maxDiag(gram, n)
	defl := deflate(gram, n, n)
	p.t = reduce(defl.kt, n-1)
	p.r = n - 1
	p.b = defl.basisInPlace(p.t.q)
}

// weights returns the kept rows of W (D'×k row-major) from z = (T + sigma I)^-1 BᵀY.
func (fp *featureProblem) weights(z []float64) []float64 {
	p, dk, k, n := fp.p, len(fp.kept), fp.p.k, fp.p.n
	wk := make([]float64, dk*k)
	switch fp.form {
	case FormPrimal:
		// w = Q z.
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blasGeneral(p.t.q, dk, dk), blasGeneral(z, dk, k), 0, blasGeneral(wk, dk, k))
	case FormDual:
		// c = B z, w = F_cᵀ c.
		c := make([]float64, n*k)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blasGeneral(p.b, n, n-1), blasGeneral(z, n-1, k), 0, blasGeneral(c, n, k))
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, fp.fc, blasGeneral(c, n, k), 0, blasGeneral(wk, dk, k))
	case FormGrouped:
		fp.lq.weights(p.t.q, z, k, wk)
	default:
		panic(fmt.Sprintf("learn: unresolved form %v", fp.form))
	}
	return wk
}

// prepareKernel deflates a copy of the Gram matrix and reduces it to tridiagonal form.
func prepareKernel(ctx context.Context, kmat *mat.SymDense, y []int, k int) (*looProblem, error) {
	n := kmat.SymmetricDim()
	raw := kmat.RawSymmetric()
	for i := 0; i < n; i++ {
		for j, v := range raw.Data[i*raw.Stride+i : i*raw.Stride+n] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("rls: Gram entry (%d, %d) is %v: remove or impute non-finite inputs", i, i+j, v)
			}
		}
	}
	// Upper triangle into a dense row-major copy (the input may be a view with stride).
	kc := make([]float64, n*n)
	for i := 0; i < n; i++ {
		copy(kc[i*n+i:(i+1)*n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
	}
	yt, ybar := targets(y, k)
	scale := maxDiag(kc, n)
	defl := deflate(kc, n, n)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := &looProblem{dual: true, n: n, r: n - 1, y: yt, k: k, ybar: ybar, labels: y, scale: scale}
	p.t = reduce(defl.kt, n-1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.b = defl.basisInPlace(p.t.q)
	return p, nil
}

// maxDiag returns the largest absolute diagonal entry of the r×r row-major matrix a.
func maxDiag(a []float64, r int) float64 {
	m := 0.0
	for i := 0; i < r; i++ {
		m = math.Max(m, math.Abs(a[i*r+i]))
	}
	return m
}

// checkRLSInput validates labels and options.
func checkRLSInput(y []int, k int, opt RLSOptions) error {
	if len(y) < 2 {
		return fmt.Errorf("rls: %d training samples: RLS needs at least 2", len(y))
	}
	if err := checkLabels(y, k); err != nil {
		return fmt.Errorf("rls: %w", err)
	}
	if opt.Fixed && (opt.Lambda < 0 || math.IsNaN(opt.Lambda) || math.IsInf(opt.Lambda, 0)) {
		return fmt.Errorf("rls: lambda = %v is invalid: use a finite lambda >= 0, or set Fixed = false to choose it by leave-one-out", opt.Lambda)
	}
	if !opt.Fixed {
		for i, g := range opt.Grid {
			if !(g > 0) || math.IsInf(g, 0) {
				return fmt.Errorf("rls: grid value %d is %v: relative lambdas must be finite and > 0 (e.g. DefaultGrid())", i, g)
			}
		}
	}
	return nil
}

// selectLambda evaluates the leave-one-out path and returns the info and the chosen
// sigma = n lambda.
func selectLambda(ctx context.Context, p *looProblem, opt RLSOptions) (RLSInfo, float64, error) {
	n := float64(p.n)
	emax := p.t.emax()
	info := RLSInfo{EMax: emax, N: p.n}
	if !(emax > n*machEps*p.scale) {
		return info, 0, fmt.Errorf("rls: the centred inputs have no positive eigenvalue above rounding (largest %g, input scale %g): %w; check the features or kernel", emax, p.scale, ErrNothingToLearn)
	}
	var sigmas []float64
	if opt.Fixed {
		sigmas = []float64{n * opt.Lambda}
	} else {
		grid := opt.Grid
		if grid == nil {
			grid = DefaultGrid()
		}
		for _, g := range grid {
			sigmas = append(sigmas, g*emax)
		}
	}
	res, err := p.path(ctx, sigmas, nil)
	if err != nil {
		return info, 0, err
	}
	path := LOOPath{Best: -1}
	for l, s := range sigmas {
		path.Lambda = append(path.Lambda, s/n)
		path.Relative = append(path.Relative, s/emax)
		path.Accuracy = append(path.Accuracy, res.acc[l])
		path.MSE = append(path.MSE, res.mse[l])
		if !res.ok[l] {
			continue
		}
		if b := path.Best; b < 0 || better(res.acc[l], res.mse[l], s, res.acc[b], res.mse[b], sigmas[b]) {
			path.Best = l
		}
	}
	info.Path = path
	if opt.Fixed {
		info.Lambda, info.Relative = opt.Lambda, sigmas[0]/emax
		return info, sigmas[0], nil
	}
	if path.Best < 0 {
		return info, 0, fmt.Errorf("rls: no grid value gave a positive definite system (largest eigenvalue %g): use larger relative lambdas", emax)
	}
	info.Lambda, info.Relative = path.Lambda[path.Best], path.Relative[path.Best]
	return info, sigmas[path.Best], nil
}

// better reports whether candidate (acc, mse, sigma) beats (acc0, mse0, sigma0): higher
// accuracy, then lower squared error, then larger sigma.
func better(acc, mse, sigma, acc0, mse0, sigma0 float64) bool {
	if acc != acc0 {
		return acc > acc0
	}
	if mse != mse0 {
		return mse < mse0
	}
	return sigma > sigma0
}

// centreFeatures returns the centred non-constant columns of f (n×D' row-major), their
// indices and their means. A column is constant when every entry equals the first
// row's exactly. It returns an error naming the first non-finite entry.
func centreFeatures(f *mat.Dense) (fc []float64, kept []int, mu []float64, err error) {
	kept, err = keptColumns(f)
	if err != nil {
		return nil, nil, nil, err
	}
	fc, mu = centreColumns(f, kept)
	return fc, kept, mu, nil
}

// keptColumns returns the indices of the non-constant columns of f (a column is
// constant when every entry equals the first row's exactly). It returns an error
// naming the first non-finite entry.
func keptColumns(f *mat.Dense) ([]int, error) {
	n, d := f.Dims()
	raw := f.RawMatrix()
	first := raw.Data[:d]
	varies := make([]bool, d)
	for i := 0; i < n; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("rls: feature %d of sample %d is %v: remove or impute non-finite values", j, i, v)
			}
			if v != first[j] {
				varies[j] = true
			}
		}
	}
	var kept []int
	for j, v := range varies {
		if v {
			kept = append(kept, j)
		}
	}
	return kept, nil
}

// centreColumns returns the columns kept of f, centred (n×D' row-major), and their means.
func centreColumns(f *mat.Dense, kept []int) (fc, mu []float64) {
	n, _ := f.Dims()
	raw := f.RawMatrix()
	dk := len(kept)
	fc = make([]float64, n*dk)
	mu = make([]float64, dk)
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride:]
		out := fc[i*dk : (i+1)*dk]
		for j, col := range kept {
			out[j] = row[col]
			mu[j] += row[col]
		}
	}
	for j := range mu {
		mu[j] /= float64(n)
	}
	for i := 0; i < n; i++ {
		out := fc[i*dk : (i+1)*dk]
		for j := range out {
			out[j] -= mu[j]
		}
	}
	return fc, mu
}

// targets returns the ±1 one-vs-all targets (n×k row-major) and their column means.
func targets(y []int, k int) ([]float64, []float64) {
	n := len(y)
	t := make([]float64, n*k)
	ybar := make([]float64, k)
	for i := range t {
		t[i] = -1
	}
	for i, c := range y {
		t[i*k+c] = 1
	}
	for i := 0; i < n; i++ {
		for c := range k {
			ybar[c] += t[i*k+c]
		}
	}
	for c := range ybar {
		ybar[c] /= float64(n)
	}
	return t, ybar
}

// mulInPlace overwrites the n×r row-major matrix a with a·q (q r×r), in row blocks
// spread over GOMAXPROCS goroutines.
func mulInPlace(ctx context.Context, a []float64, n, r int, q []float64) error {
	qg := blas64.General{Rows: r, Cols: r, Stride: r, Data: q}
	return parallelBlocks(ctx, n, rowBlock, func(_, lo, hi int) error {
		m := hi - lo
		blk := blas64.General{Rows: m, Cols: r, Stride: r, Data: a[lo*r : hi*r]}
		tmp := blas64.General{Rows: m, Cols: r, Stride: r, Data: make([]float64, m*r)}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blk, qg, 0, tmp)
		copy(blk.Data, tmp.Data)
		return nil
	})
}

// deflation restricts a symmetric n×n matrix K to the orthogonal complement of the
// constant vector. With the Householder reflector P = I - tau v vᵀ, v = 1 + sqrt(n) e_1,
// which maps 1 to -sqrt(n) e_1, W0 = P[:, 1:] is an orthonormal basis of that
// complement and
//
//	kt = W0ᵀ K W0,   (kt)_ij = K_{i+1,j+1} - tau (u_{i+1} + u_{j+1}) + tau² gamma,
//
// with u = K v, gamma = vᵀ u.
type deflation struct {
	n   int
	tau float64
	v0  float64
	kt  []float64 // (n-1)×(n-1) row-major, upper triangle
}

// deflate computes the deflation of the upper triangle of the n×n row-major matrix k
// (stride ld). It overwrites k's storage with kt (forward copying is safe because each
// source index is ahead of its destination).
func deflate(k []float64, n, ld int) *deflation {
	sn := math.Sqrt(float64(n))
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	v[0] = 1 + sn
	u := make([]float64, n)
	blas64.Symv(1, blas64.Symmetric{N: n, Stride: ld, Uplo: blas.Upper, Data: k}, blas64.Vector{N: n, Inc: 1, Data: v}, 0, blas64.Vector{N: n, Inc: 1, Data: u})
	gamma := 0.0
	for i := range u {
		gamma += v[i] * u[i]
	}
	tau := 2 / (2*float64(n) + 2*sn)
	c := tau * tau * gamma
	m := n - 1
	for i := 0; i < m; i++ {
		src := k[(i+1)*ld+i+1 : (i+1)*ld+n]
		dst := k[i*m+i : (i+1)*m]
		ui := u[i+1]
		for j := range dst {
			dst[j] = src[j] - tau*(ui+u[i+1+j]) + c
		}
	}
	return &deflation{n: n, tau: tau, v0: 1 + sn, kt: k[:m*m]}
}

// basis returns B = W0 Q (n×(n-1) row-major) for the (n-1)×(n-1) orthogonal q:
//
//	B_0j = -tau v_0 s_j,   B_ij = Q_{i-1,j} - tau s_j (i >= 1),   s_j = sum_l Q_lj.
func (df *deflation) basis(q []float64) []float64 {
	n, m := df.n, df.n-1
	s := make([]float64, m)
	for l := 0; l < m; l++ {
		for j, v := range q[l*m : (l+1)*m] {
			s[j] += v
		}
	}
	b := make([]float64, n*m)
	for j := range s {
		b[j] = -df.tau * df.v0 * s[j]
		s[j] *= df.tau
	}
	for i := 1; i < n; i++ {
		dst, src := b[i*m:(i+1)*m], q[(i-1)*m:i*m]
		for j := range dst {
			dst[j] = src[j] - s[j]
		}
	}
	return b
}

// basisInPlace is basis computed in q's storage, which must have capacity n(n-1) (the
// n×n buffer that was deflated): rows are written last to first, each from the row of
// q above it, which is no longer needed once written over.
func (df *deflation) basisInPlace(q []float64) []float64 {
	n, m := df.n, df.n-1
	if cap(q) < n*m {
		panic(fmt.Sprintf("learn: basis of a %d×%d Q needs capacity %d, have %d", m, m, n*m, cap(q)))
	}
	s := make([]float64, m)
	for l := 0; l < m; l++ {
		for j, v := range q[l*m : (l+1)*m] {
			s[j] += v
		}
	}
	row0 := make([]float64, m)
	for j := range s {
		row0[j] = -df.tau * df.v0 * s[j]
		s[j] *= df.tau
	}
	b := q[:n*m]
	for i := n - 1; i >= 1; i-- {
		dst, src := b[i*m:(i+1)*m], b[(i-1)*m:i*m]
		for j := range dst {
			dst[j] = src[j] - s[j]
		}
	}
	copy(b, row0)
	return b
}

// Classes returns the number of classes k.
func (m *LinearRLS) Classes() int { _, k := m.W.Dims(); return k }

// Decision returns the m×k scores X W + 1 bᵀ of the rows of x (m×D). It panics if x
// does not have D columns and returns ctx.Err() if cancelled.
func (m *LinearRLS) Decision(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	return affine(ctx, x, m.W, m.B)
}

// Predict returns argmax_c of Decision for each row of x (ties to the lower class).
func (m *LinearRLS) Predict(ctx context.Context, x *mat.Dense) ([]int, error) {
	s, err := m.Decision(ctx, x)
	if err != nil {
		return nil, err
	}
	return Argmax(s), nil
}

// Classes returns the number of classes k.
func (m *KernelRLS) Classes() int { _, k := m.C.Dims(); return k }

// Decision returns the scores Kx C + 1 bᵀ, where row i of kx (m×n) holds the kernel
// values k(x_i, z_j) against the n training samples. It panics if kx does not have n
// columns and returns ctx.Err() if cancelled.
func (m *KernelRLS) Decision(ctx context.Context, kx *mat.Dense) (*mat.Dense, error) {
	return affine(ctx, kx, m.C, m.B)
}

// Predict returns argmax_c of Decision for each row of kx (ties to the lower class).
func (m *KernelRLS) Predict(ctx context.Context, kx *mat.Dense) ([]int, error) {
	s, err := m.Decision(ctx, kx)
	if err != nil {
		return nil, err
	}
	return Argmax(s), nil
}

// affine returns x w + 1 bᵀ, in parallel row blocks.
func affine(ctx context.Context, x, w *mat.Dense, b []float64) (*mat.Dense, error) {
	rows, cols := x.Dims()
	d, k := w.Dims()
	if cols != d {
		panic(fmt.Sprintf("learn: input has %d columns, model expects %d", cols, d))
	}
	out := mat.NewDense(max(rows, 1), k, nil)
	if rows == 0 {
		return &mat.Dense{}, ctx.Err()
	}
	xr, or := x.RawMatrix(), out.RawMatrix()
	err := parallelBlocks(ctx, rows, rowBlock, func(_, lo, hi int) error {
		ob := blas64.General{Rows: hi - lo, Cols: k, Stride: or.Stride, Data: or.Data[lo*or.Stride:]}
		for i := 0; i < hi-lo; i++ {
			copy(ob.Data[i*ob.Stride:i*ob.Stride+k], b)
		}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: hi - lo, Cols: cols, Stride: xr.Stride, Data: xr.Data[lo*xr.Stride:]},
			w.RawMatrix(), 1, ob)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

var (
	_ Classifier = (*LinearRLS)(nil)
	_ Classifier = (*KernelRLS)(nil)
)
