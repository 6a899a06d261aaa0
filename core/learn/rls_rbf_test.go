package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// rbfGram returns exp(-gamma ||a_i - b_j||²) by its definition (explicit differences).
func rbfGram(a, b *mat.Dense, gamma float64) *mat.Dense {
	ra, d := a.Dims()
	rb, _ := b.Dims()
	k := mat.NewDense(ra, rb, nil)
	for i := range ra {
		for j := range rb {
			s := 0.0
			for c := range d {
				t := a.At(i, c) - b.At(j, c)
				s += t * t
			}
			k.Set(i, j, math.Exp(-gamma*s))
		}
	}
	return k
}

// rbfTestData returns 90 feature rows of D = 700 columns in k = 3 blobs and 19 test
// rows, with the columns 0-2, 350 and 600-699 constant (0.2) over the 90 rows but not
// over the test rows, and a shuffled subset idx of 60 training rows.
func rbfTestData() (f, test *mat.Dense, y, idx []int) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, d, k = 90, 700, 3
	f, y = rlsBlobs(rng, rows, d, k, 0.15)
	f.Scale(1/math.Sqrt(d), f)
	test, _ = rlsBlobs(rng, 19, d, k, 0.15)
	test.Scale(1/math.Sqrt(d), test)
	for _, j := range append([]int{0, 1, 2, 350}, seq(600, 700)...) {
		for i := range rows {
			f.Set(i, j, 0.2)
		}
	}
	return f, test, y, rng.Perm(rows)[:60]
}

func seq(lo, hi int) []int {
	s := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

// TestFitRBFRowsRLSDefinition checks the Gaussian kernel on feature rows (float64
// products) against FitKernelRLS on the Gram matrix built from the definition
// exp(-gamma ||f(x)-f(z)||²) with explicit differences over all columns: the same
// chosen lambda (grid index, and lambda to 1e-12 relative), coefficients, intercepts
// and test scores within 1e-10 of the scores' scale (the two differ only in rounding:
// the Gram from centred inner products, the distances from differences). 104 of the
// 700 columns are constant over the training rows (left out of the products) but not
// over the test rows, whose distances must still count them; the kept columns span two
// chunks (colChunk 512) and test rows three blocks (rbfTestRows lowered to 7); training
// rows a shuffled subset. With gamma 0 the gamma used must be the median heuristic
// computed here from explicit distances over the same seeded pairs.
func TestFitRBFRowsRLSDefinition(t *testing.T) {
	ctx := context.Background()
	defer func(r int, f32 bool) { rbfTestRows, rbfFloat32 = r, f32 }(rbfTestRows, rbfFloat32)
	rbfTestRows, rbfFloat32 = 7, false
	const n, d, k = 60, 700, 3
	f, test, y, idx := rbfTestData()
	tr := rowsOf(f, idx)
	for _, gamma := range []float64{0.3, 0} {
		got, err := FitRBFRowsRLS(ctx, DenseRows{f}, idx, subset(y, idx), k, gamma, RLSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := gamma
		if gamma == 0 {
			// Median heuristic over the same seeded pairs, distances from differences.
			r := rand.New(rand.NewPCG(0x726266, uint64(n)))
			ds := make([]float64, RBFMedianPairs)
			for p := range ds {
				a := r.IntN(n)
				b := r.IntN(n - 1)
				if b >= a {
					b++
				}
				s := 0.0
				for c := range d {
					v := tr.At(a, c) - tr.At(b, c)
					s += v * v
				}
				ds[p] = s
			}
			slices.Sort(ds)
			want = 1 / (ds[(len(ds)-1)/2] + ds[len(ds)/2])
			if math.Abs(got.Gamma-want) > 1e-10*want {
				t.Fatalf("median-heuristic gamma %g, definition %g", got.Gamma, want)
			}
		}
		kd := rbfGram(tr, tr, want)
		ks := mat.NewSymDense(n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				ks.SetSym(i, j, kd.At(i, j))
			}
		}
		ref, err := FitKernelRLS(ctx, ks, subset(y, idx), k, RLSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gi, wi := got.Info, ref.Info
		if gi.Path.Best != wi.Path.Best || math.Abs(gi.Lambda-wi.Lambda) > 1e-12*wi.Lambda {
			t.Fatalf("gamma %g: lambda %g (index %d), definition %g (index %d)", gamma, gi.Lambda, gi.Path.Best, wi.Lambda, wi.Path.Best)
		}
		if dd := maxRelDiff(got.C, ref.C); dd > 1e-10 {
			t.Errorf("gamma %g: coefficients differ by %.3g relative", gamma, dd)
		}
		if dd := maxRelDiff(mat.NewDense(1, k, got.B), mat.NewDense(1, k, ref.B)); dd > 1e-10 {
			t.Errorf("gamma %g: intercepts differ by %.3g relative", gamma, dd)
		}
		sg, err := got.DecisionRows(ctx, DenseRows{test})
		if err != nil {
			t.Fatal(err)
		}
		sw, err := ref.Decision(ctx, rbfGram(test, tr, want))
		if err != nil {
			t.Fatal(err)
		}
		if dd := maxRelDiff(sg, sw); dd > 1e-10 {
			t.Errorf("gamma %g: test scores differ by %.3g relative", gamma, dd)
		}
		pg, _ := got.PredictRows(ctx, DenseRows{test})
		pw, _ := ref.Predict(ctx, rbfGram(test, tr, want))
		if !slices.Equal(pg, pw) {
			t.Errorf("gamma %g: predictions %v, definition %v", gamma, pg, pw)
		}
	}
}

// TestFitRBFRowsRLSRefuses checks the errors: a negative or non-finite gamma, and the
// median heuristic on identical rows (median distance 0), each naming the fix.
func TestFitRBFRowsRLSRefuses(t *testing.T) {
	ctx := context.Background()
	f := mat.NewDense(6, 3, []float64{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3})
	y := []int{0, 1, 0, 1, 0, 1}
	idx := []int{0, 1, 2, 3, 4, 5}
	for _, c := range []struct {
		gamma float64
		want  string
	}{{-1, "gamma = -1 is invalid"}, {math.Inf(1), "gamma = +Inf is invalid"}, {0, "median squared distance"}} {
		_, err := FitRBFRowsRLS(ctx, DenseRows{f}, idx, y, 2, c.gamma, RLSOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("gamma %v: error %v, want %q", c.gamma, err, c.want)
		}
	}
}

// TestRBFKernelFloat32 checks the float32 products against the definition on the data
// of TestFitRBFRowsRLSDefinition (constant columns included): the test kernel K(x, Z)
// (read through DecisionRows with C = I and B = 0) within 2e-6 of exp(-gamma d²) from
// explicit differences (1e-12 with float64 products), and the fits with float32 and
// float64 products agree: the same LOO lambda index, and at a fixed lambda = 1e-3 test
// scores within 1e-5 of their scale and identical predictions.
func TestRBFKernelFloat32(t *testing.T) {
	ctx := context.Background()
	defer func(r int, f32 bool) { rbfTestRows, rbfFloat32 = r, f32 }(rbfTestRows, rbfFloat32)
	rbfTestRows = 7
	const n, k = 60, 3
	f, test, y, idx := rbfTestData()
	kd := rbfGram(test, rowsOf(f, idx), 0.3)
	fits := map[bool][2]*RBFRowsRLS{}
	for _, f32 := range []bool{false, true} {
		rbfFloat32 = f32
		loo, err := FitRBFRowsRLS(ctx, DenseRows{f}, idx, subset(y, idx), k, 0.3, RLSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fixed, err := FitRBFRowsRLS(ctx, DenseRows{f}, idx, subset(y, idx), k, 0.3, RLSOptions{Fixed: true, Lambda: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		fits[f32] = [2]*RBFRowsRLS{loo, fixed}
		probe := *fixed
		id := mat.NewDense(n, n, nil)
		for i := range n {
			id.Set(i, i, 1)
		}
		probe.C, probe.B = id, make([]float64, n)
		kg, err := probe.DecisionRows(ctx, DenseRows{test})
		if err != nil {
			t.Fatal(err)
		}
		tol := 1e-12
		if f32 {
			tol = 2e-6
		}
		r, c := kd.Dims()
		worst := 0.0
		for i := range r {
			for j := range c {
				worst = max(worst, math.Abs(kg.At(i, j)-kd.At(i, j)))
			}
		}
		if worst > tol {
			t.Errorf("float32 %v: test kernel differs from the definition by %.3g (tolerance %g)", f32, worst, tol)
		}
	}
	if a, b := fits[false][0].Info.Path.Best, fits[true][0].Info.Path.Best; a != b {
		t.Errorf("LOO lambda index %d with float64 products, %d with float32", a, b)
	}
	s64, _ := fits[false][1].DecisionRows(ctx, DenseRows{test})
	s32, _ := fits[true][1].DecisionRows(ctx, DenseRows{test})
	if dd := maxRelDiff(s64, s32); dd > 1e-5 {
		t.Errorf("fixed lambda: test scores differ by %.3g relative", dd)
	}
	if p64, p32 := Argmax(s64), Argmax(s32); !slices.Equal(p64, p32) {
		t.Errorf("fixed lambda: predictions %v (float64), %v (float32)", p64, p32)
	}
}
