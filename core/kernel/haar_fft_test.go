package kernel

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"gitui/core/group"
)

// colShifts returns the w cyclic column shifts of h×w images.
func colShifts(h, w int) *group.Shifts2D {
	s := make([][2]int, w)
	for dx := range w {
		s[dx] = [2]int{0, dx}
	}
	return group.CyclicShifts(h, w, s)
}

// TestCyclicGroupOf: the full cyclic groups take the FFT route with their mode and
// size; local (zero-fill) shifts, a subset or sample of the cyclic shifts, and
// permutations do not.
func TestCyclicGroupOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		G    group.Action
		ok   bool
		mode CyclicMode
		h, w int
	}{
		{group.AllCyclicShifts(28, 28), true, Shift2D, 28, 28},
		{group.AllCyclicShifts(6, 5), true, Shift2D, 6, 5},
		{group.AllCyclicShifts(1, 12), true, Shift2D, 1, 12}, // 1-D cyclic shifts of vectors
		{colShifts(4, 6), true, ShiftCols, 4, 6},
		{group.LocalShifts(28, 28, 3), false, 0, 0, 0},
		{group.CyclicShifts(6, 5, [][2]int{{0, 0}, {1, 0}, {0, 1}}), false, 0, 0, 0},
		{group.CyclicShifts(6, 5, [][2]int{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}), false, 0, 0, 0}, // w rows shifts, not columns
		{group.Sample(group.AllCyclicShifts(6, 5), 10, rng), false, 0, 0, 0},
		{group.Permutations(5, 8, nil, 0), false, 0, 0, 0},
	} {
		h, w, mode, ok := CyclicGroupOf(c.G)
		if ok != c.ok || ok && (mode != c.mode || h != c.h || w != c.w) {
			t.Errorf("%s: CyclicGroupOf = %d, %d, %v, %v; want %d, %d, %v, %v", c.G.Name(), h, w, mode, ok, c.h, c.w, c.mode, c.ok)
		}
	}
}

// TestHaarFFTMatchesDefinition: over the full cyclic groups of the FFT path (2-D shifts,
// column shifts, 1-D shifts of vectors) HaarGram and HaarSymGram equal the double mean
// of the definition (HaarGramExact, |G|² terms) and the direct orbit path (haarDirect)
// for linear, Gaussian and odd and even polynomial bases, train×train and test×train.
// Tolerance 1e-12 of the largest entry: the same sums in another order (the inner
// products come from FFTs of length <= 30, rounding about 1e-15 of ||x||·||z||).
func TestHaarFFTMatchesDefinition(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	for _, G := range []*group.Shifts2D{group.AllCyclicShifts(6, 5), group.AllCyclicShifts(5, 4), colShifts(4, 6), group.AllCyclicShifts(1, 12)} {
		h, w := G.Size()
		X := randImages(rng, 9, h, w, true)
		Z := randImages(rng, 7, h, w, true)
		for _, k := range []Base{Linear{}, RBF{Gamma: 0.3}, Poly{Gamma: 0.5, Degree: 3}, Poly{Gamma: 0.2, Degree: 4}} {
			if _, _, _, ok := CyclicGroupOf(G); !ok {
				t.Fatalf("%s: not routed to the FFT", G.Name())
			}
			exact := mustExact(t, k, G, Z, X)
			fast, err := HaarGram(ctx, k, G, Z, X)
			if err != nil {
				t.Fatal(err)
			}
			if e := relErr(fast, exact); e > 1e-12 {
				t.Errorf("%s on %s: test×train FFT vs definition %g", k.Name(), G.Name(), e)
			}
			if e := relErr(fast, haarDirectDense(t, k, G, Z, X)); e > 1e-12 {
				t.Errorf("%s on %s: test×train FFT vs direct path %g", k.Name(), G.Name(), e)
			}
			sym, err := HaarSymGram(ctx, k, G, X)
			if err != nil {
				t.Fatal(err)
			}
			if e := relErr(sym, mustExact(t, k, G, X, X)); e > 1e-12 {
				t.Errorf("%s on %s: train×train FFT vs definition %g", k.Name(), G.Name(), e)
			}
		}
	}
}

// TestHaarFFTGammaMatters: the FFT route applies the base kernel's parameters (a
// different gamma or degree gives a different kernel, each equal to its definition):
// a check that the route does not fall back on a default base.
func TestHaarFFTGammaMatters(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 9))
	G := group.AllCyclicShifts(4, 4)
	X := randImages(rng, 5, 4, 4, false)
	a, _ := HaarGram(ctx, RBF{Gamma: 0.1}, G, X, X)
	b, _ := HaarGram(ctx, RBF{Gamma: 1}, G, X, X)
	if relErr(a, b) < 1e-3 {
		t.Fatalf("gamma 0.1 and 1 give the same Haar kernel (%g apart)", relErr(a, b))
	}
	if e := relErr(b, mustExact(t, RBF{Gamma: 1}, G, X, X)); e > 1e-12 {
		t.Errorf("gamma 1: FFT vs definition %g", e)
	}
}

// TestCyclicGramProgress: the FFT Gram builders report the rows done through
// WithProgress, increasing to the number of rows, and end at total = rows.
func TestCyclicGramProgress(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	X := randImages(rng, 70, 8, 8, false)
	Z := randImages(rng, 40, 8, 8, false)
	G := group.AllCyclicShifts(8, 8)
	for _, c := range []struct {
		name string
		n    int
		run  func(ctx context.Context) error
	}{
		{"sym", 70, func(ctx context.Context) error { _, err := HaarSymGram(ctx, RBF{Gamma: 0.1}, G, X); return err }},
		{"cross", 40, func(ctx context.Context) error { _, err := HaarGram(ctx, RBF{Gamma: 0.1}, G, Z, X); return err }},
	} {
		var mu sync.Mutex
		var done []int
		last := -1
		pctx := WithProgress(ctx, func(d, total int) {
			mu.Lock()
			defer mu.Unlock()
			if total != c.n {
				t.Errorf("%s: total %d, want %d", c.name, total, c.n)
			}
			if d < last {
				t.Errorf("%s: done went back from %d to %d", c.name, last, d)
			}
			last = d
			done = append(done, d)
		})
		if err := c.run(pctx); err != nil {
			t.Fatal(err)
		}
		if len(done) < 2 || done[len(done)-1] != c.n {
			t.Errorf("%s: progress %v, want several reports ending at %d", c.name, done, c.n)
		}
	}
}

// TestHaarFFTCancel: a cancelled context stops the FFT route with ctx.Err().
func TestHaarFFTCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	X := randImages(rand.New(rand.NewPCG(2, 2)), 50, 8, 8, false)
	if _, err := HaarSymGram(ctx, RBF{Gamma: 1}, group.AllCyclicShifts(8, 8), X); err == nil || ctx.Err() == nil {
		t.Fatalf("cancelled HaarSymGram returned %v", err)
	}
}
