package kernel

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"gitui/core/group"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Fit is the pooling of a transformation-invariant kernel over a set of
// transformations T (Liu et al.):
//
//	BestFit:     K(x, z) = max_{T} k(T·x, z)
//	AverageFit:  K(x, z) = 1/|T| · sum_{T} k(T·x, z)
type Fit int

const (
	// BestFit takes the maximum over the transformations.
	BestFit Fit = iota
	// AverageFit takes the mean over the transformations (equivalent to data
	// augmentation; for a group and a base kernel with k(g·x, g·z) = k(x, z) it is the
	// Haar-integration kernel of [HaarGram]).
	AverageFit
)

// String returns "best-fit" or "average-fit".
func (f Fit) String() string {
	switch f {
	case BestFit:
		return "best-fit"
	case AverageFit:
		return "average-fit"
	}
	return fmt.Sprintf("Fit(%d)", int(f))
}

func (f Fit) check(fn string) {
	if f != BestFit && f != AverageFit {
		panic(fmt.Sprintf("kernel: %s: unknown Fit %d", fn, int(f)))
	}
}

// CyclicMode selects the cyclic shifts pooled by the FFT path ([Spectra]).
type CyclicMode int

const (
	// Shift2D pools over all h·w cyclic 2-D translations of h×w images (Liu et al.'s
	// TI; group.AllCyclicShifts(h, w)).
	Shift2D CyclicMode = iota
	// ShiftCols pools over the w cyclic shifts of the columns, the same shift for every
	// row (group.CyclicShifts(h, w, {(0, 0), (0, 1), ..., (0, w-1)})). On a polar grid
	// ([PolarGrid]: rows are annuli, columns sectors) these are the rotations by
	// multiples of 360/w degrees (Liu et al.'s RI).
	ShiftCols
)

// String returns "2-D cyclic shifts" or "column cyclic shifts".
func (m CyclicMode) String() string {
	switch m {
	case Shift2D:
		return "2-D cyclic shifts"
	case ShiftCols:
		return "column cyclic shifts"
	}
	return fmt.Sprintf("CyclicMode(%d)", int(m))
}

// Spectra holds the discrete Fourier transforms of a set of h×w images, computed once,
// for the FFT path of the cyclic best-fit and average-fit kernels ([CyclicGram],
// [CyclicSymGram]). With Shift2D each image x gets its 2-D real-input transform
//
//	X[ky, kx] = sum_{y, c} x[y, c] · exp(-2πi·(ky·y/h + kx·c/w)),  0 <= ky < h, 0 <= kx <= w/2,
//
// and with ShiftCols the transform of each row alone (kx only). Then for every shift s
// the inner product of the shifted image with z is one inverse transform of X·conj(Z):
//
//	<S_s x, z> = 1/(h·w) · sum_k X[k]·conj(Z[k])·exp(-2πi·k·s/(h, w))
//
// (circular cross-correlation), so a pair costs one product of spectra and one inverse
// real 2-D transform of h·w points instead of h·w inner products of length h·w.
//
// When built with a set T ([NewSpectra]), Spectra also holds the transforms of the
// copies t·x for t in T, and the kernels pool over T × shifts (TI-RI: T a set of
// rotations). Spectra is immutable once built and safe for concurrent use.
type Spectra struct {
	h, w, half int
	mode       CyclicMode
	n, copies  int
	plain      []complex128 // n × h·half
	trans      []complex128 // n·copies × h·half, nil without T
	norm       []float64    // ||x_i||²
	tnorm      []float64    // ||t·x_i||², n·copies
	tname      string
	pw, ph     *fftPlan // transforms along rows (w) and columns (h)
}

// NewSpectra transforms the rows of X (n×(h·w), images row-major) once, in parallel
// row blocks, for [CyclicGram] and [CyclicSymGram]. If T is not nil it also transforms
// the |T| copies t·x of every row (T acts on h·w vectors: rotations for TI-RI), which
// then play the role of the first argument of the kernels; the plain transforms are
// always kept for the second argument. Memory: 16·h·(w/2+1)·n·(1 + |T|) bytes.
//
// NewSpectra returns an error wrapping [ErrGramTooLarge] if that exceeds
// [MaxGramBytes], or ctx.Err(). It panics if h < 1, w < 1, X does not have h·w
// columns, mode is unknown or T.Dim() != h·w.
func NewSpectra(ctx context.Context, h, w int, mode CyclicMode, X *mat.Dense, T group.Action) (*Spectra, error) {
	if h < 1 || w < 1 {
		panic(fmt.Sprintf("kernel: NewSpectra: image size %dx%d must be at least 1x1", h, w))
	}
	if mode != Shift2D && mode != ShiftCols {
		panic(fmt.Sprintf("kernel: NewSpectra: unknown CyclicMode %d", int(mode)))
	}
	n, d := X.Dims()
	if d != h*w {
		panic(fmt.Sprintf("kernel: NewSpectra: X has %d columns, images are %dx%d = %d", d, h, w, h*w))
	}
	copies := 1
	if T != nil {
		if T.Dim() != d {
			panic(fmt.Sprintf("kernel: NewSpectra: %s acts on %d, images have %d pixels", T.Name(), T.Dim(), d))
		}
		copies = T.Len()
	}
	half := w/2 + 1
	sl := h * half
	total := n
	if T != nil {
		total += n * copies
	}
	if err := checkSize(total, 2*sl); err != nil {
		return nil, err
	}
	s := &Spectra{h: h, w: w, half: half, mode: mode, n: n, copies: copies,
		plain: make([]complex128, n*sl), norm: make([]float64, n)}
	if T != nil {
		s.trans = make([]complex128, n*copies*sl)
		s.tnorm = make([]float64, n*copies)
		s.tname = T.Name()
	}
	pw, ph := newFFTPlan(w), newFFTPlan(h)
	s.pw, s.ph = pw, ph
	bs := 16
	err := parallelBlocks(ctx, (n+bs-1)/bs, func(b int) {
		f := newForward(s, pw, ph)
		tmp := make([]float64, d)
		for i := b * bs; i < min((b+1)*bs, n); i++ {
			x := X.RawRowView(i)
			s.norm[i] = sumSq(x)
			f.transform(s.plain[i*sl:(i+1)*sl], x)
			for t := range copies * btoi(T != nil) {
				T.Apply(tmp, x, t)
				k := i*copies + t
				s.tnorm[k] = sumSq(tmp)
				f.transform(s.trans[k*sl:(k+1)*sl], tmp)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sumSq(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return s
}

// Len returns the number of images n.
func (s *Spectra) Len() int { return s.n }

// Copies returns |T| (1 when built without T).
func (s *Spectra) Copies() int { return s.copies }

// Size returns the image height and width.
func (s *Spectra) Size() (h, w int) { return s.h, s.w }

// Mode returns the shifts the kernels pool over.
func (s *Spectra) Mode() CyclicMode { return s.mode }

// Shifts returns the number of cyclic shifts pooled: h·w for Shift2D, w for ShiftCols.
func (s *Spectra) Shifts() int {
	if s.mode == Shift2D {
		return s.h * s.w
	}
	return s.w
}

// forward computes spectra of single images.
type forward struct {
	s      *Spectra
	pw, ph *fftPlan
	a, b   []complex128
}

func newForward(s *Spectra, pw, ph *fftPlan) *forward {
	hp := (s.h + 1) / 2
	sz := max(s.w*hp, s.h*s.half)
	return &forward{s: s, pw: pw, ph: ph, a: make([]complex128, sz), b: make([]complex128, sz)}
}

// transform writes the spectrum of the image x into dst (h×half).
func (f *forward) transform(dst []complex128, x []float64) {
	h, w, half := f.s.h, f.s.w, f.s.half
	hp := (h + 1) / 2
	// Rows 2p and 2p+1 packed as one complex sequence along the columns: layout [c][p].
	a := f.a[:w*hp]
	for p := range hp {
		r0 := x[2*p*w : (2*p+1)*w]
		if 2*p+1 < h {
			r1 := x[(2*p+1)*w : (2*p+2)*w]
			for c := range w {
				a[c*hp+p] = complex(r0[c], r1[c])
			}
		} else {
			for c := range w {
				a[c*hp+p] = complex(r0[c], 0)
			}
		}
	}
	z := f.pw.transform(a, f.b, hp, false)
	// Unpack: X_even[k] = (Z[k] + conj Z[-k])/2, X_odd[k] = (Z[k] - conj Z[-k])/(2i).
	for p := range hp {
		for k := range half {
			zk, zm := z[k*hp+p], z[((w-k)%w)*hp+p]
			er, ei := (real(zk)+real(zm))/2, (imag(zk)-imag(zm))/2
			dst[2*p*half+k] = complex(er, ei)
			if 2*p+1 < h {
				// (zk - conj zm)/(2i): zk - conj zm = (zr - mr) + i(zi + mi); /(2i) = ((zi+mi) - i(zr-mr))/2
				dst[(2*p+1)*half+k] = complex((imag(zk)+imag(zm))/2, -(real(zk)-real(zm))/2)
			}
		}
	}
	if f.s.mode == ShiftCols {
		return
	}
	// Columns: transform along y, batch over kx.
	c := f.a[:h*half]
	copy(c, dst)
	r := f.ph.transform(c, f.b, half, false)
	copy(dst, r[:h*half])
}

// CyclicGram returns the n×m cyclic best-fit or average-fit kernel matrix between the
// images of A (n, with copies t·x if A was built with a set T) and the plain images of B
// (m),
//
//	BestFit:     K_ij = max_{t in T, s}  k0(S_s·t·x_i, z_j)
//	AverageFit:  K_ij = mean_{t in T, s} k0(S_s·t·x_i, z_j)
//
// over the cyclic shifts S_s of A.Mode() (T = {identity} without a set). All inner
// products <S_s·t·x_i, z_j> come from one inverse FFT per (copy, pair) (see
// [Spectra]). Cyclic shifts preserve norms, so for the best fit with k0 increasing in
// the inner product (Linear, RBF, Poly of odd degree) only the largest inner product
// of each copy is needed; for Poly of even degree (not monotone below -1/gamma) the
// kernel is the larger of k0 at the largest and the smallest inner product; any other
// Base is evaluated at every shift. AverageFit with a Linear k0 reduces to
// <mean_s S_s t·x, z> = (sum t·x)(sum z)/(h·w) per copy and needs no transform.
//
// Work per pair: |T| products of h·(w/2+1) complex numbers and |T| inverse real
// transforms of h·w points (about 15·h·w·log2(h·w) flops); the pairs run in parallel
// row blocks over GOMAXPROCS goroutines, ctx checked once per block, and the rows done
// reported to ctx's [Progress] ([WithProgress]) after each block. CyclicGram returns
// k0.Validate()'s error, an error wrapping [ErrGramTooLarge] or ctx.Err(); it panics
// if A and B differ in image size or mode, or fit is unknown.
func CyclicGram(ctx context.Context, k0 Base, fit Fit, A, B *Spectra) (*mat.Dense, error) {
	fit.check("CyclicGram")
	checkSpectra(A, B)
	if err := k0.Validate(); err != nil {
		return nil, err
	}
	if err := checkSize(A.n, B.n); err != nil {
		return nil, err
	}
	out := mat.NewDense(max(A.n, 1), max(B.n, 1), nil)
	if A.n == 0 || B.n == 0 {
		return &mat.Dense{}, nil
	}
	if err := cyclicFill(ctx, k0, fit, A, B, false, out.RawMatrix()); err != nil {
		return nil, err
	}
	return out, nil
}

// CyclicSymGram returns the n×n cyclic kernel matrix of the images of A (see
// [CyclicGram]; the second argument uses the plain images of A), computing only the
// entries i <= j and mirroring them, so RawSymmetric().Data holds the full matrix. For
// A built without a set T the kernel is symmetric (the shifts form a group and
// <S_s x, z> = <x, S_{-s} z>), so this is exactly the full Gram matrix at half the
// cost; with rotation copies it is the symmetrised upper triangle. Errors and panics
// as in [CyclicGram].
func CyclicSymGram(ctx context.Context, k0 Base, fit Fit, A *Spectra) (*mat.SymDense, error) {
	fit.check("CyclicSymGram")
	if err := k0.Validate(); err != nil {
		return nil, err
	}
	if err := checkSize(A.n, A.n); err != nil {
		return nil, err
	}
	if A.n == 0 {
		return &mat.SymDense{}, nil
	}
	out := mat.NewSymDense(A.n, nil)
	s := out.RawSymmetric()
	g := blas64.General{Rows: A.n, Cols: A.n, Stride: s.Stride, Data: s.Data}
	if err := cyclicFill(ctx, k0, fit, A, A, true, g); err != nil {
		return nil, err
	}
	mirrorRows(g, 0, A.n)
	return out, nil
}

func checkSpectra(A, B *Spectra) {
	if A.h != B.h || A.w != B.w || A.mode != B.mode {
		panic(fmt.Sprintf("kernel: CyclicGram: spectra of %dx%d images (%v) and %dx%d images (%v)", A.h, A.w, A.mode, B.h, B.w, B.mode))
	}
}

// poolKind says how a copy's inner products become a kernel value.
type poolKind int

const (
	poolMax     poolKind = iota // k0 increasing in the inner product: k0(max)
	poolMaxMin                  // max(k0(max), k0(min))
	poolAll                     // best fit: max over all of k0
	poolMeanLin                 // average fit, linear: mean of inner products
	poolMean                    // average fit: mean over all of k0
)

func choosePool(k0 Base, fit Fit) poolKind {
	if fit == AverageFit {
		if _, ok := k0.(Linear); ok {
			return poolMeanLin
		}
		return poolMean
	}
	switch k := k0.(type) {
	case Linear, RBF:
		return poolMax
	case Poly:
		if k.Degree%2 == 1 {
			return poolMax
		}
		return poolMaxMin
	}
	return poolAll
}

// cyclicFill writes the kernel into out; with sym only entries j >= i, reporting the
// rows of A done to ctx's Progress (progressFor) after each block. Work goes in
// blocks of rows of A; within a block the loop over B is outside the loop over the
// block's rows, so each spectrum of B is read from memory once per block and then
// stays in L1 while the block's (L2-resident) spectra of A meet it.
func cyclicFill(ctx context.Context, k0 Base, fit Fit, A, B *Spectra, sym bool, out blas64.General) error {
	n := A.n
	pool := choosePool(k0, fit)
	nc := 1
	if A.trans != nil {
		nc = A.copies
	}
	// About 16 spectra of A per block (6.7 KB each at 28×28), fewer rows with copies.
	bs := max(1, 16/nc)
	if !sym {
		bs = max(1, min(bs, n/(4*workers())))
	}
	rep := progressFor(ctx, n)
	return parallelBlocks(ctx, (n+bs-1)/bs, func(b int) {
		e := newCorrEngine(A)
		i0, i1 := b*bs, min((b+1)*bs, n)
		e.block(k0, pool, fit, A, B, i0, i1, sym, out)
		rep.add(i1 - i0)
	})
}

// corrEngine holds the plans and buffers of one worker.
type corrEngine struct {
	pw, ph  *fftPlan
	a, b, c []complex128
	zero    []complex128 // a half spectrum of zeros (odd counts), read only
	vals    []float64
	s28     []complex128 // scratch of the 28×28 assembly path, allocated on first use
}

// colsBatch is the number of second arguments whose correlations one ShiftCols
// transform computes together.
const colsBatch = 16

func newCorrEngine(A *Spectra) *corrEngine {
	h, w, half := A.h, A.w, A.half
	hp := (h + 1) / 2
	sz := max(h*half, w*hp, colsBatch*half, w*(colsBatch+1)/2)
	return &corrEngine{pw: A.pw, ph: A.ph, zero: make([]complex128, half),
		a: make([]complex128, sz), b: make([]complex128, sz), c: make([]complex128, sz),
		vals: make([]float64, max(h*w, w*colsBatch))}
}

// block fills out[i][j] for i in [i0, i1) and every j (j >= i with sym) with the
// kernel between the copies of A_i and B_j.
func (e *corrEngine) block(k0 Base, pool poolKind, fit Fit, A, B *Spectra, i0, i1 int, sym bool, out blas64.General) {
	sl := A.h * A.half
	m := B.n
	nc := 1
	specs, norms := A.plain, A.norm
	if A.trans != nil {
		nc = A.copies
		specs, norms = A.trans, A.tnorm
	}
	inv := 1 / float64(A.h*A.w)
	if A.mode == ShiftCols {
		inv = 1 / float64(A.w)
	}
	jStart := 0
	if sym {
		jStart = i0
	}
	init := 0.0
	if fit == BestFit {
		init = math.Inf(-1)
	}
	for i := i0; i < i1; i++ {
		row := out.Data[i*out.Stride+jStart : i*out.Stride+m]
		for j := range row {
			row[j] = init
		}
	}
	step := 1
	if A.mode == ShiftCols && pool != poolMeanLin {
		step = colsBatch
	}
	for j := jStart; j < m; j += step {
		jb := min(step, m-j)
		zs := B.plain[j*sl : (j+1)*sl]
		for i := i0; i < i1; i++ {
			if sym && j+jb-1 < i {
				continue
			}
			orow := out.Data[i*out.Stride : i*out.Stride+m]
			for t := range nc {
				k := i*nc + t
				xs := specs[k*sl : (k+1)*sl]
				xx := norms[k]
				switch {
				case pool == poolMeanLin:
					// Shift2D: mean_s <S_s x, z> = (sum x)(sum z)/(h·w) = X[0,0]·Z[0,0]/(h·w).
					// ShiftCols: sum_y (sum_c x[y,c])(sum_c z[y,c])/w = sum_y X[y][0]·Z[y][0]/w.
					dc := real(xs[0]) * real(zs[0])
					if A.mode == ShiftCols {
						dc = 0
						for y := range A.h {
							dc += real(xs[y*A.half]) * real(zs[y*A.half])
						}
					}
					orow[j] += dc * inv / float64(nc)
				case A.mode == ShiftCols:
					vals := e.colsCorr(A, B, xs, j, jb)
					for q := range jb {
						if sym && j+q < i {
							continue
						}
						v := e.pool(k0, pool, vals[q*A.w:(q+1)*A.w], inv, xx, B.norm[j+q])
						orow[j+q] = combine(fit, orow[j+q], v, nc)
					}
				default:
					v := e.corr2D(k0, pool, A, xs, zs, inv, xx, B.norm[j])
					orow[j] = combine(fit, orow[j], v, nc)
				}
			}
		}
	}
}

func combine(fit Fit, acc, v float64, nc int) float64 {
	if fit == BestFit {
		return max(acc, v)
	}
	return acc + v/float64(nc)
}

// pool reduces the unnormalised correlations vals (times inv = inner products) to the
// kernel value of one copy.
func (e *corrEngine) pool(k0 Base, pool poolKind, vals []float64, inv, xx, zz float64) float64 {
	switch pool {
	case poolMax:
		mx := vals[0]
		for _, v := range vals[1:] {
			if v > mx {
				mx = v
			}
		}
		return fromExtremes(k0, pool, mx, 0, inv, xx, zz)
	case poolMaxMin:
		mx, mn := vals[0], vals[0]
		for _, v := range vals[1:] {
			if v > mx {
				mx = v
			}
			if v < mn {
				mn = v
			}
		}
		return fromExtremes(k0, pool, mx, mn, inv, xx, zz)
	case poolAll:
		best := math.Inf(-1)
		for _, v := range vals {
			best = max(best, k0.FromDot(v*inv, xx, zz))
		}
		return best
	default: // poolMean
		s := 0.0
		for _, v := range vals {
			s += k0.FromDot(v*inv, xx, zz)
		}
		return s / float64(len(vals))
	}
}

// corr2D returns the kernel value pooled over the h·w circular cross-correlations of
// the images with spectra xs and zs (computed in some order of the shifts, which
// pooling does not need).
func (e *corrEngine) corr2D(k0 Base, pool poolKind, A *Spectra, xs, zs []complex128, inv, xx, zz float64) float64 {
	h, w, half := A.h, A.w, A.half
	if h == 28 && w == 28 {
		return e.corr28(k0, pool, xs, zs, inv, xx, zz)
	}
	hp := (h + 1) / 2
	// P = X·conj(Z), layout [ky][kx].
	p := e.a[:h*half]
	zs = zs[:len(p)]
	xs = xs[:len(p)]
	for k := range p {
		xr, xi := real(xs[k]), imag(xs[k])
		zr, zi := real(zs[k]), imag(zs[k])
		p[k] = complex(xr*zr+xi*zi, xi*zr-xr*zi)
	}
	// Inverse along ky for every kx: Q[y][kx].
	q := e.ph.transform(p, e.b, half, true)
	// Pack rows 2r and 2r+1 of Q (half spectra along kx) as one full complex spectrum
	// along kx: Z[k][r] = Q[2r][k] + i·Q[2r+1][k], with Q[y][k] = conj Q[y][w-k] for k > w/2.
	zb := e.c[:w*hp]
	for r := range hp {
		q0 := q[2*r*half : (2*r+1)*half]
		var q1 []complex128
		if 2*r+1 < h {
			q1 = q[(2*r+1)*half : (2*r+2)*half]
		} else {
			q1 = e.zero
		}
		for k := range half {
			a, b := q0[k], q1[k]
			zb[k*hp+r] = complex(real(a)-imag(b), imag(a)+real(b))
		}
		for k := half; k < w; k++ {
			a, b := q0[w-k], q1[w-k]
			zb[k*hp+r] = complex(real(a)+imag(b), real(b)-imag(a))
		}
	}
	// q is consumed: e.a serves as scratch.
	res := e.pw.transform(zb, e.a, hp, true)
	if h%2 == 0 && (pool == poolMax || pool == poolMaxMin) {
		// Fused reduction: every real and imaginary part is one correlation.
		res = res[:w*hp]
		return poolPacked(res, k0, pool, inv, xx, zz)
	}
	vals := e.vals[:h*w]
	if h%2 == 0 {
		for k, v := range res[:w*hp] {
			vals[2*k], vals[2*k+1] = real(v), imag(v)
		}
	} else {
		// Odd h: the imaginary part of the last pair belongs to no row.
		o := 0
		for x := range w {
			for r := range hp {
				v := res[x*hp+r]
				vals[o] = real(v)
				o++
				if 2*r+1 < h {
					vals[o] = imag(v)
					o++
				}
			}
		}
	}
	return e.pool(k0, pool, vals, inv, xx, zz)
}

// colsCorr returns, for jb <= colsBatch images B_{j..j+jb-1}, the w unnormalised
// correlations over column shifts of each (q-th image at vals[q·w:(q+1)·w]).
func (e *corrEngine) colsCorr(A, B *Spectra, xs []complex128, j, jb int) []float64 {
	h, w, half := A.h, A.w, A.half
	sl := h * half
	pairs := (jb + 1) / 2
	// C_q[k] = sum_y X[y][k]·conj(Z_q[y][k]) for k <= w/2.
	c := e.a[:jb*half]
	for q := range jb {
		zs := B.plain[(j+q)*sl : (j+q+1)*sl]
		cq := c[q*half : (q+1)*half]
		clear(cq)
		for y := range h {
			xr := xs[y*half : (y+1)*half]
			zr := zs[y*half : (y+1)*half]
			for k := range cq {
				a, b := xr[k], zr[k]
				cq[k] += complex(real(a)*real(b)+imag(a)*imag(b), imag(a)*real(b)-real(a)*imag(b))
			}
		}
	}
	// Pack images 2r, 2r+1 as one full spectrum: layout [k][r].
	zb := e.c[:w*pairs]
	for r := range pairs {
		q0 := c[2*r*half : (2*r+1)*half]
		q1 := e.zero
		if 2*r+1 < jb {
			q1 = c[(2*r+1)*half : (2*r+2)*half]
		}
		for k := range half {
			a, b := q0[k], q1[k]
			zb[k*pairs+r] = complex(real(a)-imag(b), imag(a)+real(b))
		}
		for k := half; k < w; k++ {
			a, b := q0[w-k], q1[w-k]
			zb[k*pairs+r] = complex(real(a)+imag(b), real(b)-imag(a))
		}
	}
	res := e.pw.transform(zb, e.b, pairs, true)
	vals := e.vals[:jb*w]
	for x := range w {
		for r := range pairs {
			v := res[x*pairs+r]
			vals[2*r*w+x] = real(v)
			if 2*r+1 < jb {
				vals[(2*r+1)*w+x] = imag(v)
			}
		}
	}
	return vals
}

func workers() int { return max(1, runtime.GOMAXPROCS(0)) }

// poolPacked is the best fit over correlations packed two to a complex number (every real
// and imaginary part is one <T x, z>): k0 at the largest, and for poolMaxMin also at the
// smallest, of them scaled by inv.
func poolPacked(res []complex128, k0 Base, pool poolKind, inv, xx, zz float64) float64 {
	if pool == poolMax {
		// Two running maxima (real and imaginary parts) halve the compare chain.
		mr, mi := real(res[0]), imag(res[0])
		for _, v := range res[1:] {
			mr = max(mr, real(v))
			mi = max(mi, imag(v))
		}
		return fromExtremes(k0, pool, max(mr, mi), 0, inv, xx, zz)
	}
	mx, mn := real(res[0]), real(res[0])
	for _, v := range res {
		re, im := real(v), imag(v)
		if re > mx {
			mx = re
		}
		if im > mx {
			mx = im
		}
		if re < mn {
			mn = re
		}
		if im < mn {
			mn = im
		}
	}
	return fromExtremes(k0, pool, mx, mn, inv, xx, zz)
}

// fromExtremes is the best fit from the extreme correlations of a copy (unnormalised,
// times inv = inner products): k0 at the largest, mx, and for poolMaxMin the larger of
// k0 at mx and at the smallest, mn (mn is unused for poolMax).
func fromExtremes(k0 Base, pool poolKind, mx, mn, inv, xx, zz float64) float64 {
	kv := k0.FromDot(mx*inv, xx, zz)
	if pool == poolMaxMin {
		kv = max(kv, k0.FromDot(mn*inv, xx, zz))
	}
	return kv
}
