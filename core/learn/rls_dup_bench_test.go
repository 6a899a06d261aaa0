package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/feature"
	"gitui/core/group"
	"gitui/core/linalg"
)

// xpermCDF returns CDF(bins, m) features (Gaussian templates, the full group S_5 acting
// on the positions, normalised inputs, as model/ builds them) of n samples drawn
// without replacement from X_perm, with their labels.
func xpermCDF(tb testing.TB, n, bins, m int, seed uint64) (*mat.Dense, []int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	ds, _ := data.XPerm(rng)
	idx := rng.Perm(ds.Len())[:n]
	sub := ds.Subset(idx)
	g := group.Permutations(data.XPermLen, data.XPermAlphabet, nil, 0)
	tpl := feature.GaussianTemplates(m, ds.Dim(), 0, rng)
	cdf, err := feature.NewCDF(tpl, g, feature.CDFOptions{Bins: bins, Normalize: true, Rescale: true})
	if err != nil {
		tb.Fatal(err)
	}
	f, err := cdf.Transform(context.Background(), sub.X, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return f, sub.Y
}

// TestRLSGroupedXPermTiming fits RLS (LOO over DefaultGrid) on CDF(25,100) features of
// an n = 4000 draw from X_perm, grouped (FormAuto) and through the form FormAuto chose
// before the grouped path existed (primal or dual), logs both times and checks that
// they agree (see below for the tolerances). It runs only with GITUI_RLS_TIMING=1 (a minute or more
// in pure Go); GITUI_RLS_N sets n. It measures, it does not assert on time.
func TestRLSGroupedXPermTiming(t *testing.T) {
	if os.Getenv("GITUI_RLS_TIMING") == "" {
		t.Skip("set GITUI_RLS_TIMING=1 to time grouped against ungrouped RLS on X_perm CDF(25,100) features")
	}
	n := 4000
	fmt.Sscan(os.Getenv("GITUI_RLS_N"), &n)
	ctx := context.Background()
	tick := time.Now()
	f, y := xpermCDF(t, n, 25, 100, 1)
	t.Logf("BLAS %s: CDF(25,100) features of %d X_perm samples: %.2fs", linalg.BLAS(), n, time.Since(tick).Seconds())
	tick = time.Now()
	mg, err := FitRLS(ctx, f, y, 2, RLSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tg := time.Since(tick).Seconds()
	t.Logf("FormAuto: %v, D'=%d, u=%d distinct rows: %.2fs, relative lambda %.3g, LOO accuracy %.4f",
		mg.Info.Form, mg.Info.Kept, mg.Info.Groups, tg, mg.Info.Relative, mg.Info.LOOAccuracy())
	ref := FormPrimal
	if mg.Info.Kept > n-1 {
		ref = FormDual
	}
	tick = time.Now()
	mr, err := FitRLS(ctx, f, y, 2, RLSOptions{Form: ref})
	if err != nil {
		t.Fatal(err)
	}
	tr := time.Since(tick).Seconds()
	t.Logf("%v (the path before): %.2fs, relative lambda %.3g, LOO accuracy %.4f; speed-up %.1fx",
		ref, tr, mr.Info.Relative, mr.Info.LOOAccuracy(), tr/tg)
	// Agreement: chosen lambda, LOO accuracy at every candidate, training decisions and
	// the LOO MSE down to rho = 1e-6 to 1e-9 (eps/rho <= 2.2e-10 there). Below, samples alone in their orbit have
	// leverage near 1 and the primal's rank-deficient D'×D' covariance (rank <= u-1)
	// adds rounding of order eps/rho through its null directions: logged, not asserted.
	pr, pg := mr.Info.Path, mg.Info.Path
	if pr.Best != pg.Best {
		t.Errorf("chosen candidate %d (primal) vs %d (grouped)", pr.Best, pg.Best)
	}
	worst := 0.0
	for l := range pr.Lambda {
		d := math.Abs(pr.MSE[l]-pg.MSE[l]) / pr.MSE[l]
		if pr.Accuracy[l] != pg.Accuracy[l] || (pr.Relative[l] >= 1e-6 && d > 1e-9) {
			t.Errorf("rel %g: LOO (acc %g, mse %.12g) vs grouped (acc %g, mse %.12g)", pr.Relative[l], pr.Accuracy[l], pr.MSE[l], pg.Accuracy[l], pg.MSE[l])
		}
		worst = math.Max(worst, d)
	}
	t.Logf("largest relative LOO MSE difference over the grid: %.3g", worst)
	dr, _ := mr.Decision(ctx, f)
	dg, _ := mg.Decision(ctx, f)
	if d := maxRelDiff(dr, dg); d > 1e-9 {
		t.Errorf("training decisions differ by %.3g", d)
	}
}

// BenchmarkFitRLSGrouped times a grouped fit (LOO over the 25-value DefaultGrid) of
// CDF(25,100) features of n = 4000 X_perm samples (u <= 792 distinct rows).
func BenchmarkFitRLSGrouped(b *testing.B) {
	const n = 4000
	f, y := xpermCDF(b, n, 25, 100, 1)
	b.Run(fmt.Sprintf("xperm/n=%d/CDF(25,100)/%s", n, linalg.BLAS()), func(b *testing.B) {
		var m *LinearRLS
		for b.Loop() {
			var err error
			if m, err = FitRLS(context.Background(), f, y, 2, RLSOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		sec := b.Elapsed().Seconds() / float64(b.N)
		b.ReportMetric(float64(n)/sec, "samples/s")
		b.ReportMetric(float64(m.Info.Groups), "groups")
		b.ReportMetric(float64(m.Info.Kept), "kept")
	})
}
