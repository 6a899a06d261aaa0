package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bruteNearest returns, for each row of x, the squared distances to every row of z by
// the plain definition (no matrix product).
func bruteDist2(x, z *mat.Dense) *mat.Dense {
	m, d := x.Dims()
	n, _ := z.Dims()
	out := mat.NewDense(m, n, nil)
	for i := range m {
		for j := range n {
			s := 0.0
			for c := range d {
				v := x.At(i, c) - z.At(j, c)
				s += v * v
			}
			out.Set(i, j, s)
		}
	}
	return out
}

// TestNNMatchesBruteForce: on continuous data (no ties) the GEMM route picks the same
// neighbour as the plain definition, and its scores are the per-class minimum squared
// distances (rounding of the ||x||²+||z||²-2xᵀz form: 1e-10 relative to ||x||²+||z||²).
func TestNNMatchesBruteForce(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(11, 1))
	const n, m, d, k = 300, 70, 9, 4
	z := mat.NewDense(n, d, nil)
	x := mat.NewDense(m, d, nil)
	y := make([]int, n)
	for i := range n {
		y[i] = rnd.IntN(k)
		for c := range d {
			z.Set(i, c, 3+rnd.NormFloat64())
		}
	}
	for i := range m {
		for c := range d {
			x.Set(i, c, 3+rnd.NormFloat64())
		}
	}
	nn, err := NewNN(z, y, k, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := nn.Neighbours(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := nn.Decision(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	d2 := bruteDist2(x, z)
	for i := range m {
		best := 0
		cmin := []float64{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)}
		for j := range n {
			if d2.At(i, j) < d2.At(i, best) {
				best = j
			}
			cmin[y[j]] = math.Min(cmin[y[j]], d2.At(i, j))
		}
		if idx[i] != best {
			t.Errorf("row %d: neighbour %d (d²=%g), brute force %d (d²=%g)", i, idx[i], d2.At(i, idx[i]), best, d2.At(i, best))
		}
		for c := range k {
			if diff := math.Abs(-sc.At(i, c) - cmin[c]); diff > 1e-10*(1+cmin[c]) {
				t.Errorf("row %d class %d: score %g, want %g", i, c, -sc.At(i, c), cmin[c])
			}
		}
	}
	pred, _ := nn.Predict(ctx, x)
	if got := Argmax(sc); Accuracy(got, pred) != 1 {
		t.Errorf("Predict disagrees with the argmax of Decision without ties")
	}
	// Kernel form with the linear kernel and with a Gaussian kernel.
	var lin mat.Dense
	lin.Mul(x, z.T())
	diag := make([]float64, n)
	for j := range n {
		diag[j] = mat.Dot(z.RowView(j), z.RowView(j))
	}
	knn, err := NewKernelNN(diag, y, k, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	kidx, err := knn.Neighbours(ctx, &lin)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m {
		if kidx[i] != idx[i] {
			t.Errorf("row %d: linear-kernel neighbour %d, feature neighbour %d", i, kidx[i], idx[i])
		}
	}
	const gamma = 0.05
	rbf := mat.NewDense(m, n, nil)
	for i := range m {
		for j := range n {
			rbf.Set(i, j, math.Exp(-gamma*d2.At(i, j)))
		}
	}
	ones := make([]float64, n)
	for j := range ones {
		ones[j] = 1
	}
	knn, _ = NewKernelNN(ones, y, k, rand.New(rand.NewPCG(1, 2)))
	kidx, _ = knn.Neighbours(ctx, rbf)
	for i := range m {
		// The RBF feature distance 2-2exp(-γd²) is monotone in d²: same neighbour.
		if kidx[i] != idx[i] {
			t.Errorf("row %d: RBF-kernel neighbour %d, Euclidean %d", i, kidx[i], idx[i])
		}
	}
}

// TestNNRandomTies: with tied nearest neighbours the choice is random, different seeds
// pick different winners, the frequencies are those of a uniform choice among the tied
// samples, and the result does not depend on GOMAXPROCS.
func TestNNRandomTies(t *testing.T) {
	ctx := context.Background()
	// Training: two samples of class 0 and one of class 1 at squared distance 2 from the
	// query (0,0,1,1) in 0/1 coordinates (exact in floating point), one far sample of class 2.
	z := mat.NewDense(4, 4, []float64{
		1, 0, 1, 1, // class 0, d² = 1
		0, 1, 1, 1, // class 0, d² = 1
		0, 0, 1, 0, // class 1, d² = 1
		1, 1, 0, 0, // class 2, d² = 4
	})
	y := []int{0, 0, 1, 2}
	const reps = 3000
	x := mat.NewDense(reps, 4, nil)
	for i := range reps {
		x.SetRow(i, []float64{0, 0, 1, 1})
	}
	nn, err := NewNN(z, y, 3, rand.New(rand.NewPCG(42, 0)))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := nn.Neighbours(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	count := make([]int, 4)
	for _, j := range idx {
		count[j]++
	}
	// Uniform over the three tied samples: each count is Binomial(3000, 1/3), standard
	// deviation 25.8; 5 sigma = 129 around 1000 fails by chance with probability < 1e-6.
	for j := range 3 {
		if math.Abs(float64(count[j])-reps/3.0) > 129 {
			t.Errorf("tied sample %d chosen %d times of %d, want about %d", j, count[j], reps, reps/3)
		}
	}
	if count[3] != 0 {
		t.Errorf("far sample chosen %d times", count[3])
	}
	// Different seeds pick different winners for a single query.
	seen := map[int]bool{}
	for seed := range uint64(30) {
		nn1, _ := NewNN(z, y, 3, rand.New(rand.NewPCG(seed, 7)))
		j, _ := nn1.Neighbours(ctx, x.Slice(0, 1, 0, 4).(*mat.Dense))
		seen[j[0]] = true
	}
	if len(seen) != 3 {
		t.Errorf("30 seeds chose only %v among the 3 tied samples", seen)
	}
	// Same seed, different GOMAXPROCS: same choices.
	prev := runtime.GOMAXPROCS(1)
	nn1, _ := NewNN(z, y, 3, rand.New(rand.NewPCG(42, 0)))
	idx1, _ := nn1.Neighbours(ctx, x)
	runtime.GOMAXPROCS(prev)
	for i := range idx {
		if idx1[i] != idx[i] {
			t.Fatalf("row %d: choice %d with GOMAXPROCS=1, %d with %d", i, idx1[i], idx[i], prev)
		}
	}
	// Ties only to rounding: z = x ± delta with non-representable decimals.
	xs := mat.NewDense(1, 3, []float64{0.1, 0.3, 0.7})
	zs := mat.NewDense(2, 3, []float64{0.1 + 0.2, 0.3 + 0.1, 0.7 - 0.3, 0.1 - 0.2, 0.3 - 0.1, 0.7 + 0.3})
	got := map[int]bool{}
	for seed := range uint64(40) {
		nn2, _ := NewNN(zs, []int{0, 1}, 2, rand.New(rand.NewPCG(seed, 1)))
		j, _ := nn2.Neighbours(ctx, xs)
		got[j[0]] = true
	}
	if len(got) != 2 {
		t.Errorf("distances equal up to rounding not treated as a tie: only %v chosen", got)
	}
}

func TestNNErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	z := mat.NewDense(2, 2, []float64{0, 1, math.NaN(), 0})
	if _, err := NewNN(z, []int{0, 1}, 2, rng); err == nil {
		t.Error("NaN sample accepted")
	}
	if _, err := NewNN(mat.NewDense(2, 2, nil), []int{0, 2}, 2, rng); err == nil {
		t.Error("label 2 accepted with k = 2")
	}
	if _, err := NewKernelNN([]float64{1, math.Inf(1)}, []int{0, 1}, 2, rng); err == nil {
		t.Error("infinite diagonal accepted")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("nil rng did not panic")
			}
		}()
		NewNN(mat.NewDense(2, 2, nil), []int{0, 1}, 2, nil)
	}()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	nn, _ := NewNN(mat.NewDense(2, 2, nil), []int{0, 1}, 2, rng)
	if _, err := nn.Predict(ctx, mat.NewDense(3, 2, nil)); err != context.Canceled {
		t.Errorf("cancelled Predict: %v", err)
	}
}

func TestMetrics(t *testing.T) {
	y := []int{0, 0, 0, 0, 1, 1, 2, 2}
	p := []int{0, 0, 0, 1, 1, 0, 2, 0}
	// By hand: 5 of 8 correct; recalls 3/4, 1/2, 1/2 -> mean 7/12.
	if a := Accuracy(p, y); a != 5.0/8 {
		t.Errorf("accuracy %g, want 0.625", a)
	}
	if b := BalancedAccuracy(p, y, 4); math.Abs(b-7.0/12) > 1e-15 {
		t.Errorf("balanced accuracy %g, want 7/12 (class 3 absent, skipped)", b)
	}
	cm := ConfusionMatrix(p, y, 3)
	if cm[0][0] != 3 || cm[0][1] != 1 || cm[1][0] != 1 || cm[2][0] != 1 || cm[2][2] != 1 {
		t.Errorf("confusion matrix %v", cm)
	}
	if !math.IsNaN(Accuracy(nil, nil)) {
		t.Error("accuracy of nothing is not NaN")
	}
	yt, err := OneVsAll([]int{1, 0}, 3)
	if err != nil || yt.At(0, 1) != 1 || yt.At(0, 0) != -1 || yt.At(1, 0) != 1 || yt.At(1, 2) != -1 {
		t.Errorf("OneVsAll: %v %v", mat.Formatted(yt), err)
	}
	if _, err := OneVsAll([]int{3}, 3); err == nil {
		t.Error("OneVsAll accepted label 3 with k = 3")
	}
	if a := Argmax(mat.NewDense(2, 3, []float64{1, 3, 3, math.NaN(), -1, -2})); a[0] != 1 || a[1] != 1 {
		t.Errorf("Argmax %v, want [1 1]", a)
	}
}
