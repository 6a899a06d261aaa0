package study

import (
	"fmt"

	"gitui/core/bench"
	"gitui/core/tune"
	"gitui/model"
	"gitui/model/engine"
)

// ListingEstimate returns the time estimate of a study of spec (a tune block, after
// Validate) on data of size ds, before anything is loaded, as `gitui presets -v` and
// the preset picker list it: the schedule Search settles (settle: the rungs, the
// trials, the refit's size) on a pool of ds.Pool samples with its validation split
// carved from it (tune.validation, else a fifth of the pool; none under leave-one-out),
// the refits tested on ds.Test rows, and the baseline when tune.baseline is on
// (engine.EstimateStudy). A size the pool cannot give is the *model.InputError Search
// would return on the same pool.
func ListingEstimate(spec *model.Spec, ds engine.DataSize, r bench.Rates) (engine.TimeEstimate, error) {
	if spec.Tune == nil {
		return engine.TimeEstimate{}, &model.InputError{Err: fmt.Errorf("spec %s has no tune block: it is a run, not a study", spec.Name)}
	}
	ps, err := spec.TuneSpace()
	if err != nil {
		return engine.TimeEstimate{}, &model.InputError{Err: err}
	}
	t := &Study{Spec: spec, Params: ps, Score: spec.Tune.Score}
	train, val := ds.Pool, 1 // leave-one-out: one pool row stands in for the test set
	if t.Score != model.TuneLOO {
		val = spec.Tune.Validation
		if val == 0 {
			val = ds.Pool / 5
		}
		if val < ds.Classes || val >= ds.Pool {
			return engine.TimeEstimate{}, &model.InputError{Err: fmt.Errorf("tune.validation %d does not fit the pool of %d samples and %d classes: use %d..%d (e.g. %d)", val, ds.Pool, ds.Classes, ds.Classes, ds.Pool/2, ds.Pool/5)}
		}
		t.Validation, train = val, ds.Pool-val
	}
	if err := t.settle(ds.Pool, train, tune.Grid{Space: t.space(), Points: spec.Tune.GridPoints}, Options{}); err != nil {
		return engine.TimeEstimate{}, err
	}
	return engine.EstimateStudy(spec, ds, t.plan(train, val), r), nil
}
