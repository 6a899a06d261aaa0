package store

import (
	"context"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
)

// TestJournalChosen runs RLS methods into a run directory and reads the journal back:
// every cell of a method whose lambda is left to leave-one-out records the lambda it
// chose, a Gaussian kernel on features with gamma 0 also its draw's gamma, a method that
// fixes both records nothing, and the result's table holds the medians per series.
func TestJournalChosen(t *testing.T) {
	s := &model.Spec{
		Name: "chosen", Protocol: model.ProtocolCurve, Seed: 1, Repeats: 2,
		Data:  model.DataSpec{Name: "xperm", TestSize: 100},
		Group: model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "raw"}, {Features: "cdf", Bins: 3, Templates: 5, FeatureKernel: "rbf"},
			{Name: "fixed", Features: "cdf", Bins: 3, Templates: 5, FeatureKernel: "rbf", Lambda: 0.01, Gamma: 2}},
		Sizes: []int{20, 40},
	}
	s.Defaults()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	d, err := OpenRunDir(dir, s, RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	var out *eval.Outcome
	for e := range engine.Start(context.Background(), s, engine.RunOptions{Dir: d}) {
		if e, ok := e.(eval.Done); ok {
			if e.Err != nil {
				t.Fatal(e.Err)
			}
			out = e.Outcome
		}
	}
	var tab *model.Table
	for _, tb := range d.Result(out, nil, 0).Tables {
		if tb.Name == ChosenTableName {
			tab = &tb
		}
	}
	d.Close()
	if tab == nil {
		t.Fatal("the result has no table of chosen hyperparameters")
	}
	if got := strings.Join(tab.Columns, ","); got != "series,x,size,draws,gamma,lambda" {
		t.Errorf("chosen table columns %s", got)
	}
	if len(tab.Rows) != 2 {
		t.Fatalf("chosen table rows %v, want one per series that chose (RBF and raw)", tab.Rows)
	}
	for _, r := range tab.Rows { // sorted: "CDF(3,5) RBF RLS", then "raw RLS"
		rbf := strings.Contains(r[0].(string), "RBF")
		g, gok := r[4].(float64)
		l, lok := r[5].(float64)
		if r[1] != 40.0 || r[2] != 40 || r[3] != 2 || !lok || !(l > 0) || rbf != gok || gok && !(g > 0) {
			t.Errorf("chosen table row %v: want x 40, size 40, 2 draws, lambda > 0, gamma > 0 for RBF only", r)
		}
	}
	if d, err = OpenRunDir(dir, nil, RunMeta{}); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	done := d.Done()
	if len(done) != 12 {
		t.Fatalf("%d cells journaled, want 12", len(done))
	}
	for k, c := range done {
		lam, gam := c.Chosen["lambda"], c.Chosen["gamma"]
		switch {
		case k.Series == "fixed":
			if c.Chosen != nil {
				t.Errorf("%v fixes lambda and gamma but journaled chosen %v", k, c.Chosen)
			}
		case strings.Contains(k.Series, "RBF"):
			if !(lam > 0) || !(gam > 0) || len(c.Chosen) != 2 {
				t.Errorf("%v journaled chosen %v, want lambda > 0 and gamma > 0", k, c.Chosen)
			}
		default:
			if !(lam > 0) || len(c.Chosen) != 1 {
				t.Errorf("%v journaled chosen %v, want lambda > 0 only", k, c.Chosen)
			}
		}
	}
}
