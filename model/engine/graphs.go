package engine

import (
	"context"

	"gitui/core/data"
	"gitui/model"
)

// The graphs data sets register in core/data's table.
func init() {
	for _, name := range []string{"graphs", "graphs-relabelled"} {
		data.Register(name, func(_ context.Context, r data.LoadRequest) (pool, test *data.Dataset, err error) {
			pool, test = loadGraphs(r)
			return pool, test, nil
		})
	}
}

// loadGraphs draws the pool and the test set of data "graphs" or "graphs-relabelled"
// (every graph's nodes in a uniform random order: data.RelabelNodes) with sizes
// data.pool and data.test_size (defaults 2000 and 1000) from rng.
func loadGraphs(r data.LoadRequest) (pool, test *data.Dataset) {
	rng := r.Rand
	np, nt := r.Pool, r.TestSize
	if np == 0 {
		np = model.GraphPoolDefault
	}
	if nt == 0 {
		nt = model.GraphTestDefault
	}
	pool, test = data.Graphs(np, model.GraphNodes, model.GraphDegree, rng), data.Graphs(nt, model.GraphNodes, model.GraphDegree, rng)
	pool.Name, test.Name = "graphs-pool", "graphs-test"
	if r.Name == "graphs-relabelled" {
		data.RelabelNodes(pool, rng)
		data.RelabelNodes(test, rng)
	}
	return pool, test
}
