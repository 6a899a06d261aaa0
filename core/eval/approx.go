package eval

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"gitui/core/feature"
	"gitui/core/group"
)

// Approx is the kernel-approximation check of Theorem 1 (Mroueh et al.): for Pairs random
// pairs (x, z) of distinct rows of X (scaled to unit norm), it compares the CDF feature
// kernel <Phi(x), Phi(z)> (Bins n, m templates uniform on the sphere, trapezoid end
// weights, s = 1 + Eps) with its limit
//
//	s - d_G(x, z),   d_G(x, z) = 1/sqrt(2 pi d) * mean_{g,g'} ||g x - g' z||,
//
// for every m in Templates, and reports per m the mean and maximum absolute error and the
// correlation over the pairs. Theorem 1 predicts an error falling as 1/sqrt(m).
type Approx struct {
	X         *mat.Dense
	G         group.Action
	Pairs     int
	Templates []int
	Bins      int
	Eps       float64
	Seed      uint64
	// Antithetic draws the templates in pairs (t, -t), t uniform on the sphere: each is
	// still uniform, so the expectation (Theorem 1) is unchanged, but the term
	// (<gt,x> + <g't,z>)/2 of max(<gt,x>, <g't,z>), whose mean is zero, cancels within a
	// pair, which removes most of the Monte Carlo variance of <Phi(x),Phi(z)>.
	Antithetic bool
}

// Run computes the check, sending a Point per statistic and m as each m finishes.
func (a *Approx) Run(ctx context.Context, ev chan<- Event) (*Outcome, error) {
	n, d := a.X.Dims()
	if n < 2 {
		return nil, fmt.Errorf("kernel-approx needs at least 2 samples, got %d", n)
	}
	clk := NewClock()
	rng := rand.New(rand.NewPCG(a.Seed, 0x4b41))
	// Distinct pairs of distinct rows; the rows involved are featurised once per m.
	type pair struct{ i, j int }
	seen := map[pair]bool{}
	var pairs []pair
	for len(pairs) < a.Pairs && len(seen) < n*(n-1)/2 {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j {
			continue
		}
		if i > j {
			i, j = j, i
		}
		if !seen[pair{i, j}] {
			seen[pair{i, j}] = true
			pairs = append(pairs, pair{i, j})
		}
	}
	rows := map[int]int{}
	var order []int
	for _, p := range pairs {
		for _, r := range []int{p.i, p.j} {
			if _, ok := rows[r]; !ok {
				rows[r] = len(order)
				order = append(order, r)
			}
		}
	}
	sub := mat.NewDense(len(order), d, nil)
	for k, r := range order {
		row := sub.RawRowView(k)
		copy(row, a.X.RawRowView(r))
		if nrm := math.Sqrt(dot(row, row)); nrm > 0 {
			for t := range row {
				row[t] /= nrm
			}
		}
	}
	s := 1 + a.Eps
	target := make([]float64, len(pairs))
	t0 := time.Now()
	for k, p := range pairs {
		if k%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			send(ctx, ev, Progress{Stage: "orbit distances", Done: k, Total: len(pairs)})
		}
		target[k] = s - feature.OrbitDistance(sub.RawRowView(rows[p.i]), sub.RawRowView(rows[p.j]), a.G)
	}
	clk.Since("orbit distance", t0)

	out := &Outcome{}
	tab := Table{Name: "kernel approximation", Columns: []string{"templates m", "mean |error|", "max |error|", "correlation", "max error x sqrt(m)"}}
	series := map[string]*Series{}
	names := []string{"mean |error|", "max |error|", "correlation"}
	for _, nm := range names {
		yl := "absolute error"
		if nm == "correlation" {
			yl = "correlation"
		}
		series[nm] = &Series{Name: nm, XLabel: "templates m", YLabel: yl}
	}
	var logm, logmax []float64
	for step, m := range a.Templates {
		send(ctx, ev, Progress{Stage: fmt.Sprintf("features m=%d", m), Done: step, Total: len(a.Templates)})
		t0 := time.Now()
		tpl := a.templates(m, d)
		cdf, err := feature.NewCDF(tpl, a.G, feature.CDFOptions{Bins: a.Bins, Eps: a.Eps, Normalize: true, Trapezoid: true})
		if err != nil {
			return out, err
		}
		F, err := cdf.Transform(ctx, sub, nil)
		if err != nil {
			return out, err
		}
		clk.Since("features", t0)
		approx := make([]float64, len(pairs))
		var meanErr, maxErr float64
		for k, p := range pairs {
			approx[k] = dot(F.RawRowView(rows[p.i]), F.RawRowView(rows[p.j]))
			e := math.Abs(approx[k] - target[k])
			meanErr += e
			maxErr = math.Max(maxErr, e)
		}
		meanErr /= float64(len(pairs))
		corr := stat.Correlation(approx, target, nil)
		vals := map[string]float64{"mean |error|": meanErr, "max |error|": maxErr, "correlation": corr}
		for _, nm := range names {
			pt := SeriesPoint{X: float64(m), Mean: vals[nm], Runs: 1}
			series[nm].Points = append(series[nm].Points, pt)
			send(ctx, ev, Point{Series: nm, XLabel: "templates m", YLabel: series[nm].YLabel, X: pt.X, Mean: pt.Mean, Runs: 1})
		}
		tab.Rows = append(tab.Rows, []any{m, round6(meanErr), round6(maxErr), round6(corr), round6(maxErr * math.Sqrt(float64(m)))})
		logm = append(logm, math.Log(float64(m)))
		logmax = append(logmax, math.Log(maxErr))
		send(ctx, ev, Log{Time: time.Now(), Line: fmt.Sprintf("m=%d: mean |error| %.4f, max |error| %.4f, correlation %.4f", m, meanErr, maxErr, corr)})
	}
	for _, nm := range names {
		out.Series = append(out.Series, *series[nm])
	}
	if len(logm) >= 2 {
		_, slope := stat.LinearRegression(logm, logmax, nil, false)
		tab.Rows = append(tab.Rows, []any{"slope of log max error vs log m (theory -0.5)", round6(slope), "", "", ""})
	}
	out.Tables = append(out.Tables, tab)
	out.Stages = clk.Snapshot()
	return out, nil
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// templates draws m templates uniformly on the sphere, in antithetic pairs if asked.
func (a *Approx) templates(m, d int) *mat.Dense {
	rng := rand.New(rand.NewPCG(a.Seed, uint64(m)))
	if !a.Antithetic || m < 2 {
		return feature.SphereTemplates(m, d, rng)
	}
	half := feature.SphereTemplates((m+1)/2, d, rng)
	t := mat.NewDense(m, d, nil)
	for i := 0; i < m; i++ {
		row := t.RawRowView(i)
		copy(row, half.RawRowView(i/2))
		if i%2 == 1 {
			for k := range row {
				row[k] = -row[k]
			}
		}
	}
	return t
}
