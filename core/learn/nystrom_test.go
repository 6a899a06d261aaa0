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
)

// nystromData returns n training rows and 400 test rows of d columns: k classes whose
// labels depend on the rows nonlinearly (the class of a row is the quadrant pair of
// its first two coordinates' signs, with noise in the others), so that a handful of
// centres cannot fit them and more centres help.
func nystromData(seed uint64, n, d, k int) (train, test *mat.Dense, y, yt []int) {
	rng := rand.New(rand.NewPCG(seed, 17))
	gen := func(r int) (*mat.Dense, []int) {
		x := mat.NewDense(r, d, nil)
		lab := make([]int, r)
		for i := range r {
			for j := range d {
				x.Set(i, j, rng.NormFloat64())
			}
			a := math.Atan2(x.At(i, 1), x.At(i, 0)) + math.Pi // [0, 2π]
			lab[i] = int(a/(2*math.Pi)*float64(2*k)) % k
		}
		return x, lab
	}
	train, y = gen(n)
	test, yt = gen(400)
	return train, test, y, yt
}

func seqIdx(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// TestNystromAllCentresIsExactRLS checks that with M = n centres (every training row)
// the Nyström problem is the exact one: FitNystromRBF's test scores equal
// FitRBFRowsRLS's at the same gamma and lambda to 1e-6 (float64 products in both).
func TestNystromAllCentresIsExactRLS(t *testing.T) {
	defer SetRBFFloat32(SetRBFFloat32(false))
	for _, n := range []int{300, 1200} {
		f, test, y, _ := nystromData(1, n, 12, 4)
		idx := seqIdx(n)
		const gamma, lambda = 0.05, 1e-4
		exact, err := FitRBFRowsRLS(context.Background(), DenseRows{f}, idx, y, 4, gamma, RLSOptions{Fixed: true, Lambda: lambda})
		if err != nil {
			t.Fatal(err)
		}
		ny, err := FitNystromRBF(context.Background(), DenseRows{f}, idx, y, 4, gamma,
			NystromOptions{Centres: n, Lambda: lambda, Tol: 1e-14, MaxIter: 2000})
		if err != nil {
			t.Fatal(err)
		}
		se, err := exact.DecisionRows(context.Background(), DenseRows{test})
		if err != nil {
			t.Fatal(err)
		}
		sn, err := ny.DecisionRows(context.Background(), DenseRows{test})
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		r, k := se.Dims()
		for i := range r {
			for j := range k {
				worst = max(worst, math.Abs(se.At(i, j)-sn.At(i, j)))
			}
		}
		t.Logf("n = M = %d: %d iterations, final residual %.1e, max score difference %.1e", n, ny.Nystrom.FinalIters,
			ny.Nystrom.Residuals[len(ny.Nystrom.Residuals)-1], worst)
		if worst > 1e-6 {
			t.Errorf("n = M = %d: Nyström scores differ from exact RLS by %g > 1e-6", n, worst)
		}
	}
}

// TestNystromPreconditionerConverges checks that the residual of the preconditioned
// iterations never rises (conjugate residuals; 1e-12 relative slack for rounding) and
// that FALKON's preconditioner reaches the tolerance in fewer iterations than the same
// method on the unpreconditioned system, which has not reached it in 5 times as many.
func TestNystromPreconditionerConverges(t *testing.T) {
	defer SetRBFFloat32(SetRBFFloat32(false))
	f, _, y, _ := nystromData(2, 1500, 12, 4)
	idx := seqIdx(1500)
	opt := NystromOptions{Centres: 300, Lambda: 1e-6, Tol: 1e-6, MaxIter: 60}
	pre, err := FitNystromRBF(context.Background(), DenseRows{f}, idx, y, 4, 0.05, opt)
	if err != nil {
		t.Fatal(err)
	}
	res := pre.Nystrom.Residuals
	for i := 1; i < len(res); i++ {
		if res[i] > res[i-1]*(1+1e-12) {
			t.Errorf("residual rose at iteration %d: %g after %g", i, res[i], res[i-1])
		}
	}
	if last := res[len(res)-1]; last > opt.Tol {
		t.Fatalf("preconditioned: residual %g after %d iterations, want <= %g", last, pre.Nystrom.FinalIters, opt.Tol)
	}
	opt.plain = true
	opt.MaxIter = 5 * pre.Nystrom.FinalIters
	plain, err := FitNystromRBF(context.Background(), DenseRows{f}, idx, y, 4, 0.05, opt)
	if err != nil {
		t.Fatal(err)
	}
	pr := plain.Nystrom.Residuals
	t.Logf("preconditioned: %d iterations to %.1e; plain: %d iterations, residual %.1e", pre.Nystrom.FinalIters,
		res[len(res)-1], plain.Nystrom.FinalIters, pr[len(pr)-1])
	if pr[len(pr)-1] <= opt.Tol {
		t.Errorf("plain iterations reached %g in %d iterations: the preconditioner (%d) should need fewer than a fifth",
			pr[len(pr)-1], plain.Nystrom.FinalIters, pre.Nystrom.FinalIters)
	}
}

// TestNystromAccuracyGrowsWithCentres checks on a fixed seed that test accuracy does
// not fall as M grows (the centres of a smaller M are among those of a larger one),
// up to one test row of 400, and that the largest M is clearly better than the
// smallest. The property is one of a regularised fit: at lambda = 1e-3 each M
// approaches the exact fit at that lambda; at lambda = 1e-5 the same data gave 0.853
// at M = 32 and 0.795 at M = 128, more centres fitting the noise.
func TestNystromAccuracyGrowsWithCentres(t *testing.T) {
	f, test, y, yt := nystromData(3, 2000, 6, 3)
	idx := seqIdx(2000)
	prev, first := -1.0, 0.0
	for _, m := range []int{8, 32, 128, 512} {
		ny, err := FitNystromRBF(context.Background(), DenseRows{f}, idx, y, 3, 0, NystromOptions{Centres: m, Lambda: 1e-3, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		pred, err := ny.PredictRows(context.Background(), DenseRows{test})
		if err != nil {
			t.Fatal(err)
		}
		acc := Accuracy(pred, yt)
		t.Logf("M = %d: accuracy %.4f (%d iterations)", m, acc, ny.Nystrom.FinalIters)
		if acc < prev-1.0/400-1e-12 {
			t.Errorf("M = %d: accuracy %.4f fell below %.4f of fewer centres", m, acc, prev)
		}
		if prev < 0 {
			first = acc
		}
		prev = acc
	}
	if prev < first+0.05 {
		t.Errorf("512 centres give %.4f, not 5 points above 8 centres' %.4f", prev, first)
	}
}

// TestNystromChoosesLambdaOnValidation checks the validation path: the chosen lambda
// is the one of the best validation accuracy (the earliest of ties), the path stops
// after two falls, the fit is reproducible bit for bit, and its test accuracy is
// within 3 points of the exact fit's with leave-one-out lambda.
func TestNystromChoosesLambdaOnValidation(t *testing.T) {
	f, test, y, yt := nystromData(4, 1200, 6, 3)
	idx := seqIdx(1200)
	var steps int
	opt := NystromOptions{Centres: 400, Seed: 9, Progress: func(NystromStep) { steps++ }}
	a, err := FitNystromRBF(context.Background(), DenseRows{f}, idx, y, 3, 0, opt)
	if err != nil {
		t.Fatal(err)
	}
	in := a.Nystrom
	if in.Fit != 1000 || len(in.Lambdas) == 0 || len(in.Lambdas) != len(in.Validation) {
		t.Fatalf("validation path: fit %d rows, %d lambdas, %d accuracies", in.Fit, len(in.Lambdas), len(in.Validation))
	}
	best := 0
	for i, v := range in.Validation {
		if v > in.Validation[best] {
			best = i
		}
	}
	if a.Info.Lambda != in.Lambdas[best] {
		t.Errorf("chose lambda %g, the best validation accuracy %v is at %g", a.Info.Lambda, in.Validation, in.Lambdas[best])
	}
	if steps == 0 {
		t.Error("Progress was never called")
	}
	opt.Progress = nil
	b, err := FitNystromRBF(context.Background(), DenseRows{f}, idx, y, 3, 0, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.C.RawMatrix().Data, b.C.RawMatrix().Data) || !slices.Equal(a.B, b.B) {
		t.Error("two fits with the same seed differ")
	}
	exact, err := FitRBFRowsRLS(context.Background(), DenseRows{f}, idx, y, 3, 0, RLSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pe, _ := exact.PredictRows(context.Background(), DenseRows{test})
	pn, _ := a.PredictRows(context.Background(), DenseRows{test})
	ae, an := Accuracy(pe, yt), Accuracy(pn, yt)
	t.Logf("lambdas %v validation %v: chose %g; test accuracy %.4f (exact LOO: %.4f)", in.Lambdas, in.Validation, a.Info.Lambda, an, ae)
	if an < ae-0.03 {
		t.Errorf("Nyström with validation lambda: %.4f, exact fit %.4f", an, ae)
	}
}

// TestNystromRefuses checks the one-line errors for bad options and the memory
// limit (refused before allocating), and cancellation.
func TestNystromRefuses(t *testing.T) {
	f, _, y, _ := nystromData(5, 100, 4, 2)
	idx := seqIdx(100)
	for _, c := range []struct {
		opt  NystromOptions
		want string
	}{
		{NystromOptions{Centres: 0}, "centres = 0"},
		{NystromOptions{Centres: -3}, "centres = -3"},
		{NystromOptions{Centres: 101, Lambda: 1e-3}, "exceeds the 100 fitting rows"},
		{NystromOptions{Centres: 90}, "exceeds the 83 fitting rows"},
		{NystromOptions{Centres: 10, Lambda: math.NaN()}, "lambda = NaN"},
		{NystromOptions{Centres: 10, Validation: 0.9}, "validation fraction"},
		{NystromOptions{Centres: 10, Lambda: 1, MemoryBytes: 1000}, "over the limit"},
	} {
		_, err := FitNystromRBF(context.Background(), DenseRows{f}, idx, y, 2, 0, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: error %v, want one line with %q", c.opt, err, c.want)
		}
	}
	_, err := FitNystromRBF(context.Background(), DenseRows{f}, idx, y, 2, 0, NystromOptions{Centres: 10, Lambda: 1, MemoryBytes: 1000})
	if !errors.Is(err, ErrNystromMemory) {
		t.Errorf("memory limit: %v, want ErrNystromMemory", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitNystromRBF(ctx, DenseRows{f}, idx, y, 2, 0, NystromOptions{Centres: 10, Lambda: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
