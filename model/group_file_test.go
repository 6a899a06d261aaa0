package model

import (
	"strings"
	"testing"
)

func TestValidateFileGroups(t *testing.T) {
	base := func(g GroupSpec) *Spec {
		return &Spec{Name: "t", Protocol: ProtocolCurve, Seed: 1, Data: DataSpec{Name: "embedded"}, Sizes: []int{20},
			Group: g, Methods: []Method{{Features: "cdf", Bins: 5, Templates: 5}}}
	}
	for _, g := range []GroupSpec{
		{Kind: "dihedral"}, {Kind: "mirror"}, {Kind: "mirror", Axis: "vertical"},
		{Kind: "permutations", Path: "G.npy"}, {Kind: "linear", Path: "M.npy"},
		{Kind: "generated", Generators: [][]int{{1, 0, 2}}}, {Kind: "generated", GeneratorsPath: "g.npy", Size: 10},
	} {
		if err := resolve(base(g)); err != nil {
			t.Errorf("%+v: %v", g, err)
		}
	}
	for _, c := range []struct {
		g    GroupSpec
		want string
	}{
		{GroupSpec{Kind: "permutations"}, "group.path is empty: name the integer .npy file of shape (|G|, d)"},
		{GroupSpec{Kind: "linear"}, "group.path is empty: name the .npy file of shape (|G|, d, d)"},
		{GroupSpec{Kind: "generated"}, "group.generators is empty: list permutations"},
		{GroupSpec{Kind: "generated", Generators: [][]int{{0}}, GeneratorsPath: "g.npy"}, "are both set: keep one"},
		{GroupSpec{Kind: "generated", Generators: [][]int{{1, 0, 2}, {0, 0, 1}}}, "group.generators.1 repeats 0 at entries 0 and 1"},
		{GroupSpec{Kind: "generated", Generators: [][]int{{1, 0, 2}, {0, 1}}}, "group.generators.1 has 2 entries, want 3"},
		{GroupSpec{Kind: "dihedral", Path: "G.npy"}, `group.path applies to group kinds permutations and linear, not group.kind dihedral: drop it (on a preset: --set group.path="")`},
		{GroupSpec{Kind: "mirror", Axis: "diagonal"}, `group.axis "diagonal" is unknown`},
		{GroupSpec{Kind: "dihedral", Axis: "vertical"}, "group.axis applies to group kind mirror"},
		{GroupSpec{Kind: "rotation", Angles: &AngleSpec{From: 0, To: 10, Count: 2}, Generators: [][]int{{0}}}, "group.generators applies to group kind generated, not group.kind rotation: drop it (on a preset: --set group.generators=null)"},
	} {
		err := resolve(base(c.g))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.g, err, c.want)
		}
	}
	// The Haar kernel is allowed over the new kinds (closure is checked when built), not
	// over a sample of them.
	s := base(GroupSpec{Kind: "dihedral"})
	s.Methods = []Method{{Kernel: "haar", Base: "linear"}}
	if err := resolve(s); err != nil {
		t.Errorf("Haar over dihedral: %v", err)
	}
	s.Group.Size = 4
	if err := resolve(s); err == nil || !strings.Contains(err.Error(), "group.size 4 keeps a sample") {
		t.Errorf("Haar over 4 of the dihedral group: %v", err)
	}
	// test_transform takes the new kinds, and checks them against the data's shape.
	s = base(GroupSpec{Kind: "none"})
	s.Methods = []Method{{Features: "raw"}}
	s.TestTransform = &GroupSpec{Kind: "dihedral"}
	if err := resolve(s); err != nil {
		t.Errorf("test_transform dihedral on embedded digits: %v", err)
	}
	s.Data.Name = "xperm"
	if err := resolve(s); err == nil || !strings.Contains(err.Error(), "test_transform dihedral turns square images by 90°, data xperm has shape [5 8]") {
		t.Errorf("test_transform dihedral on xperm: %v", err)
	}
	s.TestTransform = &GroupSpec{Kind: "reversal"}
	if err := resolve(s); err != nil {
		t.Errorf("test_transform reversal on xperm: %v", err)
	}
	// The registry's rule (SpecFields) also decides where the fields apply in a
	// test_transform: one line per field.
	s.TestTransform = &GroupSpec{Kind: "reversal", Path: "G.npy", Axis: "vertical"}
	err := resolve(s)
	for _, want := range []string{
		"test_transform.path applies to group kinds permutations and linear, not test_transform.kind reversal: drop it",
		"test_transform.axis applies to group kind mirror, not test_transform.kind reversal: drop it",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("test_transform with stray fields: err = %v, want %q", err, want)
		}
	}
}

// TestFileGroupFieldsTidy: the TUI's Tidy clears the fields of a kind left behind by a
// change of group.kind (the registry's clear), and keeps those of the kind chosen.
func TestFileGroupFieldsTidy(t *testing.T) {
	s := &Spec{Protocol: ProtocolCurve, Data: DataSpec{Name: "embedded"}, Sizes: []int{10}, Methods: []Method{{Features: "raw"}},
		Group: GroupSpec{Kind: "mirror", Path: "G.npy", Generators: [][]int{{1, 0}}, GeneratorsPath: "g.npy", Axis: "vertical"}}
	s.Tidy()
	if g := s.Group; g.Path != "" || g.Generators != nil || g.GeneratorsPath != "" || g.Axis != "vertical" {
		t.Errorf("Tidy on mirror: %+v", g)
	}
	s.Group = GroupSpec{Kind: "linear", Path: "M.npy", Axis: "vertical"}
	s.Tidy()
	if g := s.Group; g.Path != "M.npy" || g.Axis != "" {
		t.Errorf("Tidy on linear: %+v", g)
	}
	if err := resolve(s); err != nil {
		t.Errorf("tidied spec: %v", err)
	}
}

// TestInvarianceGroupValidate: Liu et al.'s best fit over the spec's group (invariance
// group) needs a group, takes it whole (not the group-size protocol's samples) and does
// not compose with the locality kernel; TI, RI and TI-RI still want group.kind none.
func TestInvarianceGroupValidate(t *testing.T) {
	base := func(kind string, m Method) *Spec {
		return &Spec{Protocol: ProtocolCurve, Data: DataSpec{Name: "embedded"}, Sizes: []int{10},
			Group: GroupSpec{Kind: kind}, Methods: []Method{m}}
	}
	svm := Method{Kernel: "poly", Gamma: 0.01, Degree: 3, C: 1000, Learner: "svm", Invariance: InvarianceGroup}
	if err := resolve(base("dihedral", svm)); err != nil {
		t.Errorf("G-SVM over dihedral: %v", err)
	}
	if n := MethodName(svm); n != "G-SVM" {
		t.Errorf("name %q, want G-SVM", n)
	}
	for _, c := range []struct {
		s    *Spec
		want string
	}{
		{base("none", svm), "invariance group takes the best fit over the spec's group, and group.kind is none"},
		{base("dihedral", Method{Kernel: "poly", Gamma: 0.01, Degree: 3, C: 1000, Learner: "svm", Invariance: InvarianceGroup,
			Locality: &LocalitySpec{K1: 3, D1: 2, D2: 2}}), "invariance group does not compose with the locality kernel"},
		{func() *Spec {
			s := base("dihedral", svm)
			s.Protocol, s.Sizes, s.GroupSizes = ProtocolGroupSize, []int{10}, []int{1, 8}
			return s
		}(), "the group-size protocol samples it"},
		{base("dihedral", Method{Kernel: "poly", Gamma: 0.01, Degree: 3, Learner: "svm", Invariance: "TI"}), "set group.kind to none (or use invariance group"},
	} {
		if err := resolve(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}
