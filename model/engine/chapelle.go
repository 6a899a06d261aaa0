package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/core/learn"
	"gitui/internal/bytefmt"
	"gitui/model"
)

// chapelleMethod trains Chapelle and Schoelkopf's learners on each draw's raw inputs: the
// invariant SVM (tangent vectors of Tangents, weight InvGamma; InvGamma 0 is the plain SVM)
// or VSV (virtual support vectors: the transformations of Tangents, one pixel each way for
// shifts, ±10 degrees for rotations).
type chapelleMethod struct {
	spec     model.Method
	base     kernel.Base
	tangents []learn.Tangent
	vsv      group.Action
	// smoProgress and logf report a VSV trained on kernel rows (vsvRowPath).
	smoProgress func(done, total int)
	logf        func(format string, a ...any)
}

// newChapelleMethod checks m against the sample shape.
func newChapelleMethod(m model.Method, shape []int) (*chapelleMethod, error) {
	c := &chapelleMethod{spec: m}
	if !m.LiuBase() {
		return nil, inputErr(fmt.Errorf("%s: learner %s needs kernel linear, rbf or poly", m.Name, m.Learner))
	}
	base, err := baseKernel(m)
	if err != nil {
		return nil, err
	}
	c.base = base
	image := len(shape) == 2 && shape[0] >= 3 && shape[1] >= 3
	plane := len(shape) == 1 && shape[0] == 2
	var sets []group.Action
	for _, t := range m.Tangents {
		switch {
		case t == "rotation" && plane:
			c.tangents = append(c.tangents, learn.TangentRotation)
			sets = append(sets, learn.PlaneRotations([]float64{-10, 10}))
		case !image:
			return nil, inputErr(fmt.Errorf("%s: tangent %s needs images (or rotation of 2-D points), the data have shape %v: drop the tangent or use image data", m.Name, t, shape))
		case t == "hshift":
			c.tangents = append(c.tangents, learn.TangentHShift)
			sets = append(sets, vsvTranslations(shape[0], shape[1], m, 0, 1))
		case t == "vshift":
			c.tangents = append(c.tangents, learn.TangentVShift)
			sets = append(sets, vsvTranslations(shape[0], shape[1], m, 1, 0))
		case t == "rotation":
			if err := squareForRotation(m.Name+": tangent rotation", shape[0], shape[1]); err != nil {
				return nil, err
			}
			c.tangents = append(c.tangents, learn.TangentRotation)
			sets = append(sets, group.Rotations(shape[0], shape[1], []float64{-10, 10}))
		}
	}
	if m.Directions == 8 && slices.Contains(m.Tangents, "hshift") && slices.Contains(m.Tangents, "vshift") {
		sets = append(sets, vsvTranslations(shape[0], shape[1], m, 1, 1), vsvTranslations(shape[0], shape[1], m, 1, -1))
	}
	if m.IsVSV() && len(sets) > 0 {
		c.vsv = unionSets(sets)
	}
	return c, nil
}

// vsvTranslations is the set of zero-fill translations of h×w images by ∓k·(dy, dx),
// k = 1..jitter of m, in the order -1·(dy, dx), +1·(dy, dx), -2·(dy, dx), ...: the copies
// VSV makes of its support vectors along one direction ((0, 1) for hshift, (1, 0) for
// vshift, (1, ±1) for the diagonals of directions 8). Jitter 1 gives the one-pixel shifts
// Chapelle and Schoelkopf use; 2 is DeCoste and Schoelkopf's 2-pixel jitter.
func vsvTranslations(h, w int, m model.Method, dy, dx int) group.Action {
	j := max(m.Jitter, 1)
	all := group.LocalShifts(h, w, j)
	at := map[[2]int]int{}
	for i := range all.Len() {
		a, b := all.Shift(i)
		at[[2]int{a, b}] = i
	}
	var idx []int
	for k := 1; k <= j; k++ {
		idx = append(idx, at[[2]int{-k * dy, -k * dx}], at[[2]int{k * dy, k * dx}])
	}
	return group.Select(all, idx)
}

// vsvCopies is the number of transformed copies VSV adds per support vector for m (on
// images: its translations and rotations), the size of the set vsvTranslations and the
// rotation tangent give.
func vsvCopies(m model.Method) int {
	n := 0
	hs, vs := slices.Contains(m.Tangents, "hshift"), slices.Contains(m.Tangents, "vshift")
	j := max(m.Jitter, 1)
	if hs {
		n += 2 * j
	}
	if vs {
		n += 2 * j
	}
	if m.Directions == 8 && hs && vs {
		n += 4 * j
	}
	if slices.Contains(m.Tangents, "rotation") {
		n += 2
	}
	return n
}

func (c *chapelleMethod) Name() string { return c.spec.Name }

func (c *chapelleMethod) Prepare(ctx context.Context, pool, test *data.Dataset, clk *eval.Clock) (eval.Fitter, error) {
	if c.spec.Preprocess == "deskew" {
		t0 := time.Now()
		var err error
		if pool, err = deskewSet(ctx, pool); err != nil {
			return nil, err
		}
		if test, err = deskewSet(ctx, test); err != nil {
			return nil, err
		}
		clk.Since("features", t0)
	}
	if err := checkKernelScale(ctx, selfOf(c.base), pool.X, test.X); err != nil {
		return nil, err
	}
	return &chapelleFitter{c: c, pool: pool, test: test}, nil
}

type chapelleFitter struct {
	c          *chapelleMethod
	pool, test *data.Dataset
}

func (f *chapelleFitter) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, error) {
	pred, _, err := fitPredict(ctx, f.fit, idx, rng, clk, false)
	return pred, err
}

func (f *chapelleFitter) FitScore(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, []float64, error) {
	return fitPredict(ctx, f.fit, idx, rng, clk, true)
}

// fit trains VSV or the invariant SVM on the pool rows idx; it returns it with the test images.
func (f *chapelleFitter) fit(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) (predictor, *mat.Dense, error) {
	tr := f.pool.Subset(idx)
	m := f.c.spec
	opts := &learn.SVCOptions{Workers: 1}
	t0 := time.Now()
	defer clk.Since("fit", t0)
	if m.IsVSV() {
		k := f.c.base
		if m.KernelNorm == "mean" {
			var mean float64
			for i := range tr.Len() {
				mean += selfValue(k, tr.X.RawRowView(i))
			}
			if mean /= float64(tr.Len()); !(mean > 0) || math.IsInf(mean, 0) {
				return nil, nil, inputErr(fmt.Errorf("%s: the kernel's diagonal mean is %g: rescale the kernel (gamma), or drop kernel_norm", m.Name, mean))
			}
			k = kernel.Scaled{Base: k, Factor: 1 / mean}
		}
		if vsvRowPath(m, len(idx), f.test.Len()) {
			return f.fitRows(ctx, k, idx, clk)
		}
		v, err := learn.TrainVSV(ctx, tr.X, tr.Y, k, m.C, f.c.vsv, &learn.VSVOptions{SVC: opts})
		return v, f.test.X, err
	}
	inv, err := learn.TrainInvariantSVM(ctx, tr.X, tr.Y, tr.Shape, learn.InvariantOptions{
		Kernel: f.c.base, C: m.C, Gamma: m.InvGamma, Tangents: f.c.tangents, Smooth: m.Smooth, SVC: opts})
	return inv, f.test.X, err
}

// vsvRowPath reports whether VSV m on n training samples with nt test samples trains
// on kernel rows (learn.TrainVSVRows): when the precomputed kernel of its largest
// possible retraining set, n (1 + copies) samples (every point a support vector), would
// pass the row path's threshold, as svmRowPath decides for the plain SVM. The bound, not
// the retraining set's actual size, decides, so that the route and the memory estimate
// are known before the run: at 8,000 MNIST digits with 16 copies the set was 48,773
// samples (a 17.7 GiB Gram matrix), not 8,000.
func vsvRowPath(m model.Method, n, nt int) bool {
	u, t := float64(n)*float64(1+vsvCopies(m)), float64(nt)
	return 8*(u*u+t*u) > math.Min(svmRowsBytes, float64(kernel.MaxGramBytes))
}

// fitRows trains VSV with kernel k on kernel rows, both SVMs on GOMAXPROCS pairs at once within the
// row path's cache budget: progress is stage "smo" over both trainings' pairs (the
// first's, then the retraining's), with a log line after each SVM (support vectors,
// the first SVM's test accuracy, the retraining set's size).
func (f *chapelleFitter) fitRows(ctx context.Context, k kernel.Base, idx []int, clk *eval.Clock) (predictor, *mat.Dense, error) {
	m := f.c.spec
	t0 := time.Now()
	y := make([]int, len(idx))
	for a, i := range idx {
		y[a] = f.pool.Y[i]
	}
	w := svmRowWorkers()
	opts := &learn.VSVRowsOptions{Float32: true,
		SVC: &learn.SVCOptions{Workers: w, CacheMB: float64(svmRowCacheBytes) / float64(w) / (1 << 20)}}
	var rep func(int)
	if f.c.smoProgress != nil {
		opts.Progress = func(ph learn.VSVPhase, p learn.SVCProgress) {
			if rep == nil {
				rep = throttle(f.c.smoProgress, 2*p.Pairs)
			}
			rep(int(ph)*p.Pairs + p.PairsDone)
		}
	}
	logf := f.c.logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	logf("%s: VSV on %d samples on kernel rows (a %.0f MiB row cache over %d pairs at once, no %d x %d kernel matrix), %d copies per support vector",
		m.Name, len(idx), float64(svmRowCacheBytes)/(1<<20), w, len(idx), len(idx), f.c.vsv.Len())
	tr := time.Now()
	_, d := f.pool.X.Dims()
	opts.Budget = func(svs, rows int) error {
		need := vsvRetrainBytes(float64(rows), float64(d), float64(f.test.Len()), float64(max(len(f.pool.Classes), 2)))
		limit, source, err := data.AvailableMemory()
		if err != nil {
			return err
		}
		if need > float64(limit) {
			return inputErr(memoryError(fmt.Sprintf("%s: the first SVM has %d support vectors: retraining on them and %d copies each (%d samples) needs about %s, more than the %s available (%s): use a smaller jitter or directions, or fewer training samples (%s=SIZE sets the limit)",
				m.Name, svs, f.c.vsv.Len(), rows, bytefmt.IEC(need), bytefmt.IEC(float64(limit)), source, MemoryEnv)))
		}
		return nil
	}
	opts.Retraining = func(first *learn.SVC, fk *learn.FeatureKernel, n, virtual int) error {
		logf("%s: first SVM: %d support vectors, %d SMO iterations in %.1f s; retraining on %d samples (%d virtual)", m.Name, n-virtual, smoIterations(first), time.Since(tr).Seconds(), n, virtual)
		if len(f.test.Y) == f.test.Len() {
			// The first SVM is the plain SVM of DeCoste and Schoelkopf's protocol: its test
			// accuracy, from the kernel with its support vectors only, is what the virtual
			// copies add to (recorded as "svm accuracy"), known before the retraining.
			t1 := time.Now()
			pred, err := first.PredictFeatures(ctx, fk, f.test.X, nil)
			if err != nil {
				return err
			}
			right := 0
			for i, p := range pred {
				if p == f.test.Y[i] {
					right++
				}
			}
			acc := float64(right) / float64(len(pred))
			eval.RecordChosen(ctx, "svm accuracy", acc)
			logf("%s: the first SVM alone scores %.2f%% on the %d test samples (%.1f s)", m.Name, 100*acc, len(pred), time.Since(t1).Seconds())
		}
		tr = time.Now()
		return nil
	}
	v, err := learn.TrainVSVRows(ctx, k, f.pool.X, idx, y, m.C, f.c.vsv, opts)
	clk.Since("fit", t0)
	if err != nil {
		return nil, nil, err
	}
	eval.RecordChosen(ctx, "support vectors", float64(len(v.SVC.SV)))
	eval.RecordChosen(ctx, "virtual", float64(v.Virtual))
	logf("%s: retrained SVM: %d support vectors, %d SMO iterations in %.1f s (the first SVM: %d)", m.Name, len(v.SVC.SV), smoIterations(v.SVC), time.Since(tr).Seconds(), smoIterations(v.First))
	return v, f.test.X, nil
}

// smoIterations sums the SMO iterations of m's pairs.
func smoIterations(m *learn.SVC) int {
	it := 0
	for _, p := range m.Pairs {
		it += p.Iter
	}
	return it
}

// unionSets is the set of every element of every set in sets (all acting on the same d),
// in order.
type unionSet struct{ sets []group.Action }

func unionSets(sets []group.Action) group.Action {
	if len(sets) == 1 {
		return sets[0]
	}
	return &unionSet{sets: sets}
}

func (u *unionSet) Name() string {
	s := "union("
	for i, a := range u.sets {
		if i > 0 {
			s += ", "
		}
		s += a.Name()
	}
	return s + ")"
}

func (u *unionSet) Len() int {
	n := 0
	for _, a := range u.sets {
		n += a.Len()
	}
	return n
}

func (u *unionSet) Dim() int { return u.sets[0].Dim() }

func (u *unionSet) locate(i int) (group.Action, int) {
	for _, a := range u.sets {
		if i < a.Len() {
			return a, i
		}
		i -= a.Len()
	}
	panic(fmt.Sprintf("model: union element %d out of range [0, %d)", i, u.Len()))
}

func (u *unionSet) Apply(dst, x []float64, i int) {
	a, j := u.locate(i)
	a.Apply(dst, x, j)
}

func (u *unionSet) ApplyInverse(dst, x []float64, i int) {
	a, j := u.locate(i)
	a.ApplyInverse(dst, x, j)
}
