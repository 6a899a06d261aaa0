package engine

import (
	"context"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/model"
)

// TestCurveWithGrid runs a curve whose first method is not CDF together with a bins x
// templates grid: the grid takes the first CDF method, and both parts reach the outcome.
func TestCurveWithGrid(t *testing.T) {
	s := &model.Spec{
		Name: "t", Protocol: model.ProtocolCurve, Seed: 1, Repeats: 1,
		Data:    model.DataSpec{Name: "xperm", TestSize: 300},
		Group:   model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "raw"}, {Features: "cdf", Bins: 3, Templates: 3}},
		Sizes:   []int{20},
		Grid:    &model.GridSpec{Bins: []int{2, 4}, Templates: []int{2}, Size: 20},
	}
	var out *eval.Outcome
	for e := range Start(context.Background(), s, RunOptions{}) {
		if d, ok := e.(eval.Done); ok {
			if d.Err != nil {
				t.Fatal(d.Err)
			}
			out = d.Outcome
		}
	}
	var names []string
	for _, sr := range out.Series {
		names = append(names, sr.Name+"@"+sr.XLabel)
	}
	got := strings.Join(names, ", ")
	for _, want := range []string{"raw RLS@training set size", "CDF(3,3) RLS@training set size", "CDF(n,2) RLS@bins n"} {
		if !strings.Contains(got, want) {
			t.Errorf("series %s lack %s", got, want)
		}
	}
}
