package presets

import (
	"fmt"

	"gitui/model"
)

// GraphsPerm compares raw RLS with CDF(25,25) RLS whose templates are transformed by
// |G| = 1, 10, 100 and 1000 node relabellings drawn uniformly from S_12 (given by two
// generators, Schreier–Sims, uniform sampling from the stabiliser chain) on the graphs
// data: 12-node Erdős–Rényi, random regular, Watts–Strogatz and Barabási–Albert graphs
// with 24 edges each. Every method is also scored on the test graphs relabelled by a
// random node permutation (test_transform), where the raw adjacency loses the generators'
// node order. The Haar kernel needs the whole group (12! elements) and is left out.
func GraphsPerm(quick bool) *model.Spec { return graphsPerm("graphs-perm", "graphs", quick) }

// GraphsPermRelabelled is [GraphsPerm] on graphs whose nodes come in a random order
// (data graphs-relabelled), as when node numbering is arbitrary: only invariant
// information is left to learn.
func GraphsPermRelabelled(quick bool) *model.Spec {
	return graphsPerm("graphs-perm-relabelled", "graphs-relabelled", quick)
}

func graphsPerm(name, dataName string, quick bool) *model.Spec {
	gens := model.NodeGenerators(model.GraphNodes)
	nodes := func(size int) *model.GroupSpec {
		return &model.GroupSpec{Kind: "generated", Generators: gens, Size: size}
	}
	s := &model.Spec{
		Name:          name,
		Protocol:      model.ProtocolCurve,
		Data:          model.DataSpec{Name: dataName, Pool: 4000, TestSize: 2000},
		Group:         *nodes(1000),
		TestTransform: nodes(1000),
		Methods:       []model.Method{{Features: "raw"}},
		Sizes:         []int{20, 50, 100, 200, 500, 1000, 2000},
		Repeats:       5,
		Seed:          1,
	}
	for _, g := range []int{1, 10, 100, 1000} {
		s.Methods = append(s.Methods, model.Method{Name: fmt.Sprintf("CDF(25,25) RLS |G|=%d", g),
			Features: "cdf", Bins: 25, Templates: 25, Group: nodes(g)})
	}
	if quick {
		s.Data.Pool, s.Data.TestSize = 600, 400
		s.Sizes = []int{20, 100, 400}
		s.Repeats = 2
		s.Methods = s.Methods[:4] // raw and |G| = 1, 10, 100
	}
	return finish(s)
}
