package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
	"gitui/core/kernel"
)

// haarFFT is the route of a Haar kernel over a full cyclic-shift group
// (kernel.CyclicGroupOf: all 2-D cyclic shifts of h×w images, or all cyclic shifts of
// their columns): K(x, z) = mean_s k0(S_s x, z), all |G| inner products of a pair from
// one product of spectra and one inverse FFT. Prepare computes the kernel once for the
// union of every training draw of the run, as Liu et al.'s kernels do (gramMethod): the
// union's training Gram matrix and the test × union matrix; each draw's fit slices its
// rows and columns. The values are those of the direct orbit path up to rounding.
type haarFFT struct {
	h, w   int
	mode   kernel.CyclicMode
	shifts int     // |G|
	draws  [][]int // every training draw of the run
}

// newHaarFFT returns the FFT route of the Haar kernel over g for the run's draws, nil
// when g is not a full cyclic-shift group (the direct orbit path then).
func newHaarFFT(b *builder, g group.Action) (*haarFFT, error) {
	h, w, mode, ok := kernel.CyclicGroupOf(g)
	if !ok {
		return nil, nil
	}
	d, err := b.draws()
	if err != nil {
		return nil, err
	}
	return &haarFFT{h: h, w: w, mode: mode, shifts: g.Len(), draws: d}, nil
}

// haarRouteLine is the run log's line naming the route of the Haar kernel of method name
// over g: through the FFT (f not nil: for the union of its draws and nt test samples) or
// the direct orbit path (over the np pool and nt test samples).
func haarRouteLine(name string, g group.Action, f *haarFFT, np, nt int) string {
	if f != nil {
		return fmt.Sprintf("%s: Haar kernel over %d cyclic shifts through the FFT (%v of %dx%d images; %d training samples in the draws, %d test samples)", name, f.shifts, f.mode, f.h, f.w, len(unionOf(f.draws)), nt)
	}
	return fmt.Sprintf("%s: Haar kernel over %d elements of %s by orbits (direct path, %d pool and %d test samples)", name, g.Len(), g.Name(), np, nt)
}

// prepare computes the union's training Gram matrix and the test × union matrix (see
// haarFFT), reporting the rows done through progress (nil: none) at most every
// progressEvery and at the end. It returns the matrices and each union row's position
// by pool row. Errors: an *InputError past kernel.MaxGramBytes, ctx.Err().
func (f *haarFFT) prepare(ctx context.Context, name string, k0 kernel.Base, pool, test *data.Dataset, progress func(done, total int)) (ktr *mat.SymDense, kte *mat.Dense, pos map[int]int, err error) {
	union := unionOf(f.draws)
	u, nt := len(union), test.Len()
	if need := 8 * (int64(u)*int64(u) + int64(nt)*int64(u)); need > kernel.MaxGramBytes {
		return nil, nil, nil, inputErr(fmt.Errorf("%s: the Haar kernel of %d training and %d test samples needs %.1f GiB, above the limit of %.1f GiB: use fewer test samples (data.test_size), sizes or repeats, or CDF features",
			name, u, nt, float64(need)/(1<<30), float64(kernel.MaxGramBytes)/(1<<30)))
	}
	pos = make(map[int]int, u)
	for a, i := range union {
		pos[i] = a
	}
	A, err := kernel.NewSpectra(ctx, f.h, f.w, f.mode, pool.Subset(union).X, nil)
	if err != nil {
		return nil, nil, nil, gramErr(name, err)
	}
	T, err := kernel.NewSpectra(ctx, f.h, f.w, f.mode, test.X, nil)
	if err != nil {
		return nil, nil, nil, gramErr(name, err)
	}
	// Rows of the two matrices, in one count: the training rows first.
	rep := throttle(progress, u+nt)
	ktr, err = kernel.CyclicSymGram(kernel.WithProgress(ctx, func(d, _ int) { rep(d) }), k0, kernel.AverageFit, A)
	if err != nil {
		return nil, nil, nil, gramErr(name, err)
	}
	kte, err = kernel.CyclicGram(kernel.WithProgress(ctx, func(d, _ int) { rep(u + d) }), k0, kernel.AverageFit, T, A)
	if err != nil {
		return nil, nil, nil, gramErr(name, err)
	}
	return ktr, kte, pos, nil
}

// progressEvery is the shortest interval between two progress events of a Gram matrix
// (the last one is always sent).
const progressEvery = 250 * time.Millisecond

// throttle returns a reporter of done out of total that calls progress at most every
// progressEvery, and always for done == total; progress nil gives a no-op. It is safe
// for concurrent use.
func throttle(progress func(done, total int), total int) func(done int) {
	if progress == nil {
		return func(int) {}
	}
	var mu sync.Mutex
	var last time.Time
	return func(done int) {
		mu.Lock()
		defer mu.Unlock()
		if now := time.Now(); done >= total || now.Sub(last) >= progressEvery {
			last = now
			progress(done, total)
		}
	}
}

// gramProgress returns the builder's reporter of a Gram matrix's rows: eval.Progress
// events of stage "gram" on the run's channel (a send waits for the reader, as the
// run's log lines do, or ends when ctx is cancelled), nil without a channel.
func gramProgress(ctx context.Context, ch chan<- eval.Event) func(done, total int) {
	if ch == nil {
		return nil
	}
	return func(done, total int) {
		select {
		case ch <- eval.Progress{Stage: "gram", Done: done, Total: total}:
		case <-ctx.Done():
		}
	}
}

// sliceUnion returns the training Gram matrix and the test rows of the draw idx from the
// union's matrices (positions pos).
func sliceUnion(ktr *mat.SymDense, kte *mat.Dense, pos map[int]int, idx []int) (*mat.SymDense, *mat.Dense, error) {
	n := len(idx)
	p := make([]int, n)
	for a, i := range idx {
		q, ok := pos[i]
		if !ok {
			return nil, nil, fmt.Errorf("model: draw index %d was not prepared (the protocol's draws changed)", i)
		}
		p[a] = q
	}
	tr := mat.NewSymDense(n, nil)
	for a := range n {
		for b := a; b < n; b++ {
			tr.SetSym(a, b, ktr.At(p[a], p[b]))
		}
	}
	nt, _ := kte.Dims()
	te := mat.NewDense(nt, n, nil)
	for i := range nt {
		src, dst := kte.RawRowView(i), te.RawRowView(i)
		for a, q := range p {
			dst[a] = src[q]
		}
	}
	return tr, te, nil
}
