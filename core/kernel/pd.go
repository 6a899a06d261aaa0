package kernel

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Gershgorin returns the Gershgorin lower bound on the eigenvalues of the symmetric
// matrix K,
//
//	lower = min_i ( K_ii - sum_{j != i} |K_ij| ),
//
// and pd = lower > 0: every eigenvalue lies in a disc centred at some K_ii of radius
// sum_{j != i} |K_ij|, so when all discs lie in the right half plane K is positive
// definite. The test is sufficient, not necessary (most PD Gram matrices fail it); it
// costs n² operations against the n³ of [MinEigen]. It panics if K is empty.
func Gershgorin(K mat.Symmetric) (lower float64, pd bool) {
	n := K.SymmetricDim()
	if n == 0 {
		panic("kernel: Gershgorin: empty matrix")
	}
	lower = math.Inf(1)
	for i := range n {
		r := 0.0
		for j := range n {
			if j != i {
				r += math.Abs(K.At(i, j))
			}
		}
		lower = min(lower, K.At(i, i)-r)
	}
	return lower, lower > 0
}

// PDTol is the relative pivot tolerance of [LargestPD]: the leading k×k block counts
// as positive definite when every Cholesky pivot d_k satisfies d_k > PDTol·K_kk. For a
// PSD kernel d_k/K_kk is the squared sine of the angle between sample k's feature vector
// and the span of the previous ones, so 1e-10 only rejects near-duplicates (angle below
// 1e-5) while a negative eigenvalue of a rounding-free Gram matrix always fails.
const PDTol = 1e-10

// PDReport is the result of [LargestPD].
type PDReport struct {
	// Sizes are the sample sizes asked for, ascending; Frac[s] is the fraction of draws
	// whose Gram matrix of the first Sizes[s] samples was positive definite.
	Sizes []int
	Frac  []float64
	// PerDraw[r] is the exact largest n (up to max(Sizes)) for which the Gram matrix of
	// the first n samples of draw r is positive definite.
	PerDraw []int
	// All is the largest size in Sizes at which every draw was PD (0 if none); Most the
	// largest at which more than half were. Median is the median of PerDraw, Min its
	// minimum: the Table I number of Liu et al. is the size at which the Gram matrix
	// stops being PD, here reported as Min (all draws) and Median (most draws).
	All, Most   int
	Min, Median int
}

// LargestPD runs the Table I protocol of Liu et al.: the largest number n of random
// samples whose Gram matrix stays positive definite. For each of draws draws it takes
// a random order of the rows of X (rng), computes the Gram matrix of the first
// N = max(sizes) samples with gram (e.g. a best-fit builder), and Cholesky-factorises
// it pivot by pivot: the leading n×n block is PD exactly when the first n pivots are
// positive (here: d_k > PDTol·K_kk), so one factorisation gives every n at once. The
// samples are nested (size n uses the first n of the draw's order), and by Cauchy
// interlacing a Gram matrix with an indefinite leading block stays indefinite, so
// PerDraw is well defined. Cost per draw: the Gram matrix of N samples plus N³/3 flops.
//
// LargestPD returns an error if sizes is empty, a size is below 1 or above the number
// of rows of X, or draws < 1, the error of gram (wrapped) or ctx.Err() (checked per
// draw). It panics if rng is nil or gram returns a matrix of the wrong size.
func LargestPD(ctx context.Context, gram func(ctx context.Context, X *mat.Dense) (*mat.SymDense, error), X *mat.Dense, sizes []int, draws int, rng *rand.Rand) (*PDReport, error) {
	n, d := X.Dims()
	if len(sizes) == 0 || draws < 1 {
		return nil, fmt.Errorf("kernel: LargestPD: %d sizes and %d draws: give at least one size and one draw", len(sizes), draws)
	}
	sz := slices.Clone(sizes)
	slices.Sort(sz)
	if sz[0] < 1 || sz[len(sz)-1] > n {
		return nil, fmt.Errorf("kernel: LargestPD: sizes from %d to %d, but X has %d rows: use sizes in [1, %d]", sz[0], sz[len(sz)-1], n, n)
	}
	if rng == nil {
		panic("kernel: LargestPD: nil rng")
	}
	N := sz[len(sz)-1]
	rep := &PDReport{Sizes: sz, Frac: make([]float64, len(sz)), PerDraw: make([]int, draws)}
	sub := mat.NewDense(N, d, nil)
	for r := range draws {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		perm := rng.Perm(n)
		for i := range N {
			sub.SetRow(i, X.RawRowView(perm[i]))
		}
		K, err := gram(ctx, sub)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("kernel: LargestPD: draw %d: %w", r, err)
		}
		if K.SymmetricDim() != N {
			panic(fmt.Sprintf("kernel: LargestPD: gram returned %d×%d for %d samples", K.SymmetricDim(), K.SymmetricDim(), N))
		}
		k := PDPrefix(K, PDTol)
		rep.PerDraw[r] = k
		for s, v := range sz {
			if v <= k {
				rep.Frac[s]++
			}
		}
	}
	for s, v := range sz {
		rep.Frac[s] /= float64(draws)
		if rep.Frac[s] == 1 {
			rep.All = v
		}
		if rep.Frac[s] > 0.5 {
			rep.Most = v
		}
	}
	pd := slices.Clone(rep.PerDraw)
	slices.Sort(pd)
	rep.Min, rep.Median = pd[0], pd[(len(pd)-1)/2]
	return rep, nil
}

// PDPrefix returns the largest k such that the leading k×k block of the symmetric
// matrix K is positive definite in the sense of [LargestPD]: the Cholesky pivots
//
//	d_i = K_ii - sum_{l < i} L_il²  >  tol·K_ii,   i < k,
//
// (0 if K_00 <= 0). It runs a right-looking row-oriented Cholesky in n³/3 flops and
// stops at the first failing pivot. K is not modified.
func PDPrefix(K mat.Symmetric, tol float64) int {
	n := K.SymmetricDim()
	L := make([]float64, n*n) // row-major lower factor, row i holds L_i0..L_ii
	for i := range n {
		li := L[i*n : i*n+i+1]
		for j := range i {
			lj := L[j*n : j*n+j+1]
			s := K.At(i, j)
			for l, v := range lj[:j] {
				s -= li[l] * v
			}
			li[j] = s / lj[j]
		}
		kii := K.At(i, i)
		s := kii
		for _, v := range li[:i] {
			s -= v * v
		}
		if !(s > tol*kii) || !(kii > 0) {
			return i
		}
		li[i] = math.Sqrt(s)
	}
	return n
}
