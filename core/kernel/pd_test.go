package kernel

import (
	"context"
	"math/rand/v2"
	"testing"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// TestGershgorin: a diagonally dominant matrix is certified PD with the hand-computed
// bound; a PD matrix that is not diagonally dominant is not certified (the test is only
// sufficient), and the bound never exceeds the smallest eigenvalue.
func TestGershgorin(t *testing.T) {
	// Rows: 4 - (1 + 0.5) = 2.5, 3 - (1 + 1) = 1, 5 - (0.5 + 1) = 3.5 -> lower 1.
	K := mat.NewSymDense(3, []float64{4, 1, 0.5, 1, 3, -1, 0.5, -1, 5})
	lo, pd := Gershgorin(K)
	if lo != 1 || !pd {
		t.Errorf("Gershgorin = %g, %v; want 1, true", lo, pd)
	}
	if lo > MinEigen(K) {
		t.Errorf("bound %g above min eigenvalue %g", lo, MinEigen(K))
	}
	// All-ones plus 0.1 I: eigenvalues 0.1 and 3.1, bound 1.1 - 2 < 0.
	J := mat.NewSymDense(3, []float64{1.1, 1, 1, 1, 1.1, 1, 1, 1, 1.1})
	if lo, pd := Gershgorin(J); pd || lo > MinEigen(J) {
		t.Errorf("Gershgorin(J) = %g, %v; want not certified, below %g", lo, pd, MinEigen(J))
	}
}

// TestPDPrefixMatchesEigen: PDPrefix agrees with the smallest eigenvalue of every
// leading block of a TI best-fit Gram matrix (indefinite from some size on), and
// LargestPD's report is consistent with its per-draw numbers.
func TestPDPrefixMatchesEigen(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 32))
	X := randImages(rng, 80, 8, 8, false)
	G := group.AllCyclicShifts(8, 8)
	K, err := FitSymGram(ctx, Linear{}, G, BestFit, X)
	if err != nil {
		t.Fatal(err)
	}
	k := PDPrefix(K, PDTol)
	if k == 80 || k < 2 {
		t.Fatalf("PDPrefix = %d: expected an indefinite leading block of the best-fit Gram", k)
	}
	for _, m := range []int{k - 1, k, k + 1} {
		if m < 1 || m > 80 {
			continue
		}
		lead := mat.NewSymDense(m, nil)
		for i := range m {
			for j := i; j < m; j++ {
				lead.SetSym(i, j, K.At(i, j))
			}
		}
		ev := MinEigen(lead)
		if (m <= k) != (ev > 0) {
			t.Errorf("leading %d: PDPrefix says PD=%v, min eigenvalue %g", m, m <= k, ev)
		}
	}
	gram := func(ctx context.Context, X *mat.Dense) (*mat.SymDense, error) {
		return FitSymGram(ctx, Linear{}, G, BestFit, X)
	}
	rep, err := LargestPD(ctx, gram, X, []int{5, 10, 20, 40, 60}, 6, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	for s, v := range rep.Sizes {
		c := 0
		for _, p := range rep.PerDraw {
			if v <= p {
				c++
			}
		}
		if rep.Frac[s] != float64(c)/6 {
			t.Errorf("size %d: frac %g, per-draw count %d", v, rep.Frac[s], c)
		}
	}
	if rep.Min > rep.Median || (rep.All > 0 && rep.All > rep.Min) {
		t.Errorf("inconsistent report %+v", rep)
	}
	if _, err := LargestPD(ctx, gram, X, []int{81}, 1, rng); err == nil {
		t.Error("size above the rows of X: want an error")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := LargestPD(cctx, gram, X, []int{5}, 2, rng); err != context.Canceled {
		t.Errorf("cancelled: err = %v", err)
	}
}
