package group

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
)

// maxFullPerm bounds L! for the full symmetric group: S_9 has 362,880 elements.
const maxFullPerm = 362880

// BlockPerm is a set of permutations of L blocks of A entries each, acting on vectors of
// length d = L·A (a sequence of L one-hot symbols over an alphabet of A). Element g_i,
// given by the permutation σ_i of {0..L-1}, moves block σ_i(l) of x to block l:
//
//	(g_i·x)[l·A + a] = x[σ_i(l)·A + a],    l < L, a < A.
//
// The inverse writes block l of x to block σ_i(l). Build one with [Permutations].
type BlockPerm struct {
	l, a  int
	perms [][]int // σ_i, perms[0] is the identity
	full  bool
}

// Permutations returns the block permutations of L blocks of size A (see [BlockPerm]).
//
// If k <= 0 or k >= L!, the set is the full symmetric group S_L, enumerated in
// lexicographic order of σ (so the identity comes first). Otherwise it is a seeded
// sample of k distinct permutations drawn uniformly from S_L, the identity first and
// the others in the order drawn; rng is used only in that case.
//
// Permutations panics if L < 1 or A < 1, if the full group has more than 362,880
// elements (L > 9: pass k to sample instead; see [CheckPermutations]), or if a sample is
// asked for with a nil rng.
func Permutations(L, A int, rng *rand.Rand, k int) *BlockPerm {
	if L < 1 || A < 1 {
		panic(fmt.Sprintf("group: Permutations(L=%d, A=%d): need L >= 1 and A >= 1", L, A))
	}
	if err := CheckPermutations(L, k); err != nil {
		panic("group: Permutations: " + err.Error() + ": pass k > 0 (below L!) to sample")
	}
	if wantsFull(L, k) {
		return &BlockPerm{l: L, a: A, perms: allPerms(L), full: true}
	}
	if rng == nil {
		panic("group: Permutations: sampling k < L! permutations needs a non-nil rng")
	}
	id := make([]int, L)
	for i := range id {
		id[i] = i
	}
	perms := [][]int{id}
	seen := map[string]bool{permKey(id): true}
	for len(perms) < k {
		p := rng.Perm(L)
		if key := permKey(p); !seen[key] {
			seen[key] = true
			perms = append(perms, p)
		}
	}
	return &BlockPerm{l: L, a: A, perms: perms}
}

// CheckPermutations reports whether [Permutations](L, A, rng, k) can build its set: it
// returns nil, or, when k asks for the full group (k <= 0 or k >= L!) and L! is above
// 362,880 (L > 9), the one-line error
//
//	S_L has L! = N elements, more than 362880 to enumerate
//
// Permutations panics on exactly this input (besides L < 1, A < 1 and a sample without
// rng), so a caller holding user input (a spec) calls CheckPermutations first and
// reports the error instead.
func CheckPermutations(L, k int) error {
	if n := factorial(L); wantsFull(L, k) && n > maxFullPerm {
		return fmt.Errorf("S_%d has %d! = %.4g elements, more than %d to enumerate", L, L, n, maxFullPerm)
	}
	return nil
}

// wantsFull reports whether k asks [Permutations] for the full group S_L.
func wantsFull(L, k int) bool { return k <= 0 || float64(k) >= factorial(L) }

// factorial returns L! in float64 (exact up to 18!, rounded above, +Inf past 170!).
func factorial(L int) float64 {
	f := 1.0
	for i := 2; i <= min(L, 171); i++ { // 171! overflows to +Inf
		f *= float64(i)
	}
	return f
}

func permKey(p []int) string {
	b := make([]byte, len(p))
	for i, v := range p {
		b[i] = byte(v)
	}
	return string(b)
}

// allPerms lists all permutations of 0..L-1 in lexicographic order.
func allPerms(L int) [][]int {
	p := make([]int, L)
	for i := range p {
		p[i] = i
	}
	var out [][]int
	for {
		out = append(out, slices.Clone(p))
		// next lexicographic permutation
		i := L - 2
		for i >= 0 && p[i] >= p[i+1] {
			i--
		}
		if i < 0 {
			return out
		}
		j := L - 1
		for p[j] <= p[i] {
			j--
		}
		p[i], p[j] = p[j], p[i]
		slices.Reverse(p[i+1:])
	}
}

// Name returns e.g. "S5 on 5x8 blocks" or "20 of S5 on 5x8 blocks".
func (g *BlockPerm) Name() string {
	if g.full {
		return fmt.Sprintf("S%d on %dx%d blocks", g.l, g.l, g.a)
	}
	return fmt.Sprintf("%d of S%d on %dx%d blocks", len(g.perms), g.l, g.l, g.a)
}

// Len returns the number of permutations.
func (g *BlockPerm) Len() int { return len(g.perms) }

// Dim returns L·A.
func (g *BlockPerm) Dim() int { return g.l * g.a }

// Full reports whether the set is the whole symmetric group S_L (closed under
// composition and inverses).
func (g *BlockPerm) Full() bool { return g.full }

// Perm returns a copy of σ_i.
func (g *BlockPerm) Perm(i int) []int { return slices.Clone(g.perms[i]) }

// Apply writes g_i·x into dst (see [BlockPerm]).
func (g *BlockPerm) Apply(dst, x []float64, i int) {
	checkApply("BlockPerm.Apply", g.Dim(), len(g.perms), dst, x, i)
	a := g.a
	for l, s := range g.perms[i] {
		copy(dst[l*a:(l+1)*a], x[s*a:(s+1)*a])
	}
}

// ApplyInverse writes g_i^{-1}·x into dst: block l of x goes to block σ_i(l).
func (g *BlockPerm) ApplyInverse(dst, x []float64, i int) {
	checkApply("BlockPerm.ApplyInverse", g.Dim(), len(g.perms), dst, x, i)
	a := g.a
	for l, s := range g.perms[i] {
		copy(dst[s*a:(s+1)*a], x[l*a:(l+1)*a])
	}
}

// canonicalInto writes the lexicographically smallest element of the orbit of x into
// dst when the set is the full group S_L: the blocks of x sorted in increasing
// lexicographic order, O(L log L · A) instead of L!·d. It reports false (and writes
// nothing) for a sampled subset.
func (g *BlockPerm) canonicalInto(dst, x []float64) bool {
	if !g.full {
		return false
	}
	a := g.a
	order := make([]int, g.l)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		return lexLess(x[order[i]*a:(order[i]+1)*a], x[order[j]*a:(order[j]+1)*a])
	})
	for l, s := range order {
		copy(dst[l*a:(l+1)*a], x[s*a:(s+1)*a])
	}
	return true
}
