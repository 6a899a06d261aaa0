package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"gitui/core/linalg"
)

// RBFRowsRLS is kernel RLS with the Gaussian kernel on feature rows,
//
//	k(x, z) = exp(-Gamma ||f(x) - f(z)||²),   score_c(x) = sum_i k(x, z_i) C_ic + B_c,
//
// where f(z_1)..f(z_n) are the training rows it was fitted on (kept by reference, not
// copied) and class(x) = argmax_c score_c(x).
type RBFRowsRLS struct {
	C      *mat.Dense // n×k expansion coefficients; each column sums to zero
	B      []float64  // k intercepts
	Gamma  float64    // the kernel width used (given, or the median heuristic's)
	Info   RLSInfo
	train  Rows
	idx    []int
	mu     []float64  // every column's mean over the training rows (a constant column's value)
	chunks []rbfChunk // the kept (non-constant) columns in blocks
	kept   []int
	norms  []float64 // ||f(z_i) - mu||² over the kept columns
	f32    bool      // products in float32 (rbfFloat32 at fit time)
}

// RBFMedianPairs is the number of seeded pairs of training rows over which
// FitRBFRowsRLS takes the median squared distance when gamma is 0.
const RBFMedianPairs = 4000

// rbfFloat32 selects float32 inner products (accumulated in float64 across blocks of
// colChunk columns) for the training Gram matrix and the test kernel of the RBF fit,
// instead of float64 ones. The squared norms, the kernel values and the reduction stay
// float64 either way. It is on by default (float32 wherever accuracy allows): on MNIST
// CDF(10,1000) features the kernel moves by at most 1.5e-7 (2,000 digits, no
// prediction changes, model.TestRBFFloat32MNIST) and the scores by at most
// 3.8e-5 (5,000 digits: one of the 10,000 test predictions flips, a near-tie), while the
// products, most of a fit on features whose columns all vary (range thresholds: 21,000
// columns at m = 1000), run at about twice the rate.
var rbfFloat32 = true

// SetRBFFloat32 sets whether later FitRBFRowsRLS calls use float32 inner products
// (accumulated in float64 per block of columns; the default) or float64 ones, and
// returns the previous setting. The float32 path is about twice the GEMM rate (and the
// static build's AVX2 kernel instead of gonum's Dgemm) at the cost of rounding of
// relative size 1e-7 in the kernel; it must not be called while a fit runs.
func SetRBFFloat32(on bool) (prev bool) {
	prev, rbfFloat32 = rbfFloat32, on
	return prev
}

// FitRBFRowsRLS is FitKernelRLS with the Gaussian kernel exp(-gamma ||f(x) - f(z)||²)
// on the rows idx of f (sample a is row idx[a], label y[a]). Columns constant over
// those rows add nothing to a distance between them and are left out of the products;
// the others are centred on their training mean mu (distances are unchanged, and the
// cancellation in the expansion below is smaller):
//
//	K_ab = exp(-gamma (n_a + n_b - 2 G_ab)),   G_ab = (z_a - mu)ᵀ(z_b - mu),   n_a = ||z_a - mu||²,
//
// over the kept columns, with K_aa = 1 and negative rounding of a squared distance
// clipped to 0. The norms are float64; G is a float32 product per block of colChunk
// columns accumulated in float64 (the default: K then differs from the float64 formula
// by rounding of about 1e-7), or float64 after SetRBFFloat32(false). gamma 0
// picks the median heuristic gamma = 1 / (2 median_{a≠b} ||f(z_a) - f(z_b)||²), the
// median over RBFMedianPairs pairs drawn with a fixed seed (so a draw always gets the
// same gamma); it is an error if that median is 0. lambda is chosen by leave-one-out as
// in FitKernelRLS (or fixed by opt).
//
// Memory: one n×n float64 buffer holds G, then K, then its reduction and B (no copy of
// the rows: they are expanded colChunk kept columns at a time, n×colChunk in float64
// and twice in float32), plus the reduction's workspace. FitRBFRowsRLS panics if len(y) != len(idx), an index is out of range or
// k < 2; it returns FitKernelRLS's errors, an error naming a non-finite feature, and
// ctx.Err() if cancelled.
func FitRBFRowsRLS(ctx context.Context, f Rows, idx []int, y []int, k int, gamma float64, opt RLSOptions) (*RBFRowsRLS, error) {
	defer beginWork()()
	n := len(idx)
	rows, d := f.Dims()
	checkRowArgs(rows, idx, y, k)
	if err := checkRLSInput(y, k, opt); err != nil {
		return nil, err
	}
	if gamma < 0 || math.IsNaN(gamma) || math.IsInf(gamma, 0) {
		return nil, fmt.Errorf("rls: gamma = %v is invalid: use a finite gamma > 0, or 0 for the median heuristic", gamma)
	}
	kept, mu, err := scanRows(ctx, f, idx)
	if err != nil {
		return nil, err
	}
	m := &RBFRowsRLS{train: f, idx: slices.Clone(idx), mu: mu, kept: kept, chunks: rbfChunks(kept, d), f32: rbfFloat32}
	gram, norms, err := m.trainGram(ctx)
	if err != nil {
		return nil, err
	}
	m.norms = norms
	if gamma == 0 {
		med := medianSqDist(gram, norms, n)
		if !(med > 0) || math.IsInf(med, 0) {
			return nil, fmt.Errorf("rls: the median squared distance between training rows is %g: set gamma > 0", med)
		}
		gamma = 1 / (2 * med)
	}
	m.Gamma = gamma
	// K in place (upper triangle) and its row sums s = K 1 (for the intercept).
	sums := make([][]float64, (n+rowBlock-1)/rowBlock)
	err = parallelBlocks(ctx, n, rowBlock, func(blk, lo, hi int) error {
		s := make([]float64, n)
		for a := lo; a < hi; a++ {
			row := gram[a*n+a : (a+1)*n]
			row[0] = 1 // distance 0
			s[a]++
			for j := 1; j < len(row); j++ {
				row[j] = math.Exp(-gamma * max(0, norms[a]+norms[a+j]-2*row[j]))
				s[a] += row[j]
				s[a+j] += row[j]
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
	m.C, m.B, m.Info = c, b, info
	return m, nil
}

// rbfChunk is a block of kept columns, kept[c0:c1], which covers the input columns
// [j0, j1): the chunks' ranges partition [0, D), so every constant column of a test row
// is counted in exactly one chunk.
type rbfChunk struct{ c0, c1, j0, j1 int }

// rbfChunks splits the kept columns (ascending, of D) into blocks of colChunk. With no
// kept column it returns one empty chunk covering [0, D).
func rbfChunks(kept []int, d int) []rbfChunk {
	if len(kept) == 0 {
		return []rbfChunk{{0, 0, 0, d}}
	}
	var out []rbfChunk
	for c0 := 0; c0 < len(kept); c0 += colChunk {
		c1 := min(len(kept), c0+colChunk)
		ch := rbfChunk{c0: c0, c1: c1, j0: kept[c0], j1: d}
		if c0 == 0 {
			ch.j0 = 0
		}
		if c1 < len(kept) {
			ch.j1 = kept[c1]
		}
		out = append(out, ch)
	}
	return out
}

// expand writes the centred kept columns of chunk ch of rows row(0)..row(r-1) of f into
// x (r×w row-major, w = c1-c0) and adds to sq[a] the sum over every column of the
// chunk's range of (f_j - mu_j)² (for a training row the constant columns add exact
// zeros; for a test row they add its distance to the training rows' common value).
func (m *RBFRowsRLS) expand(ctx context.Context, f Rows, row func(a int) int, r int, ch rbfChunk, x, sq []float64) error {
	w := ch.c1 - ch.c0
	kept, mu := m.kept[ch.c0:ch.c1], m.mu[ch.j0:ch.j1]
	return parallelBlocks(ctx, r, rowBlock, func(_, lo, hi int) error {
		buf := make([]float64, ch.j1-ch.j0)
		for a := lo; a < hi; a++ {
			f.Span(buf, row(a), ch.j0)
			dst := x[a*w : (a+1)*w]
			s, c := 0.0, 0
			for j, v := range buf {
				v -= mu[j]
				s += v * v
				if c < w && kept[c] == ch.j0+j {
					dst[c] = v
					c++
				}
			}
			sq[a] += s
		}
		return nil
	})
}

// f32Pool holds float32 product buffers of the RBF passes.
var f32Pool sync.Pool

func getF32(n int) *[]float32 {
	if p, ok := f32Pool.Get().(*[]float32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]float32, n)
	return &b
}

// addProducts adds A Bᵀ to dst (r×nb row-major float64, stride ldd) for A = rows lo..hi
// of a (w columns) and B the operand pb (float32 path: a32 holds a in float32) or
// b64 (rows j0.. of the n×w float64 b).
func addProducts(a64 []float64, a32 []float32, w int, pb *linalg.PackedB, b64 blas64.General, dst []float64, r, ldd int) {
	if pb == nil {
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, blas64.General{Rows: r, Cols: w, Stride: w, Data: a64},
			b64, 1, blas64.General{Rows: r, Cols: b64.Rows, Stride: ldd, Data: dst})
		return
	}
	nb, _ := pb.Dims()
	tp := getF32(r * nb)
	defer f32Pool.Put(tp)
	t := *tp
	pb.MulNT(r, a32, w, t, nb)
	for i := range r {
		d, s := dst[i*ldd:i*ldd+nb], t[i*nb:(i+1)*nb]
		for j, v := range s {
			d[j] += float64(v)
		}
	}
}

// trainGram returns the upper triangle of the n×n matrix G of inner products of the
// centred kept columns of the training rows (row-major; lower triangle zero) and the
// squared norms n_a, accumulated over the chunks in order (disjoint row blocks per
// chunk: reproducible).
func (m *RBFRowsRLS) trainGram(ctx context.Context) ([]float64, []float64, error) {
	n := len(m.idx)
	gram := make([]float64, n*n)
	norms := make([]float64, n)
	w0 := min(colChunk, len(m.kept))
	x := make([]float64, n*w0)
	var x32, xp []float32
	if m.f32 {
		x32, xp = make([]float32, n*w0), make([]float32, n*w0)
	}
	row := func(a int) int { return m.idx[a] }
	for _, ch := range m.chunks {
		w := ch.c1 - ch.c0
		if err := m.expand(ctx, m.train, row, n, ch, x, norms); err != nil {
			return nil, nil, err
		}
		if w == 0 {
			continue
		}
		var pb *linalg.PackedB
		if m.f32 {
			linalg.ToFloat32(x32[:n*w], x[:n*w])
			copy(xp, x32[:n*w])
			p := linalg.PackB(n, w, xp[:n*w], w)
			pb = &p
		}
		// gram[lo:hi, lo:n] += X[lo:hi] X[lo:n]ᵀ: disjoint rows of gram per block.
		err := parallelBlocks(ctx, n, rowBlock, func(_, lo, hi int) error {
			var a32 []float32
			var tail *linalg.PackedB
			if pb != nil {
				a32 = x32[lo*w : hi*w]
				t := pb.Tail(lo)
				tail = &t
			}
			addProducts(x[lo*w:hi*w], a32, w, tail, blas64.General{Rows: n - lo, Cols: w, Stride: w, Data: x[lo*w:]},
				gram[lo*n+lo:], hi-lo, n)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return gram, norms, nil
}

// medianSqDist returns the median of n_a + n_b - 2 G_ab over RBFMedianPairs pairs
// a ≠ b drawn with a fixed seed from the upper triangle of the n×n matrix g.
func medianSqDist(g, norms []float64, n int) float64 {
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
		d[p] = max(0, norms[a]+norms[b]-2*g[a*n+b])
	}
	slices.Sort(d)
	return (d[(len(d)-1)/2] + d[len(d)/2]) / 2
}

// rbfTestRows is the number of rows DecisionRows scores at a time: the kernel block is
// rbfTestRows×n float64 (for n = 10,000: 164 MB).
var rbfTestRows = 2048

// KeptColumns returns the number of feature columns that vary over the training rows:
// the width of the model's products (the other columns enter a distance only through
// a test row's own constant term).
func (m *RBFRowsRLS) KeptColumns() int { return len(m.kept) }

// Classes returns the number of classes k.
func (m *RBFRowsRLS) Classes() int { _, k := m.C.Dims(); return k }

// DecisionRows returns the r×k scores K(x, Z) C + 1 Bᵀ of the rows of x, the kernel
// computed rbfTestRows rows at a time from the same centred kept-column products as the
// fit (float32 products accumulated in float64 when the model was fitted with
// rbfFloat32), plus each test row's exact float64 sum of (x_j - mu_j)² over the
// columns constant in training. The training rows are expanded once per block of rows.
// It panics if x does not have the training rows' number of columns, and returns
// ctx.Err() if cancelled.
func (m *RBFRowsRLS) DecisionRows(ctx context.Context, x Rows) (*mat.Dense, error) {
	defer beginWork()()
	rows, _ := x.Dims()
	n, k := m.C.Dims()
	if rows == 0 {
		return &mat.Dense{}, ctx.Err()
	}
	out := mat.NewDense(rows, k, nil)
	or := out.RawMatrix()
	err := m.kernelRows(ctx, x, func(r0, nr int, kb []float64) error {
		return parallelBlocks(ctx, nr, rowBlock/4, func(_, lo, hi int) error {
			for i := lo; i < hi; i++ {
				copy(or.Data[(r0+i)*or.Stride:(r0+i)*or.Stride+k], m.B)
			}
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
				blas64.General{Rows: hi - lo, Cols: n, Stride: n, Data: kb[lo*n:]}, m.C.RawMatrix(),
				1, blas64.General{Rows: hi - lo, Cols: k, Stride: or.Stride, Data: or.Data[(r0+lo)*or.Stride:]})
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// kernelRows calls fn with the kernel rows k(x_i, z_a), a = 0..n-1 over the training
// rows z, of rows r0 .. r0+nr-1 of x, for blocks of up to rbfTestRows rows in order:
// kb is nr×n row-major (reused between calls). The products are those of the fit
// (float32 accumulated in float64 per block of colChunk columns when m.f32); the
// squared norms are float64 and include each row of x's exact distance on the columns
// constant in training. It panics if x does not have the training rows' number of
// columns, and returns ctx.Err() if cancelled or fn's error.
func (m *RBFRowsRLS) kernelRows(ctx context.Context, x Rows, fn func(r0, nr int, kb []float64) error) error {
	rows, d := x.Dims()
	_, dt := m.train.Dims()
	if d != dt {
		panic(fmt.Sprintf("learn: input has %d columns, model expects %d", d, dt))
	}
	n := len(m.idx)
	w0 := min(colChunk, len(m.kept))
	br := min(rbfTestRows, rows)
	xt := make([]float64, n*w0)
	xs := make([]float64, br*w0)
	var xt32, xs32 []float32
	if m.f32 {
		xt32, xs32 = make([]float32, n*w0), make([]float32, br*w0)
	}
	kb := make([]float64, br*n)
	tn := make([]float64, br)
	trainNorms := make([]float64, n) // discarded: m.norms holds them
	trow := func(a int) int { return m.idx[a] }
	for r0 := 0; r0 < rows; r0 += rbfTestRows {
		r1 := min(rows, r0+rbfTestRows)
		nr := r1 - r0
		clear(kb[:nr*n])
		clear(tn[:nr])
		for _, ch := range m.chunks {
			w := ch.c1 - ch.c0
			if w > 0 {
				if err := m.expand(ctx, m.train, trow, n, rbfChunk{ch.c0, ch.c1, m.kept[ch.c0], m.kept[ch.c1-1] + 1}, xt, trainNorms); err != nil {
					return err
				}
			}
			if err := m.expand(ctx, x, func(i int) int { return r0 + i }, nr, ch, xs, tn); err != nil {
				return err
			}
			if w == 0 {
				continue
			}
			var pb *linalg.PackedB
			if m.f32 {
				linalg.ToFloat32(xt32[:n*w], xt[:n*w])
				linalg.ToFloat32(xs32[:nr*w], xs[:nr*w])
				p := linalg.PackB(n, w, xt32[:n*w], w)
				pb = &p
			}
			bt := blas64.General{Rows: n, Cols: w, Stride: w, Data: xt}
			err := parallelBlocks(ctx, nr, rowBlock/4, func(_, lo, hi int) error {
				var a32 []float32
				if pb != nil {
					a32 = xs32[lo*w : hi*w]
				}
				addProducts(xs[lo*w:hi*w], a32, w, pb, bt, kb[lo*n:], hi-lo, n)
				return nil
			})
			if err != nil {
				return err
			}
		}
		err := parallelBlocks(ctx, nr, rowBlock/4, func(_, lo, hi int) error {
			for i := lo; i < hi; i++ {
				row := kb[i*n : (i+1)*n]
				for a, g := range row {
					row[a] = math.Exp(-m.Gamma * max(0, tn[i]+m.norms[a]-2*g))
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := fn(r0, nr, kb[:nr*n]); err != nil {
			return err
		}
	}
	return nil
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
