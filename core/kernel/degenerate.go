package kernel

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// degenerateTol is the relative size below which a kernel's variation is numerical noise:
// a few hundred float64 roundings of entries of order one.
const degenerateTol = 1e-12

// Degenerate describes a training Gram matrix k that carries no information a learner can
// use, or returns "" when k is fine:
//
//	"the kernel is numerically zero"      max |K_ij| = 0 (or not finite)
//	"the kernel is numerically constant"  max K_ij - min K_ij <= 1e-12 max |K_ij|
//	"the kernel is numerically diagonal"  max_{i!=j} |K_ij| <= 1e-12 max |K_ij|
//
// A Gaussian kernel reaches the first two at gamma 1e-320 (every entry 1) and the third at
// gamma 1e308 (every distinct pair 0): its fit then predicts a constant or the nearest
// duplicate. A matrix of order below 2 is never degenerate. It reads k once, O(n²), and
// allocates nothing.
func Degenerate(k mat.Symmetric) string {
	n := k.SymmetricDim()
	if n < 2 {
		return ""
	}
	lo, hi, scale, off := math.Inf(1), math.Inf(-1), 0.0, 0.0
	for i := range n {
		for j := i; j < n; j++ {
			v := k.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return ""
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
			scale = math.Max(scale, math.Abs(v))
			if i != j {
				off = math.Max(off, math.Abs(v))
			}
		}
	}
	switch {
	case scale == 0:
		return "the kernel is numerically zero"
	case hi-lo <= degenerateTol*scale:
		return "the kernel is numerically constant"
	case off <= degenerateTol*scale:
		return "the kernel is numerically diagonal"
	}
	return ""
}
