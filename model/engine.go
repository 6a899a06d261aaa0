package model

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
)

// run validates the spec, loads the data, builds the protocol and runs it (see Start).
func run(ctx context.Context, spec *Spec, opts RunOptions, ch chan<- eval.Event) (*eval.Outcome, error) {
	spec = spec.Clone()
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
	// Issue 23: a data file's memory enters the estimate before the load (from its header
	// or a first pass); after the move to model/engine this call stays here, before the load.
	if err := checkFileMemory(ctx, spec); err != nil {
		return nil, err
	}
	pool, test, err := LoadDataContext(ctx, spec.Data, opts.DataDir, spec.Seed, loadProgress)
	if err != nil {
		return nil, err
	}
	memLine, err := checkRunMemory(spec, pool, test)
	if err != nil {
		return nil, err
	}
	logf("data %s: pool %d, test %d, %d classes, shape %v (%.1f s)", spec.Data.Name, pool.Len(), test.Len(), len(pool.Classes), pool.Shape, time.Since(t0).Seconds())
	logf("%s", memLine)
	g, err := BuildGroup(spec.Group, pool.Shape, spec.Seed)
	if err != nil {
		return nil, err
	}
	if g != nil {
		logf("group %s: |G| = %d", g.Name(), g.Len())
	}
	if spec.Protocol == ProtocolApprox {
		if g == nil {
			return nil, inputErr(fmt.Errorf("kernel-approx needs a group: set group.kind"))
		}
		a := &eval.Approx{X: pool.X, G: g, Pairs: spec.Approx.Pairs, Templates: spec.Approx.Templates, Bins: spec.Approx.Bins, Seed: spec.Seed, Antithetic: spec.Approx.Antithetic}
		return a.Run(ctx, ch)
	}
	if spec.Protocol == ProtocolPD {
		return pdOutcome(ctx, spec, pool, ch)
	}
	p := &eval.Protocol{Pool: pool, Test: test, Repeats: spec.Repeats, Sampling: drawMode(spec.Sampling), Seed: spec.Seed}
	if tt, tg, err := transformedTestSet(spec, test); err != nil {
		return nil, err
	} else if tt != nil {
		p.Test, p.TransformedTest = tt, true
		logf("test_transform %s: %d test samples also scored as transformed copies", tg.Name(), test.Len())
	}
	b := &builder{spec: spec, pool: pool, group: g, dataDir: opts.DataDir, proto: p, sizes: spec.Sizes, logf: logf, noMatrices: opts.NoMatrices}
	defer b.waitMatrices() // before Start sends Done and closes ch
	if spec.Nested && spec.Protocol == ProtocolCurve && len(spec.Sizes) > 0 {
		p.Nest = slices.Max(spec.Sizes)
	}
	if d := opts.Dir; d != nil {
		p.Done = d.Done()
		p.OnCell = d.Append
		d.SetTest(p.Test.Y, p.Test.Classes, p.TransformedTest) // 2N rows with test_transform
	}
	switch spec.Protocol {
	case ProtocolCurve:
		p.XLabel = "training set size"
		st := eval.Stage{Name: "curve"}
		for _, m := range spec.Methods {
			em, err := b.method(m, g)
			if err != nil {
				return nil, err
			}
			largest := slices.Max(spec.Sizes)
			for _, n := range spec.Sizes {
				// The largest size keeps its predictions: predictions.csv, confusion tables.
				st.Arms = append(st.Arms, eval.Arm{Series: m.Name, X: float64(n), Size: n, Method: em, Keep: n == largest && opts.Dir != nil})
			}
		}
		p.Stages = append(p.Stages, st)
		if spec.Grid != nil {
			// A curve spec may carry a bins x templates grid too: it runs after the curve.
			// Both are built (and checked) before anything runs, so that a mistake in the
			// grid cannot cost the curve's results.
			gp := *p
			gp.XLabel = "bins n"
			if gp.Stages, err = b.gridStages(spec.Grid, g); err != nil {
				return nil, err
			}
			applyShard(opts, logf, p, &gp)
			out, err := b.runWith(ctx, p, ch)
			if err != nil {
				return out, err
			}
			gout, err := b.runWith(ctx, &gp, ch)
			return merge(out, gout), err
		}
	case ProtocolSweep:
		p.XLabel = spec.Sweep.Field
		b.sizes = []int{spec.Sweep.Size}
		st := eval.Stage{Name: "sweep"}
		for _, m := range spec.Methods {
			for _, v := range spec.Sweep.Values {
				mv := m
				switch spec.Sweep.Field {
				case "gamma":
					mv.Gamma = v
				case "inv_gamma":
					mv.InvGamma = v
				case "c":
					mv.C = v
				}
				em, err := b.method(mv, g)
				if err != nil {
					return nil, err
				}
				st.Arms = append(st.Arms, eval.Arm{Series: m.Name, X: v, Size: spec.Sweep.Size, Method: em})
			}
		}
		p.Stages = append(p.Stages, st)
	case ProtocolGrid:
		p.XLabel = "bins n"
		if p.Stages, err = b.gridStages(spec.Grid, g); err != nil {
			return nil, err
		}
	case ProtocolGroupSize:
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
			sub, err := BuildGroup(gs, pool.Shape, spec.Seed)
			if err != nil {
				return nil, err
			}
			st := eval.Stage{Name: fmt.Sprintf("|G|=%d", sub.Len())}
			for _, m := range spec.Methods {
				em, err := b.method(m, sub)
				if err != nil {
					return nil, err
				}
				st.Arms = append(st.Arms, eval.Arm{Series: m.Name, X: float64(sub.Len()), Size: spec.Sizes[0], Method: em})
			}
			p.Stages = append(p.Stages, st)
		}
	}
	applyShard(opts, logf, p)
	return b.runWith(ctx, p, ch)
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
		}
	}
	b.startMatrices(ctx, b.group, ch)
	return p.Run(ctx, ch)
}

// gridStages builds one stage per templates count m, with an arm per bins count n, from
// the first CDF method of the spec (its learner, template kind and thresholds).
func (b *builder) gridStages(grid *GridSpec, g group.Action) ([]eval.Stage, error) {
	first := -1
	for i, m := range b.spec.Methods {
		if m.cdf() {
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
			meth.Name = MethodName(meth)
			em, err := b.method(meth, g)
			if err != nil {
				return nil, err
			}
			if fm, ok := em.(*featureMethod); ok && len(need) < b.pool.Len() {
				fm.need, fm.cache = need, nil
			}
			series := fmt.Sprintf("CDF(n,%d) %s", m, learnerName(meth.Learner))
			st.Arms = append(st.Arms, eval.Arm{Series: series, X: float64(n), Size: grid.Size, Method: em})
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
	}
	return data.Stratified
}
