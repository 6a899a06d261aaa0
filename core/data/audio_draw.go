package data

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// DrawUnits returns n distinct sample indices made of whole sampling units: units[i] is
// the unit of sample i (a (speaker, rendering) pair and its ten digits, say). The units
// found in opts.Pool (nil: all samples) are visited in a random order (rng) and a unit is
// taken whole when it fits in what is left of n; the result is in random order. With
// units of equal size u it takes n/u random units. It returns an error naming the fix
// when n exceeds the pool or cannot be made of whole units (n not a multiple of the unit
// size). opts.Mode and opts.Classes are not used: a unit that holds every class once
// gives class-balanced draws by construction. It panics if n < 0 or len(units) is
// smaller than a pool index.
func DrawUnits(rng *rand.Rand, units []int, n int, opts DrawOptions) ([]int, error) {
	pool, what, err := drawPool(n, len(units), opts)
	if err != nil {
		return nil, err
	}
	members := map[int][]int{}
	var order []int
	for _, i := range pool {
		u := units[i]
		if _, ok := members[u]; !ok {
			order = append(order, u)
		}
		members[u] = append(members[u], i)
	}
	slices.Sort(order) // a map-free order, so that the draw depends on rng only
	rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	out := make([]int, 0, n)
	for _, u := range order {
		if len(out) == n {
			break
		}
		if m := members[u]; len(out)+len(m) <= n {
			out = append(out, m...)
		}
	}
	if len(out) != n {
		size := len(members[order[0]])
		return nil, fmt.Errorf("%s %d cannot be made of whole sampling units (a unit is a speaker's rendering of the %d digits): use a multiple of %d", what, n, size, size)
	}
	rng.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	return out, nil
}
