package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// gemvKerns lists the Dgemv kernels under test: the Go twin and the assembly this build
// and CPU can run.
func gemvKerns() []*gemvKern { return append([]*gemvKern{gemvGo4}, gemvAsmAll()...) }

// sameBits reports whether p and q hold the same float64 values bit for bit.
func sameBits(p, q []float64) bool {
	return slices.EqualFunc(p, q, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
}

// TestGemvAsmMatchesTwin: each assembly Dgemv kernel gives its Go twin's dots and y bit
// for bit, four rows and one row at a time, for lengths of one to thirteen vectors; and
// (on every kernel) four rows at once equal four single rows, so that the grouping of rows
// cannot change a result.
func TestGemvAsmMatchesTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 34))
	for _, k := range gemvKerns() {
		for q := 1; q <= 13; q++ {
			n := q * k.w
			lda := n + 3
			a, x, y := randMat(rng, 4, n, lda), randMat(rng, 1, n, n), randMat(rng, 1, n, n)
			s := [4]float64{0.3, -1.1, 0.7, 2}
			d1, d2 := k.dot4(n, a, lda, x), gemvGo4.dot4(n, a, lda, x)
			if !sameBits(d1[:], d2[:]) {
				t.Fatalf("%s dot4 n=%d: %v, twin %v", k.name, n, d1, d2)
			}
			for r := range 4 {
				if e := k.dot1(n, a[r*lda:], x); math.Float64bits(e) != math.Float64bits(d1[r]) {
					t.Fatalf("%s dot1 n=%d row %d: %v, dot4 %v", k.name, n, r, e, d1[r])
				}
			}
			y1, y2, y3 := slices.Clone(y), slices.Clone(y), slices.Clone(y)
			k.axpy4(n, a, lda, y1, &s)
			gemvGo4.axpy4(n, a, lda, y2, &s)
			for r := range 4 {
				k.axpy1(n, a[r*lda:], y3, s[r])
			}
			if !sameBits(y1, y2) || !sameBits(y1, y3) {
				t.Fatalf("%s axpy4 n=%d: twin equal %v, four axpy1 equal %v", k.name, n, sameBits(y1, y2), sameBits(y1, y3))
			}
			y4 := slices.Clone(y)
			gemvGo4.axpy1(n, a, y4, s[0])
			k.axpy1(n, a, y, s[0])
			if !sameBits(y, y4) {
				t.Fatalf("%s axpy1 n=%d: differs from the twin", k.name, n)
			}
		}
	}
}

// gemvProblem is one Dgemv call's operands: A m×n at stride lda (padding NaN), x and y
// BLAS vectors with increments incX, incY (the entries between elements NaN).
type gemvProblem struct {
	tA          blas.Transpose
	m, n        int
	alpha, beta float64
	a           []float64
	lda         int
	x, y        []float64
	incX, incY  int
}

func (p gemvProblem) lens() (lenX, lenY int) {
	if p.tA == blas.NoTrans {
		return p.n, p.m
	}
	return p.m, p.n
}

// randVec returns a BLAS vector of n elements uniform in [-1, 1) at increment inc, NaN
// between its elements.
func randVec(rng *rand.Rand, n, inc int) []float64 {
	v := make([]float64, max(1, 1+(n-1)*abs(inc)))
	fillNaN(v)
	for i := range n {
		v[i*abs(inc)] = rng.Float64()*2 - 1
	}
	return v
}

// newGemvProblem draws a problem; alpha = 0 makes A and x all NaN (they must not be
// read) and beta = 0 makes y all NaN (it must not be read).
func newGemvProblem(rng *rand.Rand, tA blas.Transpose, m, n, pad, incX, incY int, alpha, beta float64) gemvProblem {
	p := gemvProblem{tA: tA, m: m, n: n, alpha: alpha, beta: beta, lda: max(1, n) + pad, incX: incX, incY: incY}
	lenX, lenY := p.lens()
	p.a, p.x, p.y = randMat(rng, m, n, p.lda), randVec(rng, lenX, incX), randVec(rng, lenY, incY)
	if alpha == 0 {
		fillNaN(p.a)
		fillNaN(p.x)
	}
	if beta == 0 {
		fillNaN(p.y)
	}
	return p
}

// run returns y after Dgemv on the kernels k through gemvInc (nil: gonum's reference).
func (p gemvProblem) run(k *gemvKern) []float64 {
	y := slices.Clone(p.y)
	if k == nil {
		ref.Dgemv(p.tA, p.m, p.n, p.alpha, p.a, p.lda, p.x, p.incX, p.beta, y, p.incY)
	} else {
		gemvInc(k, p.tA, p.m, p.n, p.alpha, p.a, p.lda, p.x, p.incX, p.beta, y, p.incY)
	}
	return y
}

// check compares got with gonum's y element by element: within (2K+4) ulps of
// |alpha|·Σ|a||x| + |beta||y| (K = n for NoTrans, m for Trans: the K products' sum rounds
// by at most K ulps of that size in either implementation, alpha and beta by one or two
// more), NaN only where gonum has NaN; the entries of y between its elements unchanged.
func (p gemvProblem) check(t *testing.T, name string, got []float64) {
	t.Helper()
	want := p.run(nil)
	_, lenY := p.lens()
	var sc []float64
	if p.alpha != 0 {
		sc = slices.Clone(p.y)
		for i := range sc {
			sc[i] = math.Abs(sc[i])
			if p.beta == 0 || math.IsNaN(sc[i]) {
				sc[i] = 0
			}
		}
		ref.Dgemv(p.tA, p.m, p.n, math.Abs(p.alpha), noNaN(p.a), p.lda, noNaN(p.x), p.incX, math.Abs(p.beta), sc, p.incY)
	} else {
		sc = make([]float64, len(p.y))
	}
	inc := abs(p.incY)
	name = fmt.Sprintf("%s tA=%c m=%d n=%d lda=%d incX=%d incY=%d alpha=%g beta=%g", name, p.tA, p.m, p.n, p.lda, p.incX, p.incY, p.alpha, p.beta)
	compare(t, name, 1, len(got), len(got), got, want, p.y, sc, float64(2*max(p.m, p.n)+4),
		func(_, j int) bool { return j%inc == 0 && j/inc < lenY })
}

// gemvScalars are the (alpha, beta) pairs of the tests: beta 0 (y not read), 1 and
// another; alpha 0 (A and x not read) with beta 0, 1 and another.
var gemvScalars = [][2]float64{{1, 0}, {-0.7, 1}, {1.5, 0.3}, {0, 0.3}, {0, 0}, {0, 1}, {2, -1}}

// gemvSizes are the m and n of the shape tests: 1, primes, the vector width and the
// four-row group ±1.
var gemvSizes = []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 17, 31}

// TestDgemvShapes compares Dgemv on every kernel with gonum for both transposes (and
// ConjTrans), every m, n in gemvSizes, lda = n and n + 3, every pair of scalars in turn:
// within the tolerance of check. Each assembly kernel equals its Go twin bit for bit.
func TestDgemvShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 34))
	c := 0
	for _, k := range gemvKerns() {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
			for _, m := range gemvSizes {
				for _, n := range gemvSizes {
					for _, pad := range []int{0, 3} {
						s := gemvScalars[c%len(gemvScalars)]
						c++
						p := newGemvProblem(rng, tA, m, n, pad, 1, 1, s[0], s[1])
						got := p.run(k)
						p.check(t, k.name, got)
						if k != gemvGo4 && !sameBits(got, p.run(gemvGo4)) {
							t.Fatalf("%s tA=%c m=%d n=%d: differs from the Go twin", k.name, tA, m, n)
						}
					}
				}
			}
		}
	}
}

// TestDgemvLarge: products past the parallel threshold (65,536 entries) and the block
// sizes, square, tall and wide, odd sizes and padded lda, agree with gonum within the
// tolerance of check; each equals, bit for bit, the same product computed in one block
// on one goroutine, the Go twin's result, and itself under GOMAXPROCS 1 and 3.
func TestDgemvLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 34))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	shapes := [][2]int{{1031, 1033}, {4099, 17}, {17, 4099}, {300, 257}, {67, 1500}, {2, 40000}, {40000, 3}}
	for _, k := range gemvKerns() {
		for _, tA := range transposes {
			for i, sh := range shapes {
				s := [][2]float64{{1, 0}, {-0.7, 1}, {1.5, 0.3}}[i%3]
				p := newGemvProblem(rng, tA, sh[0], sh[1], i%2, 1, 1, s[0], s[1])
				got := p.run(k)
				p.check(t, k.name, got)
				serial := slices.Clone(p.y)
				if tA == blas.NoTrans {
					gemvRows(k, 0, p.m, p.n, p.alpha, p.a, p.lda, p.x, p.beta, serial)
				} else {
					gemvCols(k, 0, p.n, p.m, p.alpha, p.a, p.lda, p.x, p.beta, serial)
				}
				name := fmt.Sprintf("%s tA=%c %d×%d", k.name, tA, p.m, p.n)
				if !sameBits(got, serial) {
					t.Fatalf("%s: differs from one block on one goroutine", name)
				}
				if k != gemvGo4 && !sameBits(got, p.run(gemvGo4)) {
					t.Fatalf("%s: differs from the Go twin", name)
				}
				for _, procs := range []int{1, 3} {
					runtime.GOMAXPROCS(procs)
					if !sameBits(got, p.run(k)) {
						t.Fatalf("%s: differs under GOMAXPROCS=%d", name, procs)
					}
				}
				runtime.GOMAXPROCS(2)
			}
		}
	}
}

// TestDgemvStrides: non-unit and negative increments of x and y (gathered and scattered
// back), small and past the parallel threshold, with padded lda, agree with gonum within
// the tolerance of check, and the entries of y between its elements stay as they were.
func TestDgemvStrides(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 34))
	incs := [][2]int{{2, 1}, {1, -2}, {-1, 3}, {-3, -1}, {4, 4}}
	for _, k := range gemvKerns() {
		for _, tA := range transposes {
			for i, inc := range incs {
				for _, sh := range [][2]int{{9, 13}, {5, 1}, {1, 6}, {301, 263}} {
					s := gemvScalars[(i+sh[0])%len(gemvScalars)]
					p := newGemvProblem(rng, tA, sh[0], sh[1], 2, inc[0], inc[1], s[0], s[1])
					p.check(t, k.name, p.run(k))
				}
			}
		}
	}
}

// TestDgemvNaNInf: NaN and ±Inf in A, x and y reach the entries of y they feed as in
// gonum: NaN where gonum has NaN, the same infinity where it has one, the finite entries
// within (2K+4) ulps of 2K + 2 (K = max(m, n): a bound of |alpha|·Σ|a||x| + |beta||y|
// for entries below 1 in size, |alpha| <= 2 and |beta| <= 1); with beta = 0 a NaN in y does
// not survive, with alpha = 0 a NaN in A or x does not reach y.
func TestDgemvNaNInf(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 34))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0}
	for _, k := range gemvKerns() {
		for _, tA := range transposes {
			for trial := range 40 {
				m, n := 1+rng.IntN(11), 1+rng.IntN(11)
				s := gemvScalars[trial%len(gemvScalars)]
				p := newGemvProblem(rng, tA, m, n, 1, 1, 1, s[0], s[1])
				lenX, lenY := p.lens()
				// A few specials in A, x and y (where they are read), zeros among them so
				// that 0·Inf meets.
				for range 3 {
					if s[0] != 0 {
						p.a[rng.IntN(m)*p.lda+rng.IntN(n)] = specials[rng.IntN(4)]
						p.x[rng.IntN(lenX)] = specials[rng.IntN(4)]
					}
					p.y[rng.IntN(lenY)] = specials[rng.IntN(4)]
				}
				got, want := p.run(k), p.run(nil)
				name := fmt.Sprintf("%s tA=%c m=%d n=%d alpha=%g beta=%g", k.name, tA, m, n, s[0], s[1])
				for i := range lenY {
					g, w := got[i], want[i]
					switch {
					case math.IsNaN(w) || math.IsNaN(g):
						if math.IsNaN(w) != math.IsNaN(g) {
							t.Fatalf("%s: y[%d] = %v, gonum %v", name, i, g, w)
						}
					case math.IsInf(w, 0) || math.IsInf(g, 0):
						if g != w {
							t.Fatalf("%s: y[%d] = %v, gonum %v", name, i, g, w)
						}
					default:
						if math.Abs(g-w) > float64(2*max(m, n)+4)*ulp*float64(2*max(m, n)+2) {
							t.Fatalf("%s: y[%d] = %v, gonum %v", name, i, g, w)
						}
					}
				}
			}
		}
	}
}

// TestFloat64Dgemv: the public Dgemv (the assembly where it runs, gonum everywhere else)
// agrees with gonum, m or n = 0 returns at once (y untouched), and bad arguments panic
// with gonum's messages, the length checks included.
func TestFloat64Dgemv(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 34))
	for _, tA := range transposes {
		for _, sh := range [][3]int{{7, 11, 1}, {11, 7, -2}, {300, 301, 1}} {
			p := newGemvProblem(rng, tA, sh[0], sh[1], 1, sh[2], 1, 1.5, 0.5)
			got := slices.Clone(p.y)
			Float64{}.Dgemv(p.tA, p.m, p.n, p.alpha, p.a, p.lda, p.x, p.incX, p.beta, got, p.incY)
			p.check(t, "Float64", got)
		}
		for _, sh := range [][2]int{{0, 5}, {5, 0}, {0, 0}} {
			y := randVec(rng, 6, 1)
			got := slices.Clone(y)
			Float64{}.Dgemv(tA, sh[0], sh[1], 1, make([]float64, 30), 5, randVec(rng, 6, 1), 1, 0, got, 1)
			if !sameBits(got, y) {
				t.Errorf("tA=%c m=%d n=%d: wrote y", tA, sh[0], sh[1])
			}
		}
	}
	msg := func(f func()) (s string) {
		defer func() { s = fmt.Sprint(recover()) }()
		f()
		return ""
	}
	for _, c := range []struct {
		tA         blas.Transpose
		m, n, lda  int
		la, lx, ly int
		incX, incY int
	}{
		{tA: 'x', m: 3, n: 3, lda: 3, la: 9, lx: 3, ly: 3, incX: 1, incY: 1},
		{tA: blas.NoTrans, m: -1, n: 3, lda: 3, la: 9, lx: 3, ly: 3, incX: 1, incY: 1},
		{tA: blas.NoTrans, m: 3, n: -1, lda: 3, la: 9, lx: 3, ly: 3, incX: 1, incY: 1},
		{tA: blas.NoTrans, m: 3, n: 3, lda: 2, la: 9, lx: 3, ly: 3, incX: 1, incY: 1},
		{tA: blas.NoTrans, m: 0, n: 3, lda: 2, la: 9, lx: 3, ly: 3, incX: 1, incY: 1},
		{tA: blas.Trans, m: 3, n: 3, lda: 3, la: 9, lx: 3, ly: 3, incX: 0, incY: 1},
		{tA: blas.Trans, m: 3, n: 3, lda: 3, la: 9, lx: 3, ly: 3, incX: 1, incY: 0},
		{tA: blas.NoTrans, m: 3, n: 4, lda: 4, la: 12, lx: 3, ly: 3, incX: 1, incY: 1},
		{tA: blas.Trans, m: 3, n: 4, lda: 4, la: 12, lx: 3, ly: 3, incX: 1, incY: 1},
		{tA: blas.NoTrans, m: 3, n: 3, lda: 3, la: 9, lx: 6, ly: 3, incX: -3, incY: 1},
		{tA: blas.NoTrans, m: 3, n: 3, lda: 3, la: 9, lx: 3, ly: 4, incX: 1, incY: 2},
		{tA: blas.NoTrans, m: 3, n: 3, lda: 4, la: 10, lx: 3, ly: 3, incX: 1, incY: 1},
	} {
		a, x, y := make([]float64, c.la), make([]float64, c.lx), make([]float64, c.ly)
		got := msg(func() { Float64{}.Dgemv(c.tA, c.m, c.n, 1, a, c.lda, x, c.incX, 0, y, c.incY) })
		want := msg(func() { ref.Dgemv(c.tA, c.m, c.n, 1, a, c.lda, x, c.incX, 0, y, c.incY) })
		if got != want || !strings.HasPrefix(want, "blas: ") {
			t.Errorf("%+v: panic %q, gonum %q", c, got, want)
		}
	}
}

// FuzzDgemv compares Dgemv (the assembly where it runs, else the Go twin) with gonum over
// shapes (past the parallel threshold too), lda, increments (negative ones included),
// transposes and scalars, within the tolerance of check.
func FuzzDgemv(f *testing.F) {
	f.Add(uint16(7), uint16(9), uint8(1), int8(1), int8(1), uint8(0), uint8(0), uint64(1))
	f.Add(uint16(300), uint16(257), uint8(0), int8(-2), int8(3), uint8(1), uint8(1), uint64(2))
	f.Add(uint16(0), uint16(5), uint8(2), int8(1), int8(-1), uint8(0), uint8(3), uint64(3))
	f.Add(uint16(5), uint16(4), uint8(3), int8(4), int8(-4), uint8(1), uint8(4), uint64(4))
	k := gemvAsm
	if k == nil {
		k = gemvGo4
	}
	f.Fuzz(func(t *testing.T, m, n uint16, pad uint8, incX, incY int8, tr, sc uint8, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 34))
		ix, iy := int(incX)%5, int(incY)%5
		if ix == 0 || iy == 0 {
			return // gonum panics (TestFloat64Dgemv)
		}
		p := newGemvProblem(rng, transposes[tr&1], int(m%400), int(n%400), int(pad%5), ix, iy,
			gemvScalars[int(sc)%len(gemvScalars)][0], gemvScalars[int(sc)%len(gemvScalars)][1])
		if p.m == 0 || p.n == 0 {
			got := slices.Clone(p.y)
			Float64{}.Dgemv(p.tA, p.m, p.n, p.alpha, p.a, p.lda, p.x, p.incX, p.beta, got, p.incY)
			if !sameBits(got, p.y) {
				t.Fatalf("m=%d n=%d: wrote y", p.m, p.n)
			}
			return
		}
		p.check(t, k.name, p.run(k))
	})
}
