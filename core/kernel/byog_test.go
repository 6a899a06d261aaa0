package kernel

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// TestHaarGeneratedDihedral: the Haar kernel over the dihedral group generated from a
// quarter turn and a mirror (12×12 images) is invariant, K(gx, z) = K(x, z) = K(x, gz)
// within 1e-12, and a set that is not closed is refused.
func TestHaarGeneratedDihedral(t *testing.T) {
	const n = 12
	rot, mirror := make([]int, n*n), make([]int, n*n)
	for r := range n {
		for c := range n {
			rot[r*n+c] = (n-1-c)*n + r
			mirror[r*n+c] = r*n + n - 1 - c
		}
	}
	ctx := context.Background()
	ch, err := group.NewChain(ctx, n*n, [][]int{rot, mirror})
	if err != nil {
		t.Fatal(err)
	}
	G, err := ch.Enumerate(ctx, 100, "generated dihedral")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	X := randDense(rng, 30, n*n)
	GX := mat.NewDense(30, n*n, nil)
	for i := range 30 {
		G.Apply(GX.RawRowView(i), X.RawRowView(i), 1+rng.IntN(7))
	}
	for _, k := range []Base{RBF{Gamma: 0.01}, Poly{Gamma: 0.01, Degree: 2}} {
		K, err := HaarSymGram(ctx, k, G, X)
		if err != nil {
			t.Fatal(err)
		}
		left, err := HaarGram(ctx, k, G, GX, X)
		if err != nil {
			t.Fatal(err)
		}
		right, _ := HaarGram(ctx, k, G, X, GX)
		if e := relErr(left, K); e > 1e-12 {
			t.Errorf("%s: K(gx, z) != K(x, z): %g", k.Name(), e)
		}
		if e := relErr(right, K); e > 1e-12 {
			t.Errorf("%s: K(x, gz) != K(x, z): %g", k.Name(), e)
		}
		// Not invariant under a transformation outside the group (the check can fail).
		T := mat.NewDense(30, n*n, nil)
		for i := range 30 {
			row := T.RawRowView(i)
			copy(row, X.RawRowView(i))
			row[0], row[1] = row[1], row[0]
		}
		if other, _ := HaarGram(ctx, k, G, T, X); relErr(other, K) < 1e-6 {
			t.Errorf("%s: invariant under a pixel swap outside the group", k.Name())
		}
	}
	// A set that is not closed: {e, quarter turn} as explicit rows.
	set, err := group.NewPermSet(ctx, [][]int{rot}, "two rows")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := HaarSymGram(ctx, RBF{Gamma: 0.01}, set, X); err == nil || !strings.Contains(err.Error(), "a set of 2 permutations, not closed under composition") {
		t.Errorf("Haar over a non-closed set: %v", err)
	}
}
