package model

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestSpecFieldsAreSpecPaths checks that every key of the registry is a JSON path of Spec
// whose Go type fits the field's kind, so that the TUI, `--set` and the reference all
// address a real field.
func TestSpecFieldsAreSpecPaths(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range SpecFields {
		if seen[f.Key] {
			t.Errorf("%s is listed twice", f.Key)
		}
		seen[f.Key] = true
		typ := reflect.TypeOf(Spec{})
		for _, part := range strings.Split(f.Key, ".") {
			for typ.Kind() == reflect.Pointer {
				typ = typ.Elem()
			}
			found := false
			for i := range typ.NumField() {
				if k, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); k == part {
					typ, found = typ.Field(i).Type, true
					break
				}
			}
			if !found {
				t.Fatalf("%s: Spec has no JSON path %s (at %q)", f.Key, f.Key, part)
			}
		}
		for typ.Kind() == reflect.Pointer && f.Kind != KindObject {
			typ = typ.Elem()
		}
		want := map[FieldKind][]reflect.Kind{
			KindInt: {reflect.Int, reflect.Uint64}, KindFloat: {reflect.Float64}, KindLogFloat: {reflect.Float64},
			KindEnum: {reflect.String}, KindText: {reflect.String}, KindBool: {reflect.Bool},
			KindIntList: {reflect.Slice}, KindFloatList: {reflect.Slice}, KindIntLists: {reflect.Slice}, KindObject: {reflect.Pointer, reflect.Struct},
		}[f.Kind]
		ok := false
		for _, k := range want {
			ok = ok || typ.Kind() == k
		}
		if !ok {
			t.Errorf("%s: kind %s, but its Go type is %s", f.Key, f.Kind, typ)
		}
		if f.Kind == KindEnum && len(f.Choices) == 0 {
			t.Errorf("%s: an enumeration without choices", f.Key)
		}
		if f.Min > f.Max {
			t.Errorf("%s: Min %g > Max %g", f.Key, f.Min, f.Max)
		}
	}
	for _, k := range []string{"protocol", "data.name", "group.kind", "sizes", "test_transform", "seed"} {
		if SpecFieldOf(k) == nil {
			t.Errorf("the registry has no %s", k)
		}
	}
}

// TestSpecFieldRanges checks that Validate accepts exactly the registry's range of each
// bounded number (the range the TUI's fields take): Min and Max pass, one step outside
// (1 for whole numbers, 0.05 for reals) is refused, zero aside where Defaults fills it.
func TestSpecFieldRanges(t *testing.T) {
	rotShift := func() *Spec {
		s := validSpec()
		s.Data.Name = "embedded"
		s.Group = GroupSpec{Kind: GroupRotationShift, Radius: 1, Angles: &AngleSpec{From: -20, To: 20, Count: 3},
			Shears: &AngleSpec{From: -0.3, To: 0.3, Count: 3}, Scales: &AngleSpec{From: 0.9, To: 1.1, Count: 3}}
		return s
	}
	protocol := func(p string) func() *Spec {
		return func() *Spec {
			s := validSpec()
			s.Protocol = p
			switch p {
			case ProtocolGrid:
				s.Sizes = nil
				s.Grid = &GridSpec{Bins: []int{5}, Templates: []int{5}, Size: 20}
			case ProtocolGroupSize:
				s.Sizes = []int{20}
				s.GroupSizes = []int{1, 10}
			case ProtocolApprox:
				s.Sizes, s.Methods = nil, nil
				s.Approx = &ApproxSpec{Pairs: 10, Templates: []int{5}, Bins: 5}
			}
			return s
		}
	}
	cases := []struct {
		key  string
		base func() *Spec
	}{
		{"data.pool", validSpec}, {"data.test_size", validSpec}, {"data.holdout", validSpec},
		{"group.radius", rotShift}, {"group.angles.count", rotShift}, {"group.size", validSpec},
		{"group.shears.from", rotShift}, {"group.shears.to", rotShift}, {"group.shears.count", rotShift},
		{"group.scales.from", rotShift}, {"group.scales.to", rotShift}, {"group.scales.count", rotShift},
		{"sizes", validSpec}, {"repeats", validSpec},
		{"grid.bins", protocol(ProtocolGrid)}, {"grid.templates", protocol(ProtocolGrid)}, {"grid.size", protocol(ProtocolGrid)},
		{"group_sizes", protocol(ProtocolGroupSize)},
		{"approx.pairs", protocol(ProtocolApprox)}, {"approx.bins", protocol(ProtocolApprox)}, {"approx.templates", protocol(ProtocolApprox)},
	}
	for _, c := range cases {
		f := SpecFieldOf(c.key)
		if f == nil {
			t.Fatalf("no field %s", c.key)
		}
		if err := resolve(c.base()); err != nil {
			t.Fatalf("%s: the base spec is invalid: %v", c.key, err)
		}
		d := 1.0
		if f.Kind == KindFloat {
			d = 0.05
		}
		lit := func(x float64) string {
			v := fmt.Sprint(x)
			if f.Kind == KindIntList {
				return "[" + v + "]"
			}
			return v
		}
		try := func(x float64, ok bool) {
			t.Helper()
			s := c.base()
			err := s.Set(c.key + "=" + lit(x)) // Set refuses a value outside the range itself
			if err != nil && ok {
				t.Fatalf("--set %s=%s: %v", c.key, lit(x), err)
			}
			if err == nil {
				err = resolve(s)
			}
			if ok && err != nil {
				t.Errorf("%s = %v, in the registry's range %v..%v, is refused: %v", c.key, x, f.Min, f.Max, err)
			}
			if !ok && err == nil {
				t.Errorf("%s = %v, outside the registry's range %v..%v, is accepted", c.key, x, f.Min, f.Max)
			}
		}
		try(f.Min, true)
		if f.Min-d != 0 || f.Default == "" { // repeats 0 is the default, 1
			try(f.Min-d, false)
		}
		if f.Max < 1e12 {
			try(f.Max, true)
			try(math.Round((f.Max+d)*100)/100, false)
		}
	}
}

// TestSpecFieldsApply checks the refusal of a spec-level field set where it does not
// apply, and that Tidy clears it, for every field the registry checks.
func TestSpecFieldsApply(t *testing.T) {
	s := validSpec()
	s.Group.Radius = 2
	s.PD = &PDSpec{Sizes: []int{10}, Draws: 1}
	err := resolve(s.Clone())
	for _, want := range []string{
		"group.radius applies to group kinds local-shift and rotation+shift, not group.kind permutation: drop it (on a preset: --set group.radius=0)",
		"pd applies to protocol pd, not protocol sample-complexity: drop it (on a preset: --set pd=null)",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in %v", want, err)
		}
	}
	s.Tidy()
	if s.Group.Radius != 0 || s.PD != nil {
		t.Errorf("Tidy left radius %d, pd %v", s.Group.Radius, s.PD)
	}
	if err := resolve(s); err != nil {
		t.Errorf("after Tidy: %v", err)
	}
}

// TestFallbackApplies: data.fallback is refused on a data set that cannot miss its files
// (generated, built in or a user's path) and accepted on one read from the data directory.
func TestFallbackApplies(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{{"xperm", false}, {"embedded", false}, {"usps", true}, {"mnist", true}} {
		s := &Spec{Name: "t", Protocol: ProtocolCurve, Seed: 1, Data: DataSpec{Name: c.name, Fallback: "digits16"},
			Methods: []Method{{Features: "raw"}}, Sizes: []int{20}}
		err := resolve(s)
		if refused := err != nil && strings.Contains(err.Error(), "data.fallback applies to"); refused == c.ok {
			t.Errorf("data.name %s with fallback digits16: %v", c.name, err)
		}
	}
}
