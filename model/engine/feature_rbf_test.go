package engine

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/learn"
	"gitui/model"
)

// TestFeatureRBFEqualsKernelRBF checks feature_kernel rbf through the engine: on raw
// pixels, "raw RBF RLS" (the Gaussian kernel computed from the features' linear Gram,
// learn.FitRBFRowsRLS) is the kernel method "RBF RLS" (the Gram from explicit
// distances), so every point's mean accuracy must agree to one test digit in 400 (the
// two Grams differ by rounding only, which may flip a near tie). It also checks the
// derived names and that gamma 0 (the median heuristic over the draw's features) runs.
func TestFeatureRBFEqualsKernelRBF(t *testing.T) {
	const nt = 400
	s := &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Seed: 1, Repeats: 2,
		Data:  model.DataSpec{Name: "embedded", TestSize: nt},
		Group: model.GroupSpec{Kind: "none"},
		Methods: []model.Method{
			{Features: "raw", FeatureKernel: "rbf", Gamma: 2},
			{Kernel: "rbf", Gamma: 2},
			{Features: "raw", FeatureKernel: "rbf", Name: "raw RBF RLS (auto gamma)"},
		},
		Sizes: []int{60, 200},
	}
	if err := resolve(s); err != nil {
		t.Fatal(err)
	}
	if got := s.Methods[0].DisplayName(); got != "raw RBF RLS" {
		t.Errorf("name %q, want raw RBF RLS", got)
	}
	out := runSpec(t, s)
	if len(out.Series) != 3 {
		t.Fatalf("%d series, want 3", len(out.Series))
	}
	feat, kern, auto := out.Series[0], out.Series[1], out.Series[2]
	for i, p := range feat.Points {
		q := kern.Points[i]
		if p.X != q.X || math.Abs(p.Mean-q.Mean) > 1.0/nt+1e-12 {
			t.Errorf("x=%g: %s %.4f, %s %.4f", p.X, feat.Name, p.Mean, kern.Name, q.Mean)
		}
		if p.Mean < 0.5 || auto.Points[i].Mean < 0.5 {
			t.Errorf("x=%g: accuracy %.3f / auto gamma %.3f: the fit did not learn", p.X, p.Mean, auto.Points[i].Mean)
		}
	}
}

// TestFeatureKernelRefused checks feature_kernel where it does not apply (1-NN, a kernel
// method) and a bad value: one line naming the field and the fix.
func TestFeatureKernelRefused(t *testing.T) {
	for _, c := range []struct {
		m    model.Method
		want string
	}{
		{model.Method{Features: "cdf", Bins: 5, Templates: 5, Learner: "1nn", FeatureKernel: "rbf"}, "methods.0.feature_kernel applies to features with learner rls, not learner 1nn: drop it"},
		{model.Method{Kernel: "rbf", Gamma: 1, FeatureKernel: "rbf"}, "methods.0.feature_kernel applies to features with learner rls, not kernel rbf: drop it"},
		{model.Method{Features: "cdf", Bins: 5, Templates: 5, FeatureKernel: "poly"}, `feature_kernel "poly" is unknown: use one of rbf`},
		{model.Method{Features: "cdf", Bins: 5, Templates: 5, Gamma: 1}, "methods.0.gamma applies to kernels rbf and poly, haar with base rbf, and feature_kernel rbf"},
	} {
		err := resolve(kindSpec(c.m))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: err = %v, want one line with %q", c.m, err, c.want)
		}
	}
}

// TestSharedFeaturesSameResults checks that methods sharing pooled features (computed
// once, featureCache) score exactly as when each runs alone: CDF(3,4) with linear RLS
// and with the Gaussian kernel on the features, then another CDF, then range thresholds
// without and with standardization (different features), on X_perm.
func TestSharedFeaturesSameResults(t *testing.T) {
	spec := func(ms ...model.Method) *model.Spec {
		return &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Seed: 1, Repeats: 2,
			Data: model.DataSpec{Name: "xperm", TestSize: 300}, Group: model.GroupSpec{Kind: "permutation"},
			Methods: ms, Sizes: []int{40, 120}}
	}
	lin := model.Method{Features: "cdf", Bins: 3, Templates: 4}
	rbf := model.Method{Features: "cdf", Bins: 3, Templates: 4, FeatureKernel: "rbf"}
	other := model.Method{Features: "cdf", Bins: 2, Templates: 4}
	// Standardization changes the features: it must not take the plain range features
	// from the cache (it did, before standardize was part of the features' key).
	rng := model.Method{Features: "cdf", Bins: 3, Templates: 4, Thresholds: "range"}
	std := model.Method{Features: "cdf", Bins: 3, Templates: 4, Thresholds: "range", Standardize: "mean"}
	all := []model.Method{lin, rbf, other, rng, std}
	together := runSpec(t, spec(all...))
	for i, m := range all {
		alone := runSpec(t, spec(m))
		a, b := together.Series[i], alone.Series[0]
		if a.Name != b.Name || len(a.Points) != len(b.Points) {
			t.Fatalf("series %q vs %q", a.Name, b.Name)
		}
		for j := range a.Points {
			if a.Points[j] != b.Points[j] {
				t.Errorf("%s: shared %+v, alone %+v", a.Name, a.Points[j], b.Points[j])
			}
		}
	}
}

// TestFeatureCacheHoldsOneSet checks the cache's contract: it keeps features only for a
// key more than one method uses, hands them out for that key, and drops them when
// another key is prepared.
func TestFeatureCacheHoldsOneSet(t *testing.T) {
	var c featureCache
	c.use("a")
	c.use("a")
	c.use("b")
	x := learn.DenseRows{M: mat.NewDense(1, 1, []float64{1})}
	if _, _, ok := c.take("a"); ok {
		t.Fatal("empty cache hit")
	}
	c.keep("b", x, x)
	if _, _, ok := c.take("b"); ok {
		t.Fatal("kept the features of a key only one method uses")
	}
	c.keep("a", x, x)
	if fp, _, ok := c.take("a"); !ok || fp != learn.Rows(x) {
		t.Fatal("shared features not handed out")
	}
	if _, _, ok := c.take("b"); ok || c.fp != nil {
		t.Fatal("preparing other features did not drop the held set")
	}
}

// TestGridTransformsOnlyItsRows checks that a grid cell, whose features are computed on
// the pool rows its draws use only (featureMethod.need), scores exactly as the same
// method and size on the curve, whose features cover the whole pool: same draws, same
// features row by row, so the same mean and std.
func TestGridTransformsOnlyItsRows(t *testing.T) {
	s := &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Seed: 1, Repeats: 3,
		Data: model.DataSpec{Name: "xperm", TestSize: 300}, Group: model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "cdf", Bins: 2, Templates: 3}},
		Sizes:   []int{30},
		Grid:    &model.GridSpec{Bins: []int{2}, Templates: []int{3}, Size: 30},
	}
	out := runSpec(t, s)
	var curve, grid *meanStd
	for _, sr := range out.Series {
		switch sr.Name {
		case "CDF(2,3) RLS":
			curve = &meanStd{sr.Points[0].Mean, sr.Points[0].Std}
		case "CDF(n,3) RLS":
			grid = &meanStd{sr.Points[0].Mean, sr.Points[0].Std}
		}
	}
	if curve == nil || grid == nil {
		t.Fatalf("series missing: %+v", out.Series)
	}
	if *curve != *grid {
		t.Errorf("grid cell %+v, curve %+v", *grid, *curve)
	}
}

// meanStd is a point's mean and standard deviation.
type meanStd struct{ Mean, Std float64 }

// kindSpec returns a one-method sample-complexity spec of m on the embedded digits (with
// the cyclic-shift group when m needs one), for validation tests.
func kindSpec(m model.Method) *model.Spec {
	s := &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "embedded"}, Group: model.GroupSpec{Kind: "none"},
		Methods: []model.Method{m}, Sizes: []int{20}, Repeats: 1, Seed: 1}
	if m.Kernel == "haar" || m.Pooled() {
		s.Group.Kind = "cyclic-shift"
	}
	return s
}
