package learn

import (
	"context"
	"fmt"
	"runtime"

	"gonum.org/v1/gonum/mat"

	"gitui/core/linalg"
)

// Classifier is a trained k-class classifier.
//
// The rows of x are inputs in the representation the model was trained on: feature
// vectors (m×D) for feature models, or kernel values against the n training samples
// (m×n, row i holding k(x_i, z_1..z_n)) for kernel models. Implementations panic on a
// column-count mismatch (a programmer error) and return ctx.Err() if ctx is cancelled.
type Classifier interface {
	// Classes returns the number of classes k; predicted labels lie in [0, k).
	Classes() int
	// Decision returns the m×k matrix of class scores of the rows of x; a larger score
	// means a more likely class.
	Decision(ctx context.Context, x *mat.Dense) (*mat.Dense, error)
	// Predict returns the predicted class of each row of x.
	Predict(ctx context.Context, x *mat.Dense) ([]int, error)
}

// OneVsAll returns the n×k target matrix of one-vs-all regression,
//
//	Y_ic = +1 if y_i = c, -1 otherwise.
//
// It returns an error naming the sample if a label lies outside [0, k), and panics if
// k < 2.
func OneVsAll(y []int, k int) (*mat.Dense, error) {
	if k < 2 {
		panic(fmt.Sprintf("learn: %d classes, need at least 2", k))
	}
	if err := checkLabels(y, k); err != nil {
		return nil, err
	}
	t := mat.NewDense(len(y), k, nil)
	raw := t.RawMatrix()
	for i, c := range y {
		row := raw.Data[i*raw.Stride : i*raw.Stride+k]
		for j := range row {
			row[j] = -1
		}
		row[c] = 1
	}
	return t, nil
}

// Argmax returns, for each row of s, the column index of its largest entry; ties go to
// the smallest index, and NaN entries are never chosen unless the whole row is NaN (then
// 0). It allocates a slice of length rows(s).
func Argmax(s mat.Matrix) []int {
	r, c := s.Dims()
	out := make([]int, r)
	for i := 0; i < r; i++ {
		best, arg := s.At(i, 0), 0
		for j := 1; j < c; j++ {
			if v := s.At(i, j); v > best || (best != best && v == v) {
				best, arg = v, j
			}
		}
		out[i] = arg
	}
	return out
}

// Accuracy returns the fraction of predictions equal to the true labels,
//
//	acc = #{i : pred_i = y_i} / n.
//
// It panics if the lengths differ and returns NaN for empty inputs.
func Accuracy(pred, y []int) float64 {
	if len(pred) != len(y) {
		panic(fmt.Sprintf("learn: %d predictions for %d labels", len(pred), len(y)))
	}
	if len(y) == 0 {
		return nanf()
	}
	hit := 0
	for i, p := range pred {
		if p == y[i] {
			hit++
		}
	}
	return float64(hit) / float64(len(y))
}

// BalancedAccuracy returns the mean per-class recall over the classes present in y,
//
//	bacc = 1/|C| sum_{c in C} #{i : y_i = c, pred_i = c} / #{i : y_i = c},
//
// where C is the set of labels that occur in y (absent classes are skipped, as
// scikit-learn's balanced_accuracy_score does). Labels must lie in [0, k). It panics if
// the lengths differ or a label is out of range, and returns NaN for empty inputs.
func BalancedAccuracy(pred, y []int, k int) float64 {
	if len(pred) != len(y) {
		panic(fmt.Sprintf("learn: %d predictions for %d labels", len(pred), len(y)))
	}
	if len(y) == 0 {
		return nanf()
	}
	count := make([]int, k)
	hit := make([]int, k)
	for i, c := range y {
		if c < 0 || c >= k {
			panic(fmt.Sprintf("learn: label %d of sample %d outside [0,%d)", c, i, k))
		}
		count[c]++
		if pred[i] == c {
			hit[c]++
		}
	}
	sum, present := 0.0, 0
	for c := range k {
		if count[c] > 0 {
			sum += float64(hit[c]) / float64(count[c])
			present++
		}
	}
	return sum / float64(present)
}

// ConfusionMatrix returns the k×k matrix whose entry (t, p) counts the samples of true
// class t predicted as p. It panics if the lengths differ or a label lies outside
// [0, k).
func ConfusionMatrix(pred, y []int, k int) [][]int {
	if len(pred) != len(y) {
		panic(fmt.Sprintf("learn: %d predictions for %d labels", len(pred), len(y)))
	}
	m := make([][]int, k)
	for i := range m {
		m[i] = make([]int, k)
	}
	for i, t := range y {
		p := pred[i]
		if t < 0 || t >= k || p < 0 || p >= k {
			panic(fmt.Sprintf("learn: sample %d has label %d and prediction %d, outside [0,%d)", i, t, p, k))
		}
		m[t][p]++
	}
	return m
}

// checkLabels returns an input error if a label lies outside [0, k).
func checkLabels(y []int, k int) error {
	for i, c := range y {
		if c < 0 || c >= k {
			return fmt.Errorf("label %d of sample %d is outside [0,%d): relabel classes as 0..%d", c, i, k, k-1)
		}
	}
	return nil
}

func nanf() float64 {
	var z float64
	return z / z
}

// parallelBlocks runs fn over the blocks [lo, hi) of [0, n) of size block on up to
// GOMAXPROCS goroutines (linalg.ParallelFor); b = lo/block is the block index. It
// returns ctx.Err() once cancelled, or the first error fn returned.
func parallelBlocks(ctx context.Context, n, block int, fn func(b, lo, hi int) error) error {
	return linalg.ParallelFor(ctx, n, block, func(lo, hi int) error { return fn(lo/block, lo, hi) })
}

// scratch is a pool of float64 buffers reused across the blocks of a parallel pass, so
// that a pass over n samples allocates about GOMAXPROCS buffers instead of one per
// block (a streaming primal fit of 60,000 samples allocated some 6 GB in 26 MB blocks).
// Safe for concurrent use; buffers beyond its capacity are left to the collector.
type scratch chan []float64

func newScratch() scratch { return make(scratch, 4*runtime.GOMAXPROCS(0)) }

// get returns a buffer of length n (contents undefined).
func (s scratch) get(n int) []float64 {
	select {
	case b := <-s:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	return make([]float64, n)
}

// put gives b back for reuse.
func (s scratch) put(b []float64) {
	select {
	case s <- b:
	default:
	}
}
