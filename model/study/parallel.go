package study

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"gitui/core/data"
	"gitui/core/tune"
	"gitui/model"
	"gitui/model/engine"
)

// DefaultWorkers is tune.workers when the spec leaves it 0: two jobs decided ahead of
// their predecessors' results, so that two cores are kept busy. It is a constant, not
// the machine's core count, so that a study gives the same trials on every machine.
const DefaultWorkers = 2

// slot is one issued job: its trial spec and parameters, and once complete its record.
type slot struct {
	job      tune.Job
	spec     *model.Spec
	params   map[string]any
	complete bool
	rec      jobRecord
}

// completion is a finished job of a worker: the index of its slot, its validation
// accuracy or error, and its seconds.
type completion struct {
	idx     int
	v       float64
	err     error
	seconds float64
}

// runJobs runs the scheduler's jobs, up to t.Workers at once, each as soon as a worker is
// free, and applies their results to the scheduler in job order: job i is decided (the
// scheduler's Next, then the sampler's configuration for a new trial) after the results
// of jobs 0..i-t.Lag are applied and no others, unless the scheduler has no job to give,
// when the next result in order is applied (waiting for it) and Next asked again. So the
// sequence of jobs, and every result, is a function of the spec alone (its seed and
// tune.workers), whatever the timing and the number of workers actually running; jobs
// found in the journal are not run again. Finished jobs are journaled as they finish
// (in any order: the journal is keyed by trial and rung). It returns when the scheduler
// is finished, on an input error, or when ctx is cancelled (after the running jobs
// stopped; ctx.Err()).
func (t *Study) runJobs(ctx context.Context, sampler tune.Sampler, startup int, loaded *engine.LoadedData, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan completion, t.Workers)
	var slots []*slot
	applied, running := 0, 0
	// receive takes one finished job off the workers and journals it.
	receive := func() error {
		c := <-done
		running--
		if ctx.Err() != nil {
			return ctx.Err()
		}
		sl := slots[c.idx]
		rec := jobRecord{Trial: sl.job.Trial, Rung: sl.job.Rung, N: sl.job.N, Params: sl.params, Validation: c.v, Seconds: c.seconds}
		if c.err != nil {
			rec.Error, rec.Validation = oneLine(c.err.Error()), 0
		}
		if err := t.j.append(rec); err != nil {
			return err
		}
		sl.rec, sl.complete = rec, true
		if opts.Log != nil {
			state := fmt.Sprintf("validation %.4f", rec.Validation)
			if rec.Error != "" {
				state = "failed: " + rec.Error
			}
			opts.Log(fmt.Sprintf("trial %d rung %d (n %d): %s (%.2f s) %s", rec.Trial, rec.Rung, rec.N, state, rec.Seconds, fmtParams(rec.Params)))
		}
		return nil
	}
	// apply reports the next job in order to the scheduler, waiting for it to finish.
	apply := func() error {
		sl := slots[applied]
		for !sl.complete {
			if err := receive(); err != nil {
				return err
			}
		}
		if sl.rec.Error != "" {
			t.errs[sl.job.Trial] = sl.rec.Error
		}
		t.sched.Report(sl.job, sl.rec.Validation)
		applied++
		return nil
	}
	stop := func(err error) error { // cancel the workers and wait for them
		cancel()
		for running > 0 {
			<-done
			running--
		}
		return err
	}
	for {
		for applied <= len(slots)-t.Lag {
			if err := apply(); err != nil {
				return stop(err)
			}
		}
		job, ok := t.sched.Next()
		if !ok {
			if applied < len(slots) {
				if err := apply(); err != nil {
					return stop(err)
				}
				continue
			}
			if t.sched.Finished() {
				return nil
			}
			return fmt.Errorf("internal error (please report): the scheduler waits with no job running")
		}
		if job.Rung == 0 || t.configs[job.Trial] == nil {
			t.configs[job.Trial] = sampler.Sample(job.Trial, t.history(startup))
		}
		spec, params, err := t.Spec.TrialSpec(t.Params, t.configs[job.Trial])
		if err != nil {
			return stop(&model.InputError{Err: err})
		}
		sl := &slot{job: job, spec: spec, params: params}
		if rec, ok := t.j.jobs[[2]int{job.Trial, job.Rung}]; ok {
			if rec.N != job.N || !sameParams(rec.Params, params) {
				return stop(&model.InputError{Err: fmt.Errorf("%s: trial %d at rung %d does not match this study's schedule (journaled n %d, params %v; now n %d, %v): the journal is of another gitui or of other tune.workers; start a new study", TrialsFile, job.Trial, job.Rung, rec.N, rec.Params, job.N, params)})
			}
			sl.rec, sl.complete = rec, true
			slots = append(slots, sl)
			continue
		}
		for running >= t.Workers {
			if err := receive(); err != nil {
				return stop(err)
			}
		}
		idx := len(slots)
		slots = append(slots, sl)
		running++
		go func() {
			t0 := time.Now()
			v, err := runTrial(ctx, spec, job.N, opts.DataDir, loaded, t.cache)
			done <- completion{idx: idx, v: v, err: err, seconds: time.Since(t0).Seconds()}
		}()
	}
}

// trialPeak returns the largest memory estimate (engine.EstimateBytes) of a trial at
// training size n on the training part and validation split, over 64 seeded random
// configurations of the space and the spec's own: what one worker may need.
func (t *Study) trialPeak(n int, train, val *data.Dataset) float64 {
	ds := engine.DataSize{Pool: train.Len(), Test: val.Len(), Shape: train.Shape, Classes: len(train.Classes)}
	r := tune.Random{Space: t.space(), Seed: t.Spec.Seed ^ 0x6d656d} // "mem"
	peak := 0.0
	for i := -1; i < 64; i++ {
		s := t.Spec.Clone()
		if i >= 0 {
			var err error
			if s, _, err = t.Spec.TrialSpec(t.Params, r.Sample(i, nil)); err != nil {
				continue
			}
		} else if len(s.Methods) != 1 {
			continue
		}
		s.Tune = nil
		s.Protocol, s.Sizes, s.Repeats, s.Nested = model.ProtocolCurve, []int{n}, 1, false
		s.Grid, s.Sweep, s.PD, s.Approx, s.GroupSizes, s.TestTransform = nil, nil, nil, nil, nil, nil
		peak = max(peak, engine.EstimateBytes(s, ds).Bytes)
	}
	return peak
}

// workersFor returns how many jobs run at once: lag (tune.workers), at most GOMAXPROCS,
// at most as many trials of the given peak estimate as fit in engine.MemoryLimit, at
// most limit (when > 0), and at least 1.
func workersFor(lag, limit int, peak float64) int {
	w := min(lag, runtime.GOMAXPROCS(0))
	if limit > 0 {
		w = min(w, limit)
	}
	if mem, _, err := engine.MemoryLimit(); err == nil && peak > 0 {
		w = min(w, int(float64(mem)/peak))
	}
	return max(w, 1)
}

// cacheLimit returns the bytes of the study's feature cache: what engine.MemoryLimit
// leaves beside workers trials of the given peak estimate, at most a quarter of it (the
// machine is shared), at least 0.
func cacheLimit(workers int, peak float64) int64 {
	limit, _, err := engine.MemoryLimit()
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
