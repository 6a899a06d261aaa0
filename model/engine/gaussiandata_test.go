package engine

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/feature"
	"gitui/core/group"
	"gitui/model"
)

// TestGaussianDataTemplateKind: template_kind gaussian-data builds CDF features from a 2-D
// pool (deterministic for a seed: the same features twice, other features for another
// seed), and data without a 2-D shape are refused with one line naming the kind and the fix.
func TestGaussianDataTemplateKind(t *testing.T) {
	const h, w, n = 8, 8, 60
	src := rand.New(rand.NewPCG(4, 4))
	x := mat.NewDense(n, h*w, nil)
	for i := range n {
		row := x.RawRowView(i)
		for k := range row {
			row[k] = src.Float64()
		}
	}
	pool := &data.Dataset{Name: "grid", X: x, Y: make([]int, n), Classes: []string{"a"}, Shape: []int{h, w}}
	g := group.NewPitchTempo(h, w, []int{-1, 0, 1}, []float64{1}, "test")
	m := model.Method{Name: "cdf", Features: "cdf", Bins: 5, Templates: 4, TemplateOf: "gaussian-data", Thresholds: "range"}
	feats := func(seed uint64) *mat.Dense {
		fm, err := poolingMap(m, g, pool, seed)
		if err != nil {
			t.Fatal(err)
		}
		c := fm.(*feature.CDF)
		if err := c.Fit(context.Background(), pool.X, nil); err != nil {
			t.Fatal(err)
		}
		f, err := c.Transform(context.Background(), pool.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b, c := feats(1), feats(1), feats(2)
	if !mat.Equal(a, b) {
		t.Error("the same seed gave other features")
	}
	if mat.Equal(a, c) {
		t.Error("another seed gave the same features")
	}

	flat := &data.Dataset{Name: "flat", X: x, Y: make([]int, n), Classes: []string{"a"}, Shape: []int{h * w}}
	_, err := poolingMap(m, g, flat, 1)
	if err == nil || !strings.Contains(err.Error(), "template_kind gaussian-data needs samples with a 2-D shape") || !strings.Contains(err.Error(), "use gaussian") {
		t.Errorf("1-D data: err = %v", err)
	}
}
