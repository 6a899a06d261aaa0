package engine

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/feature"
	"gitui/model"
)

// TestCheckedMapBuiltOnce checks that a feature method's map is built once when Check
// and Prepare see the same pool (data-covariance templates are a covariance sketch of
// the pool), and again for another pool (the deskewed copy) or a second preparation,
// since Fit changes the map it is given.
func TestCheckedMapBuiltOnce(t *testing.T) {
	builds := 0
	f := &featureMethod{spec: model.Method{Name: "raw", Features: "raw"}, build: func(*data.Dataset) (feature.Map, error) {
		builds++
		return feature.Raw{}, nil
	}}
	ds := func() *data.Dataset {
		return &data.Dataset{Name: "t", X: mat.NewDense(4, 2, []float64{1, 0, 0, 1, 1, 1, 0, 2}), Y: []int{0, 1, 0, 1}, Classes: []string{"a", "b"}, Shape: []int{2}}
	}
	pool, test := ds(), ds()
	ctx := context.Background()
	if err := f.Check(ctx, pool, test); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.compute(ctx, pool, test, eval.NewClock()); err != nil {
		t.Fatal(err)
	}
	if builds != 1 {
		t.Fatalf("Check and the preparation on the same pool built the map %d times, want 1", builds)
	}
	if _, _, err := f.compute(ctx, pool, test, eval.NewClock()); err != nil {
		t.Fatal(err)
	}
	if err := f.Check(ctx, pool, test); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.compute(ctx, ds(), test, eval.NewClock()); err != nil {
		t.Fatal(err)
	}
	if builds != 4 || f.checked.m != nil {
		t.Fatalf("after a second preparation and one on another pool: %d builds (want 4), map kept %v (want none)", builds, f.checked.m != nil)
	}
}
