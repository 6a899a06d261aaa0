package group

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// rot2 returns the 2×2 rotation by deg degrees, optionally followed by the reflection
// y -> -y, row-major.
func rot2(deg float64, reflect bool) []float64 {
	c, s := math.Cos(deg*math.Pi/180), math.Sin(deg*math.Pi/180)
	m := []float64{c, -s, s, c}
	if reflect {
		m[2], m[3] = -m[2], -m[3]
	}
	return m
}

// hexagonal returns the dihedral group of order 12 in 2-D, rotations by 60° first,
// without the identity (which NewLinearSet adds).
func hexagonal() []float64 {
	var m []float64
	for k := range 6 {
		for _, r := range []bool{false, true} {
			if k == 0 && !r {
				continue
			}
			m = append(m, rot2(float64(60*k), r)...)
		}
	}
	return m
}

func TestLinearSetGroup(t *testing.T) {
	ctx := context.Background()
	s, err := NewLinearSet(ctx, hexagonal(), 11, 2, "D6")
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 12 || !s.Closed() || !strings.HasPrefix(s.Describe(), "a group of 12 elements") {
		t.Fatalf("%d elements, %q", s.Len(), s.Describe())
	}
	rng := rand.New(rand.NewPCG(1, 1))
	x := randVec(rng, 2)
	y, z := make([]float64, 2), make([]float64, 2)
	s.Apply(y, x, 0)
	if maxAbsDiff(x, y) != 0 {
		t.Error("element 0 is not the identity")
	}
	for i := range s.Len() {
		s.Apply(y, x, i)
		s.ApplyInverse(z, y, i)
		if e := maxAbsDiff(x, z); e > 1e-14 {
			t.Errorf("element %d: inverse error %g", i, e)
		}
	}
	// OrbitTo and ApplyRows (one BLAS call) agree with Apply.
	o := Orbit(s, x)
	for i := range s.Len() {
		s.Apply(y, x, i)
		if maxAbsDiff(o.RawRowView(i), y) > 1e-15 {
			t.Fatalf("Orbit row %d differs from Apply", i)
		}
	}
	X := mat.NewDense(5, 2, randVec(rng, 10))
	R := ApplyRows(s, X, 3)
	for r := range 5 {
		s.Apply(y, X.RawRowView(r), 3)
		if maxAbsDiff(R.RawRowView(r), y) > 1e-15 {
			t.Fatalf("ApplyRows row %d differs from Apply", r)
		}
	}
	// The orbit of g·x is the orbit of x (up to rounding): every M_j M_i x is some M_k x.
	for i := range s.Len() {
		s.Apply(y, x, i)
		oy := Orbit(s, y)
		for j := range s.Len() {
			best := math.Inf(1)
			for k := range s.Len() {
				best = min(best, maxAbsDiff(oy.RawRowView(j), o.RawRowView(k)))
			}
			if best > 1e-12 {
				t.Fatalf("M_%d M_%d x is not in the orbit of x (distance %g)", j, i, best)
			}
		}
	}
}

func TestLinearSetRefusals(t *testing.T) {
	ctx := context.Background()
	// Rotations by 0° and 50°: a set, not a group.
	s, err := NewLinearSet(ctx, append(rot2(0, false), rot2(50, false)...), 2, 2, "two")
	if err != nil {
		t.Fatal(err)
	}
	if s.Closed() || s.Describe() != "a set of 2 orthogonal matrices, not closed under composition" {
		t.Errorf("closed %v, %q", s.Closed(), s.Describe())
	}
	for _, tc := range []struct {
		m    []float64
		n    int
		want string
	}{
		{[]float64{1, 0, 0, 1, 1, 0.01, 0, 1}, 2, "matrix 1 is not orthogonal (max |M Mᵀ - I| = 0.01"},
		{[]float64{2, 0, 0, 0.5}, 1, "the invariance theory needs a unitary action"},
		{[]float64{1, 0, 0, math.NaN()}, 1, "matrix 0 entry (1, 1) is NaN"},
		{append(rot2(90, false), rot2(90, false)...), 2, "matrices 0 and 1 are equal"},
		{[]float64{1, 0, 0}, 1, "give an array of shape (|G|, d, d)"},
	} {
		_, err := NewLinearSet(ctx, tc.m, tc.n, 2, "bad")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.m, err, tc.want)
		}
	}
	// Within 1e-6 of orthogonal (float32 storage) passes; the hexagonal group rounded to
	// float32 is still closed within the tolerance.
	h := hexagonal()
	for i, v := range h {
		h[i] = float64(float32(v))
	}
	s, err = NewLinearSet(ctx, h, 11, 2, "D6 float32")
	if err != nil || !s.Closed() {
		t.Errorf("float32 hexagonal group: %v, closed %v", err, s != nil && s.Closed())
	}
}
