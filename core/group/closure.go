package group

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// CheckGroup tests, on one random vector, whether the set a behaves as a finite group:
// element 0 is the identity, every inverse g_i^{-1} is in the set, and for pairs random
// pairs (i, j) the composition g_i∘g_j is in the set,
//
//	g_0·x = x,   g_i^{-1}·x in {g·x},   g_i·(g_j·x) in {g·x},
//
// comparing vectors bit for bit (so only exact actions such as permutations and cyclic
// shifts can pass; rotations with interpolation never do). x has independent Gaussian
// entries drawn from rng, so with probability one distinct elements move it to distinct
// vectors. It returns nil or a one-line error naming the first failure. Cost: |G| + pairs
// + 1 applications plus hashing of |G| vectors of length d. CheckGroup panics if rng is nil.
//
// A [PermSet] or [LinearSet] knows whether it is closed (computed when it was built):
// one that is not fails at once, naming what it is; a closed [LinearSet] passes (its
// products are equal only within [OrthoTol], never bit for bit).
func CheckGroup(a Action, rng *rand.Rand, pairs int) error {
	if rng == nil {
		panic("group: CheckGroup: nil rng")
	}
	if c, ok := a.(interface {
		Closed() bool
		Describe() string
	}); ok {
		if !c.Closed() {
			// Sets from files and generators know their closure exactly (Schreier–Sims for
			// permutations, every pair for matrices): a random pair may miss a failure.
			return fmt.Errorf("%s is not a group: it is %s", a.Name(), c.Describe())
		}
		if _, linear := a.(*LinearSet); linear {
			return nil // closed within OrthoTol; bit-for-bit orbits do not apply to rounded products
		}
	}
	d, n := a.Dim(), a.Len()
	x := make([]float64, d)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	key := make([]byte, 8*d)
	keyOf := func(v []float64) string {
		for j, f := range v {
			b := math.Float64bits(f + 0) // -0 → +0
			for k := range 8 {
				key[8*j+k] = byte(b >> (8 * k))
			}
		}
		return string(key)
	}
	orbit := make(map[string]bool, n)
	y := make([]float64, d)
	z := make([]float64, d)
	for i := range n {
		a.Apply(y, x, i)
		orbit[keyOf(y)] = true
	}
	a.Apply(y, x, 0)
	if keyOf(y) != keyOf(x) {
		return fmt.Errorf("%s is not a group: element 0 is not the identity", a.Name())
	}
	for i := range n {
		a.ApplyInverse(y, x, i)
		if !orbit[keyOf(y)] {
			return fmt.Errorf("%s is not a group: the inverse of element %d is not in the set", a.Name(), i)
		}
	}
	for range pairs {
		i, j := rng.IntN(n), rng.IntN(n)
		a.Apply(y, x, j)
		a.Apply(z, y, i)
		if !orbit[keyOf(z)] {
			return fmt.Errorf("%s is not a group: element %d composed with element %d is not in the set", a.Name(), i, j)
		}
	}
	return nil
}
