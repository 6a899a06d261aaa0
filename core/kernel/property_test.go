package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/group"
)

// fullGroups returns finite groups acting on 6×6 images (d = 36) by permutation
// matrices, so that k(g·x, z) = k(x, g⁻¹·z) for every base kernel here: all cyclic
// shifts (36), the rotations by multiples of 90 degrees (4, exact on a square grid),
// their product (144: a quarter turn maps a cyclic shift to a cyclic shift), and the
// permutations of 4 blocks of 9 (S_4, 24).
func fullGroups() []group.Action {
	const h, w = 6, 6
	c4 := group.Rotations(h, w, []float64{0, 90, 180, 270})
	return []group.Action{
		group.AllCyclicShifts(h, w),
		c4,
		group.Product(group.AllCyclicShifts(h, w), c4),
		group.Permutations(4, 9, nil, 0),
	}
}

// transformRows returns a copy of X whose row i is g_{k_i}·X[i] for random elements k_i.
func transformRows(rng *rand.Rand, G group.Action, X *mat.Dense) *mat.Dense {
	n, d := X.Dims()
	out := mat.NewDense(n, d, nil)
	for i := range n {
		G.Apply(out.RawRowView(i), X.RawRowView(i), rng.IntN(G.Len()))
	}
	return out
}

// TestFitInvariantUnderFullGroups: over a full group G the best-fit and average-fit
// kernels computed by the GEMM path (FitGram) are invariant in both arguments,
//
//	K(g·x, z) = K(x, z) = K(x, g·z)   for every g in G,
//
// and symmetric, K(x, z) = K(z, x), for every base kernel (inner-product and RBF
// kernels, with signed pixels). The tolerance, 1e-10 relative, covers the rounding of
// the same dot products computed in other GEMM blocks; a set that is not a group (local
// zero-fill shifts, which lose pixels at the border) breaks invariance by far more,
// which the control at the end checks, so the test can tell the two apart.
func TestFitInvariantUnderFullGroups(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 32))
	X := randImages(rng, 7, 6, 6, true)
	Z := randImages(rng, 5, 6, 6, true)
	for _, G := range fullGroups() {
		GX, GZ := transformRows(rng, G, X), transformRows(rng, G, Z)
		for _, k0 := range testBases {
			for _, fit := range []Fit{BestFit, AverageFit} {
				what := G.Name() + " " + k0.Name() + " " + fit.String()
				K, err := FitGram(ctx, k0, G, fit, X, Z)
				if err != nil {
					t.Fatal(err)
				}
				Kx, _ := FitGram(ctx, k0, G, fit, GX, Z)
				Kz, _ := FitGram(ctx, k0, G, fit, X, GZ)
				Kt, _ := FitGram(ctx, k0, G, fit, Z, X)
				requireClose(t, what+": g·x", Kx, K, 1e-10)
				requireClose(t, what+": g·z", Kz, K, 1e-10)
				requireClose(t, what+": symmetry", Kt.T(), K, 1e-10)
			}
		}
	}
	// Control: local shifts with zero fill are not a group, and the best fit over them is
	// not invariant under its own elements.
	L := group.LocalShifts(6, 6, 1)
	LX := mat.NewDense(7, 36, nil)
	for i := range 7 {
		L.Apply(LX.RawRowView(i), X.RawRowView(i), 1+i%(L.Len()-1))
	}
	K, _ := FitGram(ctx, Linear{}, L, BestFit, X, Z)
	Kx, _ := FitGram(ctx, Linear{}, L, BestFit, LX, Z)
	var worst float64
	for i := range 7 {
		for j := range 5 {
			worst = max(worst, math.Abs(Kx.At(i, j)-K.At(i, j)))
		}
	}
	if worst < 1e-3 {
		t.Errorf("local zero-fill shifts: best fit moved by at most %g under its own elements; the invariance check could not fail", worst)
	}
}

// TestAverageFitPSDFullGroups: the average-fit kernel over a full group with a PSD base
// kernel is the Haar-integration kernel, positive semi-definite: the smallest eigenvalue
// of the Gram matrix of 40 images is >= -1e-10 times the largest (rounding), for the
// rotations by quarter turns, their product with the cyclic shifts and block
// permutations (TestAverageFitPSD covers the cyclic shifts alone). The symmetric
// builder (FitSymGram) equals the rectangular one (FitGram) to 1e-10.
func TestAverageFitPSDFullGroups(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(33, 34))
	X := randImages(rng, 40, 6, 6, true)
	for _, G := range fullGroups()[1:] {
		for _, k0 := range []Base{Linear{}, Poly{Gamma: 0.1, Degree: 4}, RBF{Gamma: 0.1}} {
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
				t.Errorf("%s average-fit %s: min eigenvalue %g, max %g", G.Name(), k0.Name(), v[0], v[len(v)-1])
			}
			K, _ := FitGram(ctx, k0, G, AverageFit, X, X)
			requireClose(t, G.Name()+" "+k0.Name()+" sym vs rect", S, K, 1e-10)
		}
	}
}

// TestLocalityFitInvariantInX: the best and average fits of the locality kernel over
// all cyclic shifts (L-TI) are invariant under shifting the first argument, K(g·x, z) =
// K(x, z): the orbit of g·x is the orbit of x, so the same kernel values are pooled
// (bit-identical for the maximum; 1e-12 relative for the mean, summed in another order).
// (The second argument is not covered: the zero padding of the patches does not commute
// with a cyclic shift, so k_L(g·x, g·z) != k_L(x, z) at the border.)
func TestLocalityFitInvariantInX(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(35, 36))
	k := Locality{H: 6, W: 6, K1: 3, D1: 2, D2: 2, S1: 1.0 / 9}
	G := group.AllCyclicShifts(6, 6)
	X := randImages(rng, 5, 6, 6, false)
	Z := randImages(rng, 4, 6, 6, false)
	GX := transformRows(rng, G, X)
	for _, c := range []struct {
		fit Fit
		tol float64
	}{{BestFit, 0}, {AverageFit, 1e-12}} {
		K, err := FitPairGram(ctx, k, G, c.fit, X, Z)
		if err != nil {
			t.Fatal(err)
		}
		Kx, _ := FitPairGram(ctx, k, G, c.fit, GX, Z)
		requireClose(t, "L-TI "+c.fit.String()+": g·x", Kx, K, c.tol)
	}
}
