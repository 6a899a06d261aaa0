package eval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/kernel"
)

// PDKernel is one kernel of the [PD] protocol.
type PDKernel struct {
	// Name names the row of the table and the series, e.g. "TI-SVM".
	Name string
	// Desc describes the Gram, the table's "gram" column, e.g. "linear".
	Desc string
	// Gram returns the symmetric Gram matrix of the rows of X (e.g. kernel.Liu.SymGram).
	Gram func(ctx context.Context, X *mat.Dense) (*mat.SymDense, error)
}

// PD is the Table I protocol of Liu et al.: for each kernel, the largest number n of
// random samples of X whose Gram matrix stays positive definite ([kernel.LargestPD] over
// Draws random orders of the rows, the Gram of max(Sizes) samples factorised once per
// draw). Kernel i draws its orders from PCG(Seed, i): its numbers depend on its
// position in Kernels, not on the other kernels' values (the model's PD protocol has
// drawn them so since before this type existed).
type PD struct {
	X       *mat.Dense
	Kernels []PDKernel
	Sizes   []int
	Draws   int
	Seed    uint64
}

// PDTableName is the name of the table [PD.Run] writes.
const PDTableName = "largest n with a PD Gram matrix (Liu et al. Table I)"

// Run computes the protocol, kernel by kernel. The Outcome holds one table, a row per
// kernel with the columns kernel, gram, min over draws, median, all draws PD up to,
// most draws PD up to, draws (see [kernel.PDReport]), and a series per kernel of the
// fraction of draws PD at each size (x "n", sorted). Events: a Progress "pd <name>"
// before each kernel, a Point per size and a Log line after it. Stages["gram"] is the
// time spent. Run returns an error (and nil) if Sizes is empty, a size is below 1 or
// above the number of rows, Draws < 1 or there is no kernel; a kernel's error is
// returned prefixed by its name, with the outcome of the kernels before it (the table
// only once all are done); ctx.Err() is returned undecorated.
func (p *PD) Run(ctx context.Context, ev chan<- Event) (*Outcome, error) {
	n, _ := p.X.Dims()
	switch {
	case len(p.Kernels) == 0:
		return nil, errors.New("pd: no kernel to check: give at least one method")
	case len(p.Sizes) == 0 || p.Draws < 1:
		return nil, fmt.Errorf("pd needs sizes and draws, got %d sizes and %d draws: e.g. sizes [10, 50, 100] and draws 10", len(p.Sizes), p.Draws)
	case slices.Min(p.Sizes) < 1:
		return nil, fmt.Errorf("pd size %d is below 1: use sizes >= 1", slices.Min(p.Sizes))
	case slices.Max(p.Sizes) > n:
		return nil, fmt.Errorf("pd size %d is larger than the pool of %d samples: use smaller sizes", slices.Max(p.Sizes), n)
	}
	out := &Outcome{Stages: map[string]float64{}}
	tab := Table{Name: PDTableName,
		Columns: []string{"kernel", "gram", "min over draws", "median", "all draws PD up to", "most draws PD up to", "draws"}}
	sizes := slices.Clone(p.Sizes)
	slices.Sort(sizes)
	for ki, k := range p.Kernels {
		send(ctx, ev, Progress{Stage: "pd " + k.Name, Done: ki, Total: len(p.Kernels)})
		t0 := time.Now()
		rng := rand.New(rand.NewPCG(p.Seed, uint64(ki)))
		rep, err := kernel.LargestPD(ctx, k.Gram, p.X, sizes, p.Draws, rng)
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			return out, fmt.Errorf("%s: %w", k.Name, err)
		}
		out.Stages["gram"] += time.Since(t0).Seconds()
		tab.Rows = append(tab.Rows, []any{k.Name, k.Desc, rep.Min, rep.Median, rep.All, rep.Most, p.Draws})
		s := Series{Name: k.Name, XLabel: "n", YLabel: "fraction of draws PD"}
		for i, n := range rep.Sizes {
			s.Points = append(s.Points, SeriesPoint{X: float64(n), Mean: rep.Frac[i], Runs: p.Draws})
			send(ctx, ev, Point{Series: k.Name, XLabel: "n", YLabel: "fraction of draws PD", X: float64(n), Mean: rep.Frac[i], Runs: p.Draws})
		}
		out.Series = append(out.Series, s)
		send(ctx, ev, Log{Time: time.Now(), Line: fmt.Sprintf("%s: PD up to n = %d in every draw, median %d (%.1f s)", k.Name, rep.Min, rep.Median, time.Since(t0).Seconds())})
	}
	out.Tables = append(out.Tables, tab)
	return out, nil
}
