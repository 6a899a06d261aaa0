package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// blobs returns n samples in d dimensions from k Gaussian classes (means drawn with
// spread sep), with the columns listed in constCols set to a constant, so that the
// classes are learnable but overlap.
func rlsBlobs(rnd *rand.Rand, n, d, k int, sep float64, constCols ...int) (*mat.Dense, []int) {
	means := mat.NewDense(k, d, nil)
	for i := range k {
		for j := range d {
			means.Set(i, j, sep*rnd.NormFloat64())
		}
	}
	x := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := range n {
		c := i % k
		y[i] = c
		for j := range d {
			x.Set(i, j, means.At(c, j)+rnd.NormFloat64())
		}
	}
	for _, j := range constCols {
		for i := range n {
			x.Set(i, j, 0.75)
		}
	}
	return x, y
}

// refRLS solves the augmented normal equations of RLS with an unpenalised intercept
// directly (LU on the (D+1)×(D+1) system, all columns kept), the reference for the
// tridiagonal route:
//
//	[n      1ᵀF        ] [b]   [1ᵀY]
//	[Fᵀ1    FᵀF + σ I  ] [w] = [FᵀY]
func refRLS(t *testing.T, f *mat.Dense, y []int, k int, sigma float64) (w *mat.Dense, b []float64) {
	t.Helper()
	n, d := f.Dims()
	x := mat.NewDense(n, d+1, nil)
	for i := range n {
		x.Set(i, 0, 1)
		for j := range d {
			x.Set(i, j+1, f.At(i, j))
		}
	}
	yt, err := OneVsAll(y, k)
	if err != nil {
		t.Fatal(err)
	}
	var a mat.Dense
	a.Mul(x.T(), x)
	for j := 1; j <= d; j++ {
		a.Set(j, j, a.At(j, j)+sigma)
	}
	var rhs, beta mat.Dense
	rhs.Mul(x.T(), yt)
	if err := beta.Solve(&a, &rhs); err != nil {
		t.Fatalf("reference solve: %v", err)
	}
	b = make([]float64, k)
	for c := range k {
		b[c] = beta.At(0, c)
	}
	return mat.DenseCopyOf(beta.Slice(1, d+1, 0, k)), b
}

// refKernelRLS solves the kernel RLS system with an unpenalised intercept directly:
//
//	[K + σ I  1] [C ]   [Y]
//	[1ᵀ       0] [bᵀ] = [0]
func refKernelRLS(t *testing.T, kmat mat.Symmetric, y []int, k int, sigma float64) (c *mat.Dense, b []float64) {
	t.Helper()
	n := kmat.SymmetricDim()
	a := mat.NewDense(n+1, n+1, nil)
	for i := range n {
		for j := range n {
			a.Set(i, j, kmat.At(i, j))
		}
		a.Set(i, i, a.At(i, i)+sigma)
		a.Set(i, n, 1)
		a.Set(n, i, 1)
	}
	yt, err := OneVsAll(y, k)
	if err != nil {
		t.Fatal(err)
	}
	rhs := mat.NewDense(n+1, k, nil)
	rhs.Slice(0, n, 0, k).(*mat.Dense).Copy(yt)
	var sol mat.Dense
	if err := sol.Solve(a, rhs); err != nil {
		t.Fatalf("reference solve: %v", err)
	}
	b = make([]float64, k)
	for j := range k {
		b[j] = sol.At(n, j)
	}
	return mat.DenseCopyOf(sol.Slice(0, n, 0, k)), b
}

func maxRelDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	scale := math.Max(mat.Norm(a, math.Inf(1)), mat.Norm(b, math.Inf(1)))
	if scale == 0 {
		scale = 1
	}
	m := 0.0
	for i := range r {
		for j := range c {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m / scale
}

func TestRLSNormalEquations(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		n, d int
		form Form
	}{{80, 12, FormPrimal}, {80, 12, FormDual}, {30, 50, FormDual}, {30, 50, FormPrimal}} {
		f, y := rlsBlobs(rnd, tc.n, tc.d, 3, 1, 2, 7)
		for _, rel := range []float64{1, 1e-3, 1e-6, 1e-9, 1e-12} {
			t.Run(fmt.Sprintf("n=%d/d=%d/%v/rel=%g", tc.n, tc.d, tc.form, rel), func(t *testing.T) {
				m, err := FitRLS(ctx, f, y, 3, RLSOptions{Grid: []float64{rel}, Form: tc.form})
				if err != nil {
					t.Fatal(err)
				}
				if m.Info.Form != tc.form {
					t.Fatalf("form %v, want %v", m.Info.Form, tc.form)
				}
				// Constant columns 2 and 7 must get zero weight.
				for _, j := range []int{2, 7} {
					for c := range 3 {
						if m.W.At(j, c) != 0 {
							t.Fatalf("weight of constant column %d is %g", j, m.W.At(j, c))
						}
					}
				}
				sigma := float64(tc.n) * m.Info.Lambda
				// Centred normal equations (F_cᵀF_c + σI) w = F_cᵀY and b = meanOf(Y) - muᵀw.
				fc := centred(f)
				yt, _ := OneVsAll(y, 3)
				var a, lhs, rhs, res mat.Dense
				a.Mul(fc.T(), fc)
				for j := range tc.d {
					a.Set(j, j, a.At(j, j)+sigma)
				}
				lhs.Mul(&a, m.W)
				rhs.Mul(fc.T(), yt)
				res.Sub(&lhs, &rhs)
				// Normwise backward error: eps·poly(d) for a backward-stable solver, so 1e-12
				// leaves three orders of margin over the 2e-16·d² worst case seen here.
				eta := mat.Norm(&res, 2) / (mat.Norm(&a, 2)*mat.Norm(m.W, 2) + mat.Norm(&rhs, 2))
				tol := 1e-12
				if tc.form == FormDual && tc.n > tc.d+1 {
					// A rank-deficient Gram matrix (n > D+1) puts components of size 1/σ in the
					// null space of K into c; w = F_cᵀc cancels them only to eps·|c|, so the
					// dual route's backward error grows as eps/rho. FormAuto never picks it.
					tol = math.Max(tol, 10*machEps/rel)
				}
				if eta > tol {
					t.Errorf("backward error %.3g > %.3g", eta, tol)
				}
				// The relative residual itself (the brief's 1e-8), for condition numbers up to
				// 1e6 where eps·cond stays below it.
				if rel >= 1e-6 {
					if r := mat.Norm(&res, 2) / mat.Norm(&rhs, 2); r > 1e-8 {
						t.Errorf("relative residual %.3g > 1e-8", r)
					}
				}
				mu := colMeans(f)
				for c := range 3 {
					want := meanOf(mat.Col(nil, c, yt)) - floats.Dot(mu, mat.Col(nil, c, m.W))
					if d := math.Abs(m.B[c] - want); d > 1e-10*(1+math.Abs(want)) {
						t.Errorf("intercept %d: %g, want %g", c, m.B[c], want)
					}
				}
			})
		}
	}
}

func centred(f *mat.Dense) *mat.Dense {
	n, d := f.Dims()
	mu := colMeans(f)
	out := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			out.Set(i, j, f.At(i, j)-mu[j])
		}
	}
	return out
}

func colMeans(f *mat.Dense) []float64 {
	n, d := f.Dims()
	mu := make([]float64, d)
	for j := range d {
		mu[j] = meanOf(mat.Col(nil, j, f))
	}
	_ = n
	return mu
}

func meanOf(x []float64) float64 { return floats.Sum(x) / float64(len(x)) }

// TestRLSDecisionDirectSolve: the tridiagonal route equals a direct LU solve of the
// augmented system, on training and test points, in both forms.
func TestRLSDecisionDirectSolve(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(2, 1))
	for _, form := range []Form{FormPrimal, FormDual} {
		f, y := rlsBlobs(rnd, 60, 10, 4, 1, 3)
		ft, _ := rlsBlobs(rnd, 25, 10, 4, 1)
		for _, lambda := range []float64{1, 1e-2, 1e-5} {
			m, err := FitRLS(ctx, f, y, 4, RLSOptions{Fixed: true, Lambda: lambda, Form: form})
			if err != nil {
				t.Fatal(err)
			}
			w, b := refRLS(t, f, y, 4, 60*lambda)
			got, err := m.Decision(ctx, ft)
			if err != nil {
				t.Fatal(err)
			}
			var want mat.Dense
			want.Mul(ft, w)
			for i := range 25 {
				for c := range 4 {
					want.Set(i, c, want.At(i, c)+b[c])
				}
			}
			// Condition number of the reference system is below 1e5 here: 1e-9 is ample.
			if d := maxRelDiff(got, &want); d > 1e-9 {
				t.Errorf("%v lambda=%g: decision differs from direct solve by %.3g", form, lambda, d)
			}
		}
	}
}

// TestRLSLOOBruteForce: the leave-one-out residuals from one tridiagonal reduction equal
// those of n refits, each leaving one sample out (same penalty σ = nλ), to 1e-8.
func TestRLSLOOBruteForce(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(3, 1))
	const n, d, k = 28, 7, 3
	f, y := rlsBlobs(rnd, n, d, k, 0.8, 4)
	sigmas := []float64{10, 0.5, 1e-3}
	for _, form := range []Form{FormPrimal, FormDual} {
		fp, err := prepareFeatures(ctx, f, y, k, form)
		if err != nil {
			t.Fatal(err)
		}
		got := looResiduals(t, fp.p, sigmas)
		for l, s := range sigmas {
			for i := range n {
				keep := without(n, i)
				fi := rowsOf(f, keep)
				w, b := refRLS(t, fi, subset(y, keep), k, s)
				for c := range k {
					pred := floats.Dot(f.RawRowView(i), mat.Col(nil, c, w)) + b[c]
					target := -1.0
					if y[i] == c {
						target = 1
					}
					want := target - pred
					if e := got[l][i*k+c]; math.Abs(e-want) > 1e-8*(1+math.Abs(want)) {
						t.Fatalf("%v sigma=%g sample %d class %d: LOO residual %.12g, brute force %.12g", form, s, i, c, e, want)
					}
				}
			}
		}
	}
	// Kernel form on a Gaussian kernel (not a linear one).
	kmat := gaussGram(f, 0.1)
	p, err := prepareKernel(ctx, kmat, y, k)
	if err != nil {
		t.Fatal(err)
	}
	got := looResiduals(t, p, sigmas)
	for l, s := range sigmas {
		for i := range n {
			keep := without(n, i)
			ki := mat.NewSymDense(n-1, nil)
			for a, ia := range keep {
				for b, ib := range keep {
					ki.SetSym(a, b, kmat.At(ia, ib))
				}
			}
			cc, b := refKernelRLS(t, ki, subset(y, keep), k, s)
			for c := range k {
				pred := b[c]
				for a, ia := range keep {
					pred += kmat.At(i, ia) * cc.At(a, c)
				}
				target := -1.0
				if y[i] == c {
					target = 1
				}
				want := target - pred
				if e := got[l][i*k+c]; math.Abs(e-want) > 1e-8*(1+math.Abs(want)) {
					t.Fatalf("kernel sigma=%g sample %d class %d: LOO residual %.12g, brute force %.12g", s, i, c, e, want)
				}
			}
		}
	}
}

// looResiduals collects the leave-one-out residuals of p at each sigma (n×k row-major).
func looResiduals(t *testing.T, p *looProblem, sigmas []float64) [][]float64 {
	t.Helper()
	out := make([][]float64, len(sigmas))
	for l := range out {
		out[l] = make([]float64, p.n*p.k)
	}
	var mu sync.Mutex
	res, err := p.path(context.Background(), sigmas, func(l, i int, e []float64) {
		mu.Lock()
		copy(out[l][i*p.k:], e)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	for l, ok := range res.ok {
		if !ok {
			t.Fatalf("sigma %g: not positive definite", sigmas[l])
		}
		// The aggregated criterion must match the residuals it was built from.
		hit, sq := 0, 0.0
		for i := range p.n {
			e := out[l][i*p.k : (i+1)*p.k]
			best, arg := math.Inf(-1), 0
			for c := range p.k {
				sq += e[c] * e[c]
				if v := p.y[i*p.k+c] - e[c]; v > best {
					best, arg = v, c
				}
			}
			if arg == p.labels[i] {
				hit++
			}
		}
		if acc := float64(hit) / float64(p.n); acc != res.acc[l] {
			t.Errorf("sigma %g: path accuracy %g, residuals give %g", sigmas[l], res.acc[l], acc)
		}
		if mse := sq / float64(p.n*p.k); math.Abs(mse-res.mse[l]) > 1e-12*mse {
			t.Errorf("sigma %g: path mse %g, residuals give %g", sigmas[l], res.mse[l], mse)
		}
	}
	return out
}

func gaussGram(f *mat.Dense, gamma float64) *mat.SymDense {
	n, _ := f.Dims()
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			d2 := 0.0
			for c, v := range f.RawRowView(i) {
				dv := v - f.At(j, c)
				d2 += dv * dv
			}
			k.SetSym(i, j, math.Exp(-gamma*d2))
		}
	}
	return k
}

func without(n, i int) []int {
	out := make([]int, 0, n-1)
	for j := range n {
		if j != i {
			out = append(out, j)
		}
	}
	return out
}

func rowsOf(f *mat.Dense, idx []int) *mat.Dense {
	_, d := f.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for a, i := range idx {
		out.SetRow(a, f.RawRowView(i))
	}
	return out
}

func subset(y []int, idx []int) []int {
	out := make([]int, len(idx))
	for a, i := range idx {
		out[a] = y[i]
	}
	return out
}

// TestRLSPrimalDualKernelAgree: primal, dual and kernel (linear Gram, plus a constant,
// which the unpenalised intercept absorbs) give the same model and the same LOO path.
func TestRLSPrimalDualKernelAgree(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(4, 1))
	for _, sz := range []struct{ n, d int }{{50, 20}, {25, 40}} {
		f, y := rlsBlobs(rnd, sz.n, sz.d, 3, 0.7, 0)
		ft, _ := rlsBlobs(rnd, 10, sz.d, 3, 0.7)
		grid := []float64{1, 1e-2, 1e-4, 1e-7}
		mp, err := FitRLS(ctx, f, y, 3, RLSOptions{Grid: grid, Form: FormPrimal})
		if err != nil {
			t.Fatal(err)
		}
		md, err := FitRLS(ctx, f, y, 3, RLSOptions{Grid: grid, Form: FormDual})
		if err != nil {
			t.Fatal(err)
		}
		var kf mat.Dense
		kf.Mul(f, f.T())
		ks := mat.NewSymDense(sz.n, nil)
		for i := range sz.n {
			for j := i; j < sz.n; j++ {
				ks.SetSym(i, j, kf.At(i, j)+1)
			}
		}
		// The primal grid is relative to the covariance's e_max, the kernel's to the
		// centred Gram's: the same nonzero spectrum, so the same lambdas.
		mk, err := FitKernelRLS(ctx, ks, y, 3, RLSOptions{Grid: grid})
		if err != nil {
			t.Fatal(err)
		}
		if r := math.Abs(mp.Info.EMax-mk.Info.EMax) / mp.Info.EMax; r > 1e-10 {
			t.Errorf("e_max primal %g kernel %g", mp.Info.EMax, mk.Info.EMax)
		}
		for l := range grid {
			for _, other := range []RLSInfo{md.Info, mk.Info} {
				if math.Abs(mp.Info.Path.MSE[l]-other.Path.MSE[l]) > 1e-8*mp.Info.Path.MSE[l] ||
					mp.Info.Path.Accuracy[l] != other.Path.Accuracy[l] {
					t.Errorf("n=%d d=%d rel=%g: primal LOO (%g, %g), %v LOO (%g, %g)", sz.n, sz.d, grid[l],
						mp.Info.Path.Accuracy[l], mp.Info.Path.MSE[l], other.Form, other.Path.Accuracy[l], other.Path.MSE[l])
				}
			}
		}
		if d := maxRelDiff(mp.W, md.W); d > 1e-8 {
			t.Errorf("primal and dual weights differ by %.3g", d)
		}
		sp, _ := mp.Decision(ctx, ft)
		var kt mat.Dense
		kt.Mul(ft, f.T())
		for i := range 10 {
			for j := range sz.n {
				kt.Set(i, j, kt.At(i, j)+1)
			}
		}
		sk, _ := mk.Decision(ctx, &kt)
		if d := maxRelDiff(sp, sk); d > 1e-8 {
			t.Errorf("n=%d d=%d: primal and kernel decisions differ by %.3g (lambda %g vs %g)", sz.n, sz.d, d, mp.Info.Lambda, mk.Info.Lambda)
		}
		for c := range 3 {
			if s := floats.Sum(mat.Col(nil, c, mk.C)); math.Abs(s) > 1e-8*mat.Norm(mk.C, 1) {
				t.Errorf("kernel coefficients of class %d sum to %g, want 0", c, s)
			}
		}
	}
}

// TestRLSSelectsLOOArgmax: the chosen lambda is the best of the path by the documented
// rule, and refitting at that fixed lambda gives the same model.
func TestRLSSelectsLOOArgmax(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(5, 1))
	f, y := rlsBlobs(rnd, 120, 30, 4, 0.35)
	m, err := FitRLS(ctx, f, y, 4, RLSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Info.Path
	if len(p.Lambda) != 25 {
		t.Fatalf("default grid has %d values, want 25", len(p.Lambda))
	}
	for l := range p.Lambda {
		if l == p.Best || math.IsNaN(p.Accuracy[l]) {
			continue
		}
		if p.Accuracy[l] > p.Accuracy[p.Best] ||
			(p.Accuracy[l] == p.Accuracy[p.Best] && p.MSE[l] < p.MSE[p.Best]) {
			t.Errorf("candidate %d (acc %g, mse %g) beats chosen %d (acc %g, mse %g)", l, p.Accuracy[l], p.MSE[l], p.Best, p.Accuracy[p.Best], p.MSE[p.Best])
		}
	}
	if m.Info.Lambda != p.Lambda[p.Best] {
		t.Errorf("info lambda %g, path lambda %g", m.Info.Lambda, p.Lambda[p.Best])
	}
	// Not degenerate: the path varies, and the chosen point is not the grid's edge only
	// because everything ties.
	if floats.Min(p.Accuracy) == floats.Max(p.Accuracy) {
		t.Errorf("LOO accuracy constant over the grid: %v", p.Accuracy)
	}
	mf, err := FitRLS(ctx, f, y, 4, RLSOptions{Fixed: true, Lambda: m.Info.Lambda})
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRelDiff(m.W, mf.W); d > 1e-12 {
		t.Errorf("refit at the chosen lambda differs by %.3g", d)
	}
	if mf.Info.Path.Accuracy[0] != p.Accuracy[p.Best] {
		t.Errorf("fixed-lambda LOO accuracy %g, path %g", mf.Info.Path.Accuracy[0], p.Accuracy[p.Best])
	}
	t.Logf("chosen lambda %.3g (relative %.3g), LOO accuracy %.3f", m.Info.Lambda, m.Info.Relative, m.Info.LOOAccuracy())
}

// TestRLSZeroLambda: lambda = 0 is ordinary least squares (QR reference) when F_c has
// full column rank, and the minimum-norm solution when a column is duplicated.
func TestRLSZeroLambda(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(6, 1))
	f, y := rlsBlobs(rnd, 40, 6, 2, 1)
	m, err := FitRLS(ctx, f, y, 2, RLSOptions{Fixed: true})
	if err != nil {
		t.Fatal(err)
	}
	n, d := f.Dims()
	x := mat.NewDense(n, d+1, nil)
	for i := range n {
		x.Set(i, 0, 1)
		for j := range d {
			x.Set(i, j+1, f.At(i, j))
		}
	}
	yt, _ := OneVsAll(y, 2)
	var beta mat.Dense
	if err := beta.Solve(x, yt); err != nil { // QR least squares
		t.Fatal(err)
	}
	if diff := maxRelDiff(m.W, beta.Slice(1, d+1, 0, 2)); diff > 1e-10 {
		t.Errorf("lambda=0 differs from least squares by %.3g", diff)
	}
	// Duplicate column 0 as column 6: the minimum-norm solution halves its weight.
	f2 := mat.NewDense(n, d+1, nil)
	for i := range n {
		for j := range d {
			f2.Set(i, j, f.At(i, j))
		}
		f2.Set(i, d, f.At(i, 0))
	}
	m2, err := FitRLS(ctx, f2, y, 2, RLSOptions{Fixed: true})
	if err != nil {
		t.Fatal(err)
	}
	for c := range 2 {
		w0, w6 := m2.W.At(0, c), m2.W.At(d, c)
		if math.Abs(w0-w6) > 1e-8*math.Abs(w0) || math.Abs(w0+w6-beta.At(1, c)) > 1e-8*math.Abs(beta.At(1, c)) {
			t.Errorf("class %d: duplicated weights %g, %g; want both %g", c, w0, w6, beta.At(1, c)/2)
		}
	}
}

// TestRLSTinyLambdaCollinear: CDF-like features (indicators of thresholds, strongly
// collinear) at relative lambda down to 1e-12 still satisfy the normal equations to
// rounding level (FINDINGS: RLS picks relative 1e-9..1e-6 on such features).
func TestRLSTinyLambdaCollinear(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(7, 1))
	const n, m, bins = 150, 12, 11
	proj := make([]float64, m)
	f := mat.NewDense(n, m*bins, nil)
	y := make([]int, n)
	for i := range n {
		y[i] = i % 2
		for j := range m {
			proj[j] = 0.3*rnd.NormFloat64() + 0.2*float64(y[i])*float64(j%3-1)
			for b := range bins {
				tau := -1 + 2*float64(b)/float64(bins-1)
				v := 0.0
				if proj[j] <= tau {
					v = 1
				}
				f.Set(i, j*bins+b, v/float64(m))
			}
		}
	}
	mod, err := FitRLS(ctx, f, y, 2, RLSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if mod.Info.Kept >= m*bins {
		t.Fatalf("no constant column dropped (kept %d of %d)", mod.Info.Kept, m*bins)
	}
	for l, rel := range mod.Info.Path.Relative {
		if math.IsNaN(mod.Info.Path.Accuracy[l]) {
			t.Errorf("relative lambda %g: system not positive definite", rel)
		}
	}
	for _, rel := range []float64{1e-9, 1e-12} {
		mm, err := FitRLS(ctx, f, y, 2, RLSOptions{Grid: []float64{rel}})
		if err != nil {
			t.Fatal(err)
		}
		fc := centred(f)
		yt, _ := OneVsAll(y, 2)
		var a, lhs, rhs, res mat.Dense
		a.Mul(fc.T(), fc)
		for j := range m * bins {
			a.Set(j, j, a.At(j, j)+float64(n)*mm.Info.Lambda)
		}
		lhs.Mul(&a, mm.W)
		rhs.Mul(fc.T(), yt)
		res.Sub(&lhs, &rhs)
		eta := mat.Norm(&res, 2) / (mat.Norm(&a, 2)*mat.Norm(mm.W, 2) + mat.Norm(&rhs, 2))
		if eta > 1e-12 { // see TestRLSNormalEquations
			t.Errorf("relative lambda %g: backward error %.3g", rel, eta)
		}
	}
	t.Logf("kept %d of %d columns; chosen relative lambda %.3g, LOO acc %.3f", mod.Info.Kept, m*bins, mod.Info.Relative, mod.Info.LOOAccuracy())
}

func TestRLSErrors(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(8, 1))
	f, y := rlsBlobs(rnd, 20, 5, 2, 1)
	cases := []struct {
		name string
		fit  func() error
		want string
		is   error
	}{
		{"negative lambda", func() error {
			_, err := FitRLS(ctx, f, y, 2, RLSOptions{Fixed: true, Lambda: -1})
			return err
		}, "lambda >= 0", nil},
		{"NaN lambda", func() error {
			_, err := FitRLS(ctx, f, y, 2, RLSOptions{Fixed: true, Lambda: math.NaN()})
			return err
		}, "lambda >= 0", nil},
		{"bad grid", func() error {
			_, err := FitRLS(ctx, f, y, 2, RLSOptions{Grid: []float64{1, 0}})
			return err
		}, "> 0", nil},
		{"label out of range", func() error {
			_, err := FitRLS(ctx, f, []int{0, 1, 2, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}, 2, RLSOptions{})
			return err
		}, "relabel", nil},
		{"NaN feature", func() error {
			g := mat.DenseCopyOf(f)
			g.Set(3, 4, math.NaN())
			_, err := FitRLS(ctx, g, y, 2, RLSOptions{})
			return err
		}, "impute", nil},
		{"constant features", func() error {
			_, err := FitRLS(ctx, mat.NewDense(20, 5, nil), y, 2, RLSOptions{})
			return err
		}, "constant", ErrNothingToLearn},
		{"constant kernel", func() error {
			k := mat.NewSymDense(20, nil)
			for i := range 20 {
				for j := i; j < 20; j++ {
					k.SetSym(i, j, 3)
				}
			}
			_, err := FitKernelRLS(ctx, k, y, 2, RLSOptions{})
			return err
		}, "no positive eigenvalue above rounding", ErrNothingToLearn},
		{"one sample", func() error {
			_, err := FitRLS(ctx, f.Slice(0, 1, 0, 5).(*mat.Dense), y[:1], 2, RLSOptions{})
			return err
		}, "at least 2", nil},
	}
	for _, c := range cases {
		err := c.fit()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: error %v is not %v", c.name, err, c.is)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error is not one line: %q", c.name, err)
		}
	}
}

func TestRLSCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rnd := rand.New(rand.NewPCG(9, 1))
	f, y := rlsBlobs(rnd, 40, 5, 2, 1)
	if _, err := FitRLS(ctx, f, y, 2, RLSOptions{}); err != context.Canceled {
		t.Errorf("FitRLS on a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := FitKernelRLS(ctx, gaussGram(f, 0.1), y, 2, RLSOptions{}); err != context.Canceled {
		t.Errorf("FitKernelRLS on a cancelled context: %v, want context.Canceled", err)
	}
}

// TestRLSLearns: on separable-ish blobs RLS beats chance by far on held-out data.
func TestRLSLearns(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(10, 1))
	f, y := rlsBlobs(rnd, 400, 20, 5, 0.6)
	// Same class means: draw test points from the same generator state split.
	m, err := FitRLS(ctx, f.Slice(0, 300, 0, 20).(*mat.Dense), y[:300], 5, RLSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pred, err := m.Predict(ctx, f.Slice(300, 400, 0, 20).(*mat.Dense))
	if err != nil {
		t.Fatal(err)
	}
	acc := Accuracy(pred, y[300:])
	// Bayes accuracy of these blobs is well above 0.8 (means 0.6·N(0,1) per coordinate in
	// 20 dimensions: pairwise mean distance ≈ 0.6·sqrt(40) ≈ 3.8 noise units); chance is 0.2.
	if acc < 0.7 {
		t.Errorf("held-out accuracy %.3f < 0.7", acc)
	}
	if d := math.Abs(acc - m.Info.LOOAccuracy()); d > 0.15 {
		t.Errorf("held-out accuracy %.3f far from LOO estimate %.3f", acc, m.Info.LOOAccuracy())
	}
}
