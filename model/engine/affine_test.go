package engine

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gitui/core/group"
	"gitui/model"
)

// affineSpec is the MNIST group of the issue with shears: radius 3, 9 angles in ±20°,
// 5 shears in ±0.3, |G| = 49·9·5 = 2205.
func affineSpec() *model.Spec {
	return &model.Spec{Name: "x", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "mnist"}, Sizes: []int{10},
		Group: model.GroupSpec{Kind: "rotation+shift", Radius: 3, Angles: &model.AngleSpec{From: -20, To: 20, Count: 9},
			Shears: &model.AngleSpec{From: -0.3, To: 0.3, Count: 5}},
		Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 5}}}
}

// TestValidateShearsScales checks that shears and scales are accepted on rotation+shift,
// refused elsewhere with one line naming the field and the fix, and refused with a
// reason when out of range, in the spec's group, a method's group and test_transform.
func TestValidateShearsScales(t *testing.T) {
	s := affineSpec()
	s.Group.Scales = &model.AngleSpec{From: 0.9, To: 1.1, Count: 3}
	if err := resolve(s); err != nil {
		t.Fatalf("valid spec: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(s *model.Spec)
		want string
	}{
		{"shears on rotation", func(s *model.Spec) { s.Group.Kind, s.Group.Radius = "rotation", 0 },
			"group.shears applies to group kind rotation+shift, not group.kind rotation: drop it (on a preset: --set group.shears=null)"},
		{"scales on local-shift", func(s *model.Spec) {
			s.Group = model.GroupSpec{Kind: "local-shift", Radius: 1, Scales: &model.AngleSpec{From: 0.9, To: 1.1, Count: 3}}
		},
			"group.scales applies to group kind rotation+shift, not group.kind local-shift"},
		{"count 0", func(s *model.Spec) { s.Group.Shears.Count = 0 }, "group.shears: count 0 is out of range: give finite from and to in [-1, 1] and a count in 1..64"},
		{"count 65", func(s *model.Spec) { s.Group.Shears.Count = 65 }, "group.shears: count 65 is out of range"},
		{"shear 2", func(s *model.Spec) { s.Group.Shears.To = 2 }, "group.shears: from -0.3, to 2: give finite from and to in [-1, 1]"},
		{"shear NaN", func(s *model.Spec) { s.Group.Shears.From = math.NaN() }, "group.shears: from NaN"},
		{"shear Inf", func(s *model.Spec) { s.Group.Shears.From = math.Inf(-1) }, "group.shears: from -Inf"},
		{"equal shears", func(s *model.Spec) { s.Group.Shears = &model.AngleSpec{From: 0.1, To: 0.1, Count: 3} }, "group.shears: 3 values all equal to 0.1 (the same map repeated)"},
		{"scale 0", func(s *model.Spec) { s.Group.Scales = &model.AngleSpec{From: 0, To: 1, Count: 2} }, "group.scales: from 0, to 1: give finite from and to in [0.5, 2]"},
		{"scale 3", func(s *model.Spec) { s.Group.Scales = &model.AngleSpec{From: 1, To: 3, Count: 2} }, "group.scales: from 1, to 3"},
		{"method group", func(s *model.Spec) {
			s.Methods[0].Group = &model.GroupSpec{Kind: "rotation+shift", Radius: 1, Angles: &model.AngleSpec{From: 0, To: 0, Count: 1}, Scales: &model.AngleSpec{From: 0.1, To: 1, Count: 2}}
		}, "methods.0.group.scales: from 0.1, to 1"},
		{"method group kind", func(s *model.Spec) {
			s.Methods[0].Group = &model.GroupSpec{Kind: "rotation", Angles: &model.AngleSpec{From: 0, To: 0, Count: 1}, Shears: &model.AngleSpec{From: 0, To: 0.1, Count: 2}}
		}, "methods.0 (): group.shears and group.scales apply to group kind rotation+shift, not rotation: drop them"},
		{"test_transform", func(s *model.Spec) {
			s.TestTransform = &model.GroupSpec{Kind: "rotation+shift", Radius: 1, Angles: &model.AngleSpec{From: 0, To: 0, Count: 1}, Shears: &model.AngleSpec{From: 0, To: 0, Count: 2}}
		}, "test_transform.shears: 2 values all equal to 0"},
		{"test_transform kind", func(s *model.Spec) {
			s.TestTransform = &model.GroupSpec{Kind: "local-shift", Radius: 1, Scales: &model.AngleSpec{From: 0.9, To: 1, Count: 2}}
		}, "test_transform.shears and test_transform.scales apply to kind rotation+shift, not local-shift: drop them"},
	} {
		s := affineSpec()
		c.edit(s)
		err := resolve(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
			continue
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			if strings.Contains(line, "Shears") || strings.Contains(line, "AngleSpec") || strings.Contains(line, "panic") {
				t.Errorf("%s: %q names an internal identifier", c.name, line)
			}
		}
	}
}

// TestShearsRoundTrip checks that shears and scales survive JSON and YAML, and that a spec
// without them writes neither key (older specs and their run directories are unchanged).
func TestShearsRoundTrip(t *testing.T) {
	y := `name: x
protocol: sample-complexity
data: {name: mnist}
sizes: [10]
group: {kind: rotation+shift, radius: 3, angles: {from: -20, to: 20, count: 9}, shears: {from: -0.3, to: 0.3, count: 5}, scales: {from: 0.9, to: 1.1, count: 3}}
methods: [{features: cdf, bins: 5, templates: 5}]
`
	s, err := model.ParseSpec([]byte(y), true)
	if err != nil {
		t.Fatal(err)
	}
	g := s.Group
	if g.Shears == nil || *g.Shears != (model.AngleSpec{From: -0.3, To: 0.3, Count: 5}) || g.Scales == nil || *g.Scales != (model.AngleSpec{From: 0.9, To: 1.1, Count: 3}) {
		t.Fatalf("YAML: group %+v shears %+v scales %+v", g, g.Shears, g.Scales)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"shears"`) || !strings.Contains(string(b), `"scales"`) {
		t.Fatalf("JSON lacks shears or scales: %s", b)
	}
	s2, err := model.ParseSpec(b, false)
	if err != nil {
		t.Fatal(err)
	}
	if *s2.Group.Shears != *g.Shears || *s2.Group.Scales != *g.Scales {
		t.Errorf("JSON round trip: %+v %+v", s2.Group.Shears, s2.Group.Scales)
	}
	s2.Group.Shears, s2.Group.Scales = nil, nil
	if b, _ := json.Marshal(s2); strings.Contains(string(b), "shears") || strings.Contains(string(b), "scales") {
		t.Errorf("a spec without shears writes them: %s", b)
	}
}

// TestBuildGroupShears checks the built group: |G| = 49·9·5 = 2205 with the identity
// first, its name lists the shears, and without shears and scales it acts exactly as the
// rotation+shift group always has (Product of local shifts and Rotations).
func TestBuildGroupShears(t *testing.T) {
	s := affineSpec()
	a, err := BuildGroup(s.Group, []int{28, 28}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != 2205 {
		t.Errorf("|G| = %d, want 2205", a.Len())
	}
	if !strings.Contains(a.Name(), "shears[-0.3,0.3]/5") {
		t.Errorf("name %q does not list the shears", a.Name())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 784)
	for i := range x {
		x[i] = rng.Float64()
	}
	y := make([]float64, 784)
	a.Apply(y, x, 0)
	if !slices.Equal(x, y) {
		t.Error("element 0 is not the identity")
	}

	// -0.1 + 1·0.3/3 is 1.4e-17 in float64, not 0: still the identity, still first.
	s.Group.Shears = &model.AngleSpec{From: -0.1, To: 0.2, Count: 4}
	if a, err = BuildGroup(s.Group, []int{28, 28}, 1); err != nil {
		t.Fatal(err)
	}
	if a.Apply(y, x, 0); !slices.Equal(x, y) {
		t.Error("shears -0.1..0.2/4: element 0 is not the identity")
	}

	s.Group.Shears = nil
	a, err = BuildGroup(s.Group, []int{28, 28}, 1)
	if err != nil {
		t.Fatal(err)
	}
	old := group.Product(group.LocalShifts(28, 28, 3), group.Rotations(28, 28, group.AngleRange(-20, 20, 9)))
	if a.Name() != old.Name() || a.Len() != old.Len() {
		t.Fatalf("without shears: %q (%d), want %q (%d)", a.Name(), a.Len(), old.Name(), old.Len())
	}
	want := make([]float64, 784)
	for k := 0; k < a.Len(); k += 37 {
		a.Apply(y, x, k)
		old.Apply(want, x, k)
		if !slices.Equal(y, want) {
			t.Fatalf("without shears, element %d differs from the plain rotation+shift group", k)
		}
	}

	// One shear and one scale at their identity: the same maps as without them.
	s.Group.Shears, s.Group.Scales = &model.AngleSpec{From: 0, To: 0, Count: 1}, &model.AngleSpec{From: 1, To: 1, Count: 1}
	a, err = BuildGroup(s.Group, []int{28, 28}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < a.Len(); k += 37 {
		a.Apply(y, x, k)
		old.Apply(want, x, k)
		if !slices.Equal(y, want) {
			t.Fatalf("shear {0} and scale {1}: element %d differs from the plain rotation+shift group", k)
		}
	}
}

// TestEstimateCountsShears checks that the estimate's |G| includes shears and scales, in
// the spec's group and in a method's own group: radius 3, 9 angles, 5 shears and 3
// scales on 28×28 is |G| = 49·135 = 6615: the 5 templates' transformed copies in
// float32 take 4·5·6615·784 B, counted twice (pool and test); without shears and scales
// |G| = 441. The group tables hold 135 linear maps, each 2·4·(4 + 8) = 96 B per pixel
// (forward and inverse, 4 taps of an int32 index and a float64 weight).
func TestEstimateCountsShears(t *testing.T) {
	s := affineSpec()
	s.Group.Scales = &model.AngleSpec{From: 0.9, To: 1.1, Count: 3}
	s.Defaults()
	ds := DataSize{Pool: 1000, Test: 1000, Shape: []int{28, 28}, Classes: 10}
	e := EstimateBytes(s, ds)
	if got, want := item(t, e, "transformed templates"), 2*4*5*6615*784.0; !near(got, want) {
		t.Errorf("transformed templates = %.6g B, want %.6g", got, want)
	}
	if got, want := item(t, e, "135 rotations x shears x scales"), 96*135*784.0; !near(got, want) {
		t.Errorf("group tables = %.6g B, want %.6g", got, want)
	}

	// The same group as a method's own group, the spec's group plain rotations.
	s2 := affineSpec()
	s2.Group.Shears = nil
	mg := s.Group
	s2.Methods[0].Group = &mg
	s2.Defaults()
	e = EstimateBytes(s2, ds)
	if got, want := item(t, e, "transformed templates"), 2*4*5*6615*784.0; !near(got, want) {
		t.Errorf("method group: transformed templates = %.6g B, want %.6g", got, want)
	}
	s2.Methods[0].Group = nil
	e = EstimateBytes(s2, ds)
	if got, want := item(t, e, "transformed templates"), 2*4*5*441*784.0; !near(got, want) {
		t.Errorf("no method group: transformed templates = %.6g B, want %.6g", got, want)
	}
}

// TestFeatureKeyShears checks that methods differing only in their group's shears or
// scales do not share cached features.
func TestFeatureKeyShears(t *testing.T) {
	g := affineSpec().Group
	m := model.Method{Features: "cdf", Bins: 5, Templates: 5, Group: &g}
	k0 := featureKey(m)
	g2 := g
	g2.Shears = &model.AngleSpec{From: -0.2, To: 0.2, Count: 5}
	m2 := m
	m2.Group = &g2
	g3 := g
	g3.Scales = &model.AngleSpec{From: 0.9, To: 1.1, Count: 3}
	m3 := m
	m3.Group = &g3
	g4 := g
	g4.Shears = nil
	m4 := m
	m4.Group = &g4
	keys := []string{k0, featureKey(m2), featureKey(m3), featureKey(m4)}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[i] == keys[j] {
				t.Errorf("feature keys %d and %d are equal: %q", i, j, keys[i])
			}
		}
	}
	// The same values behind other pointers give the same key.
	g5 := g
	sh := *g.Shears
	g5.Shears = &sh
	m5 := m
	m5.Group = &g5
	if featureKey(m5) != k0 {
		t.Errorf("equal groups, different keys: %q vs %q", featureKey(m5), k0)
	}
}

// TestSetShears checks that --set can add shears and scales to a spec that has none (their
// keys are optional in the encoded spec), and edit one of their fields.
func TestSetShears(t *testing.T) {
	s := affineSpec()
	s.Group.Shears = nil
	if err := s.Set(`group.shears={"from":-0.2,"to":0.2,"count":3}`); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("group.scales.count=1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("group.scales.from=1.1"); err != nil {
		t.Fatal(err)
	}
	if err := resolve(s); err != nil {
		t.Fatal(err)
	}
	if *s.Group.Shears != (model.AngleSpec{From: -0.2, To: 0.2, Count: 3}) || *s.Group.Scales != (model.AngleSpec{From: 1.1, Count: 1}) {
		t.Errorf("shears %+v scales %+v", s.Group.Shears, s.Group.Scales)
	}
}

// TestBuildGroupShearsMemory checks that a group whose tables cannot fit is refused before
// they are built: 3600 angles x 64 shears x 64 scales are 14,745,600 linear maps (their
// tables alone about 2.8e11 B), refused under a 1 GiB limit with one line and the fix.
func TestBuildGroupShearsMemory(t *testing.T) {
	t.Setenv(MemoryEnv, "1GiB")
	g := model.GroupSpec{Kind: "rotation+shift", Radius: 1, Angles: &model.AngleSpec{From: 0, To: 359, Count: 3600},
		Shears: &model.AngleSpec{From: -1, To: 1, Count: 64}, Scales: &model.AngleSpec{From: 0.5, To: 2, Count: 64}}
	_, err := BuildGroup(g, []int{28, 28}, 1)
	var ie *model.InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrTooMuchMemory) {
		t.Fatalf("BuildGroup: %v, want an *InputError wrapping ErrTooMuchMemory", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "group.shears") {
		t.Errorf("message %q: want one line naming group.shears in the fix", msg)
	}
}
