package kernel

import (
	"context"
	"fmt"
	"math"

	"gitui/core/group"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// LocalityMap is the explicit finite feature map of a one-layer [Locality] kernel with
// D1 <= 2, which turns every locality Gram matrix into matrix products. With N = H·W
// patches, c_p the number of patches that hold pixel p and C_pq the number that hold
// both p and q (C_pp = c_p),
//
//	D1 = 1:  sum_P (S1·u_P + 1)   = N + S1·sum_p c_p x_p z_p
//	D1 = 2:  sum_P (S1·u_P + 1)²  = N + 2·S1·sum_p c_p x_p z_p + S1²·sum_{p,q} C_pq x_p x_q z_p z_q,
//
// so K(x, z) = (N + 1 + <φ(x), φ(z)>)^D2 = (N+1)^D2 · (1 + <φ(x), φ(z)>/(N+1))^D2, with
//
//	φ(x) = ( sqrt(S1·c_p)·x_p )_p                                   (D1 = 1)
//	φ(x) = ( sqrt(2·S1·c_p)·x_p )_p ++ ( S1·sqrt(m_pq·C_pq)·x_p·x_q )_{p<=q, C_pq>0}   (D1 = 2)
//
// where m_pq = 1 for p = q and 2 otherwise. The kernel is then [Poly] with gamma
// 1/(N+1) and degree D2 on φ, times the constant (N+1)^D2 (see [LocalityMap.Base] and
// [LocalityMap.Scale]). φ has at most H·W·(1 + ((2·K1-1)²+1)/2) entries for D1 = 2, fewer
// at the borders (10,154 for 28×28 and K1 = 3, 28,088 for K1 = 5): a Gram matrix costs 2·dim flops per pair in a GEMM
// instead of the direct evaluation's 10·H·W scalar flops and H·W powers, and every
// best-fit composition becomes the matrix-product path of [FitGram].
type LocalityMap struct {
	k      Locality
	lin    []float64 // weight of x_p
	pi, qi []int32   // pixel pairs p <= q
	pw     []float64 // weight of x_p·x_q
	c0     float64   // N + 1
}

// NewLocalityMap returns the feature map of k, or false if k has none here (two layers,
// or D1 > 2: the dimension grows as (K1²)^D1). It panics if k is invalid.
func NewLocalityMap(k Locality) (*LocalityMap, bool) {
	if err := k.Validate(); err != nil {
		panic("kernel: NewLocalityMap: " + err.Error())
	}
	if k.K2 != 0 || k.D1 > 2 {
		return nil, false
	}
	s1 := k.S1
	if s1 == 0 {
		s1 = 1
	}
	h, w, r := k.H, k.W, k.K1/2
	// cover(a, b, n): the number of window centres c in [0, n) with |c-a| <= r and
	// |c-b| <= r, i.e. patches along one axis that hold both coordinates.
	cover := func(a, b, n int) int {
		lo, hi := max(a, b)-r, min(a, b)+r
		return max(0, min(hi, n-1)-max(lo, 0)+1)
	}
	m := &LocalityMap{k: k, c0: float64(h*w) + 1, lin: make([]float64, h*w)}
	lw := s1
	if k.D1 == 2 {
		lw = 2 * s1
	}
	for p := range h * w {
		py, px := p/w, p%w
		m.lin[p] = math.Sqrt(lw * float64(cover(py, py, h)*cover(px, px, w)))
		if k.D1 < 2 {
			continue
		}
		for dy := 0; dy <= 2*r; dy++ {
			for dx := -2 * r; dx <= 2*r; dx++ {
				if dy == 0 && dx < 0 {
					continue
				}
				qy, qx := py+dy, px+dx
				if qy >= h || qx < 0 || qx >= w {
					continue
				}
				c := cover(py, qy, h) * cover(px, qx, w)
				if c == 0 {
					continue
				}
				mult := 2.0
				if dy == 0 && dx == 0 {
					mult = 1
				}
				m.pi = append(m.pi, int32(p))
				m.qi = append(m.qi, int32(qy*w+qx))
				m.pw = append(m.pw, s1*math.Sqrt(mult*float64(c)))
			}
		}
	}
	return m, true
}

// Dim returns the length of φ(x).
func (m *LocalityMap) Dim() int { return len(m.lin) + len(m.pw) }

// Base returns the polynomial kernel on φ: gamma 1/(N+1), degree D2.
func (m *LocalityMap) Base() Poly { return Poly{Gamma: 1 / m.c0, Degree: m.k.D2} }

// Scale returns (N+1)^D2, the factor between Base on φ and the locality kernel.
func (m *LocalityMap) Scale() float64 { return math.Pow(m.c0, float64(m.k.D2)) }

// Map writes φ(x) into dst. It panics if len(x) != H·W or len(dst) != Dim().
func (m *LocalityMap) Map(dst, x []float64) {
	if len(x) != len(m.lin) || len(dst) != m.Dim() {
		panic(fmt.Sprintf("kernel: LocalityMap.Map: x has %d values, dst %d; want %d and %d", len(x), len(dst), len(m.lin), m.Dim()))
	}
	for p, v := range x {
		dst[p] = m.lin[p] * v
	}
	d := dst[len(x):]
	for i, wt := range m.pw {
		d[i] = wt * x[m.pi[i]] * x[m.qi[i]]
	}
}

// Rows returns the matrix whose rows are φ of the rows of X, on GOMAXPROCS goroutines.
func (m *LocalityMap) Rows(ctx context.Context, X *mat.Dense) (*mat.Dense, error) {
	n, _ := X.Dims()
	if n == 0 {
		return &mat.Dense{}, nil
	}
	out := mat.NewDense(n, m.Dim(), nil)
	err := parallelBlocks(ctx, n, func(i int) { m.Map(out.RawRowView(i), X.RawRowView(i)) })
	return out, err
}

// Rows32 returns φ of the rows of X in float32 (n×Dim(), row-major) and the squared
// norms of the float64 maps, on GOMAXPROCS goroutines: half the memory of Rows.
func (m *LocalityMap) Rows32(ctx context.Context, X *mat.Dense) (blas32.General, []float64, error) {
	n, _ := X.Dims()
	d := m.Dim()
	out := blas32.General{Rows: n, Cols: d, Stride: d, Data: make([]float32, n*d)}
	nn := make([]float64, n)
	bufs := make(chan []float64, 2*workers())
	err := parallelBlocks(ctx, n, func(i int) {
		var row []float64
		select {
		case row = <-bufs:
		default:
			row = make([]float64, d)
		}
		m.Map(row, X.RawRowView(i))
		nn[i] = sumSq(row)
		dst := out.Data[i*d : (i+1)*d]
		for j, v := range row {
			dst[j] = float32(v)
		}
		select {
		case bufs <- row:
		default:
		}
	})
	return out, nn, err
}

// localityCopies is the copier of fitGEMM for a locality composition: copy t of x is
// φ(g_t·x), the feature map of the transformed image.
type localityCopies struct {
	G   group.Action
	m   *LocalityMap
	buf chan []float64 // scratch images for the transformed x
}

func (c *localityCopies) Len() int { return c.G.Len() }

func (c *localityCopies) Apply(dst, x []float64, t int) {
	var tx []float64
	select {
	case tx = <-c.buf:
	default:
		tx = make([]float64, len(x))
	}
	c.G.Apply(tx, x, t)
	c.m.Map(dst, tx)
	select {
	case c.buf <- tx:
	default:
	}
}

// LocalityGram returns the n×m matrix K_ij = k(x_i, z_j) of the locality kernel k: by
// matrix products on the explicit feature map when k has one ([NewLocalityMap]), else
// by direct evaluation ([PairGram]). Errors as in [PairGram].
func LocalityGram(ctx context.Context, k Locality, X, Z *mat.Dense) (*mat.Dense, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	m, ok := NewLocalityMap(k)
	if !ok {
		return PairGram(ctx, k, X, Z)
	}
	checkImages("LocalityGram", k, X, Z)
	n, _ := X.Dims()
	nz, _ := Z.Dims()
	if err := checkSize(n, nz); err != nil {
		return nil, err
	}
	pz, err := m.Rows(ctx, Z)
	if err != nil {
		return nil, err
	}
	if n == 0 || nz == 0 {
		return &mat.Dense{}, nil
	}
	// φ(Z) once, φ(X) a block of localityBlock rows at a time: the maps of all of X
	// would take n·Dim()·8 bytes (2.7 GB for 10,000 MNIST digits with 5×5 patches).
	out := mat.NewDense(n, nz, nil)
	for r0 := 0; r0 < n; r0 += localityBlock {
		r1 := min(n, r0+localityBlock)
		px, err := m.Rows(ctx, X.Slice(r0, r1, 0, m.k.H*m.k.W).(*mat.Dense))
		if err != nil {
			return nil, err
		}
		if err := GramTo(ctx, out.Slice(r0, r1, 0, nz).(*mat.Dense), m.Base(), px, pz); err != nil {
			return nil, err
		}
	}
	out.Scale(m.Scale(), out)
	return out, nil
}

// localityBlock is the number of rows of X whose explicit maps LocalityGram holds at
// once (for 5×5 patches on 28×28 images: 69 MB).
const localityBlock = 256

// LocalitySymGram is [LocalityGram] of X with itself.
func LocalitySymGram(ctx context.Context, k Locality, X *mat.Dense) (*mat.SymDense, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	m, ok := NewLocalityMap(k)
	if !ok {
		return PairSymGram(ctx, k, X)
	}
	checkImages("LocalitySymGram", k, X, nil)
	n, _ := X.Dims()
	if err := checkSize(n, n); err != nil {
		return nil, err
	}
	px, err := m.Rows(ctx, X)
	if err != nil {
		return nil, err
	}
	out, err := SymGram(ctx, m.Base(), px)
	if err != nil {
		return nil, err
	}
	out.ScaleSym(m.Scale(), out)
	return out, nil
}

// FitLocalityGram returns the best-fit or average-fit locality kernel matrix over the
// finite set G (L-TI, L-RI, L-TI-RI),
//
//	BestFit:     K_ij = max_{g in G}  k(g·x_i, z_j)
//	AverageFit:  K_ij = mean_{g in G} k(g·x_i, z_j),
//
// by the matrix-product path of [FitGram] on φ(g·x_i) and φ(z_j) when k has an explicit
// map (2·|G|·dim flops per pair), else by direct evaluation ([FitPairGram]). Errors and
// panics as in [FitPairGram].
//
// The matrix-product path multiplies in float32 (Sgemm, φ(z_j) held in float32: twice
// the speed and half the memory of float64); the kernel is applied to the products in
// float64. The inner products then carry a relative error of about 1e-6 (sums of
// non-negative terms for images with pixels >= 0): on MNIST's liu-table2 this changed
// no accuracy beyond 0.01 point (docs/results.md).
func FitLocalityGram(ctx context.Context, k Locality, G group.Action, fit Fit, X, Z *mat.Dense) (*mat.Dense, error) {
	m, ok := localityMapOf(k)
	if !ok {
		return FitPairGram(ctx, k, G, fit, X, Z)
	}
	pz, zz, err := m.Rows32(ctx, Z)
	if err != nil {
		return nil, err
	}
	c := &localityCopies{G: G, m: m, buf: make(chan []float64, 2*workers())}
	out, err := fitDense("FitLocalityGram", k, G, fit, X, Z, func(out blas64.General, sym bool) error {
		return fitProducts(ctx, m.Base(), c, fit, X, zRows32{pz}, zz, sym, out)
	})
	if err != nil {
		return nil, err
	}
	out.Scale(m.Scale(), out)
	return out, nil
}

// FitLocalitySymGram is [FitLocalityGram] of X with itself, computing the entries i <= j
// and mirroring them (as [FitSymGram]).
func FitLocalitySymGram(ctx context.Context, k Locality, G group.Action, fit Fit, X *mat.Dense) (*mat.SymDense, error) {
	m, ok := localityMapOf(k)
	if !ok {
		return FitPairSymGram(ctx, k, G, fit, X)
	}
	px, xx, err := m.Rows32(ctx, X)
	if err != nil {
		return nil, err
	}
	c := &localityCopies{G: G, m: m, buf: make(chan []float64, 2*workers())}
	out, err := fitSym("FitLocalitySymGram", k, G, fit, X, func(out blas64.General, sym bool) error {
		return fitProducts(ctx, m.Base(), c, fit, X, zRows32{px}, xx, sym, out)
	})
	if err != nil {
		return nil, err
	}
	out.ScaleSym(m.Scale(), out)
	return out, nil
}

// localityMapOf returns k's explicit map for a valid k that has one.
func localityMapOf(k Locality) (*LocalityMap, bool) {
	if k.Validate() != nil {
		return nil, false
	}
	return NewLocalityMap(k)
}

// checkImages panics if the rows of X or Z are not k's H×W images.
func checkImages(fn string, k Locality, X, Z *mat.Dense) {
	if _, d := X.Dims(); d != k.H*k.W {
		panic(fmt.Sprintf("kernel: %s: X has %d columns, the kernel's images are %dx%d", fn, d, k.H, k.W))
	}
	if Z != nil {
		if _, d := Z.Dims(); d != k.H*k.W {
			panic(fmt.Sprintf("kernel: %s: Z has %d columns, the kernel's images are %dx%d", fn, d, k.H, k.W))
		}
	}
}
