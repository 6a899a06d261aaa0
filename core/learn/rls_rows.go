package learn

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Rows is a read-only r×c matrix whose entries are copied out as float64 on demand:
// features held in a compact form (core/feature.Counts) or a *mat.Dense (DenseRows).
// Span must be safe for concurrent calls.
type Rows interface {
	// Dims returns the number of rows and columns.
	Dims() (r, c int)
	// Span copies the entries (i, j0) .. (i, j0+len(dst)-1) into dst.
	Span(dst []float64, i, j0 int)
}

// DenseRows is a *mat.Dense read as Rows.
type DenseRows struct{ M *mat.Dense }

// Dims returns the dimensions of the matrix.
func (d DenseRows) Dims() (r, c int) { return d.M.Dims() }

// Span copies the entries (i, j0) .. (i, j0+len(dst)-1) into dst.
func (d DenseRows) Span(dst []float64, i, j0 int) { copy(dst, d.M.RawRowView(i)[j0:j0+len(dst)]) }

// colChunk is the number of columns a streaming pass expands at a time (for n = 10,000
// samples: 40 MB of float64).
const colChunk = 512

// FitRLSRows is FitRLS on the rows idx of f (sample a is row idx[a], label y[a]),
// without copying them into a dense matrix first. It solves the same problem with the
// same forms and the same leave-one-out selection; only the order of floating-point
// sums differs, so the model agrees with FitRLS on the dense rows to rounding.
//
// Memory, besides the D×k model, for n = len(idx) samples and D' non-constant features
// (rows are expanded to float64 a block at a time, never all at once):
//   - dual form (D' > n-1): one n×n float64 buffer for the Gram matrix, its reduction
//     and B (the Gram matrix F_c F_cᵀ is accumulated over chunks of colChunk columns,
//     expanded n×colChunk at a time; the weights F_cᵀ c likewise), plus the workspace
//     of the reduction;
//   - primal form (D' <= n-1): one D'×D' buffer for the covariance F_cᵀ F_c (accumulated
//     over chunks of rowChunk samples, expanded rowChunk×D' at a time) and its
//     reduction; the rows of B = F_c Q are recomputed a block at a time where the
//     leave-one-out path needs them, so memory does not grow with n beyond O(n k);
//   - grouped form (few distinct rows): the rows are copied into a dense n×D matrix
//     and FitRLS fits them.
//
// Every sum runs in a fixed order (parallel work writes disjoint outputs), so a fit is
// reproducible bit for bit. FitRLSRows panics if len(y) != len(idx), an index is out
// of range or k < 2, and returns FitRLS's errors.
func FitRLSRows(ctx context.Context, f Rows, idx []int, y []int, k int, opt RLSOptions) (*LinearRLS, error) {
	defer beginWork()()
	n := len(idx)
	rows, d := f.Dims()
	checkRowArgs(rows, idx, y, k)
	if err := checkRLSInput(y, k, opt); err != nil {
		return nil, err
	}
	kept, mu, err := scanRows(ctx, f, idx)
	if err != nil {
		return nil, err
	}
	dk := len(kept)
	if dk == 0 {
		return nil, fmt.Errorf("rls: all %d features are constant over the %d samples: %w; check the feature map", d, n, ErrNothingToLearn)
	}
	g, err := groupRowsOf(ctx, n, kept, d, func(a int, buf []float64) []float64 {
		f.Span(buf, idx[a], 0)
		return buf
	})
	if err != nil {
		return nil, err
	}
	form := opt.Form
	if form == FormAuto {
		switch u := len(g.rep); {
		case float64(u) < groupedFraction*float64(min(dk, n-1)):
			form = FormGrouped
		case dk <= n-1:
			form = FormPrimal
		default:
			form = FormDual
		}
	}
	if form == FormGrouped {
		x := mat.NewDense(n, d, nil)
		for a, i := range idx {
			f.Span(x.RawRowView(a), i, 0)
		}
		o := opt
		o.Form = FormGrouped
		return FitRLS(ctx, x, y, k, o)
	}
	yt, ybar := targets(y, k)
	p := &looProblem{dual: form == FormDual, n: n, y: yt, k: k, ybar: ybar, labels: y}
	muk := make([]float64, dk)
	for j, col := range kept {
		muk[j] = mu[col]
	}
	if form == FormPrimal {
		if err := p.streamPrimal(ctx, f, idx, kept, muk); err != nil {
			return nil, err
		}
	} else {
		gram, err := rowsGram(ctx, f, idx, mu)
		if err != nil {
			return nil, err
		}
		p.dualGram(gram)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	info, sigma, err := selectLambda(ctx, p, opt)
	if err != nil {
		return nil, err
	}
	info.Form, info.Kept, info.Groups = form, dk, len(g.rep)
	z, ok := p.coef(sigma)
	if !ok {
		return nil, fmt.Errorf("rls: eigendecomposition failed to converge at lambda %g: use a lambda > 0", info.Lambda)
	}
	var wk []float64
	if form == FormPrimal {
		wk = make([]float64, dk*k)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blasGeneral(p.t.q, dk, dk), blasGeneral(z, dk, k), 0, blasGeneral(wk, dk, k))
	} else {
		// c = B z, w = F_cᵀ c over column chunks (constant columns get exact zeros).
		c := make([]float64, n*k)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blasGeneral(p.b, n, n-1), blasGeneral(z, n-1, k), 0, blasGeneral(c, n, k))
		p.b = nil
		wall := make([]float64, d*k)
		j0 := 0
		err := centredChunks(ctx, f, idx, mu, func(x blas64.General) error {
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, x, blasGeneral(c, n, k), 0, blasGeneral(wall[j0*k:(j0+x.Cols)*k], x.Cols, k))
			j0 += x.Cols
			return nil
		})
		if err != nil {
			return nil, err
		}
		wk = make([]float64, dk*k)
		for j, col := range kept {
			copy(wk[j*k:(j+1)*k], wall[col*k:(col+1)*k])
		}
	}
	return linearModel(d, kept, muk, wk, ybar, info), nil
}

// rowChunk is the number of samples a streaming primal pass expands at a time.
const rowChunk = 1024

// streamPrimal sets the primal problem of the centred kept columns of the rows idx of
// f without holding them: the covariance C = F_cᵀ F_c and F_cᵀ Y accumulate over
// chunks of rowChunk rows in sample order (each chunk's product spread over row blocks
// of C, disjoint outputs: the sums are reproducible), C is reduced in place, BᵀY =
// Qᵀ F_cᵀ Y, and p.brows recomputes rows of B = F_c Q on demand.
func (p *looProblem) streamPrimal(ctx context.Context, f Rows, idx, kept []int, muk []float64) error {
	n, k, dk := p.n, p.k, len(kept)
	_, d := f.Dims()
	// centred expands the kept columns of samples lo..hi, centred, into dst.
	centred := func(lo, hi int, dst, buf []float64) {
		for a := lo; a < hi; a++ {
			f.Span(buf, idx[a], 0)
			out := dst[(a-lo)*dk : (a-lo+1)*dk]
			for j, col := range kept {
				out[j] = buf[col] - muk[j]
			}
		}
	}
	cov := make([]float64, dk*dk)
	fty := make([]float64, dk*k)
	xc := make([]float64, min(rowChunk, n)*dk)
	for c0 := 0; c0 < n; c0 += rowChunk {
		c1 := min(n, c0+rowChunk)
		m := c1 - c0
		x := blasGeneral(xc[:m*dk], m, dk)
		err := parallelBlocks(ctx, m, rowBlock, func(_, lo, hi int) error {
			centred(c0+lo, c0+hi, xc[lo*dk:hi*dk], make([]float64, d))
			return nil
		})
		if err != nil {
			return err
		}
		// cov[lo:hi, lo:dk] += X[:, lo:hi]ᵀ X[:, lo:dk].
		err = parallelBlocks(ctx, dk, rowBlock, func(_, lo, hi int) error {
			blas64.Gemm(blas.Trans, blas.NoTrans, 1,
				blas64.General{Rows: m, Cols: hi - lo, Stride: dk, Data: x.Data[lo:]},
				blas64.General{Rows: m, Cols: dk - lo, Stride: dk, Data: x.Data[lo:]},
				1, blas64.General{Rows: hi - lo, Cols: dk - lo, Stride: dk, Data: cov[lo*dk+lo:]})
			return nil
		})
		if err != nil {
			return err
		}
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, x, blasGeneral(p.y[c0*k:c1*k], m, k), 1, blasGeneral(fty, dk, k))
	}
	p.scale = maxDiag(cov, dk)
	p.t = reduce(cov, dk)
	p.r = dk
	if err := ctx.Err(); err != nil {
		return err
	}
	p.btyc = make([]float64, dk*k)
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, blasGeneral(p.t.q, dk, dk), blasGeneral(fty, dk, k), 0, blasGeneral(p.btyc, dk, k))
	bufs := newScratch()
	p.brows = func(lo, hi int, dst []float64) {
		tmp, row := bufs.get((hi-lo)*dk), bufs.get(d)
		centred(lo, hi, tmp, row)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blasGeneral(tmp, hi-lo, dk), blasGeneral(p.t.q, dk, dk), 0, blasGeneral(dst, hi-lo, dk))
		bufs.put(tmp)
		bufs.put(row)
	}
	return nil
}

// checkRowArgs panics unless len(y) == len(idx), every index lies in [0, rows) and
// k >= 2: the contract of the fits on Rows.
func checkRowArgs(rows int, idx, y []int, k int) {
	n := len(idx)
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
}

// scanRows returns the non-constant columns of the rows idx of f and every column's
// mean (the exact common value for a constant column, so that centring gives exact
// zeros there). It returns an error naming the first non-finite entry.
func scanRows(ctx context.Context, f Rows, idx []int) (kept []int, mu []float64, err error) {
	n := len(idx)
	_, d := f.Dims()
	first := make([]float64, d)
	f.Span(first, idx[0], 0)
	nb := (n + rowBlock - 1) / rowBlock
	sums := make([][]float64, nb)
	varies := make([][]bool, nb)
	bad := make([]error, nb)
	err = parallelBlocks(ctx, n, rowBlock, func(b, lo, hi int) error {
		buf := make([]float64, d)
		s := make([]float64, d)
		v := make([]bool, d)
		for a := lo; a < hi; a++ {
			f.Span(buf, idx[a], 0)
			for j, x := range buf {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					if bad[b] == nil {
						bad[b] = fmt.Errorf("rls: feature %d of sample %d is %v: remove or impute non-finite values", j, a, x)
					}
					continue
				}
				s[j] += x
				if x != first[j] {
					v[j] = true
				}
			}
		}
		sums[b], varies[b] = s, v
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for _, e := range bad { // the first bad sample in sample order
		if e != nil {
			return nil, nil, e
		}
	}
	mu = make([]float64, d)
	for j := range d {
		vj := false
		for b := range nb {
			mu[j] += sums[b][j]
			vj = vj || varies[b][j]
		}
		if vj {
			kept = append(kept, j)
			mu[j] /= float64(n)
		} else {
			mu[j] = first[j]
		}
	}
	return kept, mu, nil
}

// centredChunks calls fn with the centred columns [j0, j0+w) of the rows idx of f,
// n×w (w <= colChunk), for j0 = 0, colChunk, ... in order; the buffer is reused.
func centredChunks(ctx context.Context, f Rows, idx []int, mu []float64, fn func(x blas64.General) error) error {
	n := len(idx)
	_, d := f.Dims()
	buf := make([]float64, n*min(colChunk, d))
	for j0 := 0; j0 < d; j0 += colChunk {
		w := min(colChunk, d-j0)
		x := blas64.General{Rows: n, Cols: w, Stride: w, Data: buf[:n*w]}
		err := parallelBlocks(ctx, n, rowBlock, func(_, lo, hi int) error {
			m := mu[j0 : j0+w]
			for a := lo; a < hi; a++ {
				row := x.Data[a*w : (a+1)*w]
				f.Span(row, idx[a], j0)
				for j := range row {
					row[j] -= m[j]
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := fn(x); err != nil {
			return err
		}
	}
	return nil
}

// DecisionRows returns the r×k scores X W + 1 bᵀ of the rows of x, expanded a block of
// rows at a time (memory: GOMAXPROCS blocks of 256 rows). It panics if x does not have
// D columns and returns ctx.Err() if cancelled.
func (m *LinearRLS) DecisionRows(ctx context.Context, x Rows) (*mat.Dense, error) {
	defer beginWork()()
	rows, cols := x.Dims()
	d, k := m.W.Dims()
	if cols != d {
		panic(fmt.Sprintf("learn: input has %d columns, model expects %d", cols, d))
	}
	if rows == 0 {
		return &mat.Dense{}, ctx.Err()
	}
	out := mat.NewDense(rows, k, nil)
	or := out.RawMatrix()
	err := parallelBlocks(ctx, rows, rowBlock, func(_, lo, hi int) error {
		xb := make([]float64, (hi-lo)*d)
		for i := lo; i < hi; i++ {
			x.Span(xb[(i-lo)*d:(i-lo+1)*d], i, 0)
		}
		ob := blas64.General{Rows: hi - lo, Cols: k, Stride: or.Stride, Data: or.Data[lo*or.Stride:]}
		for i := 0; i < hi-lo; i++ {
			copy(ob.Data[i*ob.Stride:i*ob.Stride+k], m.B)
		}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blasGeneral(xb, hi-lo, d), m.W.RawMatrix(), 1, ob)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PredictRows returns argmax_c of DecisionRows for each row of x (ties to the lower
// class).
func (m *LinearRLS) PredictRows(ctx context.Context, x Rows) ([]int, error) {
	s, err := m.DecisionRows(ctx, x)
	if err != nil {
		return nil, err
	}
	return Argmax(s), nil
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
