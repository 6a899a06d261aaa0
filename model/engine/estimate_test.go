package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gitui/core/data"
	"gitui/core/kernel"
	"gitui/core/linalg"
	"gitui/model"
)

// xpermData is X_perm as the quick presets load it: 30,768 pool and 2,000 test sequences
// of 5 blocks × 8 symbols, 2 classes.
var xpermData = DataSize{Pool: 30768, Test: 2000, Shape: []int{5, 8}, Classes: 2}

// item returns the bytes of the first estimate term whose description contains what.
func item(t *testing.T, e Estimate, what string) float64 {
	t.Helper()
	for _, it := range e.Items {
		if strings.Contains(it.What, what) {
			return it.Bytes
		}
	}
	t.Fatalf("no term %q in %+v", what, e.Items)
	return 0
}

// near reports whether got is within a relative 1e-9 of want (the formulas are exact
// products; the tolerance only absorbs float64 rounding).
func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Abs(want) }

// TestEstimateIssueCases checks the estimate against the byte counts of absurd settings, worked
// out by hand from what the engine allocates:
//
//	CDF(1000, 100000) on X_perm: 32768 samples · 100000 · 2001 · 2 B (16-bit counts) + 8 B
//	                             per column = 1.3115e13 B (11.9 TiB; "49 TB" as float64)
//	CDF(1000, 2000):             32768 · 2000 · 2001 · 2 B + 8 · 2000 · 2001 B = 2.6231e11 B
//	moments(100000):             32768 · 300000 · 8 B                = 7.8643e10 B ("77 GB")
//	12! - 1 permutations of 12 blocks: 479001599 · (12·8 + 24 + 12 + 88) B = 1.0538e11 B
//	rotation+shift, 3600 angles, radius 13 on 28×28: |G| = 3600 · 27² = 2,624,400; one
//	    template's transformed copies in float32: 4 · 2624400 · 784 B = 8.23e9 B, twice
//	    (the pool's, garbage but not yet collected, and the test set's): 1.65e10 B
//
// and that each is refused by CheckMemory under 8 GiB with one line naming GiB or TiB.
func TestEstimateIssueCases(t *testing.T) {
	cdf := func(bins, templates int) *model.Spec {
		return &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm"}, Group: model.GroupSpec{Kind: "permutation"},
			Methods: []model.Method{{Features: "cdf", Bins: bins, Templates: templates}}, Sizes: []int{100, 500}}
	}
	cases := []struct {
		name string
		spec *model.Spec
		ds   DataSize
		term string
		want float64
	}{
		{"CDF(1000,100000)", cdf(1000, 100000), xpermData, "CDF(1000,100000) RLS features", 32768*100000*2001*2.0 + 8*100000*2001.0},
		{"CDF(1000,2000)", cdf(1000, 2000), xpermData, "CDF(1000,2000) RLS features", 32768*2000*2001*2.0 + 8*2000*2001.0},
		{"moments(100000)", &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm"}, Group: model.GroupSpec{Kind: "permutation"},
			Methods: []model.Method{{Features: "moments", Templates: 100000}}, Sizes: []int{100}}, xpermData, "moments(100000) RLS features", 32768 * 300000 * 8.0},
		{"12!-1 permutations", &model.Spec{Protocol: model.ProtocolCurve, Group: model.GroupSpec{Kind: "permutation", Size: 479001599},
			Methods: []model.Method{{Features: "raw"}}, Sizes: []int{10}}, DataSize{Pool: 100, Test: 100, Shape: []int{12, 3}, Classes: 2}, "permutations", 479001599 * (12*8 + 24 + 12 + 88.0)},
		{"rotation+shift 3600x13", &model.Spec{Protocol: model.ProtocolCurve, Group: model.GroupSpec{Kind: "rotation+shift", Radius: 13, Angles: &model.AngleSpec{From: 0, To: 359.9, Count: 3600}},
			Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 5}}, Sizes: []int{10}}, DataSize{Pool: 1000, Test: 1000, Shape: []int{28, 28}, Classes: 10}, "transformed templates", 2 * 4 * 2624400 * 784.0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.spec.Defaults()
			e := EstimateBytes(c.spec, c.ds)
			if got := item(t, e, c.term); !near(got, c.want) {
				t.Errorf("%s = %.6g B, want %.6g", c.term, got, c.want)
			}
			if e.Bytes < c.want {
				t.Errorf("total %.4g B below its term %.4g", e.Bytes, c.want)
			}
			err := CheckMemory(e, 8<<30, "test")
			var ie *model.InputError
			if !errors.As(err, &ie) || !errors.Is(err, ErrTooMuchMemory) {
				t.Fatalf("CheckMemory: %v, want an *InputError wrapping ErrTooMuchMemory", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, "8.00 GiB available") || !strings.Contains(msg, MemoryEnv) || !strings.Contains(msg, "use ") {
				t.Errorf("message %q: want one line with the limit, the fix and %s", msg, MemoryEnv)
			}
		})
	}
}

// TestEstimateKernelCells checks the Gram terms: kernel RLS with the rbf kernel at n =
// 6000 on 2,000 test samples holds, per cell, 3 n² (Gram, its reduced copy, the basis)
// + 2000 n doubles = 9.6e8 B, times GOMAXPROCS cells at once (5 repeats), once with a
// single cell (one size, one repeat); n = 40,000 needs a 40000² · 8 = 12.8e9 B Gram,
// above kernel.MaxGramBytes (8 GiB): refused whatever the memory, naming the matrix and
// data.test_size.
func TestEstimateKernelCells(t *testing.T) {
	s := &model.Spec{Protocol: model.ProtocolCurve, Methods: []model.Method{{Kernel: "rbf", Gamma: 1}}, Sizes: []int{6000}, Repeats: 5}
	s.Defaults()
	ds := DataSize{Pool: 50000, Test: 2000, Shape: []int{2}, Classes: 2}
	e := EstimateBytes(s, ds)
	w := float64(runtime.GOMAXPROCS(0))
	if got, want := item(t, e, "cells at once"), w*8*(3*6000*6000+2000*6000.0); w > 1 && !near(got, want) {
		t.Errorf("cells = %.6g B, want %.6g", got, want)
	}
	s.Repeats = 1
	if got, want := item(t, EstimateBytes(s, ds), "on 6000 samples"), 8*(3*6000*6000+2000*6000.0); !near(got, want) {
		t.Errorf("one cell = %.6g B, want %.6g", got, want)
	}
	s.Repeats = 5
	if err := CheckMemory(e, 1<<40, "test"); err != nil {
		t.Errorf("n = 6000 under 1 TiB: %v", err)
	}
	s.Sizes = []int{40000}
	e = EstimateBytes(s, ds)
	if !near(e.Gram, 8*40000*40000.0) {
		t.Errorf("largest Gram %.6g B, want 1.28e10", e.Gram)
	}
	err := CheckMemory(e, 1<<50, "test")
	if !errors.Is(err, ErrTooMuchMemory) || !strings.Contains(err.Error(), "40000 x 40000") || !strings.Contains(err.Error(), "data.test_size") {
		t.Errorf("n = 40000: %v, want a refusal naming the 40000 x 40000 matrix and data.test_size", err)
	}
}

// TestEstimateQuickFits checks that ordinary specs are not refused: the X_perm curve of
// the quick preset (CDF(25,25), n <= 500) needs well under 1 GiB (its measured peak RSS is
// 0.68 GB, data and runtime included).
func TestEstimateQuickFits(t *testing.T) {
	s := &model.Spec{Protocol: model.ProtocolCurve, Group: model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "raw"}, {Features: "bow"}, {Features: "cdf", Bins: 25, Templates: 25}}, Sizes: []int{20, 100, 500}}
	s.Defaults()
	e := EstimateBytes(s, xpermData)
	if e.Bytes > 1<<30 || e.Bytes < 32768*1275*2 {
		t.Errorf("estimate %.3g B: want between the CDF features (8.4e7 B as 16-bit counts) and 1 GiB", e.Bytes)
	}
	if err := CheckMemory(e, 1<<30, "test"); err != nil {
		t.Error(err)
	}
}

// TestParseBytes checks the units of GITUI_MEMORY_LIMIT and its refusals.
func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"8GiB": 8 << 30, "512 MiB": 512 << 20, "2e9": 2e9, "1.5GB": 15e8, "3 tib": 3 << 40, "64m": 64e6} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "8XB", "-1GiB", "NaN", "1e400", "100", "1KiB"} {
		if _, err := ParseBytes(in); err == nil {
			t.Errorf("ParseBytes(%q) accepted", in)
		}
	}
}

// TestMemoryLimitEnv checks the override and its one-line refusal of a bad value, an
// *InputError naming the variable and the units, as the engine reports it.
func TestMemoryLimitEnv(t *testing.T) {
	t.Setenv(MemoryEnv, "3GiB")
	if b, src, err := data.AvailableMemory(); err != nil || b != 3<<30 || src != MemoryEnv {
		t.Errorf("AvailableMemory() = %d, %q, %v; want 3 GiB from %s", b, src, err, MemoryEnv)
	}
	t.Setenv(MemoryEnv, "plenty")
	_, _, err := data.AvailableMemory()
	wantInputError(t, "bad "+MemoryEnv, err, MemoryEnv, "e.g. 8GiB", "MiB, GiB")
	t.Setenv(MemoryEnv, "")
	if b, _, err := data.AvailableMemory(); err != nil || b <= 0 {
		t.Errorf("AvailableMemory() without the override = %d, %v", b, err)
	}
}

// TestSampleGramRefusesGroupTables checks the heatmap's path: SampleGram with a sample of
// 12! - 1 permutations of 12 blocks (1.05e11 B of tables) is refused under 1 GiB before
// the group is built (it would take hours and 100 GB), naming the permutations.
func TestSampleGramRefusesGroupTables(t *testing.T) {
	t.Setenv(MemoryEnv, "1GiB")
	dir := t.TempDir()
	const n = 40
	x := make([]float64, n*12*2)
	y := make([]float64, n)
	for i := range n {
		x[i*24+(i%12)*2+i%2] = 1
		y[i] = float64(i % 2)
	}
	writeNPYFile(t, filepath.Join(dir, "seq_x.npy"), "(40, 12, 2)", x)
	writeNPYFile(t, filepath.Join(dir, "seq_y.npy"), "(40,)", y)
	s := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "file", Path: filepath.Join(dir, "seq_x.npy")},
		Group:   model.GroupSpec{Kind: "permutation", Size: 479001599},
		Methods: []model.Method{{Features: "cdf", Bins: 2, Templates: 2}}, Sizes: []int{10}}
	_, _, err := SampleGram(context.Background(), s, "", 10)
	wantInputError(t, "SampleGram", err, "permutations of 12 blocks", "group.size")
}

// writeNPYFile writes a little-endian float64 .npy file (format 1.0) of the given shape.
func writeNPYFile(t *testing.T, path, shape string, v []float64) {
	t.Helper()
	h := "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }"
	h += strings.Repeat(" ", (64-(10+len(h)+1)%64)%64) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	b = append(b, h...)
	for _, f := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEstimateLiuLocality checks the locality terms against what the kernels allocate
// (kernel.LocalityGram, kernel.FitLocalityGram): with U = 2500 (5 nested draws of 500)
// and dim = 784·(1 + (9²+1)/2) = 32,928 for 5×5 patches, L-SVM holds the union's maps
// and 256 test rows' in float64, 8·(2500 + 256)·32928 B; L-TI the union's in float32
// and 512 copies per worker in float64 and float32, (4·2500 + 12·512·workers)·32928 B.
// The dim is an upper bound of the real map's (kernel.NewLocalityMap) for K1 = 3, 5, 7.
func TestEstimateLiuLocality(t *testing.T) {
	loc := &model.LocalitySpec{K1: 5, D1: 2, D2: 2}
	s := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "mnist"}, Sizes: []int{100, 200, 500}, Repeats: 5, Nested: true,
		Methods: []model.Method{
			{Name: "L", Kernel: "poly", Gamma: 1.0 / 784, Degree: 8, C: 1000, Learner: "svm", Locality: loc},
			{Name: "LTI", Kernel: "poly", Gamma: 1.0 / 784, Degree: 8, C: 1000, Learner: "svm", Locality: loc, Invariance: "TI", Shifts: 1},
		}}
	s.Defaults()
	ds := DataSize{Pool: 10000, Test: 10000, Shape: []int{28, 28}, Classes: 10}
	est := EstimateBytes(s, ds)
	w := float64(runtime.GOMAXPROCS(0))
	dim := 784 * (1 + (9*9+1)/2.0)
	e := estimator{spec: s, ds: ds, d: ds.dim(), workers: w}
	for _, c := range []struct {
		m    model.Method
		want float64
	}{
		{s.Methods[0], 8 * (2500 + 256) * dim},
		{s.Methods[1], (4*2500 + 12*512*w) * dim},
	} {
		items := e.liuTransient(c.m, e.union())
		if len(items) != 1 || !near(items[0].Bytes, c.want) || !strings.Contains(items[0].What, "locality feature maps of 2500 samples") {
			t.Errorf("%s: %+v, want one term of %.6g B over 2500 samples", c.m.Name, items, c.want)
		}
	}
	if est.Bytes < 8*(2500+256)*dim {
		t.Errorf("total %.4g B below the L-SVM maps", est.Bytes)
	}
	for _, k1 := range []int{3, 5, 7} {
		m, ok := kernel.NewLocalityMap(kernel.Locality{H: 28, W: 28, K1: k1, D1: 2, D2: 2})
		bound := 784 * (1 + float64((2*k1-1)*(2*k1-1)+1)/2)
		if !ok || float64(m.Dim()) > bound || float64(m.Dim()) < bound/2 {
			t.Errorf("K1 = %d: map of %d values, the estimate's bound %.0f should be above it and within 2x", k1, m.Dim(), bound)
		}
	}
}

// TestBuildHint: the pure-Go build without the packed float64 GEMM points a run with a
// kernel matrix of 5,000 x 5,000 or more to the OpenBLAS build, naming the matrix;
// smaller runs, the OpenBLAS build and the pure-Go build on the assembly GEMM get no
// line.
func TestBuildHint(t *testing.T) {
	big := Estimate{Gram: 8 * 10000 * 10000}
	if h := buildHint(big, linalg.PureGoBLAS, false); !strings.Contains(h, "10000x10000") || !strings.Contains(h, "-tags openblas") {
		t.Errorf("10,000 x 10,000 in the pure-Go build: %q, want the matrix and the openblas build named", h)
	}
	for _, c := range []struct {
		est    Estimate
		blas   string
		packed bool
	}{
		{big, "OpenBLAS (cgo)", false},
		{big, linalg.PureGoBLAS, true},
		{Estimate{Gram: 8 * 4999 * 4999}, linalg.PureGoBLAS, false},
		{Estimate{}, linalg.PureGoBLAS, false},
	} {
		if h := buildHint(c.est, c.blas, c.packed); h != "" {
			t.Errorf("Gram %.0f bytes, %s: %q, want no line", c.est.Gram, c.blas, h)
		}
	}
}

// TestEstimateSVMRows60000: the memory estimate of an RBF SVM on the 60,000 MNIST
// training digits (10,000 test digits) counts the row path's terms, not the 60000 x
// 60000 Gram matrix (28.8 GB) nor the test x training kernel: below 4 GiB (the 1 GiB
// cache, pairs of 15,000 points' float32 features per core, the support vectors'
// features bounded by all 60,000 digits, 12·60000·784 = 0.56 GB, and a 512 x 60000
// test block), and CheckMemory lets it run in 8 GiB. At the 10,000 digits of the
// presets the same spec keeps the precomputed kernel (1.6 GB).
func TestEstimateSVMRows60000(t *testing.T) {
	spec := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "mnist"},
		Methods: []model.Method{{Name: "SVM", Kernel: "rbf", Gamma: 0.02, C: 10, Learner: "svm"}}, Sizes: []int{60000}, Repeats: 1}
	spec.Defaults()
	ds := DataSize{Pool: 60000, Test: 10000, Shape: []int{28, 28}, Classes: 10}
	e := EstimateBytes(spec, ds)
	t.Logf("estimate %.2f GiB, largest matrix %.3g B (%s)", e.Bytes/(1<<30), e.Gram, e.GramWhat)
	if e.Bytes > 4<<30 {
		t.Errorf("estimate %.3g B, want below 4 GiB: %+v", e.Bytes, e.Items)
	}
	if e.Gram >= 8*60000*10000 {
		t.Errorf("largest kernel matrix %.3g B (%s): the row path holds none of 60000 columns", e.Gram, e.GramWhat)
	}
	found := false
	for _, it := range e.Items {
		found = found || strings.Contains(it.What, "kernel rows on demand")
	}
	if !found {
		t.Errorf("no row-path term in %+v", e.Items)
	}
	if err := CheckMemory(e, 8<<30, "test"); err != nil {
		t.Errorf("CheckMemory at 8 GiB: %v", err)
	}
	spec.Sizes = []int{10000}
	small := EstimateBytes(spec, DataSize{Pool: 10000, Test: 10000, Shape: []int{28, 28}, Classes: 10})
	if small.Gram != 8*10000*10000 {
		t.Errorf("at 10,000 digits the largest kernel matrix is %.3g B, want the precomputed 8e8", small.Gram)
	}
}

// TestListingDataSize checks the sizes a listing assumes before loading: the data
// directory's MNIST (10,000 + 10,000, or the full 60,000 training digits when a size
// needs them), a fixed set with a class selection (USPS 4 vs 9: 2/10 of its 7,291 and
// 2,007 digits, below the test size asked), the generated sets at their generators' defaults and caps, and
// none for a data file or an audio corpus, whose size only their files tell.
func TestListingDataSize(t *testing.T) {
	cases := []struct {
		spec             model.Spec
		pool, test, dims int
		ok               bool
	}{
		{model.Spec{Data: model.DataSpec{Name: "mnist"}, Sizes: []int{100, 1000}}, 10000, 10000, 784, true},
		{model.Spec{Data: model.DataSpec{Name: "mnist", TestSize: 2000}, Sizes: []int{10000, 60000}}, 60000, 2000, 784, true},
		{model.Spec{Data: model.DataSpec{Name: "mnist", Pool: 5000}, Sizes: []int{4000}}, 5000, 10000, 784, true},
		{model.Spec{Data: model.DataSpec{Name: "usps", Classes: []int{4, 9}, TestSize: 2000}}, 7291 * 2 / 10, 2007 * 2 / 10, 256, true},
		{model.Spec{Data: model.DataSpec{Name: "mnist-translated", Pool: 3000, TestSize: 2000}}, 3000, 2000, 4096, true},
		{model.Spec{Data: model.DataSpec{Name: "circle"}}, 1000, 10000, 2, true},
		{model.Spec{Data: model.DataSpec{Name: "graphs", Pool: 4000}}, 4000, model.GraphTestDefault, model.GraphNodes * model.GraphNodes, true},
		{model.Spec{Data: model.DataSpec{Name: "file", Path: "x.csv"}}, 0, 0, 0, false},
		{model.Spec{Data: model.DataSpec{Name: "spoken-digits"}}, 0, 0, 0, false},
	}
	for _, c := range cases {
		ds, ok := ListingDataSize(&c.spec)
		if ok != c.ok || ds.Pool != c.pool || ds.Test != c.test || (ok && ds.dim() != float64(c.dims)) {
			t.Errorf("%+v: %+v (dim %g), %v; want pool %d, test %d, %d values, %v", c.spec.Data, ds, ds.dim(), ok, c.pool, c.test, c.dims, c.ok)
		}
	}
}

// Every estimate counts gitui's own resident memory once (RuntimeBaseBytes), so that a
// small run's estimate is a bound on its peak: a 10-sample raw RLS run on the circle
// is estimated at no less than that base, with the base named among the items.
func TestEstimateCountsRuntimeBase(t *testing.T) {
	s := &model.Spec{Protocol: model.ProtocolCurve, Methods: []model.Method{{Features: "raw"}}, Sizes: []int{10}}
	s.Defaults()
	e := EstimateBytes(s, DataSize{Pool: 30, Test: 30, Shape: []int{2}, Classes: 2})
	n := 0
	for _, it := range e.Items {
		if strings.HasPrefix(it.What, "gitui itself") {
			n++
			if it.Bytes != RuntimeBaseBytes {
				t.Errorf("base item %g bytes, want %d", it.Bytes, RuntimeBaseBytes)
			}
		}
	}
	if n != 1 || e.Bytes < RuntimeBaseBytes || e.Bytes > 2*RuntimeBaseBytes || e.Shared < RuntimeBaseBytes {
		t.Errorf("estimate %.3g B with %d base items: want the base counted once, and little else", e.Bytes, n)
	}
}

// A listed data set read whole (MNIST: 10,000 training and 10,000 test digits of 784
// values) bounds the estimate from below however little data.pool keeps, since the
// load holds it all (liu-table1 --quick peaked at 153 MiB against 101 MiB estimated);
// a generated set (X_perm) is not counted twice.
func TestEstimateCountsTheSetAsRead(t *testing.T) {
	s := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "mnist", Pool: 200, TestSize: 100},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{100}}
	s.Defaults()
	e := EstimateBytes(s, DataSize{Pool: 200, Test: 100, Shape: []int{28, 28}, Classes: 10})
	if read := 8.0 * 20000 * 784; e.Bytes < read+RuntimeBaseBytes {
		t.Errorf("estimate %.3g B, want at least the 20,000 digits as read (%.3g B) and gitui", e.Bytes, read)
	}
	found := false
	for _, it := range e.Items {
		found = found || strings.HasPrefix(it.What, "the data set as read: 10000 training and 10000 test samples")
	}
	if !found {
		t.Errorf("no item for the set as read in %+v", e.Items)
	}
	x := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm", Pool: 200},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{100}}
	x.Defaults()
	for _, it := range EstimateBytes(x, DataSize{Pool: 200, Test: 2000, Shape: []int{5, 8}, Classes: 2}).Items {
		if strings.HasPrefix(it.What, "the data set as read") {
			t.Errorf("X_perm (generated) counted as read whole: %+v", it)
		}
	}
}
