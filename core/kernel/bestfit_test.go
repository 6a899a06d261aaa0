package kernel

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// TestFitGramMatchesDefinition: the GEMM path equals the plain definition (naiveFit,
// k0.Eval on explicitly transformed copies) to 1e-10 relative for local zero-fill
// shifts, rotations, all cyclic shifts and a product set, every base kernel (signed
// pixels, so that even-degree polynomials meet their non-monotone branch), both fits;
// the symmetric builder equals the upper triangle; FitPairGram equals it too.
func TestFitGramMatchesDefinition(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 12))
	const h, w = 7, 8
	X := randImages(rng, 9, h, w, true)
	Z := randImages(rng, 6, h, w, true)
	sets := []group.Action{
		group.LocalShifts(h, w, 2),
		group.Rotations(h, w, group.AngleRange(-20, 20, 5)),
		group.AllCyclicShifts(h, w),
		group.Product(group.Rotations(h, w, []float64{0, 10}), group.LocalShifts(h, w, 1)),
	}
	for _, G := range sets {
		for _, k0 := range testBases {
			for _, fit := range []Fit{BestFit, AverageFit} {
				what := G.Name() + " " + k0.Name() + " " + fit.String()
				want := naiveFitGram(k0, G, fit, X, Z)
				got, err := FitGram(ctx, k0, G, fit, X, Z)
				if err != nil {
					t.Fatal(err)
				}
				requireClose(t, what, got, want, 1e-10)
				gp, err := FitPairGram(ctx, k0, G, fit, X, Z)
				if err != nil {
					t.Fatal(err)
				}
				requireClose(t, "pairs "+what, gp, want, 1e-12)
				S, err := FitSymGram(ctx, k0, G, fit, X)
				if err != nil {
					t.Fatal(err)
				}
				full := naiveFitGram(k0, G, fit, X, X)
				for i := range 9 {
					for j := i; j < 9; j++ {
						if !relClose(S.At(i, j), full.At(i, j), 1e-10) {
							t.Fatalf("sym %s [%d,%d] = %g, want %g", what, i, j, S.At(i, j), full.At(i, j))
						}
					}
				}
			}
		}
	}
}

// TestFitGramCyclicAgreesWithFFT: over all cyclic shifts of 28×28 images the GEMM path
// and the FFT path give the same best-fit kernel (1e-9 relative), and it is invariant:
// shifting x or z by any cyclic shift leaves it unchanged.
func TestFitGramCyclicAgreesWithFFT(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(13, 14))
	X := randImages(rng, 3, 28, 28, false)
	G := group.AllCyclicShifts(28, 28)
	k0 := Poly{Gamma: 0.01, Degree: 8}
	got, err := FitSymGram(ctx, k0, G, BestFit, X)
	if err != nil {
		t.Fatal(err)
	}
	A, _ := NewSpectra(ctx, 28, 28, Shift2D, X, nil)
	want, _ := CyclicSymGram(ctx, k0, BestFit, A)
	requireClose(t, "GEMM vs FFT", got, want, 1e-9)
	SX := mat.NewDense(3, 784, nil)
	for i := range 3 {
		G.Apply(SX.RawRowView(i), X.RawRowView(i), 1+rng.IntN(783))
	}
	K1, _ := FitGram(ctx, k0, G, BestFit, SX, X)
	K2, _ := FitGram(ctx, k0, G, BestFit, X, SX)
	requireClose(t, "invariance x", K1, want, 1e-9)
	requireClose(t, "invariance z", K2, want, 1e-9)
}

// TestAverageFitPSD: the average-fit kernel over a group (all cyclic shifts) with a
// positive-definite base is the Haar kernel, positive semi-definite: its smallest
// eigenvalue is >= -1e-10·largest (rounding); best fit over the same group is not
// guaranteed to be, and with 60 random images it is indefinite here (as FINDINGS.md
// reports for MNIST), which keeps this test able to tell the two apart.
func TestAverageFitPSD(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(15, 16))
	X := randImages(rng, 60, 8, 8, false)
	G := group.AllCyclicShifts(8, 8)
	for _, k0 := range []Base{Linear{}, Poly{Gamma: 0.05, Degree: 4}, RBF{Gamma: 0.1}} {
		S, err := FitSymGram(ctx, k0, G, AverageFit, X)
		if err != nil {
			t.Fatal(err)
		}
		var e mat.EigenSym
		if !e.Factorize(S, false) {
			t.Fatal("eigen failed")
		}
		v := e.Values(nil)
		if v[0] < -1e-10*v[len(v)-1] {
			t.Errorf("average-fit %s: min eigenvalue %g, max %g", k0.Name(), v[0], v[len(v)-1])
		}
	}
	S, _ := FitSymGram(ctx, Linear{}, G, BestFit, X)
	if l := MinEigen(S); l >= 0 {
		t.Errorf("best-fit linear on 60 random 8x8 images: min eigenvalue %g, expected indefinite", l)
	}
}

// TestFitErrorsAndCancel: bad kernel parameters and oversized results are errors (the
// latter wrapping ErrGramTooLarge), a cancelled context returns context.Canceled
// undecorated from every builder, and shape mismatches panic with the package prefix.
func TestFitErrorsAndCancel(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(17, 18))
	X := randImages(rng, 40, 6, 6, false)
	G := group.AllCyclicShifts(6, 6)
	if _, err := FitGram(ctx, Poly{Gamma: 0, Degree: 2}, G, BestFit, X, X); err == nil {
		t.Error("gamma 0: want an error")
	}
	old := MaxGramBytes
	MaxGramBytes = 100
	_, err := FitSymGram(ctx, Linear{}, G, BestFit, X)
	_, err2 := NewSpectra(ctx, 6, 6, Shift2D, X, nil)
	MaxGramBytes = old
	if !errors.Is(err, ErrGramTooLarge) || !errors.Is(err2, ErrGramTooLarge) {
		t.Errorf("memory guard: %v, %v", err, err2)
	}
	A, _ := NewSpectra(ctx, 6, 6, Shift2D, X, nil)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for name, f := range map[string]func() error{
		"FitGram":       func() error { _, err := FitGram(cctx, Linear{}, G, BestFit, X, X); return err },
		"FitSymGram":    func() error { _, err := FitSymGram(cctx, Linear{}, G, AverageFit, X); return err },
		"FitPairGram":   func() error { _, err := FitPairGram(cctx, Linear{}, G, BestFit, X, X); return err },
		"NewSpectra":    func() error { _, err := NewSpectra(cctx, 6, 6, Shift2D, X, nil); return err },
		"CyclicSymGram": func() error { _, err := CyclicSymGram(cctx, Linear{}, BestFit, A); return err },
		"CyclicGram":    func() error { _, err := CyclicGram(cctx, Linear{}, BestFit, A, A); return err },
		"PairSymGram": func() error {
			_, err := PairSymGram(cctx, Locality{H: 6, W: 6, K1: 3, D1: 1, D2: 1}, X)
			return err
		},
	} {
		if err := f(); err != context.Canceled {
			t.Errorf("%s: cancelled context gave %v", name, err)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "kernel: ") {
			t.Errorf("shape mismatch: panic %v", r)
		}
	}()
	FitGram(ctx, Linear{}, group.AllCyclicShifts(5, 5), BestFit, X, X)
}
