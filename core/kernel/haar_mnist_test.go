package kernel_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gitui/core/data"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/core/learn"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// unitRows returns a copy of the rows of d.X scaled to unit norm, as the engine's
// data.normalize (the default) feeds them to the Haar kernel.
func unitRows(X *mat.Dense) *mat.Dense {
	out := mat.DenseCopyOf(X)
	n, _ := out.Dims()
	for i := range n {
		r := out.RawRowView(i)
		if s := floats.Norm(r, 2); s > 0 {
			floats.Scale(1/s, r)
		}
	}
	return out
}

// drawDigits returns unit-norm rows and labels of n random digits of d.
func drawDigits(d *data.Dataset, rng *rand.Rand, n int) (*mat.Dense, []int) {
	idx := rng.Perm(d.Len())[:n]
	sub := d.Subset(idx)
	return unitRows(sub.X), sub.Y
}

// TestMNISTHaarFFTPredictions: on real digits (unit norm, Gaussian base with gamma 2.5
// as the xperm-curve preset's Haar method) the Haar kernel over all 784 cyclic shifts
// through the FFT (HaarSymGram, HaarGram) equals the direct orbit path (NewOrbitTable:
// 784 shifted copies, a matrix product and a mean) to 1e-10 of the largest entry, for
// 100 training and 200 test digits, and kernel RLS (lambda by leave-one-out) on the two
// Gram matrices predicts the same class for all 200 test digits. Skipped without
// GITUI_DATA holding mnist/.
func TestMNISTHaarFFTPredictions(t *testing.T) {
	pool, test := mnist(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 1))
	Xtr, ytr := drawDigits(pool, rng, 100)
	Xte, _ := drawDigits(test, rng, 200)
	G := group.AllCyclicShifts(28, 28)
	k0 := kernel.RBF{Gamma: 2.5}

	ktr, err := kernel.HaarSymGram(ctx, k0, G, Xtr)
	if err != nil {
		t.Fatal(err)
	}
	kte, err := kernel.HaarGram(ctx, k0, G, Xte, Xtr)
	if err != nil {
		t.Fatal(err)
	}
	// The direct path: one orbit table over the training and test digits.
	all := mat.NewDense(300, 784, nil)
	all.Slice(0, 100, 0, 784).(*mat.Dense).Copy(Xtr)
	all.Slice(100, 300, 0, 784).(*mat.Dense).Copy(Xte)
	tab, err := kernel.NewOrbitTable(ctx, k0, G, all)
	if err != nil {
		t.Fatal(err)
	}
	if tab.NumOrbits() != 300 {
		t.Fatalf("%d orbits among 300 distinct digits", tab.NumOrbits())
	}
	tr, te := make([]int, 100), make([]int, 200)
	for i := range tr {
		tr[i] = i
	}
	for i := range te {
		te[i] = 100 + i
	}
	dtr, dte := tab.SymGram(tr), tab.Gram(te, tr)
	scale := 0.0
	for _, v := range dtr.RawSymmetric().Data {
		scale = max(scale, abs(v))
	}
	diff := 0.0
	for i := range 100 {
		for j := range 100 {
			diff = max(diff, abs(ktr.At(i, j)-dtr.At(i, j)))
		}
	}
	for i := range 200 {
		for j := range 100 {
			diff = max(diff, abs(kte.At(i, j)-dte.At(i, j)))
		}
	}
	if diff > 1e-10*scale {
		t.Fatalf("FFT vs direct Haar kernel: max difference %g, entries up to %g", diff, scale)
	}
	predict := func(ktr *mat.SymDense, kte *mat.Dense) []int {
		m, err := learn.FitKernelRLS(ctx, ktr, ytr, len(pool.Classes), learn.RLSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(ctx, kte)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	pf, pd := predict(ktr, kte), predict(dtr, dte)
	for i := range pf {
		if pf[i] != pd[i] {
			t.Errorf("test digit %d: FFT route predicts %d, direct path %d", i, pf[i], pd[i])
		}
	}
	t.Logf("max |K_fft - K_direct| = %.3g (entries up to %.3g); 200 of 200 predictions equal", diff, scale)
}

// BenchmarkHaarFFTGram times the Haar kernel (Gaussian base) over all 784 cyclic shifts
// of 28×28 images through the FFT: the symmetric Gram of 500 images (upper triangle) and
// 2000 test images against them, the two Gram matrices of a Haar run on 500 training
// and 2000 test digits. Spectra are computed inside the loop, as HaarSymGram
// and HaarGram do. It reports pairs/s. Random digit-like images; the direct path costs
// 2·784·784 flops per pair.
func BenchmarkHaarFFTGram(b *testing.B) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 1))
	G := group.AllCyclicShifts(28, 28)
	k0 := kernel.RBF{Gamma: 2.5}
	n, nt := 500, 2000
	X := unitRows(benchImages(rng, n))
	Xt := unitRows(benchImages(rng, nt))
	b.Run(fmt.Sprintf("sym/n=%d", n), func(b *testing.B) {
		for b.Loop() {
			if _, err := kernel.HaarSymGram(ctx, k0, G, X); err != nil {
				b.Fatal(err)
			}
		}
		pairs := float64(n) * float64(n+1) / 2 * float64(b.N)
		b.ReportMetric(pairs/b.Elapsed().Seconds(), "pairs/s")
	})
	b.Run(fmt.Sprintf("rect/%dx%d", nt, n), func(b *testing.B) {
		for b.Loop() {
			if _, err := kernel.HaarGram(ctx, k0, G, Xt, X); err != nil {
				b.Fatal(err)
			}
		}
		pairs := float64(nt) * float64(n) * float64(b.N)
		b.ReportMetric(pairs/b.Elapsed().Seconds(), "pairs/s")
	})
}

// benchImages returns n 28×28 images with pixels uniform in [0,1), about half 0.
func benchImages(rng *rand.Rand, n int) *mat.Dense {
	X := mat.NewDense(n, 784, nil)
	for i, raw := 0, X.RawMatrix().Data; i < len(raw); i++ {
		if rng.Float64() < 0.5 {
			raw[i] = rng.Float64()
		}
	}
	return X
}
