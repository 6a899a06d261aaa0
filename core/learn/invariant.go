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

	// Shared, with more than two classes, builds one C_γ from the tangents of all
	// training points and trains the one-vs-one pairs on it, instead of giving each
	// pair the C_γ of its own two classes' tangents (the default; see [InvariantSVM]).
	Shared bool
}

// InvariantSVM is an SVM made invariant to local transformations by the method of
// Chapelle and Schoelkopf ("Incorporating invariances in nonlinear Support Vector
// Machines", NIPS 2001): a C-SVC on the kernel
//
//	k_γ(x, z) = <φ(x), C_γ^{-1} φ(z)>,     C_γ = (1-γ) I + γ T / λ_max(T),
//	T = sum_i sum_k dφ_ik dφ_ikᵀ,
//
// which is the linear kernel of the transformed points C_γ^{-1/2} φ(x), with φ the
// feature map of the kernel and dφ_ik = D_{dx_ik} φ(x_i) the tangent vectors of the
// training points mapped to feature space. T is normalised by its largest eigenvalue,
// so C_γ has eigenvalues in [1-γ, 1].
//
// Linear method (Kernel nil or linear): φ(x) = x, dφ = dx, and C_γ is the d×d matrix of
// the paper's Sec. 3.
//
// Kernel method (Sec. 4): the paper works in the span E of the training points and
// their tangents in feature space, E = span{φ(x_i), dφ_ik} (not the span of the φ(x_i)
// alone: the tangents mostly point out of it, and projecting them onto it loses the
// invariance). C_γ acts as (1-γ) I outside the tangent span, so only the tangents'
// own Gram matrix is needed:
//
//	T = W diag(τ) Wᵀ,   W = [dφ] Q Σ^{-1/2},   τ = σ / σ_max,
//	H = [<dφ_a, dφ_b>]_ab = Q Σ Qᵀ             (the (n·K)×(n·K) tangent Gram),
//
// and the kernel is, exactly,
//
//	k_γ(x, z) = [ k(x, z) - p(x)ᵀ diag(γτ/(1-γ+γτ)) p(z) ] / (1-γ),
//	p(x) = Wᵀ φ(x) = Σ^{-1/2} Qᵀ [<dφ_a, φ(x)>]_a,
//
// the inner products with tangents being kernel derivatives:
//
//	<dφ_a, φ(x)>  = D_{v_a} k(·, x)(x_{i(a)}) = f_dot·<x, v_a> + 2 f_xx·<x_{i(a)}, v_a>,
//	<dφ_a, dφ_b>  = the mixed second derivative D_{v_a} D_{v_b} k(x_{i(a)}, x_{i(b)})
//
// for k = f(<x,z>, ||x||², ||z||²) (exact partials for Linear, RBF and Poly). This
// equals ψ(x)ᵀ C_γ^{-1} ψ(z) for the paper's kernel PCA map ψ of E. The linear method
// uses the same formula with W the eigenvectors of Σ dx dxᵀ and p(x) = Wᵀ x. At γ = 0
// the kernel is exactly k, and with no tangent (or only zero tangents) it is k: the
// model is then the plain SVM.
//
// More than two classes: by default each one-vs-one pair (classes a, b) is its own
// binary invariant SVM, with C_γ built from the tangents of the training points of a
// and b only, as the paper's binary method applies to that pair's training set; the
// pairs vote as in LIBSVM. Making the pair's function flat along the tangents of the
// other classes' points, where its value means nothing, spends capacity for no gain
// (on 16×16 digits it lost 1-2 points against the per-pair form). With
// [InvariantOptions.Shared] all pairs share the C_γ of all training points instead.
type InvariantSVM struct {
	// SVC is the trained classifier on the invariant kernel k_γ of the training points;
	// nil when the pairs are separate models (PairModels).
	SVC *SVC

	// Labels lists the classes in LIBSVM's order (by first appearance), and PairModels,
	// when the pairs have their own C_γ, the binary model of each one-vs-one pair
	// (Labels[I], Labels[J]), I < J, in the order (0,1), (0,2), ..., (k-2,k-1), trained
	// on the pair's points with labels 0 (class I) and 1 (class J).
	Labels     []int
	PairModels []*InvariantSVM

	// Kernel is the base kernel (nil for the linear method), Gamma the invariance
	// weight.
	Kernel kernel.Base
	Gamma  float64

	// TangentRank is the dimension q of the tangent subspace (eigenvalues τ > RelTol),
	// and Tau the q normalised tangent eigenvalues τ, largest first (Tau[0] = 1); with
	// PairModels, each pair model has its own and these are zero.
	TangentRank int
	Tau         []float64

	vote   *SVC       // Labels and pairs for voting, with PairModels
	x      *mat.Dense // training inputs (all classes' with PairModels)
	v      *mat.Dense // tangent vectors, (n·K)×d (kernel method; all classes' with PairModels)
	rows   []int      // a pair model's training points as rows of its parent's x
	linear bool
	proj   *mat.Dense // maps x (linear, d×q) or [<dφ_a, φ(x)>]_a (kernel, (n·K)×q) to p̃(x) = sqrt(D) p(x)
	ptrain *mat.Dense // p̃ of the training points, n×q
}

// TrainInvariantSVM trains the invariant SVM of [InvariantSVM] on the rows of X (n×d,
// samples of the given shape: [h, w] images or [2] points for tangent kinds) with labels
// y (length n), one-vs-one for more than two classes (each pair with the C_γ of its
// own points' tangents, or all pairs sharing one with opts.Shared).
//
// Cost: the n×n training Gram; for the kernel method the (n·K)×n first and (n·K)×(n·K)
// second kernel derivatives and an (n·K)×(n·K) eigendecomposition (LAPACK's dsyevd
// with -tags openblas); for the linear method a min(n·K, d)-sized one; then TrainSVC.
// Per-pair models repeat this on each pair's points (k-1 times the Gram entries of one
// shared model, in total, and 2/k of its size each).
// ctx is checked between stages and inside the Gram builders and the solver;
// TrainInvariantSVM then returns ctx.Err().
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
	if labels, _, _, _ := groupClasses(y); len(labels) > 2 && !opts.Shared {
		return trainInvariantPairs(ctx, X, y, shape, V, labels, opts)
	}
	return trainInvariant(ctx, X, y, V, k, opts, tol)
}

// trainInvariantPairs trains one binary invariant SVM per one-vs-one pair of labels
// (in LIBSVM's order), each on its two classes' rows of X and V, labelled 0 (first
// class) and 1.
func trainInvariantPairs(ctx context.Context, X *mat.Dense, y, shape []int, V *mat.Dense, labels []int, opts InvariantOptions) (*InvariantSVM, error) {
	n, d := X.Dims()
	nv := 0
	if !V.IsEmpty() {
		nv, _ = V.Dims()
	}
	nk := nv / n
	m := &InvariantSVM{Kernel: opts.Kernel, Gamma: opts.Gamma, Labels: labels, vote: &SVC{Labels: labels}, x: mat.DenseCopyOf(X)}
	if nk > 0 {
		m.v = V
	}
	if _, linear := opts.Kernel.(kernel.Linear); linear || opts.Kernel == nil {
		m.Kernel = nil
	}
	sub := opts
	sub.Shared = true
	sub.Tangents = nil
	for I := range labels {
		for J := I + 1; J < len(labels); J++ {
			// Class I's points then class J's, each in training order: LIBSVM's
			// layout of the pair's subproblem, so that at γ = 0 the SMO steps are
			// those of TrainSVC's pair.
			var idx, yp []int
			for c, lab := range []int{labels[I], labels[J]} {
				for i, l := range y {
					if l == lab {
						idx, yp = append(idx, i), append(yp, c)
					}
				}
			}
			Xp := mat.NewDense(len(idx), d, nil)
			for r, i := range idx {
				Xp.SetRow(r, X.RawRowView(i))
			}
			sub.TangentVectors = nil
			if nk > 0 {
				Vp := mat.NewDense(len(idx)*nk, d, nil)
				for r, i := range idx {
					for q := range nk {
						Vp.SetRow(r*nk+q, V.RawRowView(i*nk+q))
					}
				}
				sub.TangentVectors = Vp
			}
			pm, err := TrainInvariantSVM(ctx, Xp, yp, shape, sub)
			if err != nil {
				return nil, err
			}
			if pm.SVC.Labels[0] != 0 {
				panic("learn: TrainInvariantSVM: pair model's first class is not the pair's first class")
			}
			pm.rows = idx
			m.PairModels = append(m.PairModels, pm)
			m.vote.Pairs = append(m.vote.Pairs, SVCPair{I: I, J: J})
		}
	}
	return m, nil
}

// trainInvariant trains the model of [InvariantSVM] with one C_γ for all classes, from
// the tangent vectors V (rows i·K + k at sample i; empty for none).
func trainInvariant(ctx context.Context, X *mat.Dense, y []int, V *mat.Dense, k kernel.Base, opts InvariantOptions, tol float64) (*InvariantSVM, error) {
	n, _ := X.Dims()
	_, linear := k.(kernel.Linear)
	m := &InvariantSVM{Kernel: opts.Kernel, Gamma: opts.Gamma, x: mat.DenseCopyOf(X), linear: linear}
	if linear {
		m.Kernel = nil
	}

	K, err := kernel.SymGram(ctx, k, X)
	if err != nil {
		return nil, err
	}
	// The tangent subspace: directions (columns of basis, scaled so that basis·s maps
	// the tangent inner products of x to p(x)) and normalised eigenvalues τ.
	var basis *mat.Dense
	var tau []float64
	var dk *mat.Dense // (n·K)×n: <dφ_a, φ(x_j)> (kernel method)
	if !V.IsEmpty() {
		if linear {
			basis, tau, err = tangentBasis(V, tol)
		} else {
			H := tangentGram(k, X, V)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			dk = kernelDerivatives(k, X, V, X)
			basis, tau, err = gramBasis(H, tol)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.TangentRank, m.Tau = len(tau), tau
	if m.TangentRank > 0 {
		// proj = basis · sqrt(D), D_kk = γτ/(1-γ+γτ).
		proj := basis
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
			m.v = V
			m.ptrain.Mul(dk.T(), proj)
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

// symEigen returns the eigenvalues (ascending) and eigenvectors (columns of an n×n
// row-major slice) of the symmetric S, with LAPACK's dsyevd under -tags openblas and
// gonum's EigenSym otherwise. ok is false if the decomposition failed.
func symEigen(S *mat.SymDense) (vals, vecs []float64, ok bool) {
	n := S.SymmetricDim()
	raw := S.RawSymmetric()
	if fastEigen != nil && n > 1 {
		a := make([]float64, n*n)
		for i := range n {
			copy(a[i*n+i:(i+1)*n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
		}
		if t, ok := fastEigen(a, n); ok {
			return t.eig, t.q, true
		}
	}
	var e mat.EigenSym
	if !e.Factorize(S, true) {
		return nil, nil, false
	}
	var Q mat.Dense
	e.VectorsTo(&Q)
	return e.Values(nil), mat.DenseCopyOf(&Q).RawMatrix().Data, true
}

// topEigen returns the eigenpairs of the symmetric S with eigenvalue above
// tol·λ_max, largest first: the eigenvectors as columns of Q (n×q) and the
// eigenvalues. It returns q = 0 if λ_max is not positive.
func topEigen(S *mat.SymDense, tol float64, what string) (*mat.Dense, []float64, error) {
	n := S.SymmetricDim()
	vals, vecs, ok := symEigen(S)
	if !ok {
		return nil, nil, fmt.Errorf("learn: eigendecomposition of the %d×%d %s failed: check the tangent vectors for huge or non-finite values", n, n, what)
	}
	top := vals[n-1]
	if !(top > 0) {
		return nil, nil, nil
	}
	var keep []int
	for j := n - 1; j >= 0; j-- {
		if vals[j] > tol*top {
			keep = append(keep, j)
		}
	}
	Q := mat.NewDense(n, len(keep), nil)
	ev := make([]float64, len(keep))
	for c, j := range keep {
		ev[c] = vals[j]
		for i := range n {
			Q.Set(i, c, vecs[i*n+j])
		}
	}
	return Q, ev, nil
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
	if m < dim {
		var H mat.SymDense
		H.SymOuterK(1, V) // V Vᵀ, m×m
		B, tau, err := gramBasis(&H, tol)
		if err != nil || B == nil {
			return nil, nil, err
		}
		// Right singular vectors: W = Vᵀ Q Σ^{-1/2}.
		var W mat.Dense
		W.Mul(V.T(), B)
		return &W, tau, nil
	}
	var G mat.SymDense
	G.SymOuterK(1, V.T()) // Vᵀ V, dim×dim
	W, vals, err := topEigen(&G, tol, "tangent covariance")
	if err != nil || W == nil {
		return nil, nil, err
	}
	tau := make([]float64, len(vals))
	for i, v := range vals {
		tau[i] = v / vals[0]
	}
	return W, tau, nil
}

// gramBasis returns, for the Gram matrix H = [<v_a, v_b>] of m vectors v_a (in any
// inner-product space), B = Q Σ^{-1/2} (m×q) and τ = σ/σ_max for H's eigenpairs
// (Q, σ) with σ > tol·σ_max, largest first: the orthonormal eigenvectors of
// T = Σ_a v_a v_aᵀ are w_k = Σ_a B_ak v_a, with eigenvalues σ_k, so that
// <w_k, u> = Σ_a B_ak <v_a, u>. A zero H gives q = 0.
func gramBasis(H *mat.SymDense, tol float64) (*mat.Dense, []float64, error) {
	Q, sig, err := topEigen(H, tol, "tangent Gram matrix")
	if err != nil || Q == nil {
		return nil, nil, err
	}
	tau := make([]float64, len(sig))
	r, _ := Q.Dims()
	for c, s := range sig {
		tau[c] = s / sig[0]
		f := 1 / math.Sqrt(s)
		for i := range r {
			Q.Set(i, c, Q.At(i, c)*f)
		}
	}
	return Q, tau, nil
}

// kernelDerivatives returns the (n·K)×t matrix of directional derivatives
//
//	DK[a, j] = <dφ_a, φ(z_j)> = D_{v_a} k(·, z_j)(x_{i(a)}) = f_dot·<z_j, v_a> + 2 f_xx·<x_{i(a)}, v_a>,
//
// i(a) = a / K, for the rows v_a of V (tangents at the rows of X, n×d) and the rows z_j
// of Z (t×d), f_dot and f_xx the partial derivatives of k.FromDot at
// (<x_i, z_j>, ||x_i||², ||z_j||²).
func kernelDerivatives(k kernel.Base, X, V, Z *mat.Dense) *mat.Dense {
	n, _ := X.Dims()
	t, _ := Z.Dims()
	mv, _ := V.Dims()
	nk := mv / n
	var dots, zv mat.Dense
	dots.Mul(X, Z.T()) // n×t
	zv.Mul(V, Z.T())   // (n·K)×t: <v_a, z_j>
	sx, sz := rowNorms2(X), rowNorms2(Z)
	out := mat.NewDense(mv, t, nil)
	fdr, fxr := make([]float64, t), make([]float64, t)
	for i := range n {
		// The partials depend on the sample, not the tangent: once per (i, j).
		dr := dots.RawRowView(i)
		for j := range t {
			fdr[j], fxr[j] = kernelPartials(k, dr[j], sx[i], sz[j])
		}
		for a := i * nk; a < (i+1)*nk; a++ {
			self := mat.Dot(V.RowView(a), X.RowView(i)) // <x_i, v_a>
			row := out.RawRowView(a)
			vr := zv.RawRowView(a)
			for j := range t {
				row[j] = fdr[j]*vr[j] + 2*fxr[j]*self
			}
		}
	}
	return out
}

// tangentGram returns the (n·K)×(n·K) Gram matrix of the tangents in feature space,
//
//	H[a, b] = <dφ_a, dφ_b> = ∂²/∂s∂t k(x_i + s v_a, x_j + t v_b) at 0      (i = i(a), j = i(b))
//	        = f_d<v_a,v_b> + <v_a,x_j>(f_dd<x_i,v_b> + 2f_dz<x_j,v_b>) + 2<x_i,v_a>(f_dx<x_i,v_b> + 2f_xz<x_j,v_b>),
//
// with the partials of f(dot, xx, zz) at (<x_i, x_j>, ||x_i||², ||x_j||²) (see
// [kernelPartials2]). V holds K tangents per row of X, row i·K + k at sample i.
func tangentGram(k kernel.Base, X, V *mat.Dense) *mat.SymDense {
	n, _ := X.Dims()
	mv, _ := V.Dims()
	nk := mv / n
	var dots, xv, vv mat.Dense
	dots.Mul(X, X.T()) // n×n
	xv.Mul(X, V.T())   // n×(n·K): <x_i, v_b>
	vv.Mul(V, V.T())   // (n·K)×(n·K)
	sq := rowNorms2(X)
	H := mat.NewSymDense(mv, nil)
	raw := H.RawSymmetric()
	for i := range n {
		xi := xv.RawRowView(i)
		for j := i; j < n; j++ {
			// The partials depend on the samples, not the tangents: once per (i, j).
			fd, fdd, fdx, fdz, fxz := kernelPartials2(k, dots.At(i, j), sq[i], sq[j])
			xj := xv.RawRowView(j)
			for a := i * nk; a < (i+1)*nk; a++ {
				xa, vaxj := xi[a], xj[a] // <x_i, v_a>, <x_j, v_a>
				va := vv.RawRowView(a)
				hr := raw.Data[a*raw.Stride : (a+1)*raw.Stride]
				for b := max(a, j*nk); b < (j+1)*nk; b++ {
					xib, xjb := xi[b], xj[b]
					hr[b] = fd*va[b] + vaxj*(fdd*xib+2*fdz*xjb) + 2*xa*(fdx*xib+2*fxz*xjb)
				}
			}
		}
	}
	return H
}

// rowNorms2 returns ||x_i||² for the rows of X.
func rowNorms2(X *mat.Dense) []float64 {
	n, _ := X.Dims()
	s := make([]float64, n)
	for i := range n {
		for _, v := range X.RawRowView(i) {
			s[i] += v * v
		}
	}
	return s
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
		return float64(kk.Degree) * kk.Gamma * powN(1+kk.Gamma*dot, kk.Degree-1), 0
	}
	hd := 1e-5 * math.Max(1, math.Abs(dot))
	hx := 1e-5 * math.Max(1, math.Abs(xx))
	fdot = (k.FromDot(dot+hd, xx, zz) - k.FromDot(dot-hd, xx, zz)) / (2 * hd)
	fxx = (k.FromDot(dot, xx+hx, zz) - k.FromDot(dot, xx-hx, zz)) / (2 * hx)
	return fdot, fxx
}

// kernelPartials2 returns the partial derivatives of f = k.FromDot(dot, xx, zz) that
// the mixed second derivative of k needs: f_d, f_dd, f_dx, f_dz and f_xz (d = dot,
// x = xx, z = zz). Exact for Linear, RBF (f = exp(-γ(xx - 2 dot + zz)): f_d = 2γf,
// f_dd = 4γ²f, f_dx = f_dz = -2γ²f, f_xz = γ²f) and Poly; central differences
// (relative step 1e-4) for other kernels.
func kernelPartials2(k kernel.Base, dot, xx, zz float64) (fd, fdd, fdx, fdz, fxz float64) {
	switch kk := k.(type) {
	case kernel.Linear:
		return 1, 0, 0, 0, 0
	case kernel.RBF:
		f := kk.FromDot(dot, xx, zz)
		g := kk.Gamma
		return 2 * g * f, 4 * g * g * f, -2 * g * g * f, -2 * g * g * f, g * g * f
	case kernel.Poly:
		p, g := float64(kk.Degree), kk.Gamma
		b := 1 + g*dot
		if kk.Degree >= 1 {
			fd = p * g * powN(b, kk.Degree-1)
		}
		if kk.Degree >= 2 {
			fdd = p * (p - 1) * g * g * powN(b, kk.Degree-2)
		}
		return fd, fdd, 0, 0, 0
	}
	f := k.FromDot
	hd := 1e-4 * math.Max(1, math.Abs(dot))
	hx := 1e-4 * math.Max(1, math.Abs(xx))
	hz := 1e-4 * math.Max(1, math.Abs(zz))
	fd = (f(dot+hd, xx, zz) - f(dot-hd, xx, zz)) / (2 * hd)
	fdd = (f(dot+hd, xx, zz) - 2*f(dot, xx, zz) + f(dot-hd, xx, zz)) / (hd * hd)
	mixed := func(g func(a, b float64) float64, ha, hb float64) float64 {
		return (g(ha, hb) - g(ha, -hb) - g(-ha, hb) + g(-ha, -hb)) / (4 * ha * hb)
	}
	fdx = mixed(func(a, b float64) float64 { return f(dot+a, xx+b, zz) }, hd, hx)
	fdz = mixed(func(a, b float64) float64 { return f(dot+a, xx, zz+b) }, hd, hz)
	fxz = mixed(func(a, b float64) float64 { return f(dot, xx+a, zz+b) }, hx, hz)
	return fd, fdd, fdx, fdz, fxz
}

// powN returns b^n for n >= 0.
func powN(b float64, n int) float64 {
	p := 1.0
	for range n {
		p *= b
	}
	return p
}

// Gram returns the t×n invariant kernel k_γ(z, x_j) between the rows of Z (t×d) and
// the n training points, the test kernel of [InvariantSVM.SVC] (a model with
// PairModels has no single kernel: call Gram on a pair model):
//
//	k_γ(z, x_j) = [ k(z, x_j) - p̃(z)ᵀ p̃(x_j) ] / (1-γ),
//
// p̃(z) = sqrt(D) p(z) (see [InvariantSVM]); the kernel method evaluates the t×(n·K)
// tangent derivatives <dφ_a, φ(z)> in blocks of 512 rows of Z.
//
// It panics if Z does not have d columns or the model has PairModels, and returns
// ctx.Err() if cancelled, or the Gram builder's error (a result above
// kernel.MaxGramBytes).
func (m *InvariantSVM) Gram(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	if m.PairModels != nil {
		panic("learn: InvariantSVM.Gram: the model has one kernel per pair: call Gram on PairModels[p]")
	}
	_, d := m.x.Dims()
	if _, c := Z.Dims(); c != d {
		panic(fmt.Sprintf("learn: InvariantSVM: input has %d columns, the model was trained on %d", c, d))
	}
	k := m.baseKernel()
	G, err := kernel.Gram(ctx, k, Z, m.x)
	if err != nil {
		return nil, err
	}
	t, _ := Z.Dims()
	for lo := 0; lo < t; lo += testBlock {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+testBlock, t)
		zb := Z.Slice(lo, hi, 0, d).(*mat.Dense)
		var dkT mat.Matrix
		if m.proj != nil && !m.linear {
			dkT = kernelDerivatives(k, m.x, m.v, zb).T()
		}
		m.correct(G.Slice(lo, hi, 0, G.RawMatrix().Cols).(*mat.Dense), zb, dkT, m.ptrain)
	}
	return G, ctx.Err()
}

// testBlock is the number of test rows whose tangent derivatives (an (n·K)×testBlock
// matrix) are computed at a time.
const testBlock = 512

// baseKernel returns the base kernel (Linear for the linear method).
func (m *InvariantSVM) baseKernel() kernel.Base {
	if m.Kernel == nil {
		return kernel.Linear{}
	}
	return m.Kernel
}

// correct turns the base kernel values gb = k(z, x_j) of the test rows zb into k_γ in
// place,
//
//	gb = (gb - p̃(zb) ptᵀ) / (1-γ),
//
// where the rows of pt are p̃(x_j) for gb's columns, and p̃(zb) = zb·proj (linear) or
// dkT·proj with dkT the rows-of-zb × (n·K) tangent derivatives (kernel method).
func (m *InvariantSVM) correct(gb, zb *mat.Dense, dkT mat.Matrix, pt *mat.Dense) {
	if m.proj != nil {
		var pz mat.Dense
		if m.linear {
			pz.Mul(zb, m.proj)
		} else {
			pz.Mul(dkT, m.proj)
		}
		blas64.Gemm(blas.NoTrans, blas.Trans, -1, pz.RawMatrix(), pt.RawMatrix(), 1, gb.RawMatrix())
	}
	if m.Gamma > 0 {
		gb.Scale(1/(1-m.Gamma), gb)
	}
}

// pairDecisionValues is [InvariantSVM.DecisionValues] for a model with PairModels. The
// base kernel and the tangent derivatives of a block of test rows against all training
// points are computed once and shared: each pair takes the columns of its support
// vectors (and the derivative rows of its own tangents) instead of evaluating the
// kernel again on its two classes' points.
func (m *InvariantSVM) pairDecisionValues(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	n, d := m.x.Dims()
	t, c := Z.Dims()
	if c != d {
		panic(fmt.Sprintf("learn: InvariantSVM: input has %d columns, the model was trained on %d", c, d))
	}
	if t == 0 {
		return &mat.Dense{}, ctx.Err()
	}
	nk := 0
	if m.v != nil {
		nk, _ = m.v.Dims()
		nk /= n
	}
	// Per pair: its support vectors as rows of m.x, their p̃, and its tangents as rows
	// of m.v.
	type pairCols struct {
		sv, tan []int
		pt      *mat.Dense
	}
	pc := make([]pairCols, len(m.PairModels))
	needDK := false
	for p, pm := range m.PairModels {
		pc[p].sv = make([]int, len(pm.SVC.SV))
		for s, j := range pm.SVC.SV {
			pc[p].sv[s] = pm.rows[j]
		}
		if pm.proj == nil || len(pm.SVC.SV) == 0 {
			continue
		}
		pc[p].pt = gatherRows(pm.ptrain, pm.SVC.SV)
		if !pm.linear {
			needDK = true
			for _, i := range pm.rows {
				for q := range nk {
					pc[p].tan = append(pc[p].tan, i*nk+q)
				}
			}
		}
	}
	k := m.baseKernel()
	dec := mat.NewDense(t, len(m.PairModels), nil)
	for lo := 0; lo < t; lo += testBlock {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+testBlock, t)
		zb := Z.Slice(lo, hi, 0, d).(*mat.Dense)
		G, err := kernel.Gram(ctx, k, zb, m.x)
		if err != nil {
			return nil, err
		}
		var DK *mat.Dense
		if needDK {
			DK = kernelDerivatives(k, m.x, m.v, zb)
		}
		for p, pm := range m.PairModels {
			gb := gatherCols(G, pc[p].sv)
			var dkT mat.Matrix
			if pc[p].tan != nil {
				dkT = gatherRows(DK, pc[p].tan).T()
			}
			if len(pc[p].sv) > 0 {
				pm.correct(gb, zb, dkT, pc[p].pt)
			}
			var dp mat.Dense
			if err := pm.SVC.DecisionValuesSVTo(ctx, &dp, gb); err != nil {
				return nil, err
			}
			dec.Slice(lo, hi, p, p+1).(*mat.Dense).Copy(&dp)
		}
	}
	return dec, nil
}

// gatherCols returns the columns cols of A as a new matrix (r×0 storage for none).
func gatherCols(A *mat.Dense, cols []int) *mat.Dense {
	r, _ := A.Dims()
	out := mat.NewDense(r, max(len(cols), 1), nil)
	for i := range r {
		src, dst := A.RawRowView(i), out.RawRowView(i)
		for c, j := range cols {
			dst[c] = src[j]
		}
	}
	return out.Slice(0, r, 0, len(cols)).(*mat.Dense)
}

// gatherRows returns the rows rows of A as a new matrix.
func gatherRows(A *mat.Dense, rows []int) *mat.Dense {
	_, c := A.Dims()
	out := mat.NewDense(len(rows), c, nil)
	for r, i := range rows {
		out.SetRow(r, A.RawRowView(i))
	}
	return out
}

// DecisionValues returns the t×P one-vs-one decision values of the rows of Z (t×d), as
// [SVC.DecisionValues] on [InvariantSVM.Gram], or, with PairModels, column p the
// decision value of pair model p (positive for the pair's first class; the base kernel
// and tangent derivatives of Z against the training points are computed once for all
// pairs). It panics on a column mismatch and returns ctx.Err() if cancelled.
func (m *InvariantSVM) DecisionValues(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	if m.PairModels != nil {
		return m.pairDecisionValues(ctx, Z)
	}
	G, err := m.Gram(ctx, Z)
	if err != nil {
		return nil, err
	}
	return m.SVC.DecisionValues(ctx, G)
}

// voter returns the SVC whose Labels and Pairs define the vote.
func (m *InvariantSVM) voter() *SVC {
	if m.vote != nil {
		return m.vote
	}
	return m.SVC
}

// Classes returns the number of classes.
func (m *InvariantSVM) Classes() int { return m.voter().Classes() }

// Predict returns the predicted label of each row of Z (t×d, raw inputs), by
// svm-predict's one-vs-one vote. It panics on a column mismatch and returns ctx.Err()
// if cancelled.
func (m *InvariantSVM) Predict(ctx context.Context, Z *mat.Dense) ([]int, error) {
	dec, err := m.DecisionValues(ctx, Z)
	if err != nil {
		return nil, err
	}
	return m.voter().Vote(dec), nil
}

// Decision returns the t×k class scores of the rows of Z (raw inputs), as
// [SVC.Decision] does from the decision values (labels must be 0..k-1).
func (m *InvariantSVM) Decision(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	v := m.voter()
	if err := v.checkScoreLabels(); err != nil {
		return nil, err
	}
	dec, err := m.DecisionValues(ctx, Z)
	if err != nil {
		return nil, err
	}
	return v.scores(dec), nil
}

var _ Classifier = (*InvariantSVM)(nil)
