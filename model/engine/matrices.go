package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/feature"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/model"
)

// GramSamples is the largest number of training rows in the Gram matrices a run sends
// for the heatmap (eval.Matrix events); a smaller pool gives all its rows.
const GramSamples = 200

// matrixSender computes and sends a run's eval.Matrix events in one background
// goroutine (see builder.startMatrices); wait blocks until it has finished.
type matrixSender struct {
	once sync.Once
	wg   sync.WaitGroup
}

// startMatrices starts, once per run, the goroutine that sends the heatmap's matrices
// on ch while the protocol runs: for a sample of at most GramSamples training-pool
// rows (a stratified draw seeded by the spec, sorted by class), the Gram matrix of the
// base kernel (linear on the raw inputs) and then of each method's kernel, one
// eval.Matrix each as soon as it is computed, named as the method (methods with the
// same kernel share one matrix). g is the spec's group (nil: none).
//
// The matrices are a view, not part of the result: a method whose sample Gram fails
// (for example a kernel that needs more memory than the limit allows) is reported in
// the log and skipped, and the run goes on. Cancelling ctx stops the goroutine.
// Gamma 0 (auto) is resolved here, before the goroutine starts, with the same seeded
// median heuristic the methods use, so the goroutine shares no mutable state with the
// run.
func (b *builder) startMatrices(ctx context.Context, g group.Action, ch chan<- eval.Event) {
	if b.noMatrices {
		return
	}
	b.heat.once.Do(func() {
		methods := make([]model.Method, 0, len(b.spec.Methods))
		for _, m := range b.spec.Methods {
			m.Defaults()
			if m.UsesRBF() && m.Gamma == 0 {
				gm, err := b.autoGamma()
				if err != nil {
					continue // the method itself reports this
				}
				m.Gamma = gm
			}
			methods = append(methods, m)
		}
		pool, seed, shape := b.pool, b.spec.Seed, b.pool.Shape
		b.heat.wg.Add(1)
		go func() {
			defer b.heat.wg.Done()
			defer func() {
				if v := recover(); v != nil {
					send(ctx, ch, eval.Log{Time: time.Now(), Line: fmt.Sprintf("heatmap: the sample Gram matrices failed (internal error, please report): %v", v)})
				}
			}()
			sendMatrices(ctx, pool, shape, seed, g, methods, ch)
		}()
	})
}

// waitMatrices blocks until the goroutine of startMatrices (if any) has returned.
func (b *builder) waitMatrices() { b.heat.wg.Wait() }

// send delivers e on ch unless ctx is cancelled first; it reports whether it did.
func send(ctx context.Context, ch chan<- eval.Event, e eval.Event) bool {
	select {
	case ch <- e:
		return true
	case <-ctx.Done():
		return false
	}
}

// sendMatrices computes and sends the matrices of startMatrices.
func sendMatrices(ctx context.Context, pool *data.Dataset, shape []int, seed uint64, g group.Action, methods []model.Method, ch chan<- eval.Event) {
	logf := func(format string, a ...any) {
		send(ctx, ch, eval.Log{Time: time.Now(), Line: fmt.Sprintf(format, a...)})
	}
	sub, err := GramSample(pool, seed, GramSamples)
	if err != nil {
		logf("heatmap: %v", err)
		return
	}
	t0 := time.Now()
	kb, err := kernel.SymGram(ctx, kernel.Linear{}, sub.X)
	if err != nil {
		return // cancelled
	}
	if !send(ctx, ch, MatrixOf("linear (input)", kb, sub.Y)) {
		return
	}
	seen := map[string]bool{kernelIdentity(model.Method{Kernel: model.KernelLinear}): true}
	for _, m := range methods {
		id := kernelIdentity(m)
		if seen[id] {
			continue
		}
		seen[id] = true
		k, err := methodGram(ctx, m, shape, g, pool, sub, seed)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			logf("heatmap: %s: no sample Gram: %v", m.DisplayName(), err)
			continue
		}
		if k == nil {
			continue // the base kernel again (raw features)
		}
		if !send(ctx, ch, MatrixOf(m.DisplayName(), k, sub.Y)) {
			return
		}
	}
	logf("heatmap: Gram matrices of %d training samples in %.1f s", len(sub.Y), time.Since(t0).Seconds())
}

// GramSample returns n rows of pool (all of them when the pool is smaller): a
// stratified draw seeded by seed, sorted by class (stably), the heatmap's sample. It
// returns an input error when fewer than 2 rows would remain.
func GramSample(pool *data.Dataset, seed uint64, n int) (*data.Dataset, error) {
	n = min(n, pool.Len())
	if n < 2 {
		return nil, inputErr(fmt.Errorf("a Gram sample needs at least 2 samples, got %d", n))
	}
	rng := rand.New(rand.NewPCG(seed, 0x6a4d))
	idx, err := data.Draw(rng, pool.Y, n, data.DrawOptions{Mode: data.Stratified, Classes: len(pool.Classes)})
	if err != nil {
		return nil, inputErr(err)
	}
	sort.SliceStable(idx, func(a, b int) bool { return pool.Y[idx[a]] < pool.Y[idx[b]] })
	return pool.Subset(idx), nil
}

// kernelIdentity returns a key equal for two methods whose sample Gram matrices (as the
// heatmap shows them) are the same: the fields the registry says decide the features, the
// kernel or its normalisation, not the learner or the name (and raw features, whose Gram
// is the linear kernel on the inputs, map to the linear kernel).
func kernelIdentity(m model.Method) string {
	if m.IsRaw() {
		m = model.Method{Kernel: model.KernelLinear}
	}
	return model.KeyOf(model.MethodFields, m, model.DecidesFeatures|model.DecidesKernel|model.DecidesKernelNorm)
}

// methodGram returns the training Gram matrix of method m's kernel on the rows of sub
// (nil when it is the linear kernel on the inputs, sent already):
//
//   - features: <Phi(x), Phi(z)> of the feature map (bag-of-words, CDF or moment
//     pooling over g; CDF range thresholds fitted on the sample);
//   - kernel RLS/1-NN: the base kernel k0(x, z), or the Haar kernel mean_{g,g'} k0(gx, g'z);
//   - Liu et al.'s kernels: the invariant and/or local kernel, divided by
//     sqrt(K(x,x) K(z,z)) with kernel_norm cosine (before any PSD repair, so the
//     verdict shows whether the kernel itself is PD);
//   - Chapelle and Schoelkopf's learners: their base kernel.
func methodGram(ctx context.Context, m model.Method, shape []int, g group.Action, pool, sub *data.Dataset, seed uint64) (*mat.SymDense, error) {
	if fe := familyEngineOf(model.FamilyOf(m)); fe.gram != nil {
		return fe.gram(ctx, m, shape, g, pool, sub, seed)
	}
	return nil, fmt.Errorf("no kernel")
}

// featureGram is the heatmap's Gram of the feature family: <Phi(x), Phi(z)> of the
// feature map, nil for raw features (the linear kernel on the inputs).
func featureGram(ctx context.Context, m model.Method, shape []int, g group.Action, pool, sub *data.Dataset, seed uint64) (*mat.SymDense, error) {
	var fm feature.Map
	switch {
	case m.IsRaw():
		return nil, nil
	case m.IsBoW():
		if len(shape) != 2 {
			return nil, fmt.Errorf("bag-of-words needs sequence data")
		}
		fm = feature.NewBagOfWords(shape)
	case m.Pooled() && g != nil:
		return pooledGram(ctx, m, g, pool, sub, seed)
	default:
		return nil, fmt.Errorf("%s pooling needs a group", m.Features)
	}
	f, err := fm.Transform(ctx, sub.X, nil)
	if err != nil {
		return nil, err
	}
	return kernel.SymGram(ctx, kernel.Linear{}, f)
}

// pooledGram returns <Phi(x), Phi(z)> on the rows of sub for the CDF or moment pooling
// map of m over g (CDF range thresholds and standardisation fitted on the sample).
func pooledGram(ctx context.Context, m model.Method, g group.Action, pool, sub *data.Dataset, seed uint64) (*mat.SymDense, error) {
	fm, err := poolingMap(m, g, pool, seed)
	if err != nil {
		return nil, err
	}
	if c, ok := fm.(*feature.CDF); ok { // range thresholds, standardisation (else a no-op)
		if err := c.Fit(ctx, fitInputs(m, sub, seed), nil); err != nil {
			return nil, err
		}
	}
	f, err := fm.Transform(ctx, sub.X, nil)
	if err != nil {
		return nil, err
	}
	return kernel.SymGram(ctx, kernel.Linear{}, f)
}

// kernelGram is the heatmap's Gram of kernel RLS/1-NN: the Haar kernel
// mean_{g,g'} k0(gx, g'z), or the base kernel k0(x, z) (nil when linear: the inputs' Gram).
func kernelGram(ctx context.Context, m model.Method, _ []int, g group.Action, _, sub *data.Dataset, _ uint64) (*mat.SymDense, error) {
	k0, err := baseKernel(m)
	if err != nil {
		return nil, err
	}
	if m.IsHaar() {
		if g == nil {
			return nil, fmt.Errorf("the Haar kernel needs a group")
		}
		return kernel.HaarSymGram(ctx, k0, g, sub.X)
	}
	if _, lin := k0.(kernel.Linear); lin {
		return nil, nil
	}
	return kernel.SymGram(ctx, k0, sub.X)
}

// liuGram is the heatmap's Gram of Liu et al.'s kernels: the invariant and/or local
// kernel, divided by sqrt(K(x,x) K(z,z)) with kernel_norm cosine (before any PSD repair,
// so the verdict shows whether the kernel itself is PD).
func liuGram(ctx context.Context, m model.Method, shape []int, g group.Action, _, sub *data.Dataset, _ uint64) (*mat.SymDense, error) {
	lk, err := newLiuKernel(m, shape, g)
	if err != nil {
		return nil, err
	}
	k, err := lk.sym(ctx, sub.X)
	if err != nil {
		return nil, err
	}
	if m.Cosine() {
		cosineNormalize(k)
	}
	return k, nil
}

// baseGram is the heatmap's Gram of Chapelle and Schoelkopf's learners: their base kernel.
func baseGram(ctx context.Context, m model.Method, _ []int, _ group.Action, _, sub *data.Dataset, _ uint64) (*mat.SymDense, error) {
	k0, err := baseKernel(m)
	if err != nil {
		return nil, err
	}
	return kernel.SymGram(ctx, k0, sub.X)
}

// cosineNormalize divides K in place by sqrt(K_ii K_jj) (entries of a zero diagonal
// are left as they are).
func cosineNormalize(k *mat.SymDense) {
	n := k.SymmetricDim()
	d := make([]float64, n)
	for i := range d {
		d[i] = math.Sqrt(k.At(i, i))
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if s := d[i] * d[j]; s > 0 {
				k.SetSym(i, j, k.At(i, j)/s)
			}
		}
	}
}

// MatrixOf returns the eval.Matrix of a symmetric Gram matrix k of rows labelled y: its
// entries row-major, a copy of the labels and its smallest eigenvalue.
func MatrixOf(name string, k *mat.SymDense, y []int) eval.Matrix {
	return matrixOf(name, k, y)
}
