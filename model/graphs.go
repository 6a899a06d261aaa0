package model

import (
	"math/rand/v2"

	"gitui/core/data"
)

// The graphs data set (data.Graphs): adjacency matrices of GraphNodes-node graphs of four
// families with GraphDegree·GraphNodes/2 edges each, whose symmetry is node relabelling,
// A -> P A Pᵀ (group kind generated with NodeGenerators).
const (
	GraphNodes  = 12
	GraphDegree = 4
	// graphPoolDefault and graphTestDefault are the sizes drawn when data.pool and
	// data.test_size are 0.
	graphPoolDefault = 2000
	graphTestDefault = 1000
)

// loadGraphs draws the pool and the test set of data "graphs" or "graphs-relabelled"
// (every graph's nodes in a uniform random order: data.RelabelNodes) with sizes
// data.pool and data.test_size (defaults 2000 and 1000) from rng.
func loadGraphs(d DataSpec, rng *rand.Rand) (pool, test *data.Dataset) {
	np, nt := d.Pool, d.TestSize
	if np == 0 {
		np = graphPoolDefault
	}
	if nt == 0 {
		nt = graphTestDefault
	}
	pool, test = data.Graphs(np, GraphNodes, GraphDegree, rng), data.Graphs(nt, GraphNodes, GraphDegree, rng)
	pool.Name, test.Name = "graphs-pool", "graphs-test"
	if d.Name == "graphs-relabelled" {
		data.RelabelNodes(pool, rng)
		data.RelabelNodes(test, rng)
	}
	return pool, test
}

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
