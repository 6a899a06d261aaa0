package feature

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Map is a feature map x ↦ Φ(x) applied to every row of an n×d input.
//
// Contract: Transform returns a new n×OutputDim(d) matrix and never modifies x; it
// panics if d does not fit the map (OutputDim panics likewise), returns ctx.Err()
// undecorated when cancelled, and calls progress (if non-nil) with a non-decreasing
// done <= total, one call at a time, possibly from worker goroutines.
type Map interface {
	// Name returns the method's short name as result series use it, e.g. "raw", "CDF(25,100)".
	Name() string
	// OutputDim returns the feature dimension D for inputs of dimension d.
	OutputDim(d int) int
	// Transform computes Φ for every row of x.
	Transform(ctx context.Context, x *mat.Dense, progress func(done, total int)) (*mat.Dense, error)
}

// Fitter is implemented by maps that set parameters from the training inputs (never
// the labels) and must be fitted before Transform: [CDF] with RangeThresholds. Fit
// returns ctx.Err() undecorated when cancelled.
type Fitter interface {
	Fit(ctx context.Context, x *mat.Dense, progress func(done, total int)) error
}

// Raw is the identity feature map Φ(x) = x (the "raw" baseline).
type Raw struct{}

// Name returns "raw".
func (Raw) Name() string { return "raw" }

// OutputDim returns d.
func (Raw) OutputDim(d int) int { return d }

// Transform returns a copy of x. It returns ctx.Err() if ctx is already cancelled.
func (Raw) Transform(ctx context.Context, x *mat.Dense, progress func(done, total int)) (*mat.Dense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := mat.DenseCopyOf(x)
	if progress != nil {
		n, _ := x.Dims()
		progress(n, n)
	}
	return out, nil
}

// BagOfWords maps a sequence of L one-hot blocks of A symbols (Shape [L, A], flattened
// block after block) to its A symbol counts,
//
//	Φ(x)_a = sum_{l=0}^{L-1} x[l*A + a],        a = 0..A-1,
//
// the "bag-of-words" baseline of Mroueh et al. (its linear kernel equals the Haar kernel of
// the permutation group of the blocks with a linear base kernel, up to the factor L).
type BagOfWords struct {
	L, A int // sequence length and alphabet size
}

// NewBagOfWords returns the bag-of-words map for samples of shape [L, A].
// It panics unless shape has two positive entries.
func NewBagOfWords(shape []int) BagOfWords {
	if len(shape) != 2 || shape[0] < 1 || shape[1] < 1 {
		panic(fmt.Sprintf("feature: bag-of-words needs a sample shape [L, A], got %v", shape))
	}
	return BagOfWords{L: shape[0], A: shape[1]}
}

// Name returns "bag-of-words".
func (BagOfWords) Name() string { return "bag-of-words" }

// OutputDim returns A. It panics if d != L*A.
func (b BagOfWords) OutputDim(d int) int {
	if d != b.L*b.A {
		panic(fmt.Sprintf("feature: bag-of-words of shape [%d, %d] needs %d inputs, got %d", b.L, b.A, b.L*b.A, d))
	}
	return b.A
}

// Transform returns the n×A symbol counts of the rows of x. It panics if x has not L*A
// columns and returns ctx.Err() if ctx is already cancelled.
func (b BagOfWords) Transform(ctx context.Context, x *mat.Dense, progress func(done, total int)) (*mat.Dense, error) {
	n, d := x.Dims()
	a := b.OutputDim(d)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := mat.NewDense(n, a, nil)
	for i := range n {
		row, o := x.RawRowView(i), out.RawRowView(i)
		for l := range b.L {
			for k, v := range row[l*a : (l+1)*a] {
				o[k] += v
			}
		}
	}
	if progress != nil {
		progress(n, n)
	}
	return out, nil
}
