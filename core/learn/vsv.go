package learn

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"gitui/core/group"
	"gitui/core/kernel"
)

// VSVOptions holds the settings of [TrainVSV]. The zero value (or nil) retrains on the
// support vectors and their virtual copies, with LIBSVM's solver defaults.
type VSVOptions struct {
	// KeepAll retrains on every training point plus the virtual support vectors,
	// instead of on the support vectors plus their virtual copies.
	KeepAll bool

	// SVC holds the solver options of both trainings (nil means LIBSVM's defaults).
	SVC *SVCOptions
}

// VSV is a virtual-support-vector SVM (Schoelkopf, Burges and Vapnik 1996; the VSV
// baseline of Chapelle and Schoelkopf, NIPS 2001): an SVM trained on the support vectors
// of a first SVM together with their transformed copies g·x_s.
type VSV struct {
	// First is the SVM trained on the original training set.
	First *SVC

	// SVC is the retrained SVM; its training points are the rows of X. It is First
	// itself when no virtual point was added.
	SVC *SVC

	// X (N×d) and Y are the retraining set: the kept original points in training order,
	// then the virtual points; Source[i] is the index in the original training set that
	// row i comes from, and Element[i] the index of the transformation applied (-1 for
	// an original point).
	X       *mat.Dense
	Y       []int
	Source  []int
	Element []int

	// Virtual counts the virtual points (rows of X with Element >= 0).
	Virtual int

	// Kernel is the kernel of both SVMs.
	Kernel kernel.Base
}

// TrainVSV trains the virtual-support-vector SVM of [VSV]: a C-SVC with kernel k on the
// rows of X (n×d) and labels y, then, for each support vector x_s (of any pair of
// classes) and each element g_i of transforms, the virtual point g_i·x_s with label
// y_s, and a second C-SVC on
//
//	{x_s : s a support vector} ∪ {g_i·x_s}        (all x_i instead of the x_s with KeepAll).
//
// Virtual points equal to their source (the identity element, or a shift of a blank
// image) are skipped. With transforms nil, or when every copy is skipped, no second
// training happens and the model is exactly the first SVM. For digits, transforms is
// e.g. the four one-pixel shifts group.Select(group.LocalShifts(h, w, 1), []int{2, 4,
// 5, 7}); for 2-D points, rotations such as PlaneRotations([]float64{-10, 10}).
//
// Cost: two Gram matrices (n×n and N×N, N = #SV·(1 + |G|) at most) and two SMO runs.
// ctx is checked in the Gram builders and the solver; TrainVSV then returns ctx.Err().
// It panics if len(y) != n or transforms.Dim() != d, and returns an error for an invalid
// kernel or TrainSVC's errors (bad C, a single class).
func TrainVSV(ctx context.Context, X *mat.Dense, y []int, k kernel.Base, C float64, transforms group.Action, opts *VSVOptions) (*VSV, error) {
	n, d := X.Dims()
	if len(y) != n {
		panic(fmt.Sprintf("learn: TrainVSV: %d labels for %d samples", len(y), n))
	}
	if transforms != nil && transforms.Dim() != d {
		panic(fmt.Sprintf("learn: TrainVSV: transformations act on dimension %d, the samples have %d", transforms.Dim(), d))
	}
	var o VSVOptions
	if opts != nil {
		o = *opts
	}
	if k == nil {
		return nil, fmt.Errorf("learn: VSV needs a kernel: pass kernel.RBF{...}, kernel.Poly{...} or kernel.Linear{}")
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("learn: VSV: %w", err)
	}
	K, err := kernel.SymGram(ctx, k, X)
	if err != nil {
		return nil, err
	}
	first, err := TrainSVC(ctx, K, y, C, o.SVC)
	if err != nil {
		return nil, err
	}
	m := &VSV{First: first, SVC: first, X: X, Y: y, Kernel: k}
	rs := virtualSet(func(a int) []float64 { return X.RawRowView(a) }, y, n, d, first.SV, o.KeepAll, transforms)
	if rs.virtual == 0 {
		m.Source, m.Element = rs.source, rs.element
		return m, nil
	}
	aug := rs.x
	m.X, m.Y, m.Source, m.Element, m.Virtual = rs.x, rs.y, rs.source, rs.element, rs.virtual
	K2, err := kernel.SymGram(ctx, k, aug)
	if err != nil {
		return nil, err
	}
	if m.SVC, err = TrainSVC(ctx, K2, m.Y, C, o.SVC); err != nil {
		return nil, err
	}
	return m, nil
}

// DecisionValues returns the t×P one-vs-one decision values of the rows of Z (t×d): the
// kernel of Z against the retraining set, then [SVC.DecisionValues]. It panics on a
// column mismatch and returns ctx.Err() if cancelled.
func (m *VSV) DecisionValues(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	G, err := m.gram(ctx, Z)
	if err != nil {
		return nil, err
	}
	return m.SVC.DecisionValues(ctx, G)
}

func (m *VSV) gram(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	_, d := m.X.Dims()
	if _, c := Z.Dims(); c != d {
		panic(fmt.Sprintf("learn: VSV: input has %d columns, the model was trained on %d", c, d))
	}
	return kernel.Gram(ctx, m.Kernel, Z, m.X)
}

// Classes returns the number of classes.
func (m *VSV) Classes() int { return m.SVC.Classes() }

// Predict returns the predicted label of each row of Z (t×d, raw inputs) by
// svm-predict's one-vs-one vote. It panics on a column mismatch and returns ctx.Err()
// if cancelled.
func (m *VSV) Predict(ctx context.Context, Z *mat.Dense) ([]int, error) {
	dec, err := m.DecisionValues(ctx, Z)
	if err != nil {
		return nil, err
	}
	return m.SVC.Vote(dec), nil
}

// Decision returns the t×k class scores of the rows of Z (raw inputs), as
// [SVC.Decision] (labels must be 0..k-1).
func (m *VSV) Decision(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	G, err := m.gram(ctx, Z)
	if err != nil {
		return nil, err
	}
	return m.SVC.Decision(ctx, G)
}

var _ Classifier = (*VSV)(nil)

// PlaneRotationSet is a set of rotations of points of the plane about the origin
// (vectors of length 2), counter-clockwise by θ_i degrees:
//
//	g_i·(x_1, x_2) = (cos θ_i x_1 - sin θ_i x_2,  sin θ_i x_1 + cos θ_i x_2).
//
// It implements group.Action; the inverse of g_i is the rotation by -θ_i (exact up to
// rounding). Local rotation invariance of Chapelle and Schoelkopf's toy problem
// (data.Circle) uses a few small angles, e.g. ±10 degrees.
type PlaneRotationSet struct {
	deg      []float64
	cos, sin []float64
}

// PlaneRotations returns the rotations of the plane by the given angles in degrees (see
// [PlaneRotationSet]), in the order given. It panics (prefix "learn: ") if degrees is
// empty or an angle is not finite.
func PlaneRotations(degrees []float64) *PlaneRotationSet {
	if len(degrees) == 0 {
		panic("learn: PlaneRotations: no angles given")
	}
	p := &PlaneRotationSet{deg: slices.Clone(degrees)}
	for i, a := range degrees {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			panic(fmt.Sprintf("learn: PlaneRotations: angle %d is %v", i, a))
		}
		s, c := math.Sincos(a * math.Pi / 180)
		p.cos, p.sin = append(p.cos, c), append(p.sin, s)
	}
	return p
}

// Name returns e.g. "plane rotations [-10 10] deg".
func (p *PlaneRotationSet) Name() string { return fmt.Sprintf("plane rotations %v deg", p.deg) }

// Len returns the number of angles.
func (p *PlaneRotationSet) Len() int { return len(p.deg) }

// Dim returns 2.
func (p *PlaneRotationSet) Dim() int { return 2 }

// Apply writes x rotated by θ_i into dst. It panics if len(dst) or len(x) is not 2 or i
// is out of range.
func (p *PlaneRotationSet) Apply(dst, x []float64, i int) { p.rot(dst, x, i, 1) }

// ApplyInverse writes x rotated by -θ_i into dst. It panics like Apply.
func (p *PlaneRotationSet) ApplyInverse(dst, x []float64, i int) { p.rot(dst, x, i, -1) }

func (p *PlaneRotationSet) rot(dst, x []float64, i int, sign float64) {
	if len(dst) != 2 || len(x) != 2 || i < 0 || i >= len(p.deg) {
		panic(fmt.Sprintf("learn: PlaneRotationSet: element %d of %d on vectors of length %d -> %d, want 2", i, len(p.deg), len(x), len(dst)))
	}
	c, s := p.cos[i], sign*p.sin[i]
	x1, x2 := x[0], x[1]
	dst[0], dst[1] = c*x1-s*x2, s*x1+c*x2
}

var _ group.Action = (*PlaneRotationSet)(nil)

// retrainSet is the retraining set of a VSV: the kept original points in training order,
// then the virtual points, with their labels, sources and elements (see [VSV]).
type retrainSet struct {
	x               *mat.Dense // nil when virtual is 0
	y               []int
	source, element []int
	virtual         int
}

// virtualSet builds the retraining set of a VSV over the n training points whose rows
// (length d) row(a) gives and labels y: for each support vector s of sv (sorted here, any
// pair of classes) and each element g of transforms, the virtual point g·x_s with label
// y_s, skipping copies equal to their source; kept are the support vectors (every point
// with keepAll). With no virtual point it returns virtual 0 and the identity source (every
// point, element -1).
func virtualSet(row func(a int) []float64, y []int, n, d int, sv []int, keepAll bool, transforms group.Action) retrainSet {
	base := slices.Clone(sv)
	slices.Sort(base)
	keep := base
	if keepAll {
		keep = make([]int, n)
		for i := range keep {
			keep[i] = i
		}
	}
	G := 0
	if transforms != nil {
		G = transforms.Len()
	}
	// The rows are written in place into a buffer of the largest size (every copy kept),
	// whose used prefix becomes the matrix: no second copy of the set.
	buf := make([]float64, (len(keep)+len(base)*G)*d)
	var y2, src, elem []int
	for _, i := range keep {
		copy(buf[len(src)*d:], row(i))
		y2, src, elem = append(y2, y[i]), append(src, i), append(elem, -1)
	}
	virtual := 0
	for _, s := range base {
		x := row(s)
		for g := range G {
			v := buf[len(src)*d : (len(src)+1)*d]
			transforms.Apply(v, x, g)
			if slices.Equal(v, x) {
				continue
			}
			y2, src, elem = append(y2, y[s]), append(src, s), append(elem, g)
			virtual++
		}
	}
	if virtual == 0 {
		r := retrainSet{y: y, source: make([]int, n), element: make([]int, n)}
		for i := range n {
			r.source[i], r.element[i] = i, -1
		}
		return r
	}
	N := len(src)
	return retrainSet{x: mat.NewDense(N, d, buf[:N*d:N*d]), y: y2, source: src, element: elem, virtual: virtual}
}
