package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFitRLSRowsEqualsDense checks the streaming fit against FitRLS on the same rows
// copied into a dense matrix: the same form, kept columns, groups and chosen grid value (lambda to 1e-12: it
// scales with the largest eigenvalue, computed to rounding),
// and weights, intercepts and test scores equal to 1e-9 relative (the two differ only
// in the order of floating-point sums: 1e-9 is far above rounding at these sizes and
// far below any real difference). Cases: primal; dual with D' over three column chunks
// (colChunk 512) and constant columns inside a chunk; primal over three chunks of samples
// (rowChunk 1024) and two row blocks of the covariance; grouped (20 copies of each of 15 rows); each
// forced form; training rows a shuffled subset of the matrix.
func TestFitRLSRowsEqualsDense(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		name       string
		rows, d, n int
		dup        bool
		form, want Form
	}{
		{"primal", 300, 40, 200, false, FormAuto, FormPrimal},
		{"primal, 3 row chunks", 2600, 300, 2500, false, FormAuto, FormPrimal},
		{"dual, 3 chunks", 200, 1300, 120, false, FormAuto, FormDual},
		{"grouped", 300, 30, 120, true, FormAuto, FormGrouped},
		{"forced dual", 300, 40, 200, false, FormDual, FormDual},
		{"forced primal", 200, 150, 120, false, FormPrimal, FormPrimal},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, y := rlsBlobs(rng, c.rows, c.d, 4, 0.6, 3, c.d-1, c.d/2)
			if c.dup {
				for i := range c.rows { // 15 distinct rows, 20 copies each
					f.SetRow(i, f.RawRowView(i-i%20))
					y[i] = y[i-i%20]
				}
			}
			idx := rng.Perm(c.rows)[:c.n]
			opt := RLSOptions{Form: c.form}
			want, err := FitRLS(ctx, rowsOf(f, idx), subset(y, idx), 4, opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := FitRLSRows(ctx, DenseRows{f}, idx, subset(y, idx), 4, opt)
			if err != nil {
				t.Fatal(err)
			}
			gi, wi := got.Info, want.Info
			if gi.Form != c.want || wi.Form != c.want || gi.Kept != wi.Kept || gi.Groups != wi.Groups || gi.Path.Best != wi.Path.Best ||
				math.Abs(gi.Lambda-wi.Lambda) > 1e-12*wi.Lambda {
				t.Fatalf("info form %v kept %d groups %d lambda %g, dense %v %d %d %g (want form %v)",
					gi.Form, gi.Kept, gi.Groups, gi.Lambda, wi.Form, wi.Kept, wi.Groups, wi.Lambda, c.want)
			}
			if d := maxRelDiff(got.W, want.W); d > 1e-9 {
				t.Errorf("weights differ by %.3g relative", d)
			}
			if d := maxRelDiff(mat.NewDense(1, 4, got.B), mat.NewDense(1, 4, want.B)); d > 1e-9 {
				t.Errorf("intercepts differ by %.3g relative", d)
			}
			for _, j := range []int{3, c.d - 1, c.d / 2} { // constant columns weigh nothing
				for cl := range 4 {
					if got.W.At(j, cl) != 0 {
						t.Fatalf("constant column %d has weight %g", j, got.W.At(j, cl))
					}
				}
			}
			test, _ := rlsBlobs(rng, 50, c.d, 4, 0.6)
			sg, err := got.DecisionRows(ctx, DenseRows{test})
			if err != nil {
				t.Fatal(err)
			}
			sw, err := want.Decision(ctx, test)
			if err != nil {
				t.Fatal(err)
			}
			if d := maxRelDiff(sg, sw); d > 1e-9 {
				t.Errorf("test scores differ by %.3g relative", d)
			}
			pg, _ := got.PredictRows(ctx, DenseRows{test})
			pw, _ := want.Predict(ctx, test)
			agree := 0
			for i := range pg {
				if pg[i] == pw[i] {
					agree++
				}
			}
			if agree < len(pg)-1 { // a near-tie may flip at rounding level, at most one
				t.Errorf("%d of %d test predictions agree", agree, len(pg))
			}
		})
	}
}

// TestFitRLSRowsReproducible checks that two streaming fits of the same rows are equal
// bit for bit (fixed-order sums; a resumed run must equal an uninterrupted one).
func TestFitRLSRowsReproducible(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 9))
	f, y := rlsBlobs(rng, 400, 700, 3, 0.5)
	idx := rng.Perm(400)[:300]
	a, err := FitRLSRows(ctx, DenseRows{f}, idx, subset(y, idx), 3, RLSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitRLSRows(ctx, DenseRows{f}, idx, subset(y, idx), 3, RLSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.W, b.W) || a.Info.Lambda != b.Info.Lambda {
		t.Fatal("two fits of the same rows differ")
	}
}

// TestBasisInPlace checks that B = W0 Q computed in the deflated buffer equals the
// allocating computation exactly (the same operations in the same order).
func TestBasisInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 3, 17} {
		m := n - 1
		buf := make([]float64, n*n)
		q := buf[:m*m]
		for i := range q {
			q[i] = rng.NormFloat64()
		}
		df := &deflation{n: n, tau: 0.3, v0: 1.7}
		want := df.basis(append([]float64(nil), q...))
		got := df.basisInPlace(q)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("n=%d: entry %d = %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}

// TestFitRLSRowsErrors checks the input errors of the streaming fit: a non-finite
// feature names its sample, all-constant features wrap ErrNothingToLearn.
func TestFitRLSRowsErrors(t *testing.T) {
	ctx := context.Background()
	f := mat.NewDense(4, 3, []float64{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3})
	if _, err := FitRLSRows(ctx, DenseRows{f}, []int{0, 1, 2, 3}, []int{0, 1, 0, 1}, 2, RLSOptions{}); err == nil || !errors.Is(err, ErrNothingToLearn) {
		t.Errorf("constant features: %v", err)
	}
	f.Set(2, 1, nanf())
	_, err := FitRLSRows(ctx, DenseRows{f}, []int{3, 2, 1, 0}, []int{0, 1, 0, 1}, 2, RLSOptions{})
	if err == nil || err.Error() != "rls: feature 1 of sample 1 is NaN: remove or impute non-finite values" {
		t.Errorf("NaN feature: %v", err)
	}
}
