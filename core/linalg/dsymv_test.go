package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestDotAxpyAsmMatchesTwin: each assembly dot-axpy kernel, one row and four rows at a
// time, gives its Go twin's dots and y bit for bit, for lengths of one, two, three
// vectors and more (the tails of the two-vector loop).
func TestDotAxpyAsmMatchesTwin(t *testing.T) {
	if len(dotAxpyAsmAll()) == 0 {
		t.Skip("no float64 assembly in this build or on this CPU")
	}
	rng := rand.New(rand.NewPCG(9, 33))
	twins := map[string]*dotAxpy{"avx512": dotAxpyGo8, "avx2": dotAxpyGo4}
	for _, k := range dotAxpyAsmAll() {
		tw := twins[k.name]
		for q := 1; q <= 13; q++ {
			n := q * k.w
			a, x, y := randMat(rng, 1, n+1, n+1)[1:], randMat(rng, 1, n, n), randMat(rng, 1, n, n)
			y1, y2 := slices.Clone(y), slices.Clone(y)
			d1, d2 := k.fn(n, a, x, y1, 0.37), tw.fn(n, a, x, y2, 0.37)
			if math.Float64bits(d1) != math.Float64bits(d2) || !slices.Equal(y1, y2) {
				t.Fatalf("%s n=%d: dot %v, twin %v; y equal %v", k.name, n, d1, d2, slices.Equal(y1, y2))
			}
			lda := n + 3
			a4 := randMat(rng, 4, n, lda)
			s4 := [4]float64{0.3, -1.1, 0.7, 2}
			y1, y2 = slices.Clone(y), slices.Clone(y)
			e1, e2 := k.fn4(n, a4, lda, x, y1, &s4), tw.fn4(n, a4, lda, x, y2, &s4)
			if e1 != e2 || !slices.Equal(y1, y2) {
				t.Fatalf("%s four rows, n=%d: dots %v, twin %v; y equal %v", k.name, n, e1, e2, slices.Equal(y1, y2))
			}
		}
	}
}

// TestDsymv compares dsymv with gonum for both triangles, the assembly kernels and their
// twins, n over 1, 2, primes, vector and block edges and the parallel range (>= 512),
// padded lda, alpha in {1, -0.7, 0} (0: x all NaN, not read), beta in {0 (y all NaN), 1,
// 0.3}, A's other triangle NaN (never read): within (2n+4) ulps of |alpha|·|A||x| +
// |beta||y|. Each assembly kernel equals its Go twin bit for bit through dsymv.
func TestDsymv(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 33))
	ks := append([]*dotAxpy{dotAxpyGo8, dotAxpyGo4}, dotAxpyAsmAll()...)
	twins := map[string]*dotAxpy{"avx512": dotAxpyGo8, "avx2": dotAxpyGo4}
	scalars := [][2]float64{{1, 0}, {-0.7, 1}, {1, 0.3}, {0, 0.3}, {0, 0}, {2, 1}}
	for _, k := range ks {
		for _, ul := range uplos {
			for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 511, 512, 700} {
				s := scalars[rng.IntN(len(scalars))]
				lda := n + rng.IntN(3)
				a := randMat(rng, n, n, lda)
				for i := range n {
					for j := range n {
						if i != j && (ul == blas.Upper) != (j > i) {
							a[i*lda+j] = math.NaN()
						}
					}
				}
				x, y := randMat(rng, 1, n, n), randMat(rng, 1, n, n)
				y0, x0 := slices.Clone(y), slices.Clone(x)
				if s[0] == 0 {
					for i := range x {
						x[i], x0[i] = math.NaN(), 0
					}
				}
				if s[1] == 0 {
					for i := range y {
						y[i], y0[i] = math.NaN(), 0
					}
				}
				name := fmt.Sprintf("Dsymv %s ul=%c n=%d alpha=%g beta=%g", k.name, ul, n, s[0], s[1])
				got, want := slices.Clone(y), slices.Clone(y0)
				dsymv(k, ul, n, s[0], a, lda, x, s[1], got)
				ref.Dsymv(ul, n, s[0], a, lda, x0, 1, s[1], want, 1)
				sc := absAll(y0)
				ref.Dsymv(ul, n, math.Abs(s[0]), noNaN(a), lda, absAll(x0), 1, math.Abs(s[1]), sc, 1)
				compare(t, name, 1, n, n, got, want, y, sc, float64(2*n+4), func(i, j int) bool { return true })
				if tw := twins[k.name]; tw != nil {
					got2 := slices.Clone(y)
					dsymv(tw, ul, n, s[0], a, lda, x, s[1], got2)
					if !slices.EqualFunc(got, got2, func(p, q float64) bool { return math.Float64bits(p) == math.Float64bits(q) }) {
						t.Fatalf("%s: differs from the Go twin", name)
					}
				}
			}
		}
	}
}

// TestFloat64DsymvStrides: Float64.Dsymv with non-unit or negative increments (gathered
// and scattered) agrees with gonum within (2n+4) ulps, and bad arguments panic as in
// gonum.
func TestFloat64DsymvStrides(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 33))
	const n = 9
	a := randMat(rng, n, n, n)
	for _, inc := range [][2]int{{2, 1}, {1, -2}, {-1, 3}} {
		x, y := randMat(rng, 1, 3*n, 3*n), randMat(rng, 1, 3*n, 3*n)
		got, want, sc := slices.Clone(y), slices.Clone(y), absAll(y)
		Float64{}.Dsymv(blas.Upper, n, 0.5, a, n, x, inc[0], 0.5, got, inc[1])
		ref.Dsymv(blas.Upper, n, 0.5, a, n, x, inc[0], 0.5, want, inc[1])
		ref.Dsymv(blas.Upper, n, 0.5, absAll(a), n, absAll(x), inc[0], 0.5, sc, inc[1])
		compare(t, fmt.Sprintf("incX=%d incY=%d", inc[0], inc[1]), 1, len(y), len(y), got, want, y, sc, 2*n+4, func(i, j int) bool { return true })
	}
	msg := func(f func()) (s string) {
		defer func() { s = fmt.Sprint(recover()) }()
		f()
		return ""
	}
	for _, c := range []struct{ n, lda, lx int }{{-1, 1, 9}, {9, 8, 9}, {9, 9, 8}} {
		x, y := make([]float64, c.lx), make([]float64, 9)
		got := msg(func() { Float64{}.Dsymv(blas.Upper, c.n, 1, a, c.lda, x, 1, 0, y, 1) })
		want := msg(func() { ref.Dsymv(blas.Upper, c.n, 1, a, c.lda, x, 1, 0, y, 1) })
		if got != want || want == "" {
			t.Errorf("%+v: panic %q, gonum %q", c, got, want)
		}
	}
}
