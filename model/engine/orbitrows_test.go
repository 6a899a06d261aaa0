package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/group"
	"gitui/core/kernel"
)

// orbitFeatures reads each sample's features from its orbit's row of one shared factor
// L (no per-sample copy), and those rows reproduce the orbit kernel: <f(x_i), f(x_j)> =
// K(x_i, x_j) within 1e-9 relative, on 600 X_perm sequences under S_5.
func TestOrbitFeaturesShareRows(t *testing.T) {
	ds, _ := data.XPerm(rand.New(rand.NewPCG(1, 2)))
	const np, nt = 500, 100
	X := mat.DenseCopyOf(ds.X.Slice(0, np+nt, 0, ds.Dim()))
	G := group.Permutations(5, 8, nil, 0)
	tab, err := kernel.NewOrbitTable(context.Background(), kernel.RBF{Gamma: 0.05}, G, X)
	if err != nil {
		t.Fatal(err)
	}
	pool, test, err := orbitFeatures(tab, np, nt)
	if err != nil {
		t.Fatal(err)
	}
	if pool.l != test.l {
		t.Fatal("pool and test rows hold separate factors")
	}
	if r, _ := pool.Dims(); r != np {
		t.Fatalf("pool rows %d, want %d", r, np)
	}
	if r, _ := test.Dims(); r != nt {
		t.Fatalf("test rows %d, want %d", r, nt)
	}
	if u, _ := pool.l.Dims(); u != tab.NumOrbits() {
		t.Fatalf("factor of %d rows, want one per orbit (%d)", u, tab.NumOrbits())
	}
	_, c := pool.Dims()
	a, b := make([]float64, c), make([]float64, c)
	K := tab.Gram([]int{0, 7, 499, 500, 599}, []int{3, 250, 520})
	for ia, i := range []int{0, 7, 499, 500, 599} {
		for ib, j := range []int{3, 250, 520} {
			rowOf(pool, test, np, i, a)
			rowOf(pool, test, np, j, b)
			dot := 0.0
			for k := range a {
				dot += a[k] * b[k]
			}
			if want := K.At(ia, ib); abs(dot-want) > 1e-9*max(1, abs(want)) {
				t.Errorf("<f(x_%d), f(x_%d)> = %.12g, K = %.12g", i, j, dot, want)
			}
		}
	}
	// A span from an offset reads the same entries.
	full, part := make([]float64, c), make([]float64, c-1)
	pool.Span(full, 7, 0)
	pool.Span(part, 7, 1)
	for k := range part {
		if part[k] != full[k+1] {
			t.Fatalf("Span from 1: entry %d is %g, want %g", k, part[k], full[k+1])
		}
	}
}

func rowOf(pool, test orbitRows, np, i int, dst []float64) {
	if i < np {
		pool.Span(dst, i, 0)
	} else {
		test.Span(dst, i-np, 0)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
