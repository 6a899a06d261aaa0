package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// NN is a 1-nearest-neighbour classifier under the Euclidean distance,
//
//	class(x) = y_j*,   j* uniform among argmin_j ||x - z_j||²,
//
// with ties (distances equal to within rounding, see Neighbours) broken uniformly at
// random, not by training order (FINDINGS.md: 1-NN on 0/1 vectors has many ties).
// Distances come from one matrix product per row block,
//
//	||x - z||² = ||x||² + ||z||² - 2 xᵀz.
//
// NN keeps x by reference: do not modify it while the model is in use. Predict,
// Decision and Neighbours draw from the model's *rand.Rand and so must not be called
// concurrently on the same NN.
type NN struct {
	x     *mat.Dense
	y     []int
	k     int
	norms []float64
	rng   *rand.Rand
}

// NewNN returns a 1-NN classifier on the n×d training samples x with labels y in
// [0, k), breaking ties with rng. It panics if len(y) != n, n == 0, k < 1 or rng is
// nil, and returns an error if a label is out of range or a sample is not finite.
func NewNN(x *mat.Dense, y []int, k int, rng *rand.Rand) (*NN, error) {
	n, _ := x.Dims()
	checkNNArgs(n, len(y), k, rng)
	if err := checkLabels(y, k); err != nil {
		return nil, fmt.Errorf("nn: %w", err)
	}
	norms := make([]float64, n)
	for i := range n {
		row := x.RawRowView(i)
		s := 0.0
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("nn: feature %d of sample %d is %v: remove or impute non-finite values", j, i, v)
			}
			s += v * v
		}
		norms[i] = s
	}
	return &NN{x: x, y: y, k: k, norms: norms, rng: rng}, nil
}

// KernelNN is a 1-nearest-neighbour classifier in the feature space of a kernel, from
// precomputed kernel values,
//
//	d²(x, z) = k(x,x) + k(z,z) - 2 k(x,z),
//
// with random tie-breaking as in NN. Its inputs are the rows k(x, z_1..z_n) of a cross
// kernel against the n training samples. Since k(x,x) is the same for every candidate
// z, it is not needed to find the neighbour. The same concurrency rule as NN applies.
type KernelNN struct {
	diag []float64
	y    []int
	k    int
	rng  *rand.Rand
}

// NewKernelNN returns a kernel 1-NN classifier from the training diagonal
// diag_j = k(z_j, z_j) and labels y in [0, k), breaking ties with rng. It panics if
// len(diag) != len(y), the sample is empty, k < 1 or rng is nil, and returns an error
// if a label is out of range or a diagonal entry is not finite.
func NewKernelNN(diag []float64, y []int, k int, rng *rand.Rand) (*KernelNN, error) {
	checkNNArgs(len(diag), len(y), k, rng)
	if err := checkLabels(y, k); err != nil {
		return nil, fmt.Errorf("nn: %w", err)
	}
	for j, v := range diag {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("nn: kernel diagonal entry %d is %v: remove or impute non-finite inputs", j, v)
		}
	}
	return &KernelNN{diag: append([]float64(nil), diag...), y: y, k: k, rng: rng}, nil
}

func checkNNArgs(n, ny, k int, rng *rand.Rand) {
	if ny != n {
		panic(fmt.Sprintf("nn: %d labels for %d training samples", ny, n))
	}
	if n == 0 {
		panic("nn: empty training set")
	}
	if k < 1 {
		panic(fmt.Sprintf("nn: %d classes", k))
	}
	if rng == nil {
		panic("nn: nil *rand.Rand: pass rand.New(rand.NewPCG(seed, stream))")
	}
}

// Classes returns the number of classes k.
func (m *NN) Classes() int { return m.k }

// Neighbours returns, for each row of x (m×d), the index of its nearest training
// sample. Candidates whose squared distance is within
//
//	tol = 2 (sqrt(d) + 4) eps max_j (||z_j||² + 2 |xᵀz_j|)
//
// of the smallest count as tied (the rounding error of the matrix-product form), and
// one of them is chosen uniformly at random. Results depend only on the state of the
// model's rng, not on GOMAXPROCS. It panics if x does not have d columns and returns
// ctx.Err() if cancelled.
func (m *NN) Neighbours(ctx context.Context, x *mat.Dense) ([]int, error) {
	idx, _, err := m.search(ctx, x, false)
	return idx, err
}

// Predict returns the label of the nearest training sample of each row of x, as
// chosen by Neighbours.
func (m *NN) Predict(ctx context.Context, x *mat.Dense) ([]int, error) {
	idx, _, err := m.search(ctx, x, false)
	if err != nil {
		return nil, err
	}
	return labelsOf(idx, m.y), nil
}

// Decision returns the m×k scores
//
//	S_ic = -min_{j : y_j = c} ||x_i - z_j||²
//
// (clamped so that squared distances are >= 0; -Inf for a class with no training
// sample). The class Predict returns always has the largest score, but equal scores
// are resolved at random by Predict and towards the lower class by Argmax.
func (m *NN) Decision(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	_, s, err := m.search(ctx, x, true)
	return s, err
}

func (m *NN) search(ctx context.Context, x *mat.Dense, scores bool) ([]int, *mat.Dense, error) {
	rows, d := x.Dims()
	n, dz := m.x.Dims()
	if d != dz {
		panic(fmt.Sprintf("nn: input has %d columns, training samples %d", d, dz))
	}
	zr, xr := m.x.RawMatrix(), x.RawMatrix()
	cross := func(lo, hi int, g []float64) {
		blas64.Gemm(blas.NoTrans, blas.Trans, 1,
			blas64.General{Rows: hi - lo, Cols: d, Stride: xr.Stride, Data: xr.Data[lo*xr.Stride:]},
			zr, 0, blas64.General{Rows: hi - lo, Cols: n, Stride: n, Data: g})
	}
	xx := func(i int) float64 {
		s := 0.0
		for _, v := range xr.Data[i*xr.Stride : i*xr.Stride+d] {
			s += v * v
		}
		return s
	}
	return nearest(ctx, rows, n, m.k, m.norms, m.y, m.rng, cross, 2*(math.Sqrt(float64(d))+4), xx, scores)
}

// Classes returns the number of classes k.
func (m *KernelNN) Classes() int { return m.k }

// Neighbours returns, for each row of kx (m×n, row i holding k(x_i, z_1..z_n)), the
// index of the nearest training sample in feature space. Candidates whose value of
// k(z,z) - 2 k(x,z) is within tol = 8 eps max_j (|k(z_j,z_j)| + 2 |k(x,z_j)|) of the
// smallest count as tied, and one is chosen uniformly at random. It panics if kx does
// not have n columns and returns ctx.Err() if cancelled.
func (m *KernelNN) Neighbours(ctx context.Context, kx *mat.Dense) ([]int, error) {
	idx, _, err := m.search(ctx, kx, false)
	return idx, err
}

// Predict returns the label of the nearest training sample of each row of kx, as
// chosen by Neighbours.
func (m *KernelNN) Predict(ctx context.Context, kx *mat.Dense) ([]int, error) {
	idx, _, err := m.search(ctx, kx, false)
	if err != nil {
		return nil, err
	}
	return labelsOf(idx, m.y), nil
}

// Decision returns the m×k scores
//
//	S_ic = -min_{j : y_j = c} (k(z_j,z_j) - 2 k(x_i,z_j)) = k(x_i,x_i) - min_j d²(x_i, z_j),
//
// the negative squared feature-space distance shifted by the row constant k(x_i,x_i),
// which the cross kernel does not carry (-Inf for a class with no training sample).
func (m *KernelNN) Decision(ctx context.Context, kx *mat.Dense) (*mat.Dense, error) {
	_, s, err := m.search(ctx, kx, true)
	return s, err
}

func (m *KernelNN) search(ctx context.Context, kx *mat.Dense, scores bool) ([]int, *mat.Dense, error) {
	rows, n := kx.Dims()
	if n != len(m.diag) {
		panic(fmt.Sprintf("nn: cross kernel has %d columns, training set %d samples", n, len(m.diag)))
	}
	kr := kx.RawMatrix()
	cross := func(lo, hi int, g []float64) {
		for i := lo; i < hi; i++ {
			copy(g[(i-lo)*n:(i-lo+1)*n], kr.Data[i*kr.Stride:i*kr.Stride+n])
		}
	}
	return nearest(ctx, rows, n, m.k, m.diag, m.y, m.rng, cross, 8, nil, scores)
}

func labelsOf(idx, y []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}

// nearest finds, for each of rows inputs, the training index j minimising
// s_j = zz_j - 2 g_j, where cross fills the block of inner products g (rows lo..hi, n
// columns). Ties within tolFactor·eps·max_j(|zz_j| + 2|g_j|) are broken uniformly with
// a per-block generator seeded from rng in block order (deterministic for a given rng
// state, whatever the number of goroutines). With scores, it also returns the per-class
// minima as -(s + xx(i)) (xx nil means 0), clamped for xx != nil so distances are >= 0.
func nearest(ctx context.Context, rows, n, k int, zz []float64, y []int, rng *rand.Rand,
	cross func(lo, hi int, g []float64), tolFactor float64, xx func(i int) float64, scores bool) ([]int, *mat.Dense, error) {
	idx := make([]int, rows)
	var sc *mat.Dense
	if rows == 0 {
		return idx, &mat.Dense{}, ctx.Err()
	}
	if scores {
		sc = mat.NewDense(rows, k, nil)
	}
	zzmax := 0.0
	for _, v := range zz {
		zzmax = math.Max(zzmax, math.Abs(v))
	}
	block := max(1, min(256, (1<<20)/n)) // at most 8 MiB of inner products per block
	nb := (rows + block - 1) / block
	seeds := make([]uint64, 2*nb)
	for i := range seeds {
		seeds[i] = rng.Uint64()
	}
	err := parallelBlocks(ctx, rows, block, func(b, lo, hi int) error {
		g := make([]float64, (hi-lo)*n)
		cross(lo, hi, g)
		r := rand.New(rand.NewPCG(seeds[2*b], seeds[2*b+1]))
		var cmin []float64
		if scores {
			cmin = make([]float64, k)
		}
		for i := lo; i < hi; i++ {
			gi := g[(i-lo)*n : (i-lo+1)*n]
			smin, scale := math.Inf(1), zzmax
			for j, v := range gi {
				s := zz[j] - 2*v
				gi[j] = s
				smin = math.Min(smin, s)
				scale = math.Max(scale, zzmax+2*math.Abs(v))
			}
			tol := tolFactor * machEps * scale
			ties := 0
			for _, s := range gi {
				if s <= smin+tol {
					ties++
				}
			}
			pick := 0
			if ties > 1 {
				pick = r.IntN(ties)
			}
			for j, s := range gi {
				if s <= smin+tol {
					if pick == 0 {
						idx[i] = j
						break
					}
					pick--
				}
			}
			if !scores {
				continue
			}
			for c := range cmin {
				cmin[c] = math.Inf(1)
			}
			for j, s := range gi {
				if s < cmin[y[j]] {
					cmin[y[j]] = s
				}
			}
			off := 0.0
			if xx != nil {
				off = xx(i)
			}
			row := sc.RawRowView(i)
			for c, s := range cmin {
				d2 := s + off
				if xx != nil && d2 < 0 {
					d2 = 0
				}
				row[c] = -d2
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return idx, sc, nil
}

var (
	_ Classifier = (*NN)(nil)
	_ Classifier = (*KernelNN)(nil)
)
