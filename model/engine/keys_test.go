package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/eval"
	"gitui/core/learn"
	"gitui/model"
)

// altValues gives, per method field, another valid value for a CDF method (as --set
// writes it), for the tests of the derived cache keys. A field missing here fails
// TestFeatureKeyTellsFeaturesApart: add a value for it.
var altValues = map[string]string{
	"features": "moments", "bins": "3", "templates": "4", "template_kind": "sphere", "eps": "0.5",
	"thresholds": "range", "standardize": "mean", "range_sample": "10", "preprocess": "deskew",
	"group":   `{"kind": "local-shift", "radius": 2}`,
	"learner": "1nn", "lambda": "0.01", "feature_kernel": "rbf", "gamma": "0.5",
	"name": "other name",
}

// cdfFeatures returns the features of the pool that method m of spec computes (through
// the builder and featureMethod.Prepare, as a run does), with its cache key.
func cdfFeatures(t *testing.T, spec *model.Spec) (rows *mat.Dense, key string) {
	t.Helper()
	pool, test, err := LoadData(spec.Data, "", spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	pool, test = pool.Subset(firstN(40)), test.Subset(firstN(10))
	g, err := BuildGroup(spec.Group, pool.Shape, spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{spec: spec, pool: pool, group: g}
	em, err := b.method(spec.Methods[0], g)
	if err != nil {
		t.Fatal(err)
	}
	fm, ok := em.(*featureMethod)
	if !ok || fm.cache == nil {
		t.Fatalf("%s: not a cached feature method", spec.Methods[0].DisplayName())
	}
	f, err := em.Prepare(context.Background(), pool, test, eval.NewClock())
	if err != nil {
		t.Fatal(err)
	}
	fp := f.(*featureFitter).fpool
	r, c := fp.Dims()
	out := mat.NewDense(r, c, nil)
	for i := range r {
		fp.Span(out.RawRowView(i), i, 0)
	}
	return out, fm.key
}

// TestFeatureKeyTellsFeaturesApart changes each field that applies to a CDF method, one
// at a time, computes the features of both methods as a run does, and checks the cache
// key the registry derives: methods whose features differ never share a key (the cache
// would hand one the other's features), and methods differing only in a field that does
// not decide the features share it (so that a run computes them once).
func TestFeatureKeyTellsFeaturesApart(t *testing.T) {
	base := &model.Spec{Name: "k", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "embedded"},
		Group:   model.GroupSpec{Kind: "local-shift", Radius: 1},
		Methods: []model.Method{{Features: "cdf", Bins: 2, Templates: 3}}, Sizes: []int{20}, Repeats: 1, Seed: 1}
	f0, k0 := cdfFeatures(t, base)
	m0 := base.Methods[0]
	m0.Defaults()
	for _, f := range model.MethodFields {
		if !f.Applies(m0) || f.Key == "kernel" { // a method sets features or a kernel, not both
			continue
		}
		alt, ok := altValues[f.Key]
		if !ok {
			t.Errorf("field %s applies to CDF methods and has no value in altValues: add one", f.Key)
			continue
		}
		s := base.Clone()
		if err := s.Set(fmt.Sprintf("methods.0.%s=%s", f.Key, alt)); err != nil {
			t.Fatalf("%s: %v", f.Key, err)
		}
		switch f.Key {
		case "standardize", "range_sample": // apply with range thresholds only
			s.Methods[0].Thresholds = "range"
		case "features": // moments have no bins
			s.Methods[0].Bins = 0
		}
		if err := resolve(s); err != nil {
			t.Fatalf("%s=%s: %v", f.Key, alt, err)
		}
		f1, k1 := cdfFeatures(t, s)
		same := mat.Equal(f0, f1)
		if !same && k0 == k1 {
			t.Errorf("%s=%s changes the features but not their cache key: the two methods would share features", f.Key, alt)
		}
		if f.Decides&model.DecidesFeatures == 0 && k0 != k1 {
			t.Errorf("%s=%s does not decide the features but changes their key: the methods would compute them twice", f.Key, alt)
		}
	}
}

// TestFeatureCacheSyntheticField adds a field that decides the features to a copy of the
// registry (a synthetic entry over feature_kernel, which in the registry decides only the
// kernel on the features) and checks that the feature cache then keeps apart two methods
// differing only in it, while with the registry itself they share one set.
func TestFeatureCacheSyntheticField(t *testing.T) {
	a := model.Method{Features: "cdf", Bins: 10, Templates: 20}
	b := a
	b.FeatureKernel = "rbf"
	x := learn.DenseRows{M: mat.NewDense(1, 1, []float64{1})}
	shares := func(fields []*model.MethodField) bool {
		var c featureCache
		ka, kb := featureKeyWith(fields, a), featureKeyWith(fields, b)
		c.use(ka)
		c.use(kb)
		c.keep(ka, x, x)
		_, _, hit := c.take(kb)
		return hit
	}
	if !shares(model.MethodFields) {
		t.Errorf("methods differing only in feature_kernel do not share their features")
	}
	synthetic := append(slices.Clone(model.MethodFields), &model.MethodField{Key: "feature_kernel", Decides: model.DecidesFeatures})
	if shares(synthetic) {
		t.Errorf("a field that decides the features does not keep the cached features apart: methods differing in it share them")
	}
}

// TestKernelKeysFromTheRegistry checks the kernel caches' keys on Liu et al.'s kernels:
// the learner's fields (learner, c, lambda, psd) and kernel_norm leave the Gram cache's
// key alone (the shared matrices are unnormalised), a kernel field changes it; the
// heatmap's identity follows kernel_norm too, and raw features map to the linear kernel.
func TestKernelKeysFromTheRegistry(t *testing.T) {
	m := model.Method{Kernel: "poly", Gamma: 0.01, Degree: 8, Learner: "svm", C: 10, Invariance: "TI"}
	for _, c := range []struct {
		set            func(*model.Method)
		gram, identity bool // whether the keys change
	}{
		{func(m *model.Method) { m.C = 1000 }, false, false},
		{func(m *model.Method) { m.Learner, m.C, m.Lambda = "rls", 0, 0.1 }, false, false},
		{func(m *model.Method) { m.PSD = "clip" }, false, false},
		{func(m *model.Method) { m.Name = "x" }, false, false},
		{func(m *model.Method) { m.KernelNorm = "cosine" }, false, true},
		{func(m *model.Method) { m.Degree = 4 }, true, true},
		{func(m *model.Method) { m.Fit = "average" }, true, true},
	} {
		m1 := m
		c.set(&m1)
		if got := methodKey(m1) != methodKey(m); got != c.gram {
			t.Errorf("%+v: Gram cache key changes %v, want %v", m1, got, c.gram)
		}
		if got := kernelIdentity(m1) != kernelIdentity(m); got != c.identity {
			t.Errorf("%+v: heatmap identity changes %v, want %v", m1, got, c.identity)
		}
	}
	if kernelIdentity(model.Method{Features: "raw", Learner: "1nn"}) != kernelIdentity(model.Method{Kernel: "linear"}) {
		t.Errorf("raw features do not share the linear kernel's heatmap")
	}
}
