package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gitui/core/group"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// xpermDraw returns n random one-hot sequences of L symbols over an alphabet of A
// (X_perm-shaped: block l holds a one-hot vector of symbol s_l), and their symbols.
func xpermDraw(rng *rand.Rand, n, L, A int) (*mat.Dense, [][]int) {
	X := mat.NewDense(n, L*A, nil)
	syms := make([][]int, n)
	for i := range n {
		syms[i] = make([]int, L)
		for l := range L {
			s := rng.IntN(A)
			syms[i][l] = s
			X.Set(i, l*A+s, 1)
		}
	}
	return X, syms
}

// haarDirectDense runs the general path without orbit canonicalisation.
func haarDirectDense(t *testing.T, k0 Base, G group.Action, X, Z *mat.Dense) *mat.Dense {
	t.Helper()
	n, _ := X.Dims()
	m, _ := Z.Dims()
	out := mat.NewDense(n, m, nil)
	if err := haarDirect(context.Background(), k0, G, X, Z, false, out.RawMatrix()); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestHaarFastMatchesDefinition(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 5))
	s5 := group.Permutations(5, 8, nil, 0)
	X, _ := xpermDraw(rng, 10, 5, 8)
	Z, _ := xpermDraw(rng, 7, 5, 8)
	cyc := group.AllCyclicShifts(4, 5)
	XI, ZI := randDense(rng, 9, 20), randDense(rng, 6, 20)
	for _, k := range []Base{Linear{}, RBF{Gamma: 0.3}, Poly{Gamma: 0.5, Degree: 3}} {
		for _, c := range []struct {
			G    group.Action
			X, Z *mat.Dense
		}{{s5, X, Z}, {cyc, XI, ZI}} {
			exact, err := HaarGramExact(ctx, k, c.G, c.X, c.Z)
			if err != nil {
				t.Fatal(err)
			}
			fast, err := HaarGram(ctx, k, c.G, c.X, c.Z)
			if err != nil {
				t.Fatal(err)
			}
			// Same sums in a different order (|G|² vs |G| terms): rounding only.
			if e := relErr(fast, exact); e > 1e-12 {
				t.Errorf("%s on %s: fast vs definition %g", k.Name(), c.G.Name(), e)
			}
			if e := relErr(haarDirectDense(t, k, c.G, c.X, c.Z), exact); e > 1e-12 {
				t.Errorf("%s on %s: direct path vs definition %g", k.Name(), c.G.Name(), e)
			}
		}
	}
}

func TestHaarLinearIsBagOfWords(t *testing.T) {
	// FINDINGS: with a linear base, mean over S_5 of <x, g z> = <bow x, bow z>/5 for
	// one-hot blocks (bow = symbol counts). Integer counts over 5: exact to rounding.
	rng := rand.New(rand.NewPCG(6, 6))
	X, sx := xpermDraw(rng, 60, 5, 8)
	Z, sz := xpermDraw(rng, 45, 5, 8)
	K, err := HaarGram(context.Background(), Linear{}, group.Permutations(5, 8, nil, 0), X, Z)
	if err != nil {
		t.Fatal(err)
	}
	bow := func(s []int) (b [8]float64) {
		for _, v := range s {
			b[v]++
		}
		return b
	}
	for i := range 60 {
		bi := bow(sx[i])
		for j := range 45 {
			bj := bow(sz[j])
			want := 0.0
			for a := range 8 {
				want += bi[a] * bj[a]
			}
			want /= 5
			if d := math.Abs(K.At(i, j) - want); d > 1e-12 {
				t.Fatalf("K(%d,%d) = %v, <bow,bow>/5 = %v", i, j, K.At(i, j), want)
			}
		}
	}
}

func TestHaarCanonicalMatchesDirect(t *testing.T) {
	// A 3-symbol alphabet gives many repeated orbits (C(7,5) = 21 multisets), so the
	// lookup path is exercised; it must equal the direct path to rounding.
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	G := group.Permutations(5, 3, nil, 0)
	X, _ := xpermDraw(rng, 80, 5, 3)
	Z, _ := xpermDraw(rng, 50, 5, 3)
	k := RBF{Gamma: 0.8}
	direct := haarDirectDense(t, k, G, X, Z)
	fast, err := HaarGram(ctx, k, G, X, Z)
	if err != nil {
		t.Fatal(err)
	}
	if e := relErr(fast, direct); e > 1e-12 {
		t.Errorf("canonical vs direct: %g", e)
	}
	sym, err := HaarSymGram(ctx, k, G, X)
	if err != nil {
		t.Fatal(err)
	}
	if e := relErr(sym, haarDirectDense(t, k, G, X, X)); e > 1e-12 {
		t.Errorf("HaarSymGram vs direct: %g", e)
	}
	same, err := HaarGram(ctx, k, G, X, X)
	if err != nil {
		t.Fatal(err)
	}
	if e := relErr(same, sym); e > 1e-12 {
		t.Errorf("HaarGram(X,X) vs HaarSymGram: %g", e)
	}
}

func TestHaarInvarianceSymmetryPSD(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(8, 8))
	cases := []struct {
		G group.Action
		X *mat.Dense
	}{
		{group.Permutations(5, 8, nil, 0), func() *mat.Dense { x, _ := xpermDraw(rng, 120, 5, 8); return x }()},
		{group.AllCyclicShifts(6, 6), randDense(rng, 80, 36)},
	}
	for _, c := range cases {
		n, d := c.X.Dims()
		// Each row moved by a random group element.
		GX := mat.NewDense(n, d, nil)
		for i := range n {
			c.G.Apply(GX.RawRowView(i), c.X.RawRowView(i), rng.IntN(c.G.Len()))
		}
		for _, k := range []Base{RBF{Gamma: 0.2}, Poly{Gamma: 0.1, Degree: 2}} {
			K, err := HaarSymGram(ctx, k, c.G, c.X)
			if err != nil {
				t.Fatal(err)
			}
			// Invariance K(g x, z) = K(x, z) and K(x, g z) = K(x, z): rounding only.
			left, _ := HaarGram(ctx, k, c.G, GX, c.X)
			right, _ := HaarGram(ctx, k, c.G, c.X, GX)
			if e := relErr(left, K); e > 1e-12 {
				t.Errorf("%s %s: K(gx, z) != K(x, z): %g", c.G.Name(), k.Name(), e)
			}
			if e := relErr(right, K); e > 1e-12 {
				t.Errorf("%s %s: K(x, gz) != K(x, z): %g", c.G.Name(), k.Name(), e)
			}
			// Symmetry of the general path (computed without mirroring).
			D := haarDirectDense(t, k, c.G, c.X, c.X)
			if e := relErr(D, D.T()); e > 1e-12 {
				t.Errorf("%s %s: direct path not symmetric: %g", c.G.Name(), k.Name(), e)
			}
			// Haar integration of a PD kernel is PSD: λ_min >= -1e-10·scale, scale = the
			// largest diagonal entry times n (a bound on λ_max).
			scale := 0.0
			for i := range n {
				scale = max(scale, K.At(i, i))
			}
			if lam := MinEigen(K); lam < -1e-10*scale*float64(n) {
				t.Errorf("%s %s: MinEigen %g", c.G.Name(), k.Name(), lam)
			}
		}
	}
}

func TestHaarRejectsNonGroups(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 9))
	X := randDense(rng, 5, 36)
	for _, G := range []group.Action{group.LocalShifts(6, 6, 1), group.Rotations(6, 6, group.AngleRange(-10, 10, 3))} {
		_, err := HaarGram(ctx, RBF{Gamma: 1}, G, X, X)
		if _, err := HaarSymGram(ctx, Poly{Gamma: 1, Degree: 2}, G, X); err == nil {
			t.Errorf("%s: HaarSymGram accepted a non-group", G.Name())
		}
		if err == nil || !strings.Contains(err.Error(), "HaarGramExact") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want a one-line error pointing to HaarGramExact", G.Name(), err)
		}
		if _, err := HaarGramExact(ctx, RBF{Gamma: 1}, G, X, X); err != nil {
			t.Errorf("%s: HaarGramExact: %v", G.Name(), err)
		}
	}
	mustPanic(t, "dims", "acts on 36", func() { _, _ = HaarGram(ctx, Linear{}, group.AllCyclicShifts(6, 6), randDense(rng, 2, 35), X) })
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := HaarGram(cctx, Linear{}, group.AllCyclicShifts(6, 6), X, X); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}

func TestHaarExactLinearNonGroup(t *testing.T) {
	// For a linear base the double mean factorises for any set:
	// K(x, z) = <mean_g g·x, mean_g g·z>. Checks HaarGramExact on local shifts.
	rng := rand.New(rand.NewPCG(10, 10))
	G := group.LocalShifts(5, 5, 1)
	X, Z := randDense(rng, 4, 25), randDense(rng, 3, 25)
	K, err := HaarGramExact(context.Background(), Linear{}, G, X, Z)
	if err != nil {
		t.Fatal(err)
	}
	mean := func(x []float64) []float64 {
		o := group.Orbit(G, x)
		m := make([]float64, 25)
		for i := range G.Len() {
			for j, v := range o.RawRowView(i) {
				m[j] += v / float64(G.Len())
			}
		}
		return m
	}
	// HaarGram takes this orbit-mean path for a linear base, also for non-groups.
	fast, err := HaarGram(context.Background(), Linear{}, G, X, Z)
	if err != nil {
		t.Fatal(err)
	}
	if e := relErr(fast, K); e > 1e-12 {
		t.Errorf("HaarGram linear on local shifts vs definition: %g", e)
	}
	sym, err := HaarSymGram(context.Background(), Linear{}, G, X)
	if err != nil {
		t.Fatal(err)
	}
	if e := relErr(sym, mustExact(t, Linear{}, G, X, X)); e > 1e-12 {
		t.Errorf("HaarSymGram linear on local shifts vs definition: %g", e)
	}
	for i := range 4 {
		for j := range 3 {
			want := blas64.Dot(blas64.Vector{N: 25, Inc: 1, Data: mean(X.RawRowView(i))}, blas64.Vector{N: 25, Inc: 1, Data: mean(Z.RawRowView(j))})
			if d := math.Abs(K.At(i, j) - want); d > 1e-12 {
				t.Errorf("(%d,%d): %v, want %v", i, j, K.At(i, j), want)
			}
		}
	}
}

func TestOrbitTableXPerm(t *testing.T) {
	if testing.Short() {
		t.Skip("the full X_perm pool (32,768 sequences, 792 orbits): skipped in -short")
	}
	ctx := context.Background()
	// The pool: all 8^5 sequences.
	L, A := 5, 8
	pool := mat.NewDense(32768, L*A, nil)
	for s := range 32768 {
		v := s
		for l := range L {
			pool.Set(s, l*A+v%A, 1)
			v /= A
		}
	}
	G := group.Permutations(L, A, nil, 0)
	k := RBF{Gamma: 0.25}
	tab, err := NewOrbitTable(ctx, k, G, pool)
	if err != nil {
		t.Fatal(err)
	}
	if tab.NumOrbits() != 792 || tab.Len() != 32768 {
		t.Fatalf("%d orbits of %d, want 792 of 32768", tab.NumOrbits(), tab.Len())
	}
	rng := rand.New(rand.NewPCG(11, 11))
	rows := make([]int, 40)
	cols := make([]int, 25)
	for i := range rows {
		rows[i] = rng.IntN(32768)
	}
	for i := range cols {
		cols[i] = rng.IntN(32768)
	}
	sub := func(idx []int) *mat.Dense {
		m := mat.NewDense(len(idx), L*A, nil)
		for a, i := range idx {
			m.SetRow(a, pool.RawRowView(i))
		}
		return m
	}
	want := haarDirectDense(t, k, G, sub(rows), sub(cols))
	if e := relErr(tab.Gram(rows, cols), want); e > 1e-12 {
		t.Errorf("table Gram vs direct: %g", e)
	}
	wantSym := haarDirectDense(t, k, G, sub(rows), sub(rows))
	if e := relErr(tab.SymGram(rows), wantSym); e > 1e-12 {
		t.Errorf("table SymGram vs direct: %g", e)
	}
	mustPanic(t, "index", "outside", func() { tab.Gram([]int{32768}, cols) })
}

func mustExact(t *testing.T, k Base, G group.Action, X, Z *mat.Dense) *mat.Dense {
	t.Helper()
	K, err := HaarGramExact(context.Background(), k, G, X, Z)
	if err != nil {
		t.Fatal(err)
	}
	return K
}
