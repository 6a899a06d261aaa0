package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
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

// Fitter trains on the pool rows idx and returns the predicted class of every test sample.
// FitPredict must be safe for concurrent calls with different idx.
type Fitter interface {
	FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) ([]int, error)
}

// Arm is one curve point to estimate: Method trained on Size pool samples, reported as
// series Series at abscissa X, over the protocol's repeats.
type Arm struct {
	Series string
	X      float64
	Size   int
	Method Method
}

// Stage is a group of arms that share prepared methods: the methods are prepared, then every
// (repeat, arm) cell runs, repeats outermost so that every point appears early and then refines.
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
}

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
	arm       int
	acc, bacc float64
	err       error
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
	agg := newAggregator(p.XLabel)
	var runErr error
	totalCells := 0
	for _, s := range p.Stages {
		for _, a := range s.Arms {
			totalCells += p.repeatsOf(a)
		}
	}
	done := 0
	for _, st := range p.Stages {
		fitters, err := p.prepare(ctx, st, clk, ev)
		if err != nil {
			runErr = err
			break
		}
		n, err := p.runCells(ctx, st, fitters, clk, agg, ev, done, totalCells)
		done += n
		if err != nil {
			runErr = err
			break
		}
	}
	out := agg.outcome()
	out.Stages = clk.Snapshot()
	return out, runErr
}

// prepare calls Prepare once per distinct Method of the stage.
func (p *Protocol) prepare(ctx context.Context, st Stage, clk *Clock, ev chan<- Event) (map[Method]Fitter, error) {
	fitters := map[Method]Fitter{}
	var ms []Method
	for _, a := range st.Arms {
		if _, ok := fitters[a.Method]; !ok {
			fitters[a.Method] = nil
			ms = append(ms, a.Method)
		}
	}
	for i, m := range ms {
		send(ctx, ev, Progress{Stage: "prepare", Done: i, Total: len(ms)})
		send(ctx, ev, Log{Time: time.Now(), Line: fmt.Sprintf("preparing %s", m.Name())})
		f, err := prepareOne(ctx, m, p.Pool, p.Test, clk)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("%s: %w", m.Name(), err)
		}
		fitters[m] = f
	}
	send(ctx, ev, Progress{Stage: "prepare", Done: len(ms), Total: len(ms)})
	return fitters, nil
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

// runCells runs every (repeat, arm) cell of a stage on a pool of workers.
func (p *Protocol) runCells(ctx context.Context, st Stage, fitters map[Method]Fitter, clk *Clock,
	agg *aggregator, ev chan<- Event, done0, total int) (int, error) {
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type cell struct{ arm, rep int }
	cells := make(chan cell)
	results := make(chan cellResult, len(st.Arms)*p.Repeats)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range cells {
				results <- p.runCell(cctx, st.Arms[c.arm], c.arm, c.rep, fitters, clk)
			}
		}()
	}
	go func() {
		defer close(cells)
		for r := 0; r < p.Repeats; r++ {
			for a := range st.Arms {
				if r >= p.repeatsOf(st.Arms[a]) {
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
	for _, a := range st.Arms {
		want += p.repeatsOf(a)
	}
	got, dropped := 0, 0
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
		a := st.Arms[r.arm]
		send(ctx, ev, agg.add(a.Series, a.X, r.acc, r.bacc))
		send(ctx, ev, Progress{Stage: "cells", Done: done0 + got, Total: total})
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

// runCell draws the training set of one cell and scores the method on the test set.
func (p *Protocol) runCell(ctx context.Context, a Arm, arm, rep int, fitters map[Method]Fitter, clk *Clock) (res cellResult) {
	res.arm = arm
	defer func() {
		if v := recover(); v != nil {
			res.err = fmt.Errorf("internal error (please report): %v", v)
		}
	}()
	if err := ctx.Err(); err != nil {
		return cellResult{arm: arm, err: err}
	}
	idx, err := p.Draw(rep, a.Size)
	if err != nil {
		return cellResult{arm: arm, err: err}
	}
	fitRNG := rand.New(rand.NewPCG(p.Seed^0x9e3779b97f4a7c15, uint64(rep)<<32|uint64(arm)))
	pred, err := fitters[a.Method].FitPredict(ctx, idx, fitRNG, clk)
	if err != nil {
		return cellResult{arm: arm, err: err}
	}
	res.acc, res.bacc = Scores(p.Test.Y, pred, len(p.Test.Classes))
	return res
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

// aggregator keeps the per-cell scores of every (series, x) point.
type aggregator struct {
	xlabel string
	order  []string
	accs   map[string]map[float64][]float64
	baccs  map[string]map[float64][]float64
}

func newAggregator(xlabel string) *aggregator {
	return &aggregator{xlabel: xlabel, accs: map[string]map[float64][]float64{}, baccs: map[string]map[float64][]float64{}}
}

func (g *aggregator) add(series string, x, acc, bacc float64) Point {
	if g.accs[series] == nil {
		g.order = append(g.order, series)
		g.accs[series] = map[float64][]float64{}
		g.baccs[series] = map[float64][]float64{}
	}
	g.accs[series][x] = append(g.accs[series][x], acc)
	g.baccs[series][x] = append(g.baccs[series][x], bacc)
	m, s := MeanStd(g.accs[series][x])
	return Point{Series: series, XLabel: g.xlabel, YLabel: "accuracy", X: x, Mean: m, Std: s, Runs: len(g.accs[series][x])}
}

func (g *aggregator) outcome() *Outcome {
	out := &Outcome{}
	bal := Table{Name: "balanced accuracy", Columns: []string{"series", g.xlabel, "mean", "std", "runs"}}
	for _, name := range g.order {
		s := Series{Name: name, XLabel: g.xlabel, YLabel: "accuracy"}
		xs := make([]float64, 0, len(g.accs[name]))
		for x := range g.accs[name] {
			xs = append(xs, x)
		}
		sort.Float64s(xs)
		for _, x := range xs {
			m, sd := MeanStd(g.accs[name][x])
			s.Points = append(s.Points, SeriesPoint{X: x, Mean: m, Std: sd, Runs: len(g.accs[name][x])})
			bm, bs := MeanStd(g.baccs[name][x])
			bal.Rows = append(bal.Rows, []any{name, x, round4(bm), round4(bs), len(g.baccs[name][x])})
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
