package eval

import (
	"math/rand/v2"

	"gitui/core/data"
)

// Draw returns the pool indices of the training draw of repeat rep at size n: the set that
// Run's cell (rep, n) trains on, for every method alike (common random numbers). It is
// deterministic in (Seed, rep, n), so a Method can enumerate the draws of a run before it
// starts (see Draws) and precompute, in Prepare, the kernel rows of their union. With
// Nest > n the draw is taken from Draw(rep, Nest) instead of the whole pool (nested
// draws: the draws of size Nest are the same as without nesting). Draw returns
// data.Draw's error (n larger than the pool or a class). With Sampling data.Disjoint the
// draw is block rep of one seeded permutation of the pool per size n (data.DisjointBlock):
// the repeats' training sets do not overlap, and it is an error when Repeats blocks of n
// do not fit in the pool.
func (p *Protocol) Draw(rep, n int) ([]int, error) {
	rng := rand.New(rand.NewPCG(p.Seed, uint64(rep)<<32|uint64(n)))
	opts := data.DrawOptions{Mode: p.Sampling, Classes: len(p.Pool.Classes)}
	if p.Nest > n {
		master, err := p.Draw(rep, p.Nest)
		if err != nil {
			return nil, err
		}
		opts.Pool = master
	}
	if p.Sampling == data.Disjoint && p.Pool.Units == nil {
		// One permutation per size (not per repeat), cut into blocks: repeat rep's
		// training set is block rep, so no two repeats share a sample.
		// Nested (Nest > n): the master is already repeat rep's own block of Nest, disjoint
		// from the others', so the smaller set is the first block of n within it.
		all, blk := opts.Pool, 0
		if all == nil {
			all, blk = make([]int, p.Pool.Len()), rep
			for i := range all {
				all[i] = i
			}
		}
		return data.DisjointBlock(rand.New(rand.NewPCG(p.Seed, uint64(n)|0xd15<<40)), all, n, blk)
	}
	if p.Pool.Units != nil {
		return data.DrawUnits(rng, p.Pool.Units, n, opts)
	}
	return data.Draw(rng, p.Pool.Y, n, opts)
}

// Draws returns every training draw that Run makes for an arm of size n: one per repeat,
// or a single draw when n covers the whole pool (see Protocol.Repeats).
func (p *Protocol) Draws(n int) ([][]int, error) {
	reps := p.repeatsOf(Arm{Size: n})
	out := make([][]int, 0, reps)
	for r := range reps {
		idx, err := p.Draw(r, n)
		if err != nil {
			return nil, err
		}
		out = append(out, idx)
	}
	return out, nil
}
