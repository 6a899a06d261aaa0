package group

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAffineShearScaleHandValues checks single output pixels of a pure shear and a pure
// scale of a 5×5 image (centre (2, 2)) against bilinear values worked by hand.
func TestAffineShearScaleHandValues(t *testing.T) {
	n := 5
	x := make([]float64, n*n)
	for i := range x {
		x[i] = float64(i*i%17) + 0.25*float64(i) // no symmetry
	}
	at := func(r, c int) float64 { return x[r*n+c] }
	y := make([]float64, n*n)

	// Shear k = 0.3: output (r, c) reads row r, column c + 0.3·(r - 2).
	Affine(n, n, []float64{0}, []float64{0.3}, []float64{1}).Apply(y, x, 0)
	for _, tc := range []struct {
		r, c int
		want float64
	}{
		{0, 2, 0.6*at(0, 1) + 0.4*at(0, 2)}, // column 2 - 0.6 = 1.4
		{4, 3, 0.4*at(4, 3) + 0.6*at(4, 4)}, // column 3 + 0.6 = 3.6
		{2, 1, at(2, 1)},                    // the centre row does not move
		{0, 0, 0},                           // column -0.6: outside, zero fill
		{1, 4, 0.3*at(1, 3) + 0.7*at(1, 4)}, // column 4 - 0.3 = 3.7
	} {
		if got := y[tc.r*n+tc.c]; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("shear 0.3 at (%d,%d): got %v, want %v", tc.r, tc.c, got, tc.want)
		}
	}

	// A vertical stroke at column 2 under shear 0.5 slants like "/": it shows at column
	// 2 - 0.5·(r - 2), i.e. column 3 in row 0 and column 1 in row 4.
	stroke := make([]float64, n*n)
	for r := range n {
		stroke[r*n+2] = 1
	}
	Affine(n, n, []float64{0}, []float64{0.5}, []float64{1}).Apply(y, stroke, 0)
	if y[0*n+3] != 1 || y[4*n+1] != 1 || y[0*n+2] != 0 || y[4*n+2] != 0 {
		t.Errorf("shear 0.5 of a vertical stroke: rows 0 and 4 are %v and %v, want the stroke at columns 3 and 1", y[:n], y[4*n:])
	}

	// Scale z = 2: output (r, c) reads (2 + (r-2)/2, 2 + (c-2)/2).
	Affine(n, n, []float64{0}, []float64{0}, []float64{2}).Apply(y, x, 0)
	for _, tc := range []struct {
		r, c int
		want float64
	}{
		{0, 0, at(1, 1)},
		{0, 1, 0.5*at(1, 1) + 0.5*at(1, 2)},
		{3, 4, 0.5*at(2, 3) + 0.5*at(3, 3)},
		{2, 2, at(2, 2)},
	} {
		if got := y[tc.r*n+tc.c]; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("scale 2 at (%d,%d): got %v, want %v", tc.r, tc.c, got, tc.want)
		}
	}

	// Rotation 90° then shear 0.5 (one element): M = S·R with R = [[0, 1], [-1, 0]], so
	// output (r, c) reads (2 + (c-2), 2 + 0.5·(c-2) - (r-2)). At (0, 3): row 3, column 4.5
	// is outside; at (1, 3): (3, 3.5) between columns 3 and 4.
	Affine(n, n, []float64{90}, []float64{0.5}, []float64{1}).Apply(y, x, 0)
	if got, want := y[1*n+3], 0.5*at(3, 3)+0.5*at(3, 4); math.Abs(got-want) > 1e-12 {
		t.Errorf("rot 90 ∘ shear 0.5 at (1,3): got %v, want %v", got, want)
	}
	if got := y[0*n+3]; got != 0 {
		t.Errorf("rot 90 ∘ shear 0.5 at (0,3): got %v, want 0 (outside)", got)
	}
}

// TestAffineIdentityAndRotationsExact checks that shear 0 and scale 1 leave the
// rotations bit for bit as Rotations computes them (forward and inverse), and that the
// identity element comes first.
func TestAffineIdentityAndRotationsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 28
	x := randVec(rng, n*n)
	y := make([]float64, n*n)
	Affine(n, n, []float64{0}, []float64{0}, []float64{1}).Apply(y, x, 0)
	if !slices.Equal(x, y) {
		t.Fatal("angle 0, shear 0, scale 1 is not the identity exactly")
	}
	deg := []float64{-20, -15, 0, 7.5, 20, 137.5, 90}
	r := Rotations(n, n, deg)
	a := Affine(n, n, deg, []float64{0}, []float64{1})
	if a.Len() != r.Len() {
		t.Fatalf("Len %d, want %d", a.Len(), r.Len())
	}
	want := make([]float64, n*n)
	for k := range r.Len() {
		r.Apply(want, x, k)
		a.Apply(y, x, k)
		if !slices.Equal(y, want) {
			t.Errorf("element %d (angle %v): Apply differs from Rotations", k, r.Degrees()[k])
		}
		r.ApplyInverse(want, x, k)
		a.ApplyInverse(y, x, k)
		if !slices.Equal(y, want) {
			t.Errorf("element %d (angle %v): ApplyInverse differs from Rotations", k, r.Degrees()[k])
		}
	}
	if a.Name() != r.Name() {
		t.Errorf("Name %q, want %q", a.Name(), r.Name())
	}

	// Identity first in every factor; element order angle-major, scale fastest.
	g := Affine(n, n, []float64{-10, 0, 10}, []float64{-0.3, 0, 0.3}, []float64{0.9, 1, 1.1})
	if g.Len() != 27 {
		t.Fatalf("Len %d, want 27", g.Len())
	}
	checkIdentityFirst(t, g, rng)
	for j, want := range map[int][3]float64{0: {0, 0, 1}, 1: {0, 0, 0.9}, 3: {0, -0.3, 1}, 9: {-10, 0, 1}, 26: {10, 0.3, 1.1}} {
		if d, k, z := g.Params(j); [3]float64{d, k, z} != want {
			t.Errorf("Params(%d) = %v %v %v, want %v", j, d, k, z, want)
		}
	}
	if got, want := g.Name(), "rotations[-10,10]/3 x shears[-0.3,0.3]/3 x scales[0.9,1.1]/3 on 28x28"; got != want {
		t.Errorf("Name %q, want %q", got, want)
	}
	// Every element is a different map (on a random image).
	checkDistinct(t, g, rng)
}

// TestAffineComposition checks that element (θ, k, z) is rot_θ ∘ shear_k ∘ scale_z: on a
// smooth bump well inside the image, the single gather is within the bilinear smoothing
// error of applying the three maps one after the other, and the inverse brings it back.
func TestAffineComposition(t *testing.T) {
	n := 28
	x := bump(n, 12, 15, 2) // anisotropic: the order matters
	rot := Rotations(n, n, []float64{20})
	sh := Affine(n, n, []float64{0}, []float64{0.3}, []float64{1})
	sc := Affine(n, n, []float64{0}, []float64{0}, []float64{1.1})
	g := Affine(n, n, []float64{20}, []float64{0.3}, []float64{1.1})
	u, v, chained, one, back := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	sc.Apply(u, x, 0)
	sh.Apply(v, u, 0)
	rot.Apply(chained, v, 0)
	g.Apply(one, x, 0)
	if d := maxAbsDiff(one, chained); d > 0.05 {
		t.Errorf("one gather vs three chained: max difference %v > 0.05 (measured 0.033)", d)
	}
	// The other order (rotation first) is a different map: the test can tell.
	rot.Apply(u, x, 0)
	sh.Apply(v, u, 0)
	sc.Apply(chained, v, 0)
	if d := maxAbsDiff(one, chained); d < 0.08 { // measured 0.108
		t.Errorf("scale ∘ shear ∘ rot is within %v of rot ∘ shear ∘ scale: the test cannot tell the order", d)
	}
	g.ApplyInverse(back, one, 0)
	if d := maxAbsDiff(back, x); d > 0.05 {
		t.Errorf("round trip error %v > 0.05", d)
	}
}

func TestCheckAffine(t *testing.T) {
	for _, tc := range []struct {
		deg, sh, sc []float64
		want        string
	}{
		{[]float64{0}, []float64{0}, []float64{1}, ""},
		{nil, []float64{0}, []float64{1}, "no angles given"},
		{[]float64{0}, nil, []float64{1}, "no shears given"},
		{[]float64{0}, []float64{0}, nil, "no scales given"},
		{[]float64{0}, []float64{0, math.NaN()}, []float64{1}, "shear 1 is NaN"},
		{[]float64{0}, []float64{0.1, 0.1}, []float64{1}, "shears 0 and 1 are equal"},
		{[]float64{0}, []float64{0}, []float64{1, 0}, "scale 1 is 0, not positive"},
		{[]float64{0}, []float64{0}, []float64{1, math.Inf(1)}, "scale 1 is +Inf"},
		{[]float64{0, 360}, []float64{0}, []float64{1}, "equal modulo 360"},
	} {
		err := CheckAffine(tc.deg, tc.sh, tc.sc)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("CheckAffine(%v, %v, %v) = %q, want %q", tc.deg, tc.sh, tc.sc, got, tc.want)
		}
		if tc.want != "" {
			mustPanic(t, "Affine "+tc.want, tc.want, func() { Affine(4, 4, tc.deg, tc.sh, tc.sc) })
		}
	}
}
