package engine

import (
	"strings"
	"testing"

	"gitui/model"
)

// xpermSpec is a small curve on X_perm under permutations with the one method m, for the
// tests of a method field's validation.
func xpermSpec(m model.Method) *model.Spec {
	return &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm", TestSize: 100},
		Group: model.GroupSpec{Kind: "permutation"}, Methods: []model.Method{m}, Sizes: []int{20}, Seed: 1}
}

// checkRefused fails t unless the spec with method m is refused with one line that
// holds want.
func checkRefused(t *testing.T, m model.Method, want string) {
	t.Helper()
	err := resolve(xpermSpec(m))
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("%+v: got %v, want one line with %q", m, err, want)
	}
}

// TestStandardizeField: standardize is accepted on a CDF method with range thresholds and
// refused, with one line naming the field and what to change, elsewhere or unknown.
func TestStandardizeField(t *testing.T) {
	spec := xpermSpec
	ok := model.Method{Features: "cdf", Bins: 5, Templates: 5, Thresholds: "range", Standardize: "spread"}
	if err := resolve(spec(ok)); err != nil {
		t.Fatalf("range thresholds with standardize spread refused: %v", err)
	}
	// The derived name follows the value, so a standardized copy of a method is told
	// apart from the plain one (and from the other standardization).
	plain := ok
	plain.Standardize = ""
	theory := plain
	theory.Thresholds = ""
	for m, want := range map[*model.Method]string{&ok: "CDF(5,5) RLS (range thresholds, standardize spread)",
		&plain: "CDF(5,5) RLS (range thresholds)", &theory: "CDF(5,5) RLS"} {
		if got := m.DisplayName(); got != want {
			t.Errorf("name %q, want %q", got, want)
		}
	}
	both := spec(ok)
	both.Methods = append(both.Methods, plain)
	if err := resolve(both); err != nil {
		t.Errorf("a method and its standardized copy refused together: %v", err)
	}
	cases := []struct {
		m    model.Method
		want string
	}{
		{model.Method{Features: "cdf", Bins: 5, Templates: 5, Standardize: "mean"}, "standardize applies to features cdf with thresholds range, not thresholds theory"},
		{model.Method{Features: "raw", Standardize: "mean"}, "standardize applies to features cdf with thresholds range, not raw"},
		{model.Method{Features: "cdf", Bins: 5, Templates: 5, Thresholds: "range", Standardize: "median"}, `standardize "median" is unknown: use one of mean, spread`},
	}
	for _, c := range cases {
		checkRefused(t, c.m, c.want)
	}
}
