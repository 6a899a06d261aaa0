package engine

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/feature"
	"gitui/model"
)

// TestRangeSampleField: range_sample is accepted on a CDF method with range thresholds,
// named in the method's derived name, and refused with one line naming the field and
// the fix elsewhere or out of range.
func TestRangeSampleField(t *testing.T) {
	spec := xpermSpec
	ok := model.Method{Features: "cdf", Bins: 5, Templates: 5, Thresholds: "range", RangeSample: 500, Standardize: "mean"}
	if err := resolve(spec(ok)); err != nil {
		t.Fatalf("range thresholds with range_sample 500 refused: %v", err)
	}
	if got, want := ok.DisplayName(), "CDF(5,5) RLS (range thresholds from 500 rows, standardize mean)"; got != want {
		t.Errorf("name %q, want %q", got, want)
	}
	all := ok
	all.RangeSample = 0
	both := spec(ok)
	both.Methods = append(both.Methods, all)
	if err := resolve(both); err != nil {
		t.Errorf("a method and its copy fitted on the whole pool refused together: %v", err)
	}
	for _, c := range []struct {
		m    model.Method
		want string
	}{
		{model.Method{Features: "cdf", Bins: 5, Templates: 5, RangeSample: 100}, "range_sample applies to features cdf with thresholds range, not thresholds theory"},
		{model.Method{Features: "cdf", Bins: 5, Templates: 5, Thresholds: "range", RangeSample: -3}, "range_sample -3 is out of range"},
	} {
		checkRefused(t, c.m, c.want)
	}
}

// TestRangeSampleFit checks fitInputs and what it does to the features: the sample is
// range_sample distinct pool rows in pool order, the same for the same seed and another
// for another seed; a sample as large as the pool is the pool (features bit for bit
// those of range_sample 0); and a CDF map fitted on the sample has every template's
// range inside the one fitted on the whole pool (a sample's extremes cannot pass the
// pool's), and narrower for some template.
func TestRangeSampleFit(t *testing.T) {
	spec := &model.Spec{Name: "r", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "embedded"},
		Group:   model.GroupSpec{Kind: "local-shift", Radius: 1},
		Methods: []model.Method{{Features: "cdf", Bins: 2, Templates: 6, Thresholds: "range"}}, Sizes: []int{20}, Repeats: 1, Seed: 1}
	pool, _, err := LoadData(spec.Data, "", spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	pool = pool.Subset(firstN(60))
	m := spec.Methods[0]
	m.RangeSample = 15
	rowsOf := func(x *mat.Dense) []int { // which pool rows x holds
		var at []int
		for i := range x.RawMatrix().Rows {
			for r := range pool.Len() {
				if mat.Equal(x.RowView(i), pool.X.RowView(r)) {
					at = append(at, r)
					break
				}
			}
		}
		return at
	}
	s1 := rowsOf(fitInputs(m, pool, 1))
	if len(s1) != 15 || !slices.IsSorted(s1) || len(slices.Compact(slices.Clone(s1))) != 15 {
		t.Fatalf("sample of 15 rows: got pool rows %v", s1)
	}
	if again := rowsOf(fitInputs(m, pool, 1)); !slices.Equal(again, s1) {
		t.Errorf("same seed, another sample: %v then %v", s1, again)
	}
	if other := rowsOf(fitInputs(m, pool, 2)); slices.Equal(other, s1) {
		t.Errorf("seeds 1 and 2 drew the same sample %v", s1)
	}
	for _, k := range []int{0, 60, 1000} {
		mk := m
		mk.RangeSample = k
		if fitInputs(mk, pool, 1) != pool.X {
			t.Errorf("range_sample %d of a 60-row pool: not the pool itself", k)
		}
	}

	g, err := BuildGroup(spec.Group, pool.Shape, spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	fitted := func(mm model.Method) *feature.CDF {
		fm, err := poolingMap(mm, g, pool, spec.Seed)
		if err != nil {
			t.Fatal(err)
		}
		c := fm.(*feature.CDF)
		if err := c.Fit(context.Background(), fitInputs(mm, pool, spec.Seed), nil); err != nil {
			t.Fatal(err)
		}
		return c
	}
	whole, part := fitted(spec.Methods[0]), fitted(m)
	narrower := false
	for j := range 6 {
		w, p := whole.Thresholds(j), part.Thresholds(j)
		lo, hi := p[0], p[len(p)-1]
		if lo < w[0]-1e-6 || hi > w[len(w)-1]+1e-6 { // float32 projections: sums over another support
			t.Errorf("template %d: sample range [%g, %g] outside the pool's [%g, %g]", j, lo, hi, w[0], w[len(w)-1])
		}
		narrower = narrower || lo > w[0]+1e-6 || hi < w[len(w)-1]-1e-6
	}
	if !narrower {
		t.Error("every template's range from 15 of 60 rows equals the pool's: the sample was not used")
	}
}
