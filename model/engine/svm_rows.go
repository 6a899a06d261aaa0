package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/kernel"
	"gitui/core/learn"
	"gitui/model"
)

// svmRowsBytes is the size of the precomputed kernel (the union's training Gram and the
// test × union matrix, float64) past which an SVM on a plain base kernel trains on
// kernel rows computed on demand (learn.TrainSVCRows), as LIBSVM does, instead. 4 GiB is
// a union of about 18,000 samples with 10,000 test samples: every preset and paper size
// (draws of at most 10,000, 1.6 GB) keeps the precomputed kernel, shared across draws and
// methods, and its results; beyond, the Gram matrix grows past what the SMO's row cache
// needs (full MNIST: 28.8 GB against the 1 GiB cache). A variable so tests can take the
// row path on small data.
var svmRowsBytes float64 = 4 << 30

// svmRowCacheBytes is the kernel-row cache of one row-path SVM, divided equally over the
// pairs it trains at once (learn.SVCOptions.CacheMB each); the memory estimate counts
// it. 1 GiB holds every row of MNIST's largest pair (13,007 digits: 0.68 GB in float32)
// when two pairs run at once with about 40% of their rows each, and more of the rows
// SMO revisits (the free support vectors) on a 2-core machine.
const svmRowCacheBytes = 1 << 30

// svmRowsApply reports whether m can train on kernel rows: the svm learner on a base
// kernel (linear, rbf, poly) of the samples' values, without invariance, locality or a
// PSD repair (whose Gram matrices are not rows of a matrix product).
func svmRowsApply(m model.Method) bool {
	return m.IsSVM() && m.LiuBase() && !m.Invariant() && m.Locality == nil && (m.PSD == "" || m.PSD == "none")
}

// svmRowPath reports whether m, whose draws' union has u samples, with nt test samples,
// takes the row path: svmRowsApply, and the precomputed kernel would need more than
// svmRowsBytes (or kernel.MaxGramBytes, whichever is smaller).
func svmRowPath(m model.Method, u, nt float64) bool {
	return svmRowsApply(m) && 8*(u*u+nt*u) > math.Min(svmRowsBytes, float64(kernel.MaxGramBytes))
}

// svmRowWorkers is the number of pairs a row-path SVM trains at once.
func svmRowWorkers() int { return runtime.GOMAXPROCS(0) }

// rowsLine is the log line of the row path.
func rowsLine(name string, u, nt int) string {
	w := svmRowWorkers()
	return fmt.Sprintf("%s: the kernel of %d training and %d test samples would need %.1f GB: SMO on kernel rows computed on demand (float32 products), a %.0f MiB row cache over %d pairs at once, the test kernel against the support vectors only",
		name, u, nt, 8*(float64(u)*float64(u)+float64(nt)*float64(u))/1e9, float64(svmRowCacheBytes)/(1<<20), w)
}

// rowsFitter trains the SVM of one draw on kernel rows (learn.FeatureKernel over the
// pool's samples) and predicts from the test × support-vector kernel: no n×n matrix.
// The kernel is divided by the mean of the draw's diagonal (or, with kernel_norm
// cosine, normalised per sample), as gramFitter does with the precomputed Gram.
type rowsFitter struct {
	spec       model.Method
	base       kernel.Base
	pool, test *data.Dataset
	progress   func(done, total int)
	logf       func(format string, a ...any)
}

func (r *rowsFitter) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, error) {
	pred, _, err := fitPredict(ctx, r.fit, idx, rng, clk, false)
	return pred, err
}

func (r *rowsFitter) FitScore(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, []float64, error) {
	return fitPredict(ctx, r.fit, idx, rng, clk, true)
}

// selfValue returns k0(x, x) for a row x.
func selfValue(k kernel.Base, x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return k.FromDot(s, s, s)
}

func (r *rowsFitter) fit(ctx context.Context, idx []int, _ *rand.Rand, clk *eval.Clock) (predictor, *mat.Dense, error) {
	t0 := time.Now()
	n := len(idx)
	y := make([]int, n)
	diag := make([]float64, n)
	var mean float64
	for a, i := range idx {
		y[a] = r.pool.Y[i]
		diag[a] = selfValue(r.base, r.pool.X.RawRowView(i))
		mean += diag[a]
	}
	mean /= float64(n)
	if !(mean > 0) || mean > 1e300 {
		return nil, nil, inputErr(fmt.Errorf("the kernel's diagonal mean is %g: rescale the kernel (gamma)", mean))
	}
	rs := make([]float64, n)
	for a := range rs {
		d := mean
		if r.spec.Cosine() {
			d = diag[a]
		}
		if !(d > 0) {
			return nil, nil, inputErr(fmt.Errorf("K(x, x) = %g for a training sample: kernel_norm cosine needs K(x, x) > 0: drop kernel_norm", d))
		}
		rs[a] = 1 / math.Sqrt(d)
	}
	nt := r.test.Len()
	ts := make([]float64, nt)
	for i := range ts {
		d := mean
		if r.spec.Cosine() {
			if d = selfValue(r.base, r.test.X.RawRowView(i)); !(d > 0) {
				return nil, nil, inputErr(fmt.Errorf("K(x, x) = %g for test sample %d: kernel_norm cosine needs K(x, x) > 0: drop kernel_norm", d, i))
			}
		}
		ts[i] = 1 / math.Sqrt(d)
	}
	fk, err := learn.NewFeatureKernel(r.base, r.pool.X, idx, rs, true)
	if err != nil {
		return nil, nil, inputErr(fmt.Errorf("%s: %w", r.spec.Name, err))
	}
	clk.Since("gram", t0)
	t0 = time.Now()
	w := svmRowWorkers()
	var rep func(int)
	var pairs int
	opts := &learn.SVCOptions{Workers: w, CacheMB: float64(svmRowCacheBytes) / float64(w) / (1 << 20)}
	if r.progress != nil {
		opts.Progress = func(p learn.SVCProgress) {
			if rep == nil {
				pairs = p.Pairs
				rep = throttle(r.progress, p.Pairs)
			}
			rep(p.PairsDone)
		}
	}
	m, err := learn.TrainSVCRows(ctx, fk, y, r.spec.C, opts)
	clk.Since("fit", t0)
	if err != nil {
		return nil, nil, err
	}
	if r.logf != nil {
		it := 0
		for _, p := range m.Pairs {
			it += p.Iter
		}
		if pairs == 0 {
			pairs = len(m.Pairs)
		}
		r.logf("%s: SVM on %d samples: %d pairs, %d SMO iterations, %d support vectors in %.1f s", r.spec.Name, n, pairs, it, len(m.SV), time.Since(t0).Seconds())
	}
	return &svRowsPredictor{m: m, k: fk, tscale: ts}, r.test.X, nil
}

// svRowsPredictor predicts the test rows x with a row-path SVC from the kernel between
// x and its support vectors (learn.SVC.DecisionValuesFeatures); the test scales are
// those of the test set x is.
type svRowsPredictor struct {
	m      *learn.SVC
	k      *learn.FeatureKernel
	tscale []float64
}

func (p *svRowsPredictor) Predict(ctx context.Context, x *mat.Dense) ([]int, error) {
	return p.m.PredictFeatures(ctx, p.k, x, p.tscale)
}

func (p *svRowsPredictor) Decision(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	return p.m.DecisionFeatures(ctx, p.k, x, p.tscale)
}

// predictsArgmax reports whether the argmax of DecisionFeatures's scores is the vote:
// when the model's labels are 0..k-1 (a draw with every class), so that one pass over
// the test kernel gives both; otherwise Decision has no scores and Predict votes.
func (p *svRowsPredictor) predictsArgmax() bool {
	for _, lab := range p.m.Labels {
		if lab < 0 || lab >= len(p.m.Labels) {
			return false
		}
	}
	return true
}

// prepareRows is gramMethod.Prepare's row path: nothing is precomputed; each draw's SVM
// computes its kernel rows as it trains.
func (g *gramMethod) prepareRows(pool, test *data.Dataset, u int) (eval.Fitter, error) {
	if g.logf != nil {
		g.logf("%s", rowsLine(g.spec.Name, u, test.Len()))
	}
	// Nothing to share: other kernels' matrices are done with (their methods were
	// prepared first), and this method takes no entry.
	key := kernelKey(g.spec, test)
	g.cache.keepOnly(key)
	g.cache.taken(g.spec, key)
	return &rowsFitter{spec: g.spec, base: g.k.liu.Base(), pool: pool, test: test, progress: g.smoProgress, logf: g.logf}, nil
}

// smoProgress returns the reporter of a row-path SVM's pairs: eval.Progress events of
// stage "smo" (pairs done of the pairs) on the run's channel, as gramProgress; nil
// without a channel.
func smoProgress(ctx context.Context, ch chan<- eval.Event) func(done, total int) {
	if ch == nil {
		return nil
	}
	return func(done, total int) {
		select {
		case ch <- eval.Progress{Stage: "smo", Done: done, Total: total}:
		case <-ctx.Done():
		}
	}
}

// stageProgress returns a reporter of eval.Progress events of any stage on the run's
// channel (a Nyström fit's "cg" iterations); nil without a channel.
func stageProgress(ctx context.Context, ch chan<- eval.Event) func(stage string, done, total int) {
	if ch == nil {
		return nil
	}
	return func(stage string, done, total int) {
		select {
		case ch <- eval.Progress{Stage: stage, Done: done, Total: total}:
		case <-ctx.Done():
		}
	}
}
