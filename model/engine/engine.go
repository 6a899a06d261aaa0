package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"gitui/core/bench"
	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
	"gitui/core/linalg"
	"gitui/model"
)

// run validates the spec, loads the data, builds the protocol and runs it (see Start).
func run(ctx context.Context, spec *model.Spec, opts RunOptions, ch chan<- eval.Event) (*eval.Outcome, error) {
	spec = spec.Clone()
	spec.Defaults()
	if err := spec.Validate(); err != nil {
		return nil, inputErr(err)
	}
	for i := range spec.Methods { // series and messages carry the name derived now, after every --set
		spec.Methods[i].Name = spec.Methods[i].DisplayName()
	}
	logf := func(format string, a ...any) {
		select {
		case ch <- eval.Log{Time: time.Now(), Line: fmt.Sprintf(format, a...)}:
		case <-ctx.Done():
		}
	}
	t0 := time.Now()
	loadProgress := func(done, total int) {
		select {
		case ch <- eval.Progress{Stage: "load", Done: done, Total: total}:
		case <-ctx.Done():
		}
	}
	// A data file's memory enters the estimate before the load (from its header or a
	// first pass), so a run that cannot fit is refused before it loads.
	if opts.Loaded == nil {
		if err := checkFileMemory(ctx, spec); err != nil {
			return nil, err
		}
	}
	var pool, test *data.Dataset
	var err error
	used := spec.Data.Name  // the data set loaded: data.name, or its fallback
	if opts.Loaded != nil { // a study's trial: the training part and the validation split, loaded once
		pool, test = opts.Loaded.Pool, opts.Loaded.Test
	} else if pool, test, used, err = LoadDataUsed(ctx, spec.Data, opts.DataDir, spec.Seed, loadProgress); err != nil {
		return nil, err
	}
	if used != spec.Data.Name {
		logf("data %s is not in the data directory: using its fallback %s instead", spec.Data.Name, used)
	}
	if err := checkTrainingSizes(spec, pool.Len()); err != nil {
		return nil, err
	}
	memLine, est, err := checkRunMemory(spec, pool, test)
	if err != nil {
		return nil, err
	}
	logf("data %s: pool %d, test %d, %d classes, shape %v (%.1f s)", used, pool.Len(), test.Len(), len(pool.Classes), pool.Shape, time.Since(t0).Seconds())
	logf("%s", memLine)
	rates := bench.LoadRatesOnce()
	size := runSize(spec, pool, test)
	if opts.Loaded == nil { // not per trial of a study: the study says its own
		logf("%s", TimeLine(EstimateTime(spec, size, rates)))
	}
	if hint := buildHint(est, linalg.BLAS(), linalg.DgemmPacked()); hint != "" && opts.Loaded == nil { // not per trial of a study
		logf("%s", hint)
	}
	g, err := BuildGroupContext(ctx, spec.Group, pool.Shape, spec.Seed)
	if err != nil {
		return nil, err
	}
	if g != nil {
		logf("%s", groupLine(g))
	}
	r := &runState{spec: spec, opts: opts, pool: pool, test: test, group: g, logf: logf, ch: ch,
		timer: &timer{est: estimator{spec: spec, ds: size, d: size.dim(), workers: 1}, r: rates}}
	// The journal is bound to the data before a cell runs: a resume on a changed file
	// or another --data is refused here, not mixed into the journaled cells.
	if err := bindInputs(r, used); err != nil {
		return nil, err
	}
	pr, ok := protocols[spec.Protocol]
	if !ok { // Validate refuses an unknown protocol first
		return nil, inputErr(fmt.Errorf("protocol %q is unknown: use one of %s", spec.Protocol, strings.Join(model.Protocols, ", ")))
	}
	if pr.whole != nil {
		out, err := pr.whole(ctx, r)
		return withData(out, used), err
	}
	p := &eval.Protocol{Pool: pool, Test: test, Repeats: spec.Repeats, Sampling: drawMode(spec.Sampling), Seed: spec.Seed}
	if tt, tg, err := transformedTestSet(spec, test); err != nil {
		return nil, err
	} else if tt != nil {
		p.Test, p.TransformedTest = tt, true
		logf("test_transform %s: %d test samples also scored as transformed copies", tg.Name(), test.Len())
	}
	b := &builder{spec: spec, pool: pool, group: g, dataDir: opts.DataDir, proto: p, sizes: spec.Sizes, logf: logf, progress: gramProgress(ctx, ch), smoProgress: smoProgress(ctx, ch), stageProgress: stageProgress(ctx, ch), noMatrices: opts.NoMatrices}
	if opts.Features != nil && opts.Loaded != nil {
		b.shared, b.loaded = opts.Features, opts.Loaded
	}
	defer b.waitMatrices() // before Start sends Done and closes ch
	if spec.Nested && spec.Protocol == model.ProtocolCurve && len(spec.Sizes) > 0 {
		p.Nest = slices.Max(spec.Sizes)
	}
	if d := opts.Dir; d != nil {
		p.Done = d.Done()
		p.OnCell = d.Append
		d.SetTest(p.Test.Y, p.Test.Classes, p.TransformedTest) // 2N rows with test_transform
	}
	r.b, r.p = b, p
	// Every protocol is built (and checked) before anything runs, so that a mistake in a
	// later one (the grid after a curve) cannot cost the earlier one's results.
	ps, err := pr.stages(r)
	if err != nil {
		return nil, err
	}
	applyShard(opts, logf, ps...)
	var out *eval.Outcome
	for _, q := range ps {
		o, err := b.runWith(ctx, q, ch)
		out = merge(out, o)
		if err != nil {
			return flatSweep(spec, withData(out, used)), err
		}
	}
	return flatSweep(spec, withData(out, used)), nil
}

// flatSweep repeats the points of a sweep's reference methods (model.Spec.SweepReference:
// run once, at the first value) at every other value of the sweep, so that they are
// drawn as flat lines across it. out may be nil.
func flatSweep(spec *model.Spec, out *eval.Outcome) *eval.Outcome {
	if out == nil || spec.Protocol != model.ProtocolSweep || spec.Sweep == nil {
		return out
	}
	ref := map[string]bool{}
	for _, m := range spec.Methods {
		if spec.SweepReference(m) {
			ref[m.Name] = true
			ref[m.Name+eval.TransformedSuffix] = true
		}
	}
	for i, s := range out.Series {
		if !ref[s.Name] || len(s.Points) != 1 {
			continue
		}
		p := s.Points[0]
		for _, v := range spec.Sweep.Values[1:] {
			q := p
			q.X = v
			out.Series[i].Points = append(out.Series[i].Points, q)
		}
	}
	return out
}

// withData records in out (when not nil) the name of the data set the run loaded.
func withData(out *eval.Outcome, used string) *eval.Outcome {
	if out != nil {
		out.Data = used
	}
	return out
}

// runState is what a protocol's runner works with: the checked spec, the data, the
// spec's group (nil: none), the run's log and events, and for the protocols of cells the
// builder and the eval.Protocol the runner fills.
type runState struct {
	spec       *model.Spec
	opts       RunOptions
	pool, test *data.Dataset
	group      group.Action
	logf       func(format string, a ...any)
	ch         chan<- eval.Event
	b          *builder
	p          *eval.Protocol
	timer      *timer // the time estimate's cost model: the arms' costs (eval.Arm.Cost)
}

// arm returns a with the estimated costs of method m (acting with g) at training size n:
// a cell's seconds and the method's preparation (eval.Arm.Cost, PrepareCost).
func (r *runState) arm(a eval.Arm, m model.Method, g group.Action, n int) eval.Arm {
	order := 0.0
	if g != nil {
		order = float64(g.Len())
	}
	w := r.timer.Method(m, order)
	a.Cost, a.PrepareCost = w.Cell(n), w.Prepare
	return a
}

// protocolRunner runs one protocol (model.Protocols). A protocol of cells (learning
// curves, grids, sweeps) has stages: it fills r.p's stages and x label and returns the
// eval.Protocols to run, in order (r.p first); they are sharded together and their
// outcomes merged. A protocol without cells (kernel-approx, pd) is whole: it runs itself.
type protocolRunner struct {
	stages func(r *runState) ([]*eval.Protocol, error)
	whole  func(ctx context.Context, r *runState) (*eval.Outcome, error)
}

// protocols maps every protocol name of the spec to its runner.
var protocols = map[string]protocolRunner{
	model.ProtocolCurve:     {stages: curveStages},
	model.ProtocolSweep:     {stages: sweepStages},
	model.ProtocolGrid:      {stages: gridProtocol},
	model.ProtocolGroupSize: {stages: groupSizeStages},
	model.ProtocolApprox:    {whole: runApprox},
	model.ProtocolPD: {whole: func(ctx context.Context, r *runState) (*eval.Outcome, error) {
		return pdOutcome(ctx, r.spec, r.pool, r.ch)
	}},
}

// runApprox runs the kernel-approximation protocol (Mroueh et al.'s Theorem 1/2):
// <Phi(x), Phi(z)> against s - d_G(x, z) over pairs of pool samples.
func runApprox(ctx context.Context, r *runState) (*eval.Outcome, error) {
	if r.group == nil {
		return nil, inputErr(fmt.Errorf("kernel-approx needs a group: set group.kind"))
	}
	s := r.spec
	a := &eval.Approx{X: r.pool.X, G: r.group, Pairs: s.Approx.Pairs, Templates: s.Approx.Templates, Bins: s.Approx.Bins, Seed: s.Seed, Antithetic: s.Approx.Antithetic}
	return a.Run(ctx, r.ch)
}

// curveStages is the sample-complexity protocol: one arm per method and training size;
// the largest size keeps its predictions (predictions.csv, confusion tables) when the
// run is journaled. A bins x templates grid in the spec runs after the curve.
func curveStages(r *runState) ([]*eval.Protocol, error) {
	spec, p, b := r.spec, r.p, r.b
	p.XLabel = "training set size"
	st := eval.Stage{Name: "curve"}
	for _, m := range spec.Methods {
		em, err := b.method(m, r.group)
		if err != nil {
			return nil, err
		}
		largest := slices.Max(spec.Sizes)
		for _, n := range spec.Sizes {
			st.Arms = append(st.Arms, r.arm(eval.Arm{Series: m.Name, X: float64(n), Size: n, Method: em, Keep: n == largest && r.opts.Dir != nil}, m, r.group, n))
		}
	}
	p.Stages = append(p.Stages, st)
	if spec.Grid == nil {
		return []*eval.Protocol{p}, nil
	}
	gp := *p
	gp.XLabel = "bins n"
	var err error
	if gp.Stages, err = b.gridStages(spec.Grid, r.group, r.timer); err != nil {
		return nil, err
	}
	return []*eval.Protocol{p, &gp}, nil
}

// sweepStages is the sweep protocol: one arm per method and value of the swept field
// (a numeric method field of the registry, model.SweepFields) at one training size.
func sweepStages(r *runState) ([]*eval.Protocol, error) {
	spec, p, b := r.spec, r.p, r.b
	p.XLabel = spec.Sweep.Field
	b.sizes = []int{spec.Sweep.Size}
	f := model.MethodFieldOf(spec.Sweep.Field)
	if f == nil { // Validate refuses it first
		return nil, inputErr(fmt.Errorf("sweep.field %q is unknown: use one of %s", spec.Sweep.Field, strings.Join(model.SweepFields, ", ")))
	}
	st := eval.Stage{Name: "sweep"}
	for _, m := range spec.Methods {
		values := spec.Sweep.Values
		if spec.SweepReference(m) { // the field does not apply: once, drawn flat (flatSweep)
			values = values[:1]
		}
		for _, v := range values {
			mv := m
			if err := f.SetNumber(&mv, v); err != nil {
				return nil, inputErr(fmt.Errorf("sweep.field %s: %w", f.Key, err))
			}
			em, err := b.method(mv, r.group)
			if err != nil {
				return nil, err
			}
			st.Arms = append(st.Arms, r.arm(eval.Arm{Series: m.Name, X: v, Size: spec.Sweep.Size, Method: em}, mv, r.group, spec.Sweep.Size))
		}
	}
	p.Stages = append(p.Stages, st)
	return []*eval.Protocol{p}, nil
}

// gridProtocol is the bins x templates grid protocol (Mroueh et al.'s Fig. 4 right).
func gridProtocol(r *runState) ([]*eval.Protocol, error) {
	r.p.XLabel = "bins n"
	var err error
	if r.p.Stages, err = r.b.gridStages(r.spec.Grid, r.group, r.timer); err != nil {
		return nil, err
	}
	return []*eval.Protocol{r.p}, nil
}

// groupSizeStages is the group-size protocol: one stage per |G| (a sample of the spec's
// group, or all of it), every method at the first training size.
func groupSizeStages(r *runState) ([]*eval.Protocol, error) {
	spec, p, b, g := r.spec, r.p, r.b, r.group
	p.XLabel = "|G|"
	if g == nil {
		return nil, inputErr(fmt.Errorf("group-size needs a group: set group.kind"))
	}
	for _, k := range spec.GroupSizes {
		gs := spec.Group
		gs.Size = k
		if k >= g.Len() {
			gs.Size = 0
		}
		sub, err := BuildGroup(gs, r.pool.Shape, spec.Seed)
		if err != nil {
			return nil, err
		}
		st := eval.Stage{Name: fmt.Sprintf("|G|=%d", sub.Len())}
		for _, m := range spec.Methods {
			em, err := b.method(m, sub)
			if err != nil {
				return nil, err
			}
			st.Arms = append(st.Arms, r.arm(eval.Arm{Series: m.Name, X: float64(sub.Len()), Size: spec.Sizes[0], Method: em}, m, sub, spec.Sizes[0]))
		}
		p.Stages = append(p.Stages, st)
	}
	return []*eval.Protocol{p}, nil
}

// applyShard sets Only on the protocols of one run: none with opts.NoRun, else the cells
// that eval.AssignShards gives to opts.Shard over all of them together, so that the
// shards of a run are balanced over its curve and grid alike.
func applyShard(opts RunOptions, logf func(string, ...any), ps ...*eval.Protocol) {
	if opts.NoRun {
		for _, p := range ps {
			p.Only = func(eval.CellKey) bool { return false }
		}
		return
	}
	if opts.Shard.Count <= 0 {
		return
	}
	var cells []eval.CellCost
	for _, p := range ps {
		cells = append(cells, p.CellCosts()...)
	}
	assign := eval.AssignShards(cells, opts.Shard.Count)
	mine, cost, total := 0, 0.0, 0.0
	for _, c := range cells {
		total += c.Cost
		if assign[c.Key] == opts.Shard.Index {
			mine++
			cost += c.Cost
		}
	}
	for _, p := range ps {
		p.Only = func(k eval.CellKey) bool { return assign[k] == opts.Shard.Index }
	}
	logf("shard %s: %d of %d cells (%.0f%% of the estimated cost)", opts.Shard, mine, len(cells), 100*cost/max(total, 1))
}

// runWith checks every arm's training size against the pool, starts the heatmap's
// matrices (once per run) and runs the protocol.
func (b *builder) runWith(ctx context.Context, p *eval.Protocol, ch chan<- eval.Event) (*eval.Outcome, error) {
	pool := b.pool
	for _, st := range p.Stages {
		for _, a := range st.Arms {
			rng := rand.New(rand.NewPCG(0, 0)) // a trial draw: only its error matters
			if _, err := data.Draw(rng, pool.Y, a.Size, data.DrawOptions{Mode: p.Sampling, Classes: len(pool.Classes), What: "training size"}); err != nil {
				return nil, inputErr(err)
			}
			if p.Sampling == data.Disjoint && a.Size < pool.Len() && p.Repeats*a.Size > pool.Len() {
				return nil, inputErr(fmt.Errorf("sampling disjoint: %d repeats of %d samples need %d pool samples, the pool has %d: lower repeats or the training size", p.Repeats, a.Size, p.Repeats*a.Size, pool.Len()))
			}
		}
	}
	b.startMatrices(ctx, b.group, ch)
	return p.Run(ctx, ch)
}

// gridStages builds one stage per templates count m, with an arm per bins count n, from
// the first CDF method of the spec (its learner, template kind and thresholds), each arm
// with its estimated costs from tm.
func (b *builder) gridStages(grid *model.GridSpec, g group.Action, tm *timer) ([]eval.Stage, error) {
	first := -1
	for i, m := range b.spec.Methods {
		if m.IsCDF() {
			first = i
			break
		}
	}
	if first < 0 {
		return nil, inputErr(fmt.Errorf("a bins x templates grid needs a method with features cdf: add one to methods"))
	}
	// The grid's draws use a part of the pool: its feature methods transform only those
	// rows (and the test set).
	draws, err := b.proto.Draws(grid.Size)
	if err != nil {
		return nil, inputErr(err)
	}
	var need []int
	for _, d := range draws {
		need = append(need, d...)
	}
	slices.Sort(need)
	need = slices.Compact(need)
	var stages []eval.Stage
	for _, m := range grid.Templates {
		st := eval.Stage{Name: fmt.Sprintf("m=%d", m)}
		for _, n := range grid.Bins {
			meth := b.spec.Methods[first]
			meth.Bins, meth.Templates = n, m
			meth.Name = ""
			meth.Name = model.MethodName(meth)
			em, err := b.method(meth, g)
			if err != nil {
				return nil, err
			}
			if fm, ok := em.(*featureMethod); ok && len(need) < b.pool.Len() {
				fm.need, fm.cache = need, nil
			}
			series := fmt.Sprintf("CDF(n,%d) %s", m, model.LearnerName(meth.Learner))
			order := 0.0
			if g != nil {
				order = float64(g.Len())
			}
			w := tm.methodRows(meth, order, float64(len(need)+b.proto.Test.Len()))
			st.Arms = append(st.Arms, eval.Arm{Series: series, X: float64(n), Size: grid.Size, Method: em, Cost: w.Cell(grid.Size), PrepareCost: w.Prepare})
		}
		stages = append(stages, st)
	}
	return stages, nil
}

// merge appends the series, tables and stage times of b to a.
func merge(a, b *eval.Outcome) *eval.Outcome {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	a.Series = append(a.Series, b.Series...)
	a.Tables = append(a.Tables, b.Tables...)
	a.Missing = append(a.Missing, b.Missing...)
	for k, v := range b.Stages {
		a.Stages[k] += v
	}
	return a
}

func drawMode(s string) data.DrawMode {
	switch s {
	case "balanced":
		return data.Balanced
	case "uniform":
		return data.Plain
	case "disjoint":
		return data.Disjoint
	}
	return data.Stratified
}
