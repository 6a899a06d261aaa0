package kernel

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/group"
)

// shiftImage returns x (h×w, row-major) moved dy rows down and dx columns right:
// wrapping around (cyclic), or on an (h+2r)×(w+2r) zero canvas centred on the image,
// where a shift of at most r loses no pixel (zero fill). Plain index arithmetic, the
// reference for the group package's and the GEMM path's shifts.
func shiftImage(x []float64, h, w, r, dy, dx int, cyclic bool) []float64 {
	if cyclic {
		out := make([]float64, h*w)
		for y := range h {
			for c := range w {
				out[y*w+c] = x[((y-dy)%h+h)%h*w+((c-dx)%w+w)%w]
			}
		}
		return out
	}
	H, W := h+2*r, w+2*r
	out := make([]float64, H*W)
	for y := range h {
		for c := range w {
			out[(y+r+dy)*W+c+r+dx] = x[y*w+c]
		}
	}
	return out
}

// padImage returns x centred on an (h+2r)×(w+2r) zero canvas.
func padImage(x []float64, h, w, r int) []float64 { return shiftImage(x, h, w, r, 0, 0, false) }

// naiveLocalTI is the definition of the ±r TI (TI-RI with angles) kernel: k0 of every
// explicitly shifted (rotated, then shifted) copy of x against z, pooled by max or mean.
// Zero fill works on the (h+2r)×(w+2r) canvas, where rotations turn the padded image.
func naiveLocalTI(k0 Base, fit Fit, x, z []float64, h, w, r int, cyclic bool, angles []float64) float64 {
	H, W := h, w
	if !cyclic {
		H, W = h+2*r, w+2*r
	}
	zc := z
	if !cyclic {
		zc = padImage(z, h, w, r)
	}
	var copies [][]float64
	if angles == nil {
		copies = [][]float64{x}
	} else {
		R := group.Rotations(H, W, angles)
		src := x
		if !cyclic {
			src = padImage(x, h, w, r)
		}
		for i := range R.Len() {
			rx := make([]float64, H*W)
			R.Apply(rx, src, i)
			copies = append(copies, rx)
		}
	}
	best, sum, n := math.Inf(-1), 0.0, 0
	for _, c := range copies {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				var sx []float64
				switch {
				case cyclic:
					sx = shiftImage(c, h, w, 0, dy, dx, true)
				case angles == nil:
					sx = shiftImage(c, h, w, r, dy, dx, false)
				default: // shift the rotated canvas image with zero fill on the canvas
					sx = make([]float64, H*W)
					for y := range H {
						for cc := range W {
							if sy, sc := y-dy, cc-dx; sy >= 0 && sy < H && sc >= 0 && sc < W {
								sx[y*W+cc] = c[sy*W+sc]
							}
						}
					}
				}

				v := k0.Eval(sx, zc)
				best = max(best, v)
				sum += v
				n++
			}
		}
	}
	if fit == BestFit {
		return best
	}
	return sum / float64(n)
}

// randValues returns n rows of d values, uniform in [0, 1) if nonneg, else Gaussian.
func randValues(rng *rand.Rand, n, d int, nonneg bool) *mat.Dense {
	X := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			if nonneg {
				X.Set(i, j, rng.Float64())
			} else {
				X.Set(i, j, rng.NormFloat64())
			}
		}
	}
	return X
}

// newLiuT returns the Liu kernel of o, failing t on an error.
func newLiuT(t *testing.T, o LiuOptions) *Liu {
	t.Helper()
	k, err := NewLiu(o)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestLiuLocalTIDefinition checks the ±k TI and TI-RI kernels (Shifts k > 0 without a
// locality kernel, the GEMM path) against their definition, max or mean of k0 over
// explicitly shifted copies built by index arithmetic, to 1e-10 relative: SymGram,
// Gram (test × training) and SelfValues, for linear, odd and even polynomial and RBF
// bases, best and average fit, cyclic and zero-fill shifts, on non-square 5×7 images
// (TI) and 6×6 ones (TI-RI, rotations -15, 0, 15 degrees). Values are Gaussian, so even
// polynomials see negative products.
func TestLiuLocalTIDefinition(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(8, 1))
	bases := map[string]Base{
		"linear": Linear{},
		"poly3":  Poly{Gamma: 0.05, Degree: 3},
		"poly4":  Poly{Gamma: 0.05, Degree: 4},
		"rbf":    RBF{Gamma: 0.02},
	}
	type tc struct {
		inv     Invariance
		tr      Translation
		k, h, w int
	}
	cases := []tc{
		{TI, ZeroFill, 1, 5, 7}, {TI, ZeroFill, 3, 5, 7}, {TI, Cyclic, 1, 5, 7}, {TI, Cyclic, 2, 5, 7},
		{TIRI, ZeroFill, 2, 6, 6}, {TIRI, Cyclic, 1, 6, 6},
	}
	for bn, b := range bases {
		for _, fit := range []Fit{BestFit, AverageFit} {
			for _, c := range cases {
				o := LiuOptions{H: c.h, W: c.w, Base: b, Invariance: c.inv, Fit: fit, Translation: c.tr, Shifts: c.k}
				var ang []float64
				if c.inv == TIRI {
					ang = group.AngleRange(-15, 15, 3)
					o.Rotations = ang
				}
				name := fmt.Sprintf("%s %v %v %v ±%d", bn, fit, c.inv, c.tr, c.k)
				k := newLiuT(t, o)
				X := randValues(rng, 5, c.h*c.w, false)
				Z := randValues(rng, 4, c.h*c.w, false)
				ref := func(x, z []float64) float64 {
					return naiveLocalTI(b, fit, x, z, c.h, c.w, c.k, c.tr == Cyclic, ang)
				}
				S, err := k.SymGram(ctx, Z)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				C, err := k.Gram(ctx, X, Z)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				self, err := k.SelfValues(ctx, X)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for i := range 4 {
					for j := i; j < 4; j++ {
						// SymGram computes i <= j and mirrors it.
						if v, want := S.At(i, j), ref(Z.RawRowView(i), Z.RawRowView(j)); !relClose(v, want, 1e-10) {
							t.Errorf("%s: SymGram (%d,%d) = %.15g, definition %.15g", name, i, j, v, want)
						}
					}
				}
				for i := range 5 {
					for j := range 4 {
						if v, want := C.At(i, j), ref(X.RawRowView(i), Z.RawRowView(j)); !relClose(v, want, 1e-10) {
							t.Errorf("%s: Gram (%d,%d) = %.15g, definition %.15g", name, i, j, v, want)
						}
					}
					if v, want := self[i], ref(X.RawRowView(i), X.RawRowView(i)); !relClose(v, want, 1e-10) {
						t.Errorf("%s: SelfValues %d = %.15g, definition %.15g", name, i, v, want)
					}
				}
			}
		}
	}
}

// TestLiuLocalTICoversFull checks the ±k kernels against the full translation range
// (the FFT path, Shifts 0), to 1e-10 relative:
//   - zero fill with k = h-1 on square images with pixels >= 0 covers every shift that
//     overlaps; the full 2h×2w canvas adds only shifts without overlap (<S·x, z> = 0),
//     which never win the best fit of an increasing base there, so the best-fit
//     matrices are equal (linear, poly, RBF). The linear average fit differs only in the
//     count, (2h-1)² shifts against 4h²: mean_k·(2h-1)² = mean_full·4h².
//   - cyclic with k = 2 on 5×5 images is all 25 cyclic shifts: equal for every base,
//     both fits, and for TI-RI too (Gaussian pixel values).
//   - best fit grows with k: K_1 <= K_2 <= K_full entrywise (zero fill, linear).
func TestLiuLocalTICoversFull(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(8, 2))
	gram := func(o LiuOptions, X *mat.Dense) *mat.SymDense {
		t.Helper()
		S, err := newLiuT(t, o).SymGram(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		return S
	}
	same := func(name string, a, b *mat.SymDense, scale float64) {
		t.Helper()
		n := a.SymmetricDim()
		for i := range n {
			for j := range n {
				if !relClose(a.At(i, j)*scale, b.At(i, j), 1e-10) {
					t.Errorf("%s: (%d,%d) = %.15g, full range %.15g", name, i, j, a.At(i, j)*scale, b.At(i, j))
				}
			}
		}
	}
	const h = 6
	Xp := randValues(rng, 6, h*h, true)
	for _, b := range []Base{Linear{}, Poly{Gamma: 0.05, Degree: 3}, Poly{Gamma: 0.05, Degree: 4}, RBF{Gamma: 0.02}} {
		o := LiuOptions{H: h, W: h, Base: b, Invariance: TI, Fit: BestFit, Translation: ZeroFill}
		full := gram(o, Xp)
		o.Shifts = h - 1
		same(fmt.Sprintf("zero-fill ±%d %s best", h-1, b.Name()), gram(o, Xp), full, 1)
	}
	lin := LiuOptions{H: h, W: h, Base: Linear{}, Invariance: TI, Fit: AverageFit, Translation: ZeroFill}
	full := gram(lin, Xp)
	lin.Shifts = h - 1
	same("zero-fill linear average, rescaled by the count", gram(lin, Xp), full, float64((2*h-1)*(2*h-1))/float64(4*h*h))

	Xg := randValues(rng, 6, 25, false)
	for _, b := range []Base{Linear{}, Poly{Gamma: 0.05, Degree: 4}, RBF{Gamma: 0.02}} {
		for _, inv := range []Invariance{TI, TIRI} {
			for _, fit := range []Fit{BestFit, AverageFit} {
				o := LiuOptions{H: 5, W: 5, Base: b, Invariance: inv, Fit: fit, Translation: Cyclic}
				if inv == TIRI {
					o.Rotations = group.AngleRange(-20, 20, 3)
				}
				full := gram(o, Xg)
				o.Shifts = 2
				same(fmt.Sprintf("cyclic ±2 on 5x5 %s %v %v", b.Name(), inv, fit), gram(o, Xg), full, 1)
			}
		}
	}

	o := LiuOptions{H: h, W: h, Base: Linear{}, Invariance: TI, Fit: BestFit, Translation: ZeroFill}
	Xz := randValues(rng, 6, h*h, false)
	kFull := gram(o, Xz)
	o.Shifts = 1
	k1 := gram(o, Xz)
	o.Shifts = 2
	k2 := gram(o, Xz)
	for i := range 6 {
		for j := range 6 {
			if a, b, c := k1.At(i, j), k2.At(i, j), kFull.At(i, j); a > b+1e-12 || b > c+1e-12 {
				t.Errorf("(%d,%d): K_1 %.15g, K_2 %.15g, K_full %.15g: want K_1 <= K_2 <= K_full", i, j, a, b, c)
			}
		}
	}
}

// TestLiuOptionErrors checks that NewLiu refuses bad options with one line naming the
// setting and its fix, and accepts the limits.
func TestLiuOptionErrors(t *testing.T) {
	poly := Poly{Gamma: 0.01, Degree: 3}
	loc := &Locality{H: 6, W: 6, K1: 3, D1: 2, D2: 2}
	bad := []struct {
		o    LiuOptions
		want string
	}{
		{LiuOptions{}, "no base kernel"},
		{LiuOptions{Base: Poly{Gamma: 0, Degree: 3}}, "gamma"},
		{LiuOptions{Base: poly, Fit: Fit(7)}, "fit"},
		{LiuOptions{Base: poly, Invariance: TI, H: 1, W: 6}, "at least 2x2"},
		{LiuOptions{Base: poly, Invariance: RI, H: 4, W: 6, Rotations: []float64{0, 10}}, "pad or crop the images to 6x6"},
		{LiuOptions{Base: poly, Invariance: RI, H: 6, W: 6}, "rotation angles or a polar grid"},
		{LiuOptions{Base: poly, Invariance: TIRI, H: 6, W: 6, Polar: &PolarOptions{Annuli: 2, Sectors: 8}}, "polar RI cannot be combined with TI"},
		{LiuOptions{Base: poly, Invariance: RI, H: 6, W: 6, Locality: loc, Polar: &PolarOptions{Annuli: 2, Sectors: 8}}, "drop polar"},
		{LiuOptions{Base: poly, Invariance: TI, H: 6, W: 6, Shifts: 3}, "at most 2 with cyclic"},
		{LiuOptions{Base: poly, Invariance: TI, H: 6, W: 6, Shifts: 6, Translation: ZeroFill}, "at most 5 with zero-fill"},
		{LiuOptions{Base: poly, Invariance: TI, H: 6, W: 6, Shifts: -1}, "negative"},
		{LiuOptions{Base: poly, Invariance: TI, H: 6, W: 6, Group: group.Dihedral(6)}, "replaces TI, RI and the locality kernel"},
		{LiuOptions{Base: poly, Invariance: TI, H: 6, W: 6, Locality: loc}, "set shifts to a radius >= 1"},
		{LiuOptions{Base: poly, H: 6, W: 7, Locality: loc}, "set its H and W"},
	}
	for _, c := range bad {
		_, err := NewLiu(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: err = %v, want one line containing %q", c.o, err, c.want)
		}
	}
	for _, o := range []LiuOptions{
		{Base: poly, Invariance: TI, H: 6, W: 6, Shifts: 2},
		{Base: poly, Invariance: TI, H: 6, W: 6, Shifts: 5, Translation: ZeroFill},
		{Base: poly, Invariance: RI, H: 4, W: 6, Polar: &PolarOptions{Annuli: 2, Sectors: 8}},
		{Base: poly, Invariance: TI, H: 4, W: 6},
	} {
		if _, err := NewLiu(o); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// TestLiuGroupBestFit: with a Group, Liu's kernel is the definition max (mean) over g of
// k0(g·x, z), symmetric, and invariant on both sides to the group (the dihedral group of
// 6x6 images, acting by permutations): K(a·x, b·z) = K(x, z) for every a, b in G, to
// 1e-12 relative; SelfValues equals Gram's diagonal.
func TestLiuGroupBestFit(t *testing.T) {
	const h = 6
	G := group.Dihedral(h)
	rng := rand.New(rand.NewPCG(3, 4))
	X := mat.NewDense(5, h*h, nil)
	for i := range 5 {
		for j := range h * h {
			X.Set(i, j, rng.Float64())
		}
	}
	ctx := context.Background()
	for _, base := range []Base{Poly{Gamma: 0.5, Degree: 3}, RBF{Gamma: 0.2}, Linear{}} {
		for _, fit := range []Fit{BestFit, AverageFit} {
			k, err := NewLiu(LiuOptions{Base: base, Fit: fit, Group: G})
			if err != nil {
				t.Fatal(err)
			}
			K, err := k.Gram(ctx, X, X)
			if err != nil {
				t.Fatal(err)
			}
			S, err := k.SymGram(ctx, X)
			if err != nil {
				t.Fatal(err)
			}
			self, err := k.SelfValues(ctx, X)
			if err != nil {
				t.Fatal(err)
			}
			gx := make([]float64, h*h)
			gz := make([]float64, h*h)
			for i := range 5 {
				for j := range 5 {
					x, z := X.RawRowView(i), X.RawRowView(j)
					want, sum := math.Inf(-1), 0.0
					for g := range G.Len() {
						G.Apply(gx, x, g)
						v := base.Eval(gx, z)
						want = math.Max(want, v)
						sum += v
					}
					if fit == AverageFit {
						want = sum / float64(G.Len())
					}
					tol := 1e-12 * math.Max(1, math.Abs(want))
					if d := math.Abs(K.At(i, j) - want); d > tol {
						t.Fatalf("%s %v: K(%d,%d) = %g, definition %g", base.Name(), fit, i, j, K.At(i, j), want)
					}
					if d := math.Abs(S.At(i, j) - want); d > tol {
						t.Fatalf("%s %v: SymGram(%d,%d) = %g, definition %g", base.Name(), fit, i, j, S.At(i, j), want)
					}
					for a := range G.Len() {
						b := (a*3 + 1) % G.Len()
						G.Apply(gx, x, a)
						G.Apply(gz, z, b)
						A, err := k.Gram(ctx, mat.NewDense(1, h*h, gx), mat.NewDense(1, h*h, gz))
						if err != nil {
							t.Fatal(err)
						}
						if d := math.Abs(A.At(0, 0) - want); d > tol {
							t.Fatalf("%s %v: K(g%d x%d, g%d x%d) = %g, K(x, z) = %g", base.Name(), fit, a, i, b, j, A.At(0, 0), want)
						}
					}
				}
				if d := math.Abs(self[i] - K.At(i, i)); d > 1e-12*math.Max(1, math.Abs(self[i])) {
					t.Fatalf("%s %v: SelfValues[%d] = %g, Gram %g", base.Name(), fit, i, self[i], K.At(i, i))
				}
			}
		}
	}
}
