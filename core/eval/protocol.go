package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"gitui/core/data"
)

// Method is one row of a paper's figure: a feature map or kernel with a learner. Prepare is
// called once per run (or once per grid point) with the training pool and the test set and
// does the work that does not depend on the training draw (feature maps of every sample,
// templates); the Fitter it returns trains and tests on one draw.
type Method interface {
	Name() string
	Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error)
}

// Checker is implemented by methods that can find bad input (spec or data errors that
// their Prepare would report) cheaply, before anything runs. Methods are prepared one
// at a time, after the cells of earlier methods; Run therefore calls Check on every
// method still to run before it prepares any, so that bad input stops a run before its
// first cell. Check must not keep large allocations.
type Checker interface {
	Check(ctx context.Context, pool, test *data.Dataset) error
}

// Sharer is implemented by methods that share prepared data with other methods of a
// stage (the same kernel matrices, learnt from in different ways). Methods with the
// same non-empty ShareKey are prepared one right after the other, at the place of the
// first of them, so that the shared data need not be kept while unrelated methods run.
// Only the order of preparation changes: results and the order of series do not.
type Sharer interface {
	ShareKey() string
}

// Fitter trains on the pool rows idx and returns the predicted class of every test sample.
// FitPredict must be safe for concurrent calls with different idx.
type Fitter interface {
	FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) ([]int, error)
}

// Scorer is a Fitter that can also return, for each test row, the decision value behind
// its prediction: the learner's score of the predicted class. The protocol asks for it
// only where it keeps predictions (Arm.Keep); pred must equal FitPredict's.
type Scorer interface {
	FitScore(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) (pred []int, score []float64, err error)
}

// Arm is one curve point to estimate: Method trained on Size pool samples, reported as
// series Series at abscissa X, over the protocol's repeats.
type Arm struct {
	Series string
	X      float64
	Size   int
	Method Method
	// Keep asks for the predictions of this arm's cells in Cell.Pred (for per-sample
	// output: predictions.csv and confusion matrices at the largest training size).
	Keep bool
	// Cost is the estimated seconds of one of this arm's cells, PrepareCost those of
	// preparing its Method (counted once per method of a stage: the largest of its
	// arms'); they weigh the run's progress (Progress.Work). Zero: unknown.
	Cost, PrepareCost float64
}

// Stage is a group of arms that share prepared methods. The methods are taken one at a
// time, in the order of their first arm (methods that share data, Sharer, one after the
// other): a method is prepared, every (repeat, arm) cell
// of its arms runs, repeats outermost so that each of its points appears early and then
// refines, and its Fitter is released before the next method is prepared (memory holds
// one method's prepared data at a time). Results do not depend on this order: every
// cell is seeded by its repeat and arm index.
type Stage struct {
	Name string
	Arms []Arm
}

// Protocol runs stages of arms over seeded training draws of a pool and reports accuracy on
// a fixed test set (and balanced accuracy, the mean of per-class recalls, in a table).
//
// The draw for repeat r and size n depends only on (Seed, r, n): every method sees the same
// training sets (common random numbers), so differences between curves are not draw noise.
type Protocol struct {
	Pool, Test *data.Dataset
	Stages     []Stage
	Repeats    int
	Sampling   data.DrawMode
	Seed       uint64
	XLabel     string // "training set size", "number of bins", "|G|"
	Workers    int    // cells run in parallel; 0 means GOMAXPROCS
	// Nest > 0 nests the draws of a repeat: a draw of size n < Nest is drawn (with the
	// same Sampling) from that repeat's draw of size Nest, so the draws of one repeat
	// share their samples and their union is the size-Nest draw (see Draw).
	Nest int
	// TransformedTest says that Test holds 2N rows: the N test samples, then a
	// transformed copy of each in the same order with the same label. Every cell then
	// scores both halves: the plain accuracy goes to series Series, the accuracy on the
	// transformed copies to series Series+TransformedSuffix.
	TransformedTest bool
	// Done holds cells finished by an earlier, interrupted run of the same spec (a
	// journal): they are not run again, and count in the outcome as if they had just
	// finished. A stage whose cells are all done is not even prepared.
	Done map[CellKey]Cell
	// OnCell, if set, is called once for every newly finished cell, from a single
	// goroutine, before the cell's Point is sent; a non-nil error (a journal that cannot
	// be written) stops the run with that error.
	OnCell func(Cell) error
	// Only, if set, restricts the run to the cells it accepts (a shard of a run sharded
	// with AssignShards). A cell it refuses is treated like a done one for scheduling
	// (not run, and a stage or method whose remaining cells are all refused is not
	// prepared) but is not counted: it is listed in Outcome.Missing instead. Every cell
	// keeps its own seeds, so the union of the shards equals the unsharded run.
	Only func(CellKey) bool
}

// TransformedSuffix ends the name of the series that scores a method on the transformed
// copy of the test set (Protocol.TransformedTest).
const TransformedSuffix = " (transformed test)"

// CellKey identifies a cell across runs of one spec: its stage, series, abscissa and repeat.
type CellKey struct {
	Stage, Series string
	X             float64
	Rep           int
}

// Cell is the outcome of one (arm, repeat) cell: accuracy and balanced accuracy on the
// test set (and on its transformed copy when AccT is not nil), the seconds it took, and,
// when its arm has Keep set, the predicted class of every test row (all 2N rows with
// TransformedTest).
type Cell struct {
	CellKey
	Size      int
	Acc, BAcc float64
	// AccT and BAccT score the transformed copy of the test set (TransformedTest), else nil.
	AccT, BAccT *float64
	Seconds     float64
	Pred        []int
	// Score holds the decision value of each prediction in Pred when the method's Fitter
	// is a Scorer, else nil.
	Score []float64
	// Chosen holds the hyperparameters the cell's fit chose itself (RecordChosen: the
	// leave-one-out lambda of RLS, the median heuristic's gamma), nil if none.
	Chosen map[string]float64
	// Notes holds what a reader of the cell's accuracy must know about its fit
	// (RecordNote, and the protocol's own "degenerate: every test prediction is class c"),
	// nil if nothing.
	Notes []string
}

// Key returns the cell's identity.
func (c Cell) Key() CellKey { return c.CellKey }

// repeatsOf returns the number of repeats of arm a: one when a draws the whole pool (every
// draw is then the same training set, so repeating would only cost time), else Repeats.
func (p *Protocol) repeatsOf(a Arm) int {
	if a.Size >= p.Pool.Len() {
		return 1
	}
	return p.Repeats
}

// cellResult is the outcome of one (arm, repeat) cell.
type cellResult struct {
	arm  int
	cell Cell
	err  error
}

// Run executes the protocol, sending events on ev (which it does not close). It returns the
// outcome of every finished cell, also when ctx is cancelled (then err is ctx.Err()) or a
// cell fails. After cancellation Run returns within about half a second: cells still
// computing are abandoned and their results dropped.
func (p *Protocol) Run(ctx context.Context, ev chan<- Event) (*Outcome, error) {
	if p.Repeats < 1 {
		panic("eval: Repeats < 1")
	}
	clk := NewClock()
	agg := newAggregator(p.XLabel, p.Stages, p.TransformedTest)
	var runErr error
	var missing []CellKey
	totalCells, done := 0, 0
	for _, st := range p.Stages {
		for _, a := range st.Arms {
			for r := range p.repeatsOf(a) {
				k := CellKey{st.Name, a.Series, a.X, r}
				if c, ok := p.Done[k]; ok {
					agg.add(c) // journaled by an earlier run: counted, not rerun
					done++
				} else if p.Only != nil && !p.Only(k) {
					missing = append(missing, k) // another shard's
					continue
				}
				totalCells++
			}
		}
	}
	w := p.workTotal()
	if done > 0 {
		send(ctx, ev, Log{Time: time.Now(), Line: fmt.Sprintf("resuming: %d of %d cells already done", done, totalCells)})
		for _, pt := range agg.points() {
			send(ctx, ev, pt)
		}
		send(ctx, ev, Progress{Stage: "cells", Done: done, Total: totalCells, WorkTotal: w.total})
	}
	if err := p.check(ctx); err != nil {
		out := agg.outcome()
		out.Stages = clk.Snapshot()
		out.Missing = missing
		return out, err
	}
	var failed []methodFailure
stages:
	for _, st := range p.Stages {
		if p.stageDone(st) {
			continue
		}
		// One method at a time: prepare it, run its cells, release its Fitter, so that
		// memory holds one method's prepared data (features of pool and test) at a time.
		// A method that fails (its preparation or a cell) is recorded and the next one
		// runs: one method's failure costs only its own cells.
		ms, arms := methodsOf(st)
		for i, m := range ms {
			if p.armsDone(st, arms[i]) {
				continue
			}
			f, err := p.prepare(ctx, m, i, len(ms), clk, ev)
			n := 0
			if err == nil {
				if w.total > 0 {
					w.done += prepareCost(st, arms[i])
					send(ctx, ev, Progress{Stage: "cells", Done: done, Total: totalCells, Work: w.done, WorkTotal: w.total})
				}
				n, err = p.runCells(ctx, st, arms[i], f, clk, agg, ev, done, totalCells, w)
				done += n
			}
			if err == nil {
				continue
			}
			var stop *stopError
			if ctx.Err() != nil || errors.As(err, &stop) || errors.Is(err, context.Canceled) {
				runErr = err
				break stages
			}
			fl := methodFailure{stage: st.Name, err: err}
			for _, a := range arms[i] {
				if !slices.Contains(fl.series, st.Arms[a].Series) {
					fl.series = append(fl.series, st.Arms[a].Series)
				}
			}
			failed = append(failed, fl)
			send(ctx, ev, Log{Time: time.Now(), Line: fmt.Sprintf("failed: %v; the other methods go on", err)})
		}
	}
	out := agg.outcome()
	out.Stages = clk.Snapshot()
	out.Missing = missing
	if len(failed) > 0 {
		out.Tables = append(out.Tables, failureTable(failed))
		if runErr == nil {
			runErr = failedErr(failed, len(agg.points()) > 0 || done > 0)
		}
	}
	return out, runErr
}

// FailedTableName names the outcome table of the methods that failed (one row per
// series, with its stage and error), which result.json and the CLI's summary carry.
const FailedTableName = "failed methods (the others ran)"

// methodFailure is one method whose preparation or cells failed in a stage: the series
// it would have filled, and why.
type methodFailure struct {
	stage  string
	series []string
	err    error
}

// failureTable lists the failures, one row per series.
func failureTable(fs []methodFailure) Table {
	t := Table{Name: FailedTableName, Columns: []string{"series", "stage", "error"}}
	for _, f := range fs {
		for _, s := range f.series {
			t.Rows = append(t.Rows, []any{s, f.stage, f.err.Error()})
		}
	}
	return t
}

// failedErr is the run's error when methods failed and the run went on: the one
// failure as it is when it is the only method that ran nothing else (ranOther false and
// a single failure keep its type, so bad input stays bad input), else an error naming
// each failed series.
func failedErr(fs []methodFailure, ranOther bool) error {
	if len(fs) == 1 && !ranOther {
		return fs[0].err
	}
	var names []string
	for _, f := range fs {
		names = append(names, strings.Join(f.series, ", "))
	}
	// %v, not %w: the run is not refused as bad input, its other methods' results stand.
	return fmt.Errorf("%d method(s) failed, the others finished: %s (first: %v)", len(fs), strings.Join(names, "; "), fs[0].err)
}

// stopError marks an error that must stop the whole run, not only the method it came
// from: the journal could not take a finished cell (a full disk).
type stopError struct{ err error }

func (e *stopError) Error() string { return e.err.Error() }
func (e *stopError) Unwrap() error { return e.err }

// workTally is the estimated work of a run (Arm.Cost, Arm.PrepareCost): its total over
// the cells and preparations still to run, and the part done.
type workTally struct{ done, total float64 }

// workTotal returns the tally of the pending work: every pending cell's Cost and the
// PrepareCost of every method with a pending cell (total 0 when no arm has a cost).
func (p *Protocol) workTotal() *workTally {
	w := &workTally{}
	for _, st := range p.Stages {
		if p.stageDone(st) {
			continue
		}
		ms, arms := methodsOf(st)
		for i := range ms {
			if p.armsDone(st, arms[i]) {
				continue
			}
			w.total += prepareCost(st, arms[i])
			for _, a := range arms[i] {
				arm := st.Arms[a]
				for r := range p.repeatsOf(arm) {
					if p.pending(CellKey{st.Name, arm.Series, arm.X, r}) {
						w.total += arm.Cost
					}
				}
			}
		}
	}
	return w
}

// prepareCost returns the preparation cost of the method of the arms sel of st: the
// largest PrepareCost among them.
func prepareCost(st Stage, sel []int) float64 {
	c := 0.0
	for _, a := range sel {
		c = max(c, st.Arms[a].PrepareCost)
	}
	return c
}

// pending reports whether cell k is to be run now: not done, and accepted by Only.
func (p *Protocol) pending(k CellKey) bool {
	if _, ok := p.Done[k]; ok {
		return false
	}
	return p.Only == nil || p.Only(k)
}

// armPending reports whether arm a of stage st has a cell to run now.
func (p *Protocol) armPending(st Stage, a Arm) bool {
	for r := range p.repeatsOf(a) {
		if p.pending(CellKey{st.Name, a.Series, a.X, r}) {
			return true
		}
	}
	return false
}

// stageDone reports whether no cell of st is pending (all done, or left to other shards).
func (p *Protocol) stageDone(st Stage) bool {
	for _, a := range st.Arms {
		if p.armPending(st, a) {
			return false
		}
	}
	return true
}

// check calls Check on every method (a Checker) with cells still to run, stage by
// stage; the first error is returned as prepare would return it.
func (p *Protocol) check(ctx context.Context) error {
	for _, st := range p.Stages {
		ms, arms := methodsOf(st)
		for i, m := range ms {
			c, ok := m.(Checker)
			if !ok || p.armsDone(st, arms[i]) {
				continue
			}
			if err := c.Check(ctx, p.Pool, p.Test); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return fmt.Errorf("%s: %w", m.Name(), err)
			}
		}
	}
	return nil
}

// methodsOf returns the distinct methods of st in the order of their first arm, except
// that methods with the same ShareKey (Sharer) follow the first of them, and for each
// method the indices of its arms.
func methodsOf(st Stage) ([]Method, [][]int) {
	ms, arms := methodsInOrder(st)
	key := func(m Method) string {
		if s, ok := m.(Sharer); ok {
			return s.ShareKey()
		}
		return ""
	}
	var oms []Method
	var oarms [][]int
	placed := make([]bool, len(ms))
	for i, m := range ms {
		if placed[i] {
			continue
		}
		placed[i] = true
		oms, oarms = append(oms, m), append(oarms, arms[i])
		k := key(m)
		if k == "" {
			continue
		}
		for j := i + 1; j < len(ms); j++ {
			if !placed[j] && key(ms[j]) == k {
				placed[j] = true
				oms, oarms = append(oms, ms[j]), append(oarms, arms[j])
			}
		}
	}
	return oms, oarms
}

// methodsInOrder returns the distinct methods of st in the order of their first arm, and
// for each the indices of its arms.
func methodsInOrder(st Stage) ([]Method, [][]int) {
	var ms []Method
	var arms [][]int
	at := map[Method]int{}
	for a, arm := range st.Arms {
		i, ok := at[arm.Method]
		if !ok {
			i = len(ms)
			at[arm.Method] = i
			ms = append(ms, arm.Method)
			arms = append(arms, nil)
		}
		arms[i] = append(arms[i], a)
	}
	return ms, arms
}

// armsDone reports whether no cell of the arms sel of st is pending (all done, or left
// to other shards).
func (p *Protocol) armsDone(st Stage, sel []int) bool {
	for _, a := range sel {
		if p.armPending(st, st.Arms[a]) {
			return false
		}
	}
	return true
}

// prepare calls Prepare for method i of the stage's total.
func (p *Protocol) prepare(ctx context.Context, m Method, i, total int, clk *Clock, ev chan<- Event) (Fitter, error) {
	send(ctx, ev, Progress{Stage: "prepare", Done: i, Total: total})
	send(ctx, ev, Log{Time: time.Now(), Line: fmt.Sprintf("preparing %s", m.Name())})
	f, err := prepareOne(ctx, m, p.Pool, p.Test, clk)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s: %w", m.Name(), err)
	}
	send(ctx, ev, Progress{Stage: "prepare", Done: i + 1, Total: total})
	return f, nil
}

// prepareOne calls m.Prepare and returns its result, or ctx.Err() at most cancelGrace after
// ctx is cancelled: some steps (a tridiagonal reduction, a LAPACK call) cannot be interrupted,
// and the run must still stop promptly. An abandoned Prepare finishes in the background and
// its result is dropped.
func prepareOne(ctx context.Context, m Method, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	type result struct {
		f   Fitter
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- result{err: fmt.Errorf("internal error (please report): %v", v)}
			}
		}()
		f, err := m.Prepare(ctx, pool, test, clk)
		done <- result{f, err}
	}()
	select {
	case r := <-done:
		return r.f, r.err
	case <-ctx.Done():
		select {
		case r := <-done:
			return r.f, r.err
		case <-time.After(cancelGrace):
			return nil, ctx.Err()
		}
	}
}

// cancelGrace is how long a cancelled run waits for work in progress before abandoning it.
const cancelGrace = 400 * time.Millisecond

// runCells runs every (repeat, arm) cell of the arms sel of a stage (which share the
// method prepared as f) on a pool of workers, repeats outermost.
func (p *Protocol) runCells(ctx context.Context, st Stage, sel []int, f Fitter, clk *Clock,
	agg *aggregator, ev chan<- Event, done0, total int, w *workTally) (int, error) {
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type cell struct{ arm, rep int }
	cells := make(chan cell)
	results := make(chan cellResult, len(sel)*p.Repeats)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range cells {
				results <- p.runCell(cctx, st, c.arm, c.rep, f, clk)
			}
		}()
	}
	go func() {
		defer close(cells)
		for r := 0; r < p.Repeats; r++ {
			for _, a := range sel {
				arm := st.Arms[a]
				if r >= p.repeatsOf(arm) {
					continue
				}
				if !p.pending(CellKey{st.Name, arm.Series, arm.X, r}) {
					continue
				}
				select {
				case cells <- cell{a, r}:
				case <-cctx.Done():
					return
				}
			}
		}
	}()
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()

	want := 0
	for _, ai := range sel {
		a := st.Arms[ai]
		for r := range p.repeatsOf(a) {
			if p.pending(CellKey{st.Name, a.Series, a.X, r}) {
				want++
			}
		}
	}
	got, dropped := 0, 0
	noted := map[string]bool{}
	// handle records one cell's result; it returns a non-nil error to stop the stage.
	handle := func(r cellResult) error {
		got++
		if r.err != nil {
			if errors.Is(r.err, context.Canceled) || errors.Is(r.err, context.DeadlineExceeded) {
				dropped++ // stopped by the cancel: the run is partial
				return nil
			}
			return fmt.Errorf("%s: %w", st.Arms[r.arm].Series, r.err)
		}
		if p.OnCell != nil {
			if err := p.OnCell(r.cell); err != nil {
				return &stopError{err}
			}
		}
		for _, n := range r.cell.Notes { // once per series and note: the result lists each cell
			if k := r.cell.Series + "\x00" + n; !noted[k] {
				noted[k] = true
				send(ctx, ev, Log{Time: time.Now(), Line: fmt.Sprintf("%s at %g: %s", r.cell.Series, r.cell.X, n)})
			}
		}
		for _, pt := range agg.add(r.cell) {
			send(ctx, ev, pt)
		}
		w.done += st.Arms[r.arm].Cost
		send(ctx, ev, Progress{Stage: "cells", Done: done0 + got, Total: total, Work: w.done, WorkTotal: w.total})
		return nil
	}
	var grace <-chan time.Time
	ctxDone := ctx.Done()
	for got < want {
		select {
		case r := <-results:
			if err := handle(r); err != nil {
				cancel()
				return got, err
			}
		case <-finished:
			// Every worker is gone: record what they produced, then stop.
			for len(results) > 0 {
				if err := handle(<-results); err != nil {
					return got, err
				}
			}
			if ctx.Err() != nil {
				return got, ctx.Err()
			}
			if got < want {
				return got, errors.New("eval: workers stopped early")
			}
		case <-ctxDone:
			ctxDone = nil
			cancel()
			grace = time.After(cancelGrace)
		case <-grace:
			return got, ctx.Err()
		}
	}
	if dropped > 0 {
		return got, context.Canceled
	}
	return got, nil
}

// runCell draws the training set of one cell and scores the method on the test set (and
// on its transformed copy with TransformedTest).
func (p *Protocol) runCell(ctx context.Context, st Stage, arm, rep int, f Fitter, clk *Clock) (res cellResult) {
	a := st.Arms[arm]
	res.arm = arm
	defer func() {
		if v := recover(); v != nil {
			res.err = fmt.Errorf("internal error (please report): %v", v)
		}
	}()
	if err := ctx.Err(); err != nil {
		return cellResult{arm: arm, err: err}
	}
	t0 := time.Now()
	idx, err := p.Draw(rep, a.Size)
	if err != nil {
		return cellResult{arm: arm, err: err}
	}
	fitRNG := rand.New(rand.NewPCG(p.Seed^0x9e3779b97f4a7c15, uint64(rep)<<32|uint64(arm)))
	var pred []int
	var score []float64
	ctx, chosenOf, notesOf := withChosen(ctx)
	if sc, ok := f.(Scorer); ok && a.Keep {
		pred, score, err = sc.FitScore(ctx, idx, fitRNG, clk)
	} else {
		pred, err = f.FitPredict(ctx, idx, fitRNG, clk)
	}
	if err != nil {
		return cellResult{arm: arm, err: err}
	}
	if score != nil && len(score) != len(pred) {
		score = nil
	}
	y, k := p.Test.Y, len(p.Test.Classes)
	if len(pred) != len(y) {
		return cellResult{arm: arm, err: fmt.Errorf("internal error (please report): %d predictions for %d test samples", len(pred), len(y))}
	}
	c := Cell{CellKey: CellKey{st.Name, a.Series, a.X, rep}, Size: a.Size}
	if p.TransformedTest {
		n := len(y) / 2
		c.Acc, c.BAcc = Scores(y[:n], pred[:n], k)
		at, bt := Scores(y[n:], pred[n:], k)
		c.AccT, c.BAccT = &at, &bt
	} else {
		c.Acc, c.BAcc = Scores(y, pred, k)
	}
	if a.Keep {
		c.Pred, c.Score = pred, score
	}
	c.Chosen = chosenOf()
	if one, ok := oneClass(y, pred, k); ok {
		RecordNote(ctx, fmt.Sprintf("degenerate: every test prediction is class %s", p.Test.Classes[one]))
	}
	c.Notes = notesOf()
	c.Seconds = time.Since(t0).Seconds()
	res.cell = c
	return res
}

// oneClass returns the class of every prediction in pred, and true, when they all fall in
// one class while the labels y hold at least two (a fit that learnt nothing but a
// constant); false otherwise.
func oneClass(y, pred []int, k int) (int, bool) {
	if len(pred) == 0 || len(y) == 0 {
		return 0, false
	}
	for _, c := range pred[1:] {
		if c != pred[0] {
			return 0, false
		}
	}
	for _, c := range y[1:] {
		if c != y[0] {
			return pred[0], pred[0] >= 0 && pred[0] < k
		}
	}
	return 0, false
}

// Scores returns the accuracy and the balanced accuracy (mean over classes present in y of
// the per-class recall) of pred against y. It panics if the lengths differ.
func Scores(y, pred []int, k int) (acc, bacc float64) {
	if len(y) != len(pred) {
		panic("eval: prediction length differs from label length")
	}
	hit := make([]int, k)
	cnt := make([]int, k)
	ok := 0
	for i, c := range y {
		cnt[c]++
		if pred[i] == c {
			hit[c]++
			ok++
		}
	}
	cls := 0
	for c := range k {
		if cnt[c] > 0 {
			bacc += float64(hit[c]) / float64(cnt[c])
			cls++
		}
	}
	if len(y) > 0 {
		acc = float64(ok) / float64(len(y))
	}
	if cls > 0 {
		bacc /= float64(cls)
	}
	return acc, bacc
}

// send delivers e unless ctx is cancelled and the receiver is gone; it never blocks forever.
func send(ctx context.Context, ev chan<- Event, e Event) {
	if ev == nil {
		return
	}
	select {
	case ev <- e:
	case <-ctx.Done():
		// Deliver anyway if there is room: finished cells are kept after a cancel.
		select {
		case ev <- e:
		default:
		}
	}
}

// aggregator keeps the per-cell scores of every (series, x) point, by repeat, so that a
// point's mean and standard deviation do not depend on the order in which its cells
// finished (or on which of them an earlier, resumed run computed): the sums run over
// the repeats in increasing order.
type aggregator struct {
	xlabel      string
	transformed bool
	order       []string // series in the order of the stages' arms
	accs        map[string]map[float64]map[int]float64
	baccs       map[string]map[float64]map[int]float64
}

func newAggregator(xlabel string, stages []Stage, transformed bool) *aggregator {
	g := &aggregator{xlabel: xlabel, transformed: transformed, accs: map[string]map[float64]map[int]float64{}, baccs: map[string]map[float64]map[int]float64{}}
	seen := map[string]bool{}
	for _, st := range stages {
		for _, a := range st.Arms {
			names := []string{a.Series}
			if transformed {
				names = append(names, a.Series+TransformedSuffix)
			}
			for _, n := range names {
				if !seen[n] {
					seen[n] = true
					g.order = append(g.order, n)
				}
			}
		}
	}
	return g
}

// add records a finished cell and returns the updated points (one, or two with a
// transformed test set).
func (g *aggregator) add(c Cell) []Point {
	pts := []Point{g.put(c.Series, c.X, c.Rep, c.Acc, c.BAcc)}
	if c.AccT != nil && c.BAccT != nil {
		pts = append(pts, g.put(c.Series+TransformedSuffix, c.X, c.Rep, *c.AccT, *c.BAccT))
	}
	return pts
}

func (g *aggregator) put(series string, x float64, rep int, acc, bacc float64) Point {
	if g.accs[series] == nil {
		g.accs[series] = map[float64]map[int]float64{}
		g.baccs[series] = map[float64]map[int]float64{}
	}
	if g.accs[series][x] == nil {
		g.accs[series][x] = map[int]float64{}
		g.baccs[series][x] = map[int]float64{}
	}
	g.accs[series][x][rep] = acc
	g.baccs[series][x][rep] = bacc
	return g.point(series, x)
}

func (g *aggregator) point(series string, x float64) Point {
	v := byRep(g.accs[series][x])
	m, s := MeanStd(v)
	return Point{Series: series, XLabel: g.xlabel, YLabel: "accuracy", X: x, Mean: m, Std: s, Runs: len(v)}
}

// points returns the current point of every (series, x) with at least one cell.
func (g *aggregator) points() []Point {
	var out []Point
	for _, name := range g.order {
		for _, x := range sortedXs(g.accs[name]) {
			out = append(out, g.point(name, x))
		}
	}
	return out
}

// MeanStdByRep returns MeanStd of the values of m (accuracy by repeat) taken in
// increasing order of repeat, the order in which every point of a run is summed, so
// that a point rebuilt from a journal equals the engine's bit for bit; and their number.
func MeanStdByRep(m map[int]float64) (mean, std float64, runs int) {
	v := byRep(m)
	mean, std = MeanStd(v)
	return mean, std, len(v)
}

// byRep returns the values of m ordered by repeat.
func byRep(m map[int]float64) []float64 {
	reps := make([]int, 0, len(m))
	for r := range m {
		reps = append(reps, r)
	}
	sort.Ints(reps)
	v := make([]float64, len(reps))
	for i, r := range reps {
		v[i] = m[r]
	}
	return v
}

func sortedXs(m map[float64]map[int]float64) []float64 {
	xs := make([]float64, 0, len(m))
	for x := range m {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	return xs
}

func (g *aggregator) outcome() *Outcome {
	out := &Outcome{}
	bal := Table{Name: "balanced accuracy", Columns: []string{"series", g.xlabel, "mean", "std", "runs"}}
	for _, name := range g.order {
		if len(g.accs[name]) == 0 {
			continue
		}
		s := Series{Name: name, XLabel: g.xlabel, YLabel: "accuracy"}
		for _, x := range sortedXs(g.accs[name]) {
			m, sd := MeanStd(byRep(g.accs[name][x]))
			s.Points = append(s.Points, SeriesPoint{X: x, Mean: m, Std: sd, Runs: len(g.accs[name][x])})
			bv := byRep(g.baccs[name][x])
			bm, bs := MeanStd(bv)
			bal.Rows = append(bal.Rows, []any{name, x, round4(bm), round4(bs), len(bv)})
		}
		out.Series = append(out.Series, s)
	}
	if len(bal.Rows) > 0 {
		out.Tables = append(out.Tables, bal)
	}
	return out
}

// MeanStd returns the mean and the sample standard deviation (n-1 denominator; 0 for n < 2).
func MeanStd(v []float64) (mean, std float64) {
	if len(v) == 0 {
		return math.NaN(), 0
	}
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	for _, x := range v {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(v)-1))
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// Clock accumulates seconds per stage ("features", "gram", "fit", "predict"); safe for
// concurrent use. Time spent by parallel cells adds up (CPU-side seconds, not wall).
type Clock struct {
	mu sync.Mutex
	s  map[string]float64
}

// NewClock returns an empty Clock.
func NewClock() *Clock { return &Clock{s: map[string]float64{}} }

// Since adds the time elapsed since t0 to stage.
func (c *Clock) Since(stage string, t0 time.Time) {
	if c == nil {
		return
	}
	d := time.Since(t0).Seconds()
	c.mu.Lock()
	c.s[stage] += d
	c.mu.Unlock()
}

// Snapshot returns a copy of the per-stage seconds.
func (c *Clock) Snapshot() map[string]float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]float64, len(c.s))
	for k, v := range c.s {
		out[k] = math.Round(v*1000) / 1000
	}
	return out
}
