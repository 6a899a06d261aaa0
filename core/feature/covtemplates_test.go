package feature

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sqrtCovTarget returns S^{1/2} / tr S^{1/2} for S the covariance (divided by n) of x's rows.
func sqrtCovTarget(t *testing.T, x *mat.Dense) *mat.SymDense {
	n, d := x.Dims()
	mu := make([]float64, d)
	for i := range n {
		for k, v := range x.RawRowView(i) {
			mu[k] += v / float64(n)
		}
	}
	s := mat.NewSymDense(d, nil)
	for i := range n {
		row := x.RawRowView(i)
		for a := range d {
			for b := a; b < d; b++ {
				s.SetSym(a, b, s.At(a, b)+(row[a]-mu[a])*(row[b]-mu[b])/float64(n))
			}
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(s, true) {
		t.Fatal("eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vec mat.Dense
	eig.VectorsTo(&vec)
	out := mat.NewSymDense(d, nil)
	var tr float64
	for k, l := range vals {
		h := math.Sqrt(math.Max(l, 0))
		tr += h
		for a := range d {
			for b := a; b < d; b++ {
				out.SetSym(a, b, out.At(a, b)+h*vec.At(a, k)*vec.At(b, k))
			}
		}
	}
	out.ScaleSym(1/tr, out)
	return out
}

// TestCovarianceTemplates: the templates' empirical covariance approaches S^{1/2}/tr S^{1/2}
// for the pool's covariance S. Two pools of 500 rows in d = 6, drawn x = μ + A z with a
// fixed random A: full rank with r = 6 >= d, and rank 3 with r = 3 (the sketch holds all of
// S, so Ŝ = S in both). Over M = 40,000 templates each entry of the estimate has a standard
// deviation below 0.004 (entries of the target are at most 1), so 0.02 is 5 sigma; the
// white-noise covariance I/d misses the target by more than that (checked, so the test can
// fail). In the rank-3 pool two coordinates are constant: templates have nothing there (they
// lie in the span of the centred pool rows, below 1e-12).
func TestCovarianceTemplates(t *testing.T) {
	const d, n, M = 6, 500, 40000
	for _, tc := range []struct{ rank, r int }{{6, 6}, {3, 3}} {
		src := rand.New(rand.NewPCG(7, uint64(tc.rank)))
		a := mat.NewDense(d, tc.rank, nil)
		for i := range d {
			for j := range tc.rank {
				a.Set(i, j, src.NormFloat64()*float64(j+1))
			}
		}
		if tc.rank < d {
			for j := range tc.rank {
				a.Set(4, j, 0)
				a.Set(5, j, 0)
			}
		}
		x := mat.NewDense(n, d, nil)
		z := make([]float64, tc.rank)
		for i := range n {
			for j := range z {
				z[j] = src.NormFloat64()
			}
			for k := range d {
				v := 0.7
				for j := range z {
					v += a.At(k, j) * z[j]
				}
				x.Set(i, k, v)
			}
		}
		tp, err := CovarianceTemplates(x, M, tc.r, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		emp := mat.NewDense(d, d, nil)
		emp.Mul(tp.T(), tp)
		emp.Scale(1/float64(M), emp)
		want := sqrtCovTarget(t, x)
		var maxErr, maxWhite float64
		for i := range d {
			for j := range d {
				maxErr = math.Max(maxErr, math.Abs(emp.At(i, j)-want.At(i, j)))
				w := 0.0
				if i == j {
					w = 1.0 / d
				}
				maxWhite = math.Max(maxWhite, math.Abs(w-want.At(i, j)))
			}
		}
		if maxErr > 0.02 {
			t.Errorf("rank %d: templates' covariance is %.4f from S^(1/2)/tr S^(1/2) at worst, want <= 0.02", tc.rank, maxErr)
		}
		if maxWhite <= 0.02 {
			t.Fatalf("rank %d: the target is within %.4f of white noise: the test cannot tell them apart", tc.rank, maxWhite)
		}
		if tc.rank < d {
			for j := range M {
				if v := math.Max(math.Abs(tp.At(j, 4)), math.Abs(tp.At(j, 5))); v > 1e-12 {
					t.Fatalf("template %d has %g where no pool row varies", j, v)
				}
			}
		}
	}
}

// TestCovarianceTemplatesSketch: with the rank r below the rank of S the templates keep
// E||t||^2 = 1 (tr Ŝ^{1/2} is what they are scaled by): the mean squared norm over 20,000
// templates in d = 40, r = 5, is 1 within 0.03 (its standard deviation is below 0.01).
func TestCovarianceTemplatesSketch(t *testing.T) {
	const d, n, M = 40, 300, 20000
	src := rand.New(rand.NewPCG(3, 4))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for k := range d {
			x.Set(i, k, src.NormFloat64()/float64(k+1))
		}
	}
	tp, err := CovarianceTemplates(x, M, 5, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	var ss float64
	for j := range M {
		for _, v := range tp.RawRowView(j) {
			ss += v * v
		}
	}
	if got := ss / M; math.Abs(got-1) > 0.03 {
		t.Errorf("mean squared norm %.4f, want 1 +- 0.03", got)
	}
}

// TestCovarianceTemplatesNoSpread: identical rows are refused with a message that says what to do.
func TestCovarianceTemplatesNoSpread(t *testing.T) {
	x := mat.NewDense(10, 4, nil)
	for i := range 10 {
		x.SetRow(i, []float64{1, 2, 3, 4})
	}
	_, err := CovarianceTemplates(x, 3, 2, rand.New(rand.NewPCG(1, 1)))
	if err == nil || !strings.Contains(err.Error(), "no spread") {
		t.Fatalf("err = %v, want a 'no spread' error", err)
	}
}

// TestBoxSmooth: box-smoothing white noise drawn from a seeded stream gives exactly
// SmoothTemplates from the same stream (the same filter, the same unit-norm scaling).
func TestBoxSmooth(t *testing.T) {
	const m, h, w, r = 5, 9, 7, 2
	src := rand.New(rand.NewPCG(9, 9))
	z := mat.NewDense(m, h*w, nil)
	for j := range m {
		row := z.RawRowView(j)
		for i := range row {
			row[i] = src.NormFloat64()
		}
	}
	got := BoxSmooth(z, h, w, r)
	want := SmoothTemplates(m, h, w, r, rand.New(rand.NewPCG(9, 9)))
	if !mat.EqualApprox(got, want, 1e-12) {
		t.Errorf("BoxSmooth of white noise differs from SmoothTemplates")
	}
}
