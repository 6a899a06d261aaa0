package eval

import (
	"fmt"
	"sort"
)

// Shard is part Index of Count (0 <= Index < Count) of a run's cells; the zero Shard
// (Count 0) means the whole run.
type Shard struct {
	Index, Count int
}

// String returns "i/N", the form of `gitui run --shard`.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// CellCost is a cell with its estimated cost in arbitrary units.
type CellCost struct {
	Key  CellKey
	Cost float64
}

// CellCosts returns every cell of the protocol, in run order (stage, repeat, arm), with
// its estimated cost
//
//	cost = max(Size, 1)^2
//
// the order of a Gram matrix or of the normal equations of its training set: the work
// of a cell grows at least that fast with its training size, and the other factors
// (feature dimension, |G|) are the same for the cells of one method. Preparing a method
// (the features of the whole pool) is not a cell's cost: every shard with a cell of a
// method prepares that method.
func (p *Protocol) CellCosts() []CellCost {
	var out []CellCost
	for _, st := range p.Stages {
		for r := 0; r < p.Repeats; r++ {
			for _, a := range st.Arms {
				if r >= p.repeatsOf(a) {
					continue
				}
				n := float64(max(a.Size, 1))
				out = append(out, CellCost{Key: CellKey{st.Name, a.Series, a.X, r}, Cost: n * n})
			}
		}
	}
	return out
}

// AssignShards splits cells into count shards of similar total cost by the longest
// processing time rule: cells in decreasing cost (ties in the given order) each go to
// the shard with the least cost so far (ties to the lowest index). The result maps each
// cell to its shard in 0..count-1 and depends only on the cells, their order and count,
// so every shard of a run computes the same assignment. The largest shard's cost is at
// most 4/3 of the optimum (Graham 1969). It panics if count < 1.
func AssignShards(cells []CellCost, count int) map[CellKey]int {
	if count < 1 {
		panic("eval: AssignShards with count < 1")
	}
	order := make([]int, len(cells))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return cells[order[i]].Cost > cells[order[j]].Cost })
	load := make([]float64, count)
	out := make(map[CellKey]int, len(cells))
	for _, i := range order {
		best := 0
		for s := 1; s < count; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += cells[i].Cost
		out[cells[i].Key] = best
	}
	return out
}
