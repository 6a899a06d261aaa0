package model

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
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
		"cdf rbf":       {Features: "cdf", Bins: 5, Templates: 5, FeatureKernel: "rbf"},
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
	if m.Kernel == "haar" || m.Pooled() {
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
		switch {
		case f.Kind == KindInt && f.Min > 3:
			v = f.Max // the other end of a short range (directions: 4 or 8)
		case f.Kind == KindInt && v > 3:
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
			"group":     `{"kind": "none"}`,
		}[f.Key]
	}
	panic("no value for " + f.Key)
}

func TestMethodKindsValid(t *testing.T) {
	for name, m := range methodKinds() {
		if err := resolve(kindSpec(m)); err != nil {
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
			err := resolve(s)
			want := fmt.Sprintf("methods.0.%s applies to %s, not ", f.Key, f.AppliesTo)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s with %s set: err = %v, want %q", name, f.Key, err, want)
				continue
			}
			if n := len(strings.Split(err.Error(), "\n")); n != 1 {
				t.Errorf("%s with %s set: %d lines, want one: %v", name, f.Key, n, err)
			}
			refused[f.Key] = true
			if err := applyHint(s, err); err != nil {
				t.Errorf("%s with %s set: the hint does not fix it: %v", name, f.Key, err)
			}
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
	if err := resolve(s); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"methods.0.features=raw", "methods.0.bins=0", "methods.0.templates=0"} {
		if err := s.Set(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := resolve(s); err != nil {
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
		{Method{Kernel: "linear"}, "methods.0.shifts=2", "methods.0.shifts applies to invariance TI or TI-RI, or locality, not a method without invariance"},
		{Method{Kernel: "linear", C: 1, Learner: "svm", Invariance: "RI"}, "methods.0.shifts=2", "not invariance RI"},
		{Method{Kernel: "poly", Gamma: 0.01, Degree: 2, Learner: "1nn"}, "methods.0.c=0", "learner 1nn does not work with Liu et al.'s kernels: use svm or rls"},
		{Method{Kernel: "haar"}, `methods.0.learner="svm"`, "learner svm does not take the haar kernel"},
		{Method{Features: "cdf", Bins: 5, Templates: 5}, `methods.0.template_kind="noise"`, `template_kind "noise" is unknown`},
		{Method{Features: "cdf", Bins: 5, Templates: 5}, `methods.0.eps=-1`, "eps -1 is out of range"},
	}
	for _, c := range cases {
		s := kindSpec(c.m)
		err := s.Set(c.set) // a value outside the registry's range is refused by Set itself
		if err == nil {
			err = resolve(s)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v with %s: err = %v, want %q", c.m, c.set, err, c.want)
		}
	}
}

// TestFamilies checks that every method kind has one family and that the family's name
// function gives the row names the papers use.
func TestFamilies(t *testing.T) {
	want := map[string]string{
		"raw": "raw RLS", "raw 1nn": "raw 1-NN", "bow": "bag-of-words RLS", "cdf": "CDF(5,5) RLS", "cdf rbf": "CDF(5,5) RBF RLS",
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
	// TI over local shifts is named apart from TI over the full range.
	poly := Method{Kernel: "poly", Degree: 8, Gamma: 0.01, C: 10, Learner: "svm"}
	for _, c := range []struct {
		inv, tr string
		shifts  int
		loc     bool
		want    string
	}{
		{"TI", "cyclic", 0, false, "TI-SVM"}, {"TI", "zero-fill", 0, false, "TI-SVM (zero-fill)"},
		{"TI", "zero-fill", 2, false, "TI-SVM (±2 zero-fill)"}, {"TI-RI", "cyclic", 1, false, "TI-RI-SVM (±1 cyclic)"},
		{"TI", "cyclic", 3, true, "L-TI-SVM"}, {"TI", "cyclic", 2, true, "L-TI-SVM (±2)"},
	} {
		m := poly
		m.Invariance, m.Translation, m.Shifts = c.inv, c.tr, c.shifts
		if c.loc {
			m.Locality = &LocalitySpec{K1: 3, D1: 2, D2: 2}
		}
		if got := m.DisplayName(); got != c.want {
			t.Errorf("%s %s shifts %d locality %v: name %q, want %q", c.inv, c.tr, c.shifts, c.loc, got, c.want)
		}
	}
	b, _ := json.Marshal(Method{})
	if string(b) != "{}" {
		t.Errorf("the zero Method encodes as %s: every field must be omitempty so that unset means absent", b)
	}
}

// TestInapplicableSpecFieldRefused sets each spec-level field where it does not apply
// (hand-written: these fields are not in the method schema) and checks the one-line
// refusal; Tidy then drops the field and the spec validates again.
func TestInapplicableSpecFieldRefused(t *testing.T) {
	curve := func() *Spec { return kindSpec(Method{Features: "raw"}) }
	cases := []struct {
		name string
		base func() *Spec
		set  string
		want string
	}{
		{"grid in pd", func() *Spec {
			s := kindSpec(Method{Kernel: "linear", C: 1, Learner: "svm", Invariance: "TI"})
			s.Protocol, s.Sizes, s.PD = ProtocolPD, nil, &PDSpec{Sizes: []int{10}, Draws: 1}
			return s
		}, `grid={"bins":[1],"templates":[1],"size":10}`, "grid applies to protocols grid and sample-complexity, not protocol pd"},
		{"approx in curve", curve, `approx={"pairs":10,"templates":[5],"bins":5}`, "approx applies to protocol kernel-approx, not protocol sample-complexity"},
		{"pd in curve", curve, `pd={"sizes":[10],"draws":1}`, "pd applies to protocol pd, not protocol sample-complexity"},
		{"sweep in curve", curve, `sweep={"field":"gamma","values":[1],"size":10}`, "sweep applies to protocol sweep"},
		{"group_sizes in curve", curve, "group_sizes=[1,2]", "group_sizes applies to protocol group-size"},
		{"nested in grid", func() *Spec {
			s := kindSpec(Method{Features: "cdf", Bins: 5, Templates: 5})
			s.Protocol, s.Sizes, s.Grid = ProtocolGrid, nil, &GridSpec{Bins: []int{1}, Templates: []int{1}, Size: 20}
			return s
		}, "nested=true", "nested applies to protocol sample-complexity, not protocol grid"},
		{"sizes in sweep", func() *Spec {
			s := kindSpec(Method{Kernel: "rbf", Gamma: 1})
			s.Protocol, s.Sizes, s.Sweep = ProtocolSweep, nil, &SweepSpec{Field: "gamma", Values: []float64{1}, Size: 20}
			return s
		}, "sizes=[10]", "sizes applies to protocols sample-complexity and group-size"},
		{"radius with rotation", func() *Spec {
			s := kindSpec(Method{Features: "cdf", Bins: 5, Templates: 5})
			s.Group = GroupSpec{Kind: "rotation", Angles: &AngleSpec{From: -10, To: 10, Count: 3}}
			return s
		}, "group.radius=2", "group.radius applies to group kinds local-shift and rotation+shift, not group.kind rotation"},
		{"angles with cyclic shifts", func() *Spec { return kindSpec(Method{Features: "cdf", Bins: 5, Templates: 5}) },
			`group.angles={"from":-10,"to":10,"count":3}`, "group.angles applies to group kinds rotation and rotation+shift, not group.kind cyclic-shift"},
		{"group size without a group", curve, "group.size=5", "group.size applies to a group (group.kind other than none), not group.kind none"},
		{"test_size with a holdout", func() *Spec { s := curve(); s.Data.Holdout = 100; return s }, "data.test_size=50",
			"data.test_size applies to the test set, which data.holdout replaces, not data.holdout 100 with data.name embedded"},
		{"path without file", curve, `data.path="x.csv"`, "data.path applies to data.name file, not data.name embedded"},
		{"test_path without file", curve, `data.test_path="x.csv"`, "data.test_path applies to data.name file, not data.name embedded"},
	}
	for _, c := range cases {
		s := c.base()
		if err := resolve(s.Clone()); err != nil {
			t.Fatalf("%s: base spec invalid: %v", c.name, err)
		}
		if err := s.Set(c.set); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err := resolve(s)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line containing %q", c.name, err, c.want)
		}
		if err := applyHint(s.Clone(), err); err != nil {
			t.Errorf("%s: the hint does not fix it: %v", c.name, err)
		}
		s.Tidy()
		if err := resolve(s); err != nil {
			t.Errorf("%s: after Tidy: %v", c.name, err)
		}
	}
}

// TestTidyMethod checks that Tidy drops the fields a family change leaves behind (the
// TUI switching features cdf -> raw, or dropping an invariance), so the spec validates.
func TestTidyMethod(t *testing.T) {
	s := kindSpec(Method{Features: "cdf", Bins: 5, Templates: 5, Eps: 0.5, Thresholds: "range"})
	s.Methods[0].Features = "raw"
	if resolve(s.Clone()) == nil {
		t.Fatal("cdf fields on raw features must be refused before Tidy")
	}
	s.Tidy()
	if err := resolve(s); err != nil {
		t.Fatalf("after Tidy: %v", err)
	}
	if m := s.Methods[0]; m.Bins != 0 || m.Templates != 0 || m.Eps != 0 || m.Thresholds != "" {
		t.Errorf("Tidy left %+v", m)
	}
	l := kindSpec(Method{Kernel: "linear", C: 1, Learner: "svm", Invariance: "TI", Translation: "zero-fill", Shifts: 2, Fit: "average"})
	l.Methods[0].Invariance = ""
	l.Tidy()
	if err := resolve(l); err != nil {
		t.Fatalf("after dropping TI and Tidy: %v", err)
	}
}

// TestHaarNeedsWholeGroup checks that the Haar kernel is refused before the run on a
// sampled group, on a set that is not a group, and in the group-size protocol, each
// time naming the field and the fix (and no Go identifier).
func TestHaarNeedsWholeGroup(t *testing.T) {
	cases := []struct {
		edit func(*Spec)
		want string
	}{
		{func(s *Spec) { s.Group.Size = 10 }, "group.size 10 keeps a sample of it: set group.size to 0"},
		{func(s *Spec) { s.Group = GroupSpec{Kind: "local-shift", Radius: 1} }, "group.kind local-shift is not one"},
		{func(s *Spec) { s.Protocol, s.GroupSizes = ProtocolGroupSize, []int{1, 5} }, "the group-size protocol samples the group"},
	}
	for _, c := range cases {
		s := kindSpec(Method{Kernel: "haar", Gamma: 1})
		c.edit(s)
		err := resolve(s)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "Haar"+"GramExact") {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

// TestCannotRunRefused checks combinations that used to fail only after the data were
// loaded: pooled features or the Haar kernel without a group, and an automatic gamma in
// the pd protocol (which draws no training pool to choose it on).
func TestCannotRunRefused(t *testing.T) {
	cdf := kindSpec(Method{Features: "cdf", Bins: 5, Templates: 5})
	cdf.Group.Kind = "none"
	haar := kindSpec(Method{Kernel: "haar"})
	haar.Group.Kind = "none"
	pd := kindSpec(Method{Kernel: "rbf", C: 1, Learner: "svm", Invariance: "TI"})
	pd.Protocol, pd.Sizes, pd.PD = ProtocolPD, nil, &PDSpec{Sizes: []int{10}, Draws: 1}
	for _, c := range []struct {
		s    *Spec
		want string
	}{
		{cdf, "cdf pooling averages over a group, and group.kind is none: set group.kind"},
		{haar, "the Haar kernel averages over a group, and group.kind is none"},
		{pd, "gamma 0 (auto) is chosen on the training pool, which protocol pd does not draw: set gamma > 0"},
	} {
		if err := resolve(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

// TestSchemaCoversMethod checks that MethodFields and Method agree: every field of the
// struct has exactly one schema entry with its JSON key (so a new field cannot skip
// validation, the TUI and `presets -v`), and the YAML key is the same.
func TestSchemaCoversMethod(t *testing.T) {
	typ := reflect.TypeOf(Method{})
	seen := map[string]int{}
	for _, f := range MethodFields {
		seen[f.Key]++
	}
	for i := range typ.NumField() {
		sf := typ.Field(i)
		j, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		y, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		if j != y {
			t.Errorf("Method.%s: json key %q, yaml key %q", sf.Name, j, y)
		}
		if seen[j] != 1 {
			t.Errorf("Method.%s (%s) has %d schema entries, want 1: add it to MethodFields", sf.Name, j, seen[j])
		}
		delete(seen, j)
	}
	for k := range seen {
		t.Errorf("schema entry %s is not a field of Method", k)
	}
}

// applyHint applies the "(on a preset: --set KEY=VALUE)" fix a refusal names, and
// returns what Validate says afterwards (nil: the hint fixes the spec).
func applyHint(s *Spec, refusal error) error {
	_, hint, ok := strings.Cut(refusal.Error(), "(on a preset: --set ")
	if !ok {
		return fmt.Errorf("no --set hint in %q", refusal)
	}
	hint, _, _ = strings.Cut(hint, ")")
	if err := s.Set(hint); err != nil {
		return err
	}
	return resolve(s)
}

// TestEveryFieldDecides checks that every field of the registry says what it decides
// (exactly one of the Decides flags), and that every JSON field of Method is in the
// registry: a field left out would be left out of the cache keys (KeyOf), and two
// methods differing in it would share features or kernels.
func TestEveryFieldDecides(t *testing.T) {
	keys := map[string]bool{}
	for _, f := range MethodFields {
		keys[f.Key] = true
		if d := f.Decides; d == 0 || d&(d-1) != 0 || d > DecidesLearner {
			t.Errorf("field %s: Decides %b: say exactly one of DecidesName, DecidesFeatures, DecidesKernel, DecidesKernelNorm, DecidesLearner", f.Key, d)
		}
	}
	for k := range methodFieldIndex {
		if !keys[k] {
			t.Errorf("Method field %q has no entry in MethodFields: add one (with what it decides)", k)
		}
	}
}

// TestKeyOfFollowsTheRegistry sets each field of a CDF method and of a Liu kernel method
// to another valid value and checks the derived keys: the features key changes exactly
// when the field decides the features, the kernel key (features and kernel) exactly when
// it decides either.
func TestKeyOfFollowsTheRegistry(t *testing.T) {
	bases := []Method{
		{Features: "cdf", Bins: 10, Templates: 20},
		{Kernel: "poly", Gamma: 0.01, Degree: 8, Learner: "svm", C: 10, Invariance: "TI"},
	}
	for _, m0 := range bases {
		m0.Defaults()
		for _, f := range MethodFields {
			m1 := m0
			if err := json.Unmarshal([]byte(nonDefault(f)), m1.value(f.Key).Addr().Interface()); err != nil {
				t.Fatalf("%s: %v", f.Key, err)
			}
			if reflect.DeepEqual(m0.value(f.Key).Interface(), m1.value(f.Key).Interface()) {
				continue
			}
			for _, what := range []Decides{DecidesFeatures, DecidesFeatures | DecidesKernel} {
				differ := KeyOf(MethodFields, m0, what) != KeyOf(MethodFields, m1, what)
				if want := f.Decides&what != 0; differ != want {
					t.Errorf("%s: setting %s to %s: key of %b differs %v, want %v", m0.DisplayName(), f.Key, nonDefault(f), what, differ, want)
				}
			}
		}
	}
}

// TestKeyOfSyntheticField adds a field that decides the features to a copy of the
// registry (a synthetic entry over feature_kernel, which decides only the kernel) and
// checks that the features key then tells apart two methods differing only in it,
// while the registry itself lets them share their features.
func TestKeyOfSyntheticField(t *testing.T) {
	a := Method{Features: "cdf", Bins: 10, Templates: 20}
	b := a
	b.FeatureKernel = "rbf"
	if KeyOf(MethodFields, a, DecidesFeatures) != KeyOf(MethodFields, b, DecidesFeatures) {
		t.Fatalf("feature_kernel decides the kernel on the features, not the features: the key must not depend on it")
	}
	fields := append(slices.Clone(MethodFields), &MethodField{Key: "feature_kernel", Decides: DecidesFeatures})
	if KeyOf(fields, a, DecidesFeatures) == KeyOf(fields, b, DecidesFeatures) {
		t.Errorf("a field that decides the features does not enter the features key: methods differing in it would share features")
	}
}

// TestNystromFieldsRefused checks the one-line refusals of solver and centres: no
// centres, centres out of range or not below the largest training size, and solver or
// centres where they do not apply (each problem is one line; an unknown solver also
// makes centres not apply, a second line).
func TestNystromFieldsRefused(t *testing.T) {
	ny := Method{Features: "raw", Learner: "rls", FeatureKernel: "rbf", Solver: "nystrom", Centres: 10}
	if err := resolve(kindSpec(ny)); err != nil {
		t.Fatalf("valid Nyström method refused: %v", err)
	}
	cases := []struct {
		edit func(*Method)
		want string
	}{
		{func(m *Method) { m.Centres = 0 }, "solver nystrom needs centres"},
		{func(m *Method) { m.Centres = -4 }, "centres -4 is out of range"},
		{func(m *Method) { m.Centres = 20 }, "centres 20 is not below the largest training size 20"},
		{func(m *Method) { m.Centres = 19 }, "centres 19 exceed the 17 rows lambda is fitted on at training size 20"},
		{func(m *Method) { m.Solver = "cholesky" }, `solver "cholesky"`},
		{func(m *Method) { m.FeatureKernel = "" }, "applies to feature_kernel rbf, not linear features"},
		{func(m *Method) { m.Solver = "" }, "applies to solver nystrom, not solver exact"},
		{func(m *Method) { *m = Method{Kernel: "rbf", Learner: "rls", Solver: "nystrom", Centres: 5} }, "use features raw with feature_kernel rbf"},
	}
	for _, c := range cases {
		m := ny
		c.edit(&m)
		err := resolve(kindSpec(m))
		if err == nil || !strings.Contains(strings.Split(err.Error(), "\n")[0], c.want) {
			t.Errorf("%+v: err = %v, want a first line with %q", m, err, c.want)
		}
	}
}
