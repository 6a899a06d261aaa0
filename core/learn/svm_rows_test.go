package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/kernel"
)

// rowsProblem is a generated problem for the row path: 4 classes in 37 dimensions
// (not a multiple of 16, so packed panels have tails), 333 training and 120 test points,
// labels 0..3 (the TrainSVC order is by first appearance), with per-point scales.
func rowsProblem(seed uint64) (X, T *mat.Dense, y, yt []int, scale, tscale []float64) {
	rng := rand.New(rand.NewPCG(seed, seed))
	const d = 37
	centres := make([][]float64, 4)
	for c := range centres {
		centres[c] = make([]float64, d)
		for j := range centres[c] {
			centres[c][j] = 0.7 * rng.NormFloat64()
		}
	}
	x, y := blobsAt(333+120, centres, 0, rng)
	X, T = mat.NewDense(333, d, nil), mat.NewDense(120, d, nil)
	for i := range x {
		if i < 333 {
			X.SetRow(i, x[i])
		} else {
			T.SetRow(i-333, x[i])
		}
	}
	scale, tscale = make([]float64, 333), make([]float64, 120)
	for i := range scale {
		scale[i] = 0.5 + rng.Float64()
	}
	for i := range tscale {
		tscale[i] = 0.5 + rng.Float64()
	}
	return X, T, y[:333], y[333:], scale, tscale
}

// gramFromRows returns the n×n Gram matrix whose upper triangle is the rows of k in
// the natural order: exactly the values TrainSVCRows reads.
func gramFromRows(k SVCKernel) *mat.SymDense {
	n := k.Len()
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	s := k.Sub(idx)
	g := mat.NewSymDense(n, nil)
	row := make([]float64, n)
	for i := range n {
		s.Row(row[i:], i, i)
		for j := i; j < n; j++ {
			g.SetSym(i, j, row[j])
		}
	}
	return g
}

func sameModel(t *testing.T, name string, got, want *SVC) {
	t.Helper()
	if !slices.Equal(got.SV, want.SV) || !mat.Equal(got.Coef, want.Coef) || !slices.Equal(got.Rho, want.Rho) {
		t.Errorf("%s: model differs from the Gram path's (SV %d vs %d)", name, len(got.SV), len(want.SV))
		return
	}
	for p := range got.Pairs {
		if got.Pairs[p].Iter != want.Pairs[p].Iter {
			t.Errorf("%s: pair %d took %d iterations, the Gram path %d", name, p, got.Pairs[p].Iter, want.Pairs[p].Iter)
		}
	}
}

func testBases() []kernel.Base {
	return []kernel.Base{kernel.RBF{Gamma: 0.05}, kernel.Poly{Gamma: 0.02, Degree: 3}, kernel.Linear{}}
}

// TestSVMRowsEqualsGram: on the same kernel values (the Gram matrix filled from the row
// source itself) TrainSVCRows returns the model of TrainSVC bit for bit, SMO iterations
// included, for every base kernel, float32 and float64 products, shrinking on and off,
// a cache of two rows (every row recomputed, prefixes extended after shrinking) and
// several pairs at once; the solver's steps depend on the kernel values only.
func TestSVMRowsEqualsGram(t *testing.T) {
	X, _, y, _, scale, _ := rowsProblem(3)
	for _, base := range testBases() {
		for _, f32 := range []bool{false, true} {
			fk, err := NewFeatureKernel(base, X, nil, scale, f32)
			if err != nil {
				t.Fatal(err)
			}
			g := gramFromRows(fk)
			for _, o := range []SVCOptions{{Workers: 1}, {NoShrinking: true, Workers: 1}, {CacheMB: 1e-6, Workers: 3}, {CacheMB: 1e-6, NoShrinking: true, Workers: 2}} {
				name := fmt.Sprintf("%s f32=%v shrink=%v cache=%g", base.Name(), f32, !o.NoShrinking, o.CacheMB)
				want, err := TrainSVC(context.Background(), g, y, 10, &o)
				if err != nil {
					t.Fatal(err)
				}
				got, err := TrainSVCRows(context.Background(), fk, y, 10, &o)
				if err != nil {
					t.Fatal(err)
				}
				sameModel(t, name, got, want)
			}
		}
	}
}

// TestSVMRowsAgainstSymGram compares the row path with the engine's precomputed path,
// TrainSVC on kernel.SymGram's float64 Gram matrix times s_a s_b, and the decision
// values of DecisionValuesFeatures with DecisionValues on kernel.Gram's test kernel.
// float64 products: the rows equal the Gram's to rounding (1e-12), so after the float32
// rounding the models agree (support vectors identical, coefficients within 1e-6 C,
// biases within 1e-6); float32 products: inner products differ by about 1e-7 relative,
// so a float32 kernel value can differ by an ulp and the steps with it (measured here:
// decision values within 1e-6); bounds of 1e-3 C on coefficients and 1e-4 on biases and
// decision values leave room for that, well inside the solver's eps = 1e-3.
// Predictions are identical in both.
func TestSVMRowsAgainstSymGram(t *testing.T) {
	X, T, y, _, scale, tscale := rowsProblem(4)
	const C = 10
	ctx := context.Background()
	for _, base := range testBases() {
		g, err := kernel.SymGram(ctx, base, X)
		if err != nil {
			t.Fatal(err)
		}
		n := len(y)
		for a := range n {
			for b := a; b < n; b++ {
				g.SetSym(a, b, scale[a]*scale[b]*g.At(a, b))
			}
		}
		kt, err := kernel.Gram(ctx, base, T, X)
		if err != nil {
			t.Fatal(err)
		}
		for i := range len(tscale) {
			row := kt.RawRowView(i)
			for a := range row {
				row[a] = tscale[i] * scale[a] * row[a]
			}
		}
		want, err := TrainSVC(ctx, g, y, C, nil)
		if err != nil {
			t.Fatal(err)
		}
		wdec, _ := want.DecisionValues(ctx, kt)
		for _, f32 := range []bool{false, true} {
			name := fmt.Sprintf("%s f32=%v", base.Name(), f32)
			fk, err := NewFeatureKernel(base, X, nil, scale, f32)
			if err != nil {
				t.Fatal(err)
			}
			got, err := TrainSVCRows(ctx, fk, y, C, &SVCOptions{CacheMB: 0.05})
			if err != nil {
				t.Fatal(err)
			}
			coefTol, rhoTol, decTol := 1e-6*C, 1e-6, 1e-5
			if f32 {
				coefTol, rhoTol, decTol = 1e-3*C, 1e-4, 1e-4
			}
			if !f32 && !slices.Equal(got.SV, want.SV) {
				t.Errorf("%s: %d support vectors, the Gram path %d", name, len(got.SV), len(want.SV))
			}
			for p := range got.Rho {
				if d := math.Abs(got.Rho[p] - want.Rho[p]); d > rhoTol {
					t.Errorf("%s: pair %d rho %g, Gram path %g", name, p, got.Rho[p], want.Rho[p])
				}
			}
			coef := func(m *SVC, a, p int) float64 {
				if s, ok := slices.BinarySearch(sortedSV(m), a); ok {
					return m.Coef.At(svRow(m, s), p)
				}
				return 0
			}
			for a := range n {
				for p := range got.Rho {
					if d := math.Abs(coef(got, a, p) - coef(want, a, p)); d > coefTol {
						t.Fatalf("%s: coefficient of point %d in pair %d: %g, Gram path %g", name, a, p, coef(got, a, p), coef(want, a, p))
					}
				}
			}
			dec, err := got.DecisionValuesFeatures(ctx, fk, T, tscale)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d SV (Gram path %d), decision values within %.2g", name, len(got.SV), len(want.SV), maxAbsDiff(dec, wdec))
			if d := maxAbsDiff(dec, wdec); d > decTol {
				t.Errorf("%s: decision values differ from the Gram path's by %g > %g", name, d, decTol)
			}
			if !slices.Equal(got.Vote(dec), want.Vote(wdec)) {
				t.Errorf("%s: predictions differ from the Gram path's", name)
			}
			// The same model on the full test kernel: DecisionValuesFeatures is
			// DecisionValues without the test × training matrix.
			full, _ := got.DecisionValues(ctx, kt)
			tol := 1e-9
			if f32 {
				tol = 1e-4 // test products in float32
			}
			if d := maxAbsDiff(dec, full); d > tol {
				t.Errorf("%s: DecisionValuesFeatures differs from DecisionValues by %g > %g", name, d, tol)
			}
		}
	}
}

// sortedSV returns m.SV sorted (the SV are grouped by class); svRow maps a position in
// it back to the row of Coef.
func sortedSV(m *SVC) []int {
	s := slices.Clone(m.SV)
	slices.Sort(s)
	return s
}

func svRow(m *SVC, s int) int {
	a := sortedSV(m)[s]
	return slices.Index(m.SV, a)
}

func maxAbsDiff(a, b *mat.Dense) float64 {
	r, c := a.Dims()
	var d float64
	for i := range r {
		for j := range c {
			d = math.Max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

// TestSVMRowsProgressAndCancel: Progress ends with every pair done and the total of the
// pairs' iterations; a cancelled context stops training with ctx.Err().
func TestSVMRowsProgressAndCancel(t *testing.T) {
	X, _, y, _, _, _ := rowsProblem(5)
	fk, err := NewFeatureKernel(kernel.RBF{Gamma: 0.05}, X, nil, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var last SVCProgress
	calls := 0
	m, err := TrainSVCRows(context.Background(), fk, y, 10, &SVCOptions{Workers: 2, Progress: func(p SVCProgress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Iter < last.Iter || p.PairsDone < last.PairsDone {
			t.Errorf("progress went back: %+v after %+v", p, last)
		}
		last = p
		calls++
	}})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, p := range m.Pairs {
		total += p.Iter
	}
	if last.PairsDone != 6 || last.Pairs != 6 || last.Iter != total || calls < 6 {
		t.Errorf("last progress %+v after %d calls, want 6 of 6 pairs and %d iterations", last, calls, total)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TrainSVCRows(ctx, fk, y, 10, nil); err != context.Canceled {
		t.Errorf("cancelled training returned %v, want context.Canceled", err)
	}
}

// TestFeatureKernelErrors: bad rows, scales and kernels are refused with a message.
func TestFeatureKernelErrors(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	for _, tc := range []struct {
		name  string
		base  kernel.Base
		rows  []int
		scale []float64
	}{
		{"row outside", kernel.Linear{}, []int{0, 3}, nil},
		{"scale length", kernel.Linear{}, nil, []float64{1}},
		{"scale zero", kernel.Linear{}, nil, []float64{1, 0, 1}},
		{"bad gamma", kernel.RBF{}, nil, nil},
	} {
		if _, err := NewFeatureKernel(tc.base, X, tc.rows, tc.scale, false); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	X.Set(1, 1, math.Inf(1))
	if _, err := NewFeatureKernel(kernel.Linear{}, X, nil, nil, false); err == nil {
		t.Error("infinite feature: no error")
	}
}
