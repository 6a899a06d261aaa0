package learn

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/kernel"
)

// BenchmarkTrainSVC trains a 10-class C-SVC (C = 1000) on an n×n precomputed Gram of the
// degree-8 polynomial (1 + <x,z>/784)^8 on [0,1] pixels, the setting of the LIBSVM peer
// ../shared/bench/svm_precomputed.sh. The Gram comes from, in order of preference:
//   - $SVM_BENCH_DIR/gram-N.libsvm, the very file that script writes (same digits, so the
//     two timings compare like for like);
//   - the first n MNIST training digits under $GITUI_DATA/mnist;
//   - 10 synthetic blobs in [0,1]^784.
//
// It reports seconds per training and SMO iterations per second (all pairs).
func BenchmarkTrainSVC(b *testing.B) {
	for _, c := range []struct{ n, workers int }{{500, 0}, {2000, 0}, {500, 1}, {2000, 1}} {
		n := c.n
		b.Run(fmt.Sprintf("n=%d/classes=10/workers=%d", n, c.workers), func(b *testing.B) {
			k, y, src := benchGram(b, n)
			b.Logf("Gram source: %s", src)
			ctx := context.Background()
			var iters int
			for b.Loop() {
				m, err := TrainSVC(ctx, k, y, 1000, &SVCOptions{Workers: c.workers})
				if err != nil {
					b.Fatal(err)
				}
				iters = 0
				for _, p := range m.Pairs {
					iters += p.Iter
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(sec, "s/train")
			b.ReportMetric(float64(iters)/sec, "SMO-iter/s")
		})
	}
}

// BenchmarkSVCDecision times the test-kernel product of a 10-class model (45 pairs) on
// 2000 test rows against 2000 training points.
func BenchmarkSVCDecision(b *testing.B) {
	k, y, _ := benchGram(b, 2000)
	m, err := TrainSVC(context.Background(), k, y, 1000, nil)
	if err != nil {
		b.Fatal(err)
	}
	kt := mat.DenseCopyOf(k)
	var dst mat.Dense
	for b.Loop() {
		dst.Reset()
		if err := m.DecisionValuesTo(context.Background(), &dst, kt); err != nil {
			b.Fatal(err)
		}
	}
	flops := 2 * float64(2000*len(m.SV)*len(m.Pairs))
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func benchGram(b *testing.B, n int) (*mat.SymDense, []int, string) {
	if dir := os.Getenv("SVM_BENCH_DIR"); dir != "" {
		path := filepath.Join(dir, fmt.Sprintf("gram-%d.libsvm", n))
		if k, y, err := readPrecomputed(path, n); err == nil {
			return k, y, path
		} else {
			b.Logf("SVM_BENCH_DIR: %v; falling back", err)
		}
	}
	var x *mat.Dense
	var y []int
	src := "synthetic blobs in [0,1]^784"
	if os.Getenv("GITUI_DATA") != "" {
		xs, ys := mnist(b, "train10k", n)
		x = mat.NewDense(n, 784, nil)
		for i := range xs {
			x.SetRow(i, xs[i])
		}
		y, src = ys, fmt.Sprintf("first %d MNIST training digits", n)
	} else {
		rng := rand.New(rand.NewPCG(1, 1))
		xs, ys := blobs(n, 784, 10, 1, 0, rng)
		x = mat.NewDense(n, 784, nil)
		for i := range xs {
			for j, v := range xs[i] {
				xs[i][j] = math.Max(0, math.Min(1, 0.3+0.1*v))
			}
			x.SetRow(i, xs[i])
		}
		y = ys
	}
	var k mat.SymDense
	k.SymOuterK(1.0/784, x)
	for i := range n {
		for j := i; j < n; j++ {
			k.SetSym(i, j, math.Pow(1+k.At(i, j), 8))
		}
	}
	return &k, y, src
}

// readPrecomputed reads an n-point LIBSVM precomputed-kernel file ("label 0:i 1:K(i,1)
// ... n:K(i,n)", one line per point in order).
func readPrecomputed(path string, n int) (*mat.SymDense, []int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	k := mat.NewSymDense(n, nil)
	y := make([]int, 0, n)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for i := 0; sc.Scan(); i++ {
		fs := strings.Fields(sc.Text())
		if i >= n || len(fs) != n+2 {
			return nil, nil, fmt.Errorf("%s: line %d has %d fields, want %d (n = %d)", path, i+1, len(fs), n+2, n)
		}
		lab, err := strconv.Atoi(fs[0])
		if err != nil {
			return nil, nil, fmt.Errorf("%s: line %d: %w", path, i+1, err)
		}
		y = append(y, lab)
		for j := i; j < n; j++ {
			v, err := strconv.ParseFloat(fs[j+2][strings.IndexByte(fs[j+2], ':')+1:], 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: line %d: %w", path, i+1, err)
			}
			k.SetSym(i, j, v)
		}
	}
	if len(y) != n {
		return nil, nil, fmt.Errorf("%s: %d lines, want %d", path, len(y), n)
	}
	return k, y, sc.Err()
}

// BenchmarkSVCKernelRows times FeatureKernel's rows, the row path's hot loop: full rows
// of a subproblem of l points of MNIST's size (d = 784, values in [0, 1), random rows
// from a fixed seed), the RBF map, float32 and float64 products, and reports kernel
// entries/s (l per row).
func BenchmarkSVCKernelRows(b *testing.B) {
	for _, c := range []struct {
		l   int
		f32 bool
	}{{4000, true}, {4000, false}} {
		b.Run(fmt.Sprintf("l=%d/d=784/f32=%v", c.l, c.f32), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			X := mat.NewDense(c.l, 784, nil)
			for i := range c.l {
				for j := range 784 {
					X.Set(i, j, rng.Float64())
				}
			}
			fk, err := NewFeatureKernel(kernel.RBF{Gamma: 0.02}, X, nil, nil, c.f32)
			if err != nil {
				b.Fatal(err)
			}
			idx := make([]int, c.l)
			for i := range idx {
				idx[i] = i
			}
			s := fk.Sub(idx)
			row := make([]float64, c.l)
			i := 0
			for b.Loop() {
				s.Row(row, i%c.l, 0)
				i++
			}
			b.ReportMetric(float64(c.l)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}

// BenchmarkTrainSVCRowsMNIST is the row path's side of the comparison with LIBSVM's
// svm-train -t 2 (RBF) on raw MNIST pixels in [0, 1]: the first $SVM_ROWS_N (default
// 5000) digits of $GITUI_DATA/mnist/$SVM_ROWS_PREFIX-* (default train10k; with
// GITUI_DATA=.../mnist-full and SVM_ROWS_PREFIX=train, the official 60,000), C = 10,
// gamma = 0.02, a 1 GiB cache over GOMAXPROCS pairs at once, float32 products; then the
// 10,000 test digits (t10k) from the test × SV kernel. Run with -benchtime 1x. It
// reports train_s, predict_s, test accuracy (%) and the support vectors.
func BenchmarkTrainSVCRowsMNIST(b *testing.B) {
	n := 5000
	if s := os.Getenv("SVM_ROWS_N"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatalf("SVM_ROWS_N=%q: %v", s, err)
		}
	}
	prefix := "train10k"
	if s := os.Getenv("SVM_ROWS_PREFIX"); s != "" {
		prefix = s
	}
	x, y := mnist(b, prefix, n)
	xt, yt := mnist(b, "t10k", 10000)
	X, T := mat.NewDense(n, 784, nil), mat.NewDense(len(xt), 784, nil)
	for i := range x {
		X.SetRow(i, x[i])
	}
	for i := range xt {
		T.SetRow(i, xt[i])
	}
	w := runtime.GOMAXPROCS(0)
	for b.Loop() {
		t0 := time.Now()
		fk, err := NewFeatureKernel(kernel.RBF{Gamma: 0.02}, X, nil, nil, true)
		if err != nil {
			b.Fatal(err)
		}
		m, err := TrainSVCRows(context.Background(), fk, y, 10, &SVCOptions{Workers: w, CacheMB: 1024 / float64(w)})
		if err != nil {
			b.Fatal(err)
		}
		train := time.Since(t0).Seconds()
		t0 = time.Now()
		pred, err := m.PredictFeatures(context.Background(), fk, T, nil)
		if err != nil {
			b.Fatal(err)
		}
		right := 0
		for i, p := range pred {
			if p == yt[i] {
				right++
			}
		}
		b.ReportMetric(train, "train_s")
		b.ReportMetric(time.Since(t0).Seconds(), "predict_s")
		b.ReportMetric(100*float64(right)/float64(len(yt)), "test_%")
		b.ReportMetric(float64(len(m.SV)), "SVs")
	}
}
