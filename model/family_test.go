package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// methodKinds are one method of every family and variant whose fields differ: each
// validates as it is (checked by TestMethodKindsValid), so that a refusal after one edit
// is caused by that edit.
func methodKinds() map[string]Method {
	return map[string]Method{
		"raw":           {Features: "raw"},
		"raw 1nn":       {Features: "raw", Learner: "1nn"},
		"bow":           {Features: "bow"},
		"cdf":           {Features: "cdf", Bins: 5, Templates: 5},
		"moments":       {Features: "moments", Templates: 5, TemplateOf: "sphere"},
		"linear rls":    {Kernel: "linear"},
		"rbf 1nn":       {Kernel: "rbf", Gamma: 1, Learner: "1nn"},
		"haar":          {Kernel: "haar", Base: "linear"},
		"poly svm":      {Kernel: "poly", Gamma: 0.01, Degree: 8, C: 10, Learner: "svm"},
		"TI svm":        {Kernel: "linear", C: 10, Learner: "svm", Invariance: "TI"},
		"RI polar":      {Kernel: "rbf", Gamma: 1, C: 10, Learner: "svm", Invariance: "RI", Polar: &PolarSpec{Annuli: 4, Sectors: 8}},
		"L svm":         {Kernel: "poly", Gamma: 0.01, Degree: 2, C: 10, Learner: "svm", Locality: &LocalitySpec{K1: 3, D1: 1, D2: 2}},
		"invariant-svm": {Kernel: "rbf", Gamma: 1, C: 10, Learner: "invariant-svm", Tangents: []string{"hshift"}},
		"vsv":           {Kernel: "rbf", Gamma: 1, C: 10, Learner: "vsv", Tangents: []string{"vshift"}},
	}
}

func kindSpec(m Method) *Spec {
	s := &Spec{Name: "t", Protocol: ProtocolCurve, Data: DataSpec{Name: "embedded"}, Group: GroupSpec{Kind: "none"},
		Methods: []Method{m}, Sizes: []int{20}, Repeats: 1, Seed: 1}
	if m.Kernel == "haar" || m.pooled() {
		s.Group.Kind = "cyclic-shift"
	}
	return s
}

// nonDefault returns a JSON value for f other than its zero and default value, and
// within its range, so that it is refused only for being where it does not apply.
func nonDefault(f *MethodField) string {
	switch f.Kind {
	case KindInt, KindFloat:
		v := f.Max
		if f.Min > 0 {
			v = f.Min
		}
		if f.Kind == KindInt && v > 3 {
			v = 3 // a small valid value (bins, templates, degree, shifts)
		}
		return fmt.Sprint(v)
	case KindLogFloat:
		return "0.5"
	case KindEnum:
		for _, c := range f.Choices {
			if c != f.Default {
				return fmt.Sprintf("%q", c)
			}
		}
	case KindText:
		return `"x"`
	case KindList:
		return fmt.Sprintf("[%q]", f.Choices[0])
	case KindObject:
		return map[string]string{
			"rotations": `{"from": -10, "to": 10, "count": 3}`,
			"polar":     `{"annuli": 2, "sectors": 4}`,
			"locality":  `{"k1": 3, "d1": 1, "d2": 1}`,
		}[f.Key]
	}
	panic("no value for " + f.Key)
}

func TestMethodKindsValid(t *testing.T) {
	for name, m := range methodKinds() {
		if err := kindSpec(m).Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestInapplicableFieldRefused sets, on every method kind, every field of the schema that
// does not apply to it, to a value that is neither zero nor its default, and checks that
// Validate refuses it with one line naming methods.0.KEY and where it applies. The cases
// come from MethodFields, so a new field is covered without a new case; every field that
// applies only somewhere must be refused on at least one kind.
func TestInapplicableFieldRefused(t *testing.T) {
	refused := map[string]bool{}
	for name, m := range methodKinds() {
		for _, f := range MethodFields {
			if f.Applies(m) {
				continue
			}
			s := kindSpec(m)
			if err := s.Set(fmt.Sprintf("methods.0.%s=%s", f.Key, nonDefault(f))); err != nil {
				t.Fatalf("%s: set %s: %v", name, f.Key, err)
			}
			err := s.Validate()
			want := fmt.Sprintf("methods.0.%s applies to %s, not ", f.Key, f.AppliesTo)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s with %s set: err = %v, want %q", name, f.Key, err, want)
				continue
			}
			if n := len(strings.Split(err.Error(), "\n")); n != 1 {
				t.Errorf("%s with %s set: %d lines, want one: %v", name, f.Key, n, err)
			}
			refused[f.Key] = true
		}
	}
	for _, f := range MethodFields {
		if f.applies != nil && !refused[f.Key] {
			t.Errorf("field %s is never refused: add a method kind where it does not apply", f.Key)
		}
	}
}

// TestDefaultValuesNotRefused checks that a field left at its default where it does not
// apply passes: a preset's defaults (filled by Validate) must survive a --set that
// changes the method's family, e.g. template_kind gaussian after features cdf -> raw.
func TestDefaultValuesNotRefused(t *testing.T) {
	s := kindSpec(Method{Features: "cdf", Bins: 5, Templates: 5})
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"methods.0.features=raw", "methods.0.bins=0", "methods.0.templates=0"} {
		if err := s.Set(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Validate(); err != nil {
		t.Errorf("cdf -> raw with template_kind and thresholds at their defaults: %v", err)
	}
}

// TestBadMethodValues checks values refused where the field applies: each message names
// the field, the value and the fix.
func TestBadMethodValues(t *testing.T) {
	liu := Method{Kernel: "poly", Gamma: 0.01, Degree: 8, C: 10, Learner: "svm"}
	cases := []struct {
		m    Method
		set  string
		want string
	}{
		{liu, `methods.0.psd="bogus"`, `psd "bogus" is unknown: use one of clip, flip`},
		{liu, `methods.0.kernel_norm="l2"`, `kernel_norm "l2" is unknown: use one of cosine`},
		{Method{Features: "raw"}, `methods.0.kernel_norm="cosine"`, "methods.0.kernel_norm applies to Liu et al.'s kernels"},
		{Method{Features: "raw"}, "methods.0.bins=7", "methods.0.bins applies to features cdf, not raw"},
		{Method{Kernel: "linear"}, "methods.0.shifts=2", "methods.0.shifts applies to invariance TI or TI-RI, or locality, not no invariance"},
		{Method{Kernel: "linear", C: 1, Learner: "svm", Invariance: "RI"}, "methods.0.shifts=2", "not invariance RI"},
		{Method{Kernel: "poly", Gamma: 0.01, Degree: 2, Learner: "1nn"}, "methods.0.c=0", "learner 1nn does not work with Liu et al.'s kernels: use svm or rls"},
		{Method{Kernel: "haar"}, `methods.0.learner="svm"`, "learner svm does not take the haar kernel"},
		{Method{Features: "cdf", Bins: 5, Templates: 5}, `methods.0.template_kind="noise"`, `template_kind "noise" is unknown`},
		{Method{Features: "cdf", Bins: 5, Templates: 5}, `methods.0.eps=-1`, "eps -1 is out of range"},
	}
	for _, c := range cases {
		s := kindSpec(c.m)
		if err := s.Set(c.set); err != nil {
			t.Fatal(err)
		}
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v with %s: err = %v, want %q", c.m, c.set, err, c.want)
		}
	}
}

// TestFamilies checks that every method kind has one family and that the family's name
// function gives the row names the papers use.
func TestFamilies(t *testing.T) {
	want := map[string]string{
		"raw": "raw RLS", "raw 1nn": "raw 1-NN", "bow": "bag-of-words RLS", "cdf": "CDF(5,5) RLS",
		"moments": "moments(5) RLS", "linear rls": "linear RLS", "rbf 1nn": "RBF 1-NN", "haar": "Haar-linear RLS",
		"poly svm": "SVM", "TI svm": "TI-SVM", "RI polar": "RI-SVM (polar)", "L svm": "L-SVM",
		"invariant-svm": "invariant SVM", "vsv": "VSV",
	}
	for name, m := range methodKinds() {
		if FamilyOf(m) == nil {
			t.Errorf("%s: no family", name)
		}
		if got := m.DisplayName(); got != want[name] {
			t.Errorf("%s: name %q, want %q", name, got, want[name])
		}
	}
	b, _ := json.Marshal(Method{})
	if string(b) != "{}" {
		t.Errorf("the zero Method encodes as %s: every field must be omitempty so that unset means absent", b)
	}
}
