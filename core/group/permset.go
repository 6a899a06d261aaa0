package group

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
)

// PermSet is a set of permutations of the d coordinates of a vector, given by image
// tables: element i maps coordinate j to coordinate σ_i(j),
//
//	(g_i·x)[σ_i(j)] = x[j],   i.e.   g_i·x = x[σ_i^{-1}]   (one gather),
//
// and its inverse maps σ_i(j) back to j: (g_i^{-1}·x)[j] = x[σ_i(j)]. Products follow
// the same rule: g_a·(g_b·x) moves j to σ_a(σ_b(j)). (For a group the set of the σ_i
// equals the set of their inverses, so it does not matter whether a file lists
// "where each coordinate goes" or "where each coordinate comes from".)
//
// A PermSet knows whether it is closed under composition: it computes the order of
// the group its elements generate with the Schreier–Sims algorithm ([Chain]) and
// compares it with its size. Build one with [NewPermSet] (explicit rows),
// [Chain.Enumerate] or [Chain.Sample] (a generated group), [Dihedral], [Mirror] or
// [Reversal]. The identity is element 0.
type PermSet struct {
	d      int
	fwd    []perm // σ_i
	gather []perm // σ_i^{-1}: g_i·x = x[gather[i]]
	name   string
	order  *big.Int // |<σ_0, ..., σ_{n-1}>|
}

// MaxPermRows bounds the rows [NewPermSet] accepts (the size of an explicit set).
const MaxPermRows = 1 << 20

// NewPermSet validates rows as a set of permutations of 0..d-1 (d = len(rows[0])) and
// returns it with the identity first: moved to the front if present, added if not.
// It returns a one-line error naming the first bad row and what is wrong with it (its
// length, an entry outside 0..d-1, a repeated entry), or two equal rows. name labels
// the set (e.g. the file it came from). Closure is computed with Schreier–Sims
// ([PermSet.Closed]); ctx is checked while it runs.
func NewPermSet(ctx context.Context, rows [][]int, name string) (*PermSet, error) {
	if len(rows) == 0 {
		return nil, errors.New("no permutations: give at least one row")
	}
	if len(rows) > MaxPermRows {
		return nil, fmt.Errorf("%d rows, more than %d: give generators instead", len(rows), MaxPermRows)
	}
	d := len(rows[0])
	if d == 0 {
		return nil, errors.New("row 0 is empty: each row lists the images of coordinates 0..d-1")
	}
	perms := make([]perm, 0, len(rows)+1)
	seen := make(map[string]int, len(rows))
	id := -1
	for i, r := range rows {
		if err := CheckPerm(r, d); err != nil {
			return nil, fmt.Errorf("row %d %w", i, err)
		}
		p := fromInts(r)
		k := p.key()
		if j, dup := seen[k]; dup {
			return nil, fmt.Errorf("rows %d and %d are the same permutation: list each element once", j, i)
		}
		seen[k] = i
		if id < 0 && p.isIdentity() {
			id = i
		}
		perms = append(perms, p)
	}
	switch {
	case id < 0:
		perms = append([]perm{identityPerm(d)}, perms...)
	case id > 0:
		p := perms[id]
		copy(perms[1:id+1], perms[:id])
		perms[0] = p
	}
	c := &Chain{d: d}
	for _, p := range perms {
		if err := c.add(ctx, p); err != nil {
			return nil, err
		}
	}
	return newPermSet(d, perms, name, c.Order()), nil
}

func newPermSet(d int, perms []perm, name string, order *big.Int) *PermSet {
	s := &PermSet{d: d, fwd: perms, gather: make([]perm, len(perms)), name: name, order: order}
	for i, p := range perms {
		s.gather[i] = p.inverse()
	}
	return s
}

func (p perm) key() string {
	b := make([]byte, 4*len(p))
	for i, v := range p {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return string(b)
}

// Enumerate returns every element of the group as a [PermSet] (closed, identity first)
// if |G| <= limit, or an error giving |G|.
func (c *Chain) Enumerate(ctx context.Context, limit int, name string) (*PermSet, error) {
	perms, err := c.elements(ctx, limit)
	if err != nil {
		return nil, err
	}
	return newPermSet(c.d, perms, name, c.Order()), nil
}

// Sample returns k distinct elements of the group drawn uniformly ([Chain.Random]),
// the identity first, as a [PermSet]; if k >= |G| it returns the whole group (which
// must then have at most k elements, so it is listed). Draws repeat until k distinct
// elements are found: when k is more than half of |G| the group is listed and a
// uniform subset taken instead. It panics if k < 1 or rng is nil.
func (c *Chain) Sample(ctx context.Context, k int, rng *rand.Rand, name string) (*PermSet, error) {
	if k < 1 || rng == nil {
		panic(fmt.Sprintf("group: Chain.Sample: k=%d must be >= 1 with a non-nil rng", k))
	}
	order := c.Order()
	if order.Cmp(big.NewInt(int64(2*k))) <= 0 {
		all, err := c.Enumerate(ctx, 2*k, name)
		if err != nil || k >= all.Len() {
			return all, err
		}
		// The identity, then k-1 of the others uniformly (partial Fisher–Yates).
		rest := all.fwd[1:]
		for i := 0; i < k-1; i++ {
			j := i + rng.IntN(len(rest)-i)
			rest[i], rest[j] = rest[j], rest[i]
		}
		return newPermSet(c.d, append([]perm{all.fwd[0]}, rest[:k-1]...), name, order), nil
	}
	id := identityPerm(c.d)
	perms := []perm{id}
	seen := map[string]bool{id.key(): true}
	for draws := 0; len(perms) < k; draws++ {
		if draws&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		p := c.random(rng)
		if key := p.key(); !seen[key] {
			seen[key] = true
			perms = append(perms, p)
		}
	}
	return newPermSet(c.d, perms, name, order), nil
}

// Name returns the name given at construction, e.g. "dihedral on 28x28" or "G.npy".
func (s *PermSet) Name() string { return s.name }

// Len returns the number of permutations.
func (s *PermSet) Len() int { return len(s.fwd) }

// Dim returns d.
func (s *PermSet) Dim() int { return s.d }

// Order returns the order of the group the elements generate (|G| when [PermSet.Closed]).
func (s *PermSet) Order() *big.Int { return new(big.Int).Set(s.order) }

// Closed reports whether the set is closed under composition (hence a group: a finite
// set of permutations closed under composition holds every inverse too), that is,
// whether the group it generates has exactly Len() elements.
func (s *PermSet) Closed() bool { return s.order.IsInt64() && s.order.Int64() == int64(len(s.fwd)) }

// Describe says what the set is, for people: "a group of 8 elements" or "a set of 50
// permutations, not closed under composition (they generate a group of 120)".
func (s *PermSet) Describe() string {
	if s.Closed() {
		return fmt.Sprintf("a group of %d elements", len(s.fwd))
	}
	return fmt.Sprintf("a set of %d permutations, not closed under composition (they generate a group of %s)", len(s.fwd), FormatOrder(s.order))
}

// Perm returns σ_i as an image table (a copy).
func (s *PermSet) Perm(i int) []int { return toInts(s.fwd[i]) }

// Apply writes g_i·x = x[σ_i^{-1}] into dst.
func (s *PermSet) Apply(dst, x []float64, i int) {
	checkApply("PermSet.Apply", s.d, len(s.fwd), dst, x, i)
	for k, j := range s.gather[i] {
		dst[k] = x[j]
	}
}

// ApplyInverse writes g_i^{-1}·x = x[σ_i] into dst.
func (s *PermSet) ApplyInverse(dst, x []float64, i int) {
	checkApply("PermSet.ApplyInverse", s.d, len(s.fwd), dst, x, i)
	for k, j := range s.fwd[i] {
		dst[k] = x[j]
	}
}
