package data

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGraphs checks every sample: a symmetric 0/1 matrix with a zero diagonal and exactly
// nodes·degree/2 edges; random regular graphs have every degree equal; classes balanced.
func TestGraphs(t *testing.T) {
	const nodes, degree = 12, 4
	ds := Graphs(40, nodes, degree, rand.New(rand.NewPCG(1, 2)))
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Shape, []int{nodes, nodes}) || len(ds.Classes) != 4 {
		t.Fatalf("shape %v, classes %v", ds.Shape, ds.Classes)
	}
	count := make([]int, 4)
	maxDeg := make([]int, 4)
	for s := range ds.Len() {
		a := ds.X.RawRowView(s)
		edges := 0
		degs := make([]int, nodes)
		for i := range nodes {
			if a[i*nodes+i] != 0 {
				t.Fatalf("sample %d: a loop at node %d", s, i)
			}
			for j := range nodes {
				v := a[i*nodes+j]
				if v != a[j*nodes+i] || (v != 0 && v != 1) {
					t.Fatalf("sample %d: entry (%d, %d) = %g, not symmetric 0/1", s, i, j, v)
				}
				if v == 1 {
					degs[i]++
					if i < j {
						edges++
					}
				}
			}
		}
		if edges != nodes*degree/2 {
			t.Errorf("sample %d (%s): %d edges, want %d", s, ds.Classes[ds.Y[s]], edges, nodes*degree/2)
		}
		c := ds.Y[s]
		count[c]++
		maxDeg[c] = max(maxDeg[c], slices.Max(degs))
		if c == 1 && slices.Min(degs) != degree {
			t.Errorf("random regular sample %d: degrees %v", s, degs)
		}
	}
	if !slices.Equal(count, []int{10, 10, 10, 10}) {
		t.Errorf("class counts %v", count)
	}
	if maxDeg[3] <= degree {
		t.Errorf("Barabási–Albert graphs have no hub (max degree %d)", maxDeg[3])
	}
	// Relabelled graphs keep their edge counts and degree multisets.
	rl := Graphs(8, nodes, degree, rand.New(rand.NewPCG(1, 2)))
	RelabelNodes(rl, rand.New(rand.NewPCG(3, 4)))
	for s := range 8 {
		a, b := ds.X.RawRowView(s), rl.X.RawRowView(s)
		da, db := make([]int, nodes), make([]int, nodes)
		for i := range nodes * nodes {
			da[i/nodes] += int(a[i])
			db[i/nodes] += int(b[i])
		}
		slices.Sort(da)
		slices.Sort(db)
		if !slices.Equal(da, db) || slices.Equal(a, b) {
			t.Errorf("sample %d: relabelling changed the degrees %v -> %v (or nothing)", s, da, db)
		}
	}
	// P A Pᵀ: relabelling by p moves edge (i, j) to (p[i], p[j]).
	p := []int{2, 0, 1}
	if got := NodePermutation(p); !slices.Equal(got, []int{8, 6, 7, 2, 0, 1, 5, 3, 4}) {
		t.Errorf("NodePermutation(%v) = %v", p, got)
	}
}
