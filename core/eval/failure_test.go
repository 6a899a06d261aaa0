package eval

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"gitui/core/data"
)

// brokenPrep is a method whose preparation fails (a kernel that does not fit, a bad
// group for its features).
type brokenPrep struct{ oracle }

func (b *brokenPrep) Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	return nil, errors.New("the Gram matrix does not fit")
}

// brokenCell is a method whose fits fail at size 20.
type brokenCell struct{ oracle }

func (b *brokenCell) Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	b.test = test
	return b, nil
}
func (b *brokenCell) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) ([]int, error) {
	if len(idx) == 20 {
		return nil, errors.New("the solver diverged")
	}
	return b.oracle.FitPredict(ctx, idx, rng, clk)
}

// TestOneFailingMethodDoesNotStopTheOthers: a method whose
// preparation fails and one whose cells fail, between two good methods: both good
// methods finish every cell, the failures are rows of the failed-methods table (one per
// series, with the error), the run's error names both, and a journal error still stops
// the whole run.
func TestOneFailingMethodDoesNotStopTheOthers(t *testing.T) {
	pool, test := twoClass(100), twoClass(40)
	first, last := &oracle{name: "first"}, &oracle{name: "last"}
	prep, cell := &brokenPrep{oracle{name: "prep"}}, &brokenCell{oracle{name: "cell"}}
	var arms []Arm
	for _, n := range []int{10, 20} {
		for _, m := range []struct {
			s string
			m Method
		}{{"first", first}, {"prep", prep}, {"cell", cell}, {"last", last}} {
			arms = append(arms, Arm{Series: m.s, X: float64(n), Size: n, Method: m.m})
		}
	}
	p := &Protocol{Pool: pool, Test: test, Stages: []Stage{{Name: "curve", Arms: arms}}, Repeats: 3, Sampling: data.Stratified, Seed: 1}
	journaled := 0
	p.OnCell = func(Cell) error { journaled++; return nil }
	out, err := p.Run(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "2 method(s) failed") || !strings.Contains(err.Error(), "prep") || !strings.Contains(err.Error(), "cell") {
		t.Fatalf("err = %v, want one naming the two failed methods", err)
	}
	got := map[string]int{}
	for _, s := range out.Series {
		got[s.Name] = len(s.Points)
	}
	if got["first"] != 2 || got["last"] != 2 {
		t.Errorf("series %v: want first and last with both points", got)
	}
	var tab *Table
	for i := range out.Tables {
		if out.Tables[i].Name == FailedTableName {
			tab = &out.Tables[i]
		}
	}
	if tab == nil || len(tab.Rows) != 2 {
		t.Fatalf("failed-methods table %+v, want two rows", tab)
	}
	want := map[string]string{"prep": "the Gram matrix does not fit", "cell": "the solver diverged"}
	for _, r := range tab.Rows {
		name := r[0].(string)
		if !strings.Contains(r[2].(string), want[name]) || r[1] != "curve" {
			t.Errorf("row %v: want %s with %q in stage curve", r, name, want[name])
		}
	}
	// first and last: 2 sizes × 3 draws each; cell's size-10 cells (3) finish before its
	// size-20 cells fail.
	if journaled < 12 {
		t.Errorf("%d cells journaled, want at least the good methods' 12", journaled)
	}

	// A journal that cannot take a cell stops everything: no method runs after it.
	stopped := 0
	p.OnCell = func(Cell) error { stopped++; return errors.New("no space left on device") }
	_, err = p.Run(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "no space left") || stopped != 1 {
		t.Errorf("journal failure: err %v after %d cells, want it to stop the run at the first", err, stopped)
	}

	// A single method that fails alone keeps its error as it is (bad input stays bad input).
	only := &Protocol{Pool: pool, Test: test, Stages: []Stage{{Arms: []Arm{{Series: "prep", X: 10, Size: 10, Method: prep}}}}, Repeats: 1, Sampling: data.Stratified, Seed: 1}
	if _, err := only.Run(context.Background(), nil); err == nil || strings.Contains(err.Error(), "method(s) failed") || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("a lone failing method: err %v, want its own error", err)
	}
}
