package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/feature"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/core/learn"
	"gitui/model"
)

// builder turns the methods of a spec into engine methods.
type builder struct {
	spec    *model.Spec
	pool    *data.Dataset
	group   group.Action
	dataDir string
	// proto and sizes give the training draws of the run, for methods that precompute
	// the kernel of their union (Liu et al.'s kernels).
	proto *eval.Protocol
	sizes []int
	grams gramCache    // kernel matrices shared by methods with the same kernel
	feats featureCache // pooled features shared by methods with the same features
	// shared, when set, keeps pooled features across runs on the same loaded data
	// (RunOptions.Features with RunOptions.Loaded).
	shared *FeatureCache
	loaded *LoadedData
	gamma  float64 // the median heuristic's gamma, once computed (autoGamma)
	// logf, when set, reports a line in the run's log (the automatic gamma).
	logf func(format string, a ...any)
	// progress, when set, reports the rows done of a long Gram matrix (the FFT paths: the
	// Haar kernel over cyclic shifts, Liu et al.'s TI kernels) as eval.Progress events of
	// stage "gram" (gramProgress).
	progress func(done, total int)
	// smoProgress, when set, reports the pairs done of a row-path SVM as eval.Progress
	// events of stage "smo" (smoProgress).
	smoProgress func(done, total int)
	// stageProgress, when set, reports the iterations of a Nyström fit as eval.Progress
	// events of stage "cg" (stageProgress).
	stageProgress func(stage string, done, total int)
	// noMatrices turns off the heatmap's sample Gram matrices (startMatrices), heat
	// runs them.
	noMatrices bool
	heat       matrixSender
}

// draws returns every training draw of the run (all sizes, all repeats).
func (b *builder) draws() ([][]int, error) {
	if b.proto == nil {
		return nil, fmt.Errorf("model: builder has no protocol for a Gram method")
	}
	var all [][]int
	for _, n := range b.sizes {
		d, err := b.proto.Draws(n)
		if err != nil {
			return nil, inputErr(err)
		}
		all = append(all, d...)
	}
	return all, nil
}

// method returns the engine method of m acting with the group g (nil: no group), built
// by m's family (FamilyOf). A Gaussian kernel with gamma 0 gets gamma from the median
// heuristic on the training pool first (autoGamma).
func (b *builder) method(m model.Method, g group.Action) (eval.Method, error) {
	m.Defaults()
	if m.Name == "" {
		m.Name = model.MethodName(m)
	}
	if m.Group != nil { // the method's own group (e.g. the identity only, |G| = 1)
		mg, err := BuildGroup(*m.Group, b.pool.Shape, b.spec.Seed)
		if err != nil {
			return nil, err
		}
		g = mg
	}
	fam := model.FamilyOf(m)
	if fam == nil {
		return nil, inputErr(fmt.Errorf("%s: set features or kernel", m.Name))
	}
	if m.UsesRBF() && m.Gamma == 0 {
		gm, err := b.autoGamma()
		if err != nil {
			return nil, inputErr(fmt.Errorf("%s: gamma 0 (auto): %w", m.Name, err))
		}
		m.Gamma = gm
		if b.logf != nil {
			b.logf("%s: gamma auto = %.4g (1/(2 median squared distance) over %d pairs of training-pool rows)", m.Name, gm, autoGammaPairs)
		}
	}
	return familyEngineOf(fam).build(b, m, g)
}

// buildFeatures is the builder of the feature family: raw, bag-of-words, CDF or
// moment features, then RLS or 1-NN.
func buildFeatures(b *builder, m model.Method, g group.Action) (eval.Method, error) {
	shape := b.pool.Shape
	switch {
	case m.IsRaw():
		return &featureMethod{spec: m, build: func(*data.Dataset) (feature.Map, error) { return feature.Raw{}, nil }, logf: b.logf, progress: b.stageProgress}, nil
	case m.IsBoW():
		if len(shape) != 2 {
			return nil, inputErr(fmt.Errorf("%s: bag-of-words needs sequence data (shape L x A), the data have shape %v: use features raw or cdf", m.Name, shape))
		}
		return &featureMethod{spec: m, build: func(*data.Dataset) (feature.Map, error) { return feature.NewBagOfWords(shape), nil }, logf: b.logf, progress: b.stageProgress}, nil
	case m.Pooled():
		if g == nil {
			return nil, inputErr(fmt.Errorf("%s: %s pooling needs a group: set group.kind (e.g. permutation, rotation+shift)", m.Name, m.Features))
		}
		seed := b.spec.Seed
		key := featureKey(m)
		b.feats.use(key)
		fm := &featureMethod{spec: m, key: key, cache: &b.feats, seed: seed, build: func(pool *data.Dataset) (feature.Map, error) {
			return poolingMap(m, g, pool, seed)
		}, logf: b.logf, progress: b.stageProgress}
		if b.shared != nil {
			fm.shared, fm.sharedKey = b.shared, sharedFeatureKey(m, b.spec, b.loaded)
			if m.IsCDF() {
				d, err := b.draws()
				if err != nil {
					return nil, err
				}
				for _, dr := range d {
					fm.rows = append(fm.rows, dr...)
				}
				slices.Sort(fm.rows)
				fm.rows = slices.Compact(fm.rows)
			}
		}
		return fm, nil
	}
	return nil, inputErr(fmt.Errorf("%s: features %q is unknown: use one of %v", m.Name, m.Features, model.FeatureNames))
}

// buildLiu is the builder of Liu et al.'s kernels: the kernel of every training draw's
// union, precomputed once (gramMethod).
func buildLiu(b *builder, m model.Method, g group.Action) (eval.Method, error) {
	k, err := newLiuKernel(m, b.pool.Shape, g)
	if err != nil {
		return nil, err
	}
	d, err := b.draws()
	if err != nil {
		return nil, err
	}
	b.grams.expect(m)
	return &gramMethod{spec: m, k: k, draws: d, cache: &b.grams, progress: b.progress, smoProgress: b.smoProgress, logf: b.logf}, nil
}

// buildKernel is the builder of kernel RLS and 1-NN (linear, rbf, and the Haar kernel
// over the spec's group).
func buildKernel(b *builder, m model.Method, g group.Action) (eval.Method, error) {
	if m.IsHaar() && g == nil {
		return nil, inputErr(fmt.Errorf("%s: the Haar kernel needs a group: set group.kind", m.Name))
	}
	base, err := baseKernel(m)
	if err != nil {
		return nil, err
	}
	if err := haarGroupCheck(m, g); err != nil {
		return nil, err
	}
	km := &kernelMethod{spec: m, base: base, logf: b.logf, progress: b.progress}
	if m.IsHaar() {
		km.group = g
		if km.fft, err = newHaarFFT(b, g); err != nil {
			return nil, err
		}
	}
	return km, nil
}

// autoGammaPairs is the number of pairs of training-pool rows the median heuristic samples.
const autoGammaPairs = 2000

// autoGamma returns the median heuristic's Gaussian width for the training pool,
//
//	gamma = 1 / (2 · median ||x_a - x_b||²)
//
// over autoGammaPairs pairs (a, b), a != b, drawn with the spec's seed (so every method
// and every resumed run gets the same value). It is computed once per builder. It errors
// if the pool has fewer than 2 rows or the median distance is 0.
func (b *builder) autoGamma() (float64, error) {
	if b.gamma > 0 {
		return b.gamma, nil
	}
	x := b.pool.X
	n, d := x.Dims()
	if n < 2 {
		return 0, fmt.Errorf("the training pool has %d row: the median heuristic needs 2; set gamma", n)
	}
	rng := rand.New(rand.NewPCG(b.spec.Seed, 0x67616d6d61)) // "gamma"
	dist := make([]float64, autoGammaPairs)
	for p := range dist {
		i := rng.IntN(n)
		j := rng.IntN(n - 1)
		if j >= i {
			j++
		}
		ri, rj := x.RawRowView(i), x.RawRowView(j)
		s := 0.0
		for c := 0; c < d; c++ {
			t := ri[c] - rj[c]
			s += t * t
		}
		dist[p] = s
	}
	slices.Sort(dist)
	med := (dist[(len(dist)-1)/2] + dist[len(dist)/2]) / 2
	if !(med > 0) || math.IsInf(med, 0) {
		return 0, fmt.Errorf("the median squared distance between training rows is %g: set gamma > 0", med)
	}
	b.gamma = 1 / (2 * med)
	return b.gamma, nil
}

// poolingMap draws the templates of m (seeded) and returns its CDF or moment pooling map.
func poolingMap(m model.Method, g group.Action, pool *data.Dataset, seed uint64) (feature.Map, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(m.Templates)<<20|uint64(m.Bins)))
	d := pool.Dim()
	var tpl *mat.Dense
	switch m.TemplateOf {
	case "sphere":
		tpl = feature.SphereTemplates(m.Templates, d, rng)
	case "smooth":
		if len(pool.Shape) != 2 {
			return nil, inputErr(fmt.Errorf("%s: template_kind smooth needs samples with a 2-D shape (images, spectrograms), the data have shape %v: use gaussian", m.Name, pool.Shape))
		}
		tpl = feature.SmoothTemplates(m.Templates, pool.Shape[0], pool.Shape[1], feature.SmoothRadius, rng)
	case "gaussian-data":
		if len(pool.Shape) != 2 {
			return nil, inputErr(fmt.Errorf("%s: template_kind gaussian-data needs samples with a 2-D shape (images, spectrograms), the data have shape %v: use gaussian", m.Name, pool.Shape))
		}
		cov, err := feature.CovarianceTemplates(pool.X, m.Templates, feature.CovarianceRank, rng)
		if err != nil {
			return nil, inputErr(fmt.Errorf("template_kind gaussian-data: %w", err))
		}
		tpl = feature.BoxSmooth(cov, pool.Shape[0], pool.Shape[1], feature.CovarianceSmoothRadius)
	case "data":
		var err error
		if tpl, err = feature.DataTemplates(pool.X, m.Templates, rng); err != nil {
			return nil, inputErr(fmt.Errorf("templates %d with template_kind data: %w: lower templates or use template_kind gaussian", m.Templates, err))
		}
	default:
		tpl = feature.GaussianTemplates(m.Templates, d, m.Eps, rng)
	}
	// Interpolated rotations and zero-fill shifts lose norm: rescale every transformed
	// template to its template's norm (FINDINGS.md). Permutations keep norms anyway.
	if !m.IsCDF() {
		return feature.NewMoments(tpl, g, feature.MomentOptions{Normalize: true, Rescale: true}), nil
	}
	opt := feature.CDFOptions{Bins: m.Bins, Eps: m.Eps, Normalize: true, Rescale: true}
	if m.Thresholds == "range" {
		opt.Thresholds = feature.RangeThresholds
	}
	switch m.Standardize {
	case "mean":
		opt.Standardize = feature.StandardizeMean
	case "spread":
		opt.Standardize = feature.StandardizeSpread
	}
	c, err := feature.NewCDF(tpl, g, opt)
	if err != nil {
		return nil, inputErr(err)
	}
	return c, nil
}

// featureKey identifies the pooled features of m: the fields the registry says decide
// the features (model.DecidesFeatures; the templates are drawn from the spec's seed, bins
// and templates, see poolingMap). Methods with equal keys share their features.
func featureKey(m model.Method) string { return featureKeyWith(model.MethodFields, m) }

// featureKeyWith is featureKey by the registry fields (a test passes its own).
func featureKeyWith(fields []*model.MethodField, m model.Method) string {
	return model.KeyOf(fields, m, model.DecidesFeatures)
}

// featureCache keeps the pooled features of the pool and the test set that more than
// one method of the run uses (e.g. CDF(10,1000) with linear RLS and with the Gaussian
// kernel on the features), so that consecutive methods compute them once. It holds one
// feature set at most: preparing a feature method with other features drops it first,
// so memory holds one method's features at a time as before.
type featureCache struct {
	mu     sync.Mutex
	uses   map[string]int
	key    string
	fp, ft learn.Rows
}

// use records that a method of the run uses the features key.
func (c *featureCache) use(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.uses == nil {
		c.uses = map[string]int{}
	}
	c.uses[key]++
}

// take returns the cached features if they are key's; otherwise it drops what it holds.
func (c *featureCache) take(key string) (fp, ft learn.Rows, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fp != nil && c.key == key {
		return c.fp, c.ft, true
	}
	c.key, c.fp, c.ft = "", nil, nil
	return nil, nil, false
}

// keep holds fp and ft for key when more than one method uses key.
func (c *featureCache) keep(key string, fp, ft learn.Rows) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.uses[key] > 1 {
		c.key, c.fp, c.ft = key, fp, ft
	}
}

// featureMethod computes a feature map of the pool and the test set once, then fits a
// learner on the rows of each training draw. Pooled features used by several methods
// are computed once (cache).
type featureMethod struct {
	spec  model.Method
	build func(pool *data.Dataset) (feature.Map, error)
	key   string        // pooled features only: featureKey
	cache *featureCache // pooled features only
	// need, when set, lists (sorted) the only pool rows the method's draws use: only they
	// and the test set are transformed (a grid at 1000 of 10,000 digits, 5 draws, needs
	// about 4,100), and such features are not shared (cache nil).
	need []int
	// shared, when set (and need is not), is the cache of features across runs, where
	// they are kept under sharedKey.
	shared    *FeatureCache
	sharedKey string
	// rows, with shared and CDF features, lists the pool rows the run's draws use: only
	// they are transformed (lazyFeatures), once per study.
	rows []int
	// seed is the spec's seed (pooled features): it draws the templates and the rows of
	// range_sample (fitInputs).
	seed uint64
	// logf and progress report a Nyström fit's iterations (featureFitter.fitNystrom).
	logf     func(format string, a ...any)
	progress func(stage string, done, total int)
	// checked holds the map Check built, for the first build on the same pool to take
	// (data-covariance templates cost a covariance sketch of the pool: built once).
	checked checkedMap
}

// checkedMap is the feature map Check built on pool, taken once by mapFor.
type checkedMap struct {
	mu   sync.Mutex
	pool *data.Dataset
	m    feature.Map
}

// mapFor returns f's feature map on pool: the one Check built on the same pool, else a
// new one. The first call takes Check's map either way (a later call builds again, since
// Fit changes the map it is given, and a map built on another pool, the undeskewed one,
// is not kept for the run).
func (f *featureMethod) mapFor(pool *data.Dataset) (feature.Map, error) {
	f.checked.mu.Lock()
	m, same := f.checked.m, f.checked.pool == pool
	f.checked.m, f.checked.pool = nil, nil
	f.checked.mu.Unlock()
	if same && m != nil {
		return m, nil
	}
	return f.build(pool)
}

// fitter returns the fitter of f on the features fp (pool) and ft (test).
func (f *featureMethod) fitter(fp, ft learn.Rows, pool *data.Dataset) *featureFitter {
	return &featureFitter{spec: f.spec, fpool: fp, ftest: ft, y: pool.Y, k: len(pool.Classes), logf: f.logf, progress: f.progress}
}

// rangeSampleStream is the PCG stream of the rows a CDF method's range thresholds are
// fitted on (fitInputs), apart from the templates' streams (poolingMap).
const rangeSampleStream = 0x72616e67655f7377 // "range_sw"

// fitInputs returns the rows of d a pooling map of m is fitted on (range thresholds,
// standardisation): every row, or with 0 < m.RangeSample < d.Len() a sample of that many
// rows drawn without replacement from seed (the first m.RangeSample entries of a seeded
// permutation of 0..d.Len()-1, kept in pool order). No labels are read.
func fitInputs(m model.Method, d *data.Dataset, seed uint64) *mat.Dense {
	n := d.Len()
	if m.RangeSample <= 0 || m.RangeSample >= n {
		return d.X
	}
	idx := rand.New(rand.NewPCG(seed, rangeSampleStream)).Perm(n)[:m.RangeSample]
	slices.Sort(idx)
	return d.Subset(idx).X
}

// poolRows reads the features of the pool rows need (transformed alone) by pool row:
// pool row i is row at[i] of rows (-1 for a row no draw uses; reading it panics).
type poolRows struct {
	rows learn.Rows
	at   []int
}

// Dims returns the pool's number of rows and the features' number of columns.
func (p poolRows) Dims() (r, c int) { _, c = p.rows.Dims(); return len(p.at), c }

// Span copies entries (i, j0).. of pool row i.
func (p poolRows) Span(dst []float64, i, j0 int) {
	if p.at[i] < 0 {
		panic(fmt.Sprintf("model: pool row %d was not transformed (no draw uses it)", i))
	}
	p.rows.Span(dst, p.at[i], j0)
}

func (f *featureMethod) Name() string { return f.spec.Name }

// Check builds the feature map (templates drawn, options checked) and drops it: its
// errors are the spec's, found before any method runs.
func (f *featureMethod) Check(ctx context.Context, pool, test *data.Dataset) error {
	m, err := f.build(pool)
	if err == nil {
		f.checked.mu.Lock()
		f.checked.pool, f.checked.m = pool, m
		f.checked.mu.Unlock()
	}
	return err
}

func (f *featureMethod) Prepare(ctx context.Context, pool, test *data.Dataset, clk *eval.Clock) (eval.Fitter, error) {
	if f.cache != nil {
		if fp, ft, ok := f.cache.take(f.key); ok {
			return f.fitter(fp, ft, pool), nil
		}
	}
	if f.shared != nil && f.need == nil {
		var fp, ft learn.Rows
		var err error
		if f.rows != nil {
			t0 := time.Now()
			fp, ft, err = f.shared.lazyGet(ctx, f.sharedKey, f.rows, func() (*lazyFeatures, error) {
				return f.lazy(ctx, pool, test)
			})
			clk.Since("features", t0)
		} else {
			fp, ft, _, err = f.shared.get(ctx, f.sharedKey, func() (learn.Rows, learn.Rows, error) {
				return f.compute(ctx, pool, test, clk)
			}, nil)
		}
		if err != nil {
			return nil, err
		}
		if f.cache != nil {
			f.cache.keep(f.key, fp, ft)
		}
		return f.fitter(fp, ft, pool), nil
	}
	fp, ft, err := f.compute(ctx, pool, test, clk)
	if err != nil {
		return nil, err
	}
	if f.cache != nil {
		f.cache.keep(f.key, fp, ft)
	}
	return f.fitter(fp, ft, pool), nil
}

// lazy returns the CDF map of f fitted on the pool (deskewed first when asked) with its
// input support fixed to the pool's, and the test set's features: the pool's rows are
// transformed later, as runs need them (lazyFeatures).
func (f *featureMethod) lazy(ctx context.Context, pool, test *data.Dataset) (*lazyFeatures, error) {
	var err error
	if f.spec.Preprocess == "deskew" {
		if pool, err = deskewSet(ctx, pool); err != nil {
			return nil, err
		}
		if test, err = deskewSet(ctx, test); err != nil {
			return nil, err
		}
	}
	fm, err := f.mapFor(pool)
	if err != nil {
		return nil, err
	}
	c, ok := fm.(*feature.CDF)
	if !ok {
		return nil, fmt.Errorf("internal error (please report): %s: row-by-row features need a CDF map", f.spec.Name)
	}
	c.FixSupport(pool.X)
	if err := c.Fit(ctx, fitInputs(f.spec, pool, f.seed), nil); err != nil {
		return nil, err
	}
	ft, err := c.TransformCounts(ctx, test.X, nil)
	if err != nil {
		return nil, err
	}
	l := &lazyFeatures{cdf: c, pool: pool, test: ft, cols: c.OutputDim(pool.Dim()),
		chunk: make([]int32, pool.Len()), row: make([]int32, pool.Len())}
	for i := range l.chunk {
		l.chunk[i] = -1
	}
	return l, nil
}

// compute returns the features of the pool (only the rows need, when set, read by pool
// row) and of the test set: deskewed first when asked, the map built and fitted on the
// pool.
func (f *featureMethod) compute(ctx context.Context, pool, test *data.Dataset, clk *eval.Clock) (fp, ft learn.Rows, err error) {
	t0 := time.Now()
	if f.spec.Preprocess == "deskew" { // copies with the same labels
		if pool, err = deskewSet(ctx, pool); err != nil {
			return nil, nil, err
		}
		if test, err = deskewSet(ctx, test); err != nil {
			return nil, nil, err
		}
	}
	fm, err := f.mapFor(pool)
	if err != nil {
		return nil, nil, err
	}
	if c, ok := fm.(*feature.CDF); ok {
		// Range thresholds and standardisation come from the projections of the pool (no
		// labels used); Fit does nothing when neither is asked for.
		if err := c.Fit(ctx, fitInputs(f.spec, pool, f.seed), nil); err != nil {
			return nil, nil, err
		}
	}
	src := pool
	if f.need != nil {
		src = pool.Subset(f.need)
	}
	fp, ft, err = transformBoth(ctx, fm, src, test)
	if err != nil {
		return nil, nil, err
	}
	if f.need != nil {
		at := make([]int, pool.Len())
		for i := range at {
			at[i] = -1
		}
		for r, i := range f.need {
			at[i] = r
		}
		fp = poolRows{rows: fp, at: at}
	}
	clk.Since("features", t0)
	return fp, ft, nil
}

// deskewSet returns a copy of the image set d with every image deskewed (data.Deskew)
// and rescaled to its own norm, so a normalised set stays normalised. It errors if the
// samples are not 2-D, and returns ctx.Err() if cancelled.
func deskewSet(ctx context.Context, d *data.Dataset) (*data.Dataset, error) {
	if len(d.Shape) != 2 {
		return nil, inputErr(fmt.Errorf("preprocess deskew needs images (a 2-D sample shape), the data have shape %v: drop preprocess", d.Shape))
	}
	h, w := d.Shape[0], d.Shape[1]
	out := *d
	n, dim := d.X.Dims()
	out.X = mat.NewDense(n, dim, nil)
	for i := range n { // about 10 µs an image: serial
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		src, dst := d.X.RawRowView(i), out.X.RawRowView(i)
		data.Deskew(dst, src, h, w)
		if a, b := floats.Norm(src, 2), floats.Norm(dst, 2); b > 0 {
			floats.Scale(a/b, dst)
		}
	}
	return &out, nil
}

// transformBoth returns the features of the pool and of the test set: CDF features as
// their integer counts (feature.Counts: 2 bytes per entry for |G| < 65536, expanded
// exactly on demand), other maps as dense float64 matrices.
func transformBoth(ctx context.Context, fm feature.Map, pool, test *data.Dataset) (fp, ft learn.Rows, err error) {
	if c, ok := fm.(*feature.CDF); ok {
		cp, err := c.TransformCounts(ctx, pool.X, nil)
		if err != nil {
			return nil, nil, err
		}
		ct, err := c.TransformCounts(ctx, test.X, nil)
		if err != nil {
			return nil, nil, err
		}
		return cp, ct, nil
	}
	dp, err := fm.Transform(ctx, pool.X, nil)
	if err != nil {
		return nil, nil, err
	}
	dt, err := fm.Transform(ctx, test.X, nil)
	if err != nil {
		return nil, nil, err
	}
	return learn.DenseRows{M: dp}, learn.DenseRows{M: dt}, nil
}

// featureFitter fits a learner on the pool rows of a draw. The features stay in their
// stored form: RLS streams them (learn.FitRLSRows, then scores the test rows block by
// block), so a cell allocates no copy of its training or test features; 1-NN copies
// the training rows and expands the test features into dense matrices.
type featureFitter struct {
	spec         model.Method
	fpool, ftest learn.Rows
	y            []int
	k            int
	note         string // recorded in every cell (eval.RecordNote) when set
	// logf and progress, when set, report a Nyström fit's iterations (fitNystrom).
	logf     func(format string, a ...any)
	progress func(stage string, done, total int)
}

func (f *featureFitter) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, error) {
	pred, _, err := fitPredict(ctx, f.fit, idx, rng, clk, false)
	return pred, err
}

func (f *featureFitter) FitScore(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, []float64, error) {
	return fitPredict(ctx, f.fit, idx, rng, clk, true)
}

// fit trains the learner on the pool rows idx. It returns it with the test features
// for 1-NN; an RLS model comes wrapped with its test rows (rowsPredictor) and a nil
// test input.
func (f *featureFitter) fit(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) (predictor, *mat.Dense, error) {
	y := make([]int, len(idx))
	for a, i := range idx {
		y[a] = f.y[i]
	}
	if f.note != "" {
		eval.RecordNote(ctx, f.note)
	}
	t0 := time.Now()
	defer clk.Since("fit", t0)
	if f.spec.Is1NN() {
		_, d := f.fpool.Dims()
		x := mat.NewDense(len(idx), d, nil)
		for a, i := range idx {
			f.fpool.Span(x.RawRowView(a), i, 0)
		}
		nn, err := learn.NewNN(x, y, f.k, rng)
		return nn, denseRows(f.ftest), err
	}
	if f.spec.NystromAt(float64(len(idx))) {
		m, err := f.fitNystrom(ctx, idx, y, rng)
		if err != nil {
			return nil, nil, err
		}
		if f.spec.Lambda == 0 {
			eval.RecordChosen(ctx, "lambda", m.Info.Lambda)
			eval.RecordChosen(ctx, "validation", m.Nystrom.Validation[slices.Index(m.Nystrom.Lambdas, m.Info.Lambda)])
		}
		if f.spec.Gamma == 0 {
			eval.RecordChosen(ctx, "gamma", m.Gamma)
		}
		return rowsPredictor{m: m, test: f.ftest}, nil, nil
	}
	if f.spec.FeatureRBF() {
		m, err := learn.FitRBFRowsRLS(ctx, f.fpool, idx, y, f.k, f.spec.Gamma, rlsOptions(f.spec))
		if err != nil {
			return nil, nil, err
		}
		recordLambda(ctx, f.spec, m.Info)
		if f.spec.Gamma == 0 {
			eval.RecordChosen(ctx, "gamma", m.Gamma)
		}
		return rowsPredictor{m: m, test: f.ftest}, nil, nil
	}
	m, err := learn.FitRLSRows(ctx, f.fpool, idx, y, f.k, rlsOptions(f.spec))
	if err != nil {
		return nil, nil, err
	}
	recordLambda(ctx, f.spec, m.Info)
	return rowsPredictor{m: m, test: f.ftest}, nil, nil
}

// nystromReportEvery is the shortest interval between two log lines of a Nyström
// fit's iterations.
const nystromReportEvery = 2 * time.Second

// nystromMemoryLimit returns MemoryLimit's bytes (0: no limit known), the bound a
// Nyström fit checks before it allocates.
func nystromMemoryLimit() int64 {
	b, _, err := data.AvailableMemory()
	if err != nil {
		return 0
	}
	return b
}

// fitNystrom fits the Nyström kernel RLS of f.spec on the pool rows idx (labels y):
// the centres and the validation split drawn from the cell's rng, the memory limit of
// the machine (memLimit), progress as "cg" events (iterations of the candidate) and a
// log line at most every nystromReportEvery.
func (f *featureFitter) fitNystrom(ctx context.Context, idx, y []int, rng *rand.Rand) (*learn.NystromRLS, error) {
	opt := learn.NystromOptions{Centres: f.spec.Centres, Lambda: f.spec.Lambda, Seed: rng.Uint64(), MemoryBytes: nystromMemoryLimit()}
	n := len(idx)
	last := time.Now()
	opt.Progress = func(st learn.NystromStep) {
		if f.progress != nil {
			f.progress("cg", st.Iter, 100)
		}
		if f.logf == nil || time.Since(last) < nystromReportEvery && math.IsNaN(st.Validation) {
			return
		}
		last = time.Now()
		what := fmt.Sprintf("lambda %d of %d (%.2g)", st.Candidate+1, st.Candidates, st.Lambda)
		if st.Candidate >= st.Candidates {
			what = fmt.Sprintf("final fit on all rows at lambda %.2g", st.Lambda)
		}
		line := fmt.Sprintf("%s: Nyström n=%d M=%d, %s: iteration %d, residual %.1e", f.spec.Name, n, f.spec.Centres, what, st.Iter, st.Residual)
		if !math.IsNaN(st.Validation) {
			line += fmt.Sprintf(", validation %.2f%%", 100*st.Validation)
		}
		f.logf("%s", line)
	}
	t0 := time.Now()
	m, err := learn.FitNystromRBF(ctx, f.fpool, idx, y, f.k, f.spec.Gamma, opt)
	if err != nil {
		if errors.Is(err, learn.ErrNystromMemory) {
			return nil, inputErr(fmt.Errorf("%s: %w", f.spec.Name, err))
		}
		return nil, err
	}
	if f.logf != nil {
		in := m.Nystrom
		its := in.FinalIters
		for _, i := range in.Iters {
			its += i
		}
		f.logf("%s: Nyström n=%d M=%d fitted in %.1f s (kernels %.1f s, factors %.1f s, %d iterations %.1f s): lambda %.2g (%d candidates), residual %.1e",
			f.spec.Name, n, in.Centres, time.Since(t0).Seconds(), in.KernelSeconds, in.FactorSeconds, its, in.SolveSeconds,
			m.Info.Lambda, max(1, len(in.Lambdas)), in.Residuals[len(in.Residuals)-1])
	}
	return m, nil
}

// denseRows returns r as a dense matrix: the matrix itself for learn.DenseRows, else
// an expanded copy.
func denseRows(r learn.Rows) *mat.Dense {
	if d, ok := r.(learn.DenseRows); ok {
		return d.M
	}
	n, d := r.Dims()
	out := mat.NewDense(n, d, nil)
	for i := range n {
		r.Span(out.RawRowView(i), i, 0)
	}
	return out
}

// rowsModel is an RLS model that scores feature rows block by block: linear
// (learn.LinearRLS) or with the Gaussian kernel on the features (learn.RBFRowsRLS).
type rowsModel interface {
	PredictRows(ctx context.Context, x learn.Rows) ([]int, error)
	DecisionRows(ctx context.Context, x learn.Rows) (*mat.Dense, error)
}

// rowsPredictor is an RLS model with the test rows it scores: Predict and Decision
// ignore their argument (fitPredict passes the nil input fit returned) and score the
// test rows block by block.
type rowsPredictor struct {
	m    rowsModel
	test learn.Rows
}

func (r rowsPredictor) Predict(ctx context.Context, _ *mat.Dense) ([]int, error) {
	return r.m.PredictRows(ctx, r.test)
}

// predictsArgmax reports true: PredictRows of learn.LinearRLS and learn.RBFRowsRLS is
// learn.Argmax of DecisionRows.
func (r rowsPredictor) predictsArgmax() bool { return true }

func (r rowsPredictor) Decision(ctx context.Context, _ *mat.Dense) (*mat.Dense, error) {
	return r.m.DecisionRows(ctx, r.test)
}

func rlsOptions(m model.Method) learn.RLSOptions {
	if m.Lambda > 0 {
		return learn.RLSOptions{Fixed: true, Lambda: m.Lambda}
	}
	return learn.RLSOptions{}
}

// kernelMethod fits a kernel learner on the Gram matrix of each training draw. For the
// Haar kernel over a full cyclic-shift group (fft) the kernel of the union of the draws
// and of the test set against it is computed once through the FFT (haarFFT); over any
// other group the kernel between every pair of orbits of pool and test samples is
// tabulated once (exact, and cheap when the data fall into few orbits, as X_perm's
// 32,768 sequences fall into 792 orbits of S_5); otherwise Gram matrices are computed per draw.
type kernelMethod struct {
	spec  model.Method
	base  kernel.Base
	group group.Action
	fft   *haarFFT // the Haar kernel's FFT route, nil: the direct orbit path
	// logf (the route's log line) and progress (the FFT Gram's rows) may be nil.
	logf     func(format string, a ...any)
	progress func(done, total int)
}

func (k *kernelMethod) Name() string { return k.spec.Name }

// Check refuses a kernel whose values overflow on the data (checkKernelScale).
func (k *kernelMethod) Check(ctx context.Context, pool, test *data.Dataset) error {
	return checkKernelScale(ctx, selfOf(k.base), pool.X, test.X)
}

func (k *kernelMethod) Prepare(ctx context.Context, pool, test *data.Dataset, clk *eval.Clock) (eval.Fitter, error) {
	if err := checkKernelScale(ctx, selfOf(k.base), pool.X, test.X); err != nil {
		return nil, err
	}
	kf := &kernelFitter{spec: k.spec, base: k.base, group: k.group, pool: pool, test: test}
	if k.group != nil && k.logf != nil {
		k.logf("%s", haarRouteLine(k.spec.Name, k.group, k.fft, pool.Len(), test.Len()))
	}
	if k.fft != nil {
		t0 := time.Now()
		var err error
		if kf.ktrU, kf.kteU, kf.pos, err = k.fft.prepare(ctx, k.spec.Name, k.base, pool, test, k.progress); err != nil {
			return nil, err
		}
		clk.Since("gram", t0)
		return kf, nil
	}
	if k.group != nil {
		t0 := time.Now()
		np, _ := pool.X.Dims()
		nt, _ := test.X.Dims()
		all := mat.NewDense(np+nt, pool.Dim(), nil)
		all.Slice(0, np, 0, pool.Dim()).(*mat.Dense).Copy(pool.X)
		all.Slice(np, np+nt, 0, pool.Dim()).(*mat.Dense).Copy(test.X)
		tab, err := kernel.NewOrbitTable(ctx, k.base, k.group, all)
		if err != nil {
			return nil, err
		}
		clk.Since("gram", t0)
		if k.spec.LearnsRLS() && tab.NumOrbits() < np {
			// Few orbits (X_perm: 792 under S_5): K = P T Pᵀ with P the orbit indicator,
			// so with T = L Lᵀ the rows of L are exact features of the kernel, and primal RLS
			// on them solves the same problem as dual RLS on K at the cost of a u×u problem.
			fpool, ftest, err := orbitFeatures(tab, np, nt)
			if err != nil {
				return nil, err
			}
			ff := &featureFitter{spec: k.spec, fpool: fpool, ftest: ftest, y: pool.Y, k: len(pool.Classes)}
			// The orbits' kernel degenerate is every draw's kernel degenerate.
			if tk, _ := tab.Orbits(); kernel.Degenerate(tk) != "" {
				ff.note = degenerateNote(kernel.Degenerate(tk), k.spec)
			}
			return ff, nil
		}
		kf.table = tab
		kf.testIdx = make([]int, nt)
		for j := range kf.testIdx {
			kf.testIdx[j] = np + j
		}
	}
	return kf, nil
}

// orbitFeatures factors the orbit kernel table T = V diag(e) Vᵀ and returns, for the np
// pool and then the nt test samples, the row of L = V diag(sqrt(e)) of each sample's
// orbit (eigenvalues below 1e-12 e_max, rounding noise of a PSD kernel, are dropped), so
// that <f(x), f(z)> = K(x, z). The rows are read through orbitRows: L (u × rank) is held
// once, not copied per sample (X_perm: 6 MB instead of 32,768 × 792 × 8 = 207 MB).
func orbitFeatures(tab *kernel.OrbitTable, np, nt int) (pool, test orbitRows, err error) {
	t, _ := tab.Orbits()
	var eig mat.EigenSym
	if !eig.Factorize(t, true) {
		return pool, test, fmt.Errorf("eigendecomposition of the %d-orbit kernel table failed", t.SymmetricDim())
	}
	e := eig.Values(nil)
	var v mat.Dense
	eig.VectorsTo(&v)
	emax := e[len(e)-1]
	var keep []int
	for i, ei := range e {
		if ei > 1e-12*emax {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		return pool, test, fmt.Errorf("the orbit kernel table is zero: check gamma")
	}
	u := t.SymmetricDim()
	l := mat.NewDense(u, len(keep), nil)
	for a := 0; a < u; a++ {
		for b, i := range keep {
			l.Set(a, b, v.At(a, i)*math.Sqrt(e[i]))
		}
	}
	class := make([]int, np+nt)
	for i := range class {
		class[i] = tab.Class(i)
	}
	return orbitRows{l: l, class: class[:np]}, orbitRows{l: l, class: class[np:]}, nil
}

// orbitRows are feature rows of samples that share their orbit's row: row i is row
// class[i] of l (learn.Rows).
type orbitRows struct {
	l     *mat.Dense
	class []int
}

// Dims returns the number of samples and of features.
func (r orbitRows) Dims() (int, int) { _, c := r.l.Dims(); return len(r.class), c }

// Span copies the entries (i, j0) .. (i, j0+len(dst)-1) into dst.
func (r orbitRows) Span(dst []float64, i, j0 int) {
	copy(dst, r.l.RawRowView(r.class[i])[j0:j0+len(dst)])
}

type kernelFitter struct {
	spec       model.Method
	base       kernel.Base
	group      group.Action
	pool, test *data.Dataset
	table      *kernel.OrbitTable
	testIdx    []int
	// ktrU and kteU, with the Haar kernel's FFT route, are the kernel of the union of the
	// draws and of the test set against it; pos maps a pool row to its union row.
	ktrU *mat.SymDense
	kteU *mat.Dense
	pos  map[int]int
}

func (k *kernelFitter) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, error) {
	pred, _, err := fitPredict(ctx, k.fit, idx, rng, clk, false)
	return pred, err
}

func (k *kernelFitter) FitScore(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, []float64, error) {
	return fitPredict(ctx, k.fit, idx, rng, clk, true)
}

// fit trains the learner on the Gram matrix of the pool rows idx; it returns it with the
// test-versus-training kernel rows.
func (k *kernelFitter) fit(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) (predictor, *mat.Dense, error) {
	t0 := time.Now()
	y := make([]int, len(idx))
	for a, i := range idx {
		y[a] = k.pool.Y[i]
	}
	var ktr *mat.SymDense
	var kte *mat.Dense
	var err error
	switch {
	case k.ktrU != nil:
		if ktr, kte, err = sliceUnion(k.ktrU, k.kteU, k.pos, idx); err != nil {
			return nil, nil, err
		}
	case k.table != nil:
		ktr, kte = k.table.SymGram(idx), k.table.Gram(k.testIdx, idx)
	default:
		xtr := k.pool.Subset(idx).X
		if ktr, err = kernel.SymGram(ctx, k.base, xtr); err != nil {
			return nil, nil, err
		}
		if kte, err = kernel.Gram(ctx, k.base, k.test.X, xtr); err != nil {
			return nil, nil, err
		}
	}
	clk.Since("gram", t0)
	// A degenerate Gram is said in the run log and the result.
	if d := kernel.Degenerate(ktr); d != "" {
		eval.RecordNote(ctx, degenerateNote(d, k.spec))
	}
	nc := len(k.pool.Classes)
	t0 = time.Now()
	defer clk.Since("fit", t0)
	if k.spec.Is1NN() {
		diag := make([]float64, len(idx))
		for a := range diag {
			diag[a] = ktr.At(a, a)
		}
		nn, err := learn.NewKernelNN(diag, y, nc, rng)
		return nn, kte, err
	}
	m, err := learn.FitKernelRLS(ctx, ktr, y, nc, rlsOptions(k.spec))
	if err == nil {
		recordLambda(ctx, k.spec, m.Info)
	}
	return m, kte, err
}

// recordLambda records in the cell running under ctx the lambda that leave-one-out
// chose for m's RLS fit (nothing when m fixes lambda), and the fit's leave-one-out
// accuracy for a study that scores by it (WithLOOScore).
func recordLambda(ctx context.Context, m model.Method, info learn.RLSInfo) {
	recordLOO(ctx, info)
	if m.Lambda == 0 {
		eval.RecordChosen(ctx, "lambda", info.Lambda)
	}
}
