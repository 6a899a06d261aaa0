package study

import (
	"runtime"

	"gitui/core/data"
	"gitui/model"
	"gitui/model/engine"
)

// DefaultWorkers is tune.workers when the spec leaves it 0: two jobs decided ahead of
// their predecessors' results, so that two cores are kept busy. It is a constant, not
// the machine's core count, so that a study gives the same trials on every machine.
const DefaultWorkers = 2

// trialPeak returns the largest memory estimate (engine.EstimateBytes) of a trial at
// training size n on the training part and validation split, over 64 seeded random
// configurations of the space and the spec's own: what one worker may need.
func (t *Study) trialPeak(n int, train, val *data.Dataset) float64 {
	ds := engine.DataSize{Pool: train.Len(), Test: val.Len(), Shape: train.Shape, Classes: len(train.Classes)}
	specs := t.sampleSpecs(64, 0x6d656d) // "mem"
	if len(t.Spec.Methods) == 1 {
		specs = append([]*model.Spec{t.Spec.Clone()}, specs...)
	}
	peak := 0.0
	for _, s := range specs {
		s.Tune = nil
		s.Protocol, s.Sizes, s.Repeats, s.Nested = model.ProtocolCurve, []int{n}, 1, false
		s.Grid, s.Sweep, s.PD, s.Approx, s.GroupSizes, s.TestTransform = nil, nil, nil, nil, nil, nil
		// The process and the data are counted once, not once per trial at once.
		e := engine.EstimateBytes(s, ds)
		peak = max(peak, e.Bytes-e.Shared)
	}
	return peak
}

// workersFor returns how many jobs run at once: lag (tune.workers), at most GOMAXPROCS,
// at most as many trials of the given peak estimate as fit in data.AvailableMemory, at
// most limit (when > 0), and at least 1.
func workersFor(lag, limit int, peak float64) int {
	w := min(lag, runtime.GOMAXPROCS(0))
	if limit > 0 {
		w = min(w, limit)
	}
	if mem, _, err := data.AvailableMemory(); err == nil && peak > 0 {
		w = min(w, int(float64(mem)/peak))
	}
	return max(w, 1)
}

// cacheLimit returns the bytes of the study's feature cache: what data.AvailableMemory
// leaves beside workers trials of the given peak estimate, at most a quarter of it (the
// machine is shared), at least 0.
func cacheLimit(workers int, peak float64) int64 {
	limit, _, err := data.AvailableMemory()
	if err != nil {
		return 0
	}
	room := float64(limit)*0.9 - float64(workers)*peak
	return int64(max(0, min(room, float64(limit)/4)))
}

// CacheStats returns the counters of the study's feature cache (zero before Search).
func (t *Study) CacheStats() engine.FeatureCacheStats {
	if t.cache == nil {
		return engine.FeatureCacheStats{}
	}
	return t.cache.Stats()
}
