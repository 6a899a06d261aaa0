package model

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/group"
	"gitui/core/kernel"
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
func naiveLocalTI(k0 kernel.Base, fit kernel.Fit, x, z []float64, h, w, r int, cyclic bool, angles []float64) float64 {
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
	if fit == kernel.BestFit {
		return best
	}
	return sum / float64(n)
}

func randDense(rng *rand.Rand, n, d int, nonneg bool) *mat.Dense {
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

// closeRel reports |a - b| <= tol·max(1, |b|).
func closeRel(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(b)) }

// TestLocalTIDefinition checks the ±k TI and TI-RI kernels (shifts k on a kernel without
// locality, the GEMM path) against their definition, max or mean of k0 over explicitly
// shifted copies built by index arithmetic, to 1e-10 relative: the training Gram (sym),
// the test × training matrix (cross) and the test samples' own values (selfValues), for
// linear, odd and even polynomial and RBF bases, best and average fit, cyclic and
// zero-fill shifts, on non-square 5×7 images (TI) and 6×6 ones (TI-RI, rotations
// -15, 0, 15 degrees). Values are Gaussian, so even polynomials see negative products.
func TestLocalTIDefinition(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(8, 1))
	bases := map[string]Method{
		"linear": {Kernel: "linear"},
		"poly3":  {Kernel: "poly", Gamma: 0.05, Degree: 3},
		"poly4":  {Kernel: "poly", Gamma: 0.05, Degree: 4},
		"rbf":    {Kernel: "rbf", Gamma: 0.02},
	}
	type tc struct {
		inv, tr string
		k, h, w int
	}
	cases := []tc{
		{"TI", "zero-fill", 1, 5, 7}, {"TI", "zero-fill", 3, 5, 7}, {"TI", "cyclic", 1, 5, 7}, {"TI", "cyclic", 2, 5, 7},
		{"TI-RI", "zero-fill", 2, 6, 6}, {"TI-RI", "cyclic", 1, 6, 6},
	}
	angles := &AngleSpec{From: -15, To: 15, Count: 3}
	for bn, b := range bases {
		for _, fit := range []string{"best", "average"} {
			for _, c := range cases {
				m := b
				m.Name, m.Learner, m.C = "m", "svm", 1
				m.Invariance, m.Fit, m.Translation, m.Shifts = c.inv, fit, c.tr, c.k
				var ang []float64
				if c.inv == "TI-RI" {
					m.Rotations = angles
					ang = group.AngleRange(-15, 15, 3)
				}
				name := fmt.Sprintf("%s %s %s %s ±%d", bn, fit, c.inv, c.tr, c.k)
				k, err := newLiuKernel(m, []int{c.h, c.w})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				kf := kernel.BestFit
				if fit == "average" {
					kf = kernel.AverageFit
				}
				X := randDense(rng, 5, c.h*c.w, false)
				Z := randDense(rng, 4, c.h*c.w, false)
				ref := func(x, z []float64) float64 {
					return naiveLocalTI(k.base, kf, x, z, c.h, c.w, c.k, c.tr == "cyclic", ang)
				}
				S, err := k.sym(ctx, Z)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				C, err := k.cross(ctx, X, Z)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				self, err := k.selfValues(ctx, X)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for i := range 4 {
					for j := i; j < 4; j++ {
						// sym computes i <= j and mirrors it.
						if v, want := S.At(i, j), ref(Z.RawRowView(i), Z.RawRowView(j)); !closeRel(v, want, 1e-10) {
							t.Errorf("%s: sym (%d,%d) = %.15g, definition %.15g", name, i, j, v, want)
						}
					}
				}
				for i := range 5 {
					for j := range 4 {
						if v, want := C.At(i, j), ref(X.RawRowView(i), Z.RawRowView(j)); !closeRel(v, want, 1e-10) {
							t.Errorf("%s: cross (%d,%d) = %.15g, definition %.15g", name, i, j, v, want)
						}
					}
					if v, want := self[i], ref(X.RawRowView(i), X.RawRowView(i)); !closeRel(v, want, 1e-10) {
						t.Errorf("%s: self value %d = %.15g, definition %.15g", name, i, v, want)
					}
				}
			}
		}
	}
}

// TestLocalTICoversFull checks the ±k kernels against the full translation range (the
// FFT path, shifts 0), to 1e-10 relative:
//   - zero fill with k = h-1 on square images with pixels >= 0 covers every shift that
//     overlaps; the full 2h×2w canvas adds only shifts without overlap (<S·x, z> = 0),
//     which never win the best fit of an increasing base there, so the best-fit
//     matrices are equal (linear, poly, RBF). The linear average fit differs only in the
//     count, (2h-1)² shifts against 4h²: mean_k·(2h-1)² = mean_full·4h².
//   - cyclic with k = 2 on 5×5 images is all 25 cyclic shifts: equal for every base,
//     both fits, and for TI-RI too (Gaussian pixel values).
//   - best fit grows with k: K_1 <= K_2 <= K_full entrywise (zero fill, linear).
func TestLocalTICoversFull(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(8, 2))
	gram := func(m Method, shape []int, X *mat.Dense) *mat.SymDense {
		t.Helper()
		m.Name, m.Learner, m.C = "m", "svm", 1
		k, err := newLiuKernel(m, shape)
		if err != nil {
			t.Fatal(err)
		}
		S, err := k.sym(ctx, X)
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
				if !closeRel(a.At(i, j)*scale, b.At(i, j), 1e-10) {
					t.Errorf("%s: (%d,%d) = %.15g, full range %.15g", name, i, j, a.At(i, j)*scale, b.At(i, j))
				}
			}
		}
	}
	const h = 6
	Xp := randDense(rng, 6, h*h, true)
	for _, b := range []Method{{Kernel: "linear"}, {Kernel: "poly", Gamma: 0.05, Degree: 3}, {Kernel: "poly", Gamma: 0.05, Degree: 4}, {Kernel: "rbf", Gamma: 0.02}} {
		m := b
		m.Invariance, m.Fit, m.Translation = "TI", "best", "zero-fill"
		full := gram(m, []int{h, h}, Xp)
		m.Shifts = h - 1
		same(fmt.Sprintf("zero-fill ±%d %s best", h-1, b.Kernel), gram(m, []int{h, h}, Xp), full, 1)
	}
	lin := Method{Kernel: "linear", Invariance: "TI", Fit: "average", Translation: "zero-fill"}
	full := gram(lin, []int{h, h}, Xp)
	lin.Shifts = h - 1
	same("zero-fill linear average, rescaled by the count", gram(lin, []int{h, h}, Xp), full, float64((2*h-1)*(2*h-1))/float64(4*h*h))

	Xg := randDense(rng, 6, 25, false)
	for _, b := range []Method{{Kernel: "linear"}, {Kernel: "poly", Gamma: 0.05, Degree: 4}, {Kernel: "rbf", Gamma: 0.02}} {
		for _, inv := range []string{"TI", "TI-RI"} {
			for _, fit := range []string{"best", "average"} {
				m := b
				m.Invariance, m.Fit, m.Translation = inv, fit, "cyclic"
				if inv == "TI-RI" {
					m.Rotations = &AngleSpec{From: -20, To: 20, Count: 3}
				}
				full := gram(m, []int{5, 5}, Xg)
				m.Shifts = 2
				same(fmt.Sprintf("cyclic ±2 on 5x5 %s %s %s", b.Kernel, inv, fit), gram(m, []int{5, 5}, Xg), full, 1)
			}
		}
	}

	m := Method{Kernel: "linear", Invariance: "TI", Fit: "best", Translation: "zero-fill"}
	Xz := randDense(rng, 6, h*h, false)
	kFull := gram(m, []int{h, h}, Xz)
	m.Shifts = 1
	k1 := gram(m, []int{h, h}, Xz)
	m.Shifts = 2
	k2 := gram(m, []int{h, h}, Xz)
	for i := range 6 {
		for j := range 6 {
			if a, b, c := k1.At(i, j), k2.At(i, j), kFull.At(i, j); a > b+1e-12 || b > c+1e-12 {
				t.Errorf("(%d,%d): K_1 %.15g, K_2 %.15g, K_full %.15g: want K_1 <= K_2 <= K_full", i, j, a, b, c)
			}
		}
	}
}
