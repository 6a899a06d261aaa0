package kernel

import (
	"context"
	"fmt"
	"math"

	"gitui/core/group"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Pairwise is a kernel evaluated on two vectors directly, k(x, z). Every [Base] is a
// Pairwise kernel; [Locality] is one that is not a function of the inner product.
// Implementations are safe for concurrent use.
type Pairwise interface {
	// Name returns a short description with the parameters.
	Name() string
	// Eval returns k(x, z); it panics if the lengths are wrong.
	Eval(x, z []float64) float64
	// Validate returns a one-line error naming a bad parameter and its fix, or nil.
	Validate() error
}

// FitGram returns the n×m best-fit or average-fit kernel matrix of Liu et al. between
// the rows of X (n×d) and Z (m×d) for any finite set G of transformations (a group or
// not: zero-fill local shifts, rotation ranges, products),
//
//	BestFit:     K_ij = max_{g in G}  k0(g·x_i, z_j)
//	AverageFit:  K_ij = mean_{g in G} k0(g·x_i, z_j)
//
// All inner products <g·x_i, z_j> are a matrix product: a block of x rows is expanded
// to its |G| transformed copies (about 512 rows per block) and multiplied by tiles of
// Z (one Dgemm per tile), and the kernel is then pooled over each x's |G| rows. Blocks
// run on GOMAXPROCS goroutines, ctx checked once per block; memory per worker is about
// 8·(512·d + 512·256) bytes besides the result.
//
// Pooling: the best fit of a Linear k0, or of Poly with odd degree (increasing in the
// inner product), is k0 at the largest inner product; Poly with even degree is not
// monotone below -1/gamma, so its best fit is the larger of k0 at the largest and the
// smallest inner product; RBF (whose value depends on ||g·x||, which zero-fill shifts
// and rotations change) and any other Base are evaluated for every g and the largest
// value kept. AverageFit evaluates k0 for every g (Linear: the mean inner product).
// Best fit is symmetric, K(x, z) = K(z, x), when G is a group and k0(g·x, z) =
// k0(x, g^-1·z) (cyclic shifts, permutations); for other sets it is not.
//
// FitGram returns k0.Validate()'s error, an error wrapping [ErrGramTooLarge] or
// ctx.Err(); it panics if X, Z and G disagree on d or fit is unknown. Work:
// 2·n·m·|G|·d flops plus n·|G| actions.
func FitGram(ctx context.Context, k0 Base, G group.Action, fit Fit, X, Z *mat.Dense) (*mat.Dense, error) {
	return fitDense("FitGram", k0, G, fit, X, Z, func(out blas64.General, sym bool) error {
		return fitGEMM(ctx, k0, G, fit, X, Z, sym, out)
	})
}

// FitSymGram returns the n×n best-fit or average-fit kernel matrix of the rows of X for
// the finite set G (see [FitGram]), computing only the entries i <= j, K_ij = pool over
// g of k0(g·x_i, x_j), and mirroring them (RawSymmetric().Data holds the full matrix).
// When the kernel is symmetric (G a group with k0(g·x, z) = k0(x, g^-1·z)) this is the
// full Gram matrix at half the cost; otherwise it is the upper triangle symmetrised.
// Errors and panics as in [FitGram].
func FitSymGram(ctx context.Context, k0 Base, G group.Action, fit Fit, X *mat.Dense) (*mat.SymDense, error) {
	return fitSym("FitSymGram", k0, G, fit, X, func(out blas64.General, sym bool) error {
		return fitGEMM(ctx, k0, G, fit, X, X, sym, out)
	})
}

// fitDense checks the arguments of a train-test builder, allocates the n×m result and
// has fill compute it.
func fitDense(fn string, k Pairwise, G group.Action, fit Fit, X, Z *mat.Dense, fill func(out blas64.General, sym bool) error) (*mat.Dense, error) {
	fit.check(fn)
	if err := checkFit(fn, k, G, X, Z); err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	m, _ := Z.Dims()
	if err := checkSize(n, m); err != nil {
		return nil, err
	}
	if n == 0 || m == 0 {
		return &mat.Dense{}, nil
	}
	out := mat.NewDense(n, m, nil)
	if err := fill(out.RawMatrix(), false); err != nil {
		return nil, err
	}
	return out, nil
}

// fitSym checks the arguments of a symmetric builder, allocates the n×n result, has fill
// compute the entries i <= j and mirrors them.
func fitSym(fn string, k Pairwise, G group.Action, fit Fit, X *mat.Dense, fill func(out blas64.General, sym bool) error) (*mat.SymDense, error) {
	fit.check(fn)
	if err := checkFit(fn, k, G, X, nil); err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	if err := checkSize(n, n); err != nil {
		return nil, err
	}
	if n == 0 {
		return &mat.SymDense{}, nil
	}
	out := mat.NewSymDense(n, nil)
	s := out.RawSymmetric()
	g := blas64.General{Rows: n, Cols: n, Stride: s.Stride, Data: s.Data}
	if err := fill(g, true); err != nil {
		return nil, err
	}
	mirrorRows(g, 0, n)
	return out, nil
}

func checkFit(fn string, k Pairwise, G group.Action, X, Z *mat.Dense) error {
	_, d := X.Dims()
	if d != G.Dim() {
		panic(fmt.Sprintf("kernel: %s: X has %d columns, %s acts on %d", fn, d, G.Name(), G.Dim()))
	}
	if Z != nil {
		if _, dz := Z.Dims(); dz != d {
			panic(fmt.Sprintf("kernel: %s: X has %d columns, Z has %d", fn, d, dz))
		}
	}
	return k.Validate()
}

// gemmPool says how FitGram pools a finite set (no norm preservation assumed).
func gemmPool(k0 Base, fit Fit) poolKind {
	if fit == AverageFit {
		if _, ok := k0.(Linear); ok {
			return poolMeanLin
		}
		return poolMean
	}
	switch k := k0.(type) {
	case Linear:
		return poolMax
	case Poly:
		if k.Degree%2 == 1 {
			return poolMax
		}
		return poolMaxMin
	}
	return poolAll
}

// fitTile is the number of Z rows per product tile.
const fitTile = 256

// copier makes the transformed copies of a row for fitGEMM: Apply writes copy i of x
// into dst, whose length is the number of columns of Z (a group.Action, or a feature map
// of transformed inputs, see localityCopies).
type copier interface {
	Len() int
	Apply(dst, x []float64, i int)
}

// fitGEMM writes the pooled kernel into out; with sym (X and Z the same samples) only
// entries j >= i. The copies G.Apply(·, x_i, t) have Z's width.
func fitGEMM(ctx context.Context, k0 Base, G copier, fit Fit, X, Z *mat.Dense, sym bool, out blas64.General) error {
	return fitProducts(ctx, k0, G, fit, X, zRows64{Z.RawMatrix()}, sqNorms(Z), sym, out)
}

// zRows are the rows z_j that fitProducts multiplies the transformed copies by.
type zRows interface {
	dims() (m, d int)
	// block returns the product of a block's copies gx (rowsG×d) with tiles of Z:
	// tile(jt, jn, dst) sets dst (rowsG×jn) to gx·Z[jt:jt+jn]ᵀ. Each call of block is
	// from one goroutine and its tile function is used by that goroutine only.
	block(gx blas64.General) (tile func(jt, jn int, dst blas64.General))
}

// zRows64 multiplies in float64 (Dgemm).
type zRows64 struct{ z blas64.General }

func (z zRows64) dims() (int, int) { return z.z.Rows, z.z.Cols }
func (z zRows64) block(gx blas64.General) func(jt, jn int, dst blas64.General) {
	return func(jt, jn int, dst blas64.General) { gemmNT(gx, rows(z.z, jt, jt+jn), dst) }
}

// zRows32 holds Z in float32 and multiplies in float32 (Sgemm: twice the speed of Dgemm
// and half the memory), the block's copies rounded to float32 once per block; products
// are widened to float64 before the kernel is applied.
type zRows32 struct{ z blas32.General }

func (z zRows32) dims() (int, int) { return z.z.Rows, z.z.Cols }
func (z zRows32) block(gx blas64.General) func(jt, jn int, dst blas64.General) {
	g32 := blas32.General{Rows: gx.Rows, Cols: gx.Cols, Stride: gx.Cols, Data: make([]float32, gx.Rows*gx.Cols)}
	for r := range gx.Rows {
		src, out := gx.Data[r*gx.Stride:r*gx.Stride+gx.Cols], g32.Data[r*gx.Cols:(r+1)*gx.Cols]
		for j, v := range src {
			out[j] = float32(v)
		}
	}
	var p32 []float32
	return func(jt, jn int, dst blas64.General) {
		if cap(p32) < gx.Rows*jn {
			p32 = make([]float32, gx.Rows*jn)
		}
		p := blas32.General{Rows: gx.Rows, Cols: jn, Stride: jn, Data: p32[:gx.Rows*jn]}
		zt := blas32.General{Rows: jn, Cols: z.z.Cols, Stride: z.z.Stride, Data: z.z.Data[jt*z.z.Stride:]}
		if gx.Rows > 0 && jn > 0 && gx.Cols > 0 {
			blas32.Gemm(blas.NoTrans, blas.Trans, 1, g32, zt, 0, p)
		}
		for r := range gx.Rows {
			o := dst.Data[r*dst.Stride : r*dst.Stride+jn]
			for j, v := range p.Data[r*jn : (r+1)*jn] {
				o[j] = float64(v)
			}
		}
	}
}

// fitProducts is fitGEMM with the products taken by Z (zRows) and zz the squared norms
// of Z's rows.
func fitProducts(ctx context.Context, k0 Base, G copier, fit Fit, X *mat.Dense, Z zRows, zz []float64, sym bool, out blas64.General) error {
	n, _ := X.Dims()
	m, d := Z.dims()
	g := G.Len()
	pool := gemmPool(k0, fit)
	bx := max(1, 512/g)
	if sym {
		bx = max(1, min(bx, n/(8*workers())))
	}
	nb := (n + bx - 1) / bx
	return parallelBlocks(ctx, nb, func(b int) {
		i0, i1 := b*bx, min((b+1)*bx, n)
		rowsG := (i1 - i0) * g
		gx := blas64.General{Rows: rowsG, Cols: d, Stride: d, Data: make([]float64, rowsG*d)}
		gxx := make([]float64, rowsG)
		for i := i0; i < i1; i++ {
			x := X.RawRowView(i)
			for t := range g {
				r := (i-i0)*g + t
				row := gx.Data[r*d : (r+1)*d]
				G.Apply(row, x, t)
				gxx[r] = sumSq(row)
			}
		}
		tile := Z.block(gx)
		p := make([]float64, rowsG*fitTile)
		acc := make([]float64, fitTile)
		acc2 := make([]float64, fitTile)
		j0 := 0
		if sym {
			j0 = i0
		}
		for jt := j0; jt < m; jt += fitTile {
			jn := min(fitTile, m-jt)
			pg := blas64.General{Rows: rowsG, Cols: jn, Stride: jn, Data: p[:rowsG*jn]}
			tile(jt, jn, pg)
			for i := i0; i < i1; i++ {
				lo := 0 // first column of this tile to write for row i
				if sym && i > jt {
					lo = i - jt
				}
				if lo >= jn {
					continue
				}
				blk := pg.Data[(i-i0)*g*jn : (i-i0+1)*g*jn]
				a, a2 := acc[lo:jn], acc2[lo:jn]
				poolRows(k0, pool, blk, jn, lo, g, gxx[(i-i0)*g:(i-i0+1)*g], zz[jt+lo:jt+jn], a, a2)
				copy(out.Data[i*out.Stride+jt+lo:i*out.Stride+jt+jn], a)
			}
		}
	})
}

// poolRows pools the g rows (each jn wide, columns lo..jn-1 used) of blk into acc.
func poolRows(k0 Base, pool poolKind, blk []float64, jn, lo, g int, gxx, zz, acc, acc2 []float64) {
	first := blk[lo:jn]
	switch pool {
	case poolMax, poolMaxMin, poolMeanLin:
		copy(acc, first)
		copy(acc2, first)
		for t := 1; t < g; t++ {
			r := blk[t*jn+lo : t*jn+jn]
			r = r[:len(acc)]
			switch pool {
			case poolMax:
				for j, v := range r {
					if v > acc[j] {
						acc[j] = v
					}
				}
			case poolMaxMin:
				for j, v := range r {
					if v > acc[j] {
						acc[j] = v
					}
					if v < acc2[j] {
						acc2[j] = v
					}
				}
			default:
				for j, v := range r {
					acc[j] += v
				}
			}
		}
		switch pool {
		case poolMax:
			for j, v := range acc {
				acc[j] = k0.FromDot(v, 0, 0)
			}
		case poolMaxMin:
			for j, v := range acc {
				acc[j] = max(k0.FromDot(v, 0, 0), k0.FromDot(acc2[j], 0, 0))
			}
		default:
			inv := 1 / float64(g)
			for j := range acc {
				acc[j] *= inv
			}
		}
	case poolAll, poolMean:
		for j := range acc {
			if pool == poolAll {
				acc[j] = math.Inf(-1)
			} else {
				acc[j] = 0
			}
		}
		for t := range g {
			r := blk[t*jn+lo : t*jn+jn]
			xx := gxx[t]
			for j, v := range r {
				kv := k0.FromDot(v, xx, zz[j])
				if pool == poolAll {
					acc[j] = max(acc[j], kv)
				} else {
					acc[j] += kv
				}
			}
		}
		if pool == poolMean {
			inv := 1 / float64(g)
			for j := range acc {
				acc[j] *= inv
			}
		}
	}
}

// FitPairGram returns the n×m best-fit or average-fit kernel matrix for a [Pairwise]
// kernel k that is not a function of inner products ([Locality]: L-TI, L-RI),
//
//	BestFit:     K_ij = max_{g in G}  k(g·x_i, z_j)
//	AverageFit:  K_ij = mean_{g in G} k(g·x_i, z_j),
//
// evaluating k for every (g, i, j): the |G| copies of each x row are made once per
// block of rows and blocks run on GOMAXPROCS goroutines, ctx checked once per block.
// The cost is |G| evaluations of k per pair (for Locality about 10·d flops each: with
// all 784 cyclic shifts of 28×28 images about 6 Mflop per pair, so a 1000-image Gram
// takes minutes; 49 local shifts are 16 times cheaper). Errors and panics as in
// [FitGram].
func FitPairGram(ctx context.Context, k Pairwise, G group.Action, fit Fit, X, Z *mat.Dense) (*mat.Dense, error) {
	return fitDense("FitPairGram", k, G, fit, X, Z, func(out blas64.General, sym bool) error {
		return fitPairs(ctx, k, G, fit, X, Z, sym, out)
	})
}

// FitPairSymGram is [FitPairGram] of X with itself, computing the entries i <= j and
// mirroring them (see [FitSymGram] for when that is the full matrix).
func FitPairSymGram(ctx context.Context, k Pairwise, G group.Action, fit Fit, X *mat.Dense) (*mat.SymDense, error) {
	return fitSym("FitPairSymGram", k, G, fit, X, func(out blas64.General, sym bool) error {
		return fitPairs(ctx, k, G, fit, X, X, sym, out)
	})
}

func fitPairs(ctx context.Context, k Pairwise, G group.Action, fit Fit, X, Z *mat.Dense, sym bool, out blas64.General) error {
	n, d := X.Dims()
	m, _ := Z.Dims()
	g := G.Len()
	return parallelBlocks(ctx, n, func(i int) {
		gx := make([]float64, g*d)
		x := X.RawRowView(i)
		for t := range g {
			G.Apply(gx[t*d:(t+1)*d], x, t)
		}
		j0 := 0
		if sym {
			j0 = i
		}
		row := out.Data[i*out.Stride : i*out.Stride+m]
		for j := j0; j < m; j++ {
			z := Z.RawRowView(j)
			best, sum := math.Inf(-1), 0.0
			for t := range g {
				v := k.Eval(gx[t*d:(t+1)*d], z)
				best = max(best, v)
				sum += v
			}
			if fit == BestFit {
				row[j] = best
			} else {
				row[j] = sum / float64(g)
			}
		}
	})
}
