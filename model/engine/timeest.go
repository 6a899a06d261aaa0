package engine

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"gitui/core/bench"
	"gitui/core/data"
	"gitui/core/feature"
	"gitui/model"
)

// TimeItem is one method's part of a time estimate: its series name, the seconds of its
// preparation (features, the kernel of the training union) and of all its cells.
type TimeItem struct {
	What    string
	Prepare float64
	Cells   float64
}

// Seconds returns the item's total, Prepare + Cells.
func (t TimeItem) Seconds() float64 { return t.Prepare + t.Cells }

// TimeEstimate is the wall time a run is expected to take on this machine: Seconds in
// all (the data load, every method's preparation and cells), Items per method, largest
// first, and whether the rates were measured here (Calibrated) or are the built-in
// defaults.
type TimeEstimate struct {
	Seconds    float64
	Load       float64
	Items      []TimeItem
	Calibrated bool
}

// Work is the cost model of one method: the seconds of its preparation, and of one of
// its cells at a training size. The run's progress weighs its cells by Cell.
type Work struct {
	Prepare float64
	Cell    func(n int) float64
}

// EstimateTime returns the time estimate of spec (after Validate) on data of size ds
// with the rates r (bench.LoadRates: calibrated by `gitui bench --calibrate`, else
// bench.DefaultRates). It counts what the engine computes, stage by stage and method by
// method as the protocols run them, and divides each count by its rate:
//
//	data load                (pool + test)·d / 5e7 s + 0.15 s
//	CDF/moment features      2·rows·d·m·|G| / Sgemm + rows·m·|G| / Pool   (rows = pool + test)
//	feature RLS per cell     on the Dk = kept·D non-constant columns (kept: cdfTheoryKept for CDF
//	                         features with theory thresholds, else 1): primal (Dk <= n-1):
//	                         (3·n·Dk² + 25·n·Dk·(2k+3)) / Dgemm + 8/3·Dk³ / ReduceAt(Dk);
//	                         dual: n²·Dk / Dgemm + (8/3·n³ + 100·n²·k) / ReduceAt(n); scoring 2·t·D·k
//	feature 1-NN per cell    2·t·n·D / Dgemm
//	kernel Gram (n×m pairs)  dot products: 2·n·m·d / Dgemm + n·m / Kernel;
//	                         TI (all cyclic shifts): n·m·c(d) / FFT, c(d) = d·log2 d / (784·log2 784),
//	                         TI with shifts s > 0: (2s+1)² dot products a pair (times the rotations) at 2.5x;
//	                         times the rotations for TI-RI, plus |T|·n·m / Kernel for average fit;
//	                         a finite set G (best fit, RI by copies, Haar): |G|·(2·n·m·d / Dgemm + n·m / Kernel);
//	                         Haar over the full cyclic-shift group: as TI average fit
//	kernel RLS per cell      (8/3·n³ + 100·n²·k) / ReduceAt(n), after the Gram of n² / 2 + t·n pairs
//	SVM per cell             SMO: k(k-1)/2·(2n/k)² / SMO (bench.SMOUnits)
//	Liu kernels (prepared)   the Gram of the training union U: U²/2 + t·U pairs, once per method,
//	                         and over a finite set T the copies of the U + t rows: |T|·d·4 / Kernel
//
// with t the test rows, k the classes, |G| the group order and d the dimension. It is an
// estimate (within about a factor of 2 of the measured time on the presets when
// calibrated), for the user to decide before a run; it bounds nothing.
func EstimateTime(spec *model.Spec, ds DataSize, r bench.Rates) TimeEstimate {
	e := timer{est: estimator{spec: spec, ds: ds, d: ds.dim(), workers: 1}, r: r}
	return e.run()
}

// timer walks a spec as the estimator does, counting seconds instead of bytes.
type timer struct {
	est estimator
	r   bench.Rates
}

func (t *timer) run() TimeEstimate {
	s, ds := t.est.spec, t.est.ds
	order := t.order(s.Group)
	out := TimeEstimate{Calibrated: t.r.Calibrated}
	out.Load = (float64(ds.Pool)+float64(ds.Test))*t.est.d/5e7 + 0.15
	if slices.Contains(model.AudioDataNames, s.Data.Name) {
		// Each recording is read, resampled and turned into a spectrogram.
		out.Load += (float64(ds.Pool) + float64(ds.Test)) * audioSecondsPerRecording
	}
	items := map[string]*TimeItem{}
	var names []string
	add := func(name string, prep, cells float64) {
		it, ok := items[name]
		if !ok {
			it = &TimeItem{What: name}
			items[name] = it
			names = append(names, name)
		}
		it.Prepare += prep
		it.Cells += cells
	}
	repeats := float64(max(s.Repeats, 1))
	reps := func(n int) float64 {
		if n >= ds.Pool {
			return 1
		}
		return repeats
	}
	cells := func(m model.Method, g float64, sizes []int) {
		w := t.Method(m, g)
		c := 0.0
		for _, n := range sizes {
			if n > ds.Pool {
				continue
			}
			c += reps(n) * w.Cell(n)
		}
		add(t.name(m), w.Prepare, c)
	}
	switch s.Protocol {
	case model.ProtocolCurve:
		for _, m := range s.Methods {
			cells(m, order, s.Sizes)
		}
		if s.Grid != nil {
			t.grid(order, add, reps)
		}
	case model.ProtocolGrid:
		if s.Grid != nil {
			t.grid(order, add, reps)
		}
	case model.ProtocolSweep:
		if sw := s.Sweep; sw != nil {
			for _, m := range s.Methods {
				values := sw.Values
				if s.SweepReference(m) {
					values = values[:min(1, len(values))]
				}
				f := model.MethodFieldOf(sw.Field)
				for _, v := range values {
					mv := m
					if f != nil {
						_ = f.SetNumber(&mv, v)
					}
					w := t.Method(mv, order)
					add(t.name(m), w.Prepare, reps(sw.Size)*w.Cell(sw.Size))
				}
			}
		}
	case model.ProtocolGroupSize:
		n := 0
		if len(s.Sizes) > 0 {
			n = s.Sizes[0]
		}
		for _, k := range s.GroupSizes {
			g := float64(k)
			if order > 0 {
				g = math.Min(g, order)
			}
			for _, m := range s.Methods {
				w := t.Method(m, g)
				add(t.name(m), w.Prepare, reps(n)*w.Cell(n))
			}
		}
	case model.ProtocolPD:
		if p := s.PD; p != nil {
			mx := 0
			for _, n := range p.Sizes {
				mx = max(mx, n)
			}
			nn := math.Min(float64(mx), float64(ds.Pool))
			for _, m := range s.Methods {
				// Per draw the Gram matrix of the largest size and its Cholesky
				// factorisation (n³/3).
				c := float64(max(p.Draws, 1)) * (nn*(nn+1)/2*t.pairCost(m, order) + nn*nn*nn/3/1e9/t.r.Dgemm)
				add(t.name(m), 0, c)
			}
		}
	case model.ProtocolApprox:
		if a := s.Approx; a != nil {
			rows := math.Min(2*float64(a.Pairs), float64(ds.Pool))
			g := math.Max(order, 1)
			for _, m := range a.Templates {
				add(fmt.Sprintf("CDF m=%d", m), t.projection(float64(m), g, rows), 0)
			}
			// The orbit distances d_G(x, z) of every pair: |G| shifted copies against |G|.
			add("orbit distances", 2*float64(a.Pairs)*g*g*t.est.d/1e9/t.r.Dgemm, 0)
		}
	}
	for _, n := range names {
		out.Items = append(out.Items, *items[n])
	}
	sort.SliceStable(out.Items, func(i, j int) bool { return out.Items[i].Seconds() > out.Items[j].Seconds() })
	out.Seconds = out.Load
	for _, it := range out.Items {
		out.Seconds += it.Seconds()
	}
	return out
}

// grid adds the bins × templates grid: one CDF feature map per (bins, templates), each
// with its cells at grid.size.
func (t *timer) grid(order float64, add func(string, float64, float64), reps func(int) float64) {
	s := t.est.spec
	var first *model.Method
	for i := range s.Methods {
		if s.Methods[i].IsCDF() {
			first = &s.Methods[i]
			break
		}
	}
	if first == nil {
		return
	}
	// The grid's features transform only the rows its draws use, and the test set.
	rows := math.Min(float64(t.est.ds.Pool), float64(s.Grid.Size)*float64(max(s.Repeats, 1)))
	for _, m := range s.Grid.Templates {
		for _, b := range s.Grid.Bins {
			mm := *first
			mm.Bins, mm.Templates = b, m
			w := t.methodRows(mm, order, rows+float64(t.est.ds.Test))
			add(fmt.Sprintf("CDF(n,%d) %s", m, model.LearnerName(mm.Learner)), w.Prepare, reps(s.Grid.Size)*w.Cell(s.Grid.Size))
		}
	}
}

// name is the series name of m the estimate prints (derived from its fields now).
func (t *timer) name(m model.Method) string {
	if m.Name != "" && !m.Pooled() {
		return m.Name
	}
	mm := m
	mm.Name = ""
	return model.MethodName(mm)
}

// Method returns the cost model of method m of the spec on groups of order g.
func (t *timer) Method(m model.Method, g float64) Work {
	return t.methodRows(m, g, float64(t.est.ds.Pool)+float64(t.est.ds.Test))
}

// methodRows is Method with rows samples to transform when m has features.
func (t *timer) methodRows(m model.Method, g float64, rows float64) Work {
	if m.Group != nil {
		if o := t.order(*m.Group); o > 0 {
			g = o
		}
	}
	r, d := t.r, t.est.d
	nt := float64(t.est.ds.Test)
	k := float64(max(t.est.ds.Classes, 2))
	gemm := func(flops float64) float64 { return flops / 1e9 / r.Dgemm }
	rlsKernel := func(n float64) float64 { return (8.0/3*n*n*n + 100*n*n*k) / 1e9 / r.ReduceAt(n) }
	switch model.FamilyOf(m) {
	case model.FamilyFeatures:
		D := d
		prep := 0.0
		kept := 1.0 // the fraction of D that is not constant on the training rows
		switch {
		case m.IsCDF():
			D = float64(m.Templates) * float64(2*m.Bins+1)
			prep = t.projection(float64(m.Templates), g, rows) + t.covarianceTemplates(m)
			if m.Thresholds != "range" {
				kept = cdfTheoryKept
			}
		case m.IsMoments():
			D = 3 * float64(m.Templates)
			prep = t.projection(float64(m.Templates), g, rows)
		}
		// Invariant features of data in few orbits (X_perm under the full group) repeat
		// rows: RLS's grouped form fits the u distinct rows (learn.FitRLS).
		u := 0.0
		if !m.IsRaw() {
			u = t.haarOrbits(g)
		}
		cell := func(ni int) float64 {
			n := float64(ni)
			switch {
			case !m.Is1NN() && !m.FeatureRBF() && u > 0 && u < 0.7*math.Min(D, n-1):
				return gemm(2*u*u*D+n*D+2*nt*D*k) + (8.0/3*u*u*u+100*u*u*k)/1e9/r.ReduceAt(u)
			case m.Is1NN():
				return gemm(2 * nt * n * D)
			case m.NystromAt(n):
				return nystromSeconds(r, n, float64(m.Centres), D, nt, k, m.Lambda == 0)
			case m.FeatureRBF():
				return gemm(n*n*D+2*nt*n*D) + (n*n/2+nt*n)/r.Kernel + rlsKernel(n)
			}
			// RLS on the Dk non-constant columns (learn.FitRLS): the primal form when
			// Dk <= n-1 (covariance n·Dk², its reduction 8/3·Dk³, B = F_c·Q 2·n·Dk²,
			// leave-one-out over the 25-value grid 2·n·Dk·25·k + 3·n·Dk·25), else the dual
			// (the Gram n²·Dk, then kernel RLS); scoring the test rows 2·t·D·k.
			Dk := math.Max(1, kept*D)
			if Dk <= n-1 {
				return gemm(3*n*Dk*Dk+25*n*Dk*(2*k+3)+2*nt*D*k) + 8.0/3*Dk*Dk*Dk/1e9/r.ReduceAt(Dk)
			}
			return gemm(n*n*Dk+2*nt*D*k) + rlsKernel(n)
		}
		return Work{Prepare: prep, Cell: cell}
	case model.FamilyLiu:
		u := t.est.union()
		pairs := u*(u+1)/2 + nt*u
		prep := pairs*t.pairCost(m, g) + (u+nt)*t.copyCost(m, g)
		cell := func(ni int) float64 {
			n := float64(ni)
			c := 0.0
			if m.LearnsRLS() {
				c = rlsKernel(n)
			} else {
				c = bench.SMOUnits(ni, int(k)) / r.SMO
			}
			if m.PSD != "" {
				c += (8.0 / 3 * n * n * n) / 1e9 / r.ReduceAt(n)
			}
			return c
		}
		return Work{Prepare: prep, Cell: cell}
	case model.FamilyChapelle:
		return Work{Cell: func(ni int) float64 {
			n := float64(ni)
			gram := gemm(n*n*d+2*nt*n*d) + (n*n/2+nt*n)/r.Kernel
			smo := bench.SMOUnits(ni, int(k)) / r.SMO
			switch {
			case m.IsVSV(): // train, add the support vectors' transformed copies, retrain
				nv := n * (1 + float64(max(vsvCopies(m), 1)))
				if vsvRowPath(m, ni, int(nt)) {
					// Kernel rows on demand: both SVMs' SMO, a fraction vsvSVFraction of
					// the points support vectors, the retraining twice as costly as
					// SMOUnits says (its points crowd the margin: 75% of 27,477 were
					// support vectors at 8,000 MNIST digits, and it took 25x the first
					// SVM's time where SMOUnits gives 12x), and the test kernel against
					// the retrained SVM's support vectors.
					nv = n * (1 + vsvSVFraction(n)*float64(max(vsvCopies(m), 1)))
					return smo + 2*bench.SMOUnits(int(nv), int(k))/r.SMO + gemm(2*nt*nv*d)
				}
				return gram + smo + gemm(nv*nv*d+2*nt*nv*d) + (nv*nv/2+nt*nv)/r.Kernel + bench.SMOUnits(int(nv), int(k))/r.SMO
			case m.IsInvariantSVM():
				// One model per pair of classes (k(k-1)/2 of them, 2n/k samples each: n for
				// two classes): the kernel PCA of its Gram (eigenvectors), the map of its
				// points and tangent vectors, a linear SVM; each test row is mapped by
				// every pair's model.
				tv := float64(max(chapelleTangents(m), 1))
				pairs, mp := 1.0, n
				if k > 2 {
					pairs, mp = k*(k-1)/2, 2*n/k
				}
				fit := pairs * (16.0/3*mp*mp*mp/1e9/r.ReduceAt(mp) + gemm(2*mp*mp*mp*(1+tv)) + gemm(2*mp*mp*d*(1+tv)))
				pred := pairs * (gemm(2*nt*mp*d+2*nt*mp*mp) + nt*mp/r.Kernel)
				return gram + fit + pred + smo
			}
			return gram + smo
		}}
	}
	// The kernel family: Gram matrices per cell (the Haar kernel's of its group).
	if m.IsHaar() && t.haarOrbits(g) > 0 {
		// Few orbits (permutations of one-hot blocks, X_perm): the table of the u orbits
		// once, then primal RLS on u exact features.
		u := math.Min(t.haarOrbits(g), rows)
		prep := u*(u+1)/2*t.pairCost(m, g) + 16.0/3*u*u*u/1e9/r.ReduceAt(u)
		return Work{Prepare: prep, Cell: func(ni int) float64 {
			n := float64(ni)
			if m.Is1NN() {
				return (n*n + nt*n) / 1e8
			}
			if n > u {
				return gemm(n*u*u+2*nt*u*k) + (8.0/3*u*u*u+100*n*u*k)/1e9/r.ReduceAt(u)
			}
			return gemm(n*n*u) + rlsKernel(n)
		}}
	}
	return Work{Cell: func(ni int) float64 {
		n := float64(ni)
		c := (n*(n+1)/2 + nt*n) * t.pairCost(m, g)
		if !m.Is1NN() {
			c += rlsKernel(n)
		}
		return c
	}}
}

// order returns the order of group g on the data (groupCost's), with the spectrogram
// sets of pitch shifts × tempo warps (25 elements, or group.size of them).
// Nyström fits (learn.FitNystromRBF): the iterations a solve takes (measured on MNIST
// CDF and raw rows, 10,000 to 60,000 digits), and the candidates a validation path
// solves before validation accuracy has fallen twice.
const (
	nystromIters      = 60
	nystromCandidates = 6
)

// nystromSeconds is the cost model of a Nyström fit on n rows of D features with M
// centres, scoring nt test rows (k classes): the kernel blocks K_nM, K_MM and the test
// kernel in float32 products (2·rows·M·D flops, and an exp an entry), a Cholesky
// factor and a product of order M (M³/3 each) and one more factor per candidate, and
// per iteration two float32 passes over K_nM with k columns (4·n·M·k flops, bound by
// memory: a quarter of the GEMM rate) and four triangular solves (4·M²·k).
func nystromSeconds(r bench.Rates, n, m, D, nt, k float64, path bool) float64 {
	cands := 1.0
	if path {
		cands = nystromCandidates + 1
	}
	kern := 2*(n+m+nt)*m*D/1e9/r.Sgemm + (n+m+nt)*m/r.Kernel
	chol := (2 + cands) * m * m * m / 3 / 1e9 / r.Dgemm
	iter := 4*n*m*k/1e9/(r.Sgemm/4) + 8*m*m*k/1e9/r.Dgemm
	return kern + chol + cands*nystromIters*iter
}

func (t *timer) order(g model.GroupSpec) float64 {
	if model.IsPitchTempo(g.Kind) {
		if g.Size > 0 && g.Size < 25 {
			return float64(g.Size)
		}
		return 25
	}
	o, _, _ := groupCost(g, t.est.ds.Shape)
	return o
}

// vsvSVFraction is the fraction of n training points the time model takes as the first
// SVM's support vectors: 3 n^(-1/4), at most 1/2, fitted to the degree-9 kernel on
// deskewed MNIST (measured 36-38% at 8,000 digits, 19% at 60,000).
func vsvSVFraction(n float64) float64 { return math.Min(0.5, 3*math.Pow(math.Max(n, 1), -0.25)) }

// chapelleTangents is the number of tangent directions (or transformation sets) of a
// Chapelle and Schoelkopf method.
func chapelleTangents(m model.Method) int {
	return len(m.Tangents)
}

// haarOrbits returns the number of orbits of the data under the spec's group when it is
// small and known from the shape alone: the full permutation group of L one-hot blocks
// over A symbols (X_perm) has C(L+A-1, L) orbits, the multisets. 0 otherwise.
func (t *timer) haarOrbits(g float64) float64 {
	s := t.est.spec
	sh := t.est.ds.Shape
	if s.Group.Kind != model.GroupPermutation || len(sh) != 2 || s.Data.Name != "xperm" {
		return 0
	}
	L, A := sh[0], sh[1]
	full := 1.0
	for i := 2; i <= L; i++ {
		full *= float64(i)
	}
	if g < full {
		return 0
	}
	c := 1.0 // C(L+A-1, L)
	for i := 1; i <= L; i++ {
		c = c * float64(A-1+i) / float64(i)
	}
	return c
}

// pairCost returns the seconds of one kernel value of m between two samples, with the
// spec's group of order g where m takes one.
func (t *timer) pairCost(m model.Method, g float64) float64 {
	r, d := t.r, t.est.d
	dot := 2*d/1e9/r.Dgemm + 1/r.Kernel
	fft := func(points float64) float64 {
		ref := 784 * math.Log2(784)
		c := points * math.Log2(math.Max(points, 2)) / ref / r.FFT
		if points != 784 { // the general transform: about 2.5 times the 28×28 one's time per point
			c *= 2.5
		}
		return c
	}
	if m.IsHaar() {
		if t.est.spec.Group.Kind == model.GroupCyclicShift && g >= d {
			return fft(d) + g/r.Kernel // all |G| correlations from one FFT product
		}
		return math.Max(g, 1) * dot
	}
	inv := m.Invariance
	nrot := liuRotations(m)
	canvas := d
	if m.Translation == "zero-fill" {
		canvas = 4 * d
	}
	c := dot
	if l := m.Locality; l != nil {
		w := float64(2*l.K1 - 1)
		// The explicit map's products run in float32 (kernel.FitLocalityGram: Sgemm).
		c = 2*d*(1+(w*w+1)/2)/1e9/r.Sgemm + 1/r.Kernel
		if l.D1 > 2 || l.K2 > 0 { // evaluated pair by pair
			c = 10 * d * float64(l.K1*l.K1) / 1e9 / r.Dgemm
		}
		// Its invariant compositions: the maps of every transformed copy (local shifts
		// of radius shifts, 0 meaning 3, for L-TI; the rotations for L-RI).
		if strings.Contains(inv, "TI") {
			r := m.Shifts
			if r == 0 {
				r = 3
			}
			c *= float64(2*r+1) * float64(2*r+1)
		}
		if strings.Contains(inv, "RI") {
			c *= nrot
		}
		return c
	}
	switch {
	case inv == model.InvarianceGroup:
		c = math.Max(g, 1) * dot
	case strings.Contains(inv, "TI") && m.Shifts > 0:
		// The (2s+1)² shifts of at most s pixels (times the rotations) are a finite set:
		// the best fit over its copies, a dot product each (kernel.Liu's localTI).
		// Its products, blocks of up to 512 copies against tiles of 256 rows, ran at 24
		// GFLOP per CPU-second on liu-tiri-tune --quick's trials, against the 62 of the
		// calibrated square Gram: 2.5 times a dot product's calibrated time.
		c = liuFiniteSet(m, g) * (2.5*2*d/1e9/r.Dgemm + 1/r.Kernel)
	case strings.Contains(inv, "TI"):
		c = nrot * fft(canvas)
		if m.AverageFit() {
			c += nrot * canvas / r.Kernel
		}
	case strings.Contains(inv, "RI") && m.Polar != nil:
		c = fft(float64(m.Polar.Annuli*m.Polar.Sectors)) + float64(m.Polar.Sectors)/r.Kernel
	case strings.Contains(inv, "RI"):
		c = nrot * dot
	}
	return c
}

// copyKernelEvals is the time of one value of a transformed copy of an image (a
// bilinear rotation or a shift, the copy's norm, its allocation) in kernel evaluations:
// liu-tiri-tune --quick's trials spent 24.7 CPU-s on 1.05e9 values outside the products
// (the copies 16 s, their norms 1.9 s, the collector the rest), 11.7 ns a value on 2
// cores against the calibrated 2.9 ns of a kernel value.
const copyKernelEvals = 4

// copyCost returns the seconds of the transformed copies of one sample that Liu et al.'s
// best fit over a finite set builds (liuFiniteSet): |set|·d values. 0 where the FFT or the
// polar grid takes all the transformations at once, and for the locality maps (their own
// term in pairCost).
func (t *timer) copyCost(m model.Method, g float64) float64 {
	if m.Locality != nil {
		return 0
	}
	return liuFiniteSet(m, g) * t.est.d * copyKernelEvals / t.r.Kernel
}

// liuRotations is the number of rotated copies of Liu et al.'s RI and TI-RI (1 without).
func liuRotations(m model.Method) float64 {
	if m.Rotations != nil && strings.Contains(m.Invariance, "RI") {
		return float64(max(m.Rotations.Count, 1))
	}
	return 1
}

// liuFiniteSet is the size of the finite set of transformations whose copies Liu et
// al.'s best fit builds, one by one, for method m (g the spec's group order): the group
// (invariance group), the (2s+1)² shifts of at most s > 0 pixels times the rotations,
// or the rotations alone (RI without a polar grid); 0 where the FFT or the polar grid
// takes them all at once.
func liuFiniteSet(m model.Method, g float64) float64 {
	inv := m.Invariance
	switch {
	case inv == model.InvarianceGroup:
		return math.Max(g, 1)
	case strings.Contains(inv, "TI") && m.Shifts > 0:
		w := float64(2*m.Shifts + 1)
		return liuRotations(m) * w * w
	case strings.Contains(inv, "RI") && !strings.Contains(inv, "TI") && m.Polar == nil:
		return liuRotations(m)
	}
	return 0
}

// cdfTheoryKept is the fraction of CDF features with theory thresholds (evenly spaced
// over [-s, s]) that is not constant on a training set, the columns learn.FitRLS keeps:
// the projections of unit images on unit templates fill a narrow part of [-1, 1], so the
// outer thresholds are never crossed. Measured on 3,000 MNIST digits (2026-12-03):
// CDF(25,100) 1,439 of 5,100, CDF(10,300) 1,801 of 6,300, CDF(5,m) 0.30 of D for m =
// 50, 100, 300. Range thresholds (fitted to the projections) keep about all of them.
const cdfTheoryKept = 0.3

// audioSecondsPerRecording is the time to read one spoken-digit recording and compute
// its spectrogram (measured: 1.4 s for FSDD's 1,300 recordings of speech-fsdd-rate
// --quick, 2 cores).
const audioSecondsPerRecording = 0.9e-3

// covarianceTemplates returns the seconds of method m's data-covariance templates
// (feature.CovarianceTemplates on the pool's n rows of d values, rank r =
// min(CovarianceRank, n, d)): four n·d·r products of the range finder and its power
// iteration, the thin SVD of the r×d sketch (about 6·d·r²) and the templates (4·m·d·r),
// at a quarter of the GEMM rate (thin, transposed products and the SVD's rotations:
// 0.96 CPU-s measured for n = 1,000, d = 4,096, against 0.16 s at the full rate). 0 for
// other templates.
func (t *timer) covarianceTemplates(m model.Method) float64 {
	if !m.DataCovarianceTemplates() {
		return 0
	}
	n, d := float64(t.est.ds.Pool), t.est.d
	r := math.Min(feature.CovarianceRank, math.Min(n, d))
	return (8*n*d*r + 6*d*r*r + 4*float64(m.Templates)*d*r) / 1e9 / (t.r.Dgemm / 4)
}

// projection returns the seconds of m templates' CDF projections of rows samples under
// a group of order g: the float32 GEMM and the pooling.
func (t *timer) projection(m, g, rows float64) float64 {
	g = math.Max(g, 1)
	return 2*rows*t.est.d*m*g/1e9/t.r.Sgemm + rows*m*g/t.r.Pool
}

// MethodWork returns the cost model of method m of spec on data of size ds with rates r,
// with the spec's group: what the run's progress weighs m's preparation and cells by.
func MethodWork(spec *model.Spec, ds DataSize, r bench.Rates, m model.Method) Work {
	t := timer{est: estimator{spec: spec, ds: ds, d: ds.dim(), workers: 1}, r: r}
	return t.Method(m, t.order(spec.Group))
}

// Duration formats seconds for an estimate: "12 s", "4 min", "3 h 10 min", "2.5 days";
// below a second "under 1 s".
func Duration(s float64) string {
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return "unknown"
	case s < 1:
		return "under 1 s"
	case s < 9.95:
		return fmt.Sprintf("%.1f s", s)
	case s < 90:
		return fmt.Sprintf("%.0f s", s)
	case s < 3600:
		return fmt.Sprintf("%.0f min", s/60)
	case s < 48*3600:
		d := time.Duration(s * float64(time.Second)).Round(time.Minute)
		h, m := int(d.Hours()), int(d.Minutes())%60
		if m == 0 {
			return fmt.Sprintf("%d h", h)
		}
		return fmt.Sprintf("%d h %d min", h, m)
	}
	return fmt.Sprintf("%.1f days", s/86400)
}

// TimeLine is the one-line form for logs and listings: "time estimate: about 40 s (Haar
// RLS 35 s)", with ", uncalibrated: `gitui bench --calibrate`" when the rates are the
// built-in defaults.
func TimeLine(t TimeEstimate) string {
	line := "time estimate: about " + Duration(t.Seconds)
	if t.Seconds < 1 {
		line = "time estimate: " + Duration(t.Seconds)
	}
	if len(t.Items) > 0 && t.Items[0].Seconds() >= 1 {
		line += fmt.Sprintf(" (%s %s)", t.Items[0].What, Duration(t.Items[0].Seconds()))
	}
	if !t.Calibrated {
		line += "; uncalibrated: `gitui bench --calibrate`"
	}
	return line
}

// LoadedDataSize is the DataSize a run of spec has on the loaded pool and test set: their
// lengths (2N test rows with test_transform), the pool's sample shape and class count.
// The TUI estimates the spec in its panes on the data its preview loaded.
func LoadedDataSize(spec *model.Spec, pool, test *data.Dataset) DataSize {
	return runSize(spec, pool, test)
}

// runSize is the DataSize of a run of spec on the loaded pool and test set (2N test rows
// with test_transform).
func runSize(spec *model.Spec, pool, test *data.Dataset) DataSize {
	nt := test.Len()
	if spec.TestTransform != nil {
		nt *= 2
	}
	return DataSize{Pool: pool.Len(), Test: nt, Shape: pool.Shape, Classes: len(pool.Classes)}
}

// StudyPlan is what a study's time estimate needs of its schedule: the rungs (training
// sizes), the trials started at the first rung, eta (a rung keeps 1/eta of the trials
// of the one below; eta 0: every trial runs every rung), the training part and
// validation split sizes, the refit's training size and the refits of tune.refit_top,
// and whether the spec's own setting is scored as a baseline (tune.baseline).
type StudyPlan struct {
	Rungs            []int
	Trials, Eta      int
	Train, Val       int
	RefitN, RefitTop int
	Baseline         bool
	// Samples are the trial specs of seeded random draws from the search space: a
	// trial's cost is their mean, since the searched fields can change it tenfold (the
	// shifts of liu-tiri-tune's TI-RI kernel: all 784 through the FFT against 81 copies
	// pair by pair). Empty: every trial costs what the spec's own setting does.
	Samples []*model.Spec
}

// EstimateStudy returns the time estimate of a study of spec (its tune block) on data
// of size ds (pool and test) with the rates r: at rung i (size n_i), ceil(trials/eta^i)
// trials, each the spec's first method on n_i training samples scored on the validation
// split (its preparation with the rows it needs, n_i + validation, and one cell), then
// the refit of the best (of RefitTop) at RefitN on the test set. With Baseline, the
// spec's own setting adds one job at the top rung (scored once the search is done, at
// the highest rung reached) and one refit (in DIR/refit-baseline, unless it is the best
// or among the top refits: counted, so the estimate is of the most that runs):
//
//	seconds = load + sum_i k_i·trial(n_i) + (max(RefitTop, 1) + b)·refit + b·trial(n_top)
//
// with b 1 under tune.baseline, else 0. Items are "trials at n = N" per rung, "refit"
// and "baseline (your setting) at n = N and its refit".
//
// When every trial has the same pooled features (StudySharesFeatures: no searched key
// decides them), the study's feature cache (FeatureCache) transforms each row once for
// all trials: the validation split and the first rung's rows with the first trial, then
// at each rung the rows its larger draw adds, so the preparation is charged once per
// rung, for those rows, and not once per trial. (It assumes the features fit the cache,
// a quarter of the available memory.)
func EstimateStudy(spec *model.Spec, ds DataSize, plan StudyPlan, r bench.Rates) TimeEstimate {
	out := TimeEstimate{Calibrated: r.Calibrated}
	if len(spec.Methods) == 0 {
		return out
	}
	vs := ds
	vs.Pool, vs.Test = plan.Train, plan.Val
	out.Load = (float64(ds.Pool)+float64(ds.Test))*ds.dim()/5e7 + 0.15
	// jobOf is the mean cost of a job of the specs at training size n: one draw of n
	// training samples (its kernel is of those n alone), scored on the validation split;
	// job is a trial's (over plan.Samples), own the spec's own setting's.
	jobOf := func(specs []*model.Spec, n int) Work {
		var prep float64
		var cells []func(int) float64
		for _, sp := range specs {
			if len(sp.Methods) == 0 {
				continue
			}
			ts := sp.Clone()
			ts.Sizes, ts.Repeats, ts.Nested, ts.Protocol = []int{n}, 1, false, model.ProtocolCurve
			t := timer{est: estimator{spec: ts, ds: vs, d: vs.dim(), workers: 1}, r: r}
			w := t.methodRows(ts.Methods[0], t.order(ts.Group), float64(n+plan.Val))
			prep += w.Prepare
			cells = append(cells, w.Cell)
		}
		k := float64(max(len(cells), 1))
		return Work{Prepare: prep / k, Cell: func(n int) float64 {
			c := 0.0
			for _, f := range cells {
				c += f(n)
			}
			return c / k
		}}
	}
	own := []*model.Spec{spec}
	samples := plan.Samples
	if len(samples) == 0 {
		samples = own
	}
	job := func(n int) Work { return jobOf(samples, n) }
	shared, prepared := StudySharesFeatures(spec), 0.0
	for i, n := range plan.Rungs {
		k := float64(max(plan.Trials, 1))
		if plan.Eta >= 2 {
			k = math.Ceil(k / math.Pow(float64(plan.Eta), float64(i)))
		}
		w := job(n)
		prep := k * w.Prepare
		if shared {
			prep, prepared = max(0, w.Prepare-prepared), max(prepared, w.Prepare)
		}
		out.Items = append(out.Items, TimeItem{What: fmt.Sprintf("%.0f trials at n = %d", k, n), Prepare: prep, Cells: k * w.Cell(n)})
	}
	rs := spec.Clone()
	rs.Tune = nil
	rs.Protocol, rs.Sizes, rs.Repeats, rs.Nested = model.ProtocolCurve, []int{plan.RefitN}, 1, false
	rs.Grid, rs.Sweep, rs.PD, rs.Approx, rs.GroupSizes = nil, nil, nil, nil, nil
	rs.Methods = spec.Methods[:1]
	refit := EstimateTime(rs, ds, r)
	one := refit.Seconds - refit.Load
	out.Items = append(out.Items, TimeItem{What: "refit", Prepare: float64(max(plan.RefitTop, 1)) * one})
	if plan.Baseline && len(plan.Rungs) > 0 {
		top := plan.Rungs[len(plan.Rungs)-1]
		w := jobOf(own, top)
		prep := w.Prepare
		if shared { // its features are the trials', from the cache
			prep = max(0, w.Prepare-prepared)
		}
		out.Items = append(out.Items, TimeItem{What: fmt.Sprintf("baseline (your setting) at n = %d and its refit", top), Prepare: prep + one, Cells: w.Cell(top)})
	}
	sort.SliceStable(out.Items, func(i, j int) bool { return out.Items[i].Seconds() > out.Items[j].Seconds() })
	out.Seconds = out.Load
	for _, it := range out.Items {
		out.Seconds += it.Seconds()
	}
	return out
}

// StudySharesFeatures reports whether every trial of the study of spec (its tune block)
// has the same pooled features, so that its feature cache computes them once: the first
// method pools (CDF or moments) and every searched key is a field of methods.0 that does
// not decide the features (model.DecidesFeatures; not "method", nor a group field).
func StudySharesFeatures(spec *model.Spec) bool {
	if spec.Tune == nil || len(spec.Methods) == 0 || !spec.Methods[0].Pooled() {
		return false
	}
	for key := range spec.Tune.Params {
		field, ok := strings.CutPrefix(key, "methods.0.")
		if !ok {
			return false
		}
		if f := model.MethodFieldOf(field); f == nil || f.Decides == model.DecidesFeatures {
			return false
		}
	}
	return true
}

// ListingDataSize is KnownDataSize, plus the sizes a listing assumes for the data sets
// whose files vary or which are generated (ok false for the others: a data file, an
// audio corpus, the embedded digits): listingSizes gives each its counts before
// data.pool and data.test_size, and its sample shape and classes. With data.classes the
// counts are scaled by the share of the classes kept (the sets are near balanced); with
// data.holdout the test set is the holdout, drawn from the pool. A spec of mnist whose
// training sizes pass 10,000 is run on a data directory with the full 60,000 training
// digits (mnist-full), and is sized so. `gitui presets -v` and the preset picker
// estimate a preset's time from it.
func ListingDataSize(s *model.Spec) (DataSize, bool) {
	d := s.Data
	if ds, ok := KnownDataSize(d); ok {
		return ds, true
	}
	ds, ok := KnownDataSize(model.DataSpec{Name: d.Name}) // a fixed set, with data.classes
	if size, listed := listingSizes[d.Name]; listed {
		ds, ok = size(s), true
	}
	if !ok {
		return DataSize{}, false
	}
	if k := len(d.Classes); k > 0 && ds.Classes > 0 {
		ds.Pool, ds.Test, ds.Classes = ds.Pool*min(k, ds.Classes)/ds.Classes, ds.Test*min(k, ds.Classes)/ds.Classes, min(k, ds.Classes)
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

// ListingSize is the DataSize a listing gives spec before its data are loaded:
// ListingDataSize, else, for a spoken-digit corpus in dataDir ("": $GITUI_DATA or the
// cache), the recordings its split keeps (AudioListingSize: the corpus's file list is
// read, no recording). ok is false when neither knows (a data file, a corpus not there).
func ListingSize(spec *model.Spec, dataDir string) (DataSize, bool) {
	if ds, ok := ListingDataSize(spec); ok {
		return ds, true
	}
	return AudioListingSize(spec.Data, dataDir, spec.Seed)
}

// listingSizes gives, per data set, the DataSize of a load before the pool cap and
// test size: the official counts of the data directory's sets (mnist: its 10,000 +
// 10,000 digits; fashion-mnist: 60,000 + 10,000), the sets generated from MNIST at
// their shapes, and the generated sets at the sizes their generators draw (data.pool and
// data.test_size are those sizes, with the generators' defaults).
var listingSizes = map[string]func(*model.Spec) DataSize{
	"xperm": func(*model.Spec) DataSize {
		return DataSize{Pool: 30768, Test: 2000, Shape: []int{5, 8}, Classes: 2}
	},
	"mnist": func(s *model.Spec) DataSize {
		ds := DataSize{Pool: 10000, Test: 10000, Shape: []int{28, 28}, Classes: 10}
		for _, n := range s.Sizes {
			if n > ds.Pool { // a run past 10,000 digits needs the full training set (mnist-full)
				ds.Pool = mnistFullTrain
			}
		}
		return ds
	},
	"fashion-mnist": func(*model.Spec) DataSize {
		return DataSize{Pool: 60000, Test: 10000, Shape: []int{28, 28}, Classes: 10}
	},
	"mnist-translated": func(*model.Spec) DataSize {
		return DataSize{Pool: 10000, Test: 10000, Shape: []int{64, 64}, Classes: 10}
	},
	"mnist-rotated": func(*model.Spec) DataSize {
		return DataSize{Pool: 10000, Test: 10000, Shape: []int{28, 28}, Classes: 10}
	},
	"digits16": func(*model.Spec) DataSize {
		return DataSize{Pool: 10000, Test: 10000, Shape: []int{16, 16}, Classes: 10}
	},
	"circle": func(s *model.Spec) DataSize {
		return DataSize{Pool: orDefault(s.Data.Pool, 1000), Test: orDefault(s.Data.TestSize, 10000), Shape: []int{2}, Classes: 2}
	},
	"graphs":            graphsSize,
	"graphs-relabelled": graphsSize,
}

// graphsSize is the DataSize of the graphs data sets: data.pool and data.test_size
// adjacency matrices of model.GraphNodes nodes (defaults model.GraphPoolDefault and
// model.GraphTestDefault), one class per graph family.
func graphsSize(s *model.Spec) DataSize {
	return DataSize{Pool: orDefault(s.Data.Pool, model.GraphPoolDefault), Test: orDefault(s.Data.TestSize, model.GraphTestDefault),
		Shape: []int{model.GraphNodes, model.GraphNodes}, Classes: len(data.GraphFamilies)}
}

// mnistFullTrain is the number of MNIST's official training digits.
const mnistFullTrain = 60000

// orDefault is v, or def when v is 0 (unset).
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
