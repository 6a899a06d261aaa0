package engine

import (
	"context"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/feature"
	"gitui/core/learn"
	"gitui/model"
)

// TestRBFFloat32MNIST measures the float32 products of the Gaussian-kernel RLS
// (learn.FitRBFRowsRLS) against float64 ones on real MNIST CDF(10,1000) features (the
// mnist-cdf preset's RBF method: Gaussian templates, 9 rotations × 49 shifts): the
// training rows are the first N of the pool, N from GITUI_RBF_MNIST (opt-in: it
// computes the features of N + 10,000 digits), tested on the 10,000 official test
// digits. It asserts the test kernel to 64 training rows differs by at most 1e-5, the
// LOO lambda is the same, and at most 0.1% of the test predictions differ; it logs
// the figures (kept columns, the kernel difference, lambdas, accuracies, differing
// predictions, fit and scoring times of each).
func TestRBFFloat32MNIST(t *testing.T) {
	nEnv := os.Getenv("GITUI_RBF_MNIST")
	dir := os.Getenv("GITUI_DATA")
	if nEnv == "" || dir == "" {
		t.Skip("set GITUI_RBF_MNIST=N (training rows) and GITUI_DATA to measure float32 against float64 RBF RLS on MNIST")
	}
	n, err := strconv.Atoi(nEnv)
	if err != nil || n < 100 {
		t.Fatalf("GITUI_RBF_MNIST=%q: want a number of training rows >= 100", nEnv)
	}
	ctx := context.Background()
	const seed = 1
	pool, test, err := LoadData(model.DataSpec{Name: "mnist"}, dir, seed)
	if err != nil {
		t.Fatal(err)
	}
	n = min(n, pool.Len())
	g, err := BuildGroup(model.GroupSpec{Kind: "rotation+shift", Radius: 3, Angles: &model.AngleSpec{From: -20, To: 20, Count: 9}}, pool.Shape, seed)
	if err != nil {
		t.Fatal(err)
	}
	m := model.Method{Features: "cdf", Bins: 10, Templates: 1000, TemplateOf: "gaussian", FeatureKernel: "rbf"}
	m.Defaults()
	fm, err := poolingMap(m, g, pool, seed)
	if err != nil {
		t.Fatal(err)
	}
	if err := fm.(*feature.CDF).Fit(ctx, pool.X, nil); err != nil {
		t.Fatal(err)
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	fp, ft, err := transformBoth(ctx, fm, pool.Subset(idx), test)
	if err != nil {
		t.Fatal(err)
	}
	y := pool.Y[:n]
	fits := map[bool]*learn.RBFRowsRLS{}
	pred := map[bool][]int{}
	defer learn.SetRBFFloat32(learn.SetRBFFloat32(false))
	for _, f32 := range []bool{false, true} {
		learn.SetRBFFloat32(f32)
		t0 := time.Now()
		r, err := learn.FitRBFRowsRLS(ctx, fp, idx, y, 10, 0, learn.RLSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		p, err := r.PredictRows(ctx, ft)
		if err != nil {
			t.Fatal(err)
		}
		fits[f32], pred[f32] = r, p
		t.Logf("float32 %v: fit %.1fs, scoring %.1fs; gamma %.6g, lambda %.6g (index %d), LOO %.4f, test accuracy %.4f",
			f32, t1.Sub(t0).Seconds(), time.Since(t1).Seconds(), r.Gamma, r.Info.Lambda, r.Info.Path.Best, r.Info.LOOAccuracy(), learn.Accuracy(p, test.Y))
	}
	// K(test, z_i) for 64 training rows: C picks them, B = 0.
	const probes = 64
	kern := map[bool]*mat.Dense{}
	for f32, r := range fits {
		pr := *r
		pr.C, pr.B = mat.NewDense(n, probes, nil), make([]float64, probes)
		for j := range probes {
			pr.C.Set(j*(n/probes), j, 1)
		}
		pr.Gamma = fits[false].Gamma // the same width: compare the distances' rounding only
		k, err := pr.DecisionRows(ctx, ft)
		if err != nil {
			t.Fatal(err)
		}
		kern[f32] = k
	}
	worst := 0.0
	rows, _ := kern[false].Dims()
	for i := range rows {
		for j := range probes {
			worst = max(worst, math.Abs(kern[true].At(i, j)-kern[false].At(i, j)))
		}
	}
	differ := 0
	for i := range pred[false] {
		if pred[false][i] != pred[true][i] {
			differ++
		}
	}
	_, d := fp.Dims()
	t.Logf("N = %d, D = %d, %d columns vary over the training rows: max |K32 - K64| = %.3g over %d test rows × %d training rows; gamma relative difference %.3g; %d of %d test predictions differ",
		n, d, fits[false].KeptColumns(), worst, rows, probes, math.Abs(fits[true].Gamma/fits[false].Gamma-1), differ, len(pred[false]))
	if worst > 1e-5 {
		t.Errorf("max |K32 - K64| = %.3g > 1e-5", worst)
	}
	if a, b := fits[false].Info.Path.Best, fits[true].Info.Path.Best; a != b {
		t.Errorf("LOO lambda index %d (float64), %d (float32)", a, b)
	}
	if differ*1000 > len(pred[false]) {
		t.Errorf("%d of %d predictions differ (> 0.1%%)", differ, len(pred[false]))
	}
}
