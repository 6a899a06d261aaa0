package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/core/learn"
)

// liuKernel computes one of Liu et al.'s kernels between sets of h×w images: a base
// kernel (Poly, RBF, Linear) or the locality kernel, made invariant (TI, RI, TI-RI) by
// the best or average fit over a set of transformations. Which engine path it takes:
//
//	plain base kernel            kernel.SymGram / Gram (GEMM)
//	TI (cyclic)                  FFT: Spectra Shift2D, CyclicSymGram / CyclicGram
//	TI (zero-fill)               the same on a 2h×2w zero canvas (no wrap-around)
//	RI (rotated copies)          FitSymGram / FitGram over group.Rotations (GEMM)
//	RI (polar grid)              PolarGrid, then Spectra ShiftCols (FFT along the angle)
//	TI-RI                        Spectra Shift2D with the rotations as extra transforms
//	locality (L-SVM)             LocalitySymGram / LocalityGram (GEMM on the explicit
//	                             feature map for d1 <= 2 and one layer, else direct)
//	L-TI, L-RI, L-TI-RI          FitLocalitySymGram / FitLocalityGram over local shifts of
//	                             radius Shifts (3: 49 shifts), rotations, or their product
//	TI, TI-RI with Shifts k > 0  FitSymGram / FitGram over the (2k+1)² shifts |dy|, |dx| <= k
//	                             (times the rotations for TI-RI), see localTI
//
// L-TI uses local shifts instead of all 784 cyclic shifts: the locality kernel is not a
// function of the images' inner product, so every shift costs a product of feature maps
// (2·11,760 flops per pair and shift for k1 = 3), or a direct evaluation without one.
type liuKernel struct {
	m     Method
	h, w  int
	base  kernel.Base
	loc   *kernel.Locality
	fit   kernel.Fit
	rot   group.Action // rotations for RI and TI-RI (nil: none or polar)
	polar *kernel.PolarGrid
	set   group.Action // the transformations of the locality compositions
	pad   bool         // zero-fill translations: images on a 2h×2w canvas
	// margin > 0: TI or TI-RI over the local shifts k.set on an (h+2·margin)×(w+2·margin)
	// zero canvas, so that no shift loses a pixel (see localTI).
	margin int
	psd    kernel.PSDMode
}

// newLiuKernel checks m against the image shape and returns its kernel. Errors are
// *InputError naming the fix.
func newLiuKernel(m Method, shape []int) (*liuKernel, error) {
	k := &liuKernel{m: m, fit: kernel.BestFit}
	if m.Fit == "average" {
		k.fit = kernel.AverageFit
	}
	psd, err := kernel.ParsePSDMode(m.PSD)
	if err != nil {
		return nil, inputErr(fmt.Errorf("%s: %w", m.Name, err))
	}
	k.psd = psd
	if m.KernelNorm != "" && m.KernelNorm != "cosine" {
		return nil, inputErr(fmt.Errorf("%s: kernel_norm %q: use cosine, or leave it out to divide by the training diagonal's mean", m.Name, m.KernelNorm))
	}
	switch m.Kernel {
	case "linear":
		k.base = kernel.Linear{}
	case "rbf":
		k.base = kernel.RBF{Gamma: m.Gamma}
	case "poly":
		k.base = kernel.Poly{Gamma: m.Gamma, Degree: m.Degree}
	default:
		return nil, inputErr(fmt.Errorf("%s: kernel %q has no SVM Gram: use linear, rbf or poly", m.Name, m.Kernel))
	}
	if err := k.base.Validate(); err != nil {
		return nil, inputErr(fmt.Errorf("%s: %w", m.Name, err))
	}
	if m.Invariance == "" && m.Locality == nil {
		return k, nil
	}
	if len(shape) != 2 || shape[0] < 2 || shape[1] < 2 {
		return nil, inputErr(fmt.Errorf("%s: invariance %q and locality need images (shape h x w), the data have shape %v: use an image data set or drop invariance", m.Name, m.Invariance, shape))
	}
	k.h, k.w = shape[0], shape[1]
	k.pad = strings.Contains(m.Invariance, "TI") && m.Translation == "zero-fill"
	ch, cw := k.h, k.w
	if k.pad {
		ch, cw = 2*k.h, 2*k.w
	}
	if strings.Contains(m.Invariance, "RI") && m.Polar == nil {
		// The polar grid samples the inscribed disc and is exact for any h×w; rotated
		// copies need a square image.
		if err := squareForRotation(m.Name+": invariance "+m.Invariance, k.h, k.w); err != nil {
			return nil, err
		}
	}
	if strings.Contains(m.Invariance, "RI") {
		if m.Polar != nil {
			k.polar = kernel.NewPolarGrid(k.h, k.w, m.Polar.Annuli, m.Polar.Sectors)
		} else {
			a := m.Rotations
			k.rot = group.Rotations(ch, cw, group.AngleRange(a.From, a.To, a.Count))
		}
	}
	if strings.Contains(m.Invariance, "TI") && m.Shifts > 0 && m.Locality == nil {
		if err := k.localTI(m); err != nil {
			return nil, err
		}
	}
	if l := m.Locality; l != nil {
		k.loc = &kernel.Locality{H: k.h, W: k.w, K1: l.K1, D1: l.D1, D2: l.D2, K2: l.K2, D3: l.D3, S1: l.Scale, S2: l.Scale2}
		if err := k.loc.Validate(); err != nil {
			return nil, inputErr(fmt.Errorf("%s: %w", m.Name, err))
		}
		if m.Polar != nil {
			return nil, inputErr(fmt.Errorf("%s: the locality kernel composes with rotated copies, not the polar grid: drop polar", m.Name))
		}
		var shifts group.Action
		if strings.Contains(m.Invariance, "TI") {
			var err error
			if shifts, err = localShifts(m, k.h, k.w); err != nil {
				return nil, err
			}
		}
		rot := func() group.Action {
			a := m.Rotations
			return group.Rotations(k.h, k.w, group.AngleRange(a.From, a.To, a.Count))
		}
		switch m.Invariance {
		case "TI":
			k.set = shifts
		case "RI":
			k.set = rot()
		case "TI-RI":
			k.set = group.Product(shifts, rot())
		}
		k.pad, k.rot = false, nil
	}
	return k, nil
}

// localShifts returns the shifts of the locality compositions L-TI and L-TI-RI: every
// (dy, dx) with |dy|, |dx| <= m.Shifts (0 means 3), cyclic or zero-fill as
// m.Translation says. The radius must leave the shifts distinct: below the image size
// with zero fill, below half of it when cyclic (a cyclic shift by -r equals one by h-r).
// Errors are *InputError naming the largest radius allowed.
func localShifts(m Method, h, w int) (group.Action, error) {
	r := m.Shifts
	if r == 0 {
		r = 3
	}
	most := min(h, w) - 1
	if m.Translation == "cyclic" {
		most = (min(h, w) - 1) / 2
	}
	if r > most {
		return nil, inputErr(fmt.Errorf("%s: shifts %d is too large for the %dx%d image: use a radius of at most %d with %s translations", m.Name, r, h, w, most, m.Translation))
	}
	if m.Translation != "cyclic" {
		return group.LocalShifts(h, w, r), nil
	}
	var s [][2]int
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			s = append(s, [2]int{dy, dx})
		}
	}
	return group.CyclicShifts(h, w, s), nil
}

// localTI sets k up for TI and TI-RI restricted to the (2r+1)² shifts |dy|, |dx| <= r,
// r = m.Shifts > 0, computed through GEMM (kernel.FitSymGram / FitGram) instead of the
// FFT over every translation:
//
//	BestFit:     K(x, z) = max_{|dy|,|dx| <= r}  k0(S_{dy,dx}·R·x, z)
//	AverageFit:  K(x, z) = mean_{|dy|,|dx| <= r} k0(S_{dy,dx}·R·x, z)
//
// with R the identity (TI) or each rotation (TI-RI, max or mean over the product set).
// Cyclic: S wraps around the h×w image (group.CyclicShifts); the kernel is the full
// cyclic TI kernel restricted to these shifts. Zero-fill: S moves the image on a zero
// canvas large enough that no pixel is lost, which makes the kernel the full zero-fill
// kernel (the FFT path on the 2h×2w canvas) restricted to these shifts. Linear and Poly
// see only <S·x, z>, where pixels leaving the h×w image meet zeros of z, so plain TI
// shifts the h×w image itself (group.LocalShifts); RBF also needs ||S·x|| = ||x||, and
// rotations must keep what they turn past the border, so those images go on an
// (h+2r)×(w+2r) canvas first (k.margin = r). The radius must keep the shifts distinct
// (localShifts). Errors are *InputError.
func (k *liuKernel) localTI(m Method) error {
	r := m.Shifts
	shifts, err := localShifts(m, k.h, k.w)
	if err != nil {
		return err
	}
	ch, cw := k.h, k.w
	if m.Translation == "zero-fill" {
		_, lin := k.base.(kernel.Linear)
		_, pol := k.base.(kernel.Poly)
		if m.Invariance == "TI-RI" || !lin && !pol {
			k.margin = r
			ch, cw = k.h+2*r, k.w+2*r
			shifts = group.LocalShifts(ch, cw, r)
		}
	}
	k.set = shifts
	if m.Invariance == "TI-RI" {
		a := m.Rotations
		k.set = group.Product(shifts, group.Rotations(ch, cw, group.AngleRange(a.From, a.To, a.Count)))
	}
	k.pad, k.rot = false, nil
	return nil
}

// self returns the kernel's k(x, x) on an untransformed sample (the locality kernel, or
// the base kernel), for checkKernelScale.
func (k *liuKernel) self() *selfKernel {
	if k.loc != nil {
		return selfOfLocality(k.loc)
	}
	return selfOf(k.base)
}

// canvas returns X as the kernel sees it: on the 2h×2w zero canvas for zero-fill
// translations, resampled on the polar grid for polar RI, else X itself.
func (k *liuKernel) canvas(ctx context.Context, X *mat.Dense) (*mat.Dense, int, int, error) {
	switch {
	case k.pad:
		return kernel.PadCentered(X, k.h, k.w, 2*k.h, 2*k.w), 2 * k.h, 2 * k.w, nil
	case k.margin > 0:
		h, w := k.h+2*k.margin, k.w+2*k.margin
		return kernel.PadCentered(X, k.h, k.w, h, w), h, w, nil
	case k.polar != nil:
		P, err := k.polar.Transform(ctx, X)
		return P, k.polar.Annuli, k.polar.Sectors, err
	}
	return X, k.h, k.w, nil
}

// spectra transforms X for the FFT path, with the rotated copies when withRot.
func (k *liuKernel) spectra(ctx context.Context, X *mat.Dense, withRot bool) (*kernel.Spectra, error) {
	C, h, w, err := k.canvas(ctx, X)
	if err != nil {
		return nil, err
	}
	mode := kernel.Shift2D
	if k.polar != nil {
		mode = kernel.ShiftCols
	}
	var T group.Action
	if withRot && k.m.Invariance == "TI-RI" {
		T = k.rot
	}
	return kernel.NewSpectra(ctx, h, w, mode, C, T)
}

// fft reports whether k takes the FFT path.
func (k *liuKernel) fft() bool {
	return k.loc == nil && k.set == nil && (strings.Contains(k.m.Invariance, "TI") || k.polar != nil)
}

// sym returns the n×n Gram matrix of the rows of X.
func (k *liuKernel) sym(ctx context.Context, X *mat.Dense) (*mat.SymDense, error) {
	switch {
	case k.loc != nil && k.set == nil:
		return kernel.LocalitySymGram(ctx, *k.loc, X)
	case k.loc != nil:
		return kernel.FitLocalitySymGram(ctx, *k.loc, k.set, k.fit, X)
	case k.set != nil:
		C, _, _, err := k.canvas(ctx, X)
		if err != nil {
			return nil, err
		}
		return kernel.FitSymGram(ctx, k.base, k.set, k.fit, C)
	case k.fft():
		A, err := k.spectra(ctx, X, true)
		if err != nil {
			return nil, err
		}
		return kernel.CyclicSymGram(ctx, k.base, k.fit, A)
	case k.rot != nil:
		C, _, _, err := k.canvas(ctx, X)
		if err != nil {
			return nil, err
		}
		return kernel.FitSymGram(ctx, k.base, k.rot, k.fit, C)
	}
	return kernel.SymGram(ctx, k.base, X)
}

// crossBlock bounds the rows of X transformed at once by cross (spectra memory).
const crossBlock = 2000

// cross returns the n×m matrix K(x_i, z_j) between the rows of X (transformed: the test
// samples) and the rows of Z (the training samples), in blocks of crossBlock rows of X.
func (k *liuKernel) cross(ctx context.Context, X, Z *mat.Dense) (*mat.Dense, error) {
	n, _ := X.Dims()
	m, _ := Z.Dims()
	if need := int64(8) * int64(n) * int64(m); need > kernel.MaxGramBytes {
		return nil, fmt.Errorf("a %d x %d kernel matrix needs %.1f GiB, above the limit of %.1f GiB: use fewer test samples (data.test_size) or training samples: %w",
			n, m, float64(need)/(1<<30), float64(kernel.MaxGramBytes)/(1<<30), kernel.ErrGramTooLarge)
	}
	var B *kernel.Spectra
	var Zc *mat.Dense
	var err error
	if k.fft() {
		if B, err = k.spectra(ctx, Z, false); err != nil {
			return nil, err
		}
	} else if k.rot != nil || k.loc == nil && k.set != nil {
		if Zc, _, _, err = k.canvas(ctx, Z); err != nil {
			return nil, err
		}
	}
	out := mat.NewDense(n, m, nil)
	for r0 := 0; r0 < n; r0 += crossBlock {
		r1 := min(n, r0+crossBlock)
		Xb := X.Slice(r0, r1, 0, X.RawMatrix().Cols).(*mat.Dense)
		var Kb *mat.Dense
		switch {
		case k.loc != nil && k.set == nil:
			Kb, err = kernel.LocalityGram(ctx, *k.loc, Xb, Z)
		case k.loc != nil:
			Kb, err = kernel.FitLocalityGram(ctx, *k.loc, k.set, k.fit, Xb, Z)
		case k.set != nil:
			var Xc *mat.Dense
			if Xc, _, _, err = k.canvas(ctx, Xb); err == nil {
				Kb, err = kernel.FitGram(ctx, k.base, k.set, k.fit, Xc, Zc)
			}
		case k.fft():
			var A *kernel.Spectra
			if A, err = k.spectra(ctx, Xb, true); err == nil {
				Kb, err = kernel.CyclicGram(ctx, k.base, k.fit, A, B)
			}
		case k.rot != nil:
			var Xc *mat.Dense
			if Xc, _, _, err = k.canvas(ctx, Xb); err == nil {
				Kb, err = kernel.FitGram(ctx, k.base, k.rot, k.fit, Xc, Zc)
			}
		default:
			Kb, err = kernel.Gram(ctx, k.base, Xb, Z)
		}
		if err != nil {
			return nil, err
		}
		out.Slice(r0, r1, 0, m).(*mat.Dense).Copy(Kb)
	}
	return out, nil
}

// gramMethod is a kernel method of Liu et al. (or a plain base kernel) with the svm or rls
// learner. Prepare computes the kernel once for the union of every training draw of the
// run (draws, enumerated from the protocol before it runs): the union's training Gram and
// the test × union matrix; FitPredict slices the rows and columns of its draw.
type gramMethod struct {
	spec  Method
	k     *liuKernel
	draws [][]int
	cache *gramCache // shared by the methods of a run (nil: none)
}

func (g *gramMethod) Name() string { return g.spec.Name }

func (g *gramMethod) Prepare(ctx context.Context, pool, test *data.Dataset, clk *eval.Clock) (eval.Fitter, error) {
	t0 := time.Now()
	union := unionOf(g.draws)
	pos := make(map[int]int, len(union))
	for a, i := range union {
		pos[i] = a
	}
	nt := test.Len()
	need := 8 * (int64(len(union))*int64(len(union)) + int64(nt)*int64(len(union)))
	if need > kernel.MaxGramBytes {
		return nil, inputErr(fmt.Errorf("%s: the kernel of %d training and %d test samples needs %.1f GiB, above the limit of %.1f GiB: use fewer test samples (data.test_size), sizes or repeats, or random features",
			g.spec.Name, len(union), nt, float64(need)/(1<<30), float64(kernel.MaxGramBytes)/(1<<30)))
	}
	key := kernelKey(g.spec, test)
	var err error
	if e, ok := g.cache.get(key); ok {
		if g.spec.cosine() && e.tself == nil {
			if e.tself, err = g.k.selfValues(ctx, test.X); err != nil {
				return nil, gramErr(g.spec.Name, err)
			}
			g.cache.put(key, e)
		}
		clk.Since("gram", t0)
		return &gramFitter{spec: g.spec, psd: g.k.psd, ktr: e.ktr, kte: e.kte, tself: e.tself, pos: pos, y: pool.Y, k: len(pool.Classes)}, nil
	}
	xu := pool.Subset(union).X
	self := g.k.self()
	if err := checkKernelScale(ctx, self, xu, test.X); err != nil {
		return nil, err
	}
	ktr, err := g.k.sym(ctx, xu)
	if err != nil {
		return nil, gramErr(g.spec.Name, err)
	}
	if err := checkGramFinite(ktr, self); err != nil {
		return nil, err
	}
	kte, err := g.k.cross(ctx, test.X, xu)
	if err != nil {
		return nil, gramErr(g.spec.Name, err)
	}
	if err := checkGramFinite(kte, self); err != nil {
		return nil, err
	}
	var tself []float64
	if g.spec.cosine() {
		if tself, err = g.k.selfValues(ctx, test.X); err != nil {
			return nil, gramErr(g.spec.Name, err)
		}
	}
	clk.Since("gram", t0)
	g.cache.put(key, gramEntry{ktr: ktr, kte: kte, tself: tself})
	return &gramFitter{spec: g.spec, psd: g.k.psd, ktr: ktr, kte: kte, tself: tself, pos: pos, y: pool.Y, k: len(pool.Classes)}, nil
}

// selfValues returns K(x_i, x_i) for the rows of X, the same kernel (and path) as cross:
// the test samples' own values for kernel_norm cosine. A best-fit kernel's value is
// max over T of k(T·x, x), at least k(x, x).
func (k *liuKernel) selfValues(ctx context.Context, X *mat.Dense) ([]float64, error) {
	n, d := X.Dims()
	out := make([]float64, n)
	for i := range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		x := X.RawRowView(i)
		switch {
		case k.loc != nil && k.set == nil:
			out[i] = k.loc.Eval(x, x)
			continue
		case k.loc == nil && !k.fft() && k.rot == nil && k.set == nil:
			out[i] = k.base.Eval(x, x)
			continue
		}
		xi := mat.NewDense(1, d, x)
		v, err := k.cross(ctx, xi, xi)
		if err != nil {
			return nil, err
		}
		out[i] = v.At(0, 0)
	}
	return out, nil
}

// gramErr marks a memory-limit error as an input error (the fix is a smaller spec).
func gramErr(name string, err error) error {
	if errors.Is(err, kernel.ErrGramTooLarge) {
		return inputErr(fmt.Errorf("%s: %w", name, err))
	}
	return err
}

func unionOf(draws [][]int) []int {
	seen := map[int]bool{}
	var u []int
	for _, d := range draws {
		for _, i := range d {
			if !seen[i] {
				seen[i] = true
				u = append(u, i)
			}
		}
	}
	sort.Ints(u)
	return u
}

type gramFitter struct {
	spec  Method
	psd   kernel.PSDMode
	tself []float64 // K(x,x) of the test samples (kernel_norm cosine)
	ktr   *mat.SymDense
	kte   *mat.Dense
	pos   map[int]int
	y     []int
	k     int
}

func (g *gramFitter) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, error) {
	t0 := time.Now()
	n := len(idx)
	p := make([]int, n)
	y := make([]int, n)
	for a, i := range idx {
		q, ok := g.pos[i]
		if !ok {
			return nil, fmt.Errorf("model: draw index %d was not prepared (the protocol's draws changed)", i)
		}
		p[a], y[a] = q, g.y[i]
	}
	// The SVM sees the Gram matrix divided by the mean of its training diagonal, so that C
	// means the same for every kernel (FINDINGS.md: C large on that scale); the locality
	// kernel reaches 1e40 and more, beyond float32 kernel rows, without it.
	var mean float64
	for _, q := range p {
		mean += g.ktr.At(q, q)
	}
	mean /= float64(n)
	if !(mean > 0) || mean > 1e300 {
		// eval prefixes the series name.
		return nil, inputErr(fmt.Errorf("the kernel's diagonal mean is %g: rescale the kernel (gamma, locality scale)", mean))
	}
	// kernel_norm cosine: K(x,z)/sqrt(K(x,x)·K(z,z)), every sample at unit norm in the
	// kernel's feature space; else the common scale 1/mean (rs[a] = 1/sqrt(mean)).
	rs := make([]float64, n)
	for a, q := range p {
		d := mean
		if g.spec.cosine() {
			d = g.ktr.At(q, q)
		}
		if !(d > 0) {
			return nil, inputErr(fmt.Errorf("K(x, x) = %g for a training sample: kernel_norm cosine needs K(x, x) > 0: drop kernel_norm", d))
		}
		rs[a] = 1 / math.Sqrt(d)
	}
	ktr := mat.NewSymDense(n, nil)
	for a := 0; a < n; a++ {
		for b := a; b < n; b++ {
			ktr.SetSym(a, b, rs[a]*rs[b]*g.ktr.At(p[a], p[b]))
		}
	}
	nt, _ := g.kte.Dims()
	kte := mat.NewDense(nt, n, nil)
	for i := 0; i < nt; i++ {
		src, dst := g.kte.RawRowView(i), kte.RawRowView(i)
		ri := 1 / math.Sqrt(mean)
		if g.spec.cosine() {
			if !(g.tself[i] > 0) {
				return nil, inputErr(fmt.Errorf("K(x, x) = %g for test sample %d: kernel_norm cosine needs K(x, x) > 0: drop kernel_norm", g.tself[i], i))
			}
			ri = 1 / math.Sqrt(g.tself[i])
		}
		for a, q := range p {
			dst[a] = ri * rs[a] * src[q]
		}
	}
	if g.psd != kernel.PSDNone {
		// An indefinite best-fit Gram matrix made PSD, the test rows carried along.
		kp, M, _, err := kernel.MakePSD(ktr, g.psd)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.spec.Name, err)
		}
		if M != nil {
			ktr = kp
			var km mat.Dense
			km.Mul(kte, M)
			kte = &km
		}
	}
	clk.Since("gram", t0)
	t0 = time.Now()
	if g.spec.Learner == "rls" {
		m, err := learn.FitKernelRLS(ctx, ktr, y, g.k, rlsOptions(g.spec))
		if err != nil {
			return nil, err
		}
		clk.Since("fit", t0)
		t0 = time.Now()
		defer clk.Since("predict", t0)
		return m.Predict(ctx, kte)
	}
	m, err := learn.TrainSVC(ctx, ktr, y, g.spec.C, &learn.SVCOptions{Workers: 1})
	if err != nil {
		return nil, err
	}
	clk.Since("fit", t0)
	t0 = time.Now()
	defer clk.Since("predict", t0)
	return m.Predict(ctx, kte)
}

// pdOutcome runs the Table I protocol (kernel.LargestPD) for the kernel of every method:
// a table of the largest PD n per method, and a series per method of the fraction of draws
// whose Gram matrix of n samples is PD.
func pdOutcome(ctx context.Context, spec *Spec, pool *data.Dataset, ch chan<- eval.Event) (*eval.Outcome, error) {
	out := &eval.Outcome{Stages: map[string]float64{}}
	tab := eval.Table{Name: "largest n with a PD Gram matrix (Liu et al. Table I)",
		Columns: []string{"kernel", "gram", "min over draws", "median", "all draws PD up to", "most draws PD up to", "draws"}}
	sizes := append([]int(nil), spec.PD.Sizes...)
	sort.Ints(sizes)
	if sizes[len(sizes)-1] > pool.Len() {
		return nil, inputErr(fmt.Errorf("pd size %d is larger than the pool of %d samples: use smaller sizes", sizes[len(sizes)-1], pool.Len()))
	}
	for mi, m := range spec.Methods {
		k, err := newLiuKernel(m, pool.Shape)
		if err != nil {
			return nil, err
		}
		if err := checkKernelScale(ctx, k.self(), pool.X); err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		send(ctx, ch, eval.Progress{Stage: "pd " + m.Name, Done: mi, Total: len(spec.Methods)})
		t0 := time.Now()
		rng := rand.New(rand.NewPCG(spec.Seed, uint64(mi)))
		rep, err := kernel.LargestPD(ctx, k.sym, pool.X, sizes, spec.PD.Draws, rng)
		if err != nil {
			return out, gramErr(m.Name, err)
		}
		out.Stages["gram"] += time.Since(t0).Seconds()
		desc := k.base.Name()
		if k.loc != nil {
			desc = k.loc.Name()
		}
		tab.Rows = append(tab.Rows, []any{m.Name, desc, rep.Min, rep.Median, rep.All, rep.Most, spec.PD.Draws})
		s := eval.Series{Name: m.Name, XLabel: "n", YLabel: "fraction of draws PD"}
		for i, n := range rep.Sizes {
			s.Points = append(s.Points, eval.SeriesPoint{X: float64(n), Mean: rep.Frac[i], Runs: spec.PD.Draws})
			send(ctx, ch, eval.Point{Series: m.Name, XLabel: "n", YLabel: "fraction of draws PD", X: float64(n), Mean: rep.Frac[i], Runs: spec.PD.Draws})
		}
		out.Series = append(out.Series, s)
		send(ctx, ch, eval.Log{Time: time.Now(), Line: fmt.Sprintf("%s: PD up to n = %d in every draw, median %d (%.1f s)", m.Name, rep.Min, rep.Median, time.Since(t0).Seconds())})
	}
	out.Tables = append(out.Tables, tab)
	return out, nil
}

func send(ctx context.Context, ch chan<- eval.Event, e eval.Event) {
	select {
	case ch <- e:
	case <-ctx.Done():
	}
}

// cosine reports whether m divides its kernel by sqrt(K(x,x)·K(z,z)) (kernel_norm cosine)
// instead of by the mean of the training diagonal.
func (m Method) cosine() bool { return m.KernelNorm == "cosine" }
