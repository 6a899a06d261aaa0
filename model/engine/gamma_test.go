package engine

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/model"
)

// TestAutoGamma checks the median heuristic gamma = 1/(2 median ||x_a - x_b||²) on rows
// whose distances are known by hand: the rows c·e_i (scaled unit vectors) are all at
// squared distance 2c² from each other, so gamma = 1/(4c²) exactly, whichever pairs are
// drawn (a pair of a row with itself would give 0 and pull the median down: none may be
// drawn). On rows 0, 1, 2, 3 (1-D) the squared distances are 1, 4, 9 (weights 3, 2, 1 of
// 6 pairs): the median of many draws is 1 or 4, so gamma is 1/2, 1/5 or 1/8.
func TestAutoGamma(t *testing.T) {
	const n, c = 50, 3.0
	x := mat.NewDense(n, n, nil)
	for i := range n {
		x.Set(i, i, c)
	}
	b := &builder{spec: &model.Spec{Seed: 7}, pool: &data.Dataset{X: x, Y: make([]int, n), Shape: []int{n}}}
	g, err := b.autoGamma()
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 / (4 * c * c); math.Abs(g-want) > 1e-15 {
		t.Errorf("gamma %v, want %v", g, want)
	}
	line := &builder{spec: &model.Spec{Seed: 1}, pool: &data.Dataset{X: mat.NewDense(4, 1, []float64{0, 1, 2, 3}), Y: make([]int, 4), Shape: []int{1}}}
	g, err = line.autoGamma()
	if err != nil || !(g == 0.5 || g == 0.2 || g == 0.125) {
		t.Errorf("1-D gamma %v (%v), want 1/2, 1/5 or 1/8", g, err)
	}
	same := &builder{spec: &model.Spec{Seed: 1}, pool: &data.Dataset{X: mat.NewDense(3, 2, nil), Y: make([]int, 3), Shape: []int{2}}}
	if _, err := same.autoGamma(); err == nil {
		t.Error("equal rows: want an error asking for gamma")
	}
}

// TestAutoGammaRuns checks that an RBF method with gamma 0 validates and runs (the help
// promises "0 = auto"), and gives the accuracy of the same method with the gamma the
// heuristic chose, written explicitly.
func TestAutoGammaRuns(t *testing.T) {
	s := &model.Spec{Name: "auto", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "embedded", Pool: 300, TestSize: 100},
		Methods: []model.Method{{Kernel: "rbf"}}, Sizes: []int{60}, Repeats: 1, Seed: 2}
	out := runSpec(t, s)
	if len(out.Series) != 1 || len(out.Series[0].Points) != 1 {
		t.Fatalf("outcome %+v", out)
	}
	acc := out.Series[0].Points[0].Mean
	if acc < 0.5 {
		t.Errorf("RBF RLS with gamma auto: accuracy %v on 10 classes, want >= 0.5", acc)
	}
	pool, _, err := LoadData(s.Data, "", s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	g, err := (&builder{spec: s, pool: pool}).autoGamma()
	if err != nil {
		t.Fatal(err)
	}
	s.Methods[0].Gamma = g
	if again := runSpec(t, s).Series[0].Points[0].Mean; again != acc {
		t.Errorf("gamma auto gave accuracy %v, gamma %v written out %v: the heuristic is not what ran", acc, g, again)
	}
}

// TestSampleGramNames checks that the heatmap's invariant matrix carries the method's
// derived name (the spec leaves it empty), and that a Haar kernel with gamma 0 gets the
// median heuristic there too instead of failing.
func TestSampleGramNames(t *testing.T) {
	s := &model.Spec{Name: "g", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm", TestSize: 100}, Group: model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Kernel: "haar"}}, Sizes: []int{20}, Seed: 1}
	_, inv, err := SampleGram(context.Background(), s, "", 12)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Name != "Haar RLS" {
		t.Errorf("invariant matrix named %q, want Haar RLS", inv.Name)
	}
}
