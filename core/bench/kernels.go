package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"time"

	"gitui/core/data"
	"gitui/core/kernel"
	"gitui/core/learn"
	"gitui/core/linalg"

	"gonum.org/v1/gonum/mat"
)

// Files of dataDir that [TIGram], [TestGram] and [SMO] read besides [MNISTTrainImages].
const (
	MNISTTrainLabels = "mnist/train10k-labels-idx1-ubyte.gz"
	MNISTTestImages  = "mnist/t10k-images-idx3-ubyte.gz"
)

// inputErrorf returns a [data.InputError] (bad input: sizes, a missing or bad data file)
// wrapping fmt.Errorf(format, a...).
func inputErrorf(format string, a ...any) error { return data.InputErr(fmt.Errorf(format, a...)) }

// tiCheckTol bounds |FFT - definition| relative to max(1, |definition|) in the self-checks:
// both are float64 sums of 784 products of values in [0, 1], accurate to ~1e-13.
const tiCheckTol = 1e-9

// TIGram times the TI best-fit Gram matrix over all 784 cyclic 2-D shifts on the
// workload of the scipy peer (../shared/bench/ti_gram.py --n N):
//
//	K_ij = max over shifts s of <roll(a_i, s), a_j>,   i <= j,
//
// for n distinct random images a_i of dataDir/mnist/train10k (pixels/255, the first n
// of a PCG(0, 0) permutation: the peer's numpy draw cannot be reproduced, and the time
// does not depend on the digits). The timed part is the spectra of the n images plus
// the upper triangle of pairs (kernel.NewSpectra, kernel.CyclicSymGram, which mirrors
// it, so the full n×n matrix is ready at this time; the peer's "full" line computes
// every pair instead). Seconds is that wall time, Throughput is n(n+1)/2 pairs/s;
// Params holds n, pairs, us_per_pair, shifts, the spectra time spectra_s, fft (the
// implementation, kernel.Cyclic28Impl), blas and gomaxprocs. After timing, entries of the result (first, last, a middle row, the
// diagonal) are compared with the plain definition (784 shifted inner products).
//
// It returns an [data.InputError] for n < 1, n above the 10,000 images of the pool or a
// missing or bad data file, ctx.Err() if cancelled.
func TIGram(ctx context.Context, dataDir string, n int) (Result, error) {
	if n < 1 {
		return Result{}, inputErrorf("bench ti-gram: n = %d images: pass --n >= 1", n)
	}
	x, _, err := pool(dataDir, n, false)
	if err != nil {
		return Result{}, fmt.Errorf("bench ti-gram: %w", err)
	}
	return timeTI(ctx, "ti-gram", nil, x, map[string]any{"n": n})
}

// TestGram times the TI best-fit test Gram (see [TIGram]) of the first `test` images of
// dataDir/mnist/t10k against n training images chosen as in TIGram, the workload of
// ../shared/bench/ti_gram.py --n N --test T:
//
//	K_ij = max over shifts s of <roll(t_i, s), a_j>,   i < test, j < n.
//
// The timed part is the spectra of both sets and all test·n pairs (kernel.CyclicGram).
// Throughput is pairs/s; Params holds test, n, pairs, us_per_pair, shifts, spectra_s,
// fft, blas and gomaxprocs. After timing, entries of the result are compared with the plain
// definition.
//
// It returns an [data.InputError] for test < 1 or n < 1, sizes above the 10,000 images of
// either file or a missing or bad data file, ctx.Err() if cancelled.
func TestGram(ctx context.Context, dataDir string, test, n int) (Result, error) {
	switch {
	case test < 1:
		return Result{}, inputErrorf("bench test-gram: test = %d images: pass --test >= 1", test)
	case n < 1:
		return Result{}, inputErrorf("bench test-gram: n = %d training images: pass --n >= 1", n)
	}
	x, _, err := pool(dataDir, n, false)
	if err != nil {
		return Result{}, fmt.Errorf("bench test-gram: %w", err)
	}
	t, err := loadImages(filepath.Join(dataDir, MNISTTestImages), test, "--test")
	if err != nil {
		return Result{}, fmt.Errorf("bench test-gram: %w", asInput(err))
	}
	return timeTI(ctx, "test-gram", t, x, map[string]any{"test": test, "n": n})
}

// timeTI times the TI best-fit Gram of the rows of t against those of x (t nil: of x
// with itself, the upper triangle through kernel.CyclicSymGram), spectra included, and
// checks entries against the definition ([checkTI]). The Result is named name and its
// Params are params plus pairs, shifts, us_per_pair, spectra_s, fft, blas and
// gomaxprocs.
func timeTI(ctx context.Context, name string, t, x *mat.Dense, params map[string]any) (Result, error) {
	n, _ := x.Dims()
	pairs := float64(n) * float64(n+1) / 2
	rows := x
	if t != nil {
		rows = t
		r, _ := t.Dims()
		pairs = float64(r) * float64(n)
	}
	start := time.Now()
	var T *kernel.Spectra
	if t != nil {
		var err error
		if T, err = kernel.NewSpectra(ctx, 28, 28, kernel.Shift2D, t, nil); err != nil {
			return Result{}, err
		}
	}
	A, err := kernel.NewSpectra(ctx, 28, 28, kernel.Shift2D, x, nil)
	if err != nil {
		return Result{}, err
	}
	spec := time.Since(start).Seconds()
	var K mat.Matrix
	if t == nil {
		K, err = kernel.CyclicSymGram(ctx, kernel.Linear{}, kernel.BestFit, A)
	} else {
		K, err = kernel.CyclicGram(ctx, kernel.Linear{}, kernel.BestFit, T, A)
	}
	if err != nil {
		return Result{}, err
	}
	wall := time.Since(start).Seconds()
	if err := checkTI(name, K, rows, x); err != nil {
		return Result{}, err
	}
	params["pairs"], params["shifts"], params["us_per_pair"] = int(pairs), 784, wall/pairs*1e6
	params["spectra_s"], params["fft"] = spec, kernel.Cyclic28Impl()
	return Result{Name: name, Seconds: wall, Throughput: pairs / wall, Unit: "pairs/s", Params: withMachine(params)}, nil
}

// withMachine adds the BLAS in use (blas), the float64 GEMM behind it (dgemm:
// linalg.DgemmImpl), in the openblas build its version and kernel set (blas_core), and
// GOMAXPROCS (gomaxprocs) to params and returns it.
func withMachine(params map[string]any) map[string]any {
	params["blas"], params["gomaxprocs"] = linalg.BLAS(), runtime.GOMAXPROCS(0)
	params["dgemm"] = linalg.DgemmImpl()
	if c := linalg.BLASCore(); c != "" {
		params["blas_core"] = c
	}
	return params
}

// SMO times the training of a 10-class one-vs-one C-SVC (learn.TrainSVC, LIBSVM's SMO,
// C = 1000, eps = 1e-3, shrinking) on a precomputed n×n Gram, the workload of
// ../shared/bench/svm_precomputed.sh N:
//
//	K_ij = (1 + <x_i, x_j>/784)^8   (polynomial, degree 8, gamma 1/784, pixels/255),
//
// on n training images chosen as in [TIGram] with their labels. If gramFile is not
// empty, the Gram and labels are read from it instead (LIBSVM's precomputed-kernel
// format, such as the gram-N.libsvm the peer writes, so both train on the identical
// matrix); n must then be 0 or the file's size. Only the training is timed (the peer's
// svm-train time also includes parsing its file). Throughput is SMO iterations/s over
// all 45 pairs; Params holds n, classes, C, iterations, n_sv, gram (the file or
// "generated"), prepare_s (computing or reading the Gram), blas and gomaxprocs.
// Before timing, generated Gram entries are compared with the definition on a few
// pairs (a file's matrix is checked for symmetry); after, every pair's dual solution
// is checked for feasibility (0 <= a_i <= C and sum y_i a_i = 0).
//
// It returns an [data.InputError] for n < 2 (without a file), n above the pool, a missing or
// bad data file or Gram file, a Gram file that is not symmetric or has fewer than two
// classes; ctx.Err() if cancelled.
func SMO(ctx context.Context, dataDir string, n int, gramFile string) (Result, error) {
	const C = 1000
	start := time.Now()
	var (
		K   *mat.SymDense
		y   []int
		src = "generated"
	)
	if gramFile != "" {
		ds, err := data.LoadPrecomputedKernel(gramFile)
		if err != nil {
			return Result{}, fmt.Errorf("bench smo: %w", data.InputErr(err))
		}
		if n != 0 && n != ds.Len() {
			return Result{}, inputErrorf("bench smo: %s holds a %d×%d Gram, n = %d asked for: drop --n or pass --n %d", gramFile, ds.Len(), ds.Len(), n, ds.Len())
		}
		if K, err = symmetric(ds.X, gramFile); err != nil {
			return Result{}, fmt.Errorf("bench smo: %w", err)
		}
		y, n, src = ds.Y, ds.Len(), gramFile
	} else {
		if n < 2 {
			return Result{}, inputErrorf("bench smo: n = %d training images: pass --n >= 2", n)
		}
		x, lab, err := pool(dataDir, n, true)
		if err != nil {
			return Result{}, fmt.Errorf("bench smo: %w", err)
		}
		k0 := kernel.Poly{Gamma: 1.0 / 784, Degree: 8}
		if K, err = kernel.SymGram(ctx, k0, x); err != nil {
			return Result{}, err
		}
		if err := checkPoly(K, x); err != nil {
			return Result{}, err
		}
		y = lab
	}
	prep := time.Since(start).Seconds()
	start = time.Now()
	m, err := learn.TrainSVC(ctx, K, y, C, nil)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return Result{}, err
		}
		return Result{}, fmt.Errorf("bench smo: %w", data.InputErr(err))
	}
	wall := time.Since(start).Seconds()
	iters := 0
	for _, p := range m.Pairs {
		iters += p.Iter
		if err := checkDual(p, C); err != nil {
			return Result{}, err
		}
	}
	return Result{
		Name:       "smo",
		Seconds:    wall,
		Throughput: float64(iters) / wall,
		Unit:       "SMO-iter/s",
		Params: withMachine(map[string]any{
			"n": n, "classes": m.Classes(), "C": C, "iterations": iters, "n_sv": len(m.SV),
			"gram": src, "prepare_s": prep,
		}),
	}, nil
}

// pool returns n distinct images of the 10k training pool (pixels/255), the first n of
// a PCG(0, 0) permutation, and with labels also their labels.
func pool(dataDir string, n int, labels bool) (*mat.Dense, []int, error) {
	all, err := loadImages(filepath.Join(dataDir, MNISTTrainImages), 0, "--n")
	if err != nil {
		return nil, nil, asInput(err)
	}
	N, d := all.Dims()
	if n > N {
		return nil, nil, inputErrorf("the pool %s holds %d images, %d asked for: pass --n <= %d", MNISTTrainImages, N, n, N)
	}
	var lab []uint8
	if labels {
		path := filepath.Join(dataDir, MNISTTrainLabels)
		if lab, err = loadLabels(path); err != nil {
			return nil, nil, asInput(err)
		}
		if len(lab) != N {
			return nil, nil, inputErrorf("%s holds %d labels for %d images: use the labels file that belongs to the images", path, len(lab), N)
		}
	}
	perm := rand.New(rand.NewPCG(0, 0)).Perm(N)[:n]
	x := mat.NewDense(n, d, nil)
	var y []int
	for i, p := range perm {
		x.SetRow(i, all.RawRowView(p))
		if labels {
			y = append(y, int(lab[p]))
		}
	}
	return x, y, nil
}

// asInput marks a data-loading error as a [data.InputError] unless it already is one.
func asInput(err error) error {
	var ie *data.InputError
	if errors.As(err, &ie) {
		return err
	}
	return data.InputErr(err)
}

// loadLabels reads an IDX labels file.
func loadLabels(path string) ([]uint8, error) {
	f, err := openMNIST(path, "labels")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lab, err := data.ReadIDXLabels(f)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	return lab, nil
}

// corrMax is the plain definition: max over the 784 cyclic shifts s of <roll(a, s), b>
// for 28×28 images.
func corrMax(a, b []float64) float64 {
	best := math.Inf(-1)
	for dy := range 28 {
		for dx := range 28 {
			s := 0.0
			for y := range 28 {
				ra := a[((y+dy)%28)*28:]
				rb := b[y*28 : y*28+28]
				for c, v := range rb {
					s += ra[(c+dx)%28] * v
				}
			}
			best = max(best, s)
		}
	}
	return best
}

// checkTI compares entries of K (rows of a against rows of b) with [corrMax]: the
// corners, the middle row's last column and a diagonal entry.
func checkTI(name string, K mat.Matrix, a, b *mat.Dense) error {
	r, c := K.Dims()
	for _, p := range [][2]int{{0, 0}, {0, c - 1}, {r / 2, c - 1}, {r - 1, c - 1}, {r - 1, 0}, {min(r, c) / 2, min(r, c) / 2}} {
		want := corrMax(a.RawRowView(p[0]), b.RawRowView(p[1]))
		if got := K.At(p[0], p[1]); math.Abs(got-want) > tiCheckTol*max(1, math.Abs(want)) {
			return fmt.Errorf("bench %s: self-check failed at (%d, %d): FFT %v, definition %v: this is a bug, please report it", name, p[0], p[1], got, want)
		}
	}
	return nil
}

// checkPoly compares a few entries of the generated Gram with (1 + <x_i, x_j>/784)^8.
func checkPoly(K *mat.SymDense, x *mat.Dense) error {
	n := K.SymmetricDim()
	for _, p := range [][2]int{{0, 0}, {0, n - 1}, {n / 2, n - 1}, {n - 1, n - 1}} {
		want := math.Pow(1+mat.Dot(x.RowView(p[0]), x.RowView(p[1]))/784, 8)
		if got := K.At(p[0], p[1]); math.Abs(got-want) > 1e-12*want {
			return fmt.Errorf("bench smo: self-check failed at (%d, %d): Gram %v, definition %v: this is a bug, please report it", p[0], p[1], got, want)
		}
	}
	return nil
}

// symmetric returns the upper triangle of the square matrix k as a SymDense after
// checking |k_ij - k_ji| <= 1e-9·max(1, |k_ij|) (a file written with 15 digits by a
// BLAS GEMM is symmetric to about 1e-15).
func symmetric(k *mat.Dense, file string) (*mat.SymDense, error) {
	n, _ := k.Dims()
	s := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			v, w := k.At(i, j), k.At(j, i)
			if math.Abs(v-w) > 1e-9*max(1, math.Abs(v)) {
				return nil, inputErrorf("%s: K(%d,%d) = %v but K(%d,%d) = %v: the Gram must be symmetric", file, i+1, j+1, v, j+1, i+1, w)
			}
			s.SetSym(i, j, v)
		}
	}
	return s, nil
}

// checkDual checks a pair's dual solution: |coef_s| = a_s in (0, C] and
// sum_s coef_s = sum_s y_s a_s = 0, within the solver's rounding.
func checkDual(p learn.SVCPair, C float64) error {
	sum, scale := 0.0, 0.0
	for _, c := range p.Coef {
		if a := math.Abs(c); a == 0 || a > C*(1+1e-12) {
			return fmt.Errorf("bench smo: pair (%d, %d): support-vector coefficient %v outside (0, C = %v]: this is a bug, please report it", p.I, p.J, c, C)
		}
		sum += c
		scale += math.Abs(c)
	}
	if math.Abs(sum) > 1e-9*max(1, scale) {
		return fmt.Errorf("bench smo: pair (%d, %d): sum of y_i a_i = %v, not 0: this is a bug, please report it", p.I, p.J, sum)
	}
	return nil
}
