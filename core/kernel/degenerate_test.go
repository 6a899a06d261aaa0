package kernel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDegenerate checks the three degenerate Gram matrices (an RBF kernel at gamma
// 1e-320 and 1e308, and all zeros) and that an ordinary RBF Gram is not called one.
func TestDegenerate(t *testing.T) {
	x := [][]float64{{0, 0}, {1, 0}, {0, 2}, {3, 1}}
	rbf := func(gamma float64) *mat.SymDense {
		k := mat.NewSymDense(len(x), nil)
		for i := range x {
			for j := i; j < len(x); j++ {
				d := 0.0
				for a := range x[i] {
					d += (x[i][a] - x[j][a]) * (x[i][a] - x[j][a])
				}
				k.SetSym(i, j, math.Exp(-gamma*d))
			}
		}
		return k
	}
	for _, c := range []struct {
		k    *mat.SymDense
		want string
	}{
		{rbf(1e-320), "the kernel is numerically constant"},
		{rbf(1e308), "the kernel is numerically diagonal"},
		{mat.NewSymDense(3, nil), "the kernel is numerically zero"},
		{rbf(0.5), ""},
		{mat.NewSymDense(1, []float64{1}), ""},
	} {
		if got := Degenerate(c.k); got != c.want {
			t.Errorf("Degenerate(%v) = %q, want %q", mat.Formatted(c.k), got, c.want)
		}
	}
}
