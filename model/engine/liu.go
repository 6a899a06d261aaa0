package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/core/learn"
	"gitui/model"
)

// liuKernel is a method's kernel of Liu et al. (kernel.Liu, built from the method's
// fields by newLiuKernel) with the method's PSD repair of the training Gram matrix.
type liuKernel struct {
	liu *kernel.Liu
	psd kernel.PSDMode
}

// newLiuKernel checks m against the image shape and returns its kernel: m's fields
// mapped to kernel.LiuOptions (kernel, gamma, degree, invariance, fit, translation,
// shifts, rotations, polar, locality; shifts 0 with locality means 3), and for
// invariance group the best fit over g, the spec's group (nil: the spec has none).
// Errors are *InputError naming the method, the field and the fix.
func newLiuKernel(m model.Method, shape []int, g group.Action) (*liuKernel, error) {
	psd, err := kernel.ParsePSDMode(m.PSD)
	if err != nil {
		return nil, inputErr(fmt.Errorf("%s: %w", m.Name, err))
	}
	if m.KernelNorm != "" && m.KernelNorm != "cosine" && m.KernelNorm != "mean" {
		return nil, inputErr(fmt.Errorf("%s: kernel_norm %q: use cosine, or mean (the default: divide by the training diagonal's mean)", m.Name, m.KernelNorm))
	}
	o := kernel.LiuOptions{Fit: kernel.BestFit, Shifts: m.Shifts}
	if m.AverageFit() {
		o.Fit = kernel.AverageFit
	}
	if !m.LiuBase() {
		return nil, inputErr(fmt.Errorf("%s: kernel %q has no SVM Gram: use linear, rbf or poly", m.Name, m.Kernel))
	}
	if o.Base, err = baseKernel(m); err != nil {
		return nil, err
	}
	if m.Invariance == model.InvarianceGroup {
		if g == nil {
			return nil, inputErr(fmt.Errorf("%s: invariance group takes the best fit over the spec's group, and the spec has none: set group.kind (e.g. dihedral)", m.Name))
		}
		o.Group = g
	} else if m.Invariant() || m.Locality != nil {
		if len(shape) != 2 || shape[0] < 2 || shape[1] < 2 {
			return nil, inputErr(fmt.Errorf("%s: invariance %q and locality need images (shape h x w), the data have shape %v: use an image data set or drop invariance", m.Name, m.Invariance, shape))
		}
		o.H, o.W = shape[0], shape[1]
		switch m.Invariance {
		case "":
		case "TI":
			o.Invariance = kernel.TI
		case "RI":
			o.Invariance = kernel.RI
		case "TI-RI":
			o.Invariance = kernel.TIRI
		default:
			return nil, inputErr(fmt.Errorf("%s: invariance %q is unknown: use TI, RI or TI-RI", m.Name, m.Invariance))
		}
		if m.Translation == "zero-fill" {
			o.Translation = kernel.ZeroFill
		}
		if strings.Contains(m.Invariance, "RI") && m.Polar == nil {
			// The polar grid samples the inscribed disc and is exact for any h×w; rotated
			// copies need a square image.
			if err := squareForRotation(m.Name+": invariance "+m.Invariance, o.H, o.W); err != nil {
				return nil, err
			}
		}
		if a := m.Rotations; a != nil {
			o.Rotations = group.AngleRange(a.From, a.To, a.Count)
		}
		if p := m.Polar; p != nil {
			o.Polar = &kernel.PolarOptions{Annuli: p.Annuli, Sectors: p.Sectors}
		}
		if l := m.Locality; l != nil {
			o.Locality = &kernel.Locality{H: o.H, W: o.W, K1: l.K1, D1: l.D1, D2: l.D2, K2: l.K2, D3: l.D3, S1: l.Scale, S2: l.Scale2}
			if o.Shifts == 0 {
				o.Shifts = 3
			}
		}
	}
	k, err := kernel.NewLiu(o)
	if err != nil {
		return nil, inputErr(fmt.Errorf("%s: %w", m.Name, err))
	}
	return &liuKernel{liu: k, psd: psd}, nil
}

// self returns the kernel's k(x, x) on an untransformed sample (the locality kernel, or
// the base kernel), for checkKernelScale.
func (k *liuKernel) self() *selfKernel {
	if l := k.liu.Locality(); l != nil {
		return selfOfLocality(l)
	}
	return selfOf(k.liu.Base())
}

// sym returns the n×n Gram matrix of the rows of X (kernel.Liu.SymGram).
func (k *liuKernel) sym(ctx context.Context, X *mat.Dense) (*mat.SymDense, error) {
	return k.liu.SymGram(ctx, X)
}

// cross returns the n×m matrix K(x_i, z_j) between the rows of X (transformed: the test
// samples) and the rows of Z (the training samples), kernel.Liu.Gram, after a memory
// check whose error names the spec's fix.
func (k *liuKernel) cross(ctx context.Context, X, Z *mat.Dense) (*mat.Dense, error) {
	n, _ := X.Dims()
	m, _ := Z.Dims()
	if need := int64(8) * int64(n) * int64(m); need > kernel.MaxGramBytes {
		return nil, fmt.Errorf("a %d x %d kernel matrix needs %.1f GiB, above the limit of %.1f GiB: use fewer test samples (data.test_size) or training samples: %w",
			n, m, float64(need)/(1<<30), float64(kernel.MaxGramBytes)/(1<<30), kernel.ErrGramTooLarge)
	}
	return k.liu.Gram(ctx, X, Z)
}

// selfValues returns K(x_i, x_i) for the rows of X, the same kernel (and path) as cross:
// the test samples' own values for kernel_norm cosine (kernel.Liu.SelfValues).
func (k *liuKernel) selfValues(ctx context.Context, X *mat.Dense) ([]float64, error) {
	return k.liu.SelfValues(ctx, X)
}

// gramMethod is a kernel method of Liu et al. (or a plain base kernel) with the svm or rls
// learner. Prepare computes the kernel once for the union of every training draw of the
// run (draws, enumerated from the protocol before it runs): the union's training Gram and
// the test × union matrix; FitPredict slices the rows and columns of its draw.
type gramMethod struct {
	spec  model.Method
	k     *liuKernel
	draws [][]int
	cache *gramCache // shared by the methods of a run (nil: none)
	// progress, when set, receives the rows done of the two matrices (FFT paths only:
	// kernel.WithProgress), throttled.
	progress func(done, total int)
	// smoProgress, when set, receives the pairs done of a row-path SVM (svmRowPath);
	// logf the route's log line.
	smoProgress func(done, total int)
	logf        func(format string, a ...any)
}

func (g *gramMethod) Name() string { return g.spec.Name }

// ShareKey identifies the kernel (eval.Sharer): the methods of one kernel are prepared
// one after the other, so that its cached matrices are dropped before the next
// kernel's are computed.
func (g *gramMethod) ShareKey() string {
	if g.cache == nil {
		return ""
	}
	return methodKey(g.spec)
}

// Check refuses a kernel whose values overflow on the training union or the test set
// (checkKernelScale), before any method runs.
func (g *gramMethod) Check(ctx context.Context, pool, test *data.Dataset) error {
	return checkKernelScale(ctx, g.k.self(), pool.Subset(unionOf(g.draws)).X, test.X)
}

func (g *gramMethod) Prepare(ctx context.Context, pool, test *data.Dataset, clk *eval.Clock) (eval.Fitter, error) {
	t0 := time.Now()
	union := unionOf(g.draws)
	pos := make(map[int]int, len(union))
	for a, i := range union {
		pos[i] = a
	}
	nt := test.Len()
	if svmRowPath(g.spec, float64(len(union)), float64(nt)) {
		return g.prepareRows(pool, test, len(union))
	}
	need := 8 * (int64(len(union))*int64(len(union)) + int64(nt)*int64(len(union)))
	if need > kernel.MaxGramBytes {
		return nil, inputErr(fmt.Errorf("%s: the kernel of %d training and %d test samples needs %.1f GiB, above the limit of %.1f GiB: use fewer test samples (data.test_size), sizes or repeats, or random features",
			g.spec.Name, len(union), nt, float64(need)/(1<<30), float64(kernel.MaxGramBytes)/(1<<30)))
	}
	key := kernelKey(g.spec, test)
	var err error
	if e, ok := g.cache.get(key); ok {
		if g.spec.Cosine() && e.tself == nil {
			if e.tself, err = g.k.selfValues(ctx, test.X); err != nil {
				return nil, gramErr(g.spec.Name, err)
			}
			g.cache.put(key, e)
		}
		clk.Since("gram", t0)
		g.cache.taken(g.spec, key)
		return &gramFitter{spec: g.spec, psd: g.k.psd, ktr: e.ktr, kte: e.kte, tself: e.tself, pos: pos, y: pool.Y, k: len(pool.Classes)}, nil
	}
	g.cache.keepOnly(key) // other kernels' entries: their methods are done
	xu := pool.Subset(union).X
	self := g.k.self()
	if err := checkKernelScale(ctx, self, xu, test.X); err != nil {
		return nil, err
	}
	rep := throttle(g.progress, len(union)+nt)
	ktr, err := g.k.sym(kernel.WithProgress(ctx, func(d, _ int) { rep(d) }), xu)
	if err != nil {
		return nil, gramErr(g.spec.Name, err)
	}
	if err := checkGramFinite(ktr, self); err != nil {
		return nil, err
	}
	kte, err := g.k.cross(kernel.WithProgress(ctx, func(d, _ int) { rep(len(union) + d) }), test.X, xu)
	if err != nil {
		return nil, gramErr(g.spec.Name, err)
	}
	if err := checkGramFinite(kte, self); err != nil {
		return nil, err
	}
	var tself []float64
	if g.spec.Cosine() {
		if tself, err = g.k.selfValues(ctx, test.X); err != nil {
			return nil, gramErr(g.spec.Name, err)
		}
	}
	clk.Since("gram", t0)
	g.cache.put(key, gramEntry{ktr: ktr, kte: kte, tself: tself})
	g.cache.taken(g.spec, key)
	return &gramFitter{spec: g.spec, psd: g.k.psd, ktr: ktr, kte: kte, tself: tself, pos: pos, y: pool.Y, k: len(pool.Classes)}, nil
}

// selfValues returns K(x_i, x_i) for the rows of X, the same kernel (and path) as cross:
// the test samples' own values for kernel_norm cosine. A best-fit kernel's value is

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
	spec  model.Method
	psd   kernel.PSDMode
	tself []float64 // K(x,x) of the test samples (kernel_norm cosine)
	ktr   *mat.SymDense
	kte   *mat.Dense
	pos   map[int]int
	y     []int
	k     int
}

func (g *gramFitter) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, error) {
	pred, _, err := fitPredict(ctx, g.fit, idx, rng, clk, false)
	return pred, err
}

func (g *gramFitter) FitScore(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, []float64, error) {
	return fitPredict(ctx, g.fit, idx, rng, clk, true)
}

// fit slices the draw's training Gram and test rows, normalises them, and trains the
// SVM (or RLS) on them; it returns the learner with the test rows.
func (g *gramFitter) fit(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) (predictor, *mat.Dense, error) {
	t0 := time.Now()
	n := len(idx)
	p := make([]int, n)
	y := make([]int, n)
	for a, i := range idx {
		q, ok := g.pos[i]
		if !ok {
			return nil, nil, fmt.Errorf("model: draw index %d was not prepared (the protocol's draws changed)", i)
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
		return nil, nil, inputErr(fmt.Errorf("the kernel's diagonal mean is %g: rescale the kernel (gamma, locality scale)", mean))
	}
	// kernel_norm cosine: K(x,z)/sqrt(K(x,x)·K(z,z)), every sample at unit norm in the
	// kernel's feature space; else the common scale 1/mean (rs[a] = 1/sqrt(mean)).
	rs := make([]float64, n)
	for a, q := range p {
		d := mean
		if g.spec.Cosine() {
			d = g.ktr.At(q, q)
		}
		if !(d > 0) {
			return nil, nil, inputErr(fmt.Errorf("K(x, x) = %g for a training sample: kernel_norm cosine needs K(x, x) > 0: drop kernel_norm", d))
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
		if g.spec.Cosine() {
			if !(g.tself[i] > 0) {
				return nil, nil, inputErr(fmt.Errorf("K(x, x) = %g for test sample %d: kernel_norm cosine needs K(x, x) > 0: drop kernel_norm", g.tself[i], i))
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
			return nil, nil, fmt.Errorf("%s: %w", g.spec.Name, err)
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
	defer clk.Since("fit", t0)
	if g.spec.LearnsRLS() {
		m, err := learn.FitKernelRLS(ctx, ktr, y, g.k, rlsOptions(g.spec))
		if err == nil {
			recordLambda(ctx, g.spec, m.Info)
		}
		return m, kte, err
	}
	m, err := learn.TrainSVC(ctx, ktr, y, g.spec.C, &learn.SVCOptions{Workers: 1})
	return m, kte, err
}

// pdOutcome runs the Table I protocol (eval.PD) for the kernel of every method: a table
// of the largest PD n per method, and a series per method of the fraction of draws whose
// Gram matrix of n samples is PD. Every kernel is built and its scale checked before the
// first Gram matrix; errors of the spec are *InputError.
func pdOutcome(ctx context.Context, spec *model.Spec, pool *data.Dataset, ch chan<- eval.Event) (*eval.Outcome, error) {
	p := &eval.PD{X: pool.X, Sizes: spec.PD.Sizes, Draws: spec.PD.Draws, Seed: spec.Seed}
	if len(p.Sizes) > 0 && slices.Max(p.Sizes) > pool.Len() {
		big := slices.Max(p.Sizes)
		return nil, inputErr(fmt.Errorf("pd size %d is larger than the pool of %d samples: use smaller sizes", big, pool.Len()))
	}
	var g group.Action
	for _, m := range spec.Methods {
		if m.Invariance == model.InvarianceGroup && g == nil {
			var err error
			if g, err = BuildGroupContext(ctx, spec.Group, pool.Shape, spec.Seed); err != nil {
				return nil, err
			}
		}
		k, err := newLiuKernel(m, pool.Shape, g)
		if err != nil {
			return nil, err
		}
		if err := checkKernelScale(ctx, k.self(), pool.X); err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		p.Kernels = append(p.Kernels, eval.PDKernel{Name: m.Name, Desc: k.liu.Desc(), Gram: k.sym})
	}
	out, err := p.Run(ctx, ch)
	if errors.Is(err, kernel.ErrGramTooLarge) {
		err = inputErr(err)
	}
	return out, err
}
