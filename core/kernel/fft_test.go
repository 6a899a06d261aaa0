package kernel

import (
	"context"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// naiveDFT is the definition X[k] = sum_t x[t]·exp(∓2πi·k·t/n) for one column.
func naiveDFT(x []complex128, inverse bool) []complex128 {
	n := len(x)
	out := make([]complex128, n)
	sg := -1.0
	if inverse {
		sg = 1
	}
	for k := range n {
		var s complex128
		for t, v := range x {
			s += v * cmplx.Rect(1, sg*2*math.Pi*float64((k*t)%n)/float64(n))
		}
		out[k] = s
	}
	return out
}

// TestFFTPlanMatchesDFT: every length 1..72 (all radix kernels and the generic prime
// path), batch width 3, both directions, against the O(n²) definition; the error bound
// 1e-12·sqrt(n)·max|X| is a few hundred ulps, far below what a wrong twiddle gives.
func TestFFTPlanMatchesDFT(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const L = 3
	for n := 1; n <= 72; n++ {
		p := newFFTPlan(n)
		for _, inv := range []bool{false, true} {
			x := make([]complex128, n*L)
			for i := range x {
				x[i] = complex(rng.NormFloat64(), rng.NormFloat64())
			}
			cols := make([][]complex128, L)
			for c := range L {
				cols[c] = make([]complex128, n)
				for i := range n {
					cols[c][i] = x[i*L+c]
				}
				cols[c] = naiveDFT(cols[c], inv)
			}
			got := p.transform(x, make([]complex128, n*L), L, inv)
			for c := range L {
				scale := 0.0
				for _, v := range cols[c] {
					scale = max(scale, cmplx.Abs(v))
				}
				for i := range n {
					if d := cmplx.Abs(got[i*L+c] - cols[c][i]); d > 1e-12*math.Sqrt(float64(n))*scale {
						t.Fatalf("n=%d inverse=%v col %d k=%d: got %v want %v", n, inv, c, i, got[i*L+c], cols[c][i])
					}
				}
			}
		}
	}
}

// naiveFit is the plain definition max (or mean) over g in G of k(g·x, z).
func naiveFit(k Pairwise, G group.Action, fit Fit, x, z []float64) float64 {
	gx := make([]float64, len(x))
	best, sum := math.Inf(-1), 0.0
	for i := range G.Len() {
		G.Apply(gx, x, i)
		v := k.Eval(gx, z)
		best = max(best, v)
		sum += v
	}
	if fit == BestFit {
		return best
	}
	return sum / float64(G.Len())
}

func naiveFitGram(k Pairwise, G group.Action, fit Fit, X, Z *mat.Dense) *mat.Dense {
	n, _ := X.Dims()
	m, _ := Z.Dims()
	out := mat.NewDense(n, m, nil)
	for i := range n {
		for j := range m {
			out.Set(i, j, naiveFit(k, G, fit, X.RawRowView(i), Z.RawRowView(j)))
		}
	}
	return out
}

// randImages returns n h×w images with pixels uniform in [0,1), about half of them 0
// (digit-like sparsity), plus a few negative ones when signed.
func randImages(rng *rand.Rand, n, h, w int, signed bool) *mat.Dense {
	X := mat.NewDense(n, h*w, nil)
	raw := X.RawMatrix().Data
	for i := range raw {
		if rng.Float64() < 0.5 {
			raw[i] = rng.Float64()
			if signed && rng.Float64() < 0.3 {
				raw[i] = -raw[i]
			}
		}
	}
	return X
}

// relClose reports |a-b| <= tol·max(1, |b|).
func relClose(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(b)) }

func requireClose(t *testing.T, what string, got, want mat.Matrix, tol float64) {
	t.Helper()
	r, c := want.Dims()
	gr, gc := got.Dims()
	if r != gr || c != gc {
		t.Fatalf("%s: got %dx%d, want %dx%d", what, gr, gc, r, c)
	}
	for i := range r {
		for j := range c {
			if g, w := got.At(i, j), want.At(i, j); !relClose(g, w, tol) {
				t.Fatalf("%s: [%d,%d] = %.17g, want %.17g", what, i, j, g, w)
			}
		}
	}
}

var testBases = []Base{Linear{}, Poly{Gamma: 0.3, Degree: 3}, Poly{Gamma: 0.3, Degree: 4}, RBF{Gamma: 0.05}, customBase{}}

// customBase is a Base the FFT path does not recognise (evaluated at every shift).
type customBase struct{}

func (customBase) Name() string                    { return "custom" }
func (customBase) Eval(x, z []float64) float64     { return math.Cos(dot(x, z)) }
func (customBase) FromDot(d, _, _ float64) float64 { return math.Cos(d) }
func (customBase) Validate() error                 { return nil }

// TestCyclicGramMatchesDefinition: the FFT path equals the definition over all cyclic
// shifts (group.AllCyclicShifts, or column shifts) to 1e-9 relative, for even and odd
// sizes (the row-pair packing), every pooling kind, best and average fit, with and
// without a set of copies.
func TestCyclicGramMatchesDefinition(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	sizes := [][2]int{{6, 8}, {5, 7}, {7, 4}, {1, 6}, {4, 1}, {28, 28}}
	for _, hw := range sizes {
		h, w := hw[0], hw[1]
		n, m := 20, 4 // n > colsBatch: several column batches in the symmetric case
		if h*w > 100 {
			n, m = 2, 3
		}
		X := randImages(rng, n, h, w, true)
		Z := randImages(rng, m, h, w, true)
		colShifts := make([][2]int, w)
		for s := range w {
			colShifts[s] = [2]int{0, s}
		}
		for _, mode := range []CyclicMode{Shift2D, ShiftCols} {
			var G group.Action = group.AllCyclicShifts(h, w)
			if mode == ShiftCols {
				G = group.CyclicShifts(h, w, colShifts)
			}
			A, err := NewSpectra(ctx, h, w, mode, X, nil)
			if err != nil {
				t.Fatal(err)
			}
			B, err := NewSpectra(ctx, h, w, mode, Z, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, k0 := range testBases {
				for _, fit := range []Fit{BestFit, AverageFit} {
					got, err := CyclicGram(ctx, k0, fit, A, B)
					if err != nil {
						t.Fatal(err)
					}
					want := naiveFitGram(k0, G, fit, X, Z)
					requireClose(t, mode.String()+" "+k0.Name()+" "+fit.String(), got, want, 1e-9)
					S, err := CyclicSymGram(ctx, k0, fit, A)
					if err != nil {
						t.Fatal(err)
					}
					requireClose(t, "sym "+mode.String()+" "+k0.Name()+" "+fit.String(), S, naiveFitGram(k0, G, fit, X, X), 1e-9)
				}
			}
		}
	}
}

// TestCyclicGramCopies: with a set T of copies (rotations: TI-RI), the FFT path equals
// the definition over Product(all cyclic shifts, T) (rotate first, then shift).
func TestCyclicGramCopies(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	const h, w = 9, 10
	X := randImages(rng, 4, h, w, false)
	Z := randImages(rng, 3, h, w, false)
	T := group.Rotations(h, w, []float64{0, -15, 15, 30})
	G := group.Product(group.AllCyclicShifts(h, w), T)
	A, err := NewSpectra(ctx, h, w, Shift2D, X, T)
	if err != nil {
		t.Fatal(err)
	}
	B, err := NewSpectra(ctx, h, w, Shift2D, Z, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k0 := range testBases {
		for _, fit := range []Fit{BestFit, AverageFit} {
			got, err := CyclicGram(ctx, k0, fit, A, B)
			if err != nil {
				t.Fatal(err)
			}
			requireClose(t, "copies "+k0.Name()+" "+fit.String(), got, naiveFitGram(k0, G, fit, X, Z), 1e-9)
		}
	}
	// The symmetric builder computes the upper triangle of the same kernel.
	S, err := CyclicSymGram(ctx, Poly{Gamma: 0.1, Degree: 8}, BestFit, A)
	if err != nil {
		t.Fatal(err)
	}
	full := naiveFitGram(Poly{Gamma: 0.1, Degree: 8}, G, BestFit, X, X)
	for i := range 4 {
		for j := i; j < 4; j++ {
			if !relClose(S.At(i, j), full.At(i, j), 1e-9) || S.At(j, i) != S.At(i, j) {
				t.Fatalf("sym [%d,%d] = %g, want %g", i, j, S.At(i, j), full.At(i, j))
			}
		}
	}
}

// TestCyclicInvariance: for the full cyclic group the best- and average-fit kernels are
// exactly invariant (up to rounding) under shifting either argument, and the
// symmetric builder equals the rectangular one.
func TestCyclicInvariance(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	const h, w = 12, 10
	X := randImages(rng, 6, h, w, false)
	G := group.AllCyclicShifts(h, w)
	SX := mat.NewDense(6, h*w, nil)
	for i := range 6 {
		G.Apply(SX.RawRowView(i), X.RawRowView(i), rng.IntN(G.Len()))
	}
	A, _ := NewSpectra(ctx, h, w, Shift2D, X, nil)
	AS, _ := NewSpectra(ctx, h, w, Shift2D, SX, nil)
	for _, fit := range []Fit{BestFit, AverageFit} {
		k0 := Poly{Gamma: 0.05, Degree: 8}
		K, _ := CyclicGram(ctx, k0, fit, A, A)
		K1, _ := CyclicGram(ctx, k0, fit, AS, A)
		K2, _ := CyclicGram(ctx, k0, fit, A, AS)
		S, _ := CyclicSymGram(ctx, k0, fit, A)
		requireClose(t, "shift x", K1, K, 1e-12)
		requireClose(t, "shift z", K2, K, 1e-12)
		requireClose(t, "sym", S, K, 1e-12)
	}
}
