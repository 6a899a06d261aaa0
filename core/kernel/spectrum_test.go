package kernel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randSym returns an n×n symmetric matrix with independent N(0,1) entries (indefinite).
func randSym(rng *rand.Rand, n int) *mat.SymDense {
	K := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			K.SetSym(i, j, rng.NormFloat64())
		}
	}
	return K
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

func TestMakePSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, tol = 40, 1e-10
	K := randSym(rng, n)
	if MinEigen(K) >= 0 {
		t.Fatal("test matrix is not indefinite")
	}
	for _, mode := range []PSDMode{PSDClip, PSDFlip} {
		Kp, M, sp, err := MakePSD(K, mode)
		if err != nil {
			t.Fatal(err)
		}
		if sp.Negative == 0 || sp.Min >= 0 || !(sp.NegMass > 0 && sp.NegMass < 1) {
			t.Errorf("%v: spectrum report %+v for an indefinite matrix", mode, sp)
		}
		if e := MinEigen(Kp); e < -tol {
			t.Errorf("%v: smallest eigenvalue of K' is %g, want >= 0", mode, e)
		}
		// A training row transforms into its own row of K': K M = K'.
		var KM mat.Dense
		KM.Mul(K, M)
		if d := maxAbsDiff(&KM, Kp); d > tol {
			t.Errorf("%v: |K M - K'| = %g, want <= %g", mode, d, tol)
		}
		// Clip keeps the positive part (K' - K = V max(-Λ,0) V^T is PSD); flip keeps K² (|Λ|² = Λ²).
		D := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				D.SetSym(i, j, Kp.At(i, j)-K.At(i, j))
			}
		}
		if mode == PSDClip {
			if e := MinEigen(D); e < -tol {
				t.Errorf("clip: K' - K has eigenvalue %g, want >= 0", e)
			}
		} else {
			var K2, Kp2 mat.Dense
			K2.Mul(K, K)
			Kp2.Mul(Kp, Kp)
			if d := maxAbsDiff(&K2, &Kp2); d > 1e-9 {
				t.Errorf("flip: |K'² - K²| = %g", d)
			}
		}
	}
	// A PSD matrix is left unchanged, and M is the identity on its range.
	var A mat.Dense
	A.Mul(randSym(rng, n), randSym(rng, n))
	P := mat.NewSymDense(n, nil)
	P.SymOuterK(1, &A)
	Pp, PM, sp, err := MakePSD(P, PSDClip)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxAbsDiff(P, Pp); d > 1e-8*mat.Norm(P, math.Inf(1)) || sp.Negative > 0 && sp.NegMass > 1e-12 {
		t.Errorf("clip changed a PSD matrix by %g (spectrum %+v)", d, sp)
	}
	if sp.Negative == 0 && (Pp != P || PM != nil) {
		t.Error("a matrix without negative eigenvalues must come back as itself with no map")
	}
	if same, M, _, _ := MakePSD(K, PSDNone); same != K || M != nil {
		t.Error("PSDNone must return K itself and no map")
	}
	K.SetSym(3, 5, math.NaN())
	if _, _, _, err := MakePSD(K, PSDClip); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN Gram: err %v, want one naming NaN", err)
	}
	if _, err := ParsePSDMode("shift"); err == nil {
		t.Error("ParsePSDMode accepted shift")
	}
}
