package learn

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// This file holds the grouped form of FitRLS: training features with many identical
// rows (invariant features of samples in one orbit) are fitted through their u
// distinct rows. See FitRLS for the mathematics.

// rowGroups partitions the samples into classes of rows that are exactly equal on the
// kept columns, numbered in order of first appearance.
type rowGroups struct {
	of    []int // sample -> group
	rep   []int // group -> its first sample
	count []int // group -> number of samples
}

// rowHashMask masks the row hashes of groupRows; tests narrow it to force collisions.
var rowHashMask = ^uint64(0)

// groupRows hashes the kept columns of every row of f (O(n D'), in parallel row
// blocks) and merges rows that are exactly equal there (0 and -0 are equal; f holds no
// NaN, keptColumns has checked). It returns ctx.Err() if cancelled.
func groupRows(ctx context.Context, f *mat.Dense, kept []int) (*rowGroups, error) {
	n, _ := f.Dims()
	raw := f.RawMatrix()
	return groupRowsOf(ctx, n, kept, 0, func(i int, _ []float64) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] })
}

// groupRowsOf is groupRows over n rows given by row, which returns row i (all columns,
// the kept ones indexed by kept), using buf (of length width, or nil if width is 0)
// when it needs storage.
func groupRowsOf(ctx context.Context, n int, kept []int, width int, row func(i int, buf []float64) []float64) (*rowGroups, error) {
	newBuf := func() []float64 {
		if width == 0 {
			return nil
		}
		return make([]float64, width)
	}
	hash := make([]uint64, n)
	err := parallelBlocks(ctx, n, rowBlock, func(_, lo, hi int) error {
		buf := newBuf()
		for i := lo; i < hi; i++ {
			h := uint64(0xcbf29ce484222325)
			r := row(i, buf)
			for _, col := range kept {
				// +0 turns -0 into 0: the hash must respect ==.
				h = (h ^ math.Float64bits(r[col]+0)) * 0x100000001b3
				h ^= h >> 29
			}
			hash[i] = h & rowHashMask
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	g := &rowGroups{of: make([]int, n)}
	heads := make(map[uint64]int, 64) // hash -> first group with it
	next := []int{}                   // group -> next group with the same hash, or -1
	equal := func(a, b []float64) bool {
		for _, col := range kept {
			if a[col] != b[col] {
				return false
			}
		}
		return true
	}
	bi, bo := newBuf(), newBuf()
	for i := range n {
		ri := row(i, bi)
		gi, seen := heads[hash[i]]
		last := -1
		for seen && gi >= 0 {
			if equal(ri, row(g.rep[gi], bo)) {
				break
			}
			last, gi = gi, next[gi]
		}
		if !seen || gi < 0 {
			gi = len(g.rep)
			g.rep = append(g.rep, i)
			g.count = append(g.count, 0)
			next = append(next, -1)
			if seen {
				next[last] = gi
			} else {
				heads[hash[i]] = gi
			}
		}
		g.of[i] = gi
		g.count[gi]++
	}
	return g, nil
}

// lqFactors is the LQ factorisation A' = L Q1 of the (u-1)×D' matrix A' = W0ᵀ C^{1/2} Z_c,
// as Dgelqf leaves it: L in the lower trapezoid and the Householder reflectors of Q
// (D'×D', Q1 its first s rows) in the strict upper one, with their scales tau.
type lqFactors struct {
	m, d, s int
	a, tau  []float64
}

// weights overwrites wk (D'×k row-major) with w = Q1ᵀ Q2 z, z s×k and Q2 s×s row-major.
func (lq *lqFactors) weights(q2, z []float64, k int, wk []float64) {
	s, d := lq.s, lq.d
	clear(wk)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blasGeneral(q2, s, s), blasGeneral(z, s, k), 0, blasGeneral(wk[:s*k], s, k))
	// Q1ᵀ v = Qᵀ [v; 0].
	var impl lapackgonum.Implementation
	work := make([]float64, 1)
	impl.Dormlq(blas.Left, blas.Trans, d, k, s, lq.a, d, lq.tau, wk, k, work, -1)
	work = make([]float64, int(work[0]))
	impl.Dormlq(blas.Left, blas.Trans, d, k, s, lq.a, d, lq.tau, wk, k, work, len(work))
}

// prepareGrouped builds the grouped leave-one-out problem of the kept columns of f,
// whose rows fall into the groups g: with Z the distinct rows, mu = Zᵀc/n and
// A = C^{1/2}(Z - 1 muᵀ), it sets B = C^{-1/2} A Q1ᵀ Q2 (one row per group) and the
// sample-to-row map, where A' = L Q1 (LQ) and LᵀL = Q2 T Q2ᵀ.
//
// A has the exact null vector s = C^{1/2} 1 on the left (sᵀA = cᵀZ_c = 0), so A is first
// deflated: with the Householder reflector H = I - tau v vᵀ, v = s + sqrt(n) e_1, which
// maps s to -sqrt(n) e_1, W0 = H[:, 1:] spans the complement of s, A = W0 A' with
// A' = W0ᵀ A ((u-1)×D'), and A Q1ᵀ = W0 L. Without this step the rounding-level
// singular value of A along s would carry errors of order eps/rho into w at small
// relative lambdas; with it, w lies in the row space of the distinct rows to rounding.
//
// Cost: 2 u² D' for the LQ factorisation (Dgelqf, not interruptible), u s² for LᵀL,
// 8/3 s³ for the reduction, 2 u s² for B, s = min(u-1, D').
func prepareGrouped(ctx context.Context, f *mat.Dense, y []int, k int, kept []int, g *rowGroups) (*featureProblem, error) {
	n, _ := f.Dims()
	raw := f.RawMatrix()
	u, dk := len(g.rep), len(kept)
	a := make([]float64, u*dk)
	mu := make([]float64, dk)
	for ga, i := range g.rep {
		src, dst := raw.Data[i*raw.Stride:], a[ga*dk:(ga+1)*dk]
		c := float64(g.count[ga])
		for j, col := range kept {
			dst[j] = src[col]
			mu[j] += c * src[col]
		}
	}
	for j := range mu {
		mu[j] /= float64(n)
	}
	// A = C^{1/2} (Z - 1 muᵀ); scale = the largest diagonal entry of AᵀA = F_cᵀ F_c.
	colSq := make([]float64, dk)
	for ga := range u {
		sc := math.Sqrt(float64(g.count[ga]))
		row := a[ga*dk : (ga+1)*dk]
		for j := range row {
			row[j] = sc * (row[j] - mu[j])
			colSq[j] += row[j] * row[j]
		}
	}
	scale := 0.0
	for _, v := range colSq {
		scale = math.Max(scale, v)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A' = W0ᵀ A: rows 1.. of H A = A - tau v (vᵀA).
	sn := math.Sqrt(float64(n))
	v := make([]float64, u)
	for ga, c := range g.count {
		v[ga] = math.Sqrt(float64(c))
	}
	v[0] += sn
	tau := 1 / (sn * v[0]) // 2 / vᵀv, vᵀv = 2 (n + sqrt(n) s_1)
	vta := make([]float64, dk)
	blas64.Gemv(blas.Trans, 1, blasGeneral(a, u, dk), blas64.Vector{N: u, Inc: 1, Data: v}, 0, blas64.Vector{N: dk, Inc: 1, Data: vta})
	m := u - 1
	ad := a[dk:]
	for i := range m {
		row, sc := ad[i*dk:(i+1)*dk], tau*v[i+1]
		for j := range row {
			row[j] -= sc * vta[j]
		}
	}
	s := min(m, dk)
	lq := &lqFactors{m: m, d: dk, s: s, a: ad, tau: make([]float64, s)}
	var impl lapackgonum.Implementation
	work := make([]float64, 1)
	impl.Dgelqf(m, dk, ad, dk, lq.tau, work, -1)
	work = make([]float64, max(int(work[0]), m))
	impl.Dgelqf(m, dk, ad, dk, lq.tau, work, len(work))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// L (m×s, lower trapezoidal).
	l := make([]float64, m*s)
	for i := range m {
		copy(l[i*s:i*s+min(i+1, s)], ad[i*dk:i*dk+min(i+1, s)])
	}
	cov, err := syrkUpper(ctx, blasGeneral(l, m, s), true)
	if err != nil {
		return nil, err
	}
	t := reduce(cov, s)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// X = L Q2, overwriting L; then B = C^{-1/2} W0 X = C^{-1/2} H [0; X], with
	// H [0; X] = [0; X] - tau v (vᵀ[0; X]).
	if err := mulInPlace(ctx, l, m, s, t.q); err != nil {
		return nil, err
	}
	h := make([]float64, s)
	for i := range m {
		floats.AddScaled(h, v[i+1], l[i*s:(i+1)*s])
	}
	b := make([]float64, u*s)
	copy(b[s:], l)
	for ga := range u {
		row, sc := b[ga*s:(ga+1)*s], 1/math.Sqrt(float64(g.count[ga]))
		for j := range row {
			row[j] = sc * (row[j] - tau*v[ga]*h[j])
		}
	}
	yt, ybar := targets(y, k)
	p := &looProblem{n: n, r: s, b: b, grp: g.of, t: t, y: yt, k: k, ybar: ybar, labels: y, scale: scale}
	return &featureProblem{p: p, form: FormGrouped, kept: kept, mu: mu, groups: u, lq: lq}, nil
}
