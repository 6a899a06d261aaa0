package kernel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randDense(rng *rand.Rand, n, d int) *mat.Dense {
	m := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}

// relErr returns max |a-b| / max(1, max|b|) over all entries.
func relErr(a, b mat.Matrix) float64 {
	r, c := b.Dims()
	if ra, ca := a.Dims(); ra != r || ca != c {
		return math.Inf(1)
	}
	diff, scale := 0.0, 1.0
	for i := range r {
		for j := range c {
			diff = max(diff, math.Abs(a.At(i, j)-b.At(i, j)))
			scale = max(scale, math.Abs(b.At(i, j)))
		}
	}
	return diff / scale
}

// evalGram is the plain definition K_ij = k.Eval(x_i, z_j).
func evalGram(k Base, X, Z *mat.Dense) *mat.Dense {
	n, _ := X.Dims()
	m, _ := Z.Dims()
	out := mat.NewDense(n, m, nil)
	for i := range n {
		for j := range m {
			out.Set(i, j, k.Eval(X.RawRowView(i), Z.RawRowView(j)))
		}
	}
	return out
}

func mustPanic(t *testing.T, name, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", name)
			return
		}
		if msg := fmt.Sprint(r); !strings.HasPrefix(msg, "kernel: ") || !strings.Contains(msg, want) {
			t.Errorf("%s: panic %q, want prefix \"kernel: \" and %q", name, msg, want)
		}
	}()
	f()
}

var testKernels = []Base{Linear{}, RBF{Gamma: 0.07}, Poly{Gamma: 0.3, Degree: 3}}

func TestBaseKernels(t *testing.T) {
	x := []float64{1, 2, -1}
	z := []float64{0.5, -1, 2}
	// By hand: <x,z> = 0.5 - 2 - 2 = -3.5, ||x-z||² = 0.25 + 9 + 9 = 18.25.
	cases := []struct {
		k    Base
		want float64
	}{
		{Linear{}, -3.5},
		{RBF{Gamma: 0.1}, math.Exp(-1.825)},
		{Poly{Gamma: 0.2, Degree: 3}, math.Pow(1-0.7, 3)},
		{Poly{Gamma: 1, Degree: 8}, math.Pow(-2.5, 8)},
	}
	for _, c := range cases {
		// Eval and FromDot agree with the closed forms to rounding (1e-14 relative).
		if got := c.k.Eval(x, z); math.Abs(got-c.want) > 1e-14*max(1, math.Abs(c.want)) {
			t.Errorf("%s Eval = %v, want %v", c.k.Name(), got, c.want)
		}
		if got := c.k.FromDot(-3.5, 6, 5.25); math.Abs(got-c.want) > 1e-14*max(1, math.Abs(c.want)) {
			t.Errorf("%s FromDot = %v, want %v", c.k.Name(), got, c.want)
		}
		if err := c.k.Validate(); err != nil {
			t.Errorf("%s: %v", c.k.Name(), err)
		}
	}
	for _, k := range []Base{RBF{}, RBF{Gamma: -1}, RBF{Gamma: math.NaN()}, Poly{Gamma: 1}, Poly{Gamma: 0, Degree: 2}} {
		err := k.Validate()
		if err == nil || !strings.Contains(err.Error(), ": set ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Validate = %v, want a one-line error with a fix", k.Name(), err)
		}
	}
	mustPanic(t, "Eval lengths", "len(x)", func() { RBF{Gamma: 1}.Eval(x, z[:2]) })
}

func TestGramMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, sz := range []struct{ n, m, d int }{{1, 1, 1}, {37, 23, 11}, {300, 7, 64}, {5, 260, 3}} {
		X := randDense(rng, sz.n, sz.d)
		Z := randDense(rng, sz.m, sz.d)
		for _, k := range testKernels {
			K, err := Gram(context.Background(), k, X, Z)
			if err != nil {
				t.Fatal(err)
			}
			// GEMM vs direct sums: rounding of d-term sums, well below 1e-12 relative.
			if e := relErr(K, evalGram(k, X, Z)); e > 1e-12 {
				t.Errorf("%v %s: Gram vs definition %g", sz, k.Name(), e)
			}
		}
	}
	// Views with stride != columns.
	big := randDense(rng, 50, 30)
	X := big.Slice(3, 40, 5, 17).(*mat.Dense)
	Z := big.Slice(10, 50, 2, 14).(*mat.Dense)
	K, err := Gram(context.Background(), RBF{Gamma: 0.05}, X, Z)
	if err != nil {
		t.Fatal(err)
	}
	if e := relErr(K, evalGram(RBF{Gamma: 0.05}, X, Z)); e > 1e-12 {
		t.Errorf("views: %g", e)
	}
}

func TestSymGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{1, 9, 130, 301} {
		X := randDense(rng, n, 17)
		for _, k := range testKernels {
			S, err := SymGram(context.Background(), k, X)
			if err != nil {
				t.Fatal(err)
			}
			if e := relErr(S, evalGram(k, X, X)); e > 1e-12 {
				t.Errorf("n=%d %s: SymGram vs definition %g", n, k.Name(), e)
			}
			// The raw data is mirrored: a full symmetric row-major matrix.
			raw := S.RawSymmetric()
			for i := range n {
				for j := range n {
					if raw.Data[i*raw.Stride+j] != raw.Data[j*raw.Stride+i] {
						t.Fatalf("n=%d %s: raw data not mirrored at (%d,%d)", n, k.Name(), i, j)
					}
				}
			}
			if _, ok := k.(RBF); ok {
				for i := range n {
					if d := math.Abs(S.At(i, i) - 1); d > 1e-12 {
						t.Fatalf("RBF diagonal %v", S.At(i, i))
					}
				}
			}
		}
	}
}

func TestGramDstErrorsAndCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	X, Z := randDense(rng, 40, 5), randDense(rng, 30, 5)
	ctx := context.Background()
	dst := mat.NewDense(40, 30, nil)
	if err := GramTo(ctx, dst, Linear{}, X, Z); err != nil {
		t.Fatal(err)
	}
	var want mat.Dense
	want.Mul(X, Z.T())
	if e := relErr(dst, &want); e > 1e-13 {
		t.Errorf("GramTo into sized dst: %g", e)
	}
	mustPanic(t, "dst shape", "dst is 30×30", func() { _ = GramTo(ctx, mat.NewDense(30, 30, nil), Linear{}, X, Z) })
	mustPanic(t, "sym dst shape", "dst is 3×3", func() { _ = SymGramTo(ctx, mat.NewSymDense(3, nil), Linear{}, X) })
	mustPanic(t, "columns", "X has 5 columns, Z has 4", func() { _, _ = Gram(ctx, Linear{}, X, randDense(rng, 3, 4)) })

	if _, err := Gram(ctx, RBF{Gamma: 0}, X, Z); err == nil || !strings.Contains(err.Error(), "gamma") {
		t.Errorf("bad gamma: %v", err)
	}
	saved := MaxGramBytes
	MaxGramBytes = 1000
	_, err := Gram(ctx, Linear{}, X, Z)
	_, err2 := SymGram(ctx, Linear{}, X)
	MaxGramBytes = saved
	if !errors.Is(err, ErrGramTooLarge) || !errors.Is(err2, ErrGramTooLarge) {
		t.Errorf("size limit: %v, %v", err, err2)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Gram(cctx, Linear{}, X, Z); err != context.Canceled {
		t.Errorf("cancelled Gram: %v", err)
	}
	if _, err := SymGram(cctx, Linear{}, X); err != context.Canceled {
		t.Errorf("cancelled SymGram: %v", err)
	}
}

func TestMinEigen(t *testing.T) {
	// [[2,1],[1,2]] has eigenvalues 1 and 3; [[1,2],[2,1]] has -1 and 3 (by hand).
	if got := MinEigen(mat.NewSymDense(2, []float64{2, 1, 1, 2})); math.Abs(got-1) > 1e-14 {
		t.Errorf("MinEigen = %v, want 1", got)
	}
	if got := MinEigen(mat.NewSymDense(2, []float64{1, 2, 2, 1})); math.Abs(got+1) > 1e-14 {
		t.Errorf("MinEigen = %v, want -1", got)
	}
	// An RBF Gram matrix of distinct points is positive definite; a linear Gram of 30
	// points in 5 dimensions has rank 5, so its smallest eigenvalue is 0 up to rounding
	// (1e-12 of its largest entry, about 30).
	rng := rand.New(rand.NewPCG(4, 4))
	X := randDense(rng, 30, 5)
	S, _ := SymGram(context.Background(), RBF{Gamma: 0.5}, X)
	if got := MinEigen(S); !(got > 0) {
		t.Errorf("RBF Gram MinEigen = %v, want > 0", got)
	}
	L, _ := SymGram(context.Background(), Linear{}, X)
	if got := MinEigen(L); math.Abs(got) > 1e-12*30 {
		t.Errorf("rank-5 Gram MinEigen = %v, want 0", got)
	}
}
