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

// CellCost is a cell with its estimated cost in arbitrary units, and its group: the
// cells of one group share the preparation of one method (its features, its Gram
// matrices), which every shard holding any of them must do.
type CellCost struct {
	Key   CellKey
	Cost  float64
	Group string
}

// CellCosts returns every cell of the protocol, in run order (stage, repeat, arm), with
// its estimated cost
//
//	cost = max(Size, 1)^2
//
// the order of a Gram matrix or of the normal equations of its training set: the work
// of a cell grows at least that fast with its training size, and the other factors
// (feature dimension, |G|) are the same for the cells of one method. The group of a cell
// is its stage and method: preparing a method (the features of the whole pool) is not
// part of a cell's cost, so AssignShards keeps a method's cells together where it can.
func (p *Protocol) CellCosts() []CellCost {
	var out []CellCost
	for _, st := range p.Stages {
		methods := map[Method]int{}
		for _, a := range st.Arms {
			if _, ok := methods[a.Method]; !ok {
				methods[a.Method] = len(methods)
			}
		}
		for r := 0; r < p.Repeats; r++ {
			for _, a := range st.Arms {
				if r >= p.repeatsOf(a) {
					continue
				}
				n := float64(max(a.Size, 1))
				out = append(out, CellCost{Key: CellKey{st.Name, a.Series, a.X, r}, Cost: n * n,
					Group: fmt.Sprintf("%s\x00%d", st.Name, methods[a.Method])})
			}
		}
	}
	return out
}

// AssignShards splits cells into count shards of similar total cost while splitting
// groups (methods to prepare) as little as it can, and returns each cell's shard in
// 0..count-1:
//
//  1. every group is cut into chunks of cost at most half a shard's share,
//     total/(2 count) (first fit, cells in decreasing cost; a single cell above that is
//     a chunk of its own), so a group of at most that cost stays whole and is prepared
//     by one shard only, while chunks stay small enough to balance;
//  2. the chunks are placed by the longest processing time rule: in decreasing cost,
//     each to the shard with the least cost so far (ties to the lowest index).
//
// Ties keep the given order, so the result depends only on the cells, their order and
// count: every shard of a run computes the same assignment. The largest shard's cost is
// at most total/count + the largest chunk (list scheduling, Graham 1966), and a chunk
// is at most max(total/(2 count), the largest cell). It panics if count < 1.
func AssignShards(cells []CellCost, count int) map[CellKey]int {
	if count < 1 {
		panic("eval: AssignShards with count < 1")
	}
	total := 0.0
	for _, c := range cells {
		total += c.Cost
	}
	target := total / float64(2*count)
	order := make([]int, len(cells))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return cells[order[i]].Cost > cells[order[j]].Cost })
	type chunk struct {
		cost  float64
		cells []int
		first int // position of its first cell in order, for deterministic ties
	}
	var chunks []*chunk
	byGroup := map[string][]*chunk{}
	for pos, i := range order {
		c := cells[i]
		var into *chunk
		for _, ch := range byGroup[c.Group] {
			if ch.cost+c.Cost <= target*(1+1e-12) {
				into = ch
				break
			}
		}
		if into == nil {
			into = &chunk{first: pos}
			byGroup[c.Group] = append(byGroup[c.Group], into)
			chunks = append(chunks, into)
		}
		into.cost += c.Cost
		into.cells = append(into.cells, i)
	}
	sort.SliceStable(chunks, func(i, j int) bool {
		if chunks[i].cost != chunks[j].cost {
			return chunks[i].cost > chunks[j].cost
		}
		return chunks[i].first < chunks[j].first
	})
	load := make([]float64, count)
	out := make(map[CellKey]int, len(cells))
	for _, ch := range chunks {
		best := 0
		for s := 1; s < count; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += ch.cost
		for _, i := range ch.cells {
			out[cells[i].Key] = best
		}
	}
	return out
}
