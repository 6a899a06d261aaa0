package group

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// rot90Gens returns, written out independently of the package, the quarter turn
// (r, c) -> (n-1-c, r) and the left-right mirror (r, c) -> (r, n-1-c) of n×n images as
// image tables (where each pixel goes).
func rot90Gens(n int) (rot, mirror []int) {
	rot, mirror = make([]int, n*n), make([]int, n*n)
	for r := range n {
		for c := range n {
			rot[r*n+c] = (n-1-c)*n + r
			mirror[r*n+c] = r*n + n - 1 - c
		}
	}
	return rot, mirror
}

// orbitKeys returns the sorted orbit {g·x} of x as strings, for comparing sets.
func orbitKeys(a Action, x []float64) []string {
	y := make([]float64, a.Dim())
	var keys []string
	for i := range a.Len() {
		a.Apply(y, x, i)
		keys = append(keys, fmt.Sprint(y))
	}
	sort.Strings(keys)
	return keys
}

func permKeys(s *PermSet) []string {
	var k []string
	for i := range s.Len() {
		k = append(k, fmt.Sprint(s.Perm(i)))
	}
	sort.Strings(k)
	return k
}

func TestGeneratedDihedralEqualsBuiltIn(t *testing.T) {
	ctx := context.Background()
	rot, mirror := rot90Gens(28)
	c, err := NewChain(ctx, 28*28, [][]int{rot, mirror})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Order(); got.Cmp(big.NewInt(8)) != 0 {
		t.Fatalf("order %s, want 8", got)
	}
	gen, err := c.Enumerate(ctx, 100, "generated")
	if err != nil {
		t.Fatal(err)
	}
	builtin := Dihedral(28)
	if gen.Len() != 8 || builtin.Len() != 8 || !gen.Closed() || !builtin.Closed() {
		t.Fatalf("generated %d (closed %v), built-in %d (closed %v), want 8 closed each", gen.Len(), gen.Closed(), builtin.Len(), builtin.Closed())
	}
	if !slices.Equal(permKeys(gen), permKeys(builtin)) {
		t.Fatal("the generated dihedral group differs from the built-in one")
	}
	if got := builtin.Describe(); got != "a group of 8 elements" {
		t.Errorf("Describe = %q", got)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, a := range []Action{gen, builtin} {
		checkIdentityFirst(t, a, rng)
		checkInverseExact(t, a, rng)
		checkClosure(t, a, rng, 64)
		checkDistinct(t, a, rng)
	}
	// Element 1 of the built-in group is numpy.rot90: out[i, j] = img[j, n-1-i].
	x := randVec(rng, 28*28)
	y := make([]float64, 28*28)
	builtin.Apply(y, x, 1)
	for i := range 28 {
		for j := range 28 {
			if y[i*28+j] != x[j*28+27-i] {
				t.Fatalf("element 1 is not numpy.rot90 at (%d, %d)", i, j)
			}
		}
	}
}

func TestMirrorAndReversal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, a := range []*PermSet{Mirror(4, 5, true), Mirror(4, 5, false), Reversal(6, 3)} {
		if a.Len() != 2 || !a.Closed() {
			t.Errorf("%s: %d elements, closed %v", a.Name(), a.Len(), a.Closed())
		}
		checkIdentityFirst(t, a, rng)
		checkInverseExact(t, a, rng)
		checkClosure(t, a, rng, 16)
	}
	x := []float64{0, 1, 2, 3, 4, 5}
	y := make([]float64, 6)
	Mirror(2, 3, true).Apply(y, x, 1)
	if !slices.Equal(y, []float64{2, 1, 0, 5, 4, 3}) {
		t.Errorf("left-right mirror of [[0 1 2] [3 4 5]] = %v", y)
	}
	Mirror(2, 3, false).Apply(y, x, 1)
	if !slices.Equal(y, []float64{3, 4, 5, 0, 1, 2}) {
		t.Errorf("up-down mirror = %v", y)
	}
	Reversal(3, 2).Apply(y, x, 1)
	if !slices.Equal(y, []float64{4, 5, 2, 3, 0, 1}) {
		t.Errorf("reversal of 3 blocks of 2 = %v", y)
	}
}

func TestNewPermSetSemantics(t *testing.T) {
	ctx := context.Background()
	// Row [1 2 0]: coordinate 0 goes to 1, 1 to 2, 2 to 0.
	s, err := NewPermSet(ctx, [][]int{{1, 2, 0}}, "c3")
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 || !slices.Equal(s.Perm(0), []int{0, 1, 2}) {
		t.Fatalf("identity not added first: %d elements, element 0 = %v", s.Len(), s.Perm(0))
	}
	y := make([]float64, 3)
	s.Apply(y, []float64{10, 11, 12}, 1)
	if !slices.Equal(y, []float64{12, 10, 11}) {
		t.Errorf("Apply = %v, want [12 10 11] (x[j] moved to coordinate row[j])", y)
	}
	if s.Closed() || !strings.Contains(s.Describe(), "a set of 2 permutations, not closed under composition") {
		t.Errorf("{e, (0 1 2)} described as %q (closed %v)", s.Describe(), s.Closed())
	}
	// The identity given third is moved to the front; C3 is closed.
	s, err = NewPermSet(ctx, [][]int{{1, 2, 0}, {2, 0, 1}, {0, 1, 2}}, "c3")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Perm(0), []int{0, 1, 2}) || !slices.Equal(s.Perm(1), []int{1, 2, 0}) || !s.Closed() {
		t.Errorf("order %v %v, closed %v", s.Perm(0), s.Perm(1), s.Closed())
	}
}

func TestNewPermSetErrors(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		rows [][]int
		want string
	}{
		{nil, "no permutations"},
		{[][]int{{}}, "row 0 is empty"},
		{[][]int{{0, 1, 2}, {0, 1}}, "row 1 has 2 entries, want 3"},
		{[][]int{{0, 1, 2}, {0, 3, 1}}, "row 1 entry 1 is 3, outside 0..2"},
		{[][]int{{0, 1, 2}, {2, 1, -1}}, "row 1 entry 2 is -1, outside 0..2"},
		{[][]int{{1, 1, 0}}, "row 0 repeats 1 at entries 0 and 1"},
		{[][]int{{1, 0, 2}, {0, 1, 2}, {1, 0, 2}}, "rows 0 and 2 are the same permutation"},
	} {
		_, err := NewPermSet(ctx, tc.rows, "x")
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: err = %v, want one line containing %q", tc.rows, err, tc.want)
		}
	}
	if _, err := NewChain(ctx, 3, [][]int{{0, 1, 2}, {0, 0, 1}}); err == nil || !strings.Contains(err.Error(), "generator 1 repeats 0 at entries 0 and 1") {
		t.Errorf("bad generator: %v", err)
	}
}

// TestNonClosedSet: 50 random permutations of 8 points are a set, and their closure is
// S_8 or A_8.
func TestNonClosedSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var rows [][]int
	seen := map[string]bool{}
	for len(rows) < 50 {
		p := rng.Perm(8)
		if k := fmt.Sprint(p); !seen[k] && !slices.Equal(p, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
			seen[k] = true
			rows = append(rows, p)
		}
	}
	s, err := NewPermSet(context.Background(), rows, "random")
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 51 || s.Closed() {
		t.Fatalf("%d elements, closed %v", s.Len(), s.Closed())
	}
	if !strings.HasPrefix(s.Describe(), "a set of 51 permutations, not closed under composition") {
		t.Errorf("Describe = %q", s.Describe())
	}
	if err := CheckGroup(s, rng, 200); err == nil {
		t.Error("CheckGroup accepts a random set of 51 permutations")
	}
}

// blockGens returns two random permutations of d points that each preserve a random
// partition of the points into blocks of 1..5 (so they generate a subgroup of a Young
// subgroup, at most 5!·5!·2 = 28,800 elements for d = 12).
func blockGens(rng *rand.Rand, d int) [][]int {
	pts := rng.Perm(d)
	var blocks [][]int
	for len(pts) > 0 {
		k := min(len(pts), 1+rng.IntN(5))
		blocks = append(blocks, pts[:k])
		pts = pts[k:]
	}
	gens := make([][]int, 2)
	for g := range gens {
		p := make([]int, d)
		for _, b := range blocks {
			for i, j := range rng.Perm(len(b)) {
				p[b[i]] = b[j]
			}
		}
		gens[g] = p
	}
	return gens
}

func TestRandomPermGroups(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 12))
		gens := blockGens(rng, 12)
		c, err := NewChain(ctx, 12, gens)
		if err != nil {
			t.Fatal(err)
		}
		g, err := c.Enumerate(ctx, 30000, "random")
		if err != nil {
			t.Fatal(err)
		}
		if !g.Closed() || int64(g.Len()) != c.Order().Int64() {
			t.Fatalf("seed %d: %d elements, order %s, closed %v", seed, g.Len(), c.Order(), g.Closed())
		}
		checkIdentityFirst(t, g, rng)
		checkInverseExact(t, g, rng)
		checkDistinct(t, g, rng)
		if err := CheckGroup(g, rng, 2000); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		// Invariance of the orbit: {h·(g·x)} = {h·x} for every g.
		x := randVec(rng, 12)
		want := orbitKeys(g, x)
		gx := make([]float64, 12)
		for range 5 {
			g.Apply(gx, x, rng.IntN(g.Len()))
			if !slices.Equal(orbitKeys(g, gx), want) {
				t.Fatalf("seed %d: the orbit of g·x differs from the orbit of x", seed)
			}
		}
		// The explicit rows give the same closed group.
		rows := make([][]int, g.Len())
		for i := range rows {
			rows[len(rows)-1-i] = g.Perm(i)
		}
		s, err := NewPermSet(ctx, rows, "rows")
		if err != nil || !s.Closed() || s.Len() != g.Len() {
			t.Fatalf("seed %d: rows of the group: %v, closed %v", seed, err, s != nil && s.Closed())
		}
		// Every element is a member, and a permutation moving points across blocks is not.
		for i := range g.Len() {
			if !c.Contains(g.Perm(i)) {
				t.Fatalf("seed %d: element %d is not a member", seed, i)
			}
		}
	}
}

// randomGenSet returns a seeded generator set of degree d of one of three kinds (two
// random permutations; two block-preserving ones; an imprimitive pair), conjugated by a
// random relabelling.
func randomGenSet(rng *rand.Rand, d int, kind int) [][]int {
	var gens [][]int
	switch kind {
	case 0:
		gens = [][]int{rng.Perm(d), rng.Perm(d)}
	case 1:
		gens = blockGens(rng, d)
	default: // permute blocks of size b and rotate inside one block: a wreath-like group
		b := 2 + rng.IntN(3)
		m := d / b
		p := make([]int, d)
		blk := rng.Perm(m)
		for i := range d {
			if i < m*b {
				p[i] = blk[i/b]*b + i%b
			} else {
				p[i] = i
			}
		}
		q := make([]int, d)
		for i := range d {
			q[i] = i
		}
		for i := range b {
			q[i] = (i + 1) % b
		}
		gens = [][]int{p, q}
	}
	relabel := rng.Perm(d)
	for gi, g := range gens {
		c := make([]int, d)
		for i, v := range g {
			c[relabel[i]] = relabel[v]
		}
		gens[gi] = c
	}
	return gens
}

// TestOrdersAgainstSympy compares Schreier–Sims orders with
// sympy.combinatorics.PermutationGroup(...).order() on 20 seeded generator sets of
// degree 8 to 64 (exact integers). It skips when python3 with sympy is not installed
// (Debian: apt-get install python3-sympy).
func TestOrdersAgainstSympy(t *testing.T) {
	if err := exec.Command("python3", "-c", "import sympy.combinatorics").Run(); err != nil {
		t.Skip("python3 with sympy is not installed (apt-get install python3-sympy): the Schreier–Sims orders are not compared with sympy")
	}
	ctx := context.Background()
	var sets [][][]int
	var ours []string
	start := time.Now()
	for i := range 20 {
		rng := rand.New(rand.NewPCG(uint64(i), 2021))
		d := 8 + i*56/19
		gens := randomGenSet(rng, d, i%3)
		c, err := NewChain(ctx, d, gens)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, gens)
		ours = append(ours, c.Order().String())
	}
	goTime := time.Since(start)
	in, _ := json.Marshal(sets)
	script := `import json, sys
from sympy.combinatorics import Permutation, PermutationGroup
for gens in json.load(sys.stdin):
    print(PermutationGroup([Permutation(g) for g in gens]).order())`
	cmd := exec.Command("python3", "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sympy: %v", err)
	}
	theirs := strings.Fields(string(out))
	if len(theirs) != len(ours) {
		t.Fatalf("sympy printed %d orders, want %d", len(theirs), len(ours))
	}
	for i := range ours {
		if ours[i] != theirs[i] {
			t.Errorf("set %d (degree %d): Schreier–Sims order %s, sympy %s", i, len(sets[i][0]), ours[i], theirs[i])
		}
	}
	t.Logf("Schreier–Sims on the 20 sets: %v; orders: %v", goTime, ours)
}

// TestSampleUniformS5: 120,000 draws from S_5 given by (0 1) and (0 1 2 3 4) hit each of
// the 120 elements about 1000 times: Pearson's chi-square statistic (119 degrees of
// freedom) must stay below its 0.999 quantile, about 173.
func TestSampleUniformS5(t *testing.T) {
	c, err := NewChain(context.Background(), 5, [][]int{{1, 0, 2, 3, 4}, {1, 2, 3, 4, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Order().Int64() != 120 {
		t.Fatalf("order %s, want 120", c.Order())
	}
	rng := rand.New(rand.NewPCG(7, 8))
	counts := map[string]int{}
	const draws = 120000
	for range draws {
		counts[fmt.Sprint(c.Random(rng))]++
	}
	if len(counts) != 120 {
		t.Fatalf("%d distinct elements drawn, want 120", len(counts))
	}
	chi := 0.0
	for _, n := range counts {
		chi += math.Pow(float64(n)-1000, 2) / 1000
	}
	limit := distuv.ChiSquared{K: 119}.Quantile(0.999)
	t.Logf("chi-square %.1f with 119 degrees of freedom, limit %.1f (p = 0.001)", chi, limit)
	if chi > limit {
		t.Errorf("chi-square %.1f above %.1f: the draws are not uniform", chi, limit)
	}
	// A biased sampler (one level left at its base point) fails the same test.
	biased := map[string]int{}
	for range draws {
		g := c.random(rng)
		if rng.IntN(2) == 0 {
			g = identityPerm(5)
		}
		biased[fmt.Sprint(g)]++
	}
	chiB := 0.0
	for _, n := range biased {
		chiB += math.Pow(float64(n)-1000, 2) / 1000
	}
	if chiB <= limit {
		t.Errorf("the test does not detect a sampler that returns the identity half the time (chi-square %.1f)", chiB)
	}
}

func TestChainSampleAndLarge(t *testing.T) {
	ctx := context.Background()
	// S_40 from a transposition and a 40-cycle: 40! elements, sampled uniformly.
	d := 40
	tr, cyc := make([]int, d), make([]int, d)
	for i := range d {
		tr[i], cyc[i] = i, (i+1)%d
	}
	tr[0], tr[1] = 1, 0
	c, err := NewChain(ctx, d, [][]int{tr, cyc})
	if err != nil {
		t.Fatal(err)
	}
	fact := new(big.Int).MulRange(1, 40)
	if c.Order().Cmp(fact) != 0 {
		t.Fatalf("order %s, want 40!", c.Order())
	}
	if got := FormatOrder(fact); got != "8.2e47" {
		t.Errorf("FormatOrder(40!) = %q", got)
	}
	if got := FormatOrder(big.NewInt(3628800)); got != "3.6e6" {
		t.Errorf("FormatOrder(10!) = %q", got)
	}
	if _, err := c.Elements(ctx, 1000); err == nil || !strings.Contains(err.Error(), "8.2e47 elements") {
		t.Errorf("Elements of S_40: %v", err)
	}
	s, err := c.Sample(ctx, 100, rand.New(rand.NewPCG(1, 1)), "S40")
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 100 || s.Closed() || !slices.Equal(s.Perm(0), identityPerm(d).ints()) {
		t.Fatalf("sample: %d elements, closed %v", s.Len(), s.Closed())
	}
	checkDistinct(t, s, rand.New(rand.NewPCG(2, 2)))
	// A sample larger than half a small group lists it: all of C_6 from 6 draws.
	c6, _ := NewChain(ctx, 6, [][]int{{1, 2, 3, 4, 5, 0}})
	all, err := c6.Sample(ctx, 10, rand.New(rand.NewPCG(3, 3)), "C6")
	if err != nil || all.Len() != 6 || !all.Closed() {
		t.Fatalf("C6 sample of 10: %v, %d elements", err, all.Len())
	}
	four, _ := c6.Sample(ctx, 4, rand.New(rand.NewPCG(3, 3)), "C6")
	if four.Len() != 4 || four.Closed() {
		t.Errorf("C6 sample of 4: %d elements, closed %v", four.Len(), four.Closed())
	}
}

func (p perm) ints() []int { return toInts(p) }
