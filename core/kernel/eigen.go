package kernel

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// MinEigen returns the smallest eigenvalue of the symmetric matrix K,
//
//	λ_min(K) = min_{||v|| = 1} vᵀ K v,
//
// a positive-definiteness diagnostic for Gram matrices (Liu et al.'s best-fit kernels are
// PD only with high probability). It uses gonum's mat.EigenSym without vectors, O(n³),
// and returns NaN if the decomposition fails. K is not modified.
func MinEigen(K *mat.SymDense) float64 {
	var e mat.EigenSym
	if !e.Factorize(K, false) {
		return math.NaN()
	}
	return e.Values(nil)[0] // ascending
}
