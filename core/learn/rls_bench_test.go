package learn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/linalg"
)

// cdfLike returns n×(m·bins) CDF-style features: for m random projections of a
// class-dependent signal, the indicators 1{proj <= tau_b}/m at bins thresholds spread
// over a range wider than the projections, so that the outer thresholds are never
// crossed (constant columns, as in real CDF features).
func cdfLike(rnd *rand.Rand, n, m, bins, k int) (*mat.Dense, []int) {
	f := mat.NewDense(n, m*bins, nil)
	y := make([]int, n)
	dirs := make([]float64, k*m)
	for i := range dirs {
		dirs[i] = 0.04 * rnd.NormFloat64()
	}
	for i := range n {
		c := i % k
		y[i] = c
		row := f.RawRowView(i)
		for j := range m {
			p := dirs[c*m+j] + 0.25*rnd.NormFloat64()
			for b := range bins {
				tau := -2 + 4*float64(b)/float64(bins-1)
				if p <= tau {
					row[j*bins+b] = 1 / float64(m)
				}
			}
		}
	}
	return f, y
}

// rlsFlops is the floating-point work of a primal fit with n samples, r kept features,
// k classes and L grid values: covariance (n r² as a symmetric rank-k update), the
// tridiagonal reduction and Q (8/3 r³), B = F_c Q (2 n r²), the LOO products
// (2 n r L k) and the hat diagonal (3 n r L).
func rlsFlops(n, r, k, L int) float64 {
	fn, fr := float64(n), float64(r)
	return fn*fr*fr + 8.0/3*fr*fr*fr + 2*fn*fr*fr + 2*fn*fr*float64(L*k) + 3*fn*fr*float64(L)
}

// BenchmarkFitRLS times a full fit with leave-one-out over the 25-value default grid,
// 10 classes, on n = 2000 dense Gaussian features with D = 1000. Set
// GITUI_BENCH_BIG=1 to add the MNIST-reproduction size n = 10,000 with D = 6,600
// CDF-like features (about 3,000 non-constant). The numpy peer (eigh of the centred
// covariance, then the same 25-value LOO path) is the point of comparison.
func BenchmarkFitRLS(b *testing.B) {
	type size struct {
		n, m, bins int
		cdf        bool
	}
	sizes := []size{{2000, 1000, 1, false}} // dense Gaussian features, D = 1000
	if os.Getenv("GITUI_BENCH_BIG") != "" {
		sizes = append(sizes, size{10000, 600, 11, true})
	}
	for _, sz := range sizes {
		rnd := rand.New(rand.NewPCG(1, 1))
		var (
			f *mat.Dense
			y []int
		)
		name := "gauss"
		if sz.cdf {
			f, y = cdfLike(rnd, sz.n, sz.m, sz.bins, 10)
			name = "cdf"
		} else {
			f, y = rlsBlobs(rnd, sz.n, sz.m, 10, 0.1)
		}
		b.Run(fmt.Sprintf("n=%d/D=%d/%s/%s", sz.n, sz.m*sz.bins, name, linalg.BLAS()), func(b *testing.B) {
			var m *LinearRLS
			for b.Loop() {
				var err error
				if m, err = FitRLS(context.Background(), f, y, 10, RLSOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(sz.n)/sec, "samples/s")
			b.ReportMetric(rlsFlops(sz.n, m.Info.Kept, 10, 25)/sec/1e9, "GFLOP/s")
			b.ReportMetric(float64(m.Info.Kept), "kept")
			b.ReportMetric(m.Info.Relative, "rel-lambda")
		})
	}
}

// BenchmarkNNPredict times 1-NN prediction of 1000 queries against 5000 training
// samples in 784 dimensions (one GEMM of 2·1000·5000·784 flops plus the scan).
func BenchmarkNNPredict(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	const n, m, d = 5000, 1000, 784
	z := mat.NewDense(n, d, nil)
	x := mat.NewDense(m, d, nil)
	for _, a := range []*mat.Dense{z, x} {
		raw := a.RawMatrix()
		for i := range raw.Data {
			raw.Data[i] = rnd.Float64()
		}
	}
	y := make([]int, n)
	for i := range y {
		y[i] = i % 10
	}
	nn, _ := NewNN(z, y, 10, rand.New(rand.NewPCG(1, 2)))
	b.Run(linalg.BLAS(), func(b *testing.B) {
		for b.Loop() {
			if _, err := nn.Predict(context.Background(), x); err != nil {
				b.Fatal(err)
			}
		}
		sec := b.Elapsed().Seconds() / float64(b.N)
		b.ReportMetric(m/sec, "queries/s")
		b.ReportMetric(2*float64(n)*m*d/sec/1e9, "GFLOP/s")
	})
}

// TestRLSStageTimes logs the time of each stage of a fit at the MNIST-reproduction
// size (n = 10,000, D = 6,600 CDF-like features). It runs only with
// GITUI_RLS_TIMING=1 (minutes in pure Go): it measures, it does not assert on time.
func TestRLSStageTimes(t *testing.T) {
	if os.Getenv("GITUI_RLS_TIMING") == "" {
		t.Skip("set GITUI_RLS_TIMING=1 to time the stages of a large RLS fit")
	}
	n, m, bins := 10000, 600, 11
	fmt.Sscan(os.Getenv("GITUI_RLS_N"), &n)
	fmt.Sscan(os.Getenv("GITUI_RLS_M"), &m)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(1, 1))
	f, y := cdfLike(rnd, n, m, bins, 10)
	start := time.Now()
	fc, kept, _, err := centreFeatures(f)
	if err != nil {
		t.Fatal(err)
	}
	r := len(kept)
	t.Logf("BLAS %s, n=%d D=%d kept=%d: centre %.2fs", linalg.BLAS(), n, m*bins, r, time.Since(start).Seconds())
	tick := time.Now()
	cov, err := syrkUpper(ctx, blasGeneral(fc, n, r), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("covariance (syrk): %.2fs", time.Since(tick).Seconds())
	tick = time.Now()
	tri := reduce(cov, r)
	t.Logf("tridiagonal reduction + Q + eigenvalues: %.2fs (e_max %.4g)", time.Since(tick).Seconds(), tri.emax())
	tick = time.Now()
	if err := mulInPlace(ctx, fc, n, r, tri.q); err != nil {
		t.Fatal(err)
	}
	t.Logf("B = F_c Q: %.2fs", time.Since(tick).Seconds())
	yt, ybar := targets(y, 10)
	p := &looProblem{n: n, r: r, b: fc, t: tri, y: yt, k: 10, ybar: ybar, labels: y, scale: 1}
	tick = time.Now()
	var sig []float64
	for _, g := range DefaultGrid() {
		sig = append(sig, g*tri.emax())
	}
	res, err := p.path(ctx, sig, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("LOO path over 25 lambdas: %.2fs", time.Since(tick).Seconds())
	t.Logf("total %.2fs; LOO accuracy by relative lambda: %v", time.Since(start).Seconds(), res.acc)
	tick = time.Now()
	mod, err := FitRLS(ctx, f, y, 10, RLSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("FitRLS end to end: %.2fs, chosen lambda %.3g (relative %.3g), LOO accuracy %.4f",
		time.Since(tick).Seconds(), mod.Info.Lambda, mod.Info.Relative, mod.Info.LOOAccuracy())
}

// BenchmarkFitRLSRows times the streaming fit (FitRLSRows) with leave-one-out over the
// default grid, 10 classes, in the primal form (n = 2000, D = 1000 dense Gaussian
// features) and in the dual form (n = 1500, D = 3000 dense Gaussian features), and reports
// samples/s and the bytes allocated per fit (the dual form's dominant buffer is the
// n×n Gram matrix, 8n² bytes).
func BenchmarkFitRLSRows(b *testing.B) {
	for _, sz := range []struct{ n, d int }{{2000, 1000}, {1500, 3000}} {
		f, y := rlsBlobs(rand.New(rand.NewPCG(1, 1)), sz.n, sz.d, 10, 0.1)
		idx := make([]int, sz.n)
		for i := range idx {
			idx[i] = i
		}
		b.Run(fmt.Sprintf("n=%d/D=%d/gauss/%s", sz.n, sz.d, linalg.BLAS()), func(b *testing.B) {
			b.ReportAllocs()
			var m *LinearRLS
			for b.Loop() {
				var err error
				if m, err = FitRLSRows(context.Background(), DenseRows{f}, idx, y, 10, RLSOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(sz.n)/sec, "samples/s")
			b.ReportMetric(float64(m.Info.Kept), "kept")
			b.ReportMetric(float64(m.Info.Form), "form")
		})
	}
}

// BenchmarkRBFRowsRLS times the Gaussian-kernel RLS on feature rows (FitRBFRowsRLS,
// gamma by the median heuristic, lambda by leave-one-out over the default grid, 10
// classes) and its scoring (DecisionRows of 2,000 test rows), with float64 and float32
// products: n = 2000 training rows of D = 4200 columns (a CDF(10,200) width), of which
// the first 60% are constant over the training rows (MNIST's CDF features leave most
// thresholds uncrossed) but not over the test rows. It reports samples/s (training
// samples per second of the fit; test rows per second of the scoring), the bytes
// allocated per call, and the kept columns.
func BenchmarkRBFRowsRLS(b *testing.B) {
	const n, d, nt, k = 2000, 4200, 2000, 10
	rng := rand.New(rand.NewPCG(7, 7))
	f, y := rlsBlobs(rng, n, d, k, 0.1)
	test, _ := rlsBlobs(rng, nt, d, k, 0.1)
	for i := range n {
		row := f.RawRowView(i)
		for j := range d * 6 / 10 {
			row[j] = 0.5
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	ctx := context.Background()
	defer SetRBFFloat32(SetRBFFloat32(false))
	for _, f32 := range []bool{false, true} {
		prec := map[bool]string{false: "float64", true: "float32"}[f32]
		SetRBFFloat32(f32)
		m, err := FitRBFRowsRLS(ctx, DenseRows{f}, idx, y, k, 0, RLSOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("fit/n=%d/D=%d/%s/%s", n, d, prec, linalg.BLAS()), func(b *testing.B) {
			SetRBFFloat32(f32)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := FitRBFRowsRLS(ctx, DenseRows{f}, idx, y, k, 0, RLSOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
			b.ReportMetric(float64(m.KeptColumns()), "kept")
		})
		b.Run(fmt.Sprintf("score/n=%d/D=%d/%s/%s", n, d, prec, linalg.BLAS()), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.DecisionRows(ctx, DenseRows{test}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(nt)*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

// BenchmarkReduce measures the tridiagonal reduction of a random symmetric 4000×4000
// matrix (LAPACK's dsytrd + dorgtr under -tags openblas, gonum's otherwise) as part of
// a fit with no other RLS work in progress, so widenBLAS gives it every core, and beside
// a second fit (one BLAS thread on 2 cores). It reports GFLOP/s at 8/3 r³ flops. On
// the 2-core machine with OpenBLAS, quiet: 4.37 s (39 GFLOP/s) alone, 8.04 s (21) beside
// a fit.
func BenchmarkReduce(b *testing.B) {
	const r = 4000
	rng := rand.New(rand.NewPCG(1, 2))
	a0 := make([]float64, r*r)
	for i := range r {
		for j := i; j < r; j++ {
			v := rng.Float64()
			a0[i*r+j], a0[j*r+i] = v, v
		}
	}
	a := make([]float64, r*r)
	for _, c := range []struct {
		name string
		work int // fits in progress, its own included
	}{{"alone", 1}, {"beside-a-fit", 2}} {
		b.Run(c.name, func(b *testing.B) {
			for range c.work {
				defer beginWork()()
			}
			for b.Loop() {
				copy(a, a0)
				reduce(a, r)
			}
			b.ReportMetric(8.0/3*r*r*r*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
