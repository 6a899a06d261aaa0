package data

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// DrawMode selects how Draw picks samples.
type DrawMode int

const (
	// Plain draws uniformly without replacement from the pool.
	Plain DrawMode = iota
	// Stratified keeps the pool's class proportions: class c gets n*N_c/N samples,
	// rounded down, and the leftover goes one each to the classes with the largest
	// remainders (ties to the lower class index) — Hamilton's largest-remainder method.
	Stratified
	// Balanced draws n/k samples of each of the k classes; when k does not divide n the
	// n mod k extra samples go to classes chosen at random (X_perm's balanced training
	// draws: half +1, half -1).
	Balanced
	// Disjoint is the split of Chapelle and Schoelkopf's USPS experiment: the pool is
	// permuted once (seeded) and cut into consecutive blocks of n, repeat r training on
	// block r, so the repeats' training sets do not overlap (eval.Protocol.Draw does the
	// cutting). Draw itself treats a single Disjoint draw as Plain.
	Disjoint
)

// DisjointBlock returns block rep (0-based) of size n of a permutation of pool drawn
// with rng: pool[perm[rep·n : (rep+1)·n]], the training set of repeat rep under
// Disjoint. It returns an error when the pool holds fewer than (rep+1)·n samples.
func DisjointBlock(rng *rand.Rand, pool []int, n, rep int) ([]int, error) {
	if (rep+1)*n > len(pool) {
		return nil, fmt.Errorf("disjoint training sets: repeat %d of %d samples needs %d pool samples, the pool has %d: lower repeats or the training size", rep+1, n, (rep+1)*n, len(pool))
	}
	perm := rng.Perm(len(pool))
	out := make([]int, n)
	for i := range out {
		out[i] = pool[perm[rep*n+i]]
	}
	return out, nil
}

// String returns "plain", "stratified", "balanced" or "disjoint".
func (m DrawMode) String() string {
	switch m {
	case Plain:
		return "plain"
	case Stratified:
		return "stratified"
	case Balanced:
		return "balanced"
	case Disjoint:
		return "disjoint"
	}
	return fmt.Sprintf("DrawMode(%d)", int(m))
}

// DrawOptions configures Draw. The zero value is a plain draw from all of y.
type DrawOptions struct {
	Mode DrawMode
	// Pool lists the indices of y to draw from (for example the complement of a test
	// set, see Exclude); nil means all of 0..len(y)-1. It must not repeat an index.
	Pool []int
	// Classes is the number of classes k; 0 means max(y)+1.
	Classes int
	// What names n in error messages, e.g. "training size"; "" means "draw size".
	What string
}

// drawPool is the common start of Draw and DrawUnits: it panics if n < 0, and returns a
// copy of opts.Pool (all of 0..size-1 when nil), the name of the drawn quantity for
// messages, and an error naming the fix when n exceeds the pool.
func drawPool(n, size int, opts DrawOptions) (pool []int, what string, err error) {
	if n < 0 {
		panic(fmt.Sprintf("data: draw of %d samples", n))
	}
	what = opts.What
	if what == "" {
		what = "draw size"
	}
	if opts.Pool == nil {
		pool = make([]int, size)
		for i := range pool {
			pool[i] = i
		}
	} else {
		pool = slices.Clone(opts.Pool)
	}
	if n > len(pool) {
		return nil, what, fmt.Errorf("%s %d is larger than the pool of %d: lower it or add data", what, n, len(pool))
	}
	return pool, what, nil
}

// Draw returns n distinct indices into y drawn from opts.Pool with rng, in random
// order, following opts.Mode (Plain, Stratified or Balanced). It returns an error when
// n exceeds the pool or, for a balanced draw, a class has too few samples; the message
// names the numbers and the fix. It panics if n < 0, a pool index is outside y, or a
// label is outside [0, k). Cost: O(|pool|) time and memory.
func Draw(rng *rand.Rand, y []int, n int, opts DrawOptions) ([]int, error) {
	pool, what, err := drawPool(n, len(y), opts)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return []int{}, nil
	}
	if opts.Mode == Plain || opts.Mode == Disjoint {
		return partialShuffle(rng, pool, n), nil
	}
	k := opts.Classes
	if k == 0 {
		for _, i := range pool {
			k = max(k, y[i]+1)
		}
	}
	byClass := make([][]int, k)
	for _, i := range pool {
		c := y[i]
		if c < 0 || c >= k {
			panic(fmt.Sprintf("data: label %d of sample %d is outside [0,%d)", c, i, k))
		}
		byClass[c] = append(byClass[c], i)
	}
	quota := make([]int, k)
	switch opts.Mode {
	case Stratified:
		N := len(pool)
		rem := make([]int, k)
		left := n
		for c, s := range byClass {
			quota[c] = n * len(s) / N
			rem[c] = n * len(s) % N
			left -= quota[c]
		}
		order := make([]int, k)
		for c := range order {
			order[c] = c
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rem[b], rem[a]) })
		for _, c := range order[:left] {
			quota[c]++
		}
	case Balanced:
		for c := range quota {
			quota[c] = n / k
		}
		for _, c := range rng.Perm(k)[:n%k] {
			quota[c]++
		}
		for c, s := range byClass {
			if quota[c] > len(s) {
				return nil, fmt.Errorf("class %d has %d samples in the pool but a balanced %s of %d needs %d: lower it or use a stratified draw", c, len(s), what, n, quota[c])
			}
		}
	default:
		panic(fmt.Sprintf("data: unknown draw mode %d", int(opts.Mode)))
	}
	out := make([]int, 0, n)
	for c, s := range byClass {
		out = append(out, partialShuffle(rng, s, quota[c])...)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// partialShuffle moves a uniform random n-subset of s (in random order) to its front
// with the first n steps of a Fisher-Yates shuffle and returns that prefix.
func partialShuffle(rng *rand.Rand, s []int, n int) []int {
	for i := range n {
		j := i + rng.IntN(len(s)-i)
		s[i], s[j] = s[j], s[i]
	}
	return s[:n:n]
}

// Split returns a random partition of 0..n-1 into a test part of round(testFrac*n)
// indices and a training part of the rest, both in random order. It panics if n < 0 or
// testFrac is outside [0, 1].
func Split(rng *rand.Rand, n int, testFrac float64) (train, test []int) {
	if n < 0 || !(testFrac >= 0 && testFrac <= 1) {
		panic(fmt.Sprintf("data: Split(%d, %v)", n, testFrac))
	}
	p := rng.Perm(n)
	nt := int(math.Round(testFrac * float64(n)))
	return p[nt:], p[:nt:nt]
}

// Exclude returns the elements of pool that are not in idx, in pool's order (a new
// slice). Cost O(len(pool) + len(idx)).
func Exclude(pool, idx []int) []int {
	drop := make(map[int]struct{}, len(idx))
	for _, i := range idx {
		drop[i] = struct{}{}
	}
	out := make([]int, 0, max(len(pool)-len(idx), 0))
	for _, i := range pool {
		if _, ok := drop[i]; !ok {
			out = append(out, i)
		}
	}
	return out
}

// ClassCounts returns the number of labels of each class 0..k-1 in y. It panics if a
// label is outside [0, k).
func ClassCounts(y []int, k int) []int {
	counts := make([]int, k)
	for i, c := range y {
		if c < 0 || c >= k {
			panic(fmt.Sprintf("data: label %d of sample %d is outside [0,%d)", c, i, k))
		}
		counts[c]++
	}
	return counts
}

// Normalize returns a copy of d whose rows are scaled to unit Euclidean norm,
//
//	x_i <- x_i / ||x_i||_2,
//
// the input space of the I-theory features (Mroueh et al.: inputs on the unit sphere).
// Zero rows stay zero. d is not modified; Y, Classes and Shape are copied.
func (d *Dataset) Normalize() *Dataset {
	n, dim := d.X.Dims()
	x := mat.NewDense(n, dim, nil)
	x.Copy(d.X)
	for i := range n {
		row := x.RawRowView(i)
		if nrm := floats.Norm(row, 2); nrm > 0 {
			floats.Scale(1/nrm, row)
		}
	}
	return &Dataset{
		Name:    d.Name,
		X:       x,
		Y:       slices.Clone(d.Y),
		Classes: slices.Clone(d.Classes),
		Shape:   slices.Clone(d.Shape),
		Units:   slices.Clone(d.Units),
	}
}
