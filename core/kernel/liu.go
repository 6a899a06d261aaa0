package kernel

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"gitui/core/group"
)

// Invariance names the transformations a [Liu] kernel is made invariant to.
type Invariance int

const (
	// NoInvariance is the base (or locality) kernel itself.
	NoInvariance Invariance = iota
	// TI is translation invariance: 2-D shifts of the image.
	TI
	// RI is rotation invariance: rotated copies, or sector shifts on a polar grid.
	RI
	// TIRI is both: every rotation followed by every shift.
	TIRI
)

// String returns "", "TI", "RI" or "TI-RI", the names of Liu et al.
func (v Invariance) String() string {
	switch v {
	case NoInvariance:
		return ""
	case TI:
		return "TI"
	case RI:
		return "RI"
	case TIRI:
		return "TI-RI"
	}
	return fmt.Sprintf("Invariance(%d)", int(v))
}

func (v Invariance) translates() bool { return v == TI || v == TIRI }
func (v Invariance) rotates() bool    { return v == RI || v == TIRI }

// Translation says what the TI shifts do at the border of the image.
type Translation int

const (
	// Cyclic shifts wrap around (the paper's TI).
	Cyclic Translation = iota
	// ZeroFill shifts move the image over zeros, losing nothing: the full range is
	// computed on a 2h×2w zero canvas.
	ZeroFill
)

// String returns "cyclic" or "zero-fill".
func (t Translation) String() string {
	switch t {
	case Cyclic:
		return "cyclic"
	case ZeroFill:
		return "zero-fill"
	}
	return fmt.Sprintf("Translation(%d)", int(t))
}

// PolarOptions is the polar grid of [PolarGrid]: Annuli × Sectors points, on which a
// rotation by a multiple of 360/Sectors degrees is a cyclic shift of the sectors.
type PolarOptions struct {
	Annuli, Sectors int
}

// LiuOptions are the settings of a [Liu] kernel.
type LiuOptions struct {
	// H, W are the image height and width (samples are H·W rows, row-major). They are
	// needed with an invariance or a locality kernel, else ignored.
	H, W int
	// Base is the base kernel k0 (Linear, RBF, Poly). It is required, and validated,
	// even with a Locality kernel, which then replaces it.
	Base Base
	// Locality, if not nil, is the base kernel instead of Base (L-SVM, L-TI, L-RI,
	// L-TI-RI); its H and W must equal the options' H and W.
	Locality *Locality
	// Invariance and Fit: which transformations, and max (BestFit) or mean (AverageFit)
	// over them.
	Invariance Invariance
	Fit        Fit
	// Translation is the border rule of TI and TI-RI.
	Translation Translation
	// Shifts is the radius r of the TI shifts, |dy|, |dx| <= r, (2r+1)² of them. 0 means
	// every translation (the FFT path); with a Locality kernel it must be at least 1.
	// It must keep the shifts distinct: r <= min(H, W)-1 with ZeroFill, r <=
	// (min(H, W)-1)/2 when Cyclic.
	Shifts int
	// Rotations are the angles in degrees of RI and TI-RI by rotated copies (square
	// images only); Polar, if not nil, gives RI on a polar grid instead (not with TI or
	// Locality).
	Rotations []float64
	Polar     *PolarOptions
	// Group, if not nil, is the finite set the fit pools over instead of TI and RI: any
	// group.Action on the samples' d coordinates (a spec's group: permutations, the
	// dihedral group, orthogonal matrices), K(x, z) = max (or mean) over g of k0(g·x, z)
	// by FitSymGram / FitGram. Invariance must then be NoInvariance and Locality and
	// Polar nil; H and W are not needed. Best fit is symmetric when Group is a group
	// acting by permutations or orthogonal maps (k0(g·x, z) = k0(x, g⁻¹·z)).
	Group group.Action
}

// Liu is one of Liu et al.'s kernels between sets of h×w images: a base kernel (Poly,
// RBF, Linear) or the locality kernel, made invariant (TI, RI, TI-RI) by the best or
// average fit over a set of transformations. Which engine path it takes:
//
//	plain base kernel            SymGram / Gram (GEMM)
//	TI (cyclic)                  FFT: Spectra Shift2D, CyclicSymGram / CyclicGram
//	TI (zero-fill)               the same on a 2h×2w zero canvas (no wrap-around)
//	RI (rotated copies)          FitSymGram / FitGram over group.Rotations (GEMM)
//	RI (polar grid)              PolarGrid, then Spectra ShiftCols (FFT along the angle)
//	TI-RI                        Spectra Shift2D with the rotations as extra transforms
//	TI, TI-RI with Shifts r > 0  FitSymGram / FitGram over the (2r+1)² shifts |dy|, |dx| <= r
//	                             (times the rotations for TI-RI)
//	a Group (any finite set)     FitSymGram / FitGram over it (GEMM)
//	locality (L-SVM)             LocalitySymGram / LocalityGram (GEMM on the explicit
//	                             feature map for d1 <= 2 and one layer, else direct)
//	L-TI, L-RI, L-TI-RI          FitLocalitySymGram / FitLocalityGram over the local shifts
//	                             of radius Shifts, rotations, or their product
//
// With Shifts r > 0 and no locality kernel, TI and TI-RI pool over the local shifts
// only:
//
//	BestFit:     K(x, z) = max_{|dy|,|dx| <= r}  k0(S_{dy,dx}·R·x, z)
//	AverageFit:  K(x, z) = mean_{|dy|,|dx| <= r} k0(S_{dy,dx}·R·x, z)
//
// with R the identity (TI) or each rotation (TI-RI, max or mean over the product set).
// Cyclic: S wraps around the h×w image; the kernel is the full cyclic kernel restricted
// to these shifts. Zero fill: S moves the image on a zero canvas large enough that no
// pixel is lost, so the kernel is the full zero-fill kernel (the FFT path on the 2h×2w
// canvas) restricted to these shifts. Linear and Poly see only <S·x, z>, where pixels
// leaving the h×w image meet zeros of z, so plain TI shifts the h×w image itself
// (group.LocalShifts, 2·(2r+1)²·h·w flops per pair); RBF also needs ||S·x|| = ||x||, and
// rotations must keep what they turn past the border, so those images go on an
// (h+2r)×(w+2r) canvas first. With r = h-1 on square images whose pixels are >= 0 the
// best fit equals the full zero-fill kernel: the full canvas adds only shifts without
// overlap, whose inner product 0 never wins. The locality compositions (L-TI, L-TI-RI)
// shift the h×w image itself, whose patches the locality kernel reads: with zero fill
// the pixels shifted out are lost.
//
// A Liu is immutable and safe for concurrent use; its builders spread work over
// GOMAXPROCS goroutines and return ctx.Err() when cancelled.
type Liu struct {
	o      LiuOptions
	h, w   int
	base   Base
	loc    *Locality
	rot    group.Action // rotations for RI and TI-RI (nil: none or polar)
	polar  *PolarGrid
	set    group.Action // the finite set of the locality compositions and of local TI
	pad    bool         // zero-fill translations: images on a 2h×2w canvas
	margin int          // > 0: local TI on an (h+2·margin)×(w+2·margin) zero canvas
}

// NewLiu checks o and returns its kernel. Errors are one line naming the setting and
// its fix (the base kernel's or the locality kernel's Validate error, a shape that does
// not fit the transformations, a radius that does not keep the shifts distinct).
func NewLiu(o LiuOptions) (*Liu, error) {
	if o.Base == nil {
		return nil, errors.New("no base kernel: set Base to Linear, RBF or Poly")
	}
	if o.Fit != BestFit && o.Fit != AverageFit {
		return nil, fmt.Errorf("fit %v is unknown: use best or average", o.Fit)
	}
	if o.Invariance < NoInvariance || o.Invariance > TIRI {
		return nil, fmt.Errorf("invariance %v is unknown: use TI, RI or TI-RI", o.Invariance)
	}
	if o.Translation != Cyclic && o.Translation != ZeroFill {
		return nil, fmt.Errorf("translation %v is unknown: use cyclic or zero-fill", o.Translation)
	}
	if err := o.Base.Validate(); err != nil {
		return nil, err
	}
	k := &Liu{o: o, base: o.Base}
	if o.Group != nil {
		if o.Invariance != NoInvariance || o.Locality != nil || o.Polar != nil {
			return nil, fmt.Errorf("the best fit over %s replaces TI, RI and the locality kernel: drop them", o.Group.Name())
		}
		k.set = o.Group
		return k, nil
	}
	if o.Invariance == NoInvariance && o.Locality == nil {
		return k, nil
	}
	if o.H < 2 || o.W < 2 {
		return nil, fmt.Errorf("invariance %s and locality need images of at least 2x2 pixels, got %dx%d", o.Invariance, o.H, o.W)
	}
	if o.Shifts < 0 {
		return nil, fmt.Errorf("shifts %d is negative: use a radius >= 1, or 0 for every translation", o.Shifts)
	}
	k.h, k.w = o.H, o.W
	rotates := o.Invariance.rotates()
	if rotates && o.Polar == nil {
		if k.h != k.w {
			return nil, fmt.Errorf("rotated copies need square images, the data are %dx%d: pad or crop the images to %dx%d, or use a polar grid", k.h, k.w, max(k.h, k.w), max(k.h, k.w))
		}
		if len(o.Rotations) == 0 {
			return nil, errors.New("rotation invariance needs rotation angles or a polar grid")
		}
		if err := group.CheckAngles(o.Rotations); err != nil {
			return nil, fmt.Errorf("rotations: %w", err)
		}
	}
	if o.Polar != nil {
		switch {
		case o.Locality != nil:
			return nil, errors.New("the locality kernel composes with rotated copies, not the polar grid: drop polar")
		case o.Invariance != RI:
			return nil, errors.New("polar RI cannot be combined with TI: use rotations for TI-RI")
		case o.Polar.Annuli < 1 || o.Polar.Sectors < 2:
			return nil, fmt.Errorf("polar grid of %d annuli and %d sectors: use annuli >= 1 and sectors >= 2", o.Polar.Annuli, o.Polar.Sectors)
		}
	}
	if l := o.Locality; l != nil {
		if err := l.Validate(); err != nil {
			return nil, err
		}
		if l.H != k.h || l.W != k.w {
			return nil, fmt.Errorf("locality kernel of %dx%d images on %dx%d images: set its H and W to the image size", l.H, l.W, k.h, k.w)
		}
		lc := *l
		k.loc = &lc
		return k, k.localityCompositions()
	}
	if o.Invariance.translates() && o.Shifts > 0 {
		return k, k.localTI()
	}
	k.pad = o.Invariance.translates() && o.Translation == ZeroFill
	ch, cw := k.h, k.w
	if k.pad {
		ch, cw = 2*k.h, 2*k.w
	}
	if rotates {
		if o.Polar != nil {
			k.polar = NewPolarGrid(k.h, k.w, o.Polar.Annuli, o.Polar.Sectors)
		} else {
			k.rot = group.Rotations(ch, cw, o.Rotations)
		}
	}
	return k, nil
}

// localityCompositions sets the finite set of L-TI, L-RI and L-TI-RI: local shifts of
// the h×w image, the rotations, or their product (rotate, then shift).
func (k *Liu) localityCompositions() error {
	var shifts group.Action
	if k.o.Invariance.translates() {
		if k.o.Shifts == 0 {
			return errors.New("the locality kernel composes with local shifts: set shifts to a radius >= 1")
		}
		var err error
		if shifts, err = k.localShifts(); err != nil {
			return err
		}
	}
	switch k.o.Invariance {
	case TI:
		k.set = shifts
	case RI:
		k.set = group.Rotations(k.h, k.w, k.o.Rotations)
	case TIRI:
		k.set = group.Product(shifts, group.Rotations(k.h, k.w, k.o.Rotations))
	}
	return nil
}

// localShifts returns every (dy, dx) with |dy|, |dx| <= Shifts on the h×w image, cyclic
// or zero-fill. The radius must leave the shifts distinct: below the image size with
// zero fill, below half of it when cyclic (a cyclic shift by -r equals one by h-r).
func (k *Liu) localShifts() (group.Action, error) {
	r := k.o.Shifts
	most := min(k.h, k.w) - 1
	if k.o.Translation == Cyclic {
		most = (min(k.h, k.w) - 1) / 2
	}
	if r > most {
		return nil, fmt.Errorf("shifts %d is too large for the %dx%d image: use a radius of at most %d with %s translations", r, k.h, k.w, most, k.o.Translation)
	}
	if k.o.Translation != Cyclic {
		return group.LocalShifts(k.h, k.w, r), nil
	}
	var s [][2]int
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			s = append(s, [2]int{dy, dx})
		}
	}
	return group.CyclicShifts(k.h, k.w, s), nil
}

// localTI sets up TI and TI-RI over the shifts of radius Shifts > 0 (see [Liu]).
func (k *Liu) localTI() error {
	r := k.o.Shifts
	shifts, err := k.localShifts()
	if err != nil {
		return err
	}
	ch, cw := k.h, k.w
	if k.o.Translation == ZeroFill {
		_, lin := k.base.(Linear)
		_, pol := k.base.(Poly)
		if k.o.Invariance == TIRI || !lin && !pol {
			k.margin = r
			ch, cw = k.h+2*r, k.w+2*r
			shifts = group.LocalShifts(ch, cw, r)
		}
	}
	k.set = shifts
	if k.o.Invariance == TIRI {
		k.set = group.Product(shifts, group.Rotations(ch, cw, k.o.Rotations))
	}
	return nil
}

// Options returns the settings k was built from.
func (k *Liu) Options() LiuOptions { return k.o }

// Base returns the base kernel k0 (also set when a locality kernel replaces it).
func (k *Liu) Base() Base { return k.base }

// Locality returns a copy of the locality kernel, or nil if k has none.
func (k *Liu) Locality() *Locality {
	if k.loc == nil {
		return nil
	}
	l := *k.loc
	return &l
}

// Desc describes the untransformed kernel: the locality kernel's name if k has one,
// else the base kernel's, e.g. "poly(gamma=0.01,degree=8)".
func (k *Liu) Desc() string {
	if k.loc != nil {
		return k.loc.Name()
	}
	return k.base.Name()
}

// canvas returns X as the kernel sees it: on the 2h×2w zero canvas for zero-fill
// translations, on the (h+2r)×(w+2r) one for local zero-fill TI that needs it,
// resampled on the polar grid for polar RI, else X itself.
func (k *Liu) canvas(ctx context.Context, X *mat.Dense) (*mat.Dense, int, int, error) {
	switch {
	case k.pad:
		return PadCentered(X, k.h, k.w, 2*k.h, 2*k.w), 2 * k.h, 2 * k.w, nil
	case k.margin > 0:
		h, w := k.h+2*k.margin, k.w+2*k.margin
		return PadCentered(X, k.h, k.w, h, w), h, w, nil
	case k.polar != nil:
		P, err := k.polar.Transform(ctx, X)
		return P, k.polar.Annuli, k.polar.Sectors, err
	}
	return X, k.h, k.w, nil
}

// spectra transforms X for the FFT path, with the rotated copies when withRot.
func (k *Liu) spectra(ctx context.Context, X *mat.Dense, withRot bool) (*Spectra, error) {
	C, h, w, err := k.canvas(ctx, X)
	if err != nil {
		return nil, err
	}
	mode := Shift2D
	if k.polar != nil {
		mode = ShiftCols
	}
	var T group.Action
	if withRot && k.o.Invariance == TIRI {
		T = k.rot
	}
	return NewSpectra(ctx, h, w, mode, C, T)
}

// fft reports whether k takes the FFT path.
func (k *Liu) fft() bool {
	return k.loc == nil && k.set == nil && (k.o.Invariance.translates() || k.polar != nil)
}

// SymGram returns the n×n Gram matrix of the rows of X, K_ij = K(x_i, x_j) (for best
// fit over a set that is not a group, the upper triangle K(x_i, x_j), i <= j,
// mirrored). It returns an error wrapping [ErrGramTooLarge] past [MaxGramBytes], or
// ctx.Err(); it panics if X does not have H·W columns (with an invariance or locality).
func (k *Liu) SymGram(ctx context.Context, X *mat.Dense) (*mat.SymDense, error) {
	switch {
	case k.loc != nil && k.set == nil:
		return LocalitySymGram(ctx, *k.loc, X)
	case k.loc != nil:
		return FitLocalitySymGram(ctx, *k.loc, k.set, k.o.Fit, X)
	case k.set != nil:
		C, _, _, err := k.canvas(ctx, X)
		if err != nil {
			return nil, err
		}
		return FitSymGram(ctx, k.base, k.set, k.o.Fit, C)
	case k.fft():
		A, err := k.spectra(ctx, X, true)
		if err != nil {
			return nil, err
		}
		return CyclicSymGram(ctx, k.base, k.o.Fit, A)
	case k.rot != nil:
		C, _, _, err := k.canvas(ctx, X)
		if err != nil {
			return nil, err
		}
		return FitSymGram(ctx, k.base, k.rot, k.o.Fit, C)
	}
	return SymGram(ctx, k.base, X)
}

// liuBlock bounds the rows of X transformed at once by Gram (spectra memory).
const liuBlock = 2000

// Gram returns the n×m matrix K(x_i, z_j) between the rows of X (transformed: the test
// samples) and the rows of Z (the training samples), in blocks of 2000 rows of X (the
// locality kernels: φ(Z) once, then blocks of 256 rows of X, or of the transformed
// copies of fewer rows). On the FFT path the rows of X done are reported to ctx's
// [Progress] ([WithProgress]) out of n. It returns an error wrapping [ErrGramTooLarge] if the result exceeds [MaxGramBytes]
// (before allocating), or ctx.Err(); it panics if X and Z do not have H·W columns (with
// an invariance or locality).
func (k *Liu) Gram(ctx context.Context, X, Z *mat.Dense) (*mat.Dense, error) {
	n, _ := X.Dims()
	m, _ := Z.Dims()
	if need := int64(8) * int64(n) * int64(m); need > MaxGramBytes {
		return nil, fmt.Errorf("a %d x %d kernel matrix needs %.1f GiB, above the limit of %.1f GiB: use fewer test or training samples: %w",
			n, m, float64(need)/(1<<30), float64(MaxGramBytes)/(1<<30), ErrGramTooLarge)
	}
	if k.loc != nil {
		// The locality paths hold φ(Z) once and map X a block at a time themselves.
		if k.set == nil {
			return LocalityGram(ctx, *k.loc, X, Z)
		}
		return FitLocalityGram(ctx, *k.loc, k.set, k.o.Fit, X, Z)
	}
	var B *Spectra
	var Zc *mat.Dense
	var err error
	if k.fft() {
		if B, err = k.spectra(ctx, Z, false); err != nil {
			return nil, err
		}
	} else if k.rot != nil || k.set != nil {
		if Zc, _, _, err = k.canvas(ctx, Z); err != nil {
			return nil, err
		}
	}
	out := mat.NewDense(n, m, nil)
	for r0 := 0; r0 < n; r0 += liuBlock {
		r1 := min(n, r0+liuBlock)
		Xb := X.Slice(r0, r1, 0, X.RawMatrix().Cols).(*mat.Dense)
		var Kb *mat.Dense
		switch {
		case k.set != nil:
			var Xc *mat.Dense
			if Xc, _, _, err = k.canvas(ctx, Xb); err == nil {
				Kb, err = FitGram(ctx, k.base, k.set, k.o.Fit, Xc, Zc)
			}
		case k.fft():
			var A *Spectra
			if A, err = k.spectra(ctx, Xb, true); err == nil {
				Kb, err = CyclicGram(offsetProgress(ctx, r0, n), k.base, k.o.Fit, A, B)
			}
		case k.rot != nil:
			var Xc *mat.Dense
			if Xc, _, _, err = k.canvas(ctx, Xb); err == nil {
				Kb, err = FitGram(ctx, k.base, k.rot, k.o.Fit, Xc, Zc)
			}
		default:
			Kb, err = Gram(ctx, k.base, Xb, Z)
		}
		if err != nil {
			return nil, err
		}
		out.Slice(r0, r1, 0, m).(*mat.Dense).Copy(Kb)
	}
	return out, nil
}

// SelfValues returns K(x_i, x_i) for the rows of X by the same kernel and path as
// [Liu.Gram] (for kernel_norm cosine): a best-fit kernel's value is
// max over T of k0(T·x, x), at least k0(x, x). It returns ctx.Err() if cancelled
// (checked per row).
//
// For the locality compositions with an explicit map (L-TI, L-RI, L-TI-RI) the values
// are computed row by row in float64, pool over g of k(g·x, x), one map per copy: the
// same kernel as Gram's float32 products to about 1e-6 relative, without a Gram call
// (and the building of its map) per row.
func (k *Liu) SelfValues(ctx context.Context, X *mat.Dense) ([]float64, error) {
	n, d := X.Dims()
	if k.loc != nil && k.set != nil {
		if m, ok := localityMapOf(*k.loc); ok {
			return k.localitySelf(ctx, m, X)
		}
	}
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
		v, err := k.Gram(ctx, xi, xi)
		if err != nil {
			return nil, err
		}
		out[i] = v.At(0, 0)
	}
	return out, nil
}

// localitySelf returns pool_{g in set} k(g·x_i, x_i) for the rows of X by the explicit
// map m of the locality kernel: Scale · pool_g Base.FromDot(<φ(g·x), φ(x)>), max for
// best fit, mean for average fit.
func (k *Liu) localitySelf(ctx context.Context, m *LocalityMap, X *mat.Dense) ([]float64, error) {
	n, d := X.Dims()
	out := make([]float64, n)
	g, dim, base := k.set.Len(), m.Dim(), m.Base()
	type scratch struct{ tx, px, pg []float64 }
	bufs := make(chan *scratch, 2*workers())
	err := parallelBlocks(ctx, n, func(i int) {
		var s *scratch
		select {
		case s = <-bufs:
		default:
			s = &scratch{tx: make([]float64, d), px: make([]float64, dim), pg: make([]float64, dim)}
		}
		x := X.RawRowView(i)
		m.Map(s.px, x)
		xx := sumSq(s.px)
		v := math.Inf(-1)
		if k.o.Fit == AverageFit {
			v = 0
		}
		for t := range g {
			k.set.Apply(s.tx, x, t)
			m.Map(s.pg, s.tx)
			dot := 0.0
			for j, a := range s.pg {
				dot += a * s.px[j]
			}
			kv := base.FromDot(dot, sumSq(s.pg), xx)
			if k.o.Fit == AverageFit {
				v += kv
			} else {
				v = max(v, kv)
			}
		}
		if k.o.Fit == AverageFit {
			v /= float64(g)
		}
		out[i] = m.Scale() * v
		select {
		case bufs <- s:
		default:
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
