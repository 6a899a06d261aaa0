package data

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// GraphFamilies are the classes of [Graphs], in label order.
var GraphFamilies = []string{"erdos-renyi", "random-regular", "watts-strogatz", "barabasi-albert"}

// Graphs returns n random graphs on the given number of nodes, n/4 of each of the four
// families of GraphFamilies (label i for family i, round robin), as flattened adjacency
// matrices: sample shape [nodes, nodes], entry (i, j) = 1 when i and j are joined
// (symmetric, zero diagonal). Every graph has exactly nodes·degree/2 edges, so the edge
// count (the degree sum) does not separate the families:
//
//   - Erdős–Rényi G(nodes, M): M edges drawn uniformly among all pairs;
//   - random regular: every node of degree `degree` (a uniform pairing of stubs, redrawn
//     until simple);
//   - Watts–Strogatz: the ring lattice joining each node to its degree/2 nearest neighbours
//     on either side, each edge rewired to a uniform new endpoint with probability 0.2;
//   - Barabási–Albert: from a clique on degree/2+1 nodes, every new node joins degree/2
//     existing ones chosen in proportion to their degree, then uniform random edges up to M.
//
// Nodes keep the order the generator gives them (ring order, arrival order), so a method
// that reads raw adjacency can use it; node permutations act on a sample as P A Pᵀ
// ([NodePermutation]). It panics if n < 1, nodes < 4, degree is odd or below 2, or
// degree >= nodes-1.
func Graphs(n, nodes, degree int, rng *rand.Rand) *Dataset {
	if n < 1 || nodes < 4 || degree < 2 || degree%2 != 0 || degree >= nodes-1 {
		panic(fmt.Sprintf("data: Graphs(n=%d, nodes=%d, degree=%d): need n >= 1, nodes >= 4 and an even degree in 2..nodes-2", n, nodes, degree))
	}
	d := nodes * nodes
	x := make([]float64, n*d)
	y := make([]int, n)
	for s := range n {
		c := s % len(GraphFamilies)
		y[s] = c
		var edges [][2]int
		switch c {
		case 0:
			edges = erdosRenyi(nodes, nodes*degree/2, rng)
		case 1:
			edges = randomRegular(nodes, degree, rng)
		case 2:
			edges = wattsStrogatz(nodes, degree, 0.2, rng)
		default:
			edges = barabasiAlbert(nodes, degree, rng)
		}
		a := x[s*d : (s+1)*d]
		for _, e := range edges {
			a[e[0]*nodes+e[1]], a[e[1]*nodes+e[0]] = 1, 1
		}
	}
	return &Dataset{Name: "graphs", X: mat.NewDense(n, d, x), Y: y,
		Classes: append([]string(nil), GraphFamilies...), Shape: []int{nodes, nodes}}
}

// NodePermutation returns the permutation of the nodes² coordinates of a flattened
// adjacency matrix induced by relabelling node i as p[i]: coordinate (i, j) goes to
// (p[i], p[j]), i.e. A -> P A Pᵀ, as an image table for the "permutations" and
// "generated" group kinds.
func NodePermutation(p []int) []int {
	n := len(p)
	out := make([]int, n*n)
	for i := range n {
		for j := range n {
			out[i*n+j] = p[i]*n + p[j]
		}
	}
	return out
}

type edgeSet struct {
	n   int
	has map[[2]int]bool
	e   [][2]int
}

func newEdgeSet(n int) *edgeSet { return &edgeSet{n: n, has: map[[2]int]bool{}} }

// add joins u and v unless they are equal or already joined; it reports whether it did.
func (s *edgeSet) add(u, v int) bool {
	if u == v {
		return false
	}
	k := [2]int{min(u, v), max(u, v)}
	if s.has[k] {
		return false
	}
	s.has[k] = true
	s.e = append(s.e, k)
	return true
}

// fill adds uniform random edges until there are m.
func (s *edgeSet) fill(m int, rng *rand.Rand) {
	for len(s.e) < m {
		s.add(rng.IntN(s.n), rng.IntN(s.n))
	}
}

func erdosRenyi(n, m int, rng *rand.Rand) [][2]int {
	s := newEdgeSet(n)
	s.fill(m, rng)
	return s.e
}

func randomRegular(n, k int, rng *rand.Rand) [][2]int {
	stubs := make([]int, 0, n*k)
	for v := range n {
		for range k {
			stubs = append(stubs, v)
		}
	}
	for {
		rng.Shuffle(len(stubs), func(i, j int) { stubs[i], stubs[j] = stubs[j], stubs[i] })
		s := newEdgeSet(n)
		ok := true
		for i := 0; i < len(stubs) && ok; i += 2 {
			ok = s.add(stubs[i], stubs[i+1])
		}
		if ok {
			return s.e
		}
	}
}

func wattsStrogatz(n, k int, beta float64, rng *rand.Rand) [][2]int {
	s := newEdgeSet(n)
	for v := range n {
		for j := 1; j <= k/2; j++ {
			s.add(v, (v+j)%n)
		}
	}
	for i, e := range s.e {
		if rng.Float64() >= beta {
			continue
		}
		for range 100 { // a new endpoint for e[0], not a loop or an existing edge
			w := rng.IntN(n)
			k := [2]int{min(e[0], w), max(e[0], w)}
			if w != e[0] && !s.has[k] {
				delete(s.has, e)
				s.has[k] = true
				s.e[i] = k
				break
			}
		}
	}
	return s.e
}

func barabasiAlbert(n, k int, rng *rand.Rand) [][2]int {
	m := k / 2
	s := newEdgeSet(n)
	var ends []int // every edge's two endpoints: choosing from it is preferential
	for u := 0; u <= m; u++ {
		for v := u + 1; v <= m; v++ {
			s.add(u, v)
			ends = append(ends, u, v)
		}
	}
	for v := m + 1; v < n; v++ {
		added := 0
		for added < m {
			if u := ends[rng.IntN(len(ends))]; s.add(u, v) {
				ends = append(ends, u, v)
				added++
			}
		}
	}
	s.fill(n*k/2, rng)
	return s.e
}

// RelabelNodes relabels the nodes of every sample of a graphs data set (shape [nodes,
// nodes]) by its own uniform random permutation, A -> P A Pᵀ, in place: the node order
// then carries no information, as in data whose node numbering is arbitrary. It panics
// unless the samples are square matrices.
func RelabelNodes(ds *Dataset, rng *rand.Rand) {
	if len(ds.Shape) != 2 || ds.Shape[0] != ds.Shape[1] {
		panic(fmt.Sprintf("data: RelabelNodes: samples of shape %v are not adjacency matrices", ds.Shape))
	}
	n := ds.Shape[0]
	tmp := make([]float64, n*n)
	for s := range ds.Len() {
		row := ds.X.RawRowView(s)
		to := NodePermutation(rng.Perm(n))
		for j, v := range row {
			tmp[to[j]] = v
		}
		copy(row, tmp)
	}
}
