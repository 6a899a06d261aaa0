package model

import (
	"strings"
	"testing"
)

// TestValidateFallbackDisjointSweep checks the spec rules of data.fallback, sampling
// disjoint and sweeps with reference methods.
func TestValidateFallbackDisjointSweep(t *testing.T) {
	base := func() *Spec {
		return &Spec{Name: "t", Protocol: ProtocolSweep, Seed: 1, Repeats: 23, Sampling: "disjoint",
			Data: DataSpec{Name: "usps-binary", Fallback: "digits16"},
			Methods: []Method{
				{Kernel: "poly", Degree: 3, Gamma: 0.04, C: 100, Learner: "invariant-svm", Tangents: []string{"hshift"}},
				{Kernel: "poly", Degree: 3, Gamma: 0.04, C: 100, Learner: "vsv", Tangents: []string{"hshift"}},
			},
			Sweep: &SweepSpec{Field: "inv_gamma", Values: []float64{0, 0.9}, Size: 317}}
	}
	if err := resolve(base()); err != nil {
		t.Fatalf("valid spec refused: %v", err)
	}
	if s := base(); s.SweepReference(s.Methods[0]) || !s.SweepReference(s.Methods[1]) {
		t.Error("SweepReference: want the VSV, not the invariant SVM")
	}
	for _, c := range []struct {
		edit func(*Spec)
		want string
	}{
		{func(s *Spec) { s.Data.Fallback = "usps-binary" }, "data.fallback \"usps-binary\": name another data set"},
		{func(s *Spec) { s.Data.Fallback = "nope" }, "data.fallback \"nope\" is unknown"},
		{func(s *Spec) { s.Data.Pool = 1000 }, "23 repeats of 317 samples need 7291 pool samples, data.pool is 1000"},
		{func(s *Spec) { s.Methods = s.Methods[1:] }, "sweep.field inv_gamma applies to learner invariant-svm, and no method is one"},
	} {
		s := base()
		c.edit(s)
		if err := resolve(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}
