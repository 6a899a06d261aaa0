package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// dupProblem returns n samples whose d features take only u distinct values (rows of
// Gaussian blobs, column 0 constant), every distinct row used at least minCount times,
// in shuffled order, and the sample-to-row map. With mixed, labels are drawn per sample
// (the label of the row with probability 0.7, else uniform), so that one distinct row
// carries different labels; otherwise every sample takes its row's label.
func dupProblem(rnd *rand.Rand, n, u, d, k, minCount int, mixed bool) (*mat.Dense, []int, []int) {
	z, yz := rlsBlobs(rnd, u, d, k, 0.8, 0)
	of := make([]int, n)
	for i := range n {
		if i < u*minCount {
			of[i] = i % u
		} else {
			of[i] = rnd.IntN(u)
		}
	}
	rnd.Shuffle(n, func(i, j int) { of[i], of[j] = of[j], of[i] })
	f := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i, a := range of {
		f.SetRow(i, z.RawRowView(a))
		y[i] = yz[a]
		if mixed && rnd.Float64() < 0.3 {
			y[i] = rnd.IntN(k)
		}
	}
	return f, y, of
}

// TestRLSGroupRows: the hash grouping equals the O(n²) definition (rows equal on the
// non-constant columns, compared with ==, so 0 equals -0), also when the hash is
// narrowed to 2 bits so that unequal rows collide and the collision chains are walked.
func TestRLSGroupRows(t *testing.T) {
	defer func(m uint64) { rowHashMask = m }(rowHashMask)
	rnd := rand.New(rand.NewPCG(11, 1))
	const n, d = 200, 6
	f, _, _ := dupProblem(rnd, n, 37, d, 3, 1, false)
	// Small binary values in columns 1..5: many equal rows that were not equal before.
	for i := range n {
		for j := 1; j < d; j++ {
			if rnd.IntN(3) == 0 {
				f.Set(i, j, float64(rnd.IntN(2)))
			}
		}
	}
	f.SetRow(4, f.RawRowView(3))
	f.Set(3, 2, math.Copysign(0, -1))
	f.Set(4, 2, 0)
	kept, err := keptColumns(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != d-1 || kept[0] != 1 {
		t.Fatalf("kept columns %v, want 1..%d (column 0 is constant)", kept, d-1)
	}
	same := func(i, j int) bool {
		for _, c := range kept {
			if f.At(i, c) != f.At(j, c) {
				return false
			}
		}
		return true
	}
	for _, mask := range []uint64{^uint64(0), 3} {
		rowHashMask = mask
		g, err := groupRows(context.Background(), f, kept)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for a, c := range g.count {
			total += c
			if g.of[g.rep[a]] != a || (a > 0 && g.rep[a] <= g.rep[a-1]) {
				t.Fatalf("mask %x: representative %d of group %d is in group %d (groups in order of first appearance)", mask, g.rep[a], a, g.of[g.rep[a]])
			}
		}
		if total != n {
			t.Fatalf("mask %x: group counts sum to %d, want %d", mask, total, n)
		}
		for i := range n {
			for j := range i {
				if got := g.of[i] == g.of[j]; got != same(i, j) {
					t.Fatalf("mask %x: rows %d and %d: same group %v, equal rows %v", mask, i, j, got, same(i, j))
				}
			}
		}
		if g.of[3] != g.of[4] {
			t.Errorf("mask %x: rows equal up to the sign of a zero are in different groups", mask)
		}
		if len(g.rep) < 20 {
			t.Errorf("mask %x: only %d groups; the test needs many to exercise collisions", mask, len(g.rep))
		}
	}
}

// TestRLSGroupedMatchesPrimal: the grouped form gives the primal (or, for D' > n, the
// dual) form's leave-one-out path over DefaultGrid, chosen lambda and training
// decisions, and on a grid down to rho = 1e-6 also its weights, intercepts and test
// decisions, to 1e-9. Cases: u < D' (FormAuto picks grouped), u > D' (forced), and
// labels that differ within a distinct row; every distinct row occurs at least twice,
// so leverages stay <= 1/2 + 1/n and the LOO residuals are well conditioned.
//
// Why not the weights at rho < 1e-6: with duplicated rows and u <= D', F_c has rank
// u-1 < D', and the primal solution picks up errors of order eps/rho along the D'-u+1
// null directions of F_cᵀF_c (8e-5 relative at rho = 1e-12 here), which move test
// decisions and b but not training decisions F W + 1bᵀ = F_c W + ybar. The grouped form
// keeps w in the row space of the distinct rows: checked at rho = 1e-12 below.
func TestRLSGroupedMatchesPrimal(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(12, 1))
	coarse := []float64{1, 1e-2, 1e-4, 1e-6}
	for _, c := range []struct {
		n, u, d, k int
		mixed      bool
	}{
		{90, 14, 40, 3, false},
		{90, 14, 40, 4, true},
		{120, 30, 12, 3, true}, // D' = 11 < u: the LQ factor is trapezoidal
		{60, 20, 80, 3, false}, // D' > n: compare with the dual
	} {
		name := fmt.Sprintf("n=%d/u=%d/d=%d/k=%d/mixed=%v", c.n, c.u, c.d, c.k, c.mixed)
		f, y, _ := dupProblem(rnd, c.n, c.u, c.d, c.k, 2, c.mixed)
		ft, _ := rlsBlobs(rnd, 15, c.d, c.k, 0.8)
		ref := FormPrimal
		if c.d-1 > c.n-1 {
			ref = FormDual
		}
		for _, grid := range [][]float64{DefaultGrid(), coarse} {
			mr, err := FitRLS(ctx, f, y, c.k, RLSOptions{Grid: grid, Form: ref})
			if err != nil {
				t.Fatal(err)
			}
			mg, err := FitRLS(ctx, f, y, c.k, RLSOptions{Grid: grid, Form: FormGrouped})
			if err != nil {
				t.Fatal(err)
			}
			ma, err := FitRLS(ctx, f, y, c.k, RLSOptions{Grid: grid})
			if err != nil {
				t.Fatal(err)
			}
			if mg.Info.Form != FormGrouped || mg.Info.Groups != c.u || mr.Info.Groups != c.u {
				t.Errorf("%s: forms %v/%v, groups %d/%d, want grouped and %d", name, mg.Info.Form, mr.Info.Form, mg.Info.Groups, mr.Info.Groups, c.u)
			}
			wantAuto := FormGrouped
			if float64(c.u) >= groupedFraction*float64(min(c.d-1, c.n-1)) {
				wantAuto = ref
			}
			if ma.Info.Form != wantAuto {
				t.Errorf("%s: FormAuto solved %v, want %v", name, ma.Info.Form, wantAuto)
			}
			compareRLS(t, fmt.Sprintf("%s/grid=%d", name, len(grid)), mr, mg, f, ft, len(grid) == len(coarse), 1e-9)
		}
		if c.d-1 > c.n-1 {
			continue
		}
		// rho = 1e-12: the grouped weights lie in the row space of F_c (to 1e-9 of their
		// norm), and so does the primal one after projection.
		pr := rowSpace(centred(f))
		opt := RLSOptions{Grid: []float64{1e-12}, Form: FormGrouped}
		mg, err := FitRLS(ctx, f, y, c.k, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Form = ref
		mr, err := FitRLS(ctx, f, y, c.k, opt)
		if err != nil {
			t.Fatal(err)
		}
		var pg, pp mat.Dense
		pg.Mul(pr, mg.W)
		pp.Mul(pr, mr.W)
		if d := maxRelDiff(&pg, mg.W); d > 1e-9 {
			t.Errorf("%s: grouped weights at rho 1e-12 leave the row space by %.3g", name, d)
		}
		if d := maxRelDiff(&pp, mg.W); d > 1e-7 {
			t.Errorf("%s: projected primal and grouped weights at rho 1e-12 differ by %.3g", name, d)
		}
		// The minimum-norm least-squares fit (lambda = 0) through the pseudo-inverse
		// of T. The cut-off r·eps·e_max differs between the forms (r = D' vs u-1),
		// which only matters for eigenvalues within a factor D' of rounding: 1e-7.
		fix := RLSOptions{Fixed: true, Lambda: 0, Form: ref}
		m0r, err := FitRLS(ctx, f, y, c.k, fix)
		if err != nil {
			t.Fatal(err)
		}
		fix.Form = FormGrouped
		m0g, err := FitRLS(ctx, f, y, c.k, fix)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxRelDiff(m0r.W, m0g.W); d > 1e-7 {
			t.Errorf("%s: lambda = 0 weights differ by %.3g", name, d)
		}
	}
}

// rowSpace returns the D×D orthogonal projector onto the row space of f (singular
// values above 1e-10 of the largest).
func rowSpace(f *mat.Dense) *mat.Dense {
	var svd mat.SVD
	if !svd.Factorize(f, mat.SVDThin) {
		panic("svd failed")
	}
	sv := svd.Values(nil)
	var v mat.Dense
	svd.VTo(&v)
	_, d := f.Dims()
	r := 0
	for r < len(sv) && sv[r] > 1e-10*sv[0] {
		r++
	}
	vr := v.Slice(0, d, 0, r)
	var p mat.Dense
	p.Mul(vr, vr.T())
	return &p
}

// compareRLS checks that two fits of the same problem agree to tol (relative): the LOO
// path, the chosen lambda and the decisions on the training features f, and, if
// weights, W, b and the decisions and predictions on ft. LOO mean squared residuals
// below 1e-12 (residuals at rounding level of an interpolating fit) are compared
// absolutely, to tol·1e-6.
func compareRLS(t *testing.T, name string, a, b *LinearRLS, f, ft *mat.Dense, weights bool, tol float64) {
	t.Helper()
	ctx := context.Background()
	if r := math.Abs(a.Info.EMax-b.Info.EMax) / a.Info.EMax; r > tol {
		t.Errorf("%s: e_max %v %g, %v %g", name, a.Info.Form, a.Info.EMax, b.Info.Form, b.Info.EMax)
	}
	pa, pb := a.Info.Path, b.Info.Path
	if pa.Best != pb.Best || math.Abs(a.Info.Lambda-b.Info.Lambda) > tol*a.Info.Lambda {
		t.Errorf("%s: chosen %d (lambda %g) vs %d (lambda %g)", name, pa.Best, a.Info.Lambda, pb.Best, b.Info.Lambda)
	}
	for l := range pa.Lambda {
		if math.Abs(pa.Lambda[l]-pb.Lambda[l]) > tol*pa.Lambda[l] ||
			math.Abs(pa.Accuracy[l]-pb.Accuracy[l]) > tol ||
			math.Abs(pa.MSE[l]-pb.MSE[l]) > tol*math.Max(pa.MSE[l], 1e-6) {
			t.Errorf("%s: rel %g: %v LOO (acc %g, mse %.12g), %v LOO (acc %g, mse %.12g)", name, pa.Relative[l],
				a.Info.Form, pa.Accuracy[l], pa.MSE[l], b.Info.Form, pb.Accuracy[l], pb.MSE[l])
		}
	}
	da, _ := a.Decision(ctx, f)
	db, _ := b.Decision(ctx, f)
	if d := maxRelDiff(da, db); d > tol {
		t.Errorf("%s: training decisions differ by %.3g", name, d)
	}
	if !weights {
		return
	}
	if d := maxRelDiff(a.W, b.W); d > tol {
		t.Errorf("%s: weights differ by %.3g", name, d)
	}
	bs := math.Max(floats.Norm(a.B, math.Inf(1)), 1)
	for c := range a.B {
		if math.Abs(a.B[c]-b.B[c]) > tol*bs {
			t.Errorf("%s: intercept %d: %.12g vs %.12g", name, c, a.B[c], b.B[c])
		}
	}
	sa, _ := a.Decision(ctx, ft)
	sb, _ := b.Decision(ctx, ft)
	if d := maxRelDiff(sa, sb); d > tol {
		t.Errorf("%s: test decisions differ by %.3g", name, d)
	}
	ya, _ := a.Predict(ctx, ft)
	yb, _ := b.Predict(ctx, ft)
	for i := range ya {
		if ya[i] != yb[i] {
			t.Errorf("%s: test sample %d predicted %d vs %d", name, i, ya[i], yb[i])
		}
	}
}

// TestRLSGroupedLOOBruteForce: the grouped leave-one-out residuals equal n refits, each
// leaving one sample out (same σ = nλ), to 1e-8, with labels that differ within a
// distinct row and with singleton rows (leaving one out removes its row entirely).
func TestRLSGroupedLOOBruteForce(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(13, 1))
	const n, u, d, k = 24, 9, 12, 3
	f, y, _ := dupProblem(rnd, n, u, d, k, 1, true)
	sigmas := []float64{10, 0.5, 1e-3}
	fp, err := prepareFeatures(ctx, f, y, k, FormGrouped)
	if err != nil {
		t.Fatal(err)
	}
	if fp.form != FormGrouped || fp.p.rows() != u {
		t.Fatalf("prepared %v with %d rows of B, want grouped with %d", fp.form, fp.p.rows(), u)
	}
	got := looResiduals(t, fp.p, sigmas)
	for l, s := range sigmas {
		for i := range n {
			keep := without(n, i)
			w, b := refRLS(t, rowsOf(f, keep), subset(y, keep), k, s)
			for c := range k {
				pred := floats.Dot(f.RawRowView(i), mat.Col(nil, c, w)) + b[c]
				target := -1.0
				if y[i] == c {
					target = 1
				}
				want := target - pred
				if e := got[l][i*k+c]; math.Abs(e-want) > 1e-8*(1+math.Abs(want)) {
					t.Fatalf("sigma=%g sample %d class %d: LOO residual %.12g, brute force %.12g", s, i, c, e, want)
				}
			}
		}
	}
}

// TestRLSGroupedNormalEquations: the grouped fit satisfies the normal equations of the
// centred problem, (F_cᵀF_c + nλ I) w = F_cᵀ Y and b = mean(Y) - muᵀw, to 1e-10
// relative to the terms' size, at the chosen lambda.
func TestRLSGroupedNormalEquations(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(14, 1))
	const n, u, d, k = 150, 25, 60, 4
	f, y, _ := dupProblem(rnd, n, u, d, k, 1, true)
	m, err := FitRLS(ctx, f, y, k, RLSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Info.Form != FormGrouped {
		t.Fatalf("FormAuto solved %v, want grouped", m.Info.Form)
	}
	fc := centred(f)
	yt, _ := OneVsAll(y, k)
	var lhs, rhs, cov mat.Dense
	cov.Mul(fc.T(), fc)
	lhs.Mul(&cov, m.W)
	lhs.Add(&lhs, scaled(m.W, float64(n)*m.Info.Lambda))
	rhs.Mul(fc.T(), yt)
	scale := mat.Norm(&cov, math.Inf(1))*mat.Norm(m.W, math.Inf(1)) + mat.Norm(&rhs, math.Inf(1))
	var diff mat.Dense
	diff.Sub(&lhs, &rhs)
	if r := mat.Norm(&diff, math.Inf(1)) / scale; r > 1e-10 {
		t.Errorf("normal equations residual %.3g (relative)", r)
	}
	mu := colMeans(f)
	for c := range k {
		want := meanOf(mat.Col(nil, c, yt)) - floats.Dot(mu, mat.Col(nil, c, m.W))
		if math.Abs(m.B[c]-want) > 1e-10 {
			t.Errorf("intercept %d: %.12g, want %.12g", c, m.B[c], want)
		}
	}
}

func scaled(a *mat.Dense, s float64) *mat.Dense {
	var out mat.Dense
	out.Scale(s, a)
	return &out
}
