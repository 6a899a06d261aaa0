package kernel

import (
	"context"
	"math/rand/v2"
	"testing"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// naivePatch returns sum over the k×k patch centred at (y, c) of x∘z, zero padding.
func naivePatch(x, z []float64, h, w, k, y, c int) float64 {
	r, s := k/2, 0.0
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			yy, cc := y+dy, c+dx
			if yy >= 0 && yy < h && cc >= 0 && cc < w {
				s += x[yy*w+cc] * z[yy*w+cc]
			}
		}
	}
	return s
}

// naiveLocality is the formula of [Locality] written out with explicit patch loops.
func naiveLocality(k Locality, x, z []float64) float64 {
	h, w := k.H, k.W
	s1, s2 := k.S1, k.S2
	if s1 == 0 {
		s1 = 1
	}
	if s2 == 0 {
		s2 = 1
	}
	v := make([]float64, h*w)
	for y := range h {
		for c := range w {
			v[y*w+c] = powInt(s1*naivePatch(x, z, h, w, k.K1, y, c)+1, k.D1)
		}
	}
	sum := 0.0
	if k.K2 == 0 {
		for _, a := range v {
			sum += a
		}
		return powInt(sum+1, k.D2)
	}
	ones := make([]float64, h*w)
	for i := range ones {
		ones[i] = 1
	}
	for y := range h {
		for c := range w {
			sum += powInt(s2*naivePatch(v, ones, h, w, k.K2, y, c)+1, k.D2)
		}
	}
	return powInt(sum+1, k.D3)
}

// TestLocalityMatchesPatchSum: Eval equals the explicit patch sums (1e-12 relative:
// prefix-sum differences of values below ~50 lose a few ulps) for one and two layers,
// odd and even image sizes, with and without scales.
func TestLocalityMatchesPatchSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ks := []Locality{
		{H: 6, W: 7, K1: 3, D1: 2, D2: 3},
		{H: 6, W: 7, K1: 1, D1: 1, D2: 1},
		{H: 5, W: 9, K1: 5, D1: 3, D2: 2, S1: 1.0 / 100},
		{H: 6, W: 7, K1: 3, D1: 2, D2: 2, K2: 3, D3: 2, S1: 1.0 / 36, S2: 0.1},
		{H: 28, W: 28, K1: 3, D1: 2, D2: 8, S1: 1.0 / 36},
	}
	for _, k := range ks {
		if err := k.Validate(); err != nil {
			t.Fatal(err)
		}
		X := randImages(rng, 4, k.H, k.W, false)
		for i := range 4 {
			for j := range 4 {
				x, z := X.RawRowView(i), X.RawRowView(j)
				if got, want := k.Eval(x, z), naiveLocality(k, x, z); !relClose(got, want, 1e-12) {
					t.Fatalf("%s: K(%d,%d) = %.17g, want %.17g", k.Name(), i, j, got, want)
				}
			}
		}
	}
	for _, bad := range []Locality{{H: 4, W: 4, K1: 2, D1: 1, D2: 1}, {H: 4, W: 4, K1: 3, D1: 0, D2: 1}, {H: 4, W: 4, K1: 3, D1: 1, D2: 1, K2: 3}} {
		if bad.Validate() == nil {
			t.Errorf("%+v: want a validation error", bad)
		}
	}
}

// TestLocalityPSD: on random nonnegative images the locality Gram matrix (both
// layers) is positive semi-definite: min eigenvalue >= -1e-10·max eigenvalue (it is a
// sum of products of PSD kernels). L-TI (best fit over cyclic shifts, FitPairSymGram)
// matches its definition.
func TestLocalityPSD(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(23, 24))
	X := randImages(rng, 40, 8, 8, false)
	for _, k := range []Locality{
		{H: 8, W: 8, K1: 3, D1: 2, D2: 2, S1: 1.0 / 9},
		{H: 8, W: 8, K1: 3, D1: 2, D2: 2, K2: 3, D3: 2, S1: 1.0 / 9, S2: 1.0 / 9},
	} {
		S, err := PairSymGram(ctx, k, X)
		if err != nil {
			t.Fatal(err)
		}
		var e mat.EigenSym
		e.Factorize(S, false)
		v := e.Values(nil)
		if v[0] < -1e-10*v[len(v)-1] {
			t.Errorf("%s: min eigenvalue %g, max %g", k.Name(), v[0], v[len(v)-1])
		}
		K, _ := PairGram(ctx, k, X, X)
		requireClose(t, "PairGram vs PairSymGram", K, S, 1e-14)
	}
	k := Locality{H: 8, W: 8, K1: 3, D1: 2, D2: 2, S1: 1.0 / 9}
	G := group.AllCyclicShifts(8, 8)
	L, err := FitPairSymGram(ctx, k, G, BestFit, X.Slice(0, 5, 0, 64).(*mat.Dense))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		for j := i; j < 5; j++ {
			want := naiveFit(k, G, BestFit, X.RawRowView(i), X.RawRowView(j))
			if !relClose(L.At(i, j), want, 1e-12) {
				t.Fatalf("L-TI [%d,%d] = %g, want %g", i, j, L.At(i, j), want)
			}
		}
	}
}
