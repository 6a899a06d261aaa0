package model

import (
	"gitui/core/data"
)

// The graphs data set (data.Graphs): adjacency matrices of GraphNodes-node graphs of four
// families with GraphDegree·GraphNodes/2 edges each, whose symmetry is node relabelling,
// A -> P A Pᵀ (group kind generated with NodeGenerators).
const (
	GraphNodes  = 12
	GraphDegree = 4
	// GraphPoolDefault and GraphTestDefault are the sizes drawn when data.pool and
	// data.test_size are 0.
	GraphPoolDefault = 2000
	GraphTestDefault = 1000
)

// NodeGenerators returns generators of the symmetric group S_nodes acting on flattened
// nodes×nodes adjacency matrices by relabelling nodes (P A Pᵀ): the transposition of
// nodes 0 and 1 and the cycle i -> i+1 mod nodes, as the group.generators of a
// {kind: generated} group.
func NodeGenerators(nodes int) [][]int {
	tr, cyc := make([]int, nodes), make([]int, nodes)
	for i := range nodes {
		tr[i], cyc[i] = i, (i+1)%nodes
	}
	tr[0], tr[1] = 1, 0
	return [][]int{data.NodePermutation(tr), data.NodePermutation(cyc)}
}
