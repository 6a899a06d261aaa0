package kernel

import (
	"context"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Locality is the locality kernel of Liu et al. on H×W images (row-major), at one or
// two scales. Layer 1 takes, for every pixel centre P, the K1×K1 patch sum of the
// elementwise product (stride 1, (K1-1)/2 zero padding, so there are H·W patches),
//
//	u_P(x, z) = sum_{p in patch P} x_p·z_p,
//
// and with one layer (K2 == 0) the kernel is the paper's formula
//
//	K(x, z) = ( sum_P (S1·u_P + 1)^D1 + 1 )^D2.
//
// Layer 2 (K2 > 0) composes the local features of patch centres at most (K2-1)/2 apart
// in each direction (a K2×K2 window Q of centres around every pixel, stride 1, centres
// outside the image contributing nothing),
//
//	v_Q = sum_{P in window Q} (S1·u_P + 1)^D1
//	K(x, z) = ( sum_Q (S2·v_Q + 1)^D2 + 1 )^D3.
//
// The paper gives layer 2 only in words ("local features at most k2 apart"); this is
// the reading chosen here: the same construction as layer 1, one level up.
//
// S1 and S2 scale the patch and window sums (0 means 1, the paper's formula as written).
// FINDINGS.md: unscaled, the kernel is extremely peaked on [0,1] pixels and did 15-25
// points worse than the plain polynomial; S1 = 1/(4·K1²) made it behave like the plain
// polynomial. Values grow like (H·W·(K1²+1)^D1)^D2 and can reach 1e40 and more: divide
// a Gram matrix by its diagonal mean before an SVM.
//
// Every term is a polynomial kernel of inner products with nonnegative coefficients, so
// K is positive semi-definite. Eval costs about 10·H·W flops (box filters by prefix sums)
// plus H·W powers per layer. Locality is a value type, safe for concurrent use.
type Locality struct {
	H, W   int
	K1, D1 int
	D2     int
	K2, D3 int
	S1, S2 float64
}

// Name returns e.g. "locality(28x28,k1=3,d1=2,d2=4)" or with layer 2 and scales.
func (k Locality) Name() string {
	s := fmt.Sprintf("locality(%dx%d,k1=%d,d1=%d,d2=%d", k.H, k.W, k.K1, k.D1, k.D2)
	if k.K2 > 0 {
		s += fmt.Sprintf(",k2=%d,d3=%d", k.K2, k.D3)
	}
	if k.S1 != 0 && k.S1 != 1 {
		s += fmt.Sprintf(",s1=%g", k.S1)
	}
	if k.S2 != 0 && k.S2 != 1 {
		s += fmt.Sprintf(",s2=%g", k.S2)
	}
	return s + ")"
}

// Validate checks the image size, odd patch sides, degrees >= 1 and finite
// nonnegative scales.
func (k Locality) Validate() error {
	switch {
	case k.H < 1 || k.W < 1:
		return fmt.Errorf("locality kernel: image size %dx%d: set H and W to the image height and width", k.H, k.W)
	case k.K1 < 1 || k.K1%2 == 0:
		return fmt.Errorf("locality kernel: patch side k1 = %d must be odd and positive: use 3, 5, ...", k.K1)
	case k.K2 < 0 || (k.K2 > 0 && k.K2%2 == 0):
		return fmt.Errorf("locality kernel: window side k2 = %d must be odd and positive, or 0 for one layer", k.K2)
	case k.D1 < 1 || k.D2 < 1 || (k.K2 > 0 && k.D3 < 1):
		return fmt.Errorf("locality kernel: degrees d1=%d d2=%d d3=%d must be at least 1 (d3 only with k2 > 0)", k.D1, k.D2, k.D3)
	case !(k.S1 >= 0) || !(k.S2 >= 0) || k.S1 > 1e300 || k.S2 > 1e300:
		return fmt.Errorf("locality kernel: scales s1=%g s2=%g must be finite and >= 0 (0 means 1)", k.S1, k.S2)
	}
	return nil
}

var locPool = sync.Pool{New: func() any { s := make([]float64, 0); return &s }}

// Eval returns K(x, z). It panics if len(x) or len(z) is not H·W.
func (k Locality) Eval(x, z []float64) float64 {
	d := k.H * k.W
	if len(x) != d || len(z) != d {
		panic(fmt.Sprintf("kernel: Locality.Eval: vectors of length %d and %d, images are %dx%d", len(x), len(z), k.H, k.W))
	}
	bp := locPool.Get().(*[]float64)
	need := 2*d + (k.H+1)*k.W + k.W + 1
	if cap(*bp) < need {
		*bp = make([]float64, need)
	}
	buf := (*bp)[:need]
	u, ps, tmp := buf[:d], buf[d:2*d], buf[2*d:]
	for i, v := range x {
		u[i] = v * z[i]
	}
	s1 := k.S1
	if s1 == 0 {
		s1 = 1
	}
	boxFilter(ps, u, k.H, k.W, k.K1/2, tmp)
	var sum float64
	if k.K2 == 0 {
		for _, v := range ps {
			sum += powInt(s1*v+1, k.D1)
		}
		locPool.Put(bp)
		return powInt(sum+1, k.D2)
	}
	for i, v := range ps {
		u[i] = powInt(s1*v+1, k.D1)
	}
	boxFilter(ps, u, k.H, k.W, k.K2/2, tmp)
	s2 := k.S2
	if s2 == 0 {
		s2 = 1
	}
	for _, v := range ps {
		sum += powInt(s2*v+1, k.D2)
	}
	locPool.Put(bp)
	return powInt(sum+1, k.D3)
}

// boxFilter writes into dst (h×w) the sums of src over the (2r+1)×(2r+1) windows
// centred on each pixel, zero outside the image, with prefix sums along rows and then
// columns; tmp holds at least (h+1)·w + w + 1 values.
func boxFilter(dst, src []float64, h, w, r int, tmp []float64) {
	cp := tmp[:(h+1)*w] // column prefix sums of the row-filtered image
	pre := tmp[(h+1)*w : (h+1)*w+w+1]
	clear(cp[:w])
	for y := range h {
		row := src[y*w : (y+1)*w]
		pre[0] = 0
		for c, v := range row {
			pre[c+1] = pre[c] + v
		}
		prev, cur := cp[y*w:(y+1)*w], cp[(y+1)*w:(y+2)*w]
		for c := range w {
			cur[c] = prev[c] + pre[min(c+r+1, w)] - pre[max(c-r, 0)]
		}
	}
	for y := range h {
		lo, hi := cp[max(y-r, 0)*w:], cp[min(y+r+1, h)*w:]
		out := dst[y*w : (y+1)*w]
		for c := range out {
			out[c] = hi[c] - lo[c]
		}
	}
}

// PairGram returns the n×m matrix K_ij = k(x_i, z_j) of a [Pairwise] kernel evaluated
// directly (rows of X spread over GOMAXPROCS goroutines, ctx checked per row). It
// returns k.Validate()'s error, an error wrapping [ErrGramTooLarge] or ctx.Err(), and
// panics if X and Z have different numbers of columns.
func PairGram(ctx context.Context, k Pairwise, X, Z *mat.Dense) (*mat.Dense, error) {
	n, d := X.Dims()
	m, dz := Z.Dims()
	if d != dz {
		panic(fmt.Sprintf("kernel: PairGram: X has %d columns, Z has %d", d, dz))
	}
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if err := checkSize(n, m); err != nil {
		return nil, err
	}
	if n == 0 || m == 0 {
		return &mat.Dense{}, nil
	}
	out := mat.NewDense(n, m, nil)
	err := parallelBlocks(ctx, n, func(i int) {
		row, x := out.RawRowView(i), X.RawRowView(i)
		for j := range m {
			row[j] = k.Eval(x, Z.RawRowView(j))
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PairSymGram returns the n×n matrix K_ij = k(x_i, x_j) of a symmetric [Pairwise]
// kernel, evaluating the entries i <= j and mirroring them. Errors as in [PairGram].
func PairSymGram(ctx context.Context, k Pairwise, X *mat.Dense) (*mat.SymDense, error) {
	n, _ := X.Dims()
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if err := checkSize(n, n); err != nil {
		return nil, err
	}
	if n == 0 {
		return &mat.SymDense{}, nil
	}
	out := mat.NewSymDense(n, nil)
	s := out.RawSymmetric()
	g := blas64.General{Rows: n, Cols: n, Stride: s.Stride, Data: s.Data}
	err := parallelBlocks(ctx, n, func(i int) {
		x := X.RawRowView(i)
		for j := i; j < n; j++ {
			g.Data[i*g.Stride+j] = k.Eval(x, X.RawRowView(j))
		}
	})
	if err != nil {
		return nil, err
	}
	mirrorRows(g, 0, n)
	return out, nil
}
