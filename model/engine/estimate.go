package engine

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"gitui/core/data"
	"gitui/core/feature"
	"gitui/core/kernel"
	"gitui/core/learn"
	"gitui/core/linalg"
	"gitui/internal/bytefmt"
	"gitui/model"
)

// MemoryEnv names the environment variable that sets the memory a run may use, e.g.
// GITUI_MEMORY_LIMIT=8GiB (units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB; a bare number is
// bytes). Without it the limit is what the machine has available (data.AvailableMemory).
const MemoryEnv = data.MemoryEnv

// DataSize describes the loaded data a run's memory estimate starts from: the rows of
// the training pool and of the test set (2N with test_transform), the shape of one
// sample (its product is the dimension d) and the number of classes.
type DataSize struct {
	Pool, Test int
	Shape      []int
	Classes    int
}

// dim returns d, the product of the shape.
func (d DataSize) dim() float64 {
	p := 1.0
	for _, s := range d.Shape {
		p *= float64(s)
	}
	return p
}

// EstimateItem is one term of a memory estimate: what allocates it, its bytes, and the
// spec change that makes it smaller.
type EstimateItem struct {
	What  string
	Bytes float64
	Fix   string
}

// Estimate is the memory a run allocates beyond its loaded data: Bytes is the peak (the
// group tables plus the most demanding method of the most demanding stage: a stage
// prepares one method at a time, so the peak is that method's prepared data, its
// preparation in progress and one of its cells per worker, plus a kernel matrix kept
// for a later method of the same kernel), Items its terms at that peak, largest first. Bytes are float64 so that absurd
// specs (petabytes) neither overflow nor wrap.
type Estimate struct {
	Bytes float64
	Items []EstimateItem
	// Shared is the part of Bytes that runs side by side share (a study's trials): gitui
	// itself and the loaded data.
	Shared float64
	// Gram is the largest single kernel matrix the run allocates, in bytes, and GramWhat
	// names it; kernel.MaxGramBytes bounds it separately from the total.
	Gram     float64
	GramWhat string
	// GramFix, when set, is the spec change that avoids that matrix (the Nyström
	// solver for an exact RBF fit).
	GramFix string
}

// EstimateBytes returns the memory estimate of spec on data of size ds (after Validate).
// It models what the engine allocates, in float64 unless noted:
//
//	CDF features            (pool + test) · m·(2n+1) · 2   (16-bit counts; 4 for |G| >= 65536)
//	moment features         (pool + test) · 3m · 8
//	transformed templates   min(m, max(1, 256 MiB/(4|G|d))) · |G| · d · 4   (float32, one block)
//	projection workspaces   workers · rows · (d + chunk·|G|) · 4,  rows <= 256
//	                        (both twice: the pool's are garbage, not yet collected, when
//	                        the test set's are allocated)
//	locality feature map    L: (U + 256) · dim · 8, L-TI/RI: (4·U + 12·512·workers) · dim,
//	                        dim = H·W·(1 + ((2·K1-1)²+1)/2)   (one layer, d1 <= 2)
//	feature RLS per cell    primal (n >= D): (D² + 1024·D + 768·D) · 8 (covariance, chunks,
//	                        score blocks); dual: (n² + 512·n + D·k) · 8 (Gram, column chunk);
//	                        feature_kernel rbf: (n² + 512·n + 2048·n) · 8 (kernel, chunk,
//	                        a block of 2048 test rows' kernel); with solver nystrom and
//	                        n > M: 4·n·M + 3·8·M² + 8·2048·M (learn.NystromBytes, a block)
//	feature 1-NN per cell   (n + test) · D · 8 for CDF (dense copies), n·D · 8 otherwise
//	kernel RLS per cell     (3·n² + test·n) · 8          (Gram, its reduced copy, basis; test Gram)
//	Liu kernels (prepared)  (U² + test·U) · 8, U = the union of every training draw
//	SVM on kernel rows      1 GiB cache + workers·(4·l·d + 64·l) + 12·n·d + 8·512·n
//	                        (pairs of l <= 2.5 n/k points; support vectors <= n), when
//	                        the Liu kernel above passes 4 GiB (svmRowPath)
//	group tables            permutations k·(8L + 112); rotations 2·count·d·12
//	gitui itself            24 MiB (RuntimeBaseBytes)
//	the data                (pool + test) · d · 8
//	a set read whole        the total is at least 24 MiB + (source + pool + test) · d · 8
//	                        when its loader reads more rows than data.pool/test_size keep
//
// with workers = GOMAXPROCS cells at once. It is an estimate (within about a factor of 2
// of the measured peak on the presets), not a bound: it exists to refuse, before any
// allocation, the specs that cannot fit.
func EstimateBytes(spec *model.Spec, ds DataSize) Estimate {
	e := estimator{spec: spec, ds: ds, d: ds.dim(), workers: float64(runtime.GOMAXPROCS(0))}
	return e.run()
}

type estimator struct {
	spec    *model.Spec
	ds      DataSize
	d       float64
	workers float64
	gram    float64
	gramWhy string
	gramFix string
}

// noteGram records a single kernel matrix of r×c entries.
func (e *estimator) noteGram(r, c float64, what string) {
	if b := 8 * r * c; b > e.gram {
		e.gram, e.gramWhy, e.gramFix = b, fmt.Sprintf("%s: a %.0f x %.0f kernel matrix", what, r, c), ""
	}
}

// stage is one group of methods run together at training size n with the group order g.
type stage struct {
	n float64
	g float64
}

func (e *estimator) run() Estimate {
	s := e.spec
	order, tables, tableItem := groupCost(s.Group, e.ds.Shape)
	var items []EstimateItem
	if tables > 0 {
		items = append(items, tableItem)
	}
	if s.TestTransform != nil {
		if _, tb, it := groupCost(*s.TestTransform, e.ds.Shape); tb > 0 {
			it.What = "test_transform " + it.What
			it.Fix = strings.ReplaceAll(it.Fix, "group.", "test_transform.")
			items = append(items, it)
		}
	}
	var stages []stage
	pool := float64(e.ds.Pool)
	// A training size above the pool is refused (with its own message) before any
	// method prepares: it costs nothing here.
	capN := func(n int) float64 {
		if float64(n) > pool {
			return 0
		}
		return float64(n)
	}
	switch s.Protocol {
	case model.ProtocolCurve:
		mx := 0
		for _, n := range s.Sizes {
			mx = max(mx, n)
		}
		stages = append(stages, stage{capN(mx), order})
		if s.Grid != nil {
			stages = append(stages, stage{capN(s.Grid.Size), order})
		}
	case model.ProtocolGrid:
		if s.Grid != nil {
			stages = append(stages, stage{capN(s.Grid.Size), order})
		}
	case model.ProtocolSweep:
		if s.Sweep != nil {
			stages = append(stages, stage{capN(s.Sweep.Size), order})
		}
	case model.ProtocolGroupSize:
		n := 0
		if len(s.Sizes) > 0 {
			n = s.Sizes[0]
		}
		for _, k := range s.GroupSizes {
			g := math.Min(float64(k), order)
			if order == 0 {
				g = float64(k)
			}
			stages = append(stages, stage{capN(n), g})
			gs := s.Group
			gs.Size = k
			if _, tb, it := groupCost(gs, e.ds.Shape); tb > tables {
				it.What = "group_sizes " + it.What
				it.Fix = "use smaller group_sizes"
				items = append(items, it)
				tables = tb
			}
		}
	case model.ProtocolPD:
		if s.PD != nil {
			mx := 0
			for _, n := range s.PD.Sizes {
				mx = max(mx, n)
			}
			n := capN(mx)
			e.noteGram(n, n, "pd")
			items = append(items, EstimateItem{What: fmt.Sprintf("pd Gram matrices of %.0f samples", n), Bytes: 3 * 8 * n * n, Fix: "use smaller pd.sizes"})
		}
	case model.ProtocolApprox:
		if a := s.Approx; a != nil {
			m := 0
			for _, t := range a.Templates {
				m = max(m, t)
			}
			rows := math.Min(2*float64(a.Pairs), pool)
			f := float64(m) * float64(2*a.Bins+1)
			items = append(items, EstimateItem{What: fmt.Sprintf("kernel-approx features of %.0f samples x %.0f values", rows, f), Bytes: 8 * rows * f, Fix: "use fewer approx.templates, approx.bins or approx.pairs"})
			items = append(items, e.projection(float64(m), order, rows)...)
		}
	}
	var peak []EstimateItem
	peakBytes := -1.0
	for _, st := range stages {
		it := e.stage(st)
		if b := sum(it); b > peakBytes {
			peak, peakBytes = it, b
		}
	}
	items = append(items, peak...)
	base := []EstimateItem{
		{What: "gitui itself (the Go runtime, the program and its stacks)", Bytes: RuntimeBaseBytes, Fix: "raise GITUI_MEMORY_LIMIT: no spec runs in less"},
		{What: fmt.Sprintf("the data: %d pool and %d test samples of %.0f values (float64)", e.ds.Pool, e.ds.Test, e.d), Bytes: 8 * float64(e.ds.Pool+e.ds.Test) * e.d, Fix: "use data.pool or data.test_size"},
	}
	items = append(items, base...)
	total := sum(items)
	// A listed data set is read whole before data.pool and data.test_size keep part of
	// it (MNIST: 10,000 training and 10,000 test digits): the load's peak, gitui and the
	// set as read with the kept copy, passes the run's when little is kept.
	if src, d, ok := sourceDataSize(s); ok && src.Pool+src.Test > e.ds.Pool+e.ds.Test {
		read := 8 * float64(src.Pool+src.Test) * d
		if load := RuntimeBaseBytes + read + base[1].Bytes; load > total {
			items = append(items, EstimateItem{What: fmt.Sprintf("the data set as read: %d training and %d test samples (float64), before data.pool and data.test_size keep part", src.Pool, src.Test), Bytes: read,
				Fix: "raise GITUI_MEMORY_LIMIT: the set is read whole"})
			total = load
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Bytes > items[j].Bytes })
	return Estimate{Bytes: total, Items: items, Shared: sum(base), Gram: e.gram, GramWhat: e.gramWhy, GramFix: e.gramFix}
}

// RuntimeBaseBytes, counted once in every Estimate, is the resident memory of gitui
// beside what a run allocates: the binary's pages, the Go runtime's heap metadata, the
// goroutines' stacks and the collector's slack on small heaps. Measured peaks (AMD EPYC,
// 2 cores): `gitui version` 15.5 MiB, a 10-sample run 20.5 MiB, chapelle-toy --quick
// (30 points) 35-40 MiB against 10 MiB of modelled arrays. Counting it makes
// GITUI_MEMORY_LIMIT a bound for small runs too (xperm-curve --quick at 120 MiB peaked
// at 2.1 times the limit before).
const RuntimeBaseBytes = 24 << 20

// sourceDataSize is the size of spec's data set as its loader reads it, before
// data.pool and data.test_size keep part (ListingDataSize without them), and the values
// per sample read (readDims); ok is false for the sets that are generated at the size
// asked or not listed (files and audio corpora are counted by checkFileMemory and the
// corpus's own check).
func sourceDataSize(s *model.Spec) (DataSize, float64, bool) {
	d, read := readDims[s.Data.Name]
	if !read {
		return DataSize{}, 0, false
	}
	c := *s
	c.Data.Pool, c.Data.TestSize = 0, 0
	ds, ok := ListingDataSize(&c)
	return ds, d, ok
}

// readDims are the data sets read whole from IDX files, with the values per sample as
// read (the 64x64 translated digits and the 16x16 ones are made from 28x28 MNIST digits
// after the pool is drawn).
var readDims = map[string]float64{"mnist": 784, "fashion-mnist": 784, "mnist-rotated": 784, "mnist-translated": 784, "digits16": 784}

func sum(items []EstimateItem) float64 {
	t := 0.0
	for _, it := range items {
		t += it.Bytes
	}
	return t
}

// stage returns the terms of one stage: every method's prepared data, the largest
// preparation transient, and workers × the costliest cell.
func (e *estimator) stage(st stage) []EstimateItem {
	// The protocol prepares one method at a time, runs its cells, then releases it
	// (eval.Protocol.Run): the stage's peak is its costliest method. Methods sharing a
	// kernel matrix are prepared one after the other (eval.Sharer), and the matrix is
	// dropped after the last of them: no other method's matrix is kept meanwhile.
	var best []EstimateItem
	bestBytes := 0.0
	for _, m := range e.methodsOf() {
		held, tr, c := e.method(m, st)
		items := append(append([]EstimateItem(nil), held...), tr...)
		if c.Bytes > 0 {
			if w := e.cellsAtOnce(); w > 1 {
				c.What = fmt.Sprintf("%.0f cells at once (GOMAXPROCS), each %s", w, c.What)
				c.Bytes *= w
			}
			items = append(items, c)
		}
		if b := sum(items); b > bestBytes {
			best, bestBytes = items, b
		}
	}
	return best
}

// cellsAtOnce is how many cells of a method can run at once: GOMAXPROCS, or fewer when
// the protocol has fewer cells (a curve's sizes × repeats, a sweep's values × repeats).
func (e *estimator) cellsAtOnce() float64 {
	w := math.Max(1, e.workers)
	s := e.spec
	r := float64(max(s.Repeats, 1))
	switch {
	case s.Protocol == model.ProtocolCurve && len(s.Sizes) > 0:
		w = math.Min(w, float64(len(s.Sizes))*r)
	case s.Protocol == model.ProtocolSweep && s.Sweep != nil && len(s.Sweep.Values) > 0:
		w = math.Min(w, float64(len(s.Sweep.Values))*r)
	}
	return w
}

// methodsOf returns the methods of the spec, plus those of its bins × templates grid.
func (e *estimator) methodsOf() []model.Method {
	s := e.spec
	ms := append([]model.Method(nil), s.Methods...)
	if s.Grid != nil && (s.Protocol == model.ProtocolGrid || s.Protocol == model.ProtocolCurve) {
		for _, m0 := range s.Methods {
			if !m0.IsCDF() {
				continue
			}
			// One stage per template count, every bins count in it: the largest m with
			// all bins counts is the costliest stage.
			mt := 0
			for _, t := range s.Grid.Templates {
				mt = max(mt, t)
			}
			for _, b := range s.Grid.Bins {
				m := m0
				m.Bins, m.Templates = b, mt
				m.Name = model.MethodName(m)
				ms = append(ms, m)
			}
			break
		}
	}
	return ms
}

// method returns the bytes method m holds for its stage, its preparation transient, and
// one of its cells.
func (e *estimator) method(m model.Method, st stage) (held, trans []EstimateItem, cell EstimateItem) {
	if m.Group != nil { // the method's own group replaces the spec's (BuildGroup of m.Group)
		if o, tb, it := groupCost(*m.Group, e.ds.Shape); o > 0 {
			st.g = o
			if tb > 0 {
				it.What = "methods' group " + it.What
				held = append(held, it)
			}
		}
	}
	name := m.Name
	if m.Pooled() {
		// The name a spec carries may predate a --set of bins or templates: name the
		// values the estimate uses.
		mm := m
		mm.Name = ""
		name = model.MethodName(mm)
	}
	// Each family says what its methods take, as each builds its methods (familyEngines).
	return familyEngineOf(model.FamilyOf(m)).estimate(e, m, st, name, held)
}

// estimateFeatures is the estimate of the feature family (Family "features"): the
// features of the pool and the test set held for the stage, the projection's transient
// for pooled features, and a cell's RLS or 1-NN fit. held holds what the method's own
// group takes already.
func estimateFeatures(e *estimator, m model.Method, st stage, name string, held []EstimateItem) (_, trans []EstimateItem, cell EstimateItem) {
	np, nt := float64(e.ds.Pool), float64(e.ds.Test)
	rows := np + nt
	n := st.n
	k := float64(max(e.ds.Classes, 2))
	var D float64 // feature dimension
	switch {
	case m.IsRaw() || m.IsBoW():
		D = e.d
		held = append(held, EstimateItem{What: fmt.Sprintf("%s features of %.0f samples x %.0f values", name, rows, D), Bytes: 8 * rows * D, Fix: "use data.pool or data.test_size"})
		if m.Preprocess == "deskew" {
			trans = append(trans, deskewCopies(name, rows, e.d))
		}
	case m.Pooled():
		if m.IsCDF() {
			D = float64(m.Templates) * float64(2*m.Bins+1)
		} else {
			D = 3 * float64(m.Templates)
		}
		fix := "use fewer templates or bins, or data.pool / data.test_size"
		if m.IsMoments() {
			fix = "use fewer templates, or data.pool / data.test_size"
		}
		bytes := 8 * rows * D
		if m.IsCDF() {
			// feature.Counts: 16-bit counts (32-bit from |G| = 65536), a weight per column.
			elem := 2.0
			if st.g >= 65536 {
				elem = 4
			}
			bytes = elem*rows*D + 8*D
		}
		held = append(held, EstimateItem{What: fmt.Sprintf("%s features of %.0f samples x %.0f values", name, rows, D), Bytes: bytes, Fix: fix})
		// The pool and the test set are transformed one after the other, each with its
		// own template block and workspaces: the first pair is garbage, not yet
		// collected, when the second is allocated (measured: a 13.6 GB projection ran
		// out of 20 GB), so the projection counts twice.
		trans = e.projection(float64(m.Templates), st.g, rows)
		for i := range trans {
			trans[i].Bytes *= 2
			trans[i].What += ", for the pool and again for the test set"
		}
		trans = append(trans, EstimateItem{What: name + " templates", Bytes: 8 * float64(m.Templates) * e.d, Fix: "use fewer templates"})
		if m.Preprocess == "deskew" {
			trans = append(trans, deskewCopies(name, rows, e.d))
		}
	default: // not a feature map that builds (refused by Validate): as a kernel method
		return estimateKernel(e, m, st, name, held)
	}
	// learn.FitRLSRows streams the rows: primal holds the D×D covariance, dual the n×n
	// Gram, never a dense copy of the draw's features.
	cb := 8 * (D*D + 1024*D + 768*D + nt*k)
	if n < D {
		cb = 8 * (n*n + 512*n + D*k + nt*k)
	}
	if m.NystromAt(st.n) {
		// learn.FitNystromRBF: the cached n×M kernel (float32), three M×M factors, a
		// block of 2048 rows' kernel, and the iterations' n×k and M×k vectors.
		mc := float64(m.Centres)
		e.noteGram(n, mc/2, m.Name+" (float32)")
		cb = float64(learn.NystromBytes(int(n), m.Centres, true)) + 8*(2048*mc+4*n*k+12*mc*k+nt*k)
	} else if m.FeatureRBF() {
		// learn.FitRBFRowsRLS: the n×n Gram (then the kernel, its reduction and basis) and
		// a column chunk; scoring: a block of 2048 test rows against the n training rows.
		e.noteGram(n, n, m.Name)
		tb := math.Min(2048, nt)
		cb = 8 * (n*n + 512*n + tb*n + 512*tb + n*k + nt*k)
	}
	if m.Is1NN() {
		cb = 8 * (n*D + 256*n)
		if m.IsCDF() {
			cb = 8 * (n + nt) * D // the counts expanded to dense rows
		}
	}
	cell = EstimateItem{What: fmt.Sprintf("%s on %.0f samples x %.0f features", m.Name, n, D), Bytes: cb, Fix: "use smaller sizes, fewer templates or bins"}
	if m.ExactFeatureRBF() {
		// The exact kernel is n²: offer the Nyström fit, whose memory grows as n·M.
		mc := math.Min(10000, math.Floor(n/4))
		cell.What = fmt.Sprintf("%s on %.0f samples (a %.0f x %.0f kernel)", m.Name, n, n, n)
		cell.Fix = fmt.Sprintf("use solver: nystrom, centres: %.0f (about %s), or smaller sizes", mc,
			bytefmt.IEC(float64(learn.NystromBytes(int(n), int(mc), true))+8*2048*mc))
		if e.gram == 8*n*n {
			e.gramFix = cell.Fix
		}
	}
	return held, trans, cell
}

// estimateLiu is the estimate of Liu et al.'s kernels (Family "liu"): the kernel of the
// union of the draws and the test set, held and shared, its transient, and a cell's fit.
func estimateLiu(e *estimator, m model.Method, st stage, name string, held []EstimateItem) (_, trans []EstimateItem, cell EstimateItem) {
	nt := float64(e.ds.Test)
	n := st.n
	u := e.union()
	if svmRowPath(m, u, nt) {
		return estimateSVMRows(e, m, st, held)
	}
	e.noteGram(u, u, m.Name)
	e.noteGram(nt, u, m.Name)
	held = append(held, EstimateItem{What: fmt.Sprintf("%s kernel of %.0f training and %.0f test samples", m.Name, u, nt), Bytes: 8 * (u*u + nt*u), Fix: "use fewer sizes or repeats, or data.test_size"})
	trans = append(trans, e.liuTransient(m, u)...)
	mult := 2.0 // the draw's Gram matrix, scaled, and SVC's working copies
	if m.LearnsRLS() {
		mult = 3
	}
	if m.PSD != "" {
		mult += 2
	}
	// LIBSVM's row cache: 100 MB of float32 rows at most (learn.SVCOptions.CacheMB).
	cache := math.Min(100<<20, 4*n*n)
	if m.LearnsRLS() {
		cache = 0
	}
	cell = EstimateItem{What: fmt.Sprintf("%s on %.0f samples", m.Name, n), Bytes: 8*(mult*n*n+nt*n) + cache, Fix: "use smaller sizes or data.test_size"}
	return held, trans, cell
}

// estimateSVMRows is the estimate of an SVM on kernel rows (svmRowPath): no kernel
// matrix is held; a cell holds the row cache (svmRowCacheBytes over its pairs), each
// pair trained at once its points' features in float32 and the solver's vectors, the
// labels, and for prediction the support vectors' features (float64 and float32), a
// block of 512 test rows' kernel with them and the decision values. A pair has at most
// min(n, 2.5 n/k) points (MNIST's largest pair, 13,007 of 60,000, is 2.2 n/k) and the
// support vectors are counted as all n, an upper bound.
func estimateSVMRows(e *estimator, m model.Method, st stage, held []EstimateItem) (_, trans []EstimateItem, cell EstimateItem) {
	n := st.n
	w := float64(svmRowWorkers())
	cell = EstimateItem{What: fmt.Sprintf("%s on %.0f samples, kernel rows on demand (a %.0f MiB row cache over %.0f pairs at once, no %.0f x %.0f kernel matrix)", m.Name, n, float64(svmRowCacheBytes)/(1<<20), w, n, n),
		Bytes: svmRowsCellBytes(n, e.d, float64(e.ds.Test), float64(max(e.ds.Classes, 2))), Fix: "use smaller sizes or data.test_size"}
	return held, nil, cell
}

// svmRowsCellBytes is what a row-path SVM on n points of d values, k classes and nt test
// rows holds (estimateSVMRows): the row cache, svmRowWorkers pairs' float32 features and
// solver vectors, the support vectors' features for prediction (as if all n were), a
// 512-row test block's kernel with them and the decision values.
func svmRowsCellBytes(n, d, nt, k float64) float64 {
	w := float64(svmRowWorkers())
	l := math.Min(n, 2.5*n/k)
	pairs := w * (4*l*d + 8*8*l) // features, then norms, scales, diagonal, G, Gbar, alpha, p, row buffer
	predict := 12*n*d + 8*512*n + 8*nt*k*(k-1)/2
	return float64(svmRowCacheBytes) + pairs + predict + 8*n
}

// estimateKernel is the estimate of kernel RLS and 1-NN (Family "kernel") and of Chapelle
// and Schoelkopf's learners (Family "chapelle"): a cell's training Gram matrix, its factors
// and test kernel, and the Haar kernel's orbit table.
func estimateKernel(e *estimator, m model.Method, st stage, name string, held []EstimateItem) (_, trans []EstimateItem, cell EstimateItem) {
	np, nt := float64(e.ds.Pool), float64(e.ds.Test)
	rows := np + nt
	n := st.n
	if m.Preprocess == "deskew" { // Chapelle and Schoelkopf's learners on deskewed images
		held = append(held, deskewCopies(name, rows, e.d))
	}
	if m.IsVSV() && vsvRowPath(m, int(n), int(nt)) {
		return estimateVSVRows(e, m, st, held)
	}
	e.noteGram(n, n, m.Name)
	e.noteGram(nt, n, m.Name)
	mult := 3.0
	if m.Is1NN() {
		mult = 1
	}
	switch {
	case m.IsHaar() && e.haarFFT(m):
		// The FFT route (haarFFT): the spectra of the draws' union and the test set, the
		// union's Gram matrix and the test × union matrix.
		u := e.union()
		h, w := float64(e.ds.Shape[0]), float64(e.ds.Shape[1])
		e.noteGram(u, u, m.Name)
		e.noteGram(nt, u, m.Name)
		held = append(held, EstimateItem{What: fmt.Sprintf("%s kernel of %.0f training and %.0f test samples (FFT) and their spectra", m.Name, u, nt),
			Bytes: 8*(u*u+nt*u) + 16*h*(math.Floor(w/2)+1)*(u+nt), Fix: "use fewer sizes or repeats, or data.test_size"})
	case m.IsHaar():
		held = append(held, EstimateItem{What: m.Name + " orbit table", Bytes: 8 * 2 * rows * e.d, Fix: "use data.pool or data.test_size"})
	}
	cell = EstimateItem{What: fmt.Sprintf("%s on %.0f samples (a %.0f x %.0f Gram matrix and its factors, and the %.0f x %.0f test kernel)", m.Name, n, n, n, nt, n), Bytes: 8 * (mult*n*n + nt*n), Fix: "use smaller sizes or data.test_size, or random features (cdf)"}
	if m.IsVSV() { // the retraining set's Gram matrix, as if every point were a support vector
		N := n * float64(1+vsvCopies(m))
		e.noteGram(N, N, m.Name)
		cell = EstimateItem{What: fmt.Sprintf("%s on %.0f samples (Gram matrices of them and of at most %.0f support vectors and virtual copies, and the %.0f x %.0f test kernel)", m.Name, n, N, nt, N),
			Bytes: 8 * (2*N*N + nt*N), Fix: cell.Fix}
	}
	return held, trans, cell
}

// estimateVSVRows is the estimate of a VSV on kernel rows (vsvRowPath) of n points: the
// retraining set of N = n/2 (1 + copies) rows of float64 values (as if half the points
// were support vectors: at 8,000 deskewed MNIST digits and the degree-9 kernel 36% were,
// fewer at 60,000) while the second SVM trains on it, as svmRowsCellBytes counts an SVM
// of N points. The first SVM's needs are smaller and over by then. A retraining set
// above the bound is checked against the memory limit when its size is known, before it
// is built (vsvRetrainCheck).
func estimateVSVRows(e *estimator, m model.Method, st stage, held []EstimateItem) (_, trans []EstimateItem, cell EstimateItem) {
	N := vsvRetrainBound(m, st.n)
	cell = EstimateItem{What: fmt.Sprintf("%s on %.0f samples: about %.0f support vectors and their virtual copies (half the points support vectors) on kernel rows (a %.0f MiB row cache over %d pairs at once, no kernel matrix)",
		m.Name, st.n, N, float64(svmRowCacheBytes)/(1<<20), svmRowWorkers()),
		Bytes: vsvRetrainBytes(N, e.d, float64(e.ds.Test), float64(max(e.ds.Classes, 2))), Fix: "use smaller sizes, jitter or directions"}
	return held, trans, cell
}

// vsvRetrainBound is the retraining set's size the estimate of a row-path VSV of m on n
// points assumes: half of them support vectors, each with its copies.
func vsvRetrainBound(m model.Method, n float64) float64 { return n / 2 * float64(1+vsvCopies(m)) }

// vsvRetrainBytes is what a row-path VSV holds while its second SVM trains on N
// points: the retraining set (8 N d) and that SVM's (svmRowsCellBytes).
func vsvRetrainBytes(N, d, nt, k float64) float64 { return 8*N*d + svmRowsCellBytes(N, d, nt, k) }

// haarFFT reports whether the Haar kernel of m takes the FFT route (kernel.CyclicGroupOf):
// its group (the method's own, else the spec's) is all the cyclic shifts of 2-D samples.
func (e *estimator) haarFFT(m model.Method) bool {
	g := e.spec.Group
	if m.Group != nil {
		g = *m.Group
	}
	sh := e.ds.Shape
	return g.Kind == model.GroupCyclicShift && len(sh) == 2 && (g.Size <= 0 || g.Size >= sh[0]*sh[1])
}

// union returns the number of distinct pool samples in the run's training draws (an
// upper bound: the sum of the draw sizes, capped by the pool).
// deskewCopies is the deskewed copy of the pool and the test set a preprocess deskew
// method holds while its features are computed.
func deskewCopies(name string, rows, d float64) EstimateItem {
	return EstimateItem{What: fmt.Sprintf("%s deskewed images of %.0f samples x %.0f values", name, rows, d), Bytes: 8 * rows * d, Fix: "use data.pool or data.test_size"}
}

func (e *estimator) union() float64 {
	s := e.spec
	sizes := s.Sizes
	switch s.Protocol {
	case model.ProtocolSweep:
		if s.Sweep != nil {
			sizes = []int{s.Sweep.Size}
		}
	case model.ProtocolGrid:
		if s.Grid != nil {
			sizes = []int{s.Grid.Size}
		}
	}
	t := 0.0
	mx := 0.0
	for _, n := range sizes {
		t += float64(n)
		mx = math.Max(mx, float64(n))
	}
	if s.Nested {
		t = mx
	}
	return math.Min(float64(e.ds.Pool), t*float64(max(s.Repeats, 1)))
}

// liuTransient estimates the transformed copies Liu et al.'s kernels build while their
// Gram matrices are computed: the complex spectra of the union (and of its rotated
// copies for TI-RI), or the rotated copies for RI.
func (e *estimator) liuTransient(m model.Method, u float64) []EstimateItem {
	canvas := e.d
	if m.Translation == "zero-fill" && strings.Contains(m.Invariance, "TI") {
		canvas *= 4
	}
	nrot := 1.0
	if m.Rotations != nil && strings.Contains(m.Invariance, "RI") {
		nrot = float64(m.Rotations.Count)
	}
	switch {
	case m.Invariance == model.InvarianceGroup:
		// kernel.FitGram: per worker a block of about 512 transformed copies and their
		// products with a tile of 256 columns (8·(512·d + 512·256) bytes).
		return []EstimateItem{{What: fmt.Sprintf("%s best fit over the group: 512 transformed copies per worker", m.Name), Bytes: 8 * 512 * (e.d + 256) * math.Max(1, e.workers), Fix: "use fewer workers (GOMAXPROCS)"}}
	case m.Locality != nil:
		l := m.Locality
		if l.D1 > 2 || l.K2 > 0 {
			return nil // evaluated directly, pair by pair: no map
		}
		// The explicit map (kernel.LocalityMap): H·W·(1 + (K1²+1)/2) values a sample. L-SVM
		// holds the union's maps in float64 and those of 256 test rows at a time
		// (kernel.LocalityGram); L-TI, L-RI, L-TI-RI hold the union's in float32 and, per
		// worker, the maps of about 512 transformed copies in float64 and float32
		// (kernel.FitLocalityGram).
		// At most H·W·(1 + ((2·K1-1)²+1)/2) values: the pixel pairs that share a patch.
		w := float64(2*l.K1 - 1)
		dim := e.d * (1 + (w*w+1)/2)
		what := fmt.Sprintf("%s locality feature maps of %.0f samples x %.0f values", m.Name, u, dim)
		if !m.Invariant() {
			return []EstimateItem{{What: what + ", and of 256 test rows at a time", Bytes: 8 * (u + math.Min(float64(e.ds.Test), 256)) * dim, Fix: "use a smaller k1, fewer sizes or repeats"}}
		}
		return []EstimateItem{{What: what + " in float32, and of 512 transformed copies per worker", Bytes: 4*u*dim + 12*512*dim*math.Max(1, e.workers), Fix: "use a smaller k1, fewer sizes or repeats"}}
	case strings.Contains(m.Invariance, "TI"):
		rot := 1.0
		if m.TIRI() {
			rot = nrot
		}
		// The union's spectra, then the test set's a block of 2000 rows at a time.
		rows := u + math.Min(float64(e.ds.Test), liuTestBlock)
		return []EstimateItem{{What: fmt.Sprintf("%s spectra of %.0f samples", m.Name, rows), Bytes: 16 * rows * canvas * rot, Fix: "use fewer rotations, sizes or repeats"}}
	case strings.Contains(m.Invariance, "RI") && m.Polar == nil:
		return []EstimateItem{{What: fmt.Sprintf("%s rotated copies of %.0f samples", m.Name, u), Bytes: 8 * u * canvas * nrot, Fix: "use fewer rotations, sizes or repeats"}}
	}
	return nil
}

// projection returns the projection engine's memory for m templates, a group of order g
// and the given number of input rows (see core/feature/project.go).
func (e *estimator) projection(m, g, rows float64) []EstimateItem {
	if g < 1 {
		g = 1
	}
	d := e.d
	block := math.Max(1, math.Floor(float64(feature.DefaultTemplateBytes)/(4*g*d)))
	block = math.Min(block, m)
	chunk := math.Max(1, math.Min(block, math.Floor(4096/g)))
	w := math.Max(1, e.workers)
	r := math.Min(feature.DefaultBlockRows, math.Max(16, math.Ceil(rows/(4*w))))
	return []EstimateItem{
		{What: fmt.Sprintf("transformed templates (%.0f of them x |G| = %.0f x d = %.0f, float32)", block, g, d), Bytes: 4 * block * g * d, Fix: "use a smaller group (group.size, fewer angles, shears or scales, or a smaller radius)"},
		{What: fmt.Sprintf("projection blocks (%.0f workers x %.0f rows x %.0f projections, float32)", w, r, chunk*g), Bytes: 4 * w * r * (d + chunk*g), Fix: "use a smaller group (group.size, fewer angles, shears or scales, or a smaller radius)"},
	}
}

// tapBytes is the size of one linear map's tables per pixel (group.RotationSet,
// group.AffineSet): forward and inverse, 4 taps each of an int32 index and a float64
// weight, 2·4·(4 + 8) = 96 bytes.
const tapBytes = 96

// groupCost returns the order of the group g on samples of the given shape (0 for none
// or a shape it cannot act on: BuildGroup then refuses), and the bytes of its element
// tables with the term describing them.
func groupCost(g model.GroupSpec, shape []int) (order, bytes float64, item EstimateItem) {
	if gk, ok := groupKindOf(g.Kind); ok && gk.cost != nil {
		return gk.cost(g, shape)
	}
	return imageCost(g, shape, 0, 0, false) // no group, or one the estimate does not cost
}

// liuTestBlock is the number of test rows kernel.Liu.Gram transforms at once.
const liuTestBlock = 2000

// maxEnumerated is the largest full symmetric group group.Permutations enumerates (9!).
const maxEnumerated = 362880

// ErrTooMuchMemory is wrapped by the error of CheckMemory.
var ErrTooMuchMemory = errors.New("not enough memory")

// CheckMemory returns nil if the estimate fits in limit bytes and its largest kernel
// matrix within kernel.MaxGramBytes, else an *InputError (wrapping ErrTooMuchMemory) of
// one line: the estimate in GiB, the limit and where it comes from, the largest term and
// the spec change that shrinks it.
func CheckMemory(est Estimate, limit int64, source string) error {
	if est.Gram > float64(kernel.MaxGramBytes) {
		fix := cmp.Or(est.GramFix, "use fewer training samples (sizes, repeats) or test samples (data.test_size)")
		return inputErr(memoryError(fmt.Sprintf("%s needs %s, above the %s one kernel matrix may take: %s",
			est.GramWhat, bytefmt.IEC(est.Gram), bytefmt.IEC(float64(kernel.MaxGramBytes)), fix)))
	}
	if est.Bytes <= float64(limit) {
		return nil
	}
	// The largest term, whatever order the items were put in (a caller may add its own,
	// such as the data file's copies, ahead of the sorted ones).
	top := EstimateItem{What: "the run", Fix: "use a smaller spec"}
	for i, it := range est.Items {
		if i == 0 || it.Bytes > top.Bytes {
			top = it
		}
	}
	return inputErr(memoryError(fmt.Sprintf("the run needs about %s of memory, more than the %s available (%s); the largest part is %s (%s): %s (%s=SIZE sets the limit)",
		bytefmt.IEC(est.Bytes), bytefmt.IEC(float64(limit)), source, top.What, bytefmt.IEC(top.Bytes), top.Fix, MemoryEnv)))
}

// memoryError is a refusal for lack of memory: errors.Is(err, ErrTooMuchMemory).
type memoryError string

func (e memoryError) Error() string        { return string(e) }
func (e memoryError) Is(target error) bool { return target == ErrTooMuchMemory }

// ParseBytes parses a memory size: a number with an optional unit B, K/KB, M/MB, G/GB,
// T/TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), case-insensitive,
// e.g. "8GiB", "512 MiB", "2e9". It returns an error for anything else, or a size below
// 1 MiB.
func ParseBytes(s string) (int64, error) { return data.ParseBytes(s) }

// SoftMemoryLimit returns the soft memory limit for the Go runtime (debug.SetMemoryLimit)
// of a gitui process: $GITUI_MEMORY_LIMIT when set and valid, else what the process may
// still use (data.AvailableMemory, plus what it already holds), at most 95% of
// MachineMemory; ok is false when $GOMEMLIMIT is set (the runtime already honours it),
// when $GITUI_MEMORY_LIMIT is malformed (the run refuses it) or nothing is known. Near
// the limit the collector runs hard, so a run that the estimate let through gives memory
// back before the kernel's OOM killer or the runtime's fatal "out of memory" would end
// it.
func SoftMemoryLimit() (int64, bool) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0, false
	}
	room, source, err := data.AvailableMemory()
	if err != nil {
		return 0, false
	}
	if source == MemoryEnv {
		return room, true
	}
	m, ok := MachineMemory()
	if !ok {
		return 0, false
	}
	limit := m / 20 * 19
	if room < 1<<40 {
		limit = min(limit, room+selfRSS())
	}
	return limit, true
}

// selfRSS returns the resident memory of this process (VmRSS, /proc/self/status), 0 if
// unknown.
func selfRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && fs[0] == "VmRSS:" {
			v, _ := strconv.ParseInt(fs[1], 10, 64)
			return v << 10
		}
	}
	return 0
}

// MachineMemory returns the memory the whole process may use: the cgroup's memory.max,
// else MemTotal, (ok false if neither is readable). cmd/gitui sets the Go runtime's soft
// memory limit from it.
func MachineMemory() (int64, bool) {
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 {
			if t, ok := data.MeminfoBytes("MemTotal:"); !ok || v < t {
				return v, true
			}
		}
	}
	return data.MeminfoBytes("MemTotal:")
}

// checkRunMemory estimates the memory of spec on the loaded pool and test set and
// refuses (an *InputError, before the group or anything large is built) a run that
// does not fit data.AvailableMemory or whose largest kernel matrix exceeds kernel.MaxGramBytes.
// On success it returns a log line with the estimate and the limit, and the estimate.
func checkRunMemory(spec *model.Spec, pool, test *data.Dataset) (string, Estimate, error) {
	nt := test.Len()
	if spec.TestTransform != nil {
		nt *= 2
	}
	est := EstimateBytes(spec, DataSize{Pool: pool.Len(), Test: nt, Shape: pool.Shape, Classes: len(pool.Classes)})
	limit, source, err := data.AvailableMemory()
	if err != nil {
		return "", est, err
	}
	if err := CheckMemory(est, limit, source); err != nil {
		return "", est, err
	}
	return fmt.Sprintf("memory: about %s estimated, %s available (%s)", bytefmt.IEC(est.Bytes), bytefmt.IEC(float64(limit)), source), est, nil
}

// slowBLASGram is the kernel matrix (bytes: 5,000 x 5,000 float64) from which
// buildHint points a run of the pure-Go build to the OpenBLAS build.
const slowBLASGram = 8 * 5000 * 5000

// buildHint returns a log line for a run whose largest kernel matrix (est.Gram) is at
// least 5,000 x 5,000 when this build multiplies in float64 with gonum's pure-Go BLAS
// and not on the packed assembly GEMM (packed: linalg.DgemmPacked, which runs Dgemm at
// about OpenBLAS's speed and the reduction within 1.3-1.5x of it): its fits are the
// run's bulk, and the OpenBLAS build does them many times faster. "" otherwise.
func buildHint(est Estimate, blas string, packed bool) string {
	if blas != linalg.PureGoBLAS || packed || est.Gram < slowBLASGram {
		return ""
	}
	n := int(math.Sqrt(est.Gram / 8))
	return fmt.Sprintf("note: this build does its float64 products (here a %dx%d kernel matrix and its fits) with gonum's pure-Go BLAS; the OpenBLAS build does them many times faster: go install -tags openblas ./cmd/gitui (Debian: libopenblas-dev; docs/performance.md)", n, n)
}

// checkGroupMemory refuses (an *InputError) a group whose element tables alone exceed
// data.AvailableMemory, before BuildGroup builds them: for callers that build the group without
// running the spec (SampleGram, the heatmap's sample).
func checkGroupMemory(g model.GroupSpec, shape []int) error {
	_, bytes, item := groupCost(g, shape)
	limit, source, err := data.AvailableMemory()
	if err != nil {
		return err
	}
	return CheckMemory(Estimate{Bytes: bytes, Items: []EstimateItem{item}}, limit, source)
}

// KnownDataSize returns the DataSize a run of d loads when its data set has fixed
// official counts (usps, usps-binary: 7,291 + 2,007 digits of 16×16; emnist-letters:
// 124,800 + 20,800 letters of 28×28), after d's pool cap and test size; ok is false
// for other data sets, whose size depends on the files at hand, and with data.classes. `gitui presets -v`
// estimates a preset's memory from it before the data are there.
func KnownDataSize(d model.DataSpec) (ds DataSize, ok bool) {
	switch d.Name {
	case "usps", "usps-binary":
		ds = DataSize{Pool: 7291, Test: 2007, Shape: []int{16, 16}, Classes: 10}
		if d.Name == "usps-binary" {
			ds.Classes = 2
		}
	case "emnist-letters":
		ds = DataSize{Pool: 124800, Test: 20800, Shape: []int{28, 28}, Classes: 26}
	default:
		return DataSize{}, false
	}
	if len(d.Classes) > 0 { // the counts after the class selection are not known here
		return DataSize{}, false
	}
	if d.Holdout > 0 {
		ds.Pool, ds.Test = max(ds.Pool-d.Holdout, 0), d.Holdout
	}
	if d.Pool > 0 && d.Pool < ds.Pool {
		ds.Pool = d.Pool
	}
	if d.TestSize > 0 && d.TestSize < ds.Test && d.Holdout == 0 {
		ds.Test = d.TestSize
	}
	return ds, true
}

// EstimateLine is one line for listings: "memory estimate: about X (largest kernel
// matrix Y: what) for P training and T test samples".
func EstimateLine(est Estimate, ds DataSize) string {
	line := fmt.Sprintf("memory estimate: about %s for %d training and %d test samples", bytefmt.IEC(est.Bytes), ds.Pool, ds.Test)
	if est.Gram > 0 {
		line += fmt.Sprintf(" (largest kernel matrix %s: %s)", bytefmt.IEC(est.Gram), strings.TrimPrefix(est.GramWhat, ": "))
	}
	return line
}

// checkTrainingSizes refuses a spec whose largest training size (the curve's sizes, the
// grid's or sweep's size, group-size's first size) is above the pool, with data.Draw's
// message, before any estimate is logged or any method prepares: the memory and time
// estimates of such a run would describe a run that never starts. The pd protocol
// refuses its own sizes (liu.go).
func checkTrainingSizes(s *model.Spec, pool int) error {
	largest := 0
	switch s.Protocol {
	case model.ProtocolCurve:
		for _, n := range s.Sizes {
			largest = max(largest, n)
		}
		if s.Grid != nil {
			largest = max(largest, s.Grid.Size)
		}
	case model.ProtocolGrid:
		if s.Grid != nil {
			largest = s.Grid.Size
		}
	case model.ProtocolSweep:
		if s.Sweep != nil {
			largest = s.Sweep.Size
		}
	case model.ProtocolGroupSize:
		if len(s.Sizes) > 0 {
			largest = s.Sizes[0]
		}
	}
	if largest > pool {
		return inputErr(fmt.Errorf("training size %d is larger than the pool of %d: lower it or add data", largest, pool))
	}
	return nil
}
