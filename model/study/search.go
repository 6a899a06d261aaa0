package study

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"gitui/core/bench"
	"gitui/core/data"
	"gitui/core/tune"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
)

// Search runs (or continues) the search: it loads the training pool (never the test
// set), carves the validation split, and scores the jobs the scheduler gives, taking
// those already in the journal from it. It returns when the scheduler is finished, or
// ctx is cancelled (ctx.Err(); every scored job is in the journal).
//
// Its stages are split (the pool, bound to the journal, and its validation split),
// schedule (the rungs, the trials, the sampler and the scheduler) and runJobs (the
// jobs, Lag in flight); then study.json is written (not by an array task).
func (t *Study) Search(ctx context.Context, opts Options) error {
	start := time.Now()
	pool, loaded, err := t.split(ctx, opts)
	if err != nil {
		return err
	}
	sampler, err := t.schedule(pool, loaded, opts)
	if err != nil {
		return err
	}
	if err := t.runJobs(ctx, sampler, loaded, opts); err != nil {
		return err
	}
	t.finished = true
	t.searchWall = time.Since(start).Seconds()
	if t.worker {
		return nil // the final job writes study.json
	}
	return t.WriteStudy(nil)
}

// split loads the training pool, binds the journal to it, carves the validation split
// (none under leave-one-out) and writes split.json. It returns the pool and the data
// the jobs train on (Pool: the training part) and score on (Test: the validation split).
func (t *Study) split(ctx context.Context, opts Options) (*data.Dataset, *engine.LoadedData, error) {
	pool, err := engine.LoadPool(ctx, t.Spec.Data, opts.DataDir, t.Spec.Seed)
	if err != nil {
		return nil, nil, err
	}
	if err := t.bindInputs(pool, opts); err != nil {
		return nil, nil, err
	}
	t.PoolN = pool.Len()
	t.Score = t.Spec.Tune.Score
	var train, val *data.Dataset
	valIdx := []int{}
	if t.Score == model.TuneLOO {
		// Leave-one-out: every pool sample may train, and each fit scores itself. The
		// engine's cell still predicts a test set: one pool row stands in for it, and that
		// prediction is never used.
		t.Validation = 0
		train, val = pool, pool.Subset([]int{0})
		val.Name = pool.Name + "-unused"
	} else {
		t.Validation = t.Spec.Tune.Validation
		if t.Validation == 0 {
			t.Validation = pool.Len() / 5
		}
		if train, val, valIdx, err = engine.ValidationSplit(pool, t.Validation, t.Spec.Seed); err != nil {
			return nil, nil, err
		}
	}
	if err := t.writeSplit(pool.Len(), valIdx); err != nil {
		return nil, nil, err
	}
	return pool, &engine.LoadedData{Pool: train, Test: val}, nil
}

// bindInputs binds the journal to the pool before a job is scored: a resume or a
// joining task on other data is refused, not mixed into the journaled jobs.
func (t *Study) bindInputs(pool *data.Dataset, opts Options) error {
	in, err := engine.RunInputs(t.Spec, opts.DataDir, t.Spec.Data.Name, pool, nil, false)
	if err != nil {
		return err
	}
	notice, err := t.j.BindInputs(in)
	if err != nil {
		return err
	}
	if notice != "" && opts.Log != nil {
		opts.Log(notice)
	}
	return nil
}

// writeSplit writes split.json: the pool rows of the validation split (0-based, in the
// pool's order after data.classes and data.pool), so that a peer can search on the same
// split. An array task leaves it to the study's own process.
func (t *Study) writeSplit(poolN int, valIdx []int) error {
	if t.worker {
		return nil
	}
	sb, _ := json.Marshal(map[string]any{"pool": poolN, "validation": valIdx})
	return model.WriteFileAtomic(filepath.Join(t.Dir, SplitFile), append(sb, '\n'))
}

// schedule settles what the search runs: the refit's size, the rungs, the number of
// trials, the sampler and the scheduler (t.sched); it sends the study's time estimate
// (opts.Estimate), sizes the jobs run at once and the feature cache, and returns the
// sampler.
func (t *Study) schedule(pool *data.Dataset, loaded *engine.LoadedData, opts Options) (tune.Sampler, error) {
	tb := t.Spec.Tune
	samplerName, _, _ := t.settings()
	train, val := loaded.Pool, loaded.Test
	grid := tune.Grid{Space: t.space(), Points: tb.GridPoints}
	if err := t.settle(pool.Len(), train.Len(), grid, opts); err != nil {
		return nil, err
	}
	sampler := newSampler(samplerName, grid.Space, grid, t.Spec.Seed, tb.Startup)
	if tb.BaselineOn() && !t.worker {
		spec, params, err := t.Spec.BaselineSpec(t.Params)
		if err != nil {
			return nil, &model.InputError{Err: fmt.Errorf("tune.baseline: %w; or set tune.baseline false", err)}
		}
		t.base = &baseline{spec: spec, params: params}
	}
	if opts.Estimate != nil && !t.worker {
		ds := engine.DataSize{Pool: pool.Len(), Test: t.testRows(), Shape: pool.Shape, Classes: len(pool.Classes)}
		opts.Estimate(engine.EstimateStudy(t.Spec, ds, t.plan(train.Len(), val.Len()), bench.LoadRatesOnce()))
	}
	// Jobs in flight (tune.workers, t.Lag): the scheduler hears job k's score only once it
	// has given job k+Lag-1, so the jobs it gives depend on Lag alone, never on timing or
	// on how many of them run at once. This process scores up to t.Workers of them at
	// once (at most Lag, GOMAXPROCS and what the memory estimate allows), each in its own
	// goroutine; their results are heard in job order.
	t.Lag = tb.Workers
	if t.Lag == 0 {
		t.Lag = DefaultWorkers
	}
	peak := t.trialPeak(t.Sizes[len(t.Sizes)-1], train, val)
	t.Workers = workersFor(t.Lag, opts.Workers, peak)
	if t.cache == nil {
		t.cache = engine.NewFeatureCache(cacheLimit(t.Workers, peak))
	}
	return sampler, nil
}

// settle sets what the schedule needs, for a pool of poolN samples of which trainN may
// train: the refit's size (t.RefitN), the rungs (t.Sizes), the number of trials
// (t.Trials: tune.trials, else eta^(rungs-1), or the grid's size) and the scheduler
// (t.sched). Search settles it on the loaded pool, ListingEstimate on a listing's size.
func (t *Study) settle(poolN, trainN int, grid tune.Grid, opts Options) error {
	tb := t.Spec.Tune
	samplerName, pruner, eta := t.settings()
	rungs, maxN, err := t.rungs(poolN, trainN, eta, pruner, opts)
	if err != nil {
		return err
	}
	t.Trials = tb.Trials
	if t.Trials == 0 {
		t.Trials = int(math.Pow(float64(eta), float64(len(rungs)-1)))
		if samplerName == "grid" {
			t.Trials = grid.Size()
		}
	}
	t.sched, t.Sizes = t.newScheduler(pruner, rungs, eta, maxN)
	return nil
}

// plan is the settled schedule as the study's time estimate takes it
// (engine.EstimateStudy), on a training part of train samples and a validation split
// of val.
func (t *Study) plan(train, val int) engine.StudyPlan {
	tb := t.Spec.Tune
	_, pruner, eta := t.settings()
	plan := engine.StudyPlan{Rungs: t.Sizes, Trials: t.Trials, Eta: eta, Train: train, Val: val, RefitN: t.RefitN, RefitTop: tb.RefitTop, Baseline: tb.BaselineOn(),
		Samples: t.sampleSpecs(estimateSamples, 0x74696d65)} // "time"
	if pruner == "none" || pruner == "hyperband" {
		plan.Eta = 0 // every trial at every rung it is given: an upper bound for hyperband
	}
	return plan
}

// estimateSamples is how many seeded draws from the space the study's time estimate
// averages a trial's cost over.
const estimateSamples = 32

// sampleSpecs returns the trial specs of n random draws from the space, seeded by the
// spec's seed and salt (the draws that do not make a valid spec are left out).
func (t *Study) sampleSpecs(n int, salt uint64) []*model.Spec {
	r := tune.Random{Space: t.space(), Seed: t.Spec.Seed ^ salt}
	var out []*model.Spec
	for i := range n {
		if s, _, err := t.Spec.TrialSpec(t.Params, r.Sample(i, nil)); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// rungs sets t.RefitN (tune.refit_n, else the pool, or the curve's largest size) and
// returns the training sizes of successive halving, min_n·eta^k up to max_n, and max_n,
// for a pool of poolN samples of which trainN may train. A size the pool cannot give is
// bad input (*model.InputError).
func (t *Study) rungs(poolN, trainN, eta int, pruner string, opts Options) ([]int, int, error) {
	tb := t.Spec.Tune
	t.RefitN = tb.RefitN
	if t.RefitN == 0 {
		t.RefitN = poolN
		if t.Spec.Protocol == model.ProtocolCurve && len(t.Spec.Sizes) > 0 {
			t.RefitN = min(slices.Max(t.Spec.Sizes), poolN)
		}
	}
	if t.RefitN > poolN {
		return nil, 0, &model.InputError{Err: fmt.Errorf("tune.refit_n %d is larger than the pool of %d samples: use at most %d", t.RefitN, poolN, poolN)}
	}
	maxN := tb.MaxN
	if maxN == 0 {
		maxN = min(trainN, t.RefitN)
	}
	if maxN > trainN {
		if t.Score == model.TuneLOO {
			return nil, 0, &model.InputError{Err: fmt.Errorf("tune.max_n %d is larger than the pool of %d samples: use at most %d", maxN, trainN, trainN)}
		}
		return nil, 0, &model.InputError{Err: fmt.Errorf("tune.max_n %d is larger than the %d training samples left beside the validation split of %d: use at most %d, or a smaller tune.validation", maxN, trainN, t.Validation, trainN)}
	}
	minN := tb.MinN
	if minN == 0 {
		minN = max(2, int(math.Ceil(float64(maxN)/math.Pow(float64(eta), 3))))
	}
	rungs, err := tune.Rungs(minN, maxN, eta)
	if err != nil {
		return nil, 0, &model.InputError{Err: err}
	}
	if top := rungs[len(rungs)-1]; top < maxN/2 && pruner != "none" && opts.Log != nil {
		opts.Log(lowRungNotice(top, maxN, eta, len(rungs)))
	}
	return rungs, maxN, nil
}

// lowRungNotice says that the top rung top (of k rungs) is under half of max_n, with the
// min_n that ends a rung nearer max_n. The rungs are min_n·eta^k up to max_n: a min_n
// just above max_n/eta^k leaves the top rung near max_n/eta.
func lowRungNotice(top, maxN, eta, k int) string {
	hint, step := "", int(math.Pow(float64(eta), float64(k)))
	if m := maxN / step; m >= 1 {
		hint = fmt.Sprintf(": tune.min_n %d gives %d rungs up to %d", m, k+1, m*step)
	}
	return fmt.Sprintf("notice: the last rung is %d, under half of tune.max_n %d (rungs are min_n·eta^k up to max_n)%s", top, maxN, hint)
}

// newSampler returns tune.sampler's sampler over sp: random, quasi (Halton), grid, or
// TPE (the default) with startup random trials.
func newSampler(name string, sp tune.Space, grid tune.Grid, seed uint64, startup int) tune.Sampler {
	switch name {
	case "random":
		return tune.Random{Space: sp, Seed: seed}
	case "quasi":
		return tune.Halton{Space: sp, Seed: seed}
	case "grid":
		return grid
	default:
		return tune.TPE{Space: sp, Seed: seed, Startup: startup}
	}
}

// newScheduler returns tune.pruner's scheduler over rungs (sh, hyperband, none: one
// rung at maxN, or ASHA, the default) and the rungs it runs; hyperband sets t.Trials
// to the trials of its brackets.
func (t *Study) newScheduler(pruner string, rungs []int, eta, maxN int) (tune.Scheduler, []int) {
	switch pruner {
	case "sh":
		return tune.NewHalving(rungs, eta, t.Trials), rungs
	case "hyperband":
		h := tune.NewHyperband(rungs, eta)
		t.Trials = h.Trials()
		return h, rungs
	case "none":
		rungs = []int{maxN}
		return tune.NewHalving(rungs, eta, t.Trials), rungs
	default:
		return tune.NewASHA(rungs, eta, t.Trials), rungs
	}
}

// jobLoop is runJobs's state: the jobs in flight, in the order the scheduler gave
// them, and the slots of the jobs this process scores at once.
type jobLoop struct {
	t        *Study
	ctx      context.Context
	opts     Options
	loaded   *engine.LoadedData
	sampler  tune.Sampler
	startup  int
	slots    chan struct{}
	inflight []*pendingJob
	running  sync.WaitGroup
}

// runJobs scores the jobs the scheduler gives until it is finished: up to t.Lag in
// flight, their results reported to it in job order (report), the journaled ones taken
// from the journal. On any return the jobs still scoring are stopped and waited for: no
// goroutine outlives it.
func (t *Study) runJobs(ctx context.Context, sampler tune.Sampler, loaded *engine.LoadedData, opts Options) error {
	t.configs, t.errs = map[int][]float64{}, map[int]string{}
	startup := t.Spec.Tune.Startup
	if startup == 0 {
		startup = 10
	}
	ctx, cancel := context.WithCancel(ctx)
	l := &jobLoop{t: t, ctx: ctx, opts: opts, loaded: loaded, sampler: sampler, startup: startup, slots: make(chan struct{}, t.Workers)}
	defer func() {
		cancel()
		l.running.Wait()
	}()
	for {
		job, ok := t.sched.Next()
		if !ok {
			if len(l.inflight) > 0 {
				if err := l.report(); err != nil {
					return err
				}
				continue
			}
			if t.sched.Finished() {
				return l.runBaseline()
			}
			return fmt.Errorf("internal error (please report): the scheduler waits with no job running")
		}
		if err := l.give(job); err != nil {
			return err
		}
		if len(l.inflight) >= t.Lag {
			if err := l.report(); err != nil {
				return err
			}
		}
	}
}

// give puts job in flight: its configuration (sampled at rung 0, or for a trial not yet
// sampled), its journaled record when there is one, else its scoring, in a goroutine
// of its own once a slot is free (an array task only scores the jobs it claims).
func (l *jobLoop) give(job tune.Job) error {
	t := l.t
	p, err := l.pending(job)
	if err != nil {
		return err
	}
	rec, done := t.lookup(job)
	if done && !jobMatches(rec, *p) && !t.worker {
		// A line of another study spliced in (its checksum holds): moved away as a
		// damaged line is, and the job scored (or an earlier line of it taken).
		if rec, done, err = t.moveForeign(*p, l.opts); err != nil {
			return err
		}
	}
	if err := checkJob(rec, done, *p); err != nil {
		return err
	}
	claimed := !t.worker
	if !done && t.worker {
		if claimed, err = store.ClaimJob(t.Dir, job.Trial, job.Rung); err != nil {
			return err
		}
	}
	switch {
	case done:
		p.rec = &rec
	case claimed:
		if err := l.score(p); err != nil {
			return err
		}
	}
	l.inflight = append(l.inflight, p)
	return nil
}

// runBaseline scores the baseline's job (tune.baseline: the spec's own setting) once
// the scheduler is finished, at the highest rung a trial reached (so that it is
// compared with the best at the same training size), or takes it from the journal, and
// keeps its record for Best and study.json. The scheduler never hears of it and the
// sampler never sees it: the trials are those of a study without a baseline.
func (l *jobLoop) runBaseline() error {
	t := l.t
	if t.base == nil {
		return nil
	}
	_, k, _, ok := tune.Best(t.sched.Results())
	if !ok {
		return nil // no trial was scored: nothing to compare with
	}
	p := &pendingJob{job: tune.Job{Trial: BaselineTrial, Rung: k, N: t.Sizes[k]}, spec: t.base.spec, params: t.base.params}
	rec, done := t.lookup(p.job)
	if done && !jobMatches(rec, *p) {
		var err error
		if rec, done, err = t.moveForeign(*p, l.opts); err != nil {
			return err
		}
	}
	if done {
		p.rec = &rec
	} else if err := l.score(p); err != nil {
		return err
	}
	if p.done != nil {
		<-p.done
		if p.err != nil {
			return p.err
		}
	}
	l.t.base.rec = p.rec
	return nil
}

// pending returns job with its trial's spec and parameters, sampling the trial's
// configuration at rung 0 (or when this process has not sampled it yet).
func (l *jobLoop) pending(job tune.Job) (*pendingJob, error) {
	t := l.t
	if job.Rung == 0 || t.configs[job.Trial] == nil {
		t.configs[job.Trial] = l.sampler.Sample(job.Trial, t.history(l.startup))
	}
	spec, params, err := t.Spec.TrialSpec(t.Params, t.configs[job.Trial])
	if err != nil {
		return nil, &model.InputError{Err: err}
	}
	return &pendingJob{job: job, spec: spec, params: params}, nil
}

// score waits for a free slot (at most t.Workers jobs score at once) and scores p in a
// goroutine of its own, which closes p.done once p.rec or p.err is set.
func (l *jobLoop) score(p *pendingJob) error {
	select {
	case l.slots <- struct{}{}:
	case <-l.ctx.Done():
		return l.ctx.Err()
	}
	p.done = make(chan struct{})
	l.running.Add(1)
	go func() {
		defer l.running.Done()
		defer close(p.done)
		defer func() { <-l.slots }()
		p.rec, p.err = l.t.score(l.ctx, *p, l.opts, l.loaded)
	}()
	return nil
}

// report waits for the oldest job in flight (scored here, or, claimed by another array
// task, until its line is in the journal) and reports its score to the scheduler.
func (l *jobLoop) report() error {
	t := l.t
	p := l.inflight[0]
	l.inflight = l.inflight[1:]
	if p.done != nil {
		<-p.done
		if p.err != nil {
			return p.err
		}
	}
	rec := p.rec
	if rec == nil { // claimed by another array task: wait for its line
		r, err := t.await(l.ctx, *p, l.opts, l.loaded)
		if err != nil {
			return err
		}
		rec = r
	}
	if rec.Error != "" {
		t.errs[p.job.Trial] = rec.Error
	}
	t.sched.Report(p.job, rec.Validation)
	return nil
}
