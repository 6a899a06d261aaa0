package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// relDiff returns max |a-b| / max |b| over the entries.
func relDiff(a, b mat.Matrix) float64 {
	r, c := b.Dims()
	var num, den float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			num = math.Max(num, math.Abs(a.At(i, j)-b.At(i, j)))
			den = math.Max(den, math.Abs(b.At(i, j)))
		}
	}
	return num / den
}

// TestLocalityMap checks that the explicit feature map gives the locality kernel of the
// paper's formula (Locality.Eval, the patch sums) to 1e-12 relative, for one and two
// inner degrees, several patch sides and scales, signed images and non-square images.
func TestLocalityMap(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []Locality{
		{H: 8, W: 8, K1: 3, D1: 2, D2: 4, S1: 0.01},
		{H: 7, W: 9, K1: 5, D1: 2, D2: 3},
		{H: 6, W: 6, K1: 3, D1: 1, D2: 8, S1: 0.1},
		{H: 10, W: 6, K1: 7, D1: 2, D2: 1, S1: 0.5},
	} {
		X := randImages(rng, 7, k.H, k.W, true)
		Z := randImages(rng, 5, k.H, k.W, false)
		want, err := PairGram(ctx, k, X, Z)
		if err != nil {
			t.Fatal(err)
		}
		got, err := LocalityGram(ctx, k, X, Z)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(got, want); d > 1e-12 {
			t.Errorf("%s: explicit map differs from the patch sums by %g relative", k.Name(), d)
		}
		ws, _ := PairSymGram(ctx, k, X)
		gs, _ := LocalitySymGram(ctx, k, X)
		if d := relDiff(gs, ws); d > 1e-12 {
			t.Errorf("%s: symmetric Gram differs by %g relative", k.Name(), d)
		}
	}
	// More rows of X than one block of maps (localityBlock): every block lands in place.
	k := Locality{H: 6, W: 6, K1: 3, D1: 2, D2: 2}
	X := randImages(rng, 2*localityBlock+37, k.H, k.W, false)
	Z := randImages(rng, 9, k.H, k.W, false)
	want, err := PairGram(ctx, k, X, Z)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LocalityGram(ctx, k, X, Z)
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(got, want); d > 1e-12 {
		t.Errorf("%d rows in blocks of %d: differs from the patch sums by %g relative", 2*localityBlock+37, localityBlock, d)
	}
	if _, ok := NewLocalityMap(Locality{H: 5, W: 5, K1: 3, D1: 3, D2: 2}); ok {
		t.Error("D1 = 3 has no explicit map here, want false")
	}
	if _, ok := NewLocalityMap(Locality{H: 5, W: 5, K1: 3, D1: 2, D2: 2, K2: 3, D3: 2}); ok {
		t.Error("two layers have no explicit map here, want false")
	}
}

// TestFitLocalityGram checks the L-TI / L-RI / L-TI-RI matrix-product path against the
// direct evaluation of every transformed pair (FitPairGram), best and average fit, to
// 1e-6 relative: the products are float32 (unit roundoff 6e-8; measured here 1e-8 to
// 3e-8 after the kernel's power D2 = 4), the direct path float64.
func TestFitLocalityGram(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	k := Locality{H: 12, W: 12, K1: 3, D1: 2, D2: 4, S1: 0.02}
	X := randImages(rng, 6, k.H, k.W, false)
	Z := randImages(rng, 4, k.H, k.W, false)
	rot := group.Rotations(12, 12, group.AngleRange(-20, 20, 3))
	for _, G := range []group.Action{group.LocalShifts(12, 12, 1), rot, group.Product(group.LocalShifts(12, 12, 1), rot)} {
		for _, fit := range []Fit{BestFit, AverageFit} {
			want, err := FitPairGram(ctx, k, G, fit, X, Z)
			if err != nil {
				t.Fatal(err)
			}
			got, err := FitLocalityGram(ctx, k, G, fit, X, Z)
			if err != nil {
				t.Fatal(err)
			}
			if d := relDiff(got, want); d > 1e-6 {
				t.Errorf("%s %v: matrix-product path differs by %g relative", G.Name(), fit, d)
			}
			ws, _ := FitPairSymGram(ctx, k, G, fit, X)
			gs, _ := FitLocalitySymGram(ctx, k, G, fit, X)
			if d := relDiff(gs, ws); d > 1e-6 {
				t.Errorf("%s %v: symmetric path differs by %g relative", G.Name(), fit, d)
			}
		}
	}
}
