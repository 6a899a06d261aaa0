package engine

import (
	"context"
	"math"
	"runtime"
	"testing"

	"gitui/core/data/embedded"
	"gitui/model"
	"gonum.org/v1/gonum/mat"
)

// TestKernelKey checks which method fields share a kernel matrix: the learner, C,
// lambda, psd and kernel_norm do not change it; gamma, the invariance and the angles do.
func TestKernelKey(t *testing.T) {
	pool, _, err := embedded.Digits()
	if err != nil {
		t.Fatal(err)
	}
	base := poly("TI", "best")
	key := kernelKey(base, pool)
	same := []func(m *model.Method){
		func(m *model.Method) { m.Name = "other" },
		func(m *model.Method) { m.C = 1 },
		func(m *model.Method) { m.Learner, m.Lambda = "rls", 1e-3 },
		func(m *model.Method) { m.PSD = "clip" },
		func(m *model.Method) { m.KernelNorm = "cosine" },
	}
	for i, f := range same {
		m := base
		f(&m)
		if kernelKey(m, pool) != key {
			t.Errorf("change %d: the key changed, want the Gram shared", i)
		}
	}
	other := []func(m *model.Method){
		func(m *model.Method) { m.Gamma = 0.02 },
		func(m *model.Method) { m.Invariance = "RI" },
		func(m *model.Method) { m.Fit = "average" },
		func(m *model.Method) { m.Rotations = &model.AngleSpec{From: -10, To: 10, Count: 3} },
		func(m *model.Method) { m.Locality = &model.LocalitySpec{K1: 3, D1: 2, D2: 2} },
	}
	for i, f := range other {
		m := base
		f(&m)
		if kernelKey(m, pool) == key {
			t.Errorf("change %d: same key for a different kernel", i)
		}
	}
	if _, test, _ := embedded.Digits(); kernelKey(base, test) == key {
		t.Error("same key for another test set")
	}
	// The key names the data set by its address: pool must still be alive when the
	// other set is allocated, or the collector may hand that set pool's address (as
	// the engine's cache does by holding its entries' data sets).
	runtime.KeepAlive(pool)
}

// TestSelfValues checks that the test samples' own kernel values (kernel_norm cosine)
// equal the diagonal of the cross matrix of every kernel path, to 1e-12 relative (1e-6
// for the locality compositions, whose cross matrix is multiplied in float32).
func TestSelfValues(t *testing.T) {
	pool, _, err := embedded.Digits()
	if err != nil {
		t.Fatal(err)
	}
	X := mat.DenseCopyOf(pool.X.Slice(0, 6, 0, 784))
	X.Scale(1.0/255, X)
	loc := &model.LocalitySpec{K1: 3, D1: 2, D2: 2}
	lti := poly("TI", "best")
	lti.Locality, lti.Shifts = loc, 1
	ri := poly("RI", "best")
	ri.Rotations = &model.AngleSpec{From: -10, To: 10, Count: 3}
	l := poly("", "")
	l.Locality = loc
	ltiri := poly("TI-RI", "average")
	ltiri.Locality, ltiri.Shifts, ltiri.Rotations = loc, 1, ri.Rotations
	for _, m := range []model.Method{poly("", ""), poly("TI", "best"), ri, poly("TI", "average"), l, lti, ltiri} {
		k, err := newLiuKernel(m, []int{28, 28}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := k.selfValues(context.Background(), X)
		if err != nil {
			t.Fatal(err)
		}
		full, err := k.cross(context.Background(), X, X)
		if err != nil {
			t.Fatal(err)
		}
		// The locality compositions' Gram multiplies in float32 (kernel.FitLocalityGram),
		// their self values are float64: equal to 1e-6 relative; the rest exactly.
		tol := 1e-12
		if m.Locality != nil && m.Invariance != "" {
			tol = 1e-6
		}
		for i, v := range got {
			if w := full.At(i, i); math.Abs(v-w) > tol*math.Abs(w) {
				t.Errorf("%s %s: self value %d = %g, cross diagonal %g", m.Invariance, m.Fit, i, v, w)
			}
		}
	}
}

// TestGramCacheDropsAfterLastUser checks that a kernel's matrices stay in the cache
// until every method built with that kernel has taken them, and are dropped then,
// while another kernel's entry stays.
func TestGramCacheDropsAfterLastUser(t *testing.T) {
	pool, _, err := embedded.Digits()
	if err != nil {
		t.Fatal(err)
	}
	var c gramCache
	a := poly("TI", "best")
	a2 := a
	a2.C, a2.PSD = 1, "clip" // same kernel, another learner setting
	b := poly("RI", "best")
	for _, m := range []model.Method{a, a2, b} {
		c.expect(m)
	}
	ka, kb := kernelKey(a, pool), kernelKey(b, pool)
	c.put(ka, gramEntry{tself: []float64{1}})
	c.put(kb, gramEntry{tself: []float64{2}})
	c.taken(a, ka)
	if _, ok := c.get(ka); !ok {
		t.Fatal("entry dropped while a second method of the kernel has not taken it")
	}
	c.taken(a2, ka)
	if _, ok := c.get(ka); ok {
		t.Error("entry kept after the last method of the kernel took it")
	}
	if _, ok := c.get(kb); !ok {
		t.Error("another kernel's entry was dropped")
	}
}

// TestGramCacheKeepOnly checks that computing a kernel drops the entries of every other
// kernel (their methods were prepared before it, or never will be: skipped on resume),
// and keeps its own.
func TestGramCacheKeepOnly(t *testing.T) {
	pool, _, err := embedded.Digits()
	if err != nil {
		t.Fatal(err)
	}
	var c gramCache
	a, b := poly("TI", "best"), poly("RI", "best")
	for _, m := range []model.Method{a, a, b} {
		c.expect(m)
	}
	ka, kb := kernelKey(a, pool), kernelKey(b, pool)
	c.put(ka, gramEntry{tself: []float64{1}})
	c.taken(a, ka) // the second method of a is skipped: never takes it
	c.put(kb, gramEntry{tself: []float64{2}})
	c.keepOnly(kb)
	if _, ok := c.get(ka); ok {
		t.Error("a finished kernel's entry kept after another kernel was computed")
	}
	if e, ok := c.get(kb); !ok || e.tself[0] != 2 {
		t.Error("the kernel's own entry was dropped")
	}
}
