package learn

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"gitui/core/group"
	"gitui/core/kernel"
)

// VSVRows is a virtual-support-vector SVM ([VSV]) trained on kernel rows computed on
// demand ([TrainVSVRows]): neither SVM holds a Gram matrix, so it scales to full MNIST
// (60,000 digits and their virtual copies) in the memory of its row caches.
type VSVRows struct {
	// First is the SVM on the original training points, FirstKernel its kernel (over
	// the training rows of the caller's X).
	First       *SVC
	FirstKernel *FeatureKernel

	// SVC is the retrained SVM and Kernel its kernel over the rows of X, the retraining
	// set; they are First and FirstKernel, and X is nil, when no virtual point was added.
	SVC    *SVC
	Kernel *FeatureKernel

	// X (N×d), Y, Source, Element and Virtual are the retraining set as in [VSV]:
	// Source[i] indexes the training points (positions in the rows passed to
	// TrainVSVRows), Element[i] the transformation (-1 for an original point).
	X       *mat.Dense
	Y       []int
	Source  []int
	Element []int
	Virtual int
}

// VSVPhase names the training of [TrainVSVRows] a progress report belongs to.
type VSVPhase int

const (
	// VSVFirst is the SVM on the original points.
	VSVFirst VSVPhase = iota
	// VSVRetrain is the SVM on the support vectors and their virtual copies.
	VSVRetrain
)

// VSVRowsOptions holds the settings of [TrainVSVRows].
type VSVRowsOptions struct {
	// KeepAll retrains on every training point plus the virtual support vectors.
	KeepAll bool

	// SVC holds the solver options of both trainings (nil: LIBSVM's defaults); its
	// Progress is replaced by Progress below.
	SVC *SVCOptions

	// Float32 computes the kernel rows' inner products in float32 ([NewFeatureKernel]).
	Float32 bool

	// Progress, when set, is called as SVCOptions.Progress is, with the phase the report
	// belongs to.
	Progress func(VSVPhase, SVCProgress)

	// Budget, when set, is called after the first SVM with its number of support
	// vectors and the largest size of the retraining set (each support vector with all
	// its copies, and every point with KeepAll), before that set is allocated; an error
	// stops the training and is returned.
	Budget func(svs, rows int) error

	// Retraining, when set, is called once the retraining set is built, before the
	// second SVM trains, with the first SVM and its kernel (to score it: the plain SVM
	// before the virtual points), the set's size and the number of virtual points in it.
	// An error stops the training and is returned.
	Retraining func(first *SVC, k *FeatureKernel, n, virtual int) error
}

// TrainVSVRows is [TrainVSV] on kernel rows: a C-SVC with base kernel k0 on the points
// X[rows[a]] with labels y[a] ([TrainSVCRows] on a [FeatureKernel], no scale), then the
// virtual point g·x_s with label y_s for each support vector s and each element g of
// transforms (copies equal to their source skipped), and a second C-SVC on the support
// vectors and their virtual copies (every point with KeepAll). Memory: the retraining
// set (N×d float64, N ≤ #SV·(1 + |G|)), each concurrent pair's copy of its points
// (float32 with Float32) and the row caches (SVCOptions.CacheMB per pair at once); no
// n×n matrix. With transforms nil, or when no copy differs from its source, the model is
// the first SVM.
//
// It returns an error for an invalid kernel, a row outside X, non-finite features, or
// TrainSVC's errors (bad C, a single class); ctx.Err() when cancelled (checked in the
// solver). It panics if len(y) != len(rows) or transforms.Dim() differs from X's columns.
func TrainVSVRows(ctx context.Context, k0 kernel.Base, X *mat.Dense, rows []int, y []int, C float64, transforms group.Action, opts *VSVRowsOptions) (*VSVRows, error) {
	_, d := X.Dims()
	if len(y) != len(rows) {
		panic(fmt.Sprintf("learn: TrainVSVRows: %d labels for %d points", len(y), len(rows)))
	}
	if transforms != nil && transforms.Dim() != d {
		panic(fmt.Sprintf("learn: TrainVSVRows: transformations act on dimension %d, the samples have %d", transforms.Dim(), d))
	}
	var o VSVRowsOptions
	if opts != nil {
		o = *opts
	}
	if k0 == nil {
		return nil, fmt.Errorf("learn: VSV needs a kernel: pass kernel.RBF{...}, kernel.Poly{...} or kernel.Linear{}")
	}
	svc := func(phase VSVPhase) *SVCOptions {
		var so SVCOptions
		if o.SVC != nil {
			so = *o.SVC
		}
		so.Progress = nil
		if o.Progress != nil {
			so.Progress = func(p SVCProgress) { o.Progress(phase, p) }
		}
		return &so
	}
	k1, err := NewFeatureKernel(k0, X, rows, nil, o.Float32)
	if err != nil {
		return nil, fmt.Errorf("learn: VSV: %w", err)
	}
	first, err := TrainSVCRows(ctx, k1, y, C, svc(VSVFirst))
	if err != nil {
		return nil, err
	}
	m := &VSVRows{First: first, FirstKernel: k1, SVC: first, Kernel: k1, Y: y}
	if o.Budget != nil && transforms != nil {
		rows := len(first.SV) * (1 + transforms.Len())
		if o.KeepAll {
			rows += len(y) - len(first.SV)
		}
		if err := o.Budget(len(first.SV), rows); err != nil {
			return nil, err
		}
	}
	rs := virtualSet(func(a int) []float64 { return X.RawRowView(rows[a]) }, y, len(rows), d, first.SV, o.KeepAll, transforms)
	m.Source, m.Element = rs.source, rs.element
	if rs.virtual == 0 {
		return m, nil
	}
	m.X, m.Y, m.Virtual = rs.x, rs.y, rs.virtual
	if o.Retraining != nil {
		if err := o.Retraining(first, k1, len(rs.y), rs.virtual); err != nil {
			return nil, err
		}
	}
	if m.Kernel, err = NewFeatureKernel(k0, rs.x, nil, nil, o.Float32); err != nil {
		return nil, fmt.Errorf("learn: VSV: %w", err)
	}
	if m.SVC, err = TrainSVCRows(ctx, m.Kernel, m.Y, C, svc(VSVRetrain)); err != nil {
		return nil, err
	}
	return m, nil
}

// Classes returns the number of classes.
func (m *VSVRows) Classes() int { return m.SVC.Classes() }

// DecisionValues returns the t×P one-vs-one decision values of the rows of Z (t×d)
// from the kernel of Z against the retrained SVM's support vectors only
// ([SVC.DecisionValuesFeatures]). It panics on a column mismatch, returns an error for
// a non-finite row and ctx.Err() if cancelled.
func (m *VSVRows) DecisionValues(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	return m.SVC.DecisionValuesFeatures(ctx, m.Kernel, Z, nil)
}

// Predict returns the one-vs-one vote of the rows of Z ([SVC.PredictFeatures]).
func (m *VSVRows) Predict(ctx context.Context, Z *mat.Dense) ([]int, error) {
	return m.SVC.PredictFeatures(ctx, m.Kernel, Z, nil)
}

// Decision returns per-class scores of the rows of Z ([SVC.DecisionFeatures]).
func (m *VSVRows) Decision(ctx context.Context, Z *mat.Dense) (*mat.Dense, error) {
	return m.SVC.DecisionFeatures(ctx, m.Kernel, Z, nil)
}
