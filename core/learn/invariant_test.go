package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/kernel"
)

// blobImage returns an h×w image of the Gaussian blob a·exp(-((r-r0)² + (c-c0)²)/(2s²)).
func blobImage(h, w int, r0, c0, s, a float64) []float64 {
	x := make([]float64, h*w)
	for r := range h {
		for c := range w {
			dr, dc := float64(r)-r0, float64(c)-c0
			x[r*w+c] = a * math.Exp(-(dr*dr+dc*dc)/(2*s*s))
		}
	}
	return x
}

// blobGrad returns ∂f/∂r and ∂f/∂c of the blob at pixel (r, c).
func blobGrad(r, c int, r0, c0, s, a float64) (gr, gc float64) {
	dr, dc := float64(r)-r0, float64(c)-c0
	f := a * math.Exp(-(dr*dr+dc*dc)/(2*s*s))
	return -dr / (s * s) * f, -dc / (s * s) * f
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, a := range v {
		m = math.Max(m, math.Abs(a))
	}
	return m
}

// taylorBound is the relative error of a central difference with step 1 on a Gaussian of
// standard deviation s: h²/6 · max|f”'| / max|f'| = (1.3801/s³)/6 / (0.6065/s) = 0.3793/s²
// (max |u³ - 3u| e^{-u²/2} = 1.3801 at u = 0.742; max |u| e^{-u²/2} = e^{-1/2}).
func taylorBound(s float64) float64 { return 0.3793 / (s * s) }

// TestTangentsShiftMatchBlobDerivative: the shift tangents of a Gaussian blob are its
// negated partial derivatives, within the Taylor error of the central difference, and
// equal the exact central difference of the sampled blob to rounding.
func TestTangentsShiftMatchBlobDerivative(t *testing.T) {
	const h, w, r0, c0, s = 28, 28, 12.3, 15.7, 3.0
	X := mat.NewDense(1, h*w, blobImage(h, w, r0, c0, s, 1))
	T := Tangents(X, []int{h, w}, []Tangent{TangentHShift, TangentVShift}, 0)
	if r, c := T.Dims(); r != 2 || c != h*w {
		t.Fatalf("tangents are %d×%d, want 2×%d", r, c, h*w)
	}
	hs, vs := T.RawRowView(0), T.RawRowView(1)
	wantH, wantV := make([]float64, h*w), make([]float64, h*w)
	var errH, errV, cdH float64
	for r := range h {
		for c := range w {
			gr, gc := blobGrad(r, c, r0, c0, s, 1)
			wantH[r*w+c], wantV[r*w+c] = -gc, -gr
			errH = math.Max(errH, math.Abs(hs[r*w+c]+gc))
			errV = math.Max(errV, math.Abs(vs[r*w+c]+gr))
			if c > 0 && c < w-1 {
				dr := float64(r) - r0
				fl := math.Exp(-(dr*dr + (float64(c-1)-c0)*(float64(c-1)-c0)) / (2 * s * s))
				fr := math.Exp(-(dr*dr + (float64(c+1)-c0)*(float64(c+1)-c0)) / (2 * s * s))
				cdH = math.Max(cdH, math.Abs(hs[r*w+c]-(fl-fr)/2))
			}
		}
	}
	tol := taylorBound(s) // 4.2%
	if errH > tol*maxAbs(wantH) || errV > tol*maxAbs(wantV) {
		t.Errorf("shift tangents off the analytic derivative by %.3g, %.3g (bound %.3g of max %.3g)", errH, errV, tol, maxAbs(wantH))
	}
	if cdH > 1e-15 {
		t.Errorf("horizontal tangent differs from the central difference by %.3g", cdH)
	}
	t.Logf("max error vs analytic: hshift %.4f, vshift %.4f of max |df| %.4f (Taylor bound %.4f)", errH/maxAbs(wantH), errV/maxAbs(wantV), maxAbs(wantH), tol)
}

// TestTangentsSmoothedBlob: with smoothing σ the tangent is the derivative of the blob
// convolved with a Gaussian, which is the blob with s² + σ² and amplitude s²/(s² + σ²).
// The tolerance adds the Taylor bound for the wider blob and 1% for the sampled,
// truncated smoothing kernel and the border.
func TestTangentsSmoothedBlob(t *testing.T) {
	const h, w, r0, c0, s, sig = 32, 32, 15.2, 16.6, 2.0, 1.0
	X := mat.NewDense(1, h*w, blobImage(h, w, r0, c0, s, 1))
	T := Tangents(X, []int{h, w}, []Tangent{TangentHShift}, sig)
	s2 := math.Sqrt(s*s + sig*sig)
	a := s * s / (s2 * s2)
	want := make([]float64, h*w)
	var e float64
	for r := range h {
		for c := range w {
			_, gc := blobGrad(r, c, r0, c0, s2, a)
			want[r*w+c] = -gc
			e = math.Max(e, math.Abs(T.At(0, r*w+c)+gc))
		}
	}
	if tol := taylorBound(s2) + 0.01; e > tol*maxAbs(want) {
		t.Errorf("smoothed shift tangent off by %.3g of max %.3g (tolerance %.3g)", e/maxAbs(want), maxAbs(want), tol)
	}
}

// TestTangentsRotationMatchBlobDerivative: the rotation tangent of an off-centre blob is
// (c - cx) ∂f/∂r - (r - cy) ∂f/∂c (per radian). Pixel by pixel it stays within the
// Taylor bound of the two central differences, (|v_r| + |v_c|)·max|f₃|/6 with
// max|f₃| = 1.3801/s³ the largest third derivative, plus 1% of the maximum for the O(t)
// bilinear cross terms (see Tangents); and it is within 1% of the exact
// central-difference field.
func TestTangentsRotationMatchBlobDerivative(t *testing.T) {
	const h, w, r0, c0, s = 28, 28, 9.4, 17.2, 3.0
	X := mat.NewDense(1, h*w, blobImage(h, w, r0, c0, s, 1))
	T := Tangents(X, []int{h, w}, []Tangent{TangentRotation}, 0)
	f := func(r, c int) float64 {
		if r < 0 || r >= h || c < 0 || c >= w {
			return 0
		}
		dr, dc := float64(r)-r0, float64(c)-c0
		return math.Exp(-(dr*dr + dc*dc) / (2 * s * s))
	}
	cy, cx := float64(h-1)/2, float64(w-1)/2
	want, cd, bound := make([]float64, h*w), make([]float64, h*w), make([]float64, h*w)
	for r := range h {
		for c := range w {
			gr, gc := blobGrad(r, c, r0, c0, s, 1)
			vr, vc := float64(c)-cx, -(float64(r) - cy)
			want[r*w+c] = vr*gr + vc*gc
			cd[r*w+c] = vr*(f(r+1, c)-f(r-1, c))/2 + vc*(f(r, c+1)-f(r, c-1))/2
			bound[r*w+c] = (math.Abs(vr) + math.Abs(vc)) * 1.3801 / (6 * s * s * s)
		}
	}
	var e, ecd float64
	for p, v := range T.RawRowView(0) {
		if d := math.Abs(v - want[p]); d > bound[p]+0.01*maxAbs(want) {
			t.Fatalf("pixel %d: rotation tangent %.5g, analytic %.5g, beyond the Taylor bound %.3g", p, v, want[p], bound[p])
		}
		e = math.Max(e, math.Abs(v-want[p]))
		ecd = math.Max(ecd, math.Abs(v-cd[p]))
	}
	if ecd > 0.01*maxAbs(cd) {
		t.Errorf("rotation tangent off the central-difference field by %.3g of max", ecd/maxAbs(cd))
	}
	t.Logf("rotation: %.4f of max vs analytic, %.5f vs central differences", e/maxAbs(want), ecd/maxAbs(cd))
}

func TestTangentsPlanePoints(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0.5, -0.25, -1, 2, 0, 0})
	T := Tangents(X, []int{2}, []Tangent{TangentRotation, TangentRotation}, 0)
	for i := range 3 {
		for k := range 2 {
			if T.At(2*i+k, 0) != -X.At(i, 1) || T.At(2*i+k, 1) != X.At(i, 0) {
				t.Fatalf("tangent of point %d is %v, want (%v, %v)", i, T.RawRowView(2*i+k), -X.At(i, 1), X.At(i, 0))
			}
		}
	}
	// It is the derivative of PlaneRotations at 0: (g_t x - g_{-t} x)/(2t) -> (-x2, x1),
	// with error O(t²) = 1e-8 relative at t = 1e-4 rad.
	deg := 1e-4 * 180 / math.Pi
	g := PlaneRotations([]float64{deg, -deg})
	a, b := make([]float64, 2), make([]float64, 2)
	x := X.RawRowView(1)
	g.Apply(a, x, 0)
	g.Apply(b, x, 1)
	for j := range 2 {
		if fd := (a[j] - b[j]) / 2e-4; math.Abs(fd-T.At(2, j)) > 1e-7 {
			t.Errorf("finite difference %v vs tangent %v", fd, T.At(2, j))
		}
	}
}

// plainSVMDecision trains TrainSVC on k's Gram matrix of X and returns its decision values
// on Z.
func plainSVMDecision(t *testing.T, k kernel.Base, X *mat.Dense, y []int, C float64, Z *mat.Dense) *mat.Dense {
	t.Helper()
	return plainSVMDecisionOpts(t, k, X, y, C, Z, nil)
}

// plainSVMDecisionOpts is plainSVMDecision with solver options.
func plainSVMDecisionOpts(t *testing.T, k kernel.Base, X *mat.Dense, y []int, C float64, Z *mat.Dense, opts *SVCOptions) *mat.Dense {
	t.Helper()
	ctx := context.Background()
	K, err := kernel.SymGram(ctx, k, X)
	if err != nil {
		t.Fatal(err)
	}
	m, err := TrainSVC(ctx, K, y, C, opts)
	if err != nil {
		t.Fatal(err)
	}
	G, err := kernel.Gram(ctx, k, Z, X)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := m.DecisionValues(ctx, G)
	if err != nil {
		t.Fatal(err)
	}
	return dec
}

func maxDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	e := 0.0
	for i := range r {
		for j := range c {
			e = math.Max(e, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return e
}

// smallDigits returns n random 8×8 "images" (smooth blobs) in 3 classes.
func smallDigits(n int, rng *rand.Rand) (*mat.Dense, []int) {
	X := mat.NewDense(n, 64, nil)
	y := make([]int, n)
	for i := range n {
		y[i] = i % 3
		X.SetRow(i, blobImage(8, 8, 2+rng.Float64()*4, 1+float64(y[i])*2+rng.Float64(), 1+rng.Float64(), 1))
	}
	return X, y
}

// TestInvariantGammaZeroIsPlainSVM: at γ = 0 the invariant kernel is k itself (the
// tangent term is multiplied by γτ/(1-γ+γτ) = 0), so the model is the plain SVM; the
// decision values agree to 1e-9 on two classes (identical Gram matrices), and to 1e-4 of
// their scale, both solved to Eps 1e-10, on three (per-pair Gram matrices).
func TestInvariantGammaZeroIsPlainSVM(t *testing.T) {
	ctx := context.Background()
	tr := data.Circle(40, rand.New(rand.NewPCG(1, 2)))
	te := data.Circle(300, rand.New(rand.NewPCG(3, 4)))
	for _, k := range []kernel.Base{kernel.RBF{Gamma: 1}, kernel.Poly{Gamma: 1, Degree: 2}, kernel.Linear{}} {
		m, err := TrainInvariantSVM(ctx, tr.X, tr.Y, tr.Shape, InvariantOptions{Kernel: k, C: 10, Tangents: []Tangent{TangentRotation}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.DecisionValues(ctx, te.X)
		if err != nil {
			t.Fatal(err)
		}
		if e := maxDiff(got, plainSVMDecision(t, k, tr.X, tr.Y, 10, te.X)); e > 1e-9 {
			t.Errorf("%s: gamma 0 differs from the plain SVM by %.3g", k.Name(), e)
		}
		if m.TangentRank == 0 {
			t.Errorf("%s: no tangent direction found", k.Name())
		}
	}
	// Three classes: the invariant SVM trains each one-vs-one pair on its own Gram
	// matrix, the plain SVM on entries of the whole one. A BLAS may round an entry
	// differently in the two products (OpenBLAS's AVX-512 kernels do), which can change
	// the solver's path within its tolerance (1e-3: 4e-4 measured), so both solve to
	// Eps 1e-10 here and agree to 1e-4 of the values' scale.
	X, y := smallDigits(45, rand.New(rand.NewPCG(5, 6)))
	Z, _ := smallDigits(30, rand.New(rand.NewPCG(7, 8)))
	k := kernel.RBF{Gamma: 0.2}
	tight := &SVCOptions{Eps: 1e-10}
	m, err := TrainInvariantSVM(ctx, X, y, []int{8, 8}, InvariantOptions{Kernel: k, C: 5, Tangents: []Tangent{TangentHShift, TangentVShift, TangentRotation}, Smooth: 0.5, SVC: tight})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := m.DecisionValues(ctx, Z)
	want := plainSVMDecisionOpts(t, k, X, y, 5, Z, tight)
	if e := maxDiff(got, want); e > 1e-4*(1+mat.Norm(want, math.Inf(1))) {
		t.Errorf("images, 3 classes: gamma 0 differs from the plain SVM by %.3g", e)
	}
}

// explicitInverse returns C_γ^{-1} = ((1-γ) I + γ T/λmax(T))^{-1} for T = Σ v vᵀ over the
// rows of V, formed densely (the textbook computation the model avoids).
func explicitInverse(t *testing.T, V *mat.Dense, gamma float64) *mat.Dense {
	t.Helper()
	_, d := V.Dims()
	var T mat.SymDense
	T.SymOuterK(1, V.T())
	var e mat.EigenSym
	if !e.Factorize(&T, false) {
		t.Fatal("eigen failed")
	}
	vals := e.Values(nil)
	top := vals[len(vals)-1]
	Cg := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			v := gamma * T.At(i, j) / top
			if i == j {
				v += 1 - gamma
			}
			Cg.Set(i, j, v)
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(Cg); err != nil {
		t.Fatal(err)
	}
	return &inv
}

// TestInvariantLinearMatchesExplicit: the linear invariant kernel equals x C_γ^{-1} zᵀ
// with C_γ formed and inverted densely, for tangents spanning part of the space (d = 64
// images, 2 tangents each of 12 points: rank 24 < 64) and all of it (2-D points).
// Tolerance 1e-9 relative: both are backward-stable computations of a matrix with
// condition number 1/(1-γ) = 10.
func TestInvariantLinearMatchesExplicit(t *testing.T) {
	ctx := context.Background()
	const gamma = 0.9
	X, y := smallDigits(12, rand.New(rand.NewPCG(9, 10)))
	Z, _ := smallDigits(7, rand.New(rand.NewPCG(11, 12)))
	kinds := []Tangent{TangentHShift, TangentRotation}
	m, err := TrainInvariantSVM(ctx, X, y, []int{8, 8}, InvariantOptions{C: 1, Gamma: gamma, Tangents: kinds, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.TangentRank != 24 || m.Tau[0] != 1 {
		t.Errorf("tangent rank %d (want 24), tau[0] %v", m.TangentRank, m.Tau[0])
	}
	inv := explicitInverse(t, Tangents(X, []int{8, 8}, kinds, 0), gamma)
	var want, tmp mat.Dense
	tmp.Mul(Z, inv)
	want.Mul(&tmp, X.T())
	got, err := m.Gram(ctx, Z)
	if err != nil {
		t.Fatal(err)
	}
	if e := maxDiff(got, &want); e > 1e-9*mat.Norm(&want, math.Inf(1)) {
		t.Errorf("linear invariant kernel off the explicit one by %.3g", e)
	}

	tr := data.Circle(20, rand.New(rand.NewPCG(13, 14)))
	te := data.Circle(5, rand.New(rand.NewPCG(15, 16)))
	m, err = TrainInvariantSVM(ctx, tr.X, tr.Y, tr.Shape, InvariantOptions{Kernel: kernel.Linear{}, C: 1, Gamma: gamma, Tangents: []Tangent{TangentRotation}})
	if err != nil {
		t.Fatal(err)
	}
	inv = explicitInverse(t, Tangents(tr.X, tr.Shape, []Tangent{TangentRotation}, 0), gamma)
	tmp.Reset()
	want.Reset()
	tmp.Mul(te.X, inv)
	want.Mul(&tmp, tr.X.T())
	got, _ = m.Gram(ctx, te.X)
	if e := maxDiff(got, &want); e > 1e-9*mat.Norm(&want, math.Inf(1)) {
		t.Errorf("2-D linear invariant kernel off the explicit one by %.3g", e)
	}
}

// polyFeatures returns the explicit feature map of the polynomial kernel
// (1 + g<x, z>)^p on 2-D points: the monomials x1^j x2^(k-j), k = 0..p, j = 0..k,
// weighted by sqrt(C(p,k) g^k C(k,j)), so that <Φ(x), Φ(z)> = (1 + g<x, z>)^p by the
// binomial theorem twice.
func polyFeatures(x []float64, g float64, p int) []float64 {
	binom := func(n, k int) float64 {
		b := 1.0
		for i := range k {
			b = b * float64(n-i) / float64(i+1)
		}
		return b
	}
	var f []float64
	for k := 0; k <= p; k++ {
		for j := 0; j <= k; j++ {
			w := math.Sqrt(binom(p, k) * math.Pow(g, float64(k)) * binom(k, j))
			f = append(f, w*math.Pow(x[0], float64(j))*math.Pow(x[1], float64(k-j)))
		}
	}
	return f
}

// TestInvariantKernelMatchesExplicitFeatures checks the kernel method against the
// paper's definition computed in an explicit feature space: for the polynomial kernel
// on 2-D points Φ is finite (polyFeatures), the tangents are dΦ_i = (Φ(x_i + h v_i) -
// Φ(x_i - h v_i))/(2h), C_γ = (1-γ) I + γ T/λ_max(T) is formed and inverted densely,
// and k_γ(z, x) = Φ(z)ᵀ C_γ^{-1} Φ(x). With 4 points (fewer than the 10 features of
// degree 3) the tangents leave the span of the Φ(x_i): a method that projects them
// onto it (kernel PCA of the training points alone) fails this test by far more than
// the tolerance. The tolerance 1e-6 covers the central differences (h = 1e-4, error
// O(h²) on a cubic) amplified by the condition number 1/(1-γ) = 5.
func TestInvariantKernelMatchesExplicitFeatures(t *testing.T) {
	ctx := context.Background()
	const gamma = 0.8
	for _, c := range []struct{ n, p int }{{4, 3}, {12, 2}, {12, 3}} {
		tr := data.Circle(c.n, rand.New(rand.NewPCG(17, uint64(c.n))))
		te := data.Circle(9, rand.New(rand.NewPCG(19, 20)))
		k := kernel.Poly{Gamma: 0.7, Degree: c.p}
		m, err := TrainInvariantSVM(ctx, tr.X, tr.Y, tr.Shape, InvariantOptions{Kernel: k, C: 1, Gamma: gamma, Tangents: []Tangent{TangentRotation}, RelTol: 1e-14})
		if err != nil {
			t.Fatal(err)
		}
		phi := func(Z *mat.Dense) *mat.Dense {
			r, _ := Z.Dims()
			var rows []float64
			for i := range r {
				rows = append(rows, polyFeatures(Z.RawRowView(i), k.Gamma, k.Degree)...)
			}
			return mat.NewDense(r, len(rows)/r, rows)
		}
		const h = 1e-4
		V := Tangents(tr.X, tr.Shape, []Tangent{TangentRotation}, 0)
		plus, minus := mat.DenseCopyOf(tr.X), mat.DenseCopyOf(tr.X)
		for i := range c.n {
			for j := range 2 {
				plus.Set(i, j, tr.X.At(i, j)+h*V.At(i, j))
				minus.Set(i, j, tr.X.At(i, j)-h*V.At(i, j))
			}
		}
		var dphi mat.Dense
		dphi.Sub(phi(plus), phi(minus))
		dphi.Scale(1/(2*h), &dphi)
		inv := explicitInverse(t, &dphi, gamma)
		var want, tmp mat.Dense
		tmp.Mul(phi(te.X), inv)
		want.Mul(&tmp, phi(tr.X).T())
		got, err := m.Gram(ctx, te.X)
		if err != nil {
			t.Fatal(err)
		}
		scale := mat.Norm(&want, math.Inf(1))
		if e := maxDiff(got, &want); e > 1e-6*scale {
			t.Errorf("n %d, degree %d: invariant kernel off the explicit feature-space one by %.3g (scale %.3g)", c.n, c.p, e, scale)
		}
	}
}

// TestKernelTangentDerivatives checks the first and mixed second kernel derivatives
// against central differences of the kernel itself, for RBF, polynomial, linear and a
// kernel without exact partials (a generic f, through the numerical fallback):
//
//	<dφ_a, φ(z)>   ≈ [k(x + h v, z) - k(x - h v, z)] / (2h),
//	<dφ_a, dφ_b>  ≈ [k(x+hv, z+hu) - k(x+hv, z-hu) - k(x-hv, z+hu) + k(x-hv, z-hu)] / (4h²).
//
// Step h = 1e-3 on unit-scale inputs: truncation O(h²) ~ 1e-6, rounding ~1e-16/h² =
// 1e-10; tolerance 1e-5 relative to the largest entry.
func TestKernelTangentDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const n, nk, d = 4, 2, 5
	X := mat.NewDense(n, d, nil)
	V := mat.NewDense(n*nk, d, nil)
	Z := mat.NewDense(3, d, nil)
	for _, M := range []*mat.Dense{X, V, Z} {
		r, c := M.Dims()
		for i := range r {
			for j := range c {
				M.Set(i, j, rng.NormFloat64()*0.5)
			}
		}
	}
	const h = 1e-3
	axpy := func(x []float64, a float64, v []float64) []float64 {
		o := make([]float64, len(x))
		for i := range x {
			o[i] = x[i] + a*v[i]
		}
		return o
	}
	for _, k := range []kernel.Base{kernel.RBF{Gamma: 0.3}, kernel.Poly{Gamma: 0.5, Degree: 3}, kernel.Linear{}, customKernel{}} {
		DK := kernelDerivatives(k, X, V, Z)
		H := tangentGram(k, X, V)
		var worst, top float64
		for a := range n * nk {
			xa, va := X.RawRowView(a/nk), V.RawRowView(a)
			for j := range 3 {
				z := Z.RawRowView(j)
				fd := (k.Eval(axpy(xa, h, va), z) - k.Eval(axpy(xa, -h, va), z)) / (2 * h)
				worst, top = math.Max(worst, math.Abs(fd-DK.At(a, j))), math.Max(top, math.Abs(fd))
			}
			for b := range n * nk {
				xb, vb := X.RawRowView(b/nk), V.RawRowView(b)
				fd := (k.Eval(axpy(xa, h, va), axpy(xb, h, vb)) - k.Eval(axpy(xa, h, va), axpy(xb, -h, vb)) -
					k.Eval(axpy(xa, -h, va), axpy(xb, h, vb)) + k.Eval(axpy(xa, -h, va), axpy(xb, -h, vb))) / (4 * h * h)
				worst, top = math.Max(worst, math.Abs(fd-H.At(a, b))), math.Max(top, math.Abs(fd))
			}
		}
		if worst > 1e-5*top {
			t.Errorf("%s: kernel derivatives off the finite differences by %.3g (scale %.3g)", k.Name(), worst, top)
		}
	}
}

// customKernel is k(x, z) = exp(<x, z>/2) / (1 + ||x||² ||z||²/10), a kernel the
// derivative code knows only through FromDot (the numerical partials).
type customKernel struct{}

func (customKernel) Name() string { return "custom" }
func (c customKernel) Eval(x, z []float64) float64 {
	var d, xx, zz float64
	for i := range x {
		d, xx, zz = d+x[i]*z[i], xx+x[i]*x[i], zz+z[i]*z[i]
	}
	return c.FromDot(d, xx, zz)
}
func (customKernel) FromDot(d, xx, zz float64) float64 { return math.Exp(d/2) / (1 + xx*zz/10) }
func (customKernel) Validate() error                   { return nil }

// TestInvariantWithoutTransformationIsPlainSVM: with no tangent kind, or tangent
// vectors that are all zero, T = 0 and C_γ = (1-γ) I, so the problem is
// min (1-γ)/2 ||w||² + C Σ ξ_i: the plain SVM with cost C/(1-γ), and at γ = 0 the plain
// SVM itself. (The kernel is k/(1-γ) with cost C; its dual variables are (1-γ) times
// those of k with cost C/(1-γ), and the decision values are the same.) At γ = 0 the
// Gram matrices are identical and the decision values agree to 1e-9. At γ = 0.9 the
// two SMO runs see kernels that differ by a factor, rounded differently in the
// float32 kernel cache (6e-8 relative), so both are solved to Eps = 1e-10 and compared
// to 1e-4 relative: the rounding amplified by the rank-deficient Grams of 2-D data
// (measured up to 1e-5); a wrong cost or scale would be off by O(1).
func TestInvariantWithoutTransformationIsPlainSVM(t *testing.T) {
	ctx := context.Background()
	tr := data.Circle(40, rand.New(rand.NewPCG(1, 2)))
	te := data.Circle(300, rand.New(rand.NewPCG(3, 4)))
	X, y := smallDigits(45, rand.New(rand.NewPCG(5, 6)))
	Z, _ := smallDigits(30, rand.New(rand.NewPCG(7, 8)))
	for _, g := range []float64{0, 0.9} {
		var opts *SVCOptions
		rel := 1e-9
		if g > 0 {
			opts, rel = &SVCOptions{Eps: 1e-10}, 1e-4
		}
		for _, k := range []kernel.Base{kernel.RBF{Gamma: 1}, kernel.Poly{Gamma: 1, Degree: 2}, kernel.Linear{}} {
			want := plainSVMDecisionOpts(t, k, tr.X, tr.Y, 10/(1-g), te.X, opts)
			tol := rel * (1 + mat.Norm(want, math.Inf(1)))
			for name, o := range map[string]InvariantOptions{
				"no tangents":   {Kernel: k, C: 10, Gamma: g, SVC: opts},
				"zero tangents": {Kernel: k, C: 10, Gamma: g, SVC: opts, TangentVectors: mat.NewDense(40, 2, nil)},
			} {
				m, err := TrainInvariantSVM(ctx, tr.X, tr.Y, tr.Shape, o)
				if err != nil {
					t.Fatal(err)
				}
				if m.TangentRank != 0 {
					t.Errorf("gamma %g, %s, %s: tangent rank %d, want 0", g, k.Name(), name, m.TangentRank)
				}
				got, err := m.DecisionValues(ctx, te.X)
				if err != nil {
					t.Fatal(err)
				}
				if e := maxDiff(got, want); e > tol {
					t.Errorf("gamma %g, %s, %s: differs from the plain SVM (C/(1-gamma)) by %.3g (scale %.3g)", g, k.Name(), name, e, mat.Norm(want, math.Inf(1)))
				}
			}
		}
		k := kernel.RBF{Gamma: 0.2}
		// Three classes: per-pair Gram matrices against entries of the whole one, which a
		// BLAS may round differently (TestInvariantGammaZeroIsPlainSVM): solve tightly.
		po, prel := opts, rel
		if po == nil {
			po, prel = &SVCOptions{Eps: 1e-10}, 1e-4
		}
		m, err := TrainInvariantSVM(ctx, X, y, []int{8, 8}, InvariantOptions{Kernel: k, C: 5, Gamma: g, SVC: po})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := m.DecisionValues(ctx, Z)
		want := plainSVMDecisionOpts(t, k, X, y, 5/(1-g), Z, po)
		if e := maxDiff(got, want); e > prel*(1+mat.Norm(want, math.Inf(1))) {
			t.Errorf("gamma %g, images, 3 classes: no-tangent model differs from the plain SVM by %.3g", g, e)
		}
	}
}

// TestInvariantFlatAlongTrainingTangents: the point of the method. As γ -> 1 the
// decision function of each one-vs-one pair becomes constant along the tangents of the
// training points it was built from (all points with a shared C_γ, the pair's own
// points by default): its directional derivatives D_{v_a} f_p(x_{i(a)}) (central
// differences, step 1e-4), relative to |f_p| at the training points, shrink against
// those of the plain SVM. At γ = 0.99999 less than 5% must remain (RBF; the 2-D toy
// with rotations, and 8×8 images in 3 classes with shifts and rotation, shared and per
// pair). Measured: 0.09% (toy), 1.4% (images, shared); projecting the tangents onto
// the span of the training points (a kernel PCA of the training points alone, this
// package's earlier method) left 50% on the images at any γ.
func TestInvariantFlatAlongTrainingTangents(t *testing.T) {
	ctx := context.Background()
	tr := data.Circle(30, rand.New(rand.NewPCG(41, 42)))
	X, y := smallDigits(30, rand.New(rand.NewPCG(43, 44)))
	for _, c := range []struct {
		name   string
		X      *mat.Dense
		y      []int
		shape  []int
		k      kernel.Base
		kinds  []Tangent
		shared bool
	}{
		{"circle", tr.X, tr.Y, tr.Shape, kernel.RBF{Gamma: 1}, []Tangent{TangentRotation}, false},
		{"8x8 images, shared", X, y, []int{8, 8}, kernel.RBF{Gamma: 0.05}, []Tangent{TangentHShift, TangentVShift, TangentRotation}, true},
		{"8x8 images, per pair", X, y, []int{8, 8}, kernel.RBF{Gamma: 0.05}, []Tangent{TangentHShift, TangentVShift, TangentRotation}, false},
	} {
		V := Tangents(c.X, c.shape, c.kinds, 0)
		n, d := c.X.Dims()
		nv, _ := V.Dims()
		nk := nv / n
		const h = 1e-4
		plus, minus := mat.NewDense(nv, d, nil), mat.NewDense(nv, d, nil)
		for a := range nv {
			for j := range d {
				plus.Set(a, j, c.X.At(a/nk, j)+h*V.At(a, j))
				minus.Set(a, j, c.X.At(a/nk, j)-h*V.At(a, j))
			}
		}
		slope := func(g float64) float64 {
			m, err := TrainInvariantSVM(ctx, c.X, c.y, c.shape, InvariantOptions{Kernel: c.k, C: 1000, Gamma: g, Tangents: c.kinds, Shared: c.shared})
			if err != nil {
				t.Fatal(err)
			}
			v := m.voter()
			// in reports whether training point i belongs to pair p's classes.
			in := func(i, p int) bool {
				pr := v.Pairs[p]
				return c.shared || c.y[i] == v.Labels[pr.I] || c.y[i] == v.Labels[pr.J]
			}
			fp, _ := m.DecisionValues(ctx, plus)
			fm, _ := m.DecisionValues(ctx, minus)
			f0, _ := m.DecisionValues(ctx, c.X)
			// Mean |D_v f_p| over the tangents and pairs concerned, relative to the
			// mean |f_p| at those training points (the SVM's scale changes with γ).
			var ds, fs float64
			var nd, nf int
			_, np := fp.Dims()
			for p := range np {
				for a := range nv {
					if in(a/nk, p) {
						ds += math.Abs(fp.At(a, p)-fm.At(a, p)) / (2 * h)
						nd++
					}
				}
				for i := range n {
					if in(i, p) {
						fs += math.Abs(f0.At(i, p))
						nf++
					}
				}
			}
			return (ds / float64(nd)) / (fs / float64(nf))
		}
		s0, s1 := slope(0), slope(0.99999)
		t.Logf("%s: relative tangent slope of f: gamma 0 %.4g, gamma 0.99999 %.4g (ratio %.3g)", c.name, s0, s1, s1/s0)
		if !(s1 < 0.05*s0) {
			t.Errorf("%s: gamma 0.99999 leaves %.3g of the tangent slope (want < 0.05)", c.name, s1/s0)
		}
	}
}

// TestInvariantPairsAreBinaryModels: with more than two classes and no Shared option,
// decision column p is the binary invariant SVM trained on the points of pair p's two
// classes alone (class I's points labelled 0 first, then class J's labelled 1), to
// 1e-12 (the same computation); Predict is the argmax of Decision, and the per-pair
// model differs from the shared one (the property the option exists for).
func TestInvariantPairsAreBinaryModels(t *testing.T) {
	ctx := context.Background()
	X, y := smallDigits(36, rand.New(rand.NewPCG(51, 52)))
	Z, _ := smallDigits(20, rand.New(rand.NewPCG(53, 54)))
	kinds := []Tangent{TangentHShift, TangentRotation}
	o := InvariantOptions{Kernel: kernel.RBF{Gamma: 0.1}, C: 10, Gamma: 0.9, Tangents: kinds}
	m, err := TrainInvariantSVM(ctx, X, y, []int{8, 8}, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.PairModels) != 3 || m.SVC != nil {
		t.Fatalf("%d pair models (want 3), shared SVC %v", len(m.PairModels), m.SVC != nil)
	}
	dec, err := m.DecisionValues(ctx, Z)
	if err != nil {
		t.Fatal(err)
	}
	for p, pr := range m.voter().Pairs {
		var rows []float64
		var yp []int
		for c, lab := range []int{m.Labels[pr.I], m.Labels[pr.J]} {
			for i, l := range y {
				if l == lab {
					rows, yp = append(rows, X.RawRowView(i)...), append(yp, c)
				}
			}
		}
		b, err := TrainInvariantSVM(ctx, mat.NewDense(len(yp), 64, rows), yp, []int{8, 8}, o)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := b.DecisionValues(ctx, Z)
		for r := range 20 {
			if e := math.Abs(dec.At(r, p) - want.At(r, 0)); e > 1e-12*(1+math.Abs(want.At(r, 0))) {
				t.Fatalf("pair %d (%d, %d), row %d: %v, binary model %v", p, pr.I, pr.J, r, dec.At(r, p), want.At(r, 0))
			}
		}
	}
	pred, _ := m.Predict(ctx, Z)
	sc, err := m.Decision(ctx, Z)
	if err != nil {
		t.Fatal(err)
	}
	if am := Argmax(sc); !slices.Equal(am, pred) {
		t.Errorf("Predict %v, argmax of Decision %v", pred, am)
	}
	o.Shared = true
	sh, err := TrainInvariantSVM(ctx, X, y, []int{8, 8}, o)
	if err != nil {
		t.Fatal(err)
	}
	ds, _ := sh.DecisionValues(ctx, Z)
	if e := maxDiff(ds, dec); e < 1e-3 {
		t.Errorf("shared and per-pair models agree to %.3g: the pairs did not get their own C_gamma", e)
	}
}

// TestInvariantReducesVariationAlongTangents: as γ grows the decision function of the toy
// problem varies less under small rotations (its derivative along the rotation tangent,
// measured by finite differences on test points, shrinks).
func TestInvariantReducesVariationAlongTangents(t *testing.T) {
	ctx := context.Background()
	tr := data.Circle(30, rand.New(rand.NewPCG(21, 22)))
	te := data.Circle(200, rand.New(rand.NewPCG(23, 24)))
	rot := PlaneRotations([]float64{1})
	moved := mat.NewDense(200, 2, nil)
	for i := range 200 {
		rot.Apply(moved.RawRowView(i), te.X.RawRowView(i), 0)
	}
	prev := math.Inf(1)
	for _, g := range []float64{0, 0.9, 0.999} {
		m, err := TrainInvariantSVM(ctx, tr.X, tr.Y, tr.Shape, InvariantOptions{Kernel: kernel.RBF{Gamma: 0.5}, C: 10, Gamma: g, Tangents: []Tangent{TangentRotation}})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := m.DecisionValues(ctx, te.X)
		b, _ := m.DecisionValues(ctx, moved)
		// Relative variation: mean |f(Rx) - f(x)| over the mean |f(x)|.
		var dv, fv float64
		for i := range 200 {
			dv += math.Abs(b.At(i, 0) - a.At(i, 0))
			fv += math.Abs(a.At(i, 0))
		}
		rel := dv / fv
		t.Logf("gamma %g: relative change of f under a 1° rotation %.4g", g, rel)
		if rel >= prev {
			t.Errorf("gamma %g: variation %.4g did not shrink (previous %.4g)", g, rel, prev)
		}
		prev = rel
	}
}

func TestInvariantErrors(t *testing.T) {
	ctx := context.Background()
	tr := data.Circle(10, rand.New(rand.NewPCG(1, 1)))
	for name, o := range map[string]InvariantOptions{
		"gamma 1":        {C: 1, Gamma: 1},
		"gamma negative": {C: 1, Gamma: -0.1},
		"shift on 2-D":   {C: 1, Tangents: []Tangent{TangentHShift}},
		"unknown kind":   {C: 1, Tangents: []Tangent{Tangent(9)}},
		"bad kernel":     {C: 1, Kernel: kernel.RBF{Gamma: -1}},
		"bad C":          {C: 0},
		"neg smooth":     {C: 1, Smooth: -1},
		"neg tol":        {C: 1, RelTol: -1},
	} {
		if _, err := TrainInvariantSVM(ctx, tr.X, tr.Y, tr.Shape, o); err == nil {
			t.Errorf("%s: no error", name)
		} else if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), ":") {
			t.Errorf("%s: error %q is not one line naming a fix", name, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := TrainInvariantSVM(cctx, tr.X, tr.Y, tr.Shape, InvariantOptions{C: 1, Kernel: kernel.RBF{Gamma: 1}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "learn: ") {
			t.Errorf("label mismatch: panic %v", r)
		}
	}()
	TrainInvariantSVM(ctx, tr.X, tr.Y[:5], tr.Shape, InvariantOptions{C: 1})
}
