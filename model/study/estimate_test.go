package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gitui/core/bench"
	"gitui/model"
	"gitui/model/engine"
)

// searchEstimate opens a study of spec in a new directory and returns the time
// estimate its Search sends, cancelling the search before its first job.
func searchEstimate(t *testing.T, spec *model.Spec) engine.TimeEstimate {
	t.Helper()
	st, err := Open(filepath.Join(t.TempDir(), "s"), spec)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var est *engine.TimeEstimate
	err = st.Search(ctx, Options{Estimate: func(e engine.TimeEstimate) { est = &e; cancel() }})
	if !errors.Is(err, context.Canceled) || est == nil {
		t.Fatalf("Search: err %v, estimate %v: want it cancelled after the estimate", err, est)
	}
	return *est
}

// TestStudyEstimateCountsTheBaseline: the study's time estimate counts the baseline
// (tune.baseline, on by default): with it the estimate exceeds the one without by one
// job at the top rung (540 of the blobs' 600 training samples) and one refit (in
// DIR/refit-baseline when it is not the best), each read off the estimate without it
// (the top rung's item over its trials, the refit item), to 1e-9 relative (sums of the
// same terms in another order). The estimate Search sends on the loaded pool is the one
// ListingEstimate gives on its sizes without loading it (the same schedule).
func TestStudyEstimateCountsTheBaseline(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	on := blobSpec(dir, filepath.Join(dir, "test.csv"))
	off := blobSpec(dir, filepath.Join(dir, "test.csv"))
	off.Tune.Baseline = new(bool)
	eOn, eOff := searchEstimate(t, on), searchEstimate(t, off)

	var topTrial, refit float64
	for _, it := range eOff.Items {
		var k float64
		var n int
		if _, err := fmt.Sscanf(it.What, "%g trials at n = %d", &k, &n); err == nil && n == 540 {
			topTrial = it.Seconds() / k
		}
		if it.What == "refit" {
			refit = it.Seconds() // tune.refit_top 0: one refit
		}
		if strings.Contains(it.What, "baseline") {
			t.Errorf("tune.baseline false: the estimate has a baseline item %+v", it)
		}
	}
	if topTrial <= 0 || refit <= 0 {
		t.Fatalf("the estimate without the baseline has no top-rung trial (%g s) or refit (%g s): %+v", topTrial, refit, eOff.Items)
	}
	want := topTrial + refit
	if got := eOn.Seconds - eOff.Seconds; math.Abs(got-want) > 1e-9*want {
		t.Fatalf("the baseline adds %.9g s to the estimate, want one top-rung job %.9g s + one refit %.9g s = %.9g s", got, topTrial, refit, want)
	}
	found := false
	for _, it := range eOn.Items {
		found = found || it.What == "baseline (your setting) at n = 540 and its refit"
	}
	if !found {
		t.Errorf("no baseline item in %+v", eOn.Items)
	}

	// The listing's estimate: the pool of 750 rows, the refits tested on the validation
	// split's 150 (a data file's test rows are not known before it is read: testRows).
	on.Defaults()
	ds := engine.DataSize{Pool: 750, Test: 150, Shape: []int{4}, Classes: 3}
	le, err := ListingEstimate(on, ds, bench.LoadRatesOnce())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(le.Seconds-eOn.Seconds) > 1e-12*eOn.Seconds {
		t.Fatalf("ListingEstimate %.9g s, Search's estimate %.9g s: want the same schedule\nlisting %+v\nsearch  %+v", le.Seconds, eOn.Seconds, le.Items, eOn.Items)
	}
}
