package kernel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	gonumblas "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"
)

// MaxGramBytes bounds the memory a Gram builder allocates for its result (default
// 8 GiB). Builders that would allocate more return an error wrapping [ErrGramTooLarge]
// before allocating. Set it once at start-up, not while builders run.
var MaxGramBytes int64 = 8 << 30

// ErrGramTooLarge is wrapped by the errors of Gram builders whose result would exceed
// [MaxGramBytes].
var ErrGramTooLarge = errors.New("Gram matrix too large")

func checkSize(rows, cols int) error {
	need := int64(rows) * int64(cols) * 8
	if need > MaxGramBytes {
		return fmt.Errorf("kernel: a %d×%d Gram matrix needs %.2f GiB, above the limit of %.2f GiB: use fewer samples (in a spec: sizes, data.test_size or data.pool): %w",
			rows, cols, float64(need)/(1<<30), float64(MaxGramBytes)/(1<<30), ErrGramTooLarge)
	}
	return nil
}

// Gram returns the n×m kernel matrix between the rows of X (n×d) and Z (m×d),
//
//	K_ij = k(x_i, z_j),
//
// computed from inner products X Zᵀ (one matrix product per block of rows of X, blocks
// spread over GOMAXPROCS goroutines) and, for k that need them, the squared row norms.
// See [GramTo] for the contract.
func Gram(ctx context.Context, k Base, X, Z *mat.Dense) (*mat.Dense, error) {
	var dst mat.Dense
	if err := GramTo(ctx, &dst, k, X, Z); err != nil {
		return nil, err
	}
	return &dst, nil
}

// GramTo fills dst with the n×m kernel matrix K_ij = k(x_i, z_j) of the rows of X
// (n×d) and Z (m×d) (see [Gram]). An empty dst is sized to n×m; otherwise it must be
// n×m. It returns k.Validate()'s error for bad kernel parameters, an error wrapping
// [ErrGramTooLarge] if an empty dst would need more than [MaxGramBytes], and ctx.Err()
// if cancelled (dst is then partly written). It panics if X and Z have different
// numbers of columns or dst has the wrong shape. Work: 2·n·m·d flops plus n·m
// evaluations of k.FromDot.
func GramTo(ctx context.Context, dst *mat.Dense, k Base, X, Z *mat.Dense) error {
	n, d := X.Dims()
	m, dz := Z.Dims()
	if d != dz {
		panic(fmt.Sprintf("kernel: Gram: X has %d columns, Z has %d", d, dz))
	}
	if err := k.Validate(); err != nil {
		return err
	}
	if dst.IsEmpty() {
		if err := checkSize(n, m); err != nil {
			return err
		}
		dst.ReuseAs(n, m)
	} else if r, c := dst.Dims(); r != n || c != m {
		panic(fmt.Sprintf("kernel: Gram: dst is %d×%d, want %d×%d", r, c, n, m))
	}
	xx, zz := sqNorms(X), sqNorms(Z)
	xr, zr, out := X.RawMatrix(), Z.RawMatrix(), dst.RawMatrix()
	bs := rowBlock(n)
	nb := (n + bs - 1) / bs
	return parallelBlocks(ctx, nb, func(b int) {
		i0, i1 := b*bs, min((b+1)*bs, n)
		c := sub(out, i0, i1, 0, m)
		gemmNT(rows(xr, i0, i1), zr, c)
		applyBase(k, c, xx[i0:i1], zz)
	})
}

// SymGram returns the n×n kernel matrix of the rows of X (n×d),
//
//	K_ij = k(x_i, x_j),
//
// computing each upper-triangle block once (one matrix product per block of rows,
// blocks spread over GOMAXPROCS goroutines). See [SymGramTo] for the contract.
func SymGram(ctx context.Context, k Base, X *mat.Dense) (*mat.SymDense, error) {
	var dst mat.SymDense
	if err := SymGramTo(ctx, &dst, k, X); err != nil {
		return nil, err
	}
	return &dst, nil
}

// SymGramTo fills dst with K_ij = k(x_i, x_j) for the rows of X (n×d) (see [SymGram]).
// Row block [i0, i1) computes the entries j >= i0 from X[i0:i1]·X[i0:n]ᵀ; the result is
// then mirrored, so dst.RawSymmetric().Data holds the full symmetric matrix row-major
// (stride n when dst was empty). An empty dst is sized to n×n; otherwise it must be n×n.
// Errors and panics as in [GramTo]. Work: about n²·d flops.
func SymGramTo(ctx context.Context, dst *mat.SymDense, k Base, X *mat.Dense) error {
	n, _ := X.Dims()
	if err := k.Validate(); err != nil {
		return err
	}
	if dst.IsEmpty() {
		if err := checkSize(n, n); err != nil {
			return err
		}
		dst.ReuseAsSym(n)
	} else if r := dst.SymmetricDim(); r != n {
		panic(fmt.Sprintf("kernel: SymGram: dst is %d×%d, want %d×%d", r, r, n, n))
	}
	xx := sqNorms(X)
	xr := X.RawMatrix()
	s := dst.RawSymmetric()
	out := blas64.General{Rows: n, Cols: n, Stride: s.Stride, Data: s.Data}
	bs := rowBlock(n)
	nb := (n + bs - 1) / bs
	return parallelBlocks(ctx, nb, func(b int) {
		i0, i1 := b*bs, min((b+1)*bs, n)
		c := sub(out, i0, i1, i0, n)
		gemmNT(rows(xr, i0, i1), rows(xr, i0, n), c)
		applyBase(k, c, xx[i0:i1], xx[i0:n])
		mirrorRows(out, i0, i1)
	})
}

// mirrorRows copies row i's entries right of the diagonal into column i below it, for
// i in [i0, i1). Rows >= i1 are written only in columns < i1, which no other block writes.
func mirrorRows(a blas64.General, i0, i1 int) {
	for i := i0; i < i1; i++ {
		row := a.Data[i*a.Stride : i*a.Stride+a.Cols]
		for j := i + 1; j < a.Cols; j++ {
			a.Data[j*a.Stride+i] = row[j]
		}
	}
}

// rowBlock chooses a block of rows: at least 4 blocks per worker for balance, between
// 8 and 128 rows.
func rowBlock(n int) int {
	w := runtime.GOMAXPROCS(0)
	return min(128, max(8, (n+4*w-1)/(4*w)))
}

func rows(a blas64.General, i0, i1 int) blas64.General {
	if i1 == i0 {
		return blas64.General{Rows: 0, Cols: a.Cols, Stride: max(1, a.Stride)}
	}
	return blas64.General{Rows: i1 - i0, Cols: a.Cols, Stride: a.Stride, Data: a.Data[i0*a.Stride:]}
}

func sub(a blas64.General, i0, i1, j0, j1 int) blas64.General {
	if i1 == i0 || j1 == j0 {
		return blas64.General{Rows: i1 - i0, Cols: j1 - j0, Stride: max(1, a.Stride)}
	}
	return blas64.General{Rows: i1 - i0, Cols: j1 - j0, Stride: a.Stride, Data: a.Data[i0*a.Stride+j0:]}
}

// tileWidth returns the column width of the products gemmNT issues. With row blocks of
// 128 and k = 784 on the 2-core reference machine, gonum's pure-Go Dgemm ran 128×64
// tiles at 19 GFLOP/s, against 8-14 for 32×32, 128×128 or one whole-matrix call (each
// tile's 64 rows of b stay in cache across the row block); OpenBLAS (core/linalg,
// -tags openblas) was slowest with 64 and equal from 128 columns up.
func tileWidth() int {
	if _, ok := blas64.Implementation().(gonumblas.Implementation); ok {
		return 64
	}
	return 256
}

// gemmNT sets c = a·bᵀ, one Dgemm per tile of tileWidth() columns.
func gemmNT(a, b, c blas64.General) {
	tw := tileWidth()
	for j0 := 0; j0 < c.Cols; j0 += tw {
		j1 := min(j0+tw, c.Cols)
		gemmNT1(a, rows(b, j0, j1), sub(c, 0, c.Rows, j0, j1))
	}
}

// gemmNT1 sets c = a·bᵀ with one Dgemm call.
func gemmNT1(a, b, c blas64.General) {
	if c.Rows == 0 || c.Cols == 0 {
		return
	}
	if a.Cols == 0 {
		for i := range c.Rows {
			clear(c.Data[i*c.Stride : i*c.Stride+c.Cols])
		}
		return
	}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, b, 0, c)
}

// applyBase replaces each inner product c[i, j] by k.FromDot(c[i, j], xx[i], zz[j]).
func applyBase(k Base, c blas64.General, xx, zz []float64) {
	for i := range c.Rows {
		row := c.Data[i*c.Stride : i*c.Stride+c.Cols]
		z := zz
		switch kk := k.(type) {
		case Linear:
		case RBF:
			g, xi := kk.Gamma, xx[i]
			for j, v := range row {
				row[j] = math.Exp(-g * max(0, xi+z[j]-2*v))
			}
		case Poly:
			for j, v := range row {
				row[j] = powInt(1+kk.Gamma*v, kk.Degree)
			}
		default:
			xi := xx[i]
			for j, v := range row {
				row[j] = k.FromDot(v, xi, z[j])
			}
		}
	}
}

// sqNorms returns ||x_i||² for the rows of X.
func sqNorms(X *mat.Dense) []float64 {
	n, _ := X.Dims()
	out := make([]float64, n)
	for i := range out {
		r := X.RawRowView(i)
		s := 0.0
		for _, v := range r {
			s += v * v
		}
		out[i] = s
	}
	return out
}
