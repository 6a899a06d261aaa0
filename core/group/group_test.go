package group

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

func randVec(rng *rand.Rand, d int) []float64 {
	x := make([]float64, d)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

func maxAbsDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// findElement returns the index of an element g of a with g·x == y exactly, or -1.
func findElement(a Action, x, y []float64) int {
	tmp := make([]float64, a.Dim())
	for k := range a.Len() {
		a.Apply(tmp, x, k)
		if slices.Equal(tmp, y) {
			return k
		}
	}
	return -1
}

// checkIdentityFirst asserts that element 0 acts as the identity.
func checkIdentityFirst(t *testing.T, a Action, rng *rand.Rand) {
	t.Helper()
	x := randVec(rng, a.Dim())
	y := make([]float64, a.Dim())
	a.Apply(y, x, 0)
	if !slices.Equal(x, y) {
		t.Errorf("%s: element 0 is not the identity", a.Name())
	}
}

// checkInverseExact asserts g^{-1}(g x) == x and g(g^{-1} x) == x bit for bit for every
// element (exact: these actions only move entries).
func checkInverseExact(t *testing.T, a Action, rng *rand.Rand) {
	t.Helper()
	x := randVec(rng, a.Dim())
	y := make([]float64, a.Dim())
	z := make([]float64, a.Dim())
	for k := range a.Len() {
		a.Apply(y, x, k)
		a.ApplyInverse(z, y, k)
		if !slices.Equal(x, z) {
			t.Fatalf("%s: element %d: inverse(apply(x)) != x", a.Name(), k)
		}
		a.ApplyInverse(y, x, k)
		a.Apply(z, y, k)
		if !slices.Equal(x, z) {
			t.Fatalf("%s: element %d: apply(inverse(x)) != x", a.Name(), k)
		}
	}
}

// checkClosure asserts that g_i∘g_j and g_i^{-1} lie in the set for random pairs: x has
// distinct entries, so g·x identifies g.
func checkClosure(t *testing.T, a Action, rng *rand.Rand, pairs int) {
	t.Helper()
	x := randVec(rng, a.Dim())
	y := make([]float64, a.Dim())
	z := make([]float64, a.Dim())
	for range pairs {
		i, j := rng.IntN(a.Len()), rng.IntN(a.Len())
		a.Apply(y, x, j)
		a.Apply(z, y, i)
		if findElement(a, x, z) < 0 {
			t.Fatalf("%s: g_%d∘g_%d is not in the set", a.Name(), i, j)
		}
		a.ApplyInverse(y, x, i)
		if findElement(a, x, y) < 0 {
			t.Fatalf("%s: g_%d^-1 is not in the set", a.Name(), i)
		}
	}
}

// checkDistinct asserts that no two elements act alike on a generic vector.
func checkDistinct(t *testing.T, a Action, rng *rand.Rand) {
	t.Helper()
	x := randVec(rng, a.Dim())
	seen := map[string]int{}
	y := make([]float64, a.Dim())
	for k := range a.Len() {
		a.Apply(y, x, k)
		key := fmt.Sprint(y)
		if j, ok := seen[key]; ok {
			t.Fatalf("%s: elements %d and %d are equal", a.Name(), j, k)
		}
		seen[key] = k
	}
}

func mustPanic(t *testing.T, name, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", name)
			return
		}
		if msg := fmt.Sprint(r); !strings.HasPrefix(msg, "group: ") || !strings.Contains(msg, want) {
			t.Errorf("%s: panic %q, want prefix \"group: \" and %q", name, msg, want)
		}
	}()
	f()
}

func TestPermutationsFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for L := 1; L <= 5; L++ {
		g := Permutations(L, 3, nil, 0)
		fact := 1
		for i := 2; i <= L; i++ {
			fact *= i
		}
		if g.Len() != fact || g.Dim() != 3*L || !g.Full() {
			t.Fatalf("S_%d: Len=%d Dim=%d Full=%v, want %d, %d, true", L, g.Len(), g.Dim(), g.Full(), fact, 3*L)
		}
		checkIdentityFirst(t, g, rng)
		checkDistinct(t, g, rng)
		checkInverseExact(t, g, rng)
		checkClosure(t, g, rng, 50)
	}
	if got := Permutations(5, 8, nil, 120).Len(); got != 120 {
		t.Errorf("k = L! gave %d elements, want the full 120", got)
	}
	if name := Permutations(5, 8, nil, 0).Name(); name != "S5 on 5x8 blocks" {
		t.Errorf("Name = %q", name)
	}
}

func TestPermutationsSemantics(t *testing.T) {
	// (g·x)[block l] = x[block σ(l)], checked on σ = the last permutation of S_3 in
	// lexicographic order, (2, 1, 0), which reverses the blocks.
	g := Permutations(3, 2, nil, 0)
	last := g.Len() - 1
	if s := g.Perm(last); !slices.Equal(s, []int{2, 1, 0}) {
		t.Fatalf("last permutation %v, want [2 1 0]", s)
	}
	x := []float64{1, 2, 3, 4, 5, 6}
	y := make([]float64, 6)
	g.Apply(y, x, last)
	if want := []float64{5, 6, 3, 4, 1, 2}; !slices.Equal(y, want) {
		t.Errorf("apply %v, want %v", y, want)
	}
	// σ = (1, 2, 0): (g x) = blocks (x1, x2, x0); inverse puts block l of x at σ(l).
	k := -1
	for i := range g.Len() {
		if slices.Equal(g.Perm(i), []int{1, 2, 0}) {
			k = i
		}
	}
	g.Apply(y, x, k)
	if want := []float64{3, 4, 5, 6, 1, 2}; !slices.Equal(y, want) {
		t.Errorf("apply σ=(1,2,0): %v, want %v", y, want)
	}
	g.ApplyInverse(y, x, k)
	if want := []float64{5, 6, 1, 2, 3, 4}; !slices.Equal(y, want) {
		t.Errorf("inverse σ=(1,2,0): %v, want %v", y, want)
	}
}

func TestPermutationsSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := Permutations(6, 4, rand.New(rand.NewPCG(7, 7)), 50)
	if g.Len() != 50 || g.Full() {
		t.Fatalf("Len=%d Full=%v, want 50 false", g.Len(), g.Full())
	}
	checkIdentityFirst(t, g, rng)
	checkDistinct(t, g, rng)
	checkInverseExact(t, g, rng)
	h := Permutations(6, 4, rand.New(rand.NewPCG(7, 7)), 50)
	for i := range g.Len() {
		if !slices.Equal(g.Perm(i), h.Perm(i)) {
			t.Fatalf("same seed, different permutation %d", i)
		}
	}
	if !strings.HasPrefix(g.Name(), "50 of S6") {
		t.Errorf("Name = %q", g.Name())
	}
}

func TestCyclicShifts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := AllCyclicShifts(4, 5)
	if g.Len() != 20 || g.Dim() != 20 {
		t.Fatalf("Len=%d Dim=%d, want 20 20", g.Len(), g.Dim())
	}
	checkIdentityFirst(t, g, rng)
	checkDistinct(t, g, rng)
	checkInverseExact(t, g, rng)
	checkClosure(t, g, rng, 100)

	// Definition (g·x)[y, c] = x[(y-dy) mod h, (c-dx) mod w] for each element.
	h, w := 4, 5
	x := randVec(rng, h*w)
	y := make([]float64, h*w)
	for k := range g.Len() {
		dy, dx := g.Shift(k)
		g.Apply(y, x, k)
		for r := range h {
			for c := range w {
				if want := x[mod(r-dy, h)*w+mod(c-dx, w)]; y[r*w+c] != want {
					t.Fatalf("shift (%d,%d) at (%d,%d): %v, want %v", dy, dx, r, c, y[r*w+c], want)
				}
			}
		}
	}

	s := CyclicShifts(4, 5, [][2]int{{1, 1}, {-1, 7}, {4, 0}, {2, 2}})
	if dy, dx := s.Shift(0); dy != 0 || dx != 0 {
		t.Errorf("identity (4,0)≡(0,0) not moved first: (%d,%d)", dy, dx)
	}
	if dy, dx := s.Shift(2); dy != 3 || dx != 2 {
		t.Errorf("(-1,7) reduced to (%d,%d), want (3,2)", dy, dx)
	}
	checkInverseExact(t, s, rng)
	mustPanic(t, "duplicate", "equal", func() { CyclicShifts(4, 5, [][2]int{{1, 1}, {5, 6}}) })
}

func TestLocalShifts(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	h, w := 6, 7
	g := LocalShifts(h, w, 3)
	if g.Len() != 49 || g.Cyclic() {
		t.Fatalf("Len=%d Cyclic=%v, want 49 false", g.Len(), g.Cyclic())
	}
	if LocalShifts(28, 28, 3).Len() != 49 || LocalShifts(28, 28, 0).Len() != 1 {
		t.Error("LocalShifts sizes wrong")
	}
	checkIdentityFirst(t, g, rng)
	checkDistinct(t, g, rng)
	x := randVec(rng, h*w)
	y := make([]float64, h*w)
	z := make([]float64, h*w)
	for k := range g.Len() {
		dy, dx := g.Shift(k)
		g.Apply(y, x, k)
		g.ApplyInverse(z, y, k)
		for r := range h {
			for c := range w {
				sr, sc := r-dy, c-dx
				want := 0.0
				if sr >= 0 && sr < h && sc >= 0 && sc < w {
					want = x[sr*w+sc]
				}
				if y[r*w+c] != want {
					t.Fatalf("shift (%d,%d) at (%d,%d): %v, want %v", dy, dx, r, c, y[r*w+c], want)
				}
				// Inverse is exact on the pixels that stay inside under (dy, dx), zero elsewhere.
				want = 0
				if tr, tc := r+dy, c+dx; tr >= 0 && tr < h && tc >= 0 && tc < w {
					want = x[r*w+c]
				}
				if z[r*w+c] != want {
					t.Fatalf("inverse of shift (%d,%d) at (%d,%d): %v, want %v", dy, dx, r, c, z[r*w+c], want)
				}
			}
		}
	}
	// Shifts larger than the image give zero.
	gz := LocalShifts(2, 3, 3)
	for k := range gz.Len() {
		if dy, dx := gz.Shift(k); dy == 3 || dx == 3 || dx == -3 {
			gz.Apply(y[:6], x[:6], k)
			if slices.ContainsFunc(y[:6], func(v float64) bool { return v != 0 }) {
				t.Fatalf("shift (%d,%d) of a 2x3 image is not zero: %v", dy, dx, y[:6])
			}
		}
	}
}

func TestRotationsIdentityAnd90(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	n := 9
	g := Rotations(n, n, []float64{90, 0, 180, 270})
	mustPanic(t, "duplicate angle", "equal modulo 360", func() { Rotations(n, n, []float64{90, 0, -270}) })
	if deg := g.Degrees(); deg[0] != 0 || deg[1] != 90 {
		t.Fatalf("degrees %v, want 0 first then 90", deg)
	}
	x := randVec(rng, n*n)
	y := make([]float64, n*n)
	g.Apply(y, x, 0)
	if !slices.Equal(x, y) {
		t.Error("rotation by 0 is not the identity")
	}
	// Counter-clockwise by 90 degrees on a square image: out[r, c] = x[c, n-1-r]
	// (scipy.ndimage.rotate(x, 90, reshape=False, order=1) == np.rot90(x)).
	g.Apply(y, x, 1)
	for r := range n {
		for c := range n {
			if d := math.Abs(y[r*n+c] - x[c*n+n-1-r]); d > 1e-12 {
				t.Fatalf("rot90 at (%d,%d): %v, want %v", r, c, y[r*n+c], x[c*n+n-1-r])
			}
		}
	}
	// 180 twice and 90 four times are the identity; 90 and -90 are inverses: exact here.
	z := make([]float64, n*n)
	g.Apply(y, x, 2)
	g.Apply(z, y, 2)
	if maxAbsDiff(x, z) > 1e-12 {
		t.Error("rot180∘rot180 != identity")
	}
	g.Apply(y, x, 1)
	g.ApplyInverse(z, y, 1)
	if maxAbsDiff(x, z) > 1e-12 {
		t.Error("rot90 inverse is not exact on a square image")
	}
	Rotations(n, n, []float64{-90}).Apply(y, x, 0)
	g.Apply(z, x, 3) // 270
	if maxAbsDiff(y, z) > 1e-12 {
		t.Error("rotation by -90 != rotation by 270")
	}
}

// TestRotationsScipyGolden compares with values computed by scipy 1.10.1 / numpy 1.24.2:
//
//	h, w = 7, 9; r, c = np.mgrid[0:h, 0:w]; img = np.sin(0.7*r + 1.3*c) + 0.05*r*c
//	ndimage.rotate(img, a, reshape=False, order=1, mode="constant", cval=0.0)[i, j]
//
// A full comparison (all pixels, these angles and 20 MNIST test digits at 10 angles)
// agreed to 7e-15 when this package was written; the tolerance 1e-13 allows for the
// different sin/cos routines (scipy's sindg/cosdg versus math.Sincos).
func TestRotationsScipyGolden(t *testing.T) {
	h, w := 7, 9
	img := make([]float64, h*w)
	for r := range h {
		for c := range w {
			img[r*w+c] = math.Sin(0.7*float64(r)+1.3*float64(c)) + 0.05*float64(r*c)
		}
	}
	golden := []struct {
		angle float64
		r, c  int
		want  float64
	}{
		{30, 0, 0, 0}, {30, 1, 2, -0.7198403621843359}, {30, 3, 4, 1.4504366206285644},
		{30, 5, 7, 0}, {30, 2, 6, 0.36132901657739497},
		{137.5, 1, 2, 0.2044706595501145}, {137.5, 5, 7, 0.15192202750110037},
		{137.5, 2, 6, 1.65941455315235}, {137.5, 6, 8, 0},
		{-20, 1, 2, 0.1441522575592404}, {-20, 5, 7, 1.3614404021590498},
		{-20, 2, 6, 1.096653451903936}, {-20, 6, 8, 0},
	}
	g := Rotations(h, w, []float64{30, 137.5, -20})
	out := make([]float64, h*w)
	for _, gc := range golden {
		k := slices.Index(g.Degrees(), gc.angle)
		g.Apply(out, img, k)
		if got := out[gc.r*w+gc.c]; math.Abs(got-gc.want) > 1e-13 {
			t.Errorf("angle %v at (%d,%d): %v, scipy %v", gc.angle, gc.r, gc.c, got, gc.want)
		}
	}
}

func TestRotationsSmallAngleInverse(t *testing.T) {
	// A smooth bump well inside the image: rotating by θ and back changes it by the
	// bilinear smoothing error only (second-order, well below 0.05 here).
	n := 28
	x := bump(n, 13.5, 13.5, 1)
	g := Rotations(n, n, AngleRange(-20, 20, 9))
	y := make([]float64, n*n)
	z := make([]float64, n*n)
	for k := range g.Len() {
		g.Apply(y, x, k)
		g.ApplyInverse(z, y, k)
		if d := maxAbsDiff(x, z); d > 0.05 {
			t.Errorf("angle %v: round trip error %v", g.Degrees()[k], d)
		}
	}
}

func TestAngleRange(t *testing.T) {
	got := AngleRange(-20, 20, 9)
	want := []float64{-20, -15, -10, -5, 0, 5, 10, 15, 20}
	if !slices.Equal(got, want) {
		t.Errorf("AngleRange(-20,20,9) = %v", got)
	}
	if got := AngleRange(3, 7, 1); !slices.Equal(got, []float64{3}) {
		t.Errorf("AngleRange(3,7,1) = %v", got)
	}
	mustPanic(t, "count 0", "count", func() { AngleRange(0, 1, 0) })
}

func TestProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	p := Product(Rotations(28, 28, AngleRange(-20, 20, 9)), LocalShifts(28, 28, 3))
	if p.Len() != 441 || p.Dim() != 784 {
		t.Fatalf("Len=%d Dim=%d, want 441 784", p.Len(), p.Dim())
	}
	checkIdentityFirst(t, p, rng)
	a, b := p.Factors()
	x := randVec(rng, 784)
	y, tmp, want := make([]float64, 784), make([]float64, 784), make([]float64, 784)
	for _, k := range []int{0, 1, 48, 49, 200, 440} {
		i, j := p.Split(k)
		if i*49+j != k {
			t.Fatalf("Split(%d) = %d, %d", k, i, j)
		}
		p.Apply(y, x, k)
		b.Apply(tmp, x, j)
		a.Apply(want, tmp, i)
		if !slices.Equal(y, want) {
			t.Fatalf("element %d != a_%d∘b_%d", k, i, j)
		}
	}
	// Products of exact actions invert exactly. Column shifts of a 3x4 image commute
	// with permutations of its rows (the rows are the 3 blocks of 4), so their product
	// is the direct product Z_4 × S_3, a group of order 24.
	colShifts := CyclicShifts(3, 4, [][2]int{{0, 0}, {0, 1}, {0, 2}, {0, 3}})
	q := Product(colShifts, Permutations(3, 4, nil, 0))
	if q.Len() != 24 {
		t.Fatalf("Len=%d, want 24", q.Len())
	}
	checkIdentityFirst(t, q, rng)
	checkInverseExact(t, q, rng)
	checkDistinct(t, q, rng)
	checkClosure(t, q, rng, 100)
	mustPanic(t, "dims", "dimension", func() { Product(LocalShifts(3, 3, 1), LocalShifts(3, 4, 1)) })
}

func TestSampleAndSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	g := Product(Rotations(10, 10, AngleRange(-20, 20, 9)), LocalShifts(10, 10, 3))
	s := Sample(g, 30, rand.New(rand.NewPCG(1, 1))).(*SubsetSet)
	if s.Len() != 30 || s.Index(0) != 0 {
		t.Fatalf("Len=%d first=%d, want 30 and 0", s.Len(), s.Index(0))
	}
	for k := 1; k < s.Len(); k++ {
		if s.Index(k) <= s.Index(k-1) {
			t.Fatalf("indices not increasing and distinct at %d", k)
		}
	}
	checkIdentityFirst(t, s, rng)
	s2 := Sample(g, 30, rand.New(rand.NewPCG(1, 1))).(*SubsetSet)
	for k := range s.Len() {
		if s.Index(k) != s2.Index(k) {
			t.Fatal("same seed, different sample")
		}
	}
	if Sample(g, 441, nil) != Action(g) || Sample(g, 1000, nil) != Action(g) {
		t.Error("k >= Len should return the action itself")
	}
	sel := Select(AllCyclicShifts(3, 3), []int{4, 0})
	x := randVec(rng, 9)
	y, want := make([]float64, 9), make([]float64, 9)
	sel.Apply(y, x, 0)
	AllCyclicShifts(3, 3).Apply(want, x, 4)
	if !slices.Equal(y, want) {
		t.Error("Select element 0 is not parent element 4")
	}
	mustPanic(t, "k=0", "at least 1", func() { Sample(g, 0, rng) })
	mustPanic(t, "select range", "outside", func() { Select(g, []int{441}) })
}

func TestOrbitAndApplyRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	g := AllCyclicShifts(3, 3)
	x := randVec(rng, 9)
	o := Orbit(g, x)
	if r, c := o.Dims(); r != 9 || c != 9 {
		t.Fatalf("orbit %dx%d", r, c)
	}
	y := make([]float64, 9)
	for k := range 9 {
		g.Apply(y, x, k)
		if !slices.Equal(o.RawRowView(k), y) {
			t.Fatalf("orbit row %d", k)
		}
	}
	rows := ApplyRows(g, o, 4)
	for k := range 9 {
		g.Apply(y, o.RawRowView(k), 4)
		if !slices.Equal(rows.RawRowView(k), y) {
			t.Fatalf("ApplyRows row %d", k)
		}
	}
}

// xperm returns all A^L one-hot sequences of L symbols over an alphabet of A.
func xperm(L, A int) [][]float64 {
	n := 1
	for range L {
		n *= A
	}
	out := make([][]float64, n)
	for s := range n {
		x := make([]float64, L*A)
		v := s
		for l := range L {
			x[l*A+v%A] = 1
			v /= A
		}
		out[s] = x
	}
	return out
}

func TestCanonicalXPerm(t *testing.T) {
	if testing.Short() {
		t.Skip("32,768 sequences × 120 permutations: skipped in -short")
	}
	// All 8^5 = 32,768 sequences fall into C(8+5-1, 5) = 792 orbits under S_5
	// (multisets of 5 symbols from 8).
	seqs := xperm(5, 8)
	X := denseFromRows(seqs)
	g := Permutations(5, 8, nil, 0)
	reps, class, err := Canonical(context.Background(), g, X)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := reps.Dims(); r != 792 {
		t.Fatalf("%d orbits, want 792", r)
	}
	// Same class ⇔ same bag of symbols.
	bag := func(x []float64) [8]int {
		var b [8]int
		for l := range 5 {
			for a := range 8 {
				b[a] += int(x[l*8+a])
			}
		}
		return b
	}
	classOfBag := map[[8]int]int{}
	for i, x := range seqs {
		b := bag(x)
		if c, ok := classOfBag[b]; ok && c != class[i] {
			t.Fatalf("sequence %d: class %d, same bag had %d", i, class[i], c)
		}
		classOfBag[b] = class[i]
	}
	if len(classOfBag) != 792 {
		t.Fatalf("%d bags", len(classOfBag))
	}
	// The block-sorting shortcut of the full S_5 equals the generic search over all
	// 120 elements (Select hides the shortcut), on a random subset of rows.
	rng := rand.New(rand.NewPCG(30, 31))
	var sub [][]float64
	for range 500 {
		sub = append(sub, seqs[rng.IntN(len(seqs))])
	}
	all := make([]int, 120)
	for i := range all {
		all[i] = i
	}
	r1, c1, _ := Canonical(context.Background(), g, denseFromRows(sub))
	r2, c2, _ := Canonical(context.Background(), Select(g, all), denseFromRows(sub))
	if !slices.Equal(c1, c2) || !slices.Equal(r1.RawMatrix().Data, r2.RawMatrix().Data) {
		t.Error("block sorting and generic search disagree")
	}
}

func TestCanonicalTransformedRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 19))
	g := AllCyclicShifts(4, 4)
	base := make([][]float64, 5)
	for i := range base {
		base[i] = randVec(rng, 16)
	}
	// 20 rows: each base vector under 4 random shifts.
	var rows [][]float64
	for i := range 20 {
		y := make([]float64, 16)
		g.Apply(y, base[i%5], rng.IntN(16))
		rows = append(rows, y)
	}
	reps, class, err := Canonical(context.Background(), g, denseFromRows(rows))
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := reps.Dims(); r != 5 {
		t.Fatalf("%d classes, want 5", r)
	}
	for i := range 20 {
		if class[i] != class[i%5] {
			t.Fatalf("row %d in class %d, want %d", i, class[i], class[i%5])
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Canonical(ctx, g, denseFromRows(rows)); err != context.Canceled {
		t.Errorf("cancelled: err = %v", err)
	}
}

func TestShapePanics(t *testing.T) {
	actions := []Action{
		Permutations(3, 2, nil, 0), AllCyclicShifts(2, 3), LocalShifts(2, 3, 1),
		Rotations(2, 3, []float64{0, 10}), Product(AllCyclicShifts(2, 3), LocalShifts(2, 3, 1)),
		Select(AllCyclicShifts(2, 3), []int{0, 2}),
	}
	for _, a := range actions {
		d := a.Dim()
		x := make([]float64, d)
		mustPanic(t, a.Name()+" short dst", "want", func() { a.Apply(make([]float64, d-1), x, 0) })
		mustPanic(t, a.Name()+" long x", "want", func() { a.ApplyInverse(make([]float64, d), make([]float64, d+1), 0) })
		mustPanic(t, a.Name()+" index", "outside", func() { a.Apply(make([]float64, d), x, a.Len()) })
		mustPanic(t, a.Name()+" negative", "outside", func() { a.ApplyInverse(make([]float64, d), x, -1) })
		mustPanic(t, a.Name()+" alias", "alias", func() { a.Apply(x, x, 0) })
	}
	mustPanic(t, "L=0", "L >= 1", func() { Permutations(0, 2, nil, 0) })
	mustPanic(t, "S_10", "pass k", func() { Permutations(10, 2, nil, 0) })
	mustPanic(t, "nil rng", "rng", func() { Permutations(6, 2, nil, 5) })
	mustPanic(t, "h=0", "at least 1x1", func() { LocalShifts(0, 3, 1) })
	mustPanic(t, "k<0", "negative", func() { LocalShifts(3, 3, -1) })
	mustPanic(t, "NaN angle", "NaN", func() { Rotations(3, 3, []float64{math.NaN()}) })
	mustPanic(t, "ApplyRows", "columns", func() { ApplyRows(LocalShifts(3, 3, 1), denseFromRows([][]float64{{1, 2}}), 0) })
}

func TestProductConcurrent(t *testing.T) {
	// Run with -race: Apply on one ProductSet from several goroutines.
	p := Product(Rotations(8, 8, AngleRange(-10, 10, 3)), LocalShifts(8, 8, 1))
	rng := rand.New(rand.NewPCG(20, 21))
	x := randVec(rng, 64)
	want := Orbit(p, x)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			y := make([]float64, 64)
			for rep := range 20 {
				k := rep % p.Len()
				p.Apply(y, x, k)
				if !slices.Equal(y, want.RawRowView(k)) {
					t.Error("concurrent Apply differs")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestCheckGroup(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 23))
	groups := []Action{
		Permutations(4, 3, nil, 0), AllCyclicShifts(5, 6),
		Product(CyclicShifts(3, 4, [][2]int{{0, 0}, {0, 1}, {0, 2}, {0, 3}}), Permutations(3, 4, nil, 0)),
		CyclicShifts(4, 6, [][2]int{{0, 0}, {2, 0}, {0, 3}, {2, 3}}), // Z_2 × Z_2
	}
	for _, g := range groups {
		if err := CheckGroup(g, rng, 64); err != nil {
			t.Errorf("%s: %v", g.Name(), err)
		}
	}
	notGroups := []Action{
		LocalShifts(6, 6, 2),                                // zero fill loses pixels under composition
		Rotations(6, 6, []float64{0, 10, -10}),              // interpolation: inverses are not exact
		Permutations(5, 2, rand.New(rand.NewPCG(1, 1)), 10), // 10 of S_5
		CyclicShifts(4, 4, [][2]int{{0, 0}, {0, 1}}),        // the inverse (0,3) is missing
	}
	for _, g := range notGroups {
		if err := CheckGroup(g, rng, 64); err == nil {
			t.Errorf("%s: accepted as a group", g.Name())
		}
	}
}

// TestCheckPermutations checks that CheckPermutations refuses exactly the (L, k) on
// which Permutations panics for want of enumerating more than 9! elements, and that
// past 9! a sample of k < L! is allowed whatever k is (the bound is L!, not 10!).
func TestCheckPermutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		L, k int
		want string // "" means valid
	}{
		{1, 0, ""}, {5, 0, ""}, {5, 120, ""}, {5, 7, ""}, {9, 0, ""},
		{10, 0, "S_10 has 10! = 3.629e+06 elements, more than 362880 to enumerate"},
		{10, 3628800, "10! = 3.629e+06"},
		{12, -1, "12! = 4.79e+08"},
		{10, 50, ""}, {30, 50, ""},
	} {
		err := CheckPermutations(c.L, c.k)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("L %d, k %d: %v, want nil", c.L, c.k, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("L %d, k %d: %v, want an error containing %q", c.L, c.k, err, c.want)
		}
		panicked := func() (p bool) {
			defer func() { p = recover() != nil }()
			Permutations(c.L, 2, rng, c.k)
			return false
		}()
		if panicked != (err != nil) {
			t.Errorf("L %d, k %d: Permutations panicked %v, CheckPermutations error %v", c.L, c.k, panicked, err)
		}
	}
	// 11! = 39916800 > k = 10!: a sample is asked for, not the full group (the bound
	// used to stop at 10!, which refused it). Not built here: 3.6 million draws.
	if err := CheckPermutations(11, 3628800); err != nil {
		t.Errorf("L 11, k 10!: %v, want nil (a sample)", err)
	}
	if err := CheckPermutations(200, 0); err == nil || !strings.Contains(err.Error(), "+Inf") {
		t.Errorf("L 200: %v, want 200! = +Inf elements", err)
	}
}

// bump returns an n×n image of the smooth bump exp(-((r-r0)² + wc·(c-c0)²)/30), row-major:
// well inside the image, interpolated warps of it differ from the exact ones by the
// bilinear smoothing error only; wc != 1 makes it anisotropic.
func bump(n int, r0, c0, wc float64) []float64 {
	x := make([]float64, n*n)
	for r := range n {
		for c := range n {
			dr, dc := float64(r)-r0, float64(c)-c0
			x[r*n+c] = math.Exp(-(dr*dr + wc*dc*dc) / 30)
		}
	}
	return x
}
