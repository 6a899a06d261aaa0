package feature

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// ThresholdRule selects the thresholds of the CDF pooling.
type ThresholdRule int

const (
	// TheoryThresholds are tau_k = s·k/n, k = -n..n (Mroueh et al.; the kernel of Theorem 1).
	TheoryThresholds ThresholdRule = iota
	// RangeThresholds spread 2n+1 thresholds evenly over [lo_j, hi_j], the range of the
	// projections <g_i t_j, x> of template j over the training inputs given to Fit (no
	// labels used). Better with very few templates (FINDINGS: X_perm, m = n = 5).
	RangeThresholds
)

// String returns "theory" or "range".
func (r ThresholdRule) String() string {
	switch r {
	case TheoryThresholds:
		return "theory"
	case RangeThresholds:
		return "range"
	}
	return fmt.Sprintf("ThresholdRule(%d)", int(r))
}

// Standardization selects a per-transformed-template affine map of the projections,
// fitted on the training inputs given to [CDF.Fit] (no labels used).
type Standardization int

const (
	// NoStandardization pools the projections <x, g_i t_j> as they are (the default).
	NoStandardization Standardization = iota
	// StandardizeMean subtracts mu_ij, the mean of <x, g_i t_j> over the training inputs:
	// the same as centring the (normalised) inputs by their mean, which removes what every
	// input shares (a spectrogram's common envelope) from the pooled distribution.
	StandardizeMean
	// StandardizeSpread maps <x, g_i t_j> to (<x, g_i t_j> - mu_ij)·sbar_j/s_ij, with s_ij
	// the projections' standard deviation over the training inputs and sbar_j the root mean
	// square of s_ij over i: every transformed template then has the same mean and spread
	// over the inputs, as it would under an exactly norm-preserving action on inputs closed
	// under it. Interpolated warps of white-noise templates are smoother than the template
	// and, rescaled to its norm, project with up to 2.5 times its variance on spectrograms.
	StandardizeSpread
)

// String returns "none", "mean" or "spread".
func (s Standardization) String() string {
	switch s {
	case NoStandardization:
		return "none"
	case StandardizeMean:
		return "mean"
	case StandardizeSpread:
		return "spread"
	}
	return fmt.Sprintf("Standardization(%d)", int(s))
}

// CDFOptions configures [NewCDF]. The zero value of every field except Bins is a valid
// default.
type CDFOptions struct {
	Bins       int           // n >= 1: 2n+1 thresholds per template
	Eps        float64       // s = 1 + Eps >= 1, the threshold range of TheoryThresholds
	Normalize  bool          // scale every input row to unit norm first (zero rows stay zero)
	Rescale    bool          // rescale every g_i t_j to ||t_j|| (interpolated rotations lose norm)
	Thresholds ThresholdRule // TheoryThresholds (default) or RangeThresholds (needs Fit)
	Trapezoid  bool          // weight the two end thresholds by 1/sqrt(2) (trapezoid rule)
	// Standardize maps each transformed template's projections by an affine map fitted in
	// Fit (needs Fit before Transform unless NoStandardization).
	Standardize Standardization
	BlockRows   int // input rows per worker block; 0: DefaultBlockRows
	// TemplateBlock is the number of templates whose transformed copies are held at once;
	// 0: as many as fit in DefaultTemplateBytes of float32.
	TemplateBlock int
}

// ErrNotFitted is returned by [CDF.Transform] for RangeThresholds or a Standardize option
// before [CDF.Fit].
var ErrNotFitted = errors.New("feature: range thresholds or standardization are not fitted: call Fit on the training inputs before Transform")

// CDF is the I-theory feature map of Mroueh, Voinea and Poggio (NIPS 2015, eq. 3): for m
// templates t_j and a finite set G = {g_1..g_|G|} acting on R^d,
//
//	phi(x, t_j, tau_k) = c_j · w_k · #{ i : <g_i t_j, x> <= tau_k },   k = 0..2n,
//	c_j = sqrt(b_j / m) / |G|,
//
// with thresholds tau_k = a_j + b_j·k. TheoryThresholds: a_j = -s, b_j = s/n (so tau runs
// over s·k/n, k = -n..n, and c_j = sqrt(s/(n·m))/|G|); RangeThresholds: a_j = lo_j,
// b_j = (hi_j - lo_j)/(2n). w_k = 1, except w_0 = w_2n = 1/sqrt(2) with Trapezoid, so that
//
//	<Phi(x), Phi(z)> = (1/m) sum_j  trapezoid sum over tau of F_x,j(tau) F_z,j(tau) · b_j
//	                 ≈ s - d_G(x, z)          (Theorem 1; see OrbitDistance),
//
// where F_x,j is the empirical CDF of the projections; without the trapezoid weights the
// plain sum adds about s/(2n). Phi(x) has m·(2n+1) entries, template-major
// (column j·(2n+1) + k).
//
// Numerics: the projections are computed in float32 (one blas32 GEMM per block, see the
// package doc), which is accurate to about 1e-6 for unit-norm x and t; since every
// projection lies in [-1, 1] and only its position relative to the thresholds matters, a
// count can change only for projections within ~1e-6 of a threshold.
type CDF struct {
	opt    CDFOptions
	s      float64
	m      int
	proj   projector
	a, b   []float64 // per-template threshold origin and step
	fitted bool
}

// NewCDF returns the CDF feature map for the m×d templates and the action g (g.Dim() == d).
// The templates are used as given (not copied: do not modify them afterwards). It
// returns an error if opt.Bins < 1 or opt.Eps < 0, and panics if the template dimension
// does not match g.
func NewCDF(templates *mat.Dense, g group.Action, opt CDFOptions) (*CDF, error) {
	if opt.Bins < 1 {
		return nil, fmt.Errorf("feature: CDF needs at least 1 bin (n), got %d: set Bins >= 1", opt.Bins)
	}
	if opt.Eps < 0 || math.IsNaN(opt.Eps) {
		return nil, fmt.Errorf("feature: CDF eps is %v: set Eps >= 0 (s = 1 + eps)", opt.Eps)
	}
	if opt.Thresholds != TheoryThresholds && opt.Thresholds != RangeThresholds {
		return nil, fmt.Errorf("feature: unknown threshold rule %v: use TheoryThresholds or RangeThresholds", opt.Thresholds)
	}
	if opt.Standardize < NoStandardization || opt.Standardize > StandardizeSpread {
		return nil, fmt.Errorf("feature: unknown standardization %v: use NoStandardization, StandardizeMean or StandardizeSpread", opt.Standardize)
	}
	m, _ := templates.Dims()
	c := &CDF{opt: opt, s: 1 + opt.Eps, m: m,
		proj: newProjector(templates, g, opt.Normalize, opt.Rescale, opt.BlockRows, opt.TemplateBlock),
		a:    make([]float64, m), b: make([]float64, m)}
	if opt.Thresholds == TheoryThresholds {
		for j := range m {
			c.a[j], c.b[j] = -c.s, c.s/float64(opt.Bins)
		}
		c.fitted = opt.Standardize == NoStandardization
	}
	return c, nil
}

// Name returns "CDF(n,m)", the series name the papers use.
func (c *CDF) Name() string { return fmt.Sprintf("CDF(%d,%d)", c.opt.Bins, c.m) }

// OutputDim returns m·(2n+1). It panics if d is not the templates' dimension.
func (c *CDF) OutputDim(d int) int {
	if _, dt := c.proj.tmpl.Dims(); d != dt {
		panic(fmt.Sprintf("feature: CDF templates have dimension %d, input has %d", dt, d))
	}
	return c.m * (2*c.opt.Bins + 1)
}

// Thresholds returns the 2n+1 thresholds tau_k = a_j + b_j·k of template j (nil for
// RangeThresholds before Fit). It panics if j is outside [0, m).
func (c *CDF) Thresholds(j int) []float64 {
	if j < 0 || j >= c.m {
		panic(fmt.Sprintf("feature: template %d outside [0,%d)", j, c.m))
	}
	if !c.fitted {
		return nil
	}
	t := make([]float64, 2*c.opt.Bins+1)
	for k := range t {
		t[k] = c.a[j] + c.b[j]*float64(k)
	}
	return t
}

// Fit fits what the options leave to the training inputs x (n×d), after normalisation if
// Normalize, in this order:
//
//   - Standardize: mu_ij and s_ij, the mean and standard deviation of <g_i t_j, x_r> over
//     the rows r (see [Standardization]); an element whose projections are all equal keeps
//     scale 1;
//   - RangeThresholds: lo_j and hi_j, the smallest and largest (standardised) projection
//     over all rows r and elements i. A template whose projections are all equal gets the
//     range [p - s/(2n), p + s/(2n)].
//
// With TheoryThresholds and NoStandardization Fit does nothing. It returns ctx.Err() if
// cancelled (the map is then left unchanged) and an error if x has no rows.
func (c *CDF) Fit(ctx context.Context, x *mat.Dense, progress func(done, total int)) error {
	if c.opt.Thresholds != RangeThresholds && c.opt.Standardize == NoStandardization {
		return nil
	}
	if x.IsEmpty() {
		return errors.New("feature: Fit needs training inputs, got none: pass the training rows")
	}
	c.OutputDim(x.RawMatrix().Cols)
	oldOff, oldScale := c.proj.off, c.proj.scale
	if c.opt.Standardize != NoStandardization {
		c.proj.off, c.proj.scale = nil, nil
		off, scale, err := c.fitStandardization(ctx, x, progress)
		if err != nil {
			c.proj.off, c.proj.scale = oldOff, oldScale
			return err
		}
		c.proj.off, c.proj.scale = off, scale
	}
	if c.opt.Thresholds == RangeThresholds {
		if err := c.fitRange(ctx, x, progress); err != nil {
			c.proj.off, c.proj.scale = oldOff, oldScale
			return err
		}
	}
	c.fitted = true
	return nil
}

// FixSupport makes every later projection (Fit, Transform, TransformCounts) run over the
// input columns that are nonzero in some row of x, or in the rows projected: the columns
// zero in every input are skipped (they add exact zeros), and which ones are skipped
// decides the length of the float32 sums. So after FixSupport(x), the features of any
// subset of x's rows are bit for bit the rows of the features of x. It panics if x's
// width is not the templates' dimension.
func (c *CDF) FixSupport(x *mat.Dense) {
	c.OutputDim(x.RawMatrix().Cols)
	c.proj.support = columnSupport(x)
}

// fitStandardization returns the offsets and scales of c.opt.Standardize over the rows
// of x (one projection pass with the projector's standardisation off).
func (c *CDF) fitStandardization(ctx context.Context, x *mat.Dense, progress func(done, total int)) (off, scale []float32, err error) {
	G := c.proj.g.Len()
	sum, sq := make([]float64, c.m*G), make([]float64, c.m*G)
	var mu sync.Mutex
	_, err = c.proj.run(ctx, x, progress, func(ws *workspace, r0, nr, j0, nj int, proj []float32, ld int) {
		s1, s2 := make([]float64, nj*G), make([]float64, nj*G)
		for r := range nr {
			for k, v := range proj[r*ld : r*ld+nj*G] {
				s1[k] += float64(v)
				s2[k] += float64(v) * float64(v)
			}
		}
		mu.Lock()
		for k := range s1 {
			sum[j0*G+k] += s1[k]
			sq[j0*G+k] += s2[k]
		}
		mu.Unlock()
	})
	if err != nil {
		return nil, nil, err
	}
	n, _ := x.Dims()
	off, scale = make([]float32, c.m*G), make([]float32, c.m*G)
	sd := make([]float64, G)
	for j := range c.m {
		var ms float64
		for i := range G {
			e := j*G + i
			mean := sum[e] / float64(n)
			off[e] = float32(mean)
			sd[i] = math.Sqrt(max(0, sq[e]/float64(n)-mean*mean))
			ms += sd[i] * sd[i] / float64(G)
		}
		for i := range G {
			scale[j*G+i] = 1
			if c.opt.Standardize == StandardizeSpread && sd[i] > 0 {
				scale[j*G+i] = float32(math.Sqrt(ms) / sd[i])
			}
		}
	}
	return off, scale, nil
}

// fitRange sets the range thresholds from the projections of the rows of x.
func (c *CDF) fitRange(ctx context.Context, x *mat.Dense, progress func(done, total int)) error {
	G := c.proj.g.Len()
	lo, hi := make([]float64, c.m), make([]float64, c.m)
	for j := range c.m {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	var mu sync.Mutex
	_, err := c.proj.run(ctx, x, progress, func(ws *workspace, r0, nr, j0, nj int, proj []float32, ld int) {
		for jj := range nj {
			l, h := float32(math.Inf(1)), float32(math.Inf(-1))
			for r := range nr {
				for _, v := range proj[r*ld+jj*G : r*ld+(jj+1)*G] {
					l = min(l, v)
					h = max(h, v)
				}
			}
			mu.Lock()
			lo[j0+jj] = min(lo[j0+jj], float64(l))
			hi[j0+jj] = max(hi[j0+jj], float64(h))
			mu.Unlock()
		}
	})
	if err != nil {
		return err
	}
	n2 := float64(2 * c.opt.Bins)
	for j := range c.m {
		if !(hi[j] > lo[j]) {
			half := c.s / n2
			lo[j], hi[j] = lo[j]-half, lo[j]+half
		}
		c.a[j], c.b[j] = lo[j], (hi[j]-lo[j])/n2
	}
	return nil
}

// Transform returns the n×m(2n+1) features of the rows of x (see [CDF]). Memory beyond
// the result is bounded by the block sizes (GOMAXPROCS row blocks of projections and one
// template block of transformed templates), never n·m·|G|. It returns ErrNotFitted for
// RangeThresholds before Fit, ctx.Err() if cancelled (checked before every GEMM of a few
// templates), and panics if x has not d columns.
func (c *CDF) Transform(ctx context.Context, x *mat.Dense, progress func(done, total int)) (*mat.Dense, error) {
	out, _, err := c.TransformTimed(ctx, x, progress)
	return out, err
}

// TransformTimed is [CDF.Transform] that also returns where the time went (for
// benchmarks and `gitui bench`).
func (c *CDF) TransformTimed(ctx context.Context, x *mat.Dense, progress func(done, total int)) (*mat.Dense, Timing, error) {
	n, d := x.Dims()
	D := c.OutputDim(d)
	if !c.fitted {
		return nil, Timing{}, ErrNotFitted
	}
	out := mat.NewDense(n, D, nil)
	K := 2*c.opt.Bins + 1
	G := c.proj.g.Len()
	w := make([]float64, 2*c.m) // per template: interior weight, end weight
	for j := range c.m {
		w[2*j], w[2*j+1] = c.weights(j, G)
	}
	raw := out.RawMatrix()
	tm, err := c.proj.run(ctx, x, progress, func(ws *workspace, r0, nr, j0, nj int, proj []float32, ld int) {
		if len(ws.hist) < 4*(K+1) {
			ws.hist = make([]int32, 4*(K+1))
		}
		for r := range nr {
			dst := raw.Data[(r0+r)*raw.Stride:]
			for jj := range nj {
				j := j0 + jj
				cdfPool(dst[j*K:(j+1)*K], proj[r*ld+jj*G:r*ld+(jj+1)*G], c.a[j], 1/c.b[j], w[2*j], w[2*j+1], ws.hist)
			}
		}
	})
	if err != nil {
		return nil, tm, err
	}
	return out, tm, nil
}

// weights returns the weight of template j's interior thresholds and of its two end
// thresholds (the trapezoid's 1/sqrt(2)), for a set of G transformations.
func (c *CDF) weights(j, G int) (w, wEnd float64) {
	w = math.Sqrt(c.b[j]/float64(c.m)) / float64(G)
	wEnd = w
	if c.opt.Trapezoid {
		wEnd = w / math.Sqrt2
	}
	return w, wEnd
}

// cdfPool writes the K = len(dst) CDF features of one (sample, template) pair:
//
//	dst[k] = wk · #{ i : p[i] <= a + k/invb },   wk = wEnd for k = 0, K-1, else w.
//
// The counts come from cdfCount; hist needs 4(K+1) entries.
func cdfPool(dst []float64, p []float32, a, invb, w, wEnd float64, hist []int32) {
	K := len(dst)
	cdfCount(p, a, invb, K, hist)
	dst[0] = float64(hist[0]) * wEnd
	for k := 1; k < K-1; k++ {
		dst[k] = float64(hist[k]) * w
	}
	dst[K-1] = float64(hist[K-1]) * wEnd
}

// cdfCount leaves in hist[0..K-1] the counts #{ i : p[i] <= a + k/invb }, k = 0..K-1.
// p[i] <= a + k/invb  ⇔  k >= ceil((p[i]-a)·invb), so each projection increments one
// histogram bin q = ceil((p-a)·invb) clipped to [0, K] (K: above every threshold; the
// clip is applied to the argument, branch-free, before ceil) and a cumulative sum gives
// the counts. Four interleaved histograms break the store-to-load dependency when
// consecutive projections fall in the same bin. hist needs 4(K+1) entries.
func cdfCount(p []float32, a, invb float64, K int, hist []int32) {
	H := K + 1
	h := hist[:4*H]
	clear(h)
	h0, h1, h2, h3 := h[:H], h[H:2*H], h[2*H:3*H], h[3*H:]
	kf := float64(K)
	bin := func(v float32) int {
		t := (float64(v) - a) * invb
		if !(t >= 0) { // also NaN
			t = 0
		}
		if t > kf {
			t = kf
		}
		return int(math.Ceil(t))
	}
	i := 0
	for ; i+4 <= len(p); i += 4 {
		h0[bin(p[i])]++
		h1[bin(p[i+1])]++
		h2[bin(p[i+2])]++
		h3[bin(p[i+3])]++
	}
	for ; i < len(p); i++ {
		h0[bin(p[i])]++
	}
	// The cumulative counts overwrite h0 (each h0[k] is read before it is written).
	acc := int32(0)
	for k := range K {
		acc += h0[k] + h1[k] + h2[k] + h3[k]
		h0[k] = acc
	}
}

var (
	_ Map    = (*CDF)(nil)
	_ Fitter = (*CDF)(nil)
	_ Map    = (*Moments)(nil)
	_ Map    = Raw{}
	_ Map    = BagOfWords{}
)
