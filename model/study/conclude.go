package study

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
)

// Event is what a study sends while Start runs it to its conclusion: Log and Estimated
// during the search, Searched once it is done, then for each refit (the best, rank 1,
// then the other top trials of tune.refit_top) RefitStarted, its RefitEvents and
// Refitted, and Done last.
type Event interface{ studyEvent() }

// Log is a line of the search: a scored job, or a notice (a repaired journal line, a
// rung under half of tune.max_n, data that changed since the journal began).
type Log struct{ Line string }

// Estimated is the time estimate of the whole study (engine.EstimateStudy), sent once
// the schedule is known, before the first job.
type Estimated struct{ Estimate engine.TimeEstimate }

// Searched says the search is finished: what it compared and its best trial (Best's
// Test is nil: the refit comes next).
type Searched struct {
	Trials     int     // configurations compared
	Sizes      []int   // the rungs' training sizes
	Validation int     // validation samples (0 under leave-one-out)
	Score      string  // tune.score ("", model.TuneLOO or model.TunePooled)
	Seconds    float64 // the search's wall time in this process
	Workers    int     // jobs this process ran at once
	Lag        int     // tune.workers: jobs in flight
	Cache      engine.FeatureCacheStats
	RefitN     int   // training size of the refits
	Best       Refit // the best trial, its params and validation accuracy
	Found      bool  // a trial was scored (else Best is empty and Done has the error)
	// Baseline is the spec's own setting scored as a trial (tune.baseline; nil when off or
	// not scored),
	// Test nil: its refit comes with the others.
	Baseline *store.BaselineInfo
}

// RefitStarted says a refit's run directory is open and its run begins: Rank 1 is the
// best trial, refit in DIR/refit; rank k > 1 is refit in DIR/refit-k; rank 0 is the
// baseline (tune.baseline) when it is neither, refit in DIR/refit-baseline.
type RefitStarted struct {
	Rank, Trial int
	Path        string   // the refit's run directory
	Warning     string   // store.RunDir.Warning
	Notices     []string // store.RunDir.Notices
	Resumed     int      // cells already in its journal (a resumed study)
}

// RefitEvent is one of the refit's engine events (progress, points, log lines; never
// eval.Done: Refitted concludes the refit).
type RefitEvent struct {
	Rank  int
	Event eval.Event
}

// Refitted says how the refit of rank Rank ended: its run directory concluded
// (store.RunDir.Conclude, as `gitui run` concludes a run), the run's error (Err), and its
// test accuracy (Test, nil when the run failed or gave none).
type Refitted struct {
	Rank, Trial int
	Path        string
	Conclusion  store.Conclusion
	Err         error
	Test        *float64
	Refit       Refit // the trial's params and validation; Test as above
}

// Done ends the events: the study's error (nil when study.json is written with the
// refit's test accuracy; ctx.Err() when cancelled: the journal keeps every scored job
// and `gitui resume DIR` continues it). Discarded is set when the search was refused as
// bad input before a job was journaled: the directory is gone (Study.Discard).
type Done struct {
	Err       error
	Discarded bool
	BestSpec  string   // best.spec.json's path, "" before it was written
	Test      *float64 // the best's test accuracy
	// Comparison is the best against the baseline on validation and test (Comparison),
	// "" without a baseline.
	Comparison string
}

func (Log) studyEvent()          {}
func (Estimated) studyEvent()    {}
func (Searched) studyEvent()     {}
func (RefitStarted) studyEvent() {}
func (RefitEvent) studyEvent()   {}
func (Refitted) studyEvent()     {}
func (Done) studyEvent()         {}

// Start runs the study st (opened by Open, not Join) to its conclusion in a goroutine of
// its own, the same for `gitui tune`, `gitui resume` and the workbench, and returns its
// events, Done last; the channel is closed after Done and the caller must read it to the
// end. The conclusion is: the search (Search; opts.Log and opts.Estimate are replaced by
// Log and Estimated events), best.spec.json, its refit as an ordinary run in DIR/refit
// (concluded by store.RunDir.Conclude) whose result.json and predictions.csv are copied
// into DIR, the refits of the other top trials (tune.refit_top) in DIR/refit-RANK, and
// study.json with the refit's test accuracy. Start closes st (discarding it when the
// search was refused as bad input); a full disk's error says how to resume
// (store.NoSpaceHint), and a panic is reported as Done.Err.
func Start(ctx context.Context, st *Study, opts Options) <-chan Event {
	ch := make(chan Event, 64)
	go func() {
		defer close(ch)
		d := st.concludeRecovered(ctx, opts, func(e Event) { ch <- e })
		if d.Discarded {
			st.Discard()
		}
		st.Close()
		d.Err = store.NoSpaceHint(d.Err, st.Dir)
		ch <- d
	}()
	return ch
}

// concludeRecovered is conclude with a panic turned into Done.Err.
func (t *Study) concludeRecovered(ctx context.Context, opts Options, send func(Event)) (d Done) {
	defer func() {
		if r := recover(); r != nil {
			d = Done{Err: fmt.Errorf("internal error (please report): the study panicked: %v", r)}
		}
	}()
	return t.conclude(ctx, opts, send)
}

// conclude is Start's work: search, best spec, refits, study.json.
func (t *Study) conclude(ctx context.Context, opts Options, send func(Event)) Done {
	opts.Log = func(s string) { send(Log{Line: s}) }
	opts.Estimate = func(e engine.TimeEstimate) { send(Estimated{Estimate: e}) }
	if err := t.Search(ctx, opts); err != nil {
		var ie *model.InputError
		return Done{Err: err, Discarded: errors.As(err, &ie)}
	}
	send(t.searched())
	best, err := t.BestSpec()
	if err != nil {
		return Done{Err: err}
	}
	path, err := t.WriteBestSpec(best)
	if err != nil {
		return Done{Err: err, BestSpec: path}
	}
	trial, n, params, v, _ := t.Best()
	test, err := t.refit(ctx, 1, Refit{Trial: trial, Params: params, Validation: v, ValidationN: n, Baseline: trial == BaselineTrial}, best, RefitDir, opts, send)
	if err != nil {
		return Done{Err: err, BestSpec: path}
	}
	if trial == BaselineTrial {
		t.base.test, t.base.dir = &test, RefitDir
	}
	if err := t.copyRefit(); err != nil {
		return Done{Err: err, BestSpec: path}
	}
	if err := t.refitTop(ctx, test, opts, send); err != nil {
		return Done{Err: err, BestSpec: path, Test: &test}
	}
	if err := t.refitBaseline(ctx, opts, send); err != nil {
		return Done{Err: err, BestSpec: path, Test: &test}
	}
	f := t.file(&test)
	if err := store.WriteStudy(t.Dir, f); err != nil {
		return Done{Err: err, BestSpec: path, Test: &test}
	}
	return Done{BestSpec: path, Test: &test, Comparison: Comparison(f)}
}

// BaselineDir is the run directory of the baseline's refit when it is neither the best
// nor among tune.refit_top's, relative to the study directory.
const BaselineDir = RefitDir + "-baseline"

// refitBaseline refits the baseline (tune.baseline) in DIR/refit-baseline at the refit
// size, as the best is refit, when it was scored and is neither the best nor among the
// top refits (which tested it already): its test accuracy is reported beside the
// best's, never used to choose.
func (t *Study) refitBaseline(ctx context.Context, opts Options, send func(Event)) error {
	b := t.base
	if !b.scored() {
		return nil
	}
	for _, e := range t.top {
		if e.Baseline {
			b.test, b.dir = e.Test, e.Dir
		}
	}
	if b.test != nil {
		return nil
	}
	spec, err := t.RefitSpec(BaselineTrial, "-baseline")
	if err != nil {
		return err
	}
	r := Refit{Trial: BaselineTrial, Params: b.params, Validation: b.rec.Validation, ValidationN: b.rec.N, Baseline: true}
	acc, err := t.refit(ctx, 0, r, spec, BaselineDir, opts, send)
	if err != nil {
		return err
	}
	b.test, b.dir = &acc, BaselineDir
	return nil
}

// searched is the Searched event of the finished search.
func (t *Study) searched() Searched {
	s := Searched{Trials: t.Trials, Sizes: t.Sizes, Validation: t.Validation, Score: t.Score, Seconds: t.searchWall,
		Workers: t.Workers, Lag: t.Lag, Cache: t.CacheStats(), RefitN: t.RefitN}
	trial, n, params, v, ok := t.Best()
	s.Best, s.Found = Refit{Trial: trial, Params: params, Validation: v, ValidationN: n, Baseline: ok && trial == BaselineTrial}, ok
	s.Baseline = t.baselineInfo()
	return s
}

// refit runs spec, the refit of trial r.Trial at rank rank, as an ordinary run in
// DIR/dir (store.OpenRunDir, resumed from its journal when the directory holds one),
// concludes it (store.RunDir.Conclude) and returns its test accuracy: the mean of its
// one point. Its events are sent as RefitStarted, RefitEvent and Refitted.
func (t *Study) refit(ctx context.Context, rank int, r Refit, spec *model.Spec, dir string, opts Options, send func(Event)) (float64, error) {
	rd, err := store.OpenRunDir(filepath.Join(t.Dir, dir), spec, store.RunMeta{DataDir: opts.DataDir})
	if err != nil {
		return 0, err
	}
	send(RefitStarted{Rank: rank, Trial: r.Trial, Path: rd.Path, Warning: rd.Warning, Notices: rd.Notices, Resumed: rd.Resumed})
	start := time.Now()
	var out *eval.Outcome
	var runErr error
	for e := range engine.Start(ctx, rd.Spec, engine.RunOptions{DataDir: opts.DataDir, Quick: rd.Meta.Quick, Dir: rd, NoMatrices: true}) {
		if d, ok := e.(eval.Done); ok {
			out, runErr = d.Outcome, d.Err
			continue
		}
		send(RefitEvent{Rank: rank, Event: e})
	}
	c, err := rd.Conclude(out, runErr, time.Since(start))
	if err != nil {
		return 0, err
	}
	ev := Refitted{Rank: rank, Trial: r.Trial, Path: rd.Path, Conclusion: c, Err: runErr, Refit: r}
	res := c.Result
	if runErr != nil || res == nil || len(res.Series) == 0 || len(res.Series[0].Points) == 0 {
		send(ev)
		switch {
		case runErr != nil:
			return 0, runErr
		case rank == 1:
			return 0, errors.New("the refit produced no test accuracy")
		case rank == 0:
			return 0, errors.New("the refit of the baseline (your setting) produced no test accuracy")
		default:
			return 0, fmt.Errorf("the refit of trial %d (rank %d) produced no test accuracy", r.Trial, rank)
		}
	}
	test := res.Series[0].Points[0].Mean
	ev.Test, ev.Refit.Test = &test, &test
	send(ev)
	return test, nil
}

// copyRefit copies the best's refit's result.json and predictions.csv (when it wrote
// one) from DIR/refit into DIR.
func (t *Study) copyRefit() error {
	for _, f := range []string{store.ResultFile, store.PredictionsFile} {
		b, err := os.ReadFile(filepath.Join(t.Dir, RefitDir, f))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return fmt.Errorf("read the refit's %s: %w", f, err)
		}
		if err := os.WriteFile(filepath.Join(t.Dir, f), b, 0o644); err != nil {
			return fmt.Errorf("copy the refit's %s: %w", f, err)
		}
	}
	return nil
}

// refitTop refits the trials ranked 2..tune.refit_top (the best, whose test accuracy
// is test, was refit in DIR/refit) each in DIR/refit-RANK, tests each once and records
// them for study.json's "top" (SetTop). Their test accuracies are reported, not used
// to choose.
func (t *Study) refitTop(ctx context.Context, test float64, opts Options, send func(Event)) error {
	top := t.Top(t.Spec.Tune.RefitTop)
	if len(top) < 2 {
		return nil
	}
	top[0].Test, top[0].Dir = &test, RefitDir
	for i := 1; i < len(top); i++ {
		e := &top[i]
		spec, err := t.RefitSpec(e.Trial, fmt.Sprintf("-rank%d", e.Rank))
		if err != nil {
			return err
		}
		e.Dir = fmt.Sprintf("%s-%d", RefitDir, e.Rank)
		acc, err := t.refit(ctx, e.Rank, e.Refit, spec, e.Dir, opts, send)
		if err != nil {
			return err
		}
		e.Test = &acc
	}
	t.SetTop(top)
	return nil
}
