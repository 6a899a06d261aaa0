package learn

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"gitui/core/kernel"
)

// DefaultInvariantRelTol is the default relative eigenvalue tolerance of
// [TrainInvariantSVM]: kernel PCA components (and tangent directions) with eigenvalue
// at most DefaultInvariantRelTol times the largest are left out of the invariance
// transform.
const DefaultInvariantRelTol = 1e-10

// InvariantOptions holds the settings of [TrainInvariantSVM].
type InvariantOptions struct {
	// Kernel is the kernel k. nil or kernel.Linear{} selects the linear method in input
	// space (Chapelle and Schoelkopf, Sec. 3); any other kernel the kernel PCA method
	// (Sec. 4).
	Kernel kernel.Base

	// C is the SVM cost (TrainSVC's C, > 0).
	C float64

	// Gamma is the invariance weight γ in [0, 1): 0 is the plain SVM, values near 1
	// make the decision function nearly constant along the tangents.
	Gamma float64

	// Tangents lists the transformations to be invariant to (see [Tangent]); ignored
	// when TangentVectors is set.
	Tangents []Tangent

	// Smooth is the standard deviation, in pixels, of the Gaussian smoothing applied
	// to images before the finite differences of [Tangents]; 0 means none.
	Smooth float64

	// TangentVectors, when non-nil, gives the tangent vectors directly: (n·K)×d, row
	// i·K + k a tangent at training sample i (K >= 1). Tangents and Smooth are then
	// ignored.
	TangentVectors *mat.Dense

	// RelTol is the relative eigenvalue tolerance; 0 means DefaultInvariantRelTol.
	RelTol float64

	// SVC holds the solver options passed to TrainSVC (nil means LIBSVM's defaults).
	SVC *SVCOptions
}

// InvariantSVM is an SVM made invariant to local transformations by the method of
// Chapelle and Schoelkopf ("Incorporating invariances in nonlinear Support Vector
// Machines", NIPS 2001): a C-SVC on the kernel
//
//	k_γ(x, z) = <φ(x), C_γ^{-1} φ(z)>,     C_γ = (1-γ) I + γ T / λ_max(T),
//	T = sum_i sum_k dφ_ik dφ_ikᵀ,
//
// which is the linear kernel of the transformed points C_γ^{-1/2} φ(x), with φ the
// feature map of the kernel and dφ_ik the tangent vectors of the training points
// mapped to feature space. T is normalised by its largest eigenvalue, so C_γ has
// eigenvalues in [1-γ, 1].
//
// Linear method (Kernel nil or linear): φ(x) = x, dφ = dx, and C_γ is the d×d matrix of
// the paper's Sec. 3.
//
// Kernel method (Sec. 4): φ is the kernel PCA map of the training set,
//
//	ψ(x) = Λ^{-1/2} Uᵀ k(X, x),        K = U Λ Uᵀ  (training Gram, eigenvalues kept
//	                                                 above RelTol·λ_max),
//
// coordinates of φ(x) in an orthonormal basis of the span of the training points, and
// the tangents are mapped by the kernel's derivative, exactly:
//
//	dψ_ik = Λ^{-1/2} Uᵀ [D_{dx_ik} k(x_j, ·)(x_i)]_j,
//	D_v k(x_j, ·)(x) = ∂f/∂dot·<x_j, v> + 2 ∂f/∂xx·<x, v>   for k = f(<x,z>, ||x||², ||z||²).
//
// With T = W diag(τ) Wᵀ (τ normalised, W the tangent directions in these coordinates),
// the kernel is evaluated as
//
//	k_γ(x, z) = [ k(x, z) - p(x)ᵀ diag(γτ/(1-γ+γτ)) p(z) ] / (1-γ),   p(x) = Wᵀ ψ(x),
//
// which equals ψ(x)ᵀ C_γ^{-1} ψ(z) when ψ keeps every eigenvalue, and otherwise also
// keeps (with weight 1/(1-γ)) the part of k that the dropped near-null directions carry
// instead of discarding it. At γ = 0 it is exactly k: the model is then the plain SVM.
// The linear method uses the same formula with p(x) = Wᵀ x.
type InvariantSVM struct {
	// SVC is the trained classifier on the invariant kernel k_γ of the training points.
	SVC *SVC

	// Kernel is the base kernel (nil for the linear method), Gamma the invariance
	// weight.
	Kernel kernel.Base
	Gamma  float64

	// Rank is the number of kernel PCA components kept (0 for the linear method), and
	// TangentRank the dimension q of the tangent subspace (eigenvalues τ > RelTol).
	Rank, TangentRank int

	// Tau holds the q normalised tangent eigenvalues τ, largest first (Tau[0] = 1).
	Tau []float64

	x      *mat.Dense // training inputs
	linear bool
	proj   *mat.Dense // maps k(X, x) (kernel) or x (linear) to p̃(x) = sqrt(D) Wᵀ ψ(x): n×q or d×q
	ptrain *mat.Dense // p̃ of the training points, n×q
}

// TrainInvariantSVM trains the invariant SVM of [InvariantSVM] on the rows of X (n×d,
// samples of the given shape: [h, w] images or [2] points for tangent kinds) with labels
// y (length n), one-vs-one for more than two classes (every pair shares C_γ, built from
// the tangents of all training points).
//
// Cost: the n×n training Gram; for the kernel method an n×n eigendecomposition and the
// (n·K)×n kernel derivatives; an r×r (kernel) or min(n·K, d)-sized (linear)
// eigendecomposition of the tangent covariance; then TrainSVC. ctx is checked between
// stages and inside the Gram builders and the solver; TrainInvariantSVM then returns
// ctx.Err().
//
// It panics if len(y) != n or TangentVectors does not have d columns and a multiple of
// n rows. It returns an error if Gamma is outside [0, 1), RelTol is negative, the kernel
// is invalid, a tangent kind does not fit the shape, an eigendecomposition fails, or
// TrainSVC does (bad C, a single class).
func TrainInvariantSVM(ctx context.Context, X *mat.Dense, y []int, shape []int, opts InvariantOptions) (*InvariantSVM, error) {
	n, d := X.Dims()
	if len(y) != n {
		panic(fmt.Sprintf("learn: TrainInvariantSVM: %d labels for %d samples", len(y), n))
	}
	if !(opts.Gamma >= 0 && opts.Gamma < 1) {
		return nil, fmt.Errorf("learn: invariance weight gamma = %g is outside [0, 1): pass 0 for the plain SVM or a value below 1", opts.Gamma)
	}
	tol := opts.RelTol
	if tol == 0 {
		tol = DefaultInvariantRelTol
	}
	if !(tol > 0) || math.IsInf(tol, 1) {
		return nil, fmt.Errorf("learn: relative eigenvalue tolerance %g is not positive: pass 0 for %g or a small positive value", opts.RelTol, DefaultInvariantRelTol)
	}
	k := opts.Kernel
	if k == nil {
		k = kernel.Linear{}
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("learn: invariant SVM: %w", err)
	}
	_, linear := k.(kernel.Linear)
	V := opts.TangentVectors
	if V != nil {
		r, c := V.Dims()
		if c != d || r == 0 || r%n != 0 {
			panic(fmt.Sprintf("learn: TrainInvariantSVM: TangentVectors is %d×%d, want (n·K)×%d with n = %d", r, c, d, n))
		}
	} else {
		if err := checkTangents(opts.Tangents, shape, d); err != nil {
			return nil, err
		}
		if !(opts.Smooth >= 0) || math.IsInf(opts.Smooth, 1) {
			return nil, fmt.Errorf("learn: smoothing sigma %g must be finite and non-negative: pass 0 for none", opts.Smooth)
		}
		V = Tangents(X, shape, opts.Tangents, opts.Smooth)
	}
	m := &InvariantSVM{Kernel: opts.Kernel, Gamma: opts.Gamma, x: mat.DenseCopyOf(X), linear: linear}
	if linear {
		m.Kernel = nil
	}

	K, err := kernel.SymGram(ctx, k, X)
	if err != nil {
		return nil, err
	}
	var coords *mat.Dense // tangent coordinates: rows are dψ (kernel) or dx (linear)
	var kpca *mat.Dense   // U_r Λ_r^{-1/2} (kernel method), n×r
	if linear {
		coords = V
	} else {
		kpca, err = kernelPCAMap(K, tol)
		if err != nil {
			return nil, err
		}
		_, m.Rank = kpca.Dims()
		if m.Rank > 0 && !V.IsEmpty() {
			dk := kernelDerivatives(k, X, V)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			coords = &mat.Dense{}
			coords.Mul(dk, kpca) // (n·K)×r
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	W, tau, err := tangentBasis(coords, tol)
	if err != nil {
		return nil, err
	}
	m.TangentRank, m.Tau = len(tau), tau
	if m.TangentRank > 0 {
		// proj = (kpca ·) W · sqrt(D), D_kk = γτ/(1-γ+γτ).
		proj := W
		if !linear {
			proj = &mat.Dense{}
			proj.Mul(kpca, W)
		}
		g := opts.Gamma
		for j, t := range tau {
			s := math.Sqrt(g * t / (1 - g + g*t))
			col := mat.Col(nil, j, proj)
			for i := range col {
				proj.Set(i, j, col[i]*s)
			}
		}
		m.proj = proj
		m.ptrain = &mat.Dense{}
		if linear {
			m.ptrain.Mul(X, proj)
		} else {
			m.ptrain.Mul(K, proj)
		}
		// G = K - P̃ P̃ᵀ: a rank-q update of the upper triangle.
		blas64.Syrk(blas.NoTrans, -1, m.ptrain.RawMatrix(), 1, K.RawSymmetric())
	}
	// Scale by 1/(1-γ) and mirror, so that the raw storage holds the full matrix as the
	// kernel package's builders leave it.
	raw := K.RawSymmetric()
	scale := 1 / (1 - opts.Gamma)
	for i := range n {
		for j := i; j < n; j++ {
			v := raw.Data[i*raw.Stride+j]
			if opts.Gamma > 0 {
				v *= scale
			}
			raw.Data[i*raw.Stride+j], raw.Data[j*raw.Stride+i] = v, v
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.SVC, err = TrainSVC(ctx, K, y, opts.C, opts.SVC)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// kernelPCAMap returns U_r Λ_r^{-1/2} (n×r) for the eigenpairs of K with eigenvalue
// above tol·λ_max, largest first (n×0 when none is positive).
func kernelPCAMap(K *mat.SymDense, tol float64) (*mat.Dense, error) {
	var e mat.EigenSym
	if !e.Factorize(K, true) {
		return nil, fmt.Errorf("learn: eigendecomposition of the %d×%d training Gram matrix failed: check the data for huge values or rescale the kernel", K.SymmetricDim(), K.SymmetricDim())
	}
	vals := e.Values(nil) // ascending
	var U mat.Dense
	e.VectorsTo(&U)
	n := len(vals)
	top := vals[n-1]
	var keep []int
	for j := n - 1; j >= 0; j-- {
		if top > 0 && vals[j] > tol*top {
			keep = append(keep, j)
		}
	}
	out := mat.NewDense(n, max(len(keep), 1), nil)
	if len(keep) == 0 {
		return out.Slice(0, n, 0, 0).(*mat.Dense), nil
	}
	for c, j := range keep {
		s := 1 / math.Sqrt(vals[j])
		for i := range n {
			out.Set(i, c, U.At(i, j)*s)
		}
	}
	return out, nil
}

// tangentBasis returns the orthonormal eigenvectors W (columns, dim×q) and normalised
// eigenvalues τ (largest first, τ_0 = 1) of T = Σ_a v_a v_aᵀ for the rows v_a of V,
// keeping τ > tol. It works on the smaller of V Vᵀ and Vᵀ V. A nil or zero V gives q = 0.
func tangentBasis(V *mat.Dense, tol float64) (*mat.Dense, []float64, error) {
	if V == nil || V.IsEmpty() {
		return nil, nil, nil
	}
	m, dim := V.Dims()
	if dim == 0 {
		return nil, nil, nil
	}
	small := m < dim
	var G mat.SymDense
	if small {
		G.SymOuterK(1, V) // V Vᵀ, m×m
	} else {
		G.SymOuterK(1, V.T()) // Vᵀ V, dim×dim
	}
	var e mat.EigenSym
	if !e.Factorize(&G, true) {
		return nil, nil, fmt.Errorf("learn: eigendecomposition of the tangent covariance failed: check the tangent vectors for huge or non-finite values")
	}
	vals := e.Values(nil)
	var Q mat.Dense
	e.VectorsTo(&Q)
	top := vals[len(vals)-1]
	if !(top > 0) {
		return nil, nil, nil
	}
	var keep []int
	for j := len(vals) - 1; j >= 0; j-- {
		if vals[j] > tol*top {
			keep = append(keep, j)
		}
	}
	tau := make([]float64, len(keep))
	W := mat.NewDense(dim, len(keep), nil)
	for c, j := range keep {
		tau[c] = vals[j] / top
		if small {
			// Right singular vector: w = Vᵀ q / sqrt(λ).
			q := Q.ColView(j)
			var w mat.VecDense
			w.MulVec(V.T(), q)
			w.ScaleVec(1/math.Sqrt(vals[j]), &w)
			W.SetCol(c, w.RawVector().Data)
		} else {
			W.SetCol(c, mat.Col(nil, j, &Q))
		}
	}
	return W, tau, nil
}

// kernelDerivatives returns the (n·K)×n matrix of directional derivatives
//
//	DK[a, j] = D_{v_a} k(x_j, ·)(x_{i(a)}) = f_dot·<x_j, v_a> + 2 f_xx·<x_{i(a)}, v_a>,
//
// i(a) = a / K, for the rows v_a of V, f_dot and f_xx the partial derivatives of
// k.FromDot at (<x_i, x_j>, ||x_i||², ||x_j||²).
func kernelDerivatives(k kernel.Base, X, V *mat.Dense) *mat.Dense {
	n, _ := X.Dims()
	mv, _ := V.Dims()
	nk := mv / n
	var dots, xv mat.Dense
	dots.Mul(X, X.T()) // n×n
	xv.Mul(V, X.T())   // (n·K)×n: <v_a, x_j>
	sq := make([]float64, n)
	for i := range n {
		sq[i] = dots.At(i, i)
	}
	out := mat.NewDense(mv, n, nil)
	for a := range mv {
		i := a / nk
		self := mat.Dot(V.RowView(a), X.RowView(i)) // <x_i, v_a>
		row := out.RawRowView(a)
		dr := dots.RawRowView(i)
		vr := xv.RawRowView(a)
		for j := range n {
			fd, fx := kernelPartials(k, dr[j], sq[i], sq[j])
			row[j] = fd*vr[j] + 2*fx*self
		}
	}
	return out
}

// kernelPartials returns ∂f/∂dot and ∂f/∂xx of k.FromDot(dot, xx, zz): exact for
// Linear, RBF and Poly, central differences (relative step 1e-5) for other kernels.
func kernelPartials(k kernel.Base, dot, xx, zz float64) (fdot, fxx float64) {
	switch kk := k.(type) {
	case kernel.Linear:
		return 1, 0
	case kernel.RBF:
		f := kk.FromDot(dot, xx, zz)
		return 2 * kk.Gamma * f, -kk.Gamma * f
	case kernel.Poly:
		if kk.Degree == 0 {
			return 0, 0
		}
		b := 1 + kk.Gamma*dot
		p := 1.0
		for range kk.Degree - 1 {
			p *= b
		}
		return float64(kk.Degree) * kk.Gamma * p, 0
	}
	hd := 1e-5 * math.Max(1, math.Abs(dot))
	hx := 1e-5 * math.Max(1, math.Abs(xx))
	fdot = (k.FromDot(dot+hd, xx, zz) - k.FromDot(dot-hd, xx, zz)) / (2 * hd)
	fxx = (k.FromDot(dot, xx+hx, zz) - k.FromDot(dot, xx-hx, zz)) / (2 * hx)
	return fdot, fxx
}

// Gram returns the t×n invariant kernel k_γ(z, x_j) between the rows of Z (t×d) and
// the n training points, the test kernel of [InvariantSVM.SVC]:
//
//	k_γ(z, x_j) = [ k(z, x_j) - p̃(z)ᵀ p̃(x_j) ] / (1-γ).
//
// It panics if Z does not have d columns and returns ctx.Err() if cancelled, or the
// Gram builder's error (a result above kernel.MaxGramBytes).
func (m *InvariantSVM) Gram(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	_, d := m.x.Dims()
	if _, c := Z.Dims(); c != d {
		panic(fmt.Sprintf("learn: InvariantSVM: input has %d columns, the model was trained on %d", c, d))
	}
	k := m.Kernel
	if k == nil {
		k = kernel.Linear{}
	}
	G, err := kernel.Gram(ctx, k, Z, m.x)
	if err != nil {
		return nil, err
	}
	if m.proj != nil {
		// G -= p̃(Z) p̃(X)ᵀ, p̃(Z) = G·proj (kernel) or Z·proj (linear).
		var pz mat.Dense
		if m.linear {
			pz.Mul(Z, m.proj)
		} else {
			pz.Mul(G, m.proj)
		}
		blas64.Gemm(blas.NoTrans, blas.Trans, -1, pz.RawMatrix(), m.ptrain.RawMatrix(), 1, G.RawMatrix())
	}
	if m.Gamma > 0 {
		G.Scale(1/(1-m.Gamma), G)
	}
	return G, ctx.Err()
}

// DecisionValues returns the t×P one-vs-one decision values of the rows of Z (t×d), as
// [SVC.DecisionValues] on [InvariantSVM.Gram]. It panics on a column mismatch and
// returns ctx.Err() if cancelled.
func (m *InvariantSVM) DecisionValues(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	G, err := m.Gram(ctx, Z)
	if err != nil {
		return nil, err
	}
	return m.SVC.DecisionValues(ctx, G)
}

// Classes returns the number of classes.
func (m *InvariantSVM) Classes() int { return m.SVC.Classes() }

// Predict returns the predicted label of each row of Z (t×d, raw inputs), by
// svm-predict's one-vs-one vote. It panics on a column mismatch and returns ctx.Err()
// if cancelled.
func (m *InvariantSVM) Predict(ctx context.Context, Z *mat.Dense) ([]int, error) {
	dec, err := m.DecisionValues(ctx, Z)
	if err != nil {
		return nil, err
	}
	return m.SVC.Vote(dec), nil
}

// Decision returns the t×k class scores of the rows of Z (raw inputs), as
// [SVC.Decision] on [InvariantSVM.Gram] (labels must be 0..k-1).
func (m *InvariantSVM) Decision(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	G, err := m.Gram(ctx, Z)
	if err != nil {
		return nil, err
	}
	return m.SVC.Decision(ctx, G)
}

var _ Classifier = (*InvariantSVM)(nil)
