package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// RBFRowsRLS is kernel RLS with the Gaussian kernel on feature rows,
//
//	k(x, z) = exp(-Gamma ||f(x) - f(z)||²),   score_c(x) = sum_i k(x, z_i) C_ic + B_c,
//
// where f(z_1)..f(z_n) are the training rows it was fitted on (kept by reference, not
// copied) and class(x) = argmax_c score_c(x).
type RBFRowsRLS struct {
	C     *mat.Dense // n×k expansion coefficients; each column sums to zero
	B     []float64  // k intercepts
	Gamma float64    // the kernel width used (given, or the median heuristic's)
	Info  RLSInfo
	train Rows
	idx   []int
	norms []float64 // ||f(z_i)||²
}

// RBFMedianPairs is the number of seeded pairs of training rows over which
// FitRBFRowsRLS takes the median squared distance when gamma is 0.
const RBFMedianPairs = 4000

// FitRBFRowsRLS is FitKernelRLS with the Gaussian kernel exp(-gamma ||f(x) - f(z)||²)
// on the rows idx of f (sample a is row idx[a], label y[a]), computed from the linear
// Gram matrix G = F Fᵀ of those rows:
//
//	K_ab = exp(-gamma (G_aa + G_bb - 2 G_ab)),
//
// with negative rounding of the squared distance clipped to 0. gamma 0 picks the
// median heuristic gamma = 1 / (2 median_{a≠b} ||f(z_a) - f(z_b)||²), the median over
// RBFMedianPairs pairs drawn with a fixed seed (so a draw always gets the same gamma);
// it is an error if that median is 0. lambda is chosen by leave-one-out as in
// FitKernelRLS (or fixed by opt).
//
// Memory: one n×n float64 buffer holds G, then K, then its reduction and B (no copy of
// the rows: they are expanded colChunk columns at a time), plus the reduction's
// workspace. FitRBFRowsRLS panics if len(y) != len(idx), an index is out of range or
// k < 2; it returns FitKernelRLS's errors, an error naming a non-finite feature, and
// ctx.Err() if cancelled.
func FitRBFRowsRLS(ctx context.Context, f Rows, idx []int, y []int, k int, gamma float64, opt RLSOptions) (*RBFRowsRLS, error) {
	n := len(idx)
	rows, d := f.Dims()
	if len(y) != n {
		panic(fmt.Sprintf("learn: %d labels for %d samples", len(y), n))
	}
	if k < 2 {
		panic(fmt.Sprintf("learn: %d classes, need at least 2", k))
	}
	for _, i := range idx {
		if i < 0 || i >= rows {
			panic(fmt.Sprintf("learn: row %d outside [0,%d)", i, rows))
		}
	}
	if err := checkRLSInput(y, k, opt); err != nil {
		return nil, err
	}
	if gamma < 0 || math.IsNaN(gamma) || math.IsInf(gamma, 0) {
		return nil, fmt.Errorf("rls: gamma = %v is invalid: use a finite gamma > 0, or 0 for the median heuristic", gamma)
	}
	gram, err := rowsGram(ctx, f, idx, make([]float64, d))
	if err != nil {
		return nil, err
	}
	norms := make([]float64, n)
	for a := range n {
		norms[a] = gram[a*n+a]
		if math.IsNaN(norms[a]) || math.IsInf(norms[a], 0) {
			return nil, fmt.Errorf("rls: sample %d has a non-finite feature: remove or impute non-finite values", a)
		}
	}
	if gamma == 0 {
		med := medianSqDist(gram, n)
		if !(med > 0) || math.IsInf(med, 0) {
			return nil, fmt.Errorf("rls: the median squared distance between training rows is %g: set gamma > 0", med)
		}
		gamma = 1 / (2 * med)
	}
	// K in place (upper triangle) and its row sums s = K 1 (for the intercept).
	sums := make([][]float64, (n+rowBlock-1)/rowBlock)
	err = parallelBlocks(ctx, n, rowBlock, func(blk, lo, hi int) error {
		s := make([]float64, n)
		for a := lo; a < hi; a++ {
			row := gram[a*n+a : (a+1)*n]
			for j := range row {
				row[j] = math.Exp(-gamma * max(0, norms[a]+norms[a+j]-2*row[j]))
				s[a] += row[j]
				if j > 0 {
					s[a+j] += row[j]
				}
			}
		}
		sums[blk] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	rowSum := make([]float64, n)
	for _, s := range sums { // block order: reproducible
		for a, v := range s {
			rowSum[a] += v
		}
	}
	yt, ybar := targets(y, k)
	p := &looProblem{dual: true, n: n, y: yt, k: k, ybar: ybar, labels: y}
	p.dualGram(gram)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, info, err := solveDual(ctx, p, opt)
	if err != nil {
		return nil, err
	}
	// b = mean(Y) - mean over rows of K C = mean(Y) - sᵀ C / n.
	b := append([]float64(nil), ybar...)
	for a := range n {
		for j := range k {
			b[j] -= rowSum[a] * c.At(a, j) / float64(n)
		}
	}
	return &RBFRowsRLS{C: c, B: b, Gamma: gamma, Info: info, train: f, idx: slices.Clone(idx), norms: norms}, nil
}

// rowsGram returns the upper triangle of the n×n Gram matrix (F - 1 muᵀ)(F - 1 muᵀ)ᵀ
// of the rows idx of f (row-major; the lower triangle is left zero), accumulated over
// chunks of colChunk columns in order (disjoint row blocks per chunk: reproducible).
func rowsGram(ctx context.Context, f Rows, idx []int, mu []float64) ([]float64, error) {
	n := len(idx)
	gram := make([]float64, n*n)
	err := centredChunks(ctx, f, idx, mu, func(x blas64.General) error {
		// gram[lo:hi, lo:n] += X[lo:hi] X[lo:n]ᵀ: disjoint rows of gram per block.
		return parallelBlocks(ctx, n, rowBlock, func(_, lo, hi int) error {
			blas64.Gemm(blas.NoTrans, blas.Trans, 1,
				blas64.General{Rows: hi - lo, Cols: x.Cols, Stride: x.Stride, Data: x.Data[lo*x.Stride:]},
				blas64.General{Rows: n - lo, Cols: x.Cols, Stride: x.Stride, Data: x.Data[lo*x.Stride:]},
				1, blas64.General{Rows: hi - lo, Cols: n - lo, Stride: n, Data: gram[lo*n+lo:]})
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return gram, nil
}

// medianSqDist returns the median of G_aa + G_bb - 2 G_ab over RBFMedianPairs pairs
// a ≠ b drawn with a fixed seed from the upper triangle of the n×n Gram matrix g.
func medianSqDist(g []float64, n int) float64 {
	rng := rand.New(rand.NewPCG(0x726266, uint64(n))) // "rbf"
	d := make([]float64, RBFMedianPairs)
	for p := range d {
		a := rng.IntN(n)
		b := rng.IntN(n - 1)
		if b >= a {
			b++
		}
		if b < a {
			a, b = b, a
		}
		d[p] = max(0, g[a*n+a]+g[b*n+b]-2*g[a*n+b])
	}
	slices.Sort(d)
	return (d[(len(d)-1)/2] + d[len(d)/2]) / 2
}

// rbfTestRows is the number of rows DecisionRows scores at a time: the kernel block is
// rbfTestRows×n float64 (for n = 10,000: 164 MB).
var rbfTestRows = 2048

// Classes returns the number of classes k.
func (m *RBFRowsRLS) Classes() int { _, k := m.C.Dims(); return k }

// DecisionRows returns the r×k scores K(x, Z) C + 1 Bᵀ of the rows of x, the kernel
// computed rbfTestRows rows at a time from inner products accumulated over chunks of
// colChunk columns (the training rows are expanded once per block of rows). It panics
// if x does not have the training rows' number of columns, and returns ctx.Err() if
// cancelled.
func (m *RBFRowsRLS) DecisionRows(ctx context.Context, x Rows) (*mat.Dense, error) {
	rows, d := x.Dims()
	_, dt := m.train.Dims()
	if d != dt {
		panic(fmt.Sprintf("learn: input has %d columns, model expects %d", d, dt))
	}
	n, k := m.C.Dims()
	if rows == 0 {
		return &mat.Dense{}, ctx.Err()
	}
	out := mat.NewDense(rows, k, nil)
	w0 := min(colChunk, d)
	xt := make([]float64, n*w0)
	xs := make([]float64, min(rbfTestRows, rows)*w0)
	kb := make([]float64, min(rbfTestRows, rows)*n)
	tn := make([]float64, min(rbfTestRows, rows))
	for r0 := 0; r0 < rows; r0 += rbfTestRows {
		r1 := min(rows, r0+rbfTestRows)
		nr := r1 - r0
		clear(kb[:nr*n])
		clear(tn[:nr])
		for j0 := 0; j0 < d; j0 += colChunk {
			w := min(colChunk, d-j0)
			err := parallelBlocks(ctx, n, rowBlock, func(_, lo, hi int) error {
				for a := lo; a < hi; a++ {
					m.train.Span(xt[a*w:(a+1)*w], m.idx[a], j0)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			err = parallelBlocks(ctx, nr, rowBlock/4, func(_, lo, hi int) error {
				for i := lo; i < hi; i++ {
					row := xs[i*w : (i+1)*w]
					x.Span(row, r0+i, j0)
					for _, v := range row {
						tn[i] += v * v
					}
				}
				blas64.Gemm(blas.NoTrans, blas.Trans, 1,
					blas64.General{Rows: hi - lo, Cols: w, Stride: w, Data: xs[lo*w:]},
					blas64.General{Rows: n, Cols: w, Stride: w, Data: xt},
					1, blas64.General{Rows: hi - lo, Cols: n, Stride: n, Data: kb[lo*n:]})
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		or := out.RawMatrix()
		err := parallelBlocks(ctx, nr, rowBlock/4, func(_, lo, hi int) error {
			for i := lo; i < hi; i++ {
				row := kb[i*n : (i+1)*n]
				for a, g := range row {
					row[a] = math.Exp(-m.Gamma * max(0, tn[i]+m.norms[a]-2*g))
				}
				copy(or.Data[(r0+i)*or.Stride:(r0+i)*or.Stride+k], m.B)
			}
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
				blas64.General{Rows: hi - lo, Cols: n, Stride: n, Data: kb[lo*n:]}, m.C.RawMatrix(),
				1, blas64.General{Rows: hi - lo, Cols: k, Stride: or.Stride, Data: or.Data[(r0+lo)*or.Stride:]})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// PredictRows returns argmax_c of DecisionRows for each row of x (ties to the lower
// class).
func (m *RBFRowsRLS) PredictRows(ctx context.Context, x Rows) ([]int, error) {
	s, err := m.DecisionRows(ctx, x)
	if err != nil {
		return nil, err
	}
	return Argmax(s), nil
}
