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

// TestFitRBFRowsRLSDefinition checks the Gaussian kernel on feature rows against
// FitKernelRLS on the Gram matrix built from the definition exp(-gamma ||f(x)-f(z)||²)
// with explicit differences: the same chosen lambda (grid index, and lambda to 1e-12
// relative), coefficients, intercepts and test scores within 1e-10 of the scores' scale
// (the two differ only in rounding: the Gram from inner products, the distances
// from differences). Features span two column chunks (colChunk 512) and test rows
// three blocks (rbfTestRows lowered to 7); training rows a shuffled subset. With gamma
// 0 the gamma used must be the median heuristic computed here from explicit distances
// over the same seeded pairs.
func TestFitRBFRowsRLSDefinition(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	defer func(r int) { rbfTestRows = r }(rbfTestRows)
	rbfTestRows = 7
	const rows, d, n, k = 90, 700, 60, 3
	f, y := rlsBlobs(rng, rows, d, k, 0.15)
	f.Scale(1/math.Sqrt(d), f)
	test, _ := rlsBlobs(rng, 19, d, k, 0.15)
	test.Scale(1/math.Sqrt(d), test)
	idx := rng.Perm(rows)[:n]
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
